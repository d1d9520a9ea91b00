"""Batch APIs: corpus chrF, all-pairs sentence chrF (MBR) and corpus BLEU, any size.

* chrF is Popović 2015 §2 (eq. 1) with sacreBLEU 2.x's effective-order rule, exactly as the
  chrf-compute contract defines it: per-order counts summed over the segments, then one exact
  fraction (:func:`mtcompute.core.chrf.chrf_ratio`).
* BLEU is Papineni et al. 2002 §2.1 (clipped n-gram precision, closest reference length,
  brevity penalty) with Chen & Cherry 2014 §2.2 smoothing: the bleu-sentence-components
  statistics of every segment, summed, then :func:`mtcompute.core.bleu.smooth_and_score`
  (the bleu-smoothing-compute rules).

These are the library forms of the tools, without the service limits (segment counts, text
and token bytes, references per segment) but with the contracts' behaviour rules: texts and
tokens are str without lone surrogates, tokens are non-empty, every segment has at least one
reference. Faults raise :class:`~mtcompute.errors.InvalidInput` (or
:class:`~mtcompute.errors.UnsupportedInput` for Chen & Cherry ``method4`` to ``method7``)
naming the field and index as a JSON Pointer. The counting runs in the C kernel when it is
built (:mod:`mtcompute.core.kernel`; threads from ``MTCOMPUTE_THREADS``, default all CPUs) and
gives the same numbers as the pure core.
"""

from __future__ import annotations

import math

from mtcompute.core import kernel
from mtcompute.core._record import Record
from mtcompute.core.chrf import ChrfStatistics, chrf_ratio, format_ratio
from mtcompute.errors import InvalidInput, json_pointer
from mtcompute.tools._bleu_common import STATISTICS_ONLY_REASON, parse_smoothing
from mtcompute.tools._validate import describe, require_bool, require_same_count

# `mtcompute score` imports this module: typing, dataclasses and fractions stay out of its
# start-up (the exact score is kept as integers; .fraction builds the Fraction on demand).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from fractions import Fraction

    from mtcompute.core.bleu import Smoothing

__all__ = ["CorpusBleu", "CorpusChrf", "chrf_pairwise", "corpus_bleu", "corpus_chrf"]

CHAR_ORDER = 6


class CorpusChrf(Record):
    """Corpus chrF: the exact score (0..100 scale) as a reduced ``numerator``/``denominator``
    (also as :attr:`fraction`), the nearest float, and the six-decimal text.

    ``statistics`` are the per-order counts summed over the segments; two results with the
    same ``beta`` add up (``a + b`` is the result of the segments of both, in order).
    """

    __slots__ = (
        "statistics",
        "beta",
        "numerator",
        "denominator",
        "score",
        "score_text",
        "segment_scores",
    )
    statistics: ChrfStatistics
    beta: int
    numerator: int
    denominator: int
    score: float
    score_text: str
    segment_scores: tuple[float, ...] | None

    def __init__(
        self,
        statistics: ChrfStatistics,
        beta: int,
        numerator: int,
        denominator: int,
        score: float,
        score_text: str,
        segment_scores: tuple[float, ...] | None,
    ) -> None:
        object.__setattr__(self, "statistics", statistics)
        object.__setattr__(self, "beta", beta)
        object.__setattr__(self, "numerator", numerator)
        object.__setattr__(self, "denominator", denominator)
        object.__setattr__(self, "score", score)
        object.__setattr__(self, "score_text", score_text)
        object.__setattr__(self, "segment_scores", segment_scores)

    @property
    def fraction(self) -> Fraction:
        """The exact score as a :class:`fractions.Fraction`."""
        from fractions import Fraction  # noqa: PLC0415 - kept off `mtcompute score`'s start-up

        return Fraction(self.numerator, self.denominator)

    @classmethod
    def from_statistics(
        cls,
        statistics: ChrfStatistics,
        beta: int,
        segment_scores: tuple[float, ...] | None = None,
    ) -> CorpusChrf:
        """The result for summed ``statistics`` (and optional per-segment scores)."""
        numerator, denominator = chrf_ratio(statistics, beta)
        return cls(
            statistics,
            beta,
            numerator,
            denominator,
            numerator / denominator,  # int / int is correctly rounded, as float(Fraction) is
            format_ratio(numerator, denominator),
            segment_scores,
        )

    def __add__(self, other: CorpusChrf) -> CorpusChrf:
        if self.beta != other.beta:
            raise ValueError(f"cannot add chrF results of beta {self.beta} and {other.beta}")
        segments = None
        if self.segment_scores is not None and other.segment_scores is not None:
            segments = self.segment_scores + other.segment_scores
        return CorpusChrf.from_statistics(self.statistics + other.statistics, self.beta, segments)


class CorpusBleu(Record):
    """Corpus BLEU (0..1) and its parts: the statistics summed over the segments."""

    __slots__ = (
        "bleu",
        "brevity_penalty",
        "matches",
        "totals",
        "candidate_length",
        "reference_length",
        "orders_used",
    )
    bleu: float
    brevity_penalty: float
    matches: tuple[int, ...]
    totals: tuple[int, ...]
    candidate_length: int
    reference_length: int
    orders_used: int

    def __init__(
        self,
        bleu: float,
        brevity_penalty: float,
        matches: tuple[int, ...],
        totals: tuple[int, ...],
        candidate_length: int,
        reference_length: int,
        orders_used: int,
    ) -> None:
        object.__setattr__(self, "bleu", bleu)
        object.__setattr__(self, "brevity_penalty", brevity_penalty)
        object.__setattr__(self, "matches", matches)
        object.__setattr__(self, "totals", totals)
        object.__setattr__(self, "candidate_length", candidate_length)
        object.__setattr__(self, "reference_length", reference_length)
        object.__setattr__(self, "orders_used", orders_used)


# --- validation --------------------------------------------------------------------------


def _texts(value: object, field: str, allow_empty: bool = False) -> Sequence[str]:
    """A list (or tuple) of str; at least one unless ``allow_empty``."""
    path = json_pointer(field)
    if not isinstance(value, list | tuple):
        raise InvalidInput(f"Expected a list of strings at {path}, got {describe(value)}.", path)
    if not value and not allow_empty:
        raise InvalidInput(f"Expected at least 1 segment at {path}, got an empty list.", path)
    for i, text in enumerate(value):
        if not isinstance(text, str):
            where = json_pointer(field, i)
            raise InvalidInput(f"Expected a string at {where}, got {describe(text)}.", where)
    return value


def _no_lone_surrogates(texts: Sequence[str], field: str) -> None:
    found = kernel.first_lone_surrogate(texts)
    if found is not None:
        i, at = found
        where = json_pointer(field, i)
        raise InvalidInput(
            f"Expected text without lone surrogates at {where}, "
            f"got U+{ord(texts[i][at]):04X} at index {at}.",
            where,
        )


def _int_in(value: object, field: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        path = json_pointer(field)
        raise InvalidInput(
            f"Expected an integer from {low} to {high} at {path}, got {describe(value)}.", path
        )
    return value


def _epsilon(value: object) -> float | int:
    if (
        isinstance(value, bool)
        or not isinstance(value, int | float)
        or not math.isfinite(value)
        or not 0 <= value <= 1
    ):
        raise InvalidInput(
            f"Expected a number from 0 to 1 at /epsilon, got {describe(value)}.", "/epsilon"
        )
    return value


def _token_error(
    problem: kernel.TokenProblem, hypotheses: Sequence[object], references: Sequence[object]
) -> InvalidInput:
    """The :class:`InvalidInput` for the first fault the token scan found."""
    field, *indices = problem.path
    value: object = hypotheses if field == "hypotheses" else references
    for index in indices:  # the scan walked this path: lists and tuples all the way
        if isinstance(value, list | tuple):
            value = value[int(index)]
    where = json_pointer(*problem.path)
    if problem.code == "not_array":
        what = {
            ("hypotheses", 1): "a token list (a list of strings)",
            ("references", 1): "the list of reference token lists of the segment",
            ("references", 2): "a reference token list (a list of strings)",
        }[(str(field), len(indices))]
        message = f"Expected {what} at {where}, got {describe(value)}."
    elif problem.code == "no_references":
        message = f"Expected at least 1 reference at {where}, got none."
    elif problem.code == "not_str":
        message = f"Expected a token (a non-empty string) at {where}, got {describe(value)}."
    elif problem.code == "empty":
        message = f"Expected a non-empty token at {where}, got the empty string."
    else:  # surrogate
        code_point = ord(str(value)[problem.position])
        message = (
            f"Expected a token without lone surrogates at {where}, "
            f"got U+{code_point:04X} at index {problem.position}."
        )
    return InvalidInput(message, where)


# --- the APIs ----------------------------------------------------------------------------


def corpus_chrf(
    hypotheses: Sequence[str],
    references: Sequence[str],
    *,
    beta: int = 2,
    lowercase: bool = False,
    segment_scores: bool = False,
) -> CorpusChrf:
    """Corpus chrF_beta of aligned segments (one reference each), as chrf-compute defines it.

    Validation, first fault wins: hypotheses, then references (a list of str, at least one),
    equal counts, lone surrogates, beta (an int 1..16), lowercase, segment_scores.

    >>> corpus_chrf(["aa"], ["ab"], beta=3).score_text
    '25.000000'
    """
    hyps = _texts(hypotheses, "hypotheses")
    refs = _texts(references, "references")
    require_same_count(hyps, refs)
    _no_lone_surrogates(hyps, "hypotheses")
    _no_lone_surrogates(refs, "references")
    beta = _int_in(beta, "beta", 1, 16)
    lowercase = require_bool(lowercase, "/lowercase")
    with_segments = require_bool(segment_scores, "/segment_scores")
    total, scores = kernel.chrf_totals(
        hyps, refs, CHAR_ORDER, lowercase, segment_beta=beta if with_segments else None
    )
    return CorpusChrf.from_statistics(total, beta, scores)


def chrf_pairwise(
    hypotheses: Sequence[str], references: Sequence[str], *, beta: int = 2
) -> list[list[float]]:
    """Sentence chrF_beta (0..100) of every hypothesis against every reference, for MBR.

    ``result[i][j]`` is the double nearest to the exact chrF of ``hypotheses[i]`` against
    ``references[j]`` (``float(chrf_fraction(segment_statistics(h, r), beta))``). Either list
    may be empty.

    >>> chrf_pairwise(["aa", "ab"], ["ab"], beta=3)
    [[25.0], [100.0]]
    """
    hyps = _texts(hypotheses, "hypotheses", allow_empty=True)
    refs = _texts(references, "references", allow_empty=True)
    _no_lone_surrogates(hyps, "hypotheses")
    _no_lone_surrogates(refs, "references")
    beta = _int_in(beta, "beta", 1, 16)
    return kernel.chrf_pairwise_matrix(hyps, refs, beta, CHAR_ORDER)


def corpus_bleu(
    hypotheses: Sequence[Sequence[str]],
    references: Sequence[Sequence[Sequence[str]]],
    *,
    max_order: int = 4,
    smoothing: Smoothing = "none",
    epsilon: float = 0.1,
    effective_order: bool = False,
) -> CorpusBleu:
    """Corpus BLEU of tokenized segments: ``references[i]`` is the list of one or more
    reference token lists of segment ``i``.

    The bleu-sentence-components statistics of every segment are summed (candidate lengths,
    closest reference lengths, clipped matches, totals) and scored by the bleu-smoothing-compute
    rules; ``epsilon`` is used by ``method1`` only.

    Validation, first fault wins: hypotheses and references are lists with at least one
    segment and equal counts; max_order (an int 1..8), smoothing, epsilon (0..1),
    effective_order; then every token in reading order (all hypotheses, then all references):
    a str, non-empty, without lone surrogates, each segment with at least one reference.

    >>> corpus_bleu([["the", "cat"]], [[["the", "cat"]]], max_order=2).bleu
    1.0
    """
    for value, field in ((hypotheses, "hypotheses"), (references, "references")):
        if not isinstance(value, list | tuple):
            raise InvalidInput(
                f"Expected a list of token lists at /{field}, got {describe(value)}.",
                f"/{field}",
            )
        if not value:
            raise InvalidInput(
                f"Expected at least 1 segment at /{field}, got an empty list.", f"/{field}"
            )
    require_same_count(hypotheses, references)
    max_order = _int_in(max_order, "max_order", 1, 8)
    smoothing = parse_smoothing(smoothing, None, STATISTICS_ONLY_REASON)
    epsilon = _epsilon(epsilon)
    effective_order = require_bool(effective_order, "/effective_order")
    try:
        stats = kernel.bleu_totals(hypotheses, references, max_order, validate=True)
    except kernel.TokenProblem as problem:
        raise _token_error(problem, hypotheses, references) from None
    scored = stats.score(smoothing, epsilon, effective_order)
    return CorpusBleu(
        scored.bleu,
        scored.brevity_penalty,
        stats.matches,
        stats.totals,
        stats.candidate_length,
        stats.reference_length,
        scored.orders_used,
    )
