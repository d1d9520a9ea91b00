"""chrF (Popović 2015 §2, eq. 1) and chrF++ (Popović 2017 §2) in exact arithmetic: the
n-gram statistics of one segment and the exact scores of the seed contracts (chrf-compute,
chrf-plus-plus-compute, chrf-components).

Per segment, :func:`segment_statistics` counts, for each character order n, the hypothesis
n-grams, the reference n-grams and the clipped matches over the code points left after
whitespace removal (the sufficient statistics: the definition that the compiled kernel,
through :mod:`mtcompute.metrics.chrf.statistics`, reproduces). chrF++ adds word orders
(:func:`word_statistics`): words are what sacreBLEU 2.x's ``CHRF._remove_punctuation`` makes
of a text, whitespace-separated pieces with one ASCII punctuation character split off the end
(else the start) of a piece of two or more code points
(:func:`~mtcompute.metrics.chrf.words.split_words`); word n-grams are
counted by the BLEU core's token n-gram counter (one counter for the package). Statistics
(:class:`ChrfStatistics`, one entry per order, character orders first) add up over segments.

Two averagings score them, exactly:

* ``effective_order`` (sacreBLEU 2.x's default, chrf-compute's rule; :func:`chrf_ratio`,
  :func:`chrf_fraction`): an order enters the means of m/h and m/r only when both sides have
  an n-gram of that order, and the score is F_beta of the two means;
* ``per_order_f`` (chrF++.py, NLTK, Moses; sacreBLEU's ``eps_smoothing``): every order has
  P = m/h and R = m/r, or ε = 10^-16 where h or r is 0, and its F_beta (ε where the F's
  denominator is 0); the score is the mean F over all orders (:func:`averaged_score`).

Everything is ``int`` (an exact fraction is a reduced numerator and denominator, or a
``Fraction``; ε is the exact fraction 1/10^16); :func:`format_score` rounds half-even to six
decimals at the very end.
"""

from __future__ import annotations

__all__ = [
    "AVERAGINGS",
    "EPSILON",
    "Averaging",
    "ChrfScore",
    "ChrfStatistics",
    "OrderScore",
    "averaged_score",
    "chrf_fraction",
    "chrf_ratio",
    "format_fraction",
    "format_ratio",
    "format_score",
    "order_statistics",
    "sacrebleu_zeroed",
    "segment_statistics",
    "segment_statistics_with_words",
    "strip_whitespace",
    "word_statistics",
]

from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import starmap
from math import gcd
from operator import add
from typing import Literal, TypeVar

from mtcompute.core.text import ngram_counts
from mtcompute.metrics.chrf.words import CHRF_WHITESPACE, split_words

S = TypeVar("S", bound=Sequence[object])  # what is split into n-grams: a str, a word list
K = TypeVar("K", bound=Hashable)  # an n-gram

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


# --- chrF++'s word orders --------------------------------------------------------------------


def word_statistics(
    hypothesis: str, reference: str, word_order: int, lowercase: bool = False
) -> ChrfStatistics:
    """Word n-gram counts for n = 1..word_order of one segment (lowercased first if asked).

    Hypothesis and reference counts are ``max(0, words - n + 1)``; clipped matches are
    ``sum over reference n-grams g of min(ref count, hyp count)``.
    """
    if lowercase:
        hypothesis = hypothesis.lower()
        reference = reference.lower()
    return order_statistics(
        split_words(hypothesis), split_words(reference), word_order, ngram_counts
    )


def segment_statistics_with_words(
    hypothesis: str, reference: str, char_order: int, word_order: int, lowercase: bool = False
) -> ChrfStatistics:
    """Counts of one segment: character orders 1..char_order, then word orders 1..word_order."""
    chars = segment_statistics(hypothesis, reference, char_order, lowercase)
    if word_order == 0:
        return chars
    words = word_statistics(hypothesis, reference, word_order, lowercase)
    return ChrfStatistics(
        chars.hypothesis + words.hypothesis,
        chars.reference + words.reference,
        chars.matches + words.matches,
    )


def sacrebleu_zeroed(stats: ChrfStatistics) -> ChrfStatistics:
    """One segment's counts as sacreBLEU 2.x keeps them: the hypothesis count of an order is 0
    where the reference has no n-gram of that order."""
    return ChrfStatistics(
        tuple(h if r > 0 else 0 for h, r in zip(stats.hypothesis, stats.reference, strict=True)),
        stats.reference,
        stats.matches,
    )


# --- scores per order, under either averaging ------------------------------------------------

Averaging = Literal["effective_order", "per_order_f"]
AVERAGINGS: tuple[Averaging, ...] = ("effective_order", "per_order_f")
EPSILON = Fraction(1, 10**16)  # sacreBLEU's eps = 1e-16, as the exact decimal it stands for


@dataclass(frozen=True, slots=True)
class OrderScore:
    """One order's precision, recall and F_beta (``None`` where the averaging leaves them out)."""

    precision: Fraction | None
    recall: Fraction | None
    f: Fraction | None


@dataclass(frozen=True, slots=True)
class ChrfScore:
    """Per-order scores, the averaged precision and recall, and the score on the 0..100 scale."""

    orders: tuple[OrderScore, ...]
    precision: Fraction | None
    recall: Fraction | None
    score: Fraction


def _f_beta(precision: Fraction, recall: Fraction, beta2: int) -> Fraction:
    return (1 + beta2) * precision * recall / (beta2 * precision + recall)


def averaged_score(stats: ChrfStatistics, beta: int, averaging: Averaging) -> ChrfScore:
    """Score counts of any number of orders (Popović 2015 eq. 1), exactly.

    ``effective_order``: orders with h > 0 and r > 0 get P = m/h, R = m/r and their F (0 when
    P = R = 0), the others ``None``; precision and recall are the means over those orders
    (``None`` if there is none), the score 100 F_beta(P, R), 0 if none or P = R = 0.
    ``per_order_f``: every order gets P = m/h (ε if h = 0), R = m/r (ε if r = 0) and
    F = F_beta(P, R) (ε if beta^2 P + R = 0); precision, recall and F are averaged over all
    orders and the score is 100 times the mean F.
    """
    beta2 = beta * beta
    triples = list(zip(stats.matches, stats.hypothesis, stats.reference, strict=True))
    orders: list[OrderScore] = []
    if averaging == "per_order_f":
        for m, h, r in triples:
            p = Fraction(m, h) if h > 0 else EPSILON
            q = Fraction(m, r) if r > 0 else EPSILON
            f = _f_beta(p, q, beta2) if p or q else EPSILON
            orders.append(OrderScore(p, q, f))
        k = len(orders)
        return ChrfScore(
            tuple(orders),
            sum((o.precision for o in orders if o.precision is not None), Fraction(0)) / k,
            sum((o.recall for o in orders if o.recall is not None), Fraction(0)) / k,
            100 * sum((o.f for o in orders if o.f is not None), Fraction(0)) / k,
        )
    sum_p = sum_r = Fraction(0)
    k = 0
    for m, h, r in triples:
        if h > 0 and r > 0:
            p, q = Fraction(m, h), Fraction(m, r)
            orders.append(OrderScore(p, q, _f_beta(p, q, beta2) if m else Fraction(0)))
            sum_p, sum_r, k = sum_p + p, sum_r + q, k + 1
        else:
            orders.append(OrderScore(None, None, None))
    if k == 0:
        return ChrfScore(tuple(orders), None, None, Fraction(0))
    precision, recall = sum_p / k, sum_r / k
    score = 100 * _f_beta(precision, recall, beta2) if precision or recall else Fraction(0)
    return ChrfScore(tuple(orders), precision, recall, score)
