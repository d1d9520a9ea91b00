"""chrF: character n-gram F-score (Popović 2015 §2, eq. 1), in exact rational arithmetic.

Per segment, :func:`segment_statistics` counts, for each order n, the hypothesis n-grams, the
reference n-grams and the clipped matches (the sufficient statistics: the definition that the
compiled kernel, through :mod:`mtcompute.counting`, reproduces). Statistics add up
over segments; :func:`chrf_fraction` scores them with sacreBLEU 2.x's effective-order rule: an
order enters the averages only when both sides have an n-gram of that order. Everything is
``int`` (an exact fraction is a reduced numerator and denominator, or a ``Fraction``);
:func:`format_score` rounds half-even to six decimals at the very end.
"""

from __future__ import annotations

__all__ = [
    "CHRF_WHITESPACE",
    "ChrfStatistics",
    "chrf_fraction",
    "chrf_ratio",
    "format_fraction",
    "format_ratio",
    "format_score",
    "order_statistics",
    "segment_statistics",
    "strip_whitespace",
]

from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import starmap
from math import gcd
from operator import add
from typing import TypeVar

S = TypeVar("S", bound=Sequence[object])  # what is split into n-grams: a str, a word list
K = TypeVar("K", bound=Hashable)  # an n-gram

# The 29 whitespace code points of Python 3's str.split() (what sacreBLEU removes), as the
# contract lists them. Spelled out rather than taken from str.split() so that a Python with a
# different Unicode database cannot change the metric; a test checks the two agree here.
CHRF_WHITESPACE = (
    "\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f \x85\xa0\u1680"
    "\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u2028\u2029\u202f\u205f\u3000"
)
_DELETE_WHITESPACE = dict.fromkeys(map(ord, CHRF_WHITESPACE))


def strip_whitespace(text: str) -> str:
    """Remove every whitespace code point of the contract's list; keep everything else.

    >>> strip_whitespace("a b\\u3000c\\u200bd")
    'abc\\u200bd'
    """
    return text.translate(_DELETE_WHITESPACE)


@dataclass(frozen=True, slots=True)
class ChrfStatistics:
    """Per-order counts: hypothesis n-grams, reference n-grams, clipped matches."""

    hypothesis: tuple[int, ...]
    reference: tuple[int, ...]
    matches: tuple[int, ...]

    def __add__(self, other: ChrfStatistics) -> ChrfStatistics:
        return ChrfStatistics(
            tuple(starmap(add, zip(self.hypothesis, other.hypothesis, strict=True))),
            tuple(starmap(add, zip(self.reference, other.reference, strict=True))),
            tuple(starmap(add, zip(self.matches, other.matches, strict=True))),
        )

    @classmethod
    def zero(cls, orders: int) -> ChrfStatistics:
        """The identity of ``+`` for ``orders`` orders."""
        empty = (0,) * orders
        return cls(empty, empty, empty)

    @classmethod
    def total(cls, items: Sequence[ChrfStatistics], orders: int) -> ChrfStatistics:
        """The ``+`` of every item (of ``orders`` orders; :meth:`zero` when there are none),
        in one sum per count.

        >>> ChrfStatistics.total([ChrfStatistics((1,), (2,), (1,))] * 3, 1)
        ChrfStatistics(hypothesis=(3,), reference=(6,), matches=(3,))
        """
        if not items:
            return cls.zero(orders)
        return cls(
            _column_sums(item.hypothesis for item in items),
            _column_sums(item.reference for item in items),
            _column_sums(item.matches for item in items),
        )


def _column_sums(rows: Iterable[tuple[int, ...]]) -> tuple[int, ...]:
    """The sum of each column of equally long rows."""
    return tuple(map(sum, zip(*rows, strict=True)))


def _char_ngrams(text: str, n: int) -> Counter[str]:
    return Counter(text[i : i + n] for i in range(len(text) - n + 1))


def order_statistics(
    hypothesis: S, reference: S, orders: int, ngrams: Callable[[S, int], Counter[K]]
) -> ChrfStatistics:
    """Counts for n = 1..orders of two sequences (code points, or chrF++ words): hypothesis
    and reference counts ``max(0, len - n + 1)``, and clipped matches ``sum over n-grams g of
    min(hypothesis count, reference count)``; ``ngrams(sequence, n)`` counts the n-grams."""
    hyp_counts: list[int] = []
    ref_counts: list[int] = []
    matches: list[int] = []
    for n in range(1, orders + 1):
        hyp_counts.append(max(0, len(hypothesis) - n + 1))
        ref_counts.append(max(0, len(reference) - n + 1))
        if len(hypothesis) < n or len(reference) < n:
            matches.append(0)
            continue
        h = ngrams(hypothesis, n)
        r = ngrams(reference, n)
        small, large = (h, r) if len(h) < len(r) else (r, h)
        matches.append(sum(min(count, large[g]) for g, count in small.items() if g in large))
    return ChrfStatistics(tuple(hyp_counts), tuple(ref_counts), tuple(matches))


def segment_statistics(
    hypothesis: str, reference: str, char_order: int = 6, lowercase: bool = False
) -> ChrfStatistics:
    """Counts for n = 1..char_order of one segment, after lowercasing and whitespace removal
    (:func:`order_statistics` of the remaining code points)."""
    if lowercase:
        hypothesis = hypothesis.lower()
        reference = reference.lower()
    hyp, ref = strip_whitespace(hypothesis), strip_whitespace(reference)
    return order_statistics(hyp, ref, char_order, _char_ngrams)


def chrf_ratio(stats: ChrfStatistics, beta: int) -> tuple[int, int]:
    """The exact chrF_beta on the 0..100 scale as a reduced ``(numerator, denominator)``
    (Popović 2015 eq. 1, sacreBLEU effective order), in integer arithmetic.

    chrP and chrR are the arithmetic means of m/h and m/r over the effective orders (both
    counts > 0); no effective order, or both means 0, gives 0 (``(0, 1)``). The denominator
    is positive and shares no factor with the numerator, as in :class:`fractions.Fraction`.

    >>> chrf_ratio(ChrfStatistics((3, 2), (4, 3), (2, 1)), 2)  # P = 7/12, R = 5/12
    (4375, 99)
    """
    # The sums of m/h and of m/r over the effective orders, as p_num/p_den and r_num/r_den
    # (each added term multiplies the denominator; one gcd at the end reduces the result).
    p_num, p_den, r_num, r_den = 0, 1, 0, 1
    k = 0
    for m, h, n in zip(stats.matches, stats.hypothesis, stats.reference, strict=True):
        if h > 0 and n > 0:
            p_num = p_num * h + m * p_den
            p_den *= h
            r_num = r_num * n + m * r_den
            r_den *= n
            k += 1
    if k == 0 or (p_num == 0 and r_num == 0):
        return 0, 1
    # P = p/k and R = r/k; F = 100 (1 + b^2) P R / (b^2 P + R), in which k cancels once.
    beta2 = beta * beta
    numerator = 100 * (1 + beta2) * p_num * r_num
    denominator = k * (beta2 * p_num * r_den + r_num * p_den)
    divisor = gcd(numerator, denominator)
    if denominator < 0:  # only for invalid (negative) counts: keep the sign on the numerator
        divisor = -divisor
    return numerator // divisor, denominator // divisor


def chrf_fraction(stats: ChrfStatistics, beta: int) -> Fraction:
    """The exact chrF_beta on the 0..100 scale: :func:`chrf_ratio` as a ``Fraction``.

    >>> chrf_fraction(ChrfStatistics((3, 2), (4, 3), (2, 1)), 2)
    Fraction(4375, 99)
    """
    return Fraction(*chrf_ratio(stats, beta))


def format_ratio(numerator: int, denominator: int) -> str:
    """``numerator/denominator`` (>= 0, denominator > 0) rounded to six decimals, ties to
    even, as ``"dd.dddddd"``.

    >>> format_ratio(250, 11), format_ratio(1, 2_000_000), format_ratio(3, 2_000_000)
    ('22.727273', '0.000000', '0.000002')
    """
    micro, twice_rest = divmod(2 * numerator * 1_000_000, 2 * denominator)
    if twice_rest > denominator or (twice_rest == denominator and micro % 2 == 1):
        micro += 1
    return f"{micro // 1_000_000}.{micro % 1_000_000:06d}"


def format_score(score: Fraction | int) -> str:
    """The score rounded to six decimals, ties to even, as ``"dd.dddddd"``."""
    return format_ratio(score.numerator, score.denominator)


def format_fraction(score: Fraction | int) -> str:
    """The reduced fraction as ``"n/d"`` (``Fraction`` is always reduced; 0 is ``0/1``)."""
    return f"{score.numerator}/{score.denominator}"
