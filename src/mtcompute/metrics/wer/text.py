"""The units WER and CER align: a text normalised by the chosen options, then split into
words or characters as jiwer 4.0's default transforms split it.

The options apply in this order, each off by default: ``lowercase`` (``str.lower``, jiwer's
``ToLowerCase``), ``remove_punctuation`` (every character of a Unicode general category
``P*`` removed, jiwer's ``RemovePunctuation``), ``collapse_whitespace`` (every run of
whitespace, one character or more, made one space). Then jiwer's defaults, always:
``wer_default`` for words (runs of two or more whitespace characters made one space, the
text stripped, split on the space character, empty strings dropped) and ``cer_default`` for
characters (the text stripped, each code point a unit). Whitespace is Python's
(``str.isspace``, what ``re``'s ``\\s``, ``str.strip`` and ``str.split`` use).
"""

from __future__ import annotations

__all__ = ["NORMALISATIONS", "UNITS", "Unit", "WerOptions", "normalise", "units"]

import re
import unicodedata
from dataclasses import dataclass
from functools import cache
from typing import Final, Literal

Unit = Literal["word", "character"]
UNITS: Final = ("word", "character")
"""What a rate counts: words (WER) or characters (CER)."""

NORMALISATIONS: Final = ("lowercase", "remove_punctuation", "collapse_whitespace")
"""The normalisations' names, in the order they apply (:class:`WerOptions`' after ``unit``)."""

_MULTIPLE_SPACES = re.compile(r"\s\s+")


@dataclass(frozen=True, slots=True)
class WerOptions:
    """The unit and the normalisations (all off: jiwer 4.0's ``wer``/``cer`` defaults)."""

    unit: Unit = "word"
    lowercase: bool = False
    remove_punctuation: bool = False
    collapse_whitespace: bool = False


@cache
def _ascii_punctuation() -> dict[int, None]:
    """``str.translate``'s table deleting the ASCII characters of categories ``P*``."""
    return {i: None for i in range(128) if unicodedata.category(chr(i)).startswith("P")}


def _without_punctuation(text: str) -> str:
    if text.isascii():
        return text.translate(_ascii_punctuation())
    category = unicodedata.category
    return "".join(c for c in text if not category(c).startswith("P"))


def normalise(text: str, options: WerOptions) -> str:
    """``text`` after the options' normalisations (before jiwer's default steps)."""
    if options.lowercase:
        text = text.lower()
    if options.remove_punctuation:
        text = _without_punctuation(text)
    if options.collapse_whitespace:
        text = " ".join(text.split())
    return text


def units(text: str, options: WerOptions) -> list[str] | str:
    """The words (a list) or characters (a string) of ``text`` under ``options``."""
    text = normalise(text, options)
    if options.unit == "character":
        return text.strip()
    if options.collapse_whitespace:
        return text.split()  # single spaces already: the same words as below
    return [w for w in _MULTIPLE_SPACES.sub(" ", text).strip().split(" ") if w]
