"""bleu-ngrams-count@1.0.0: BLEU clipped n-gram counts per segment and summed (Papineni 2002).

Each segment is counted as bleu-sentence-components counts it (§2.1:
:func:`mtcompute.core.bleu.sentence_statistics`, and with ``include_ngrams`` its
:func:`mtcompute.core.bleu.clipping_table`); the top-level figures are their exact integer
sums (§2.1.1, §2.2.2), the inputs of bleu-smoothing-compute for corpus BLEU.

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

from collections.abc import Sequence
from dataclasses import dataclass, replace

from mtcompute.core.bleu import BleuStatistics, NgramEntry, clipping_table
from mtcompute.core.jsjson import dumps
from mtcompute.errors import LimitExceeded
from mtcompute.tools import Tool
from mtcompute.tools._bleu_common import (
    Corpus,
    check_totals,
    corpus_statistics,
    ngram_rows,
    parse_corpus,
)
from mtcompute.tools._validate import require_bool, require_integer, require_keys, require_object

__all__ = ["BleuNgramCounts", "BleuSegmentCounts", "bleu_ngrams_count"]

ID, VERSION = "bleu-ngrams-count", "1.0.0"
FIELDS = ("hypotheses", "references", "max_order", "include_ngrams")
REQUIRED = FIELDS[:2]
MAX_SEGMENTS = 4096
MAX_TOTAL_TOKENS = 500_000
MAX_TOTAL_TOKEN_BYTES = 4_194_304
MAX_OUTPUT_BYTES = 1_000_000


@dataclass(frozen=True, slots=True)
class BleuSegmentCounts:
    """One segment's statistics and, when asked, its clipping table."""

    candidate_length: int
    reference_length: int
    matches: tuple[int, ...]
    totals: tuple[int, ...]
    ngrams: tuple[NgramEntry, ...] | None = None

    def to_dict(self) -> dict[str, object]:
        """The segment object, keys in the output schema's order."""
        out: dict[str, object] = {
            "candidate_length": self.candidate_length,
            "reference_length": self.reference_length,
            "matches": list(self.matches),
            "totals": list(self.totals),
        }
        if self.ngrams is not None:
            out["ngrams"] = ngram_rows(self.ngrams)
        return out


@dataclass(frozen=True, slots=True)
class BleuNgramCounts:
    """Summed statistics of a corpus and every segment's own, in input order."""

    segment_count: int
    max_order: int
    candidate_length: int
    reference_length: int
    matches: tuple[int, ...]
    totals: tuple[int, ...]
    segments: tuple[BleuSegmentCounts, ...]

    def to_dict(self) -> dict[str, object]:
        """The contract's output object, keys in the output schema's order."""
        return {
            "segment_count": self.segment_count,
            "max_order": self.max_order,
            "candidate_length": self.candidate_length,
            "reference_length": self.reference_length,
            "matches": list(self.matches),
            "totals": list(self.totals),
            "segments": [segment.to_dict() for segment in self.segments],
        }


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
        f"Expected a result of at most {MAX_OUTPUT_BYTES} UTF-8 bytes of JSON "
        f"(limit max output bytes), got more with include_ngrams, passing the limit at "
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
    corpus: Corpus,
    stats: Sequence[BleuStatistics],
    top: dict[str, object],
    max_order: int,
    include_ngrams: bool,
    limit: int = MAX_OUTPUT_BYTES,
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
    for i, (segment, hypothesis, references) in enumerate(
        zip(plain, corpus.hypotheses, corpus.references, strict=True)
    ):
        size += 1 if i else 0
        base = _utf8_size(segment.to_dict())
        if not _table_fits(hypothesis, max_order, base, limit - size):
            raise _too_big(i)
        with_table = replace(
            segment, ngrams=tuple(clipping_table(hypothesis, references, max_order))
        )
        size += _utf8_size(with_table.to_dict())
        if size > limit:
            raise _too_big(i)
        segments.append(with_table)
    return tuple(segments)


def _compute(raw: object) -> BleuNgramCounts:
    obj = require_object(raw)
    require_keys(obj, FIELDS, REQUIRED)
    corpus = parse_corpus(obj, MAX_SEGMENTS)
    max_order = require_integer(obj["max_order"], "/max_order", 1, 8) if "max_order" in obj else 4
    include_ngrams = (
        require_bool(obj["include_ngrams"], "/include_ngrams") if "include_ngrams" in obj else False
    )
    check_totals(
        corpus.token_count,
        corpus.token_bytes,
        MAX_TOTAL_TOKENS,
        MAX_TOTAL_TOKEN_BYTES,
        "the hypotheses and references",
    )

    stats, total = corpus_statistics(corpus, max_order)
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
    return replace(summed, segments=_segments(corpus, stats, top, max_order, include_ngrams))


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
    raw = {
        "hypotheses": hypotheses,
        "references": references,
        "max_order": max_order,
        "include_ngrams": include_ngrams,
    }
    return _compute(raw)


TOOL = Tool(ID, VERSION, lambda raw: _compute(raw).to_dict())
