"""The names of sacreBLEU 2.6.0's BLEU tokenizers: data only, so that a command line can list
them without importing the tokenizers (:mod:`mtcompute.tokenizers` runs them)."""

from __future__ import annotations

__all__ = ["DOWNLOADING", "NAMES", "SPM", "TARGET_TOKENIZERS", "tokenizer_for"]

NAMES: tuple[str, ...] = (
    "none",
    "zh",
    "13a",
    "intl",
    "char",
    "ja-mecab",
    "ko-mecab",
    "spm",
    "flores101",
    "flores200",
    "spBLEU-1K",
)
"""Every name sacreBLEU 2.6.0's BLEU accepts for ``tokenize``, in its order."""

DOWNLOADING: tuple[str, ...] = ("spm", "flores101", "flores200", "spBLEU-1K")
"""The tokenizers whose model sacreBLEU downloads: refused by the tools' contracts."""

SPM: tuple[str, ...] = DOWNLOADING
"""The SentencePiece ones the library and the commands run (spBLEU) with a model the user
names or the one sacreBLEU caches, downloaded there when missing (:mod:`mtcompute.spm`)."""

TARGET_TOKENIZERS: dict[str, str] = {"zh": "zh", "ja": "ja-mecab", "ko": "ko-mecab"}
"""BLEU's tokenizer for a target language when none is named (sacreBLEU's
``BLEU._TOKENIZER_MAP``); any other target language gets ``13a``."""


def tokenizer_for(tokenize: str | None, language_pair: str | None) -> str:
    """The BLEU tokenizer sacreBLEU 2.6.0 uses: ``tokenize`` when named, else the one for
    the target language of ``language_pair`` (``src-trg``), else ``13a``.

    >>> tokenizer_for(None, "en-zh"), tokenizer_for("intl", "en-zh"), tokenizer_for(None, None)
    ('zh', 'intl', '13a')
    """
    if tokenize is not None:
        return tokenize
    parts = (language_pair or "").split("-")
    target = parts[1] if len(parts) > 1 else ""  # sacreBLEU's split("-")[1]
    return TARGET_TOKENIZERS.get(target, "13a")
