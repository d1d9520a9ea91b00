"""The names of sacreBLEU 2.6.0's BLEU tokenizers: data only, so that a command line can list
them without importing the tokenizers (:mod:`mtcompute.tokenizers` runs them)."""

from __future__ import annotations

__all__ = ["DOWNLOADING", "NAMES"]

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
"""The tokenizers whose model sacreBLEU downloads: refused here."""
