"""Text checks shared by the core and the validators, and the n-gram counter of token
sequences (BLEU tokens, chrF++ words)."""

from __future__ import annotations

__all__ = ["first_lone_surrogate", "ngram_counts"]

from collections import Counter
from collections.abc import Sequence


def first_lone_surrogate(text: str) -> int:
    """Index of the first lone surrogate (U+D800..U+DFFF) in ``text``, or -1.

    Strict UTF-8 can encode every code point except the surrogates, so the encoder's first
    failure is the first surrogate; it stops there.

    >>> first_lone_surrogate("ab\\ud800c"), first_lone_surrogate("abc"), first_lone_surrogate("")
    (2, -1, -1)
    """
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as error:
        return error.start
    return -1


def ngram_counts(tokens: Sequence[str], n: int) -> Counter[tuple[str, ...]]:
    """Counts of the n-grams (tuples of n consecutive items) of ``tokens``, in first-occurrence
    order: the one token n-gram counter (BLEU tokens, chrF++ words)."""
    if n == 1:
        return Counter((t,) for t in tokens)
    return Counter(zip(*(tokens[i:] for i in range(n)), strict=False))
