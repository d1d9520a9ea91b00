"""What chrF reads of a text, under both rule sets: the whitespace it removes
(:data:`CHRF_WHITESPACE`) and chrF++'s words (:func:`split_words`, sacreBLEU 2.x's
``CHRF._remove_punctuation``). Its own module so that sacreBLEU's statistics
(:mod:`mtcompute.metrics.chrf.sacrebleu_statistics`) do not load the exact core
(:mod:`mtcompute.metrics.chrf.ngrams`, with its Fractions) to split words."""

from __future__ import annotations

__all__ = ["CHRF_WHITESPACE", "PUNCTUATION", "split_words"]

import re

# The 29 whitespace code points of Python 3's str.split() (what sacreBLEU removes), as the
# contract lists them. Spelled out rather than taken from str.split() so that a Python with a
# different Unicode database cannot change the metric; a test checks the two agree here.
CHRF_WHITESPACE = (
    "\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f \x85\xa0\u1680"
    "\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u2028\u2029\u202f\u205f\u3000"
)

# Python's string.punctuation, spelled out: the 32 ASCII punctuation characters of sacreBLEU's
# CHRF._PUNCTS.
PUNCTUATION = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")

_WHITESPACE_RE = re.compile("[" + re.escape(CHRF_WHITESPACE) + "]+")


def split_words(text: str) -> list[str]:
    """The chrF++ words of ``text`` (sacreBLEU 2.x ``CHRF._remove_punctuation``).

    Pieces between runs of the 29 whitespace code points; a piece of two or more code points
    ending in an ASCII punctuation character becomes the piece without it, then that character;
    otherwise one starting with one becomes that character, then the rest. One split at most.

    >>> split_words("(Hello), world! (hi) ... '")
    ['(Hello)', ',', 'world', '!', '(hi', ')', '..', '.', "'"]
    """
    words: list[str] = []
    for piece in _WHITESPACE_RE.split(text):
        if len(piece) < 2:
            if piece:
                words.append(piece)
        elif piece[-1] in PUNCTUATION:
            words += (piece[:-1], piece[-1])
        elif piece[0] in PUNCTUATION:
            words += (piece[0], piece[1:])
        else:
            words.append(piece)
    return words
