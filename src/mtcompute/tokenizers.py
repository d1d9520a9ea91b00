"""sacreBLEU 2.6.0's BLEU tokenizers by the names it gives them (``-tok``, ``tokenize=``).

The pure ones (``13a``, ``zh``, ``char``, ``none``) are :mod:`mtcompute.core.tokenizers`.
``spm``, ``flores101``, ``flores200`` and ``spBLEU-1K`` need a SentencePiece model that
sacreBLEU downloads on first use; mtcompute never downloads, so they are refused with
:class:`~mtcompute.errors.UnsupportedInput`. Every call of :func:`get_tokenizer` builds a new
:class:`Tokenizer`; nothing is cached across instances (sacreBLEU's ``lru_cache`` on the
tokenizer methods is shared by all instances and never freed).

``kernel`` names the tokenizer the compiled kernel's text path applies itself (tokenizing and
counting in one pass, :func:`mtcompute.counting.bleu_text_statistics`); for the others the
caller tokenizes in Python and the kernel splits on whitespace.
"""

from __future__ import annotations

__all__ = [
    "DOWNLOADING",
    "NAMES",
    "TOKENIZE",
    "Tokenizer",
    "get_tokenizer",
]

from collections.abc import Callable
from dataclasses import dataclass

from mtcompute.contracts.validate import Choice, where
from mtcompute.core import tokenizers as pure
from mtcompute.errors import UnsupportedInput

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


def _downloading_message(name: str, path: str) -> str:
    return (
        f"The {name} tokenizer {where(path)} needs a SentencePiece model that sacreBLEU "
        "downloads; mtcompute never downloads models. Use 13a, intl, zh, char, none, "
        "ja-mecab or ko-mecab."
    )


TOKENIZE = Choice(NAMES, DOWNLOADING, _downloading_message)
"""The ``tokenize`` field type: a name of :data:`NAMES`; the downloading ones unsupported."""


@dataclass(frozen=True, slots=True)
class Tokenizer:
    """One tokenizer: ``tokenizer(line)`` is the tokenized line (tokens separated by
    whitespace), ``signature`` what sacreBLEU's signature prints after ``tok:``."""

    name: str
    signature: str
    function: Callable[[str], str]
    kernel: str | None = None

    def __call__(self, line: str) -> str:
        return self.function(line)


def _pure(name: str) -> Tokenizer:
    return Tokenizer(name, name, pure.TOKENIZERS[name], name if name in ("13a", "none") else None)


_BUILDERS: dict[str, Callable[[], Tokenizer]] = {
    "none": lambda: _pure("none"),
    "zh": lambda: _pure("zh"),
    "13a": lambda: _pure("13a"),
    "char": lambda: _pure("char"),
}


def get_tokenizer(name: object, path: str = "/tokenize") -> Tokenizer:
    """The tokenizer sacreBLEU calls ``name``.

    Raises :class:`~mtcompute.errors.InvalidInput` for a name sacreBLEU does not know and
    :class:`~mtcompute.errors.UnsupportedInput` for one mtcompute cannot run here (a model
    to download, or an optional dependency that is not installed), at ``path``.

    >>> get_tokenizer("13a")("Hello, world!")
    'Hello , world !'
    """
    name = TOKENIZE.parse(name, path)
    builder = _BUILDERS.get(name)
    if builder is None:
        raise UnsupportedInput(f"The {name} tokenizer is not available {where(path)}.", path)
    return builder()
