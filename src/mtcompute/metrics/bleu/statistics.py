"""BLEU: sentence statistics (Papineni et al. 2002 §2.1) and smoothing (Chen & Cherry 2014 §2.2).

Two pure steps with the sufficient statistics as the seam between them:

* :func:`sentence_statistics` counts one segment: clipped n-gram matches, n-gram totals, the
  candidate length and the closest reference length (ties to the shorter, as mteval-v13a,
  NLTK and sacreBLEU). It is the definition that the compiled kernel, through
  :mod:`mtcompute.metrics.bleu.counts`, reproduces.
* :func:`smooth_and_score` turns (corpus-summed) statistics into smoothed counts, the brevity
  penalty and BLEU, with the float operations in the order the bleu-smoothing-compute
  contract gives and JavaScript's ``Math.log``/``Math.exp`` (fdlibm ports in
  :mod:`mtcompute.core.jsmath`).

Counts are ints throughout; the only float steps are in :func:`smooth_and_score`.
"""

from __future__ import annotations

__all__ = [
    "BLEU_SMOOTHING",
    "SMOOTHINGS",
    "SMOOTH_DEFAULTS",
    "UNSUPPORTED_SMOOTHINGS",
    "BleuStatistics",
    "NgramEntry",
    "SmoothedBleu",
    "Smoothing",
    "brevity_penalty",
    "clipping_table",
    "closest_reference_length",
    "corpus_brevity_penalty",
    "sentence_statistics",
    "smooth_and_score",
]

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from mtcompute.core.jsmath import js_exp, js_logs, round_to_fixed
from mtcompute.core.text import ngram_counts

Smoothing = Literal["none", "method1", "method2", "method3"]
SMOOTHINGS: tuple[Smoothing, ...] = ("none", "method1", "method2", "method3")


# Chen & Cherry 2014 methods 4-7 need more than the sufficient statistics (lengths of the
# source or of the corpus): refused as unsupported_input, never computed.
UNSUPPORTED_SMOOTHINGS = ("method4", "method5", "method6", "method7")

# sacreBLEU's smoothing methods (its BLEU, metrics/bleu/score.py) and the value each uses when
# none is given: here, with the catalog's, so that declaring an option does not import scoring.
SMOOTH_DEFAULTS: dict[str, float | None] = {"none": None, "floor": 0.1, "add-k": 1, "exp": None}
BLEU_SMOOTHING: tuple[str, ...] = tuple(SMOOTH_DEFAULTS)
Number = int | float


@dataclass(frozen=True, slots=True)
class BleuStatistics:
    """Sufficient statistics of BLEU for one segment or a sum of segments."""

    candidate_length: int
    reference_length: int
    matches: tuple[int, ...]
    totals: tuple[int, ...]

    def __add__(self, other: BleuStatistics) -> BleuStatistics:
        if len(self.matches) != len(other.matches):
            raise ValueError("cannot add BLEU statistics of different max orders")
        return BleuStatistics(
            self.candidate_length + other.candidate_length,
            self.reference_length + other.reference_length,
            tuple(a + b for a, b in zip(self.matches, other.matches, strict=True)),
            tuple(a + b for a, b in zip(self.totals, other.totals, strict=True)),
        )

    def score(
        self,
        smoothing: Smoothing = "none",
        epsilon: Number = 0.1,
        effective_order: bool = False,
        decimals: int | None = None,
    ) -> SmoothedBleu:
        """:func:`smooth_and_score` of these statistics."""
        return smooth_and_score(
            self.matches,
            self.totals,
            self.candidate_length,
            self.reference_length,
            smoothing,
            epsilon,
            effective_order,
            decimals,
        )


@dataclass(frozen=True, slots=True)
class NgramEntry:
    """One row of the clipping table: a distinct hypothesis n-gram and its clipped count."""

    order: int
    ngram: tuple[str, ...]
    count: int
    max_reference_count: int

    @property
    def clipped_count(self) -> int:
        """``min(count, max_reference_count)`` (Papineni 2002 §2.1, modified precision)."""
        return min(self.count, self.max_reference_count)


def closest_reference_length(candidate_length: int, reference_lengths: Sequence[int]) -> int:
    """The reference length closest to the candidate's; on a tie the shorter one wins."""
    return min(reference_lengths, key=lambda r: (abs(r - candidate_length), r))


def _max_reference_counts(
    references: Sequence[Sequence[str]], n: int
) -> dict[tuple[str, ...], int]:
    best: dict[tuple[str, ...], int] = {}
    for reference in references:
        for gram, count in ngram_counts(reference, n).items():
            if count > best.get(gram, 0):
                best[gram] = count
    return best


def sentence_statistics(
    hypothesis: Sequence[str], references: Sequence[Sequence[str]], max_order: int
) -> BleuStatistics:
    """Clipped matches and totals per order n = 1..max_order for one segment.

    ``matches[n-1]`` sums, over distinct hypothesis n-grams g, ``min(count(g), largest count
    of g in any single reference)``; ``totals[n-1] = max(0, c - n + 1)``.
    """
    c = len(hypothesis)
    matches: list[int] = []
    for n in range(1, max_order + 1):
        if c < n:
            matches.append(0)
            continue
        best = _max_reference_counts(references, n)
        matches.append(
            sum(
                min(count, best.get(gram, 0)) for gram, count in ngram_counts(hypothesis, n).items()
            )
        )
    totals = tuple(max(0, c - n + 1) for n in range(1, max_order + 1))
    r = closest_reference_length(c, [len(ref) for ref in references])
    return BleuStatistics(c, r, tuple(matches), totals)


def clipping_table(
    hypothesis: Sequence[str], references: Sequence[Sequence[str]], max_order: int
) -> list[NgramEntry]:
    """Every distinct hypothesis n-gram, ordered by order, then by first occurrence."""
    table: list[NgramEntry] = []
    for n in range(1, max_order + 1):
        best = _max_reference_counts(references, n)
        # Counter keeps first-insertion order, which is first occurrence in the hypothesis.
        for gram, count in ngram_counts(hypothesis, n).items():
            table.append(NgramEntry(n, gram, count, best.get(gram, 0)))
    return table


@dataclass(frozen=True, slots=True)
class SmoothedBleu:
    """Smoothed counts, brevity penalty and BLEU, as bleu-smoothing-compute reports them."""

    bleu: float
    brevity_penalty: float
    orders_used: int
    smoothed_matches: tuple[Number, ...]
    smoothed_totals: tuple[int, ...]


def _smooth(
    matches: Sequence[int], totals: Sequence[int], smoothing: Smoothing, epsilon: Number
) -> tuple[tuple[Number, ...], tuple[int, ...]]:
    """Chen & Cherry 2014 §2.2 smoothed counts (exact: ints, epsilon as given, or 1/2^k)."""
    if smoothing == "none":
        return tuple(matches), tuple(totals)
    if smoothing == "method1":
        return tuple(epsilon if m == 0 else m for m in matches), tuple(totals)
    if smoothing == "method2":
        return (
            tuple(m + 1 if i >= 1 else m for i, m in enumerate(matches)),
            tuple(t + 1 if i >= 1 else t for i, t in enumerate(totals)),
        )
    # method3 (NIST geometric): the k-th zero-match order, counted from n = 1, gets 1/2^k.
    smoothed: list[Number] = []
    k = 0
    for m in matches:
        if m == 0:
            k += 1
            smoothed.append(1.0 / (1 << k))
        else:
            smoothed.append(m)
    return tuple(smoothed), tuple(totals)


def brevity_penalty(candidate_length: int, reference_length: int) -> float:
    """0 when c = 0; 1 when c > r; else ``exp(1 - r/c)`` with JavaScript's ``Math.exp``."""
    c, r = candidate_length, reference_length
    if c == 0:
        return 0.0
    if c > r:
        return 1.0
    # Float steps named by the contract: r/c in double precision, 1 - that, then exp.
    return js_exp(1.0 - float(r) / float(c))


def corpus_brevity_penalty(
    candidate_lengths: Sequence[int],
    reference_lengths: Sequence[Sequence[int]],
    decimals: int | None = None,
) -> tuple[int, int, tuple[int, ...], float, float | None]:
    """The corpus brevity penalty of per-segment lengths (Papineni 2002 §2.2.2), as
    bleu-brevity-penalty reports it: the summed candidate lengths c, the summed closest
    reference lengths r, each segment's closest reference length, :func:`brevity_penalty` of
    c and r, and c / r (``None`` when r = 0); the last two rounded to ``decimals`` if given.

    >>> corpus_brevity_penalty([6, 6, 3], [[8], [6, 7], [2, 4]])[:3]
    (15, 16, (8, 6, 2))
    """
    closest = tuple(
        closest_reference_length(c, refs)
        for c, refs in zip(candidate_lengths, reference_lengths, strict=True)
    )
    c, r = sum(candidate_lengths), sum(closest)
    bp = brevity_penalty(c, r)
    # The one float step of its own: c / r in double precision (both exact below 2^53).
    ratio = float(c) / float(r) if r else None
    if decimals is not None:
        bp = round_to_fixed(bp, decimals)
        ratio = None if ratio is None else round_to_fixed(ratio, decimals)
    return c, r, closest, bp, ratio


def smooth_and_score(
    matches: Sequence[int],
    totals: Sequence[int],
    candidate_length: int,
    reference_length: int,
    smoothing: Smoothing = "none",
    epsilon: Number = 0.1,
    effective_order: bool = False,
    decimals: int | None = None,
) -> SmoothedBleu:
    """BLEU from statistics (bleu-smoothing-compute@1.0.0); inputs must already be valid."""
    smoothed_matches, smoothed_totals = _smooth(matches, totals, smoothing, epsilon)
    if effective_order:
        # the leading orders whose smoothed total is > 0
        positive = [total > 0 for total in smoothed_totals]
        orders_used = positive.index(False) if False in positive else len(positive)
    else:
        orders_used = len(smoothed_totals)

    bp = brevity_penalty(candidate_length, reference_length)
    used = range(orders_used)
    if (
        candidate_length == 0
        or matches[0] == 0
        or orders_used == 0
        or any(smoothed_totals[i] == 0 or smoothed_matches[i] == 0 for i in used)
    ):
        bleu = 0.0
    else:
        # The contract's float order: per order ln(m/l) with the division first in double
        # precision, a plain left-to-right sum (not fsum, not sum(): its algorithm changed in
        # Python 3.12), the sum divided by the order count, exp, then times the penalty.
        s = 0.0
        for term in js_logs(float(smoothed_matches[i]) / float(smoothed_totals[i]) for i in used):
            s += term
        bleu = bp * js_exp(s / orders_used)

    if decimals is not None:
        bleu = round_to_fixed(bleu, decimals)
        bp = round_to_fixed(bp, decimals)
    return SmoothedBleu(bleu, bp, orders_used, smoothed_matches, smoothed_totals)
