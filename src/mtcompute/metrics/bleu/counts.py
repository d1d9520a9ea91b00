"""BLEU statistics of token lists at scale (Papineni et al. 2002 §2.1): clipped matches
with the largest count in any one reference, totals, candidate length and closest reference
length, for one segment or many, each segment's or their sum.

The C kernel (:mod:`mtcompute.native`) counts when it is active (:func:`mtcompute.native.active`,
read at every call), on several threads (:func:`mtcompute.counting.map_spans`; it releases
the GIL), else the pure definition
(:func:`~mtcompute.metrics.bleu.statistics.sentence_statistics`): both give the same
integers. Input the kernel does not take (a str subclass, more tokens than it indexes) is
counted by the pure path; with ``validate``, the first fault of the input is raised as a
:class:`TokenProblem`.
"""

from __future__ import annotations

__all__ = [
    "MIN_SEGMENTS_PER_THREAD",
    "TokenProblem",
    "bleu_sentence_statistics",
    "bleu_statistics_many",
    "bleu_totals",
    "corpus_statistics",
]

from collections.abc import Sequence

from mtcompute.core.text import first_lone_surrogate as _first_surrogate_py
from mtcompute.counting import MIN_SEGMENTS_PER_THREAD, _int64s, map_spans
from mtcompute.metrics.bleu.statistics import BleuStatistics, sentence_statistics
from mtcompute.native import active
from mtcompute.native import ext as _ext


class TokenProblem(ValueError):
    """The first fault in BLEU token input, in reading order (every hypothesis, then every
    reference): ``code`` is ``not_array``, ``no_references``, ``not_str``, ``empty`` or
    ``surrogate``; ``path`` is (field, segment[, reference][, token]); ``position`` is the
    index of the surrogate in the token (else -1)."""

    def __init__(self, code: str, path: tuple[str | int, ...], position: int = -1) -> None:
        super().__init__(code, path, position)
        self.code = code
        self.path = path
        self.position = position

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, TokenProblem):
            return NotImplemented
        return (self.code, self.path, self.position) == (other.code, other.path, other.position)

    def __hash__(self) -> int:
        return hash((self.code, self.path, self.position))

    def order(self) -> tuple[int, ...]:
        """Sort key: reading order of the place the problem is at."""
        field, *rest = self.path
        return (0 if field == "hypotheses" else 1, *(int(x) for x in rest))


def bleu_sentence_statistics(
    hypothesis: Sequence[str], references: Sequence[Sequence[str]], max_order: int
) -> BleuStatistics:
    """:func:`~mtcompute.core.sentence_statistics` of one segment.

    >>> bleu_sentence_statistics(["a", "b"], [["a", "b", "c"]], 2).matches
    (2, 1)
    """
    if active() and type(max_order) is int:
        stats = _ext.bleu_sentence(hypothesis, references, max_order)
        if stats is not None:
            return BleuStatistics(*stats)
    return sentence_statistics(hypothesis, references, max_order)


def _find_token_problem(
    hypotheses: Sequence[object], references: Sequence[object]
) -> TokenProblem | None:
    """The pure path's scan for the first :class:`TokenProblem` (what the kernel reports)."""

    def token_problem(tokens: Sequence[object], path: tuple[str | int, ...]) -> TokenProblem | None:
        for k, token in enumerate(tokens):
            if not isinstance(token, str):
                return TokenProblem("not_str", (*path, k))
            if not token:
                return TokenProblem("empty", (*path, k))
            at = _first_surrogate_py(token)
            if at >= 0:
                return TokenProblem("surrogate", (*path, k), at)
        return None

    for i, hypothesis in enumerate(hypotheses):
        if not isinstance(hypothesis, list | tuple):
            return TokenProblem("not_array", ("hypotheses", i))
        problem = token_problem(hypothesis, ("hypotheses", i))
        if problem:
            return problem
    for i, segment in enumerate(references):
        if not isinstance(segment, list | tuple):
            return TokenProblem("not_array", ("references", i))
        if not segment:
            return TokenProblem("no_references", ("references", i))
        for j, reference in enumerate(segment):
            if not isinstance(reference, list | tuple):
                return TokenProblem("not_array", ("references", i, j))
            problem = token_problem(reference, ("references", i, j))
            if problem:
                return problem
    return None


def _bleu_kernel_ok(hypotheses: object, references: object, max_order: int) -> bool:
    """Whether the BLEU kernel takes these arguments (else the pure path answers)."""
    return (
        active()
        and type(max_order) is int
        and 1 <= max_order <= _ext.MAX_ORDER
        and isinstance(hypotheses, list | tuple)
        and isinstance(references, list | tuple)
        and len(hypotheses) == len(references)
    )


_PURE_PROBLEMS = frozenset({"str_subclass", "too_long"})


def _bleu_counts(
    hypotheses: Sequence[Sequence[str]],
    references: Sequence[Sequence[Sequence[str]]],
    max_order: int,
    per_segment: bool,
    validate: bool,
    threads: int | None,
) -> tuple[bytes, list[int]] | None:
    """Kernel statistics (per-segment buffer, totals), or ``None`` for the pure path; raises
    :class:`TokenProblem` when ``validate`` and the input has one."""
    if not _bleu_kernel_ok(hypotheses, references, max_order):
        return None

    def work(
        start: int, stop: int
    ) -> tuple[bytes | None, tuple[int, ...], None] | tuple[None, None, _ext.Problem]:
        return _ext.bleu_counts(
            hypotheses[start:stop], references[start:stop], max_order, per_segment, validate
        )

    try:
        parts = map_spans(work, len(hypotheses), threads, MIN_SEGMENTS_PER_THREAD)
    except OverflowError:  # more tokens than the kernel indexes (2^32): the pure path
        return None
    problems: list[TokenProblem] = []
    for start, (_, _, problem) in parts:  # a part with a problem has no totals
        if problem is not None:
            code, (field, segment, *rest), position = problem
            problems.append(TokenProblem(code, (field, int(segment) + start, *rest), position))
    if problems:
        first = min(problems, key=TokenProblem.order)
        if not validate or first.code in _PURE_PROBLEMS:
            return None
        raise first
    return _join_bleu_parts(parts)


def _join_bleu_parts(
    parts: Sequence[tuple[int, tuple[bytes | None, tuple[int, ...] | None, object]]],
) -> tuple[bytes, list[int]] | None:
    """The per-segment buffers of the parts, joined in order, and the sums of their totals;
    ``None`` if a part has no totals (it reported a problem)."""
    buffers: list[bytes] = []
    columns: list[tuple[int, ...]] = []
    for _, (buf, totals, _) in parts:
        if totals is None:
            return None
        buffers.append(buf or b"")
        columns.append(totals)
    return b"".join(buffers), [sum(column) for column in zip(*columns, strict=True)]


def _bleu_stats(values: Sequence[int], order: int) -> BleuStatistics:
    return BleuStatistics(
        values[0], values[1], tuple(values[2 : 2 + order]), tuple(values[2 + order :])
    )


def bleu_statistics_many(
    hypotheses: Sequence[Sequence[str]],
    references: Sequence[Sequence[Sequence[str]]],
    max_order: int = 4,
    *,
    threads: int | None = None,
) -> list[BleuStatistics]:
    """:func:`~mtcompute.core.sentence_statistics` of every segment; ``references[i]``
    holds the one or more reference token lists of segment ``i``.

    >>> bleu_statistics_many([["a", "b"]], [[["a", "b", "c"]]], max_order=2)[0].matches
    (2, 1)
    """
    counts = _bleu_counts(hypotheses, references, max_order, True, False, threads)
    if counts is None:
        return [
            sentence_statistics(h, r, max_order)
            for h, r in zip(hypotheses, references, strict=True)
        ]
    return _bleu_segments(counts[0], max_order)


def _bleu_segments(buffer: bytes, max_order: int) -> list[BleuStatistics]:
    """The per-segment statistics in a kernel buffer (2 + 2 * max_order int64 each)."""
    values = _int64s(buffer)
    width = 2 + 2 * max_order
    return [_bleu_stats(values[i : i + width], max_order) for i in range(0, len(values), width)]


def bleu_totals(
    hypotheses: Sequence[Sequence[str]],
    references: Sequence[Sequence[Sequence[str]]],
    max_order: int = 4,
    *,
    validate: bool = False,
    threads: int | None = None,
) -> BleuStatistics:
    """The sum of every segment's BLEU statistics (candidate lengths, closest reference
    lengths, matches and totals each summed). With ``validate``, first raises the first
    :class:`TokenProblem` of the input, if any."""
    counts = _bleu_counts(hypotheses, references, max_order, False, validate, threads)
    if counts is not None:
        return _bleu_stats(counts[1], max_order)
    if validate:
        problem = _find_token_problem(hypotheses, references)
        if problem is not None:
            raise problem
    total = BleuStatistics(0, 0, (0,) * max_order, (0,) * max_order)
    for h, r in zip(hypotheses, references, strict=True):
        total = total + sentence_statistics(h, r, max_order)
    return total


def corpus_statistics(
    hypotheses: Sequence[Sequence[str]],
    references: Sequence[Sequence[Sequence[str]]],
    max_order: int,
) -> tuple[list[BleuStatistics], BleuStatistics]:
    """Each segment's statistics, in input order, as bleu-sentence-components counts them
    (:func:`bleu_statistics_many`), and their exact sum (Papineni 2002 §2.1.1, §2.2.2): what
    bleu-ngrams-count and bleu-corpus-compute report; at least one segment."""
    segments = bleu_statistics_many(hypotheses, references, max_order)
    total = segments[0]
    for stats in segments[1:]:
        total = total + stats
    return segments, total
