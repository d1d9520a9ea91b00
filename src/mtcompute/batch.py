"""Batch APIs: corpus chrF, all-pairs sentence chrF (MBR) and corpus BLEU, any size.

* chrF is Popović 2015 §2 (eq. 1) with sacreBLEU 2.x's effective-order rule, exactly as the
  chrf-compute contract defines it: per-order counts summed over the segments, then one exact
  fraction (:func:`mtcompute.core.chrf.chrf_ratio`).
* BLEU is Papineni et al. 2002 §2.1 (clipped n-gram precision, closest reference length,
  brevity penalty) with Chen & Cherry 2014 §2.2 smoothing: the bleu-sentence-components
  statistics of every segment, summed, then :func:`mtcompute.core.bleu.smooth_and_score`
  (the bleu-smoothing-compute rules).

These are the library forms of the tools, without the service limits (segment counts, text
and token bytes, references per segment) but with the contracts' behaviour rules, checked by
the same field types (:mod:`mtcompute.contracts.fields`), in the same words: texts and tokens
are str without lone surrogates, tokens are non-empty, every segment has at least one
reference. Faults raise :class:`~mtcompute.errors.InvalidInput` (or
:class:`~mtcompute.errors.UnsupportedInput` for Chen & Cherry ``method4`` to ``method7``)
naming the field and index as a JSON Pointer. The counting is :mod:`mtcompute.counting` (the
C kernel when it is built, on ``MTCOMPUTE_THREADS`` threads, default all CPUs), which gives
the same numbers as the pure core.
"""

from __future__ import annotations

__all__ = [
    "CorpusBleu",
    "CorpusChrf",
    "chrf_pairwise",
    "corpus_bleu",
    "corpus_chrf",
    "text_bleu_statistics",
]

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from mtcompute import counting
from mtcompute.contracts import fields
from mtcompute.contracts.validate import Array, Boolean, Text, Token, check_same_count
from mtcompute.core.bleu import BleuStatistics, Smoothing
from mtcompute.core.chrf import ChrfStatistics, chrf_ratio, format_ratio
from mtcompute.errors import InvalidInput, MtcomputeError, json_pointer

CHAR_ORDER = 6

# The arguments' types: the tools' field types, without the service limits.
TEXTS = fields.texts()
ANY_TEXTS = Array(Text(), "an array of strings", "segment")
FLAG = Boolean()
TOKEN = Token()
HYPOTHESIS = Array(TOKEN, "a token list (an array)")
REFERENCE = Array(TOKEN, "a reference token list (an array)")
SEGMENT_REFERENCES = Array(REFERENCE, "an array of token lists", "reference", 1)
HYPOTHESES = Array(HYPOTHESIS, "an array of token lists", "segment", 1)
REFERENCES = Array(SEGMENT_REFERENCES, "an array of reference lists", "segment", 1)
SMOOTHING = fields.smoothing(None, fields.STATISTICS_ONLY_REASON)
TEXT_REFERENCES = Array(
    Array(Text(), "an array of strings", "reference", 1),
    "an array of reference lists",
    "segment",
    1,
)


@dataclass(frozen=True, slots=True)
class CorpusChrf:
    """Corpus chrF: the exact score (0..100 scale) as a reduced ``numerator``/``denominator``
    (also as :attr:`fraction`), the nearest float, and the six-decimal text.

    ``statistics`` are the per-order counts summed over the segments; two results with the
    same ``beta`` add up (``a + b`` is the result of the segments of both, in order).
    """

    statistics: ChrfStatistics
    beta: int
    numerator: int
    denominator: int
    score: float
    score_text: str
    segment_scores: tuple[float, ...] | None

    @property
    def fraction(self) -> Fraction:
        """The exact score as a :class:`fractions.Fraction`."""
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


@dataclass(frozen=True, slots=True)
class CorpusBleu:
    """Corpus BLEU (0..1) and its parts: the statistics summed over the segments."""

    bleu: float
    brevity_penalty: float
    matches: tuple[int, ...]
    totals: tuple[int, ...]
    candidate_length: int
    reference_length: int
    orders_used: int


def _no_lone_surrogates(texts: Sequence[str], *path: str | int) -> None:
    found = counting.first_lone_surrogate(texts)
    if found is not None:
        i, at = found
        where = json_pointer(*path, i)
        raise InvalidInput(
            f"Expected text without lone surrogates at {where}, "
            f"got U+{ord(texts[i][at]):04X} at index {at}.",
            where,
        )


def _token_error(
    problem: counting.TokenProblem, hypotheses: Sequence[object], references: Sequence[object]
) -> MtcomputeError:
    """The error the declared types give for the first fault the token scan found."""
    field, *indices = problem.path
    value: object = hypotheses if field == "hypotheses" else references
    for index in indices:  # the scan walked this path: lists and tuples all the way
        if isinstance(value, list | tuple):
            value = value[int(index)]
    where = json_pointer(*problem.path)
    shapes: dict[tuple[str, int], Array[Any]] = {
        ("hypotheses", 1): HYPOTHESIS,
        ("references", 1): SEGMENT_REFERENCES,
        ("references", 2): REFERENCE,
    }
    try:
        if problem.code in ("not_array", "no_references"):
            shapes[(str(field), len(indices))].check_shape(value, where)
        else:
            TOKEN.parse(value, where)
    except MtcomputeError as error:
        return error
    raise RuntimeError(f"the token scan reported {problem.code} at {where}, the types did not")


def corpus_chrf(
    hypotheses: Sequence[str],
    references: Sequence[str],
    *,
    beta: int = 2,
    lowercase: bool = False,
    segment_scores: bool = False,
) -> CorpusChrf:
    """Corpus chrF_beta of aligned segments (one reference each), as chrf-compute defines it.

    Validation, first fault wins: hypotheses, then references (an array of str, at least
    one), equal counts, lone surrogates, beta (an integer 1..16), lowercase, segment_scores.

    >>> corpus_chrf(["aa"], ["ab"], beta=3).score_text
    '25.000000'
    """
    TEXTS.parse(hypotheses, "/hypotheses")
    TEXTS.parse(references, "/references")
    check_same_count("hypotheses", hypotheses, "references", references)
    _no_lone_surrogates(hypotheses, "hypotheses")
    _no_lone_surrogates(references, "references")
    beta = fields.BETA.parse(beta, "/beta")
    lowercase = FLAG.parse(lowercase, "/lowercase")
    with_segments = FLAG.parse(segment_scores, "/segment_scores")
    total, scores = counting.chrf_totals(
        hypotheses, references, CHAR_ORDER, lowercase, segment_beta=beta if with_segments else None
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
    ANY_TEXTS.parse(hypotheses, "/hypotheses")
    ANY_TEXTS.parse(references, "/references")
    _no_lone_surrogates(hypotheses, "hypotheses")
    _no_lone_surrogates(references, "references")
    beta = fields.BETA.parse(beta, "/beta")
    # the checked arguments themselves: the kernel shares the tables when they are one list
    return counting.chrf_pairwise_matrix(hypotheses, references, beta, CHAR_ORDER)


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

    Validation, first fault wins: hypotheses and references are arrays with at least one
    segment and equal counts; max_order (an integer 1..8), smoothing, epsilon (0..1),
    effective_order; then every token in reading order (all hypotheses, then all references):
    a str, non-empty, without lone surrogates, each segment with at least one reference.

    >>> corpus_bleu([["the", "cat"]], [[["the", "cat"]]], max_order=2).bleu
    1.0
    """
    HYPOTHESES.check_shape(hypotheses, "/hypotheses")
    REFERENCES.check_shape(references, "/references")
    check_same_count("hypotheses", hypotheses, "references", references, "segments")
    max_order = fields.MAX_ORDER.parse(max_order, "/max_order")
    smoothing = SMOOTHING.parse(smoothing, "/smoothing")  # type: ignore[assignment]
    epsilon = fields.EPSILON.parse(epsilon, "/epsilon")
    effective_order = FLAG.parse(effective_order, "/effective_order")
    try:
        stats = counting.bleu_totals(hypotheses, references, max_order, validate=True)
    except counting.TokenProblem as problem:
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


def text_bleu_statistics(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str]],
    *,
    max_order: int = 4,
    per_segment: bool = False,
) -> tuple[BleuStatistics, list[BleuStatistics] | None]:
    """BLEU statistics of texts tokenized on whitespace, exactly as ``str.split()`` splits
    them (sacreBLEU's ``tokenize='none'``): their sum over the segments and, with
    ``per_segment``, each segment's. ``references[i]`` holds the one or more reference texts
    of segment ``i``. The same as :func:`corpus_bleu`'s statistics of the split texts; the
    kernel splits the texts itself, without making a str per token.

    Validation, first fault wins: hypotheses (an array of str, at least one), references (an
    array of at least one array of at least one str per segment), equal counts, lone
    surrogates, max_order (an integer 1..8).

    >>> total, each = text_bleu_statistics(["a b c"], [["a b d"]], max_order=2, per_segment=True)
    >>> total.matches, total.totals, each == [total]
    ((2, 1), (3, 2), True)
    """
    TEXTS.parse(hypotheses, "/hypotheses")
    TEXT_REFERENCES.parse(references, "/references")
    check_same_count("hypotheses", hypotheses, "references", references, "segments")
    _no_lone_surrogates(hypotheses, "hypotheses")
    for i, texts in enumerate(references):
        _no_lone_surrogates(texts, "references", i)
    max_order = fields.MAX_ORDER.parse(max_order, "/max_order")
    return counting.bleu_text_statistics(
        hypotheses, references, max_order, per_segment=FLAG.parse(per_segment, "/per_segment")
    )
