"""bleu-ngrams-count@1.0.0: BLEU clipped n-gram counts per segment and summed (Papineni 2002).

Each segment is counted as bleu-sentence-components counts it (§2.1:
:func:`mtcompute.metrics.bleu.statistics.sentence_statistics`, and with ``include_ngrams`` its
:func:`mtcompute.metrics.bleu.statistics.clipping_table`); the top-level figures are their
exact integer sums (§2.1.1, §2.2.2), the inputs of bleu-smoothing-compute for corpus BLEU.

The output limit (1,000,000 UTF-8 bytes of compact JSON) can only be reached with
``include_ngrams``: without tables a result of 4096 segments, 8 orders and every number at
its largest stays under 800,000 bytes. With tables, the size is added up segment by segment
and the error names the first segment at which the result passes the limit. So that a huge
table is refused before it is built (a single 500,000-token segment at order 8 has up to 4
million rows), each segment's size is first bounded from below by its number of distinct
hypothesis n-grams times the smallest row of that order: a bound never above the real size,
so this pre-check changes no answer, only the work done.
"""

from __future__ import annotations

__all__ = ["BleuNgramCounts", "BleuSegmentCounts", "bleu_ngrams_count"]

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from mtcompute.contracts.validate import Boolean, Field, contract_limits
from mtcompute.core.jsjson import dumps
from mtcompute.errors import LimitExceeded
from mtcompute.metrics.bleu.counts import corpus_statistics
from mtcompute.metrics.bleu.statistics import BleuStatistics, NgramEntry, clipping_table
from mtcompute.tools import Tool
from mtcompute.tools._bleu_common import CountFields, counting_input
from mtcompute.tools._cost import integer, member, size
from mtcompute.tools._results import Output, omitted_when_none

ID, VERSION = "bleu-ngrams-count", "1.0.0"
LIMITS = contract_limits(ID, VERSION)
MAX_OUTPUT_BYTES = LIMITS["max_output_bytes"]
INPUT = counting_input(LIMITS, True, Field("include_ngrams", Boolean(), default=False))


@dataclass(frozen=True, slots=True)
class BleuSegmentCounts(CountFields, Output):
    """One segment's statistics (:class:`CountFields`) and, when asked, its clipping table."""

    ngrams: tuple[NgramEntry, ...] | None = omitted_when_none()


@dataclass(frozen=True)
class _CorpusFields:
    __slots__ = ()

    segment_count: int
    max_order: int


@dataclass(frozen=True, slots=True)
class BleuNgramCounts(CountFields, _CorpusFields, Output):
    """Summed statistics of a corpus and every segment's own, in input order: segment_count,
    max_order, the sums (:class:`CountFields`), then segments."""

    segments: tuple[BleuSegmentCounts, ...]


def _utf8_size(value: object) -> int:
    return len(dumps(value).encode("utf-8"))


def _smallest_row(order: int) -> int:
    """Bytes of the smallest possible ngrams row of an order: one-character ASCII tokens,
    one-digit counts."""
    row = {
        "order": order,
        "ngram": ["x"] * order,
        "count": 1,
        "max_reference_count": 0,
        "clipped_count": 0,
    }
    return _utf8_size(row)


_SMALLEST_ROW = {n: _smallest_row(n) for n in range(1, 9)}
# A segment object with its table is the object without one less its "}", then
# ',"ngrams":[', the rows joined by ",", and "]}": with R >= 1 rows, base + 11 + sum of
# (row + 1) over the rows; with none, base + 12.
_TABLE_OVERHEAD = len(',"ngrams":[]') - 1


def _too_big(index: int) -> LimitExceeded:
    return LimitExceeded(
        f"Expected a result of at most {MAX_OUTPUT_BYTES.value} UTF-8 bytes of JSON "
        f"(limit {MAX_OUTPUT_BYTES.name}), got more with include_ngrams, passing the limit at "
        f"segment {index}; ask without include_ngrams or split the input."
    )


def _table_fits(hypothesis: Sequence[str], max_order: int, base: int, room: int) -> bool:
    """Whether a lower bound of the segment's size with its table is within ``room``: each
    distinct hypothesis n-gram is one row of at least the smallest row's size."""
    size = base + _TABLE_OVERHEAD
    for n in range(1, max_order + 1):
        distinct = len(set(zip(*(hypothesis[i:] for i in range(n)), strict=False)))
        size += distinct * (_SMALLEST_ROW[n] + 1)
        if size > room:
            return False
    return True


def _segments(
    hypotheses: Sequence[Sequence[str]],
    references: Sequence[Sequence[Sequence[str]]],
    stats: Sequence[BleuStatistics],
    top: dict[str, object],
    max_order: int,
    include_ngrams: bool,
    limit: int = MAX_OUTPUT_BYTES.value,
) -> tuple[BleuSegmentCounts, ...]:
    """Each segment's counts; with tables, the size check segment by segment."""
    plain = tuple(
        BleuSegmentCounts(s.candidate_length, s.reference_length, s.matches, s.totals)
        for s in stats
    )
    if not include_ngrams:
        return plain
    # The result is top (less "}") + ',"segments":[' + segments joined by "," + "]}".
    size = _utf8_size(top) - 1 + len(',"segments":[') + len("]}")
    segments: list[BleuSegmentCounts] = []
    for i, (segment, hypothesis, refs) in enumerate(
        zip(plain, hypotheses, references, strict=True)
    ):
        size += 1 if i else 0
        base = _utf8_size(segment.to_dict())
        if not _table_fits(hypothesis, max_order, base, limit - size):
            raise _too_big(i)
        with_table = replace(segment, ngrams=tuple(clipping_table(hypothesis, refs, max_order)))
        size += _utf8_size(with_table.to_dict())
        if size > limit:
            raise _too_big(i)
        segments.append(with_table)
    return tuple(segments)


def _compute(values: Mapping[str, Any]) -> BleuNgramCounts:
    hypotheses, references = values["hypotheses"], values["references"]
    max_order, include_ngrams = values["max_order"], values["include_ngrams"]
    stats, total = corpus_statistics(hypotheses, references, max_order)
    summed = BleuNgramCounts(
        len(stats),
        max_order,
        total.candidate_length,
        total.reference_length,
        total.matches,
        total.totals,
        (),
    )
    top = summed.to_dict()
    del top["segments"]
    return replace(
        summed, segments=_segments(hypotheses, references, stats, top, max_order, include_ngrams)
    )


def bleu_ngrams_count(
    hypotheses: Sequence[Sequence[str]],
    references: Sequence[Sequence[Sequence[str]]],
    max_order: int = 4,
    *,
    include_ngrams: bool = False,
) -> BleuNgramCounts:
    """Clipped n-gram matches, totals and lengths of tokenized segments, each and summed
    (bleu-ngrams-count@1.0.0): ``references[i]`` holds the 1 to 8 reference token lists of
    segment ``i``. Same validation and limits as the tool.

    >>> counts = bleu_ngrams_count([["a", "b"], ["c"]], [[["a", "b"]], [["d"]]], max_order=2)
    >>> counts.matches, counts.totals, counts.segments[1].matches
    ((2, 1), (3, 1), (0, 0))
    """
    return _compute(INPUT.call(**locals()))


def _cost(raw: object, cap: int) -> int:
    """Every token counted once per order; with ``include_ngrams``, a table row per n-gram
    holding its n tokens, built and written: the size times 2 + order / 4, or (tables) times
    2 + 5 x order."""
    order = integer(raw, "max_order", 4, 8)
    tables = member(raw, "include_ngrams") not in (None, False)
    units = size(raw, cap)
    return units * (2 + 5 * order) if tables else units * (8 + order) // 4


TOOL = Tool(ID, VERSION, INPUT, _compute, bleu_ngrams_count, _cost)
