"""Counting at scale: the sufficient statistics of many segments, by the C kernel
(:mod:`mtcompute.native`) when it is active, else by the pure core, on several threads.

Every function here gives exactly what the pure core gives (the same integers, and for sentence
chrF the same float: the double nearest to the exact :func:`~mtcompute.core.chrf.chrf_fraction`);
the kernel only makes it faster:

* chrF statistics (Popović 2015 §2): per segment and order, hypothesis n-grams, reference
  n-grams and clipped matches over code points after whitespace removal
  (:func:`mtcompute.core.chrf.segment_statistics` defines them), with chrF++'s word orders
  (Popović 2017 §2, :func:`mtcompute.core.chrf_words.word_statistics`) added by
  :func:`chrf_corpus_statistics`;
* sentence chrF of every hypothesis against every reference (for MBR decoding);
* sacreBLEU 2.6.0's chrF and chrF++ segment statistics with its best-reference rule
  (:func:`sacrebleu_chrf_statistics`);

The kernel is used when it was built and ``MTCOMPUTE_PURE`` is not ``1``
(:func:`mtcompute.native.active`, read at every call). Batch functions split their segments
over ``threads`` threads of a :class:`concurrent.futures.ThreadPoolExecutor` (the kernel
releases the GIL while counting); ``threads=None`` means ``MTCOMPUTE_THREADS`` if set, else
:func:`os.cpu_count`. Results never depend on the thread count.
"""

from __future__ import annotations

__all__ = [
    "chrf_corpus_statistics",
    "chrf_pairwise_matrix",
    "chrf_ratios",
    "chrf_segment_statistics",
    "chrf_statistics_and_total",
    "chrf_statistics_many",
    "chrf_totals",
    "first_lone_surrogate",
    "map_spans",
    "plain_texts",
    "sacrebleu_chrf_line_rows",
    "sacrebleu_chrf_rows",
    "sacrebleu_chrf_statistics",
    "thread_count",
    "threads_in_context",
]

import math
import os
from array import array
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TypeVar, cast

from mtcompute.core import chrf
from mtcompute.core.chrf_words import sacrebleu_zeroed, split_words, word_statistics
from mtcompute.core.sacre import chrf_f_score
from mtcompute.core.text import first_lone_surrogate as _first_surrogate_py
from mtcompute.native import active
from mtcompute.native import ext as _ext

T = TypeVar("T")
U = TypeVar("U")
Counts = tuple[int, ...]

# Segments per thread below which another thread costs more than it saves.
MIN_SEGMENTS_PER_THREAD = 256
# Hypothesis rows per thread for the pairwise matrix.
MIN_ROWS_PER_THREAD = 16


# The thread count of threads_in_context: a context variable, so one thread's setting is
# its own (a new thread starts in a context of its own, without it).
_CONTEXT_THREADS: ContextVar[int | None] = ContextVar("mtcompute_threads", default=None)


def thread_count(threads: int | None = None) -> int:
    """``threads`` if given, else the count of the enclosing :func:`threads_in_context`
    block, else ``MTCOMPUTE_THREADS`` if it is a positive integer, else the number of CPUs.

    >>> thread_count(3)
    3
    """
    if threads is None:
        threads = _CONTEXT_THREADS.get()
    if threads is None:
        env = os.environ.get("MTCOMPUTE_THREADS", "").strip()
        threads = int(env) if env.isdigit() and int(env) > 0 else (os.cpu_count() or 1)
    if isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
        raise ValueError(f"threads must be a positive int or None, got {threads!r}")
    return threads


@contextmanager
def threads_in_context(threads: int) -> Iterator[None]:
    """Within the block, ``threads=None`` means ``threads`` for the calling thread's calls
    (other threads keep theirs): for code that runs whole chunks on threads of its own and
    wants each call on one.

    >>> with threads_in_context(1):
    ...     thread_count()
    1
    """
    token = _CONTEXT_THREADS.set(thread_count(threads))
    try:
        yield
    finally:
        _CONTEXT_THREADS.reset(token)


def _spans(n: int, parts: int) -> list[tuple[int, int]]:
    """``parts`` contiguous ranges covering ``range(n)``, sizes differing by at most one."""
    size, extra = divmod(n, parts)
    spans: list[tuple[int, int]] = []
    start = 0
    for p in range(parts):
        stop = start + size + (1 if p < extra else 0)
        spans.append((start, stop))
        start = stop
    return spans


def map_spans(
    work: Callable[[int, int], T], n: int, threads: int | None, minimum: int
) -> list[tuple[int, T]]:
    """``work(start, stop)`` over contiguous spans of ``range(n)``, on up to ``threads``
    threads; (start, result) pairs in span order. The first span runs in the calling thread;
    every thread is waited for, then the error of the first span that failed is raised."""
    if threads is None and n < 2 * minimum:  # one span whatever MTCOMPUTE_THREADS says
        return [(0, work(0, n))]
    parts = max(1, min(thread_count(threads), n // minimum))
    spans = _spans(n, parts)
    if parts == 1:
        return [(0, work(0, n))]
    with ThreadPoolExecutor(max_workers=parts - 1) as pool:
        futures = [pool.submit(work, start, stop) for start, stop in spans[1:]]
        first = work(*spans[0])
        rest = [future.result() for future in futures]
    return list(zip((start for start, _ in spans), [first, *rest], strict=True))


def _int64s(buffer: bytes | None) -> list[int]:
    return memoryview(buffer or b"").cast("q").tolist()


# --- chrF --------------------------------------------------------------------------------


def chrf_segment_statistics(
    hypothesis: str, reference: str, char_order: int = 6, lowercase: bool = False
) -> chrf.ChrfStatistics:
    """:func:`~mtcompute.core.chrf.segment_statistics` of one segment.

    >>> chrf_segment_statistics("ab", "abb", char_order=2).matches
    (2, 1)
    """
    if (
        active()
        and isinstance(hypothesis, str)
        and isinstance(reference, str)
        and type(char_order) is int
        and 1 <= char_order <= _ext.MAX_ORDER
    ):
        hyp, ref = (hypothesis.lower(), reference.lower()) if lowercase else (hypothesis, reference)
        try:
            return chrf.ChrfStatistics(*_ext.chrf_segment(hyp, ref, char_order))
        except OverflowError:  # a text over the kernel's length limit (2^28 code points)
            pass
    return chrf.segment_statistics(hypothesis, reference, char_order, lowercase)


def _chrf_kernel_ok(hypotheses: Sequence[str], references: Sequence[str], order: int) -> bool:
    return (
        active()
        and type(order) is int
        and 1 <= order <= _ext.MAX_ORDER
        and len(hypotheses) == len(references)
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


def _stats(values: Sequence[int], order: int) -> chrf.ChrfStatistics:
    return chrf.ChrfStatistics(
        tuple(values[:order]), tuple(values[order : 2 * order]), tuple(values[2 * order :])
    )


def chrf_statistics_many(
    hypotheses: Sequence[str],
    references: Sequence[str],
    char_order: int = 6,
    lowercase: bool = False,
    *,
    threads: int | None = None,
) -> list[chrf.ChrfStatistics]:
    """:func:`~mtcompute.core.chrf.segment_statistics` of every aligned segment pair.

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
) -> tuple[list[chrf.ChrfStatistics], chrf.ChrfStatistics]:
    """:func:`chrf_statistics_many` and the sum of those statistics, in one pass.

    >>> rows, total = chrf_statistics_and_total(["ab", "a"], ["abb", "a"], char_order=2)
    >>> [row.matches for row in rows], total.matches
    ([(2, 1), (1, 0)], (3, 1))
    """
    counts = _chrf_counts(hypotheses, references, char_order, lowercase, True, threads)
    if counts is None:
        rows = [
            chrf.segment_statistics(h, r, char_order, lowercase)
            for h, r in zip(hypotheses, references, strict=True)
        ]
        return rows, chrf.ChrfStatistics.total(rows, char_order)
    return _rows(counts[0], char_order), _stats(counts[1], char_order)


def _rows(buffer: bytes, order: int) -> list[chrf.ChrfStatistics]:
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
    threads: int | None = None,
) -> tuple[tuple[int, int], list[tuple[int, int]]]:
    """The exact chrF_beta (:func:`~mtcompute.core.chrf.chrf_ratio`, a reduced ratio) of the
    corpus, its per-order counts summed over the segments, and of each segment alone.

    With the kernel, the scores come from its counts buffer without a statistics object per
    segment (what a small request to chrf-compute spends most of its time on otherwise).

    >>> chrf_ratios(["ab", "a"], ["abb", "a"], 2, char_order=2)
    ((2500, 37), [(700, 11), (100, 1)])
    """
    counts = None
    if active() and type(beta) is int and 1 <= beta <= _ext.MAX_BETA:
        counts = _chrf_counts(hypotheses, references, char_order, lowercase, True, threads)
    if counts is None:
        rows, summed = chrf_statistics_and_total(
            hypotheses, references, char_order, lowercase, threads=threads
        )
        return chrf.chrf_ratio(summed, beta), [chrf.chrf_ratio(stats, beta) for stats in rows]
    buffer, totals = counts
    total, ratios = _ext.chrf_ratios(buffer, char_order, beta)
    if None in ratios:  # a segment whose integers pass 128 bits: Python's finish it
        rows = _rows(buffer, char_order)
        ratios = [
            chrf.chrf_ratio(rows[i], beta) if ratio is None else ratio
            for i, ratio in enumerate(ratios)
        ]
    if total is None:
        total = chrf.chrf_ratio(_stats(totals, char_order), beta)
    return total, cast(list[tuple[int, int]], ratios)


def chrf_totals(
    hypotheses: Sequence[str],
    references: Sequence[str],
    char_order: int = 6,
    lowercase: bool = False,
    *,
    segment_beta: int | None = None,
    threads: int | None = None,
) -> tuple[chrf.ChrfStatistics, tuple[float, ...] | None]:
    """The per-order counts summed over all segments and, when ``segment_beta`` is given, each
    segment's chrF as ``float(chrf_fraction(its statistics, segment_beta))``."""
    counts = None
    if segment_beta is None or (active() and 1 <= segment_beta <= _ext.MAX_BETA):
        counts = _chrf_counts(
            hypotheses, references, char_order, lowercase, segment_beta is not None, threads
        )
    if counts is None:
        total = chrf.ChrfStatistics.zero(char_order)
        scores: list[float] = []
        for h, r in zip(hypotheses, references, strict=True):
            stats = chrf.segment_statistics(h, r, char_order, lowercase)
            total = total + stats
            if segment_beta is not None:
                numerator, denominator = chrf.chrf_ratio(stats, segment_beta)
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
            numerator, denominator = chrf.chrf_ratio(stats, segment_beta)
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
) -> tuple[chrf.ChrfStatistics, tuple[chrf.ChrfStatistics, ...]]:
    """The summed counts and each segment's counts: character orders 1..char_order, then word
    orders 1..word_order (chrF++), each segment zeroed as sacreBLEU 2.x keeps it when
    ``sacrebleu_compatible`` (:func:`~mtcompute.core.chrf_words.sacrebleu_zeroed`).

    >>> total, _ = chrf_corpus_statistics(["a b"], ["a c"], 1, 1, False)
    >>> total.hypothesis, total.matches
    ((2, 2), (1, 1))
    """
    chars = chrf_statistics_many(hypotheses, references, char_order, lowercase, threads=threads)
    total = chrf.ChrfStatistics.zero(char_order + word_order)
    segments: list[chrf.ChrfStatistics] = []
    for hypothesis, reference, char_stats in zip(hypotheses, references, chars, strict=True):
        stats = char_stats
        if word_order:
            words = word_statistics(hypothesis, reference, word_order, lowercase)
            stats = chrf.ChrfStatistics(
                stats.hypothesis + words.hypothesis,
                stats.reference + words.reference,
                stats.matches + words.matches,
            )
        if sacrebleu_compatible:
            stats = sacrebleu_zeroed(stats)
        total = total + stats
        segments.append(stats)
    return total, tuple(segments)


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
    if (
        active()
        and type(char_order) is int
        and 1 <= char_order <= _ext.MAX_ORDER
        and type(beta) is int
        and 1 <= beta <= _ext.MAX_BETA
        and all(isinstance(text, str) for text in (*hypotheses, *references))
    ):

        def work(start: int, stop: int) -> list[list[float]]:
            whole = (start, stop) == (0, len(hypotheses))  # keeps `hypotheses is references`
            rows, pending = _ext.chrf_pairwise(
                hypotheses if whole else hypotheses[start:stop], references, char_order, beta
            )
            for i, j, hyp, ref, matches in pending:  # exact integers over 128 bits
                stats = chrf.ChrfStatistics(hyp, ref, matches)
                numerator, denominator = chrf.chrf_ratio(stats, beta)
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
    numerator, denominator = chrf.chrf_ratio(
        chrf.segment_statistics(hypothesis, reference, char_order), beta
    )
    return numerator / denominator  # int / int is correctly rounded, as float(Fraction) is


def plain_texts(hypotheses: object, references: object) -> bool:
    """Whether the kernel is active and finds ``hypotheses`` a non-empty list of exact str
    and ``references`` a list of as many lists of one or more exact str each, none of the texts
    with a lone surrogate: input every check of the raw-text functions passes (they run
    their checks one by one otherwise, to find and report the fault).

    >>> plain_texts(["a"], [["b"]]) == active(), plain_texts(["a"], [[]])
    (True, False)
    """
    return active() and _ext.plain_texts(hypotheses, references)


def first_lone_surrogate(texts: Sequence[str]) -> tuple[int, int] | None:
    """(index of the first text holding a lone surrogate, its position in it), or ``None``."""
    if active():
        return _ext.first_lone_surrogate(texts)
    for i, text in enumerate(texts):
        at = _first_surrogate_py(text)
        if at >= 0:
            return i, at
    return None


# --- texts ---------------------------------------------------------------------------------


def _check_texts(hypotheses: object, references: object) -> None:
    """TypeError or ValueError unless hypotheses is a list of str and references, of the
    same length, a list of lists (or tuples) of one or more str each."""
    if plain_texts(hypotheses, references):  # the usual case, in one call
        return
    if not isinstance(hypotheses, list | tuple) or not isinstance(references, list | tuple):
        raise TypeError("hypotheses and references must be lists")
    if len(hypotheses) != len(references):
        raise ValueError(f"{len(hypotheses)} hypotheses but {len(references)} reference lists")
    for i, text in enumerate(hypotheses):
        if not isinstance(text, str):
            raise TypeError(f"hypotheses[{i}] must be a str, got {type(text).__name__}")
    for i, texts in enumerate(references):
        if not isinstance(texts, list | tuple):
            raise TypeError(f"references[{i}] must be a list of str, got {type(texts).__name__}")
        if not texts:
            raise ValueError(f"references[{i}] has no reference")
        for j, text in enumerate(texts):
            if not isinstance(text, str):
                raise TypeError(f"references[{i}][{j}] must be a str, got {type(text).__name__}")


# --- sacreBLEU's chrF and chrF++ -----------------------------------------------------------

# The largest beta the kernel takes (its f-score squares it in 64 bits).
MAX_SACREBLEU_BETA = 10**6


def sacrebleu_chrf_statistics(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str]],
    char_order: int,
    word_order: int,
    beta: int,
    *,
    lowercase: bool = False,
    whitespace: bool = False,
    eps_smoothing: bool = False,
    per_segment: bool = False,
    threads: int | None = None,
) -> tuple[list[int], list[list[int]] | None]:
    """sacreBLEU 2.6.0's chrF/chrF++ statistics (``CHRF._compute_segment_statistics``):
    the sum over the segments and, with ``per_segment``, each segment's, both flat
    ``[n_hyp, n_ref, n_match]`` per order, character orders 1..char_order then word orders
    1..word_order. ``references[i]`` holds the one or more reference texts of segment ``i``.

    Texts are lowercased with ``str.lower`` when asked; characters are those of
    ``''.join(text.split())`` (the text as it is with ``whitespace``), words those of
    :func:`~mtcompute.core.chrf_words.split_words` (sacreBLEU's ``_remove_punctuation``), word
    n-grams their ``' '``-joined strings; ``n_hyp`` is 0 where the reference has no n-gram
    of the order; of several references a segment keeps the first whose
    :func:`~mtcompute.core.sacre.chrf_f_score` is strictly the greatest. Any other layout is
    TypeError or ValueError.

    >>> total, _ = sacrebleu_chrf_statistics(["a b"], [["a c"]], 1, 1, 2)
    >>> total
    [2, 2, 1, 2, 2, 1]
    """
    total, buffer, segments = _sacrebleu_chrf(
        hypotheses,
        references,
        char_order,
        word_order,
        beta,
        lowercase,
        whitespace,
        eps_smoothing,
        per_segment,
        threads,
    )
    if buffer is not None:
        values = _int64s(buffer)
        width = 3 * (char_order + word_order)
        segments = [values[i : i + width] for i in range(0, len(values), width)]
    return total, segments


def sacrebleu_chrf_rows(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str]],
    char_order: int,
    word_order: int,
    beta: int,
    *,
    lowercase: bool = False,
    whitespace: bool = False,
    eps_smoothing: bool = False,
    threads: int | None = None,
) -> tuple[list[int], bytes]:
    """:func:`sacrebleu_chrf_statistics` with each segment's statistics as one buffer of
    native int64 values, ``3 * (char_order + word_order)`` a segment: the kernel's own buffer,
    without a list per segment (as :func:`bleu_text_rows`).

    >>> total, rows = sacrebleu_chrf_rows(["a b"], [["a c"]], 1, 1, 2)
    >>> memoryview(rows).cast("q").tolist()
    [2, 2, 1, 2, 2, 1]
    """
    total, buffer, segments = _sacrebleu_chrf(
        hypotheses,
        references,
        char_order,
        word_order,
        beta,
        lowercase,
        whitespace,
        eps_smoothing,
        True,
        threads,
    )
    if buffer is None:
        assert segments is not None  # asked for per segment
        buffer = array("q", [v for segment in segments for v in segment]).tobytes()
    return total, buffer


def sacrebleu_chrf_line_rows(
    hypotheses: bytes,
    references: Sequence[bytes],
    count: int,
    char_order: int,
    word_order: int,
    beta: int,
    *,
    whitespace: bool = False,
    eps_smoothing: bool = False,
    per_segment: bool = False,
) -> tuple[list[int], bytes | None] | None:
    """:func:`sacrebleu_chrf_rows` (``per_segment``: with the buffer, else None in its place)
    of ``count`` undecoded lines, as :func:`bleu_line_rows` takes them: the kernel checks,
    decodes and counts them without the GIL and without a str per text. ``None`` where it
    does not (not active, settings it does not take, a line that is not UTF-8, inputs of
    other line counts, a line too long for it): the caller decodes the lines and takes
    :func:`sacrebleu_chrf_rows`' path, which gives the same numbers.

    >>> found = sacrebleu_chrf_line_rows(b"a b\\n", [b"a c\\n"], 1, 1, 1, 2, per_segment=True)
    >>> found is None or memoryview(found[1]).cast("q").tolist() == [2, 2, 1, 2, 2, 1]
    True
    """
    if not (
        active()
        and all(type(x) is int for x in (char_order, word_order, beta))
        and 0 <= char_order <= _ext.MAX_ORDER
        and 0 <= word_order <= _ext.MAX_ORDER
        and char_order + word_order > 0
        and 0 <= beta <= MAX_SACREBLEU_BETA
        and references
    ):
        return None
    found = _ext.sacrebleu_chrf_lines(
        hypotheses,
        tuple(references),
        count,
        char_order,
        word_order,
        beta,
        whitespace,
        eps_smoothing,
        per_segment,
    )
    if found is None:
        return None
    buffer, totals = found
    return list(totals), buffer


def _sacrebleu_chrf(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str]],
    char_order: int,
    word_order: int,
    beta: int,
    lowercase: bool,
    whitespace: bool,
    eps_smoothing: bool,
    per_segment: bool,
    threads: int | None,
) -> tuple[list[int], bytes | None, list[list[int]] | None]:
    """The sums, and per segment (with ``per_segment``) the kernel's buffer or, where the
    kernel did not count, the lists (the other one ``None``)."""
    _check_texts(hypotheses, references)
    if lowercase:
        hypotheses = [text.lower() for text in hypotheses]
        references = [[text.lower() for text in texts] for texts in references]
    order = char_order + word_order
    if (
        active()
        and all(type(x) is int for x in (char_order, word_order, beta))
        and 0 <= char_order <= _ext.MAX_ORDER
        and 0 <= word_order <= _ext.MAX_ORDER
        and order > 0
        and 0 <= beta <= MAX_SACREBLEU_BETA
    ):
        hyps, refs = hypotheses, references

        def work(start: int, stop: int) -> tuple[bytes | None, tuple[int, ...]]:
            return _ext.sacrebleu_chrf_counts(
                hyps[start:stop],
                refs[start:stop],
                char_order,
                word_order,
                beta,
                whitespace,
                eps_smoothing,
                per_segment,
            )

        try:
            parts = map_spans(work, len(hypotheses), threads, MIN_SEGMENTS_PER_THREAD)
        except OverflowError:  # a text over the kernel's length limit: the pure path
            pass
        else:
            totals = [sum(column) for column in zip(*(t for _, (_, t) in parts), strict=True)]
            if not per_segment:
                return totals, None, None
            return totals, b"".join(buf or b"" for _, (buf, _) in parts), None
    segments = [
        _sacrebleu_chrf_segment(h, r, char_order, word_order, beta, whitespace, eps_smoothing)
        for h, r in zip(hypotheses, references, strict=True)
    ]
    total = [sum(column) for column in zip(*segments, strict=True)] or [0] * (3 * order)
    return total, None, (segments if per_segment else None)


def _sacrebleu_ngrams(
    text: str, char_order: int, word_order: int, whitespace: bool
) -> list[Counter[str]]:
    """sacreBLEU's n-gram counters of one text: character orders, then word orders."""
    chars = text if whitespace else "".join(text.split())
    counters = [
        Counter(chars[i : i + n] for i in range(len(chars) - n + 1))
        for n in range(1, char_order + 1)
    ]
    if word_order:
        words = split_words(text)
        counters += [
            Counter(" ".join(words[i : i + n]) for i in range(len(words) - n + 1))
            for n in range(1, word_order + 1)
        ]
    return counters


def _sacrebleu_chrf_segment(
    hypothesis: str,
    references: Sequence[str],
    char_order: int,
    word_order: int,
    beta: int,
    whitespace: bool,
    eps_smoothing: bool,
) -> list[int]:
    """The pure path of :func:`sacrebleu_chrf_statistics` for one segment."""
    order = char_order + word_order
    hyp = _sacrebleu_ngrams(hypothesis, char_order, word_order, whitespace)
    best, best_f = [0] * (3 * order), -1.0
    for reference in references:
        stats: list[int] = []
        for h, r in zip(
            hyp, _sacrebleu_ngrams(reference, char_order, word_order, whitespace), strict=True
        ):
            matches = sum(min(count, r[g]) for g, count in h.items() if g in r)
            stats += [sum(h.values()) if r else 0, sum(r.values()), matches]
        f = chrf_f_score(stats, order, beta, eps_smoothing)
        if f > best_f:
            best, best_f = stats, f
    return best
