"""chrF++ word n-grams and chrF with configurable orders (Popović 2017 §2; Popović 2015 §2).

chrF++ (Popović 2017) adds word unigrams and bigrams to chrF's character 1- to 6-grams and
averages all orders together. Words are what sacreBLEU 2.x's ``CHRF._remove_punctuation``
makes of a text: whitespace-separated pieces, with one ASCII punctuation character split off
the end (else the start) of a piece of two or more code points (:func:`split_words`).

Statistics are :class:`~mtcompute.core.chrf.ChrfStatistics` with one entry per order, the
character orders first, then the word orders; word n-grams are counted by the BLEU core's token
n-gram counter (one counter for the package). Two averagings score them, exactly:

* ``effective_order`` (sacreBLEU 2.x's default, chrf-compute's rule): P and R are the means of
  m/h and m/r over the orders with h > 0 and r > 0, the score is F_beta of P and R;
* ``per_order_f`` (chrF++.py, NLTK, Moses; sacreBLEU's ``eps_smoothing``): every order has
  P = m/h and R = m/r, or ε = 10^-16 where h or r is 0, and its F_beta (ε where the F's
  denominator is 0); the score is the mean F over all orders.

Everything is ``int`` and ``Fraction``; ε is the exact fraction 1/10^16.
"""

from __future__ import annotations

__all__ = [
    "AVERAGINGS",
    "EPSILON",
    "PUNCTUATION",
    "Averaging",
    "ChrfScore",
    "OrderScore",
    "chrf_score",
    "sacrebleu_zeroed",
    "segment_statistics_with_words",
    "split_words",
    "word_statistics",
]

import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from mtcompute.core.chrf import (
    CHRF_WHITESPACE,
    ChrfStatistics,
    order_statistics,
    segment_statistics,
)
from mtcompute.core.text import ngram_counts

Averaging = Literal["effective_order", "per_order_f"]
AVERAGINGS: tuple[Averaging, ...] = ("effective_order", "per_order_f")

# Python's string.punctuation, spelled out: the 32 ASCII punctuation characters of sacreBLEU's
# CHRF._PUNCTS.
PUNCTUATION = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
EPSILON = Fraction(1, 10**16)  # sacreBLEU's eps = 1e-16, as the exact decimal it stands for

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


def chrf_score(stats: ChrfStatistics, beta: int, averaging: Averaging) -> ChrfScore:
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
