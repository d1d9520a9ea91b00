"""chrF's segment statistics at scale (Popović 2015 §2; chrF++'s word orders, Popović 2017
§2): the counts of :func:`mtcompute.metrics.chrf.ngrams.segment_statistics` and
:func:`~mtcompute.metrics.chrf.ngrams.word_statistics` for many segments, and the exact
scores of the seed contracts (chrf-compute, chrf-plus-plus-compute, chrf-components) from them.

The C kernel (:mod:`mtcompute.native`) counts on its path (chosen at import), on several threads
(:func:`mtcompute.counting.map_spans`; it releases the GIL), else the pure core: both give
the same integers, and for sentence chrF the same float, the double nearest to the exact
:func:`~mtcompute.metrics.chrf.ngrams.chrf_fraction`. ``threads=None`` means
``MTCOMPUTE_THREADS`` if set, else every CPU (:func:`mtcompute.counting.thread_count`);
results never depend on the thread count.

* per segment and order, hypothesis n-grams, reference n-grams and clipped matches over code
  points after whitespace removal (:func:`chrf_statistics_many`, :func:`chrf_totals`), with
  chrF++'s word orders added by :func:`chrf_corpus_statistics`;
* the exact chrF of the corpus and of each segment (:func:`chrf_ratios`), and per order
  (:func:`chrf_by_order`);
* sentence chrF of every hypothesis against every reference, for MBR decoding
  (:func:`chrf_pairwise_matrix`).

sacreBLEU's chrF statistics, with its best-reference rule, are
:mod:`mtcompute.metrics.chrf.sacrebleu_statistics`'.
"""

from __future__ import annotations

__all__ = [
    "MIN_ROWS_PER_THREAD",
    "chrf_by_order",
    "chrf_corpus_statistics",
    "chrf_pairwise_matrix",
    "chrf_ratios",
    "chrf_segment_statistics",
    "chrf_statistics_and_total",
    "chrf_statistics_many",
    "chrf_totals",
]

import math
from collections.abc import Sequence
from fractions import Fraction
from typing import cast

from mtcompute.counting import MIN_SEGMENTS_PER_THREAD, _int64s, map_spans
from mtcompute.metrics.chrf.ngrams import (
    Averaging,
    ChrfScore,
    ChrfStatistics,
    averaged_score,
    chrf_ratio,
    sacrebleu_zeroed,
    segment_statistics,
    word_statistics,
)
from mtcompute.native import ext as _ext
from mtcompute.native import kernel_test, twin

MIN_ROWS_PER_THREAD = 16
"""Hypothesis rows per thread for the pairwise matrix."""


@twin(segment_statistics)
def chrf_segment_statistics(
    hypothesis: str, reference: str, char_order: int = 6, lowercase: bool = False
) -> ChrfStatistics:
    """:func:`~mtcompute.metrics.chrf.ngrams.segment_statistics` of one segment.

    >>> chrf_segment_statistics("ab", "abb", char_order=2).matches
    (2, 1)
    """
    if (
        isinstance(hypothesis, str)
        and isinstance(reference, str)
        and type(char_order) is int
        and 1 <= char_order <= _ext.MAX_ORDER
    ):
        hyp, ref = (hypothesis.lower(), reference.lower()) if lowercase else (hypothesis, reference)
        try:
            return ChrfStatistics(*_ext.chrf_segment(hyp, ref, char_order))
        except OverflowError:  # a text over the kernel's length limit (2^28 code points)
            pass
    return segment_statistics(hypothesis, reference, char_order, lowercase)


@kernel_test
def _chrf_kernel_ok(hypotheses: Sequence[str], references: Sequence[str], order: int) -> bool:
    return (
        type(order) is int and 1 <= order <= _ext.MAX_ORDER and len(hypotheses) == len(references)
    )


def _chrf_counts(
    hypotheses: Sequence[str],
    references: Sequence[str],
    char_order: int,
    lowercase: bool,
    per_segment: bool,
    threads: int | None,
) -> tuple[bytes, list[int]] | None:
    """Kernel counts: the per-segment int64 buffer (empty unless asked) and the totals."""
    if not _chrf_kernel_ok(hypotheses, references, char_order):
        return None
    if lowercase:
        hypotheses = [text.lower() for text in hypotheses]
        references = [text.lower() for text in references]

    def work(start: int, stop: int) -> tuple[bytes | None, tuple[int, ...]]:
        return _ext.chrf_counts(
            hypotheses[start:stop], references[start:stop], char_order, per_segment
        )

    try:
        parts = map_spans(work, len(hypotheses), threads, MIN_SEGMENTS_PER_THREAD)
    except (OverflowError, TypeError):  # a text over the kernel's limit, or not a str:
        return None  # the pure path answers (or raises) as it would alone
    if len(parts) == 1:
        buffer, counts = parts[0][1]
        return buffer or b"", list(counts)
    totals = [sum(column) for column in zip(*(t for _, (_, t) in parts), strict=True)]
    return b"".join(buf or b"" for _, (buf, _) in parts), totals


@kernel_test
def _kernel_beta(beta: int) -> bool:
    """Whether the kernel scores with this beta (else Python's exact integers do)."""
    return 1 <= beta <= _ext.MAX_BETA


@kernel_test
def _pairwise_kernel_ok(
    hypotheses: Sequence[str], references: Sequence[str], char_order: int, beta: int
) -> bool:
    return (
        type(char_order) is int
        and 1 <= char_order <= _ext.MAX_ORDER
        and type(beta) is int
        and 1 <= beta <= _ext.MAX_BETA
        and all(isinstance(text, str) for text in (*hypotheses, *references))
    )


def _stats(values: Sequence[int], order: int) -> ChrfStatistics:
    return ChrfStatistics(
        tuple(values[:order]), tuple(values[order : 2 * order]), tuple(values[2 * order :])
    )


def chrf_statistics_many(
    hypotheses: Sequence[str],
    references: Sequence[str],
    char_order: int = 6,
    lowercase: bool = False,
    *,
    threads: int | None = None,
) -> list[ChrfStatistics]:
    """:func:`~mtcompute.metrics.chrf.ngrams.segment_statistics` of every aligned segment pair.

    >>> chrf_statistics_many(["ab"], ["abb"], char_order=2)[0].matches
    (2, 1)
    """
    rows, _ = chrf_statistics_and_total(
        hypotheses, references, char_order, lowercase, threads=threads
    )
    return rows


def chrf_statistics_and_total(
    hypotheses: Sequence[str],
    references: Sequence[str],
    char_order: int = 6,
    lowercase: bool = False,
    *,
    threads: int | None = None,
) -> tuple[list[ChrfStatistics], ChrfStatistics]:
    """:func:`chrf_statistics_many` and the sum of those statistics, in one pass.

    >>> rows, total = chrf_statistics_and_total(["ab", "a"], ["abb", "a"], char_order=2)
    >>> [row.matches for row in rows], total.matches
    ([(2, 1), (1, 0)], (3, 1))
    """
    counts = _chrf_counts(hypotheses, references, char_order, lowercase, True, threads)
    if counts is None:
        rows = [
            segment_statistics(h, r, char_order, lowercase)
            for h, r in zip(hypotheses, references, strict=True)
        ]
        return rows, ChrfStatistics.total(rows, char_order)
    return _rows(counts[0], char_order), _stats(counts[1], char_order)


def _rows(buffer: bytes, order: int) -> list[ChrfStatistics]:
    """The statistics of each segment in a per-segment counts buffer of the kernel."""
    values = _int64s(buffer)
    width = 3 * order
    return [_stats(values[i : i + width], order) for i in range(0, len(values), width)]


def chrf_ratios(
    hypotheses: Sequence[str],
    references: Sequence[str],
    beta: int,
    char_order: int = 6,
    lowercase: bool = False,
    *,
    word_order: int = 0,
    threads: int | None = None,
) -> tuple[tuple[int, int], list[tuple[int, int]]]:
    """The exact chrF_beta (:func:`~mtcompute.metrics.chrf.ngrams.chrf_ratio`, a reduced
    ratio) of the corpus, its per-order counts summed over the segments, and of each segment
    alone: chrf-compute's scores, and with ``word_order`` chrF++'s (chrf-plus-plus-compute's,
    from :func:`chrf_corpus_statistics`).

    With the kernel, chrF's scores come from its counts buffer without a statistics object per
    segment (what a small request to chrf-compute spends most of its time on otherwise).

    >>> chrf_ratios(["ab", "a"], ["abb", "a"], 2, char_order=2)
    ((2500, 37), [(700, 11), (100, 1)])
    >>> chrf_ratios(["a b"], ["a c"], 2, char_order=1, word_order=1)
    ((50, 1), [(50, 1)])
    """
    if word_order:
        summed, segments = chrf_corpus_statistics(
            hypotheses, references, char_order, word_order, lowercase, threads=threads
        )
        return chrf_ratio(summed, beta), [chrf_ratio(stats, beta) for stats in segments]
    counts = None
    if type(beta) is int and _kernel_beta(beta):
        counts = _chrf_counts(hypotheses, references, char_order, lowercase, True, threads)
    if counts is None:
        rows, summed = chrf_statistics_and_total(
            hypotheses, references, char_order, lowercase, threads=threads
        )
        return chrf_ratio(summed, beta), [chrf_ratio(stats, beta) for stats in rows]
    buffer, totals = counts
    total, ratios = _ext.chrf_ratios(buffer, char_order, beta)
    if None in ratios:  # a segment whose integers pass 128 bits: Python's finish it
        rows = _rows(buffer, char_order)
        ratios = [
            chrf_ratio(rows[i], beta) if ratio is None else ratio for i, ratio in enumerate(ratios)
        ]
    if total is None:
        total = chrf_ratio(_stats(totals, char_order), beta)
    return total, cast(list[tuple[int, int]], ratios)


def chrf_totals(
    hypotheses: Sequence[str],
    references: Sequence[str],
    char_order: int = 6,
    lowercase: bool = False,
    *,
    segment_beta: int | None = None,
    threads: int | None = None,
) -> tuple[ChrfStatistics, tuple[float, ...] | None]:
    """The per-order counts summed over all segments and, when ``segment_beta`` is given, each
    segment's chrF as ``float(chrf_fraction(its statistics, segment_beta))``."""
    counts = None
    if segment_beta is None or _kernel_beta(segment_beta):
        counts = _chrf_counts(
            hypotheses, references, char_order, lowercase, segment_beta is not None, threads
        )
    if counts is None:
        total = ChrfStatistics.zero(char_order)
        scores: list[float] = []
        for h, r in zip(hypotheses, references, strict=True):
            stats = segment_statistics(h, r, char_order, lowercase)
            total = total + stats
            if segment_beta is not None:
                numerator, denominator = chrf_ratio(stats, segment_beta)
                scores.append(numerator / denominator)  # int / int: correctly rounded
        return total, (tuple(scores) if segment_beta is not None else None)
    buffer, totals = counts
    total = _stats(totals, char_order)
    if segment_beta is None:
        return total, None
    floats = _ext.chrf_scores(buffer, char_order, segment_beta)
    pending = [i for i, x in enumerate(floats) if math.isnan(x)]  # too big for 128 bits
    if pending:
        values = _int64s(buffer)
        width = 3 * char_order
        for i in pending:
            stats = _stats(values[i * width : (i + 1) * width], char_order)
            numerator, denominator = chrf_ratio(stats, segment_beta)
            floats[i] = numerator / denominator
    return total, tuple(floats)


def chrf_corpus_statistics(
    hypotheses: Sequence[str],
    references: Sequence[str],
    char_order: int,
    word_order: int,
    lowercase: bool,
    sacrebleu_compatible: bool = False,
    *,
    threads: int | None = None,
) -> tuple[ChrfStatistics, tuple[ChrfStatistics, ...]]:
    """The summed counts and each segment's counts: character orders 1..char_order, then word
    orders 1..word_order (chrF++), each segment zeroed as sacreBLEU 2.x keeps it when
    ``sacrebleu_compatible`` (:func:`~mtcompute.metrics.chrf.ngrams.sacrebleu_zeroed`).

    >>> total, _ = chrf_corpus_statistics(["a b"], ["a c"], 1, 1, False)
    >>> total.hypothesis, total.matches
    ((2, 2), (1, 1))
    """
    chars = chrf_statistics_many(hypotheses, references, char_order, lowercase, threads=threads)
    total = ChrfStatistics.zero(char_order + word_order)
    segments: list[ChrfStatistics] = []
    for hypothesis, reference, char_stats in zip(hypotheses, references, chars, strict=True):
        stats = char_stats
        if word_order:
            words = word_statistics(hypothesis, reference, word_order, lowercase)
            stats = ChrfStatistics(
                stats.hypothesis + words.hypothesis,
                stats.reference + words.reference,
                stats.matches + words.matches,
            )
        if sacrebleu_compatible:
            stats = sacrebleu_zeroed(stats)
        total = total + stats
        segments.append(stats)
    return total, tuple(segments)


def chrf_by_order(
    hypotheses: Sequence[str],
    references: Sequence[str],
    beta: int,
    char_order: int,
    word_order: int,
    lowercase: bool,
    averaging: Averaging,
    sacrebleu_compatible: bool,
    *,
    threads: int | None = None,
) -> tuple[ChrfStatistics, ChrfScore, list[Fraction]]:
    """chrf-components' figures: the counts summed over the segments
    (:func:`chrf_corpus_statistics`), their exact scores per order and averaged
    (:func:`~mtcompute.metrics.chrf.ngrams.averaged_score`), and each segment's exact score.

    >>> total, scored, each = chrf_by_order(["a b"], ["a c"], 2, 1, 1, False, "per_order_f", False)
    >>> total.matches, scored.score, each
    ((1, 1), Fraction(50, 1), [Fraction(50, 1)])
    """
    total, segments = chrf_corpus_statistics(
        hypotheses,
        references,
        char_order,
        word_order,
        lowercase,
        sacrebleu_compatible,
        threads=threads,
    )
    each = [averaged_score(stats, beta, averaging).score for stats in segments]
    return total, averaged_score(total, beta, averaging), each


def chrf_pairwise_matrix(
    hypotheses: Sequence[str],
    references: Sequence[str],
    beta: int = 2,
    char_order: int = 6,
    *,
    threads: int | None = None,
) -> list[list[float]]:
    """Sentence chrF of every hypothesis against every reference: row i, column j is
    ``float(chrf_fraction(segment_statistics(hypotheses[i], references[j]), beta))``."""
    if _pairwise_kernel_ok(hypotheses, references, char_order, beta):

        def work(start: int, stop: int) -> list[list[float]]:
            whole = (start, stop) == (0, len(hypotheses))  # keeps `hypotheses is references`
            rows, pending = _ext.chrf_pairwise(
                hypotheses if whole else hypotheses[start:stop], references, char_order, beta
            )
            for i, j, hyp, ref, matches in pending:  # exact integers over 128 bits
                stats = ChrfStatistics(hyp, ref, matches)
                numerator, denominator = chrf_ratio(stats, beta)
                rows[i][j] = numerator / denominator
            return rows

        try:
            parts = map_spans(work, len(hypotheses), threads, MIN_ROWS_PER_THREAD)
        except OverflowError:  # texts over the kernel's length limits: the pure path below
            pass
        else:
            return [row for _, rows in parts for row in rows]
    return [[_pure_chrf_float(h, r, char_order, beta) for r in references] for h in hypotheses]


def _pure_chrf_float(hypothesis: str, reference: str, char_order: int, beta: int) -> float:
    numerator, denominator = chrf_ratio(segment_statistics(hypothesis, reference, char_order), beta)
    return numerator / denominator  # int / int is correctly rounded, as float(Fraction) is
