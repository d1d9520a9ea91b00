"""Corpus TER, any size: Snover et al. 2006 §2 (TER, translation edit rate with block
shifts) as sacreBLEU 2.6.0's ``TER(...).corpus_score`` computes it: raw text through its
tercom tokenizer (``normalized``, ``no_punct``, ``asian_support``, ``case_sensitive``), each
segment's fewest edits over its references and the average of their lengths, then total
edits over the total of the average lengths (added in segment order, as sacreBLEU adds them).

The library form of ter-compute, without the service limits but with its checks
(:mod:`mtcompute.metrics._arguments`); references are laid out per segment, flat (one string
each) or nested (one or more strings each).
"""

from __future__ import annotations

__all__ = ["CorpusTer", "corpus_ter"]

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import cast

from mtcompute import streaming
from mtcompute.metrics._arguments import FLAG, checked_texts, scored_chunks
from mtcompute.metrics._corpus import (
    Running,
    added_up,
    chunk_scorer,
    joined_nrefs_and_segments,
    nrefs_of,
    result_dict,
    same_settings,
    signature_of,
)
from mtcompute.metrics.ter.edits import sum_statistics
from mtcompute.metrics.ter.score import (
    TerOptions,
    TerResult,
    ter_score,
    ter_signature_fields,
    ter_statistics,
)


@dataclass(frozen=True, slots=True)
class CorpusTer:
    """Corpus TER: ``score`` (a float, 0..100 and over: 100 * edits / reference length) and
    what sacreBLEU's ``TERScore`` holds beside it (``num_edits``, ``ref_length``).

    ``options`` are the settings (sacreBLEU's names); ``nrefs`` the references per segment
    (-1 when it varies); ``segment_statistics`` each segment's (fewest edits, average
    reference length), sacreBLEU's per-segment statistics, from which the totals are summed
    in segment order; ``segment_scores`` each segment's sentence TER, when asked for. Two
    results of the same settings add up: ``a + b`` is the result of the segments of both, in
    order (the lengths summed again one segment at a time, as sacreBLEU sums them, not as
    two partial sums).
    """

    score: float
    num_edits: int
    ref_length: float
    options: TerOptions
    nrefs: int
    segment_statistics: tuple[tuple[int, float], ...] = field(repr=False)
    segment_scores: tuple[float, ...] | None = None

    name = "TER"

    @classmethod
    def from_statistics(
        cls,
        segment_statistics: Sequence[tuple[int, float]],
        options: TerOptions,
        nrefs: int,
        segment_scores: tuple[float, ...] | None = None,
    ) -> CorpusTer:
        """The result of the segments' (edits, average reference length): sacreBLEU's sum
        of them, then ``TER._compute_score_from_stats``."""
        each = tuple(segment_statistics)
        r = ter_score(*sum_statistics(each))
        return cls(r.score, r.num_edits, r.ref_length, options, nrefs, each, segment_scores)

    @classmethod
    def from_sums(
        cls,
        num_edits: int,
        ref_length: float,
        options: TerOptions,
        nrefs: int,
        segment_scores: tuple[float, ...] | None = None,
    ) -> CorpusTer:
        """The result of summed statistics, the segments' own not kept (a corpus scored in
        chunks: ``segment_statistics`` is empty). ``ref_length`` must have been summed as
        sacreBLEU sums it, one segment at a time in segment order from 0
        (as :class:`~mtcompute.metrics._corpus.ResultSum` sums them)."""
        r = ter_score(num_edits, ref_length)
        return cls(r.score, r.num_edits, r.ref_length, options, nrefs, (), segment_scores)

    @property
    def statistics(self) -> tuple[int, float]:
        """The summed statistics in sacreBLEU's layout: ``[total_edits, sum_ref_lengths]``."""
        return self.num_edits, self.ref_length

    @property
    def signature(self) -> str:
        """sacreBLEU's signature of the settings (``nrefs:1|case:lc|tok:tercom|norm:no|
        punct:yes|asian:no|version:2.6.0``), then ``mtcompute:<version>``."""
        return signature_of(ter_signature_fields(self.options, self.nrefs))

    @property
    def score_text(self) -> str:
        """sacreBLEU's two-decimal score."""
        return f"{self.score:.2f}"

    def __str__(self) -> str:
        return TerResult(self.score, self.num_edits, self.ref_length).format(
            signature=self.signature
        )

    def to_dict(self) -> dict[str, object]:
        """The result as JSON-ready data (the ``score`` command's ``--format json``); with
        segment scores, each segment's edits and average reference length too."""
        out = result_dict(
            self,
            {
                "normalized": self.options.normalized,
                "no_punct": self.options.no_punct,
                "asian_support": self.options.asian_support,
                "case_sensitive": self.options.case_sensitive,
                "nrefs": self.nrefs if self.nrefs >= 0 else "var",
                "num_edits": self.num_edits,
                "ref_length": self.ref_length,
            },
        )
        if self.segment_scores is not None:
            out["segment_edits"] = [edits for edits, _ in self.segment_statistics]
            out["segment_ref_lengths"] = [length for _, length in self.segment_statistics]
        return out

    @property
    def settings(self) -> tuple[object, ...]:
        """What two results must share to be added: the metric and its settings."""
        return (CorpusTer, self.options)

    def add_to(self, running: Running | None) -> Running:
        """``[edits, reference length]`` with this result's added: its segments' lengths one
        at a time, in order (ValueError without its segment statistics)."""
        if not self.segment_statistics:
            raise ValueError("a TER result without its segment statistics cannot be added")
        edits, length = (0, 0) if running is None else running
        edits += self.num_edits
        for _, segment_length in self.segment_statistics:
            length += segment_length
        return [edits, length]

    def from_sum(
        self, running: Running, nrefs: int, segment_scores: tuple[float, ...] | None
    ) -> CorpusTer:
        """The result of summed edits and reference lengths, with these settings."""
        edits, length = running
        return CorpusTer.from_sums(int(edits), length, self.options, nrefs, segment_scores)

    def __add__(self, other: CorpusTer) -> CorpusTer:
        same_settings(self, other, "TER")
        nrefs, segments = joined_nrefs_and_segments(self, other)
        joined = self.segment_statistics + other.segment_statistics
        return CorpusTer.from_statistics(joined, self.options, nrefs, segments)


def corpus_ter(
    hypotheses: Iterable[str],
    references: Iterable[str] | Iterable[Sequence[str]],
    *,
    normalized: bool = False,
    no_punct: bool = False,
    asian_support: bool = False,
    case_sensitive: bool = False,
    segment_scores: bool = False,
) -> CorpusTer:
    """Corpus TER (0..100, more when the edits outnumber the reference words) as sacreBLEU
    2.6.0's ``TER(normalized=..., no_punct=..., asian_support=..., case_sensitive=...)
    .corpus_score`` gives it.

    ``references`` is flat (one string per segment) or nested (a list of one or more
    strings per segment). Each segment counts the fewest edits over its references (the
    first of equals) and the average of their lengths in words; segment scores are each
    segment's sentence TER (sacreBLEU's ``sentence_score`` against the segment's
    references).

    Validation, first fault wins: hypotheses (an array of str, at least one), references
    (flat or nested, at least one), equal counts, lone surrogates, normalized, no_punct,
    asian_support, case_sensitive, segment_scores.

    >>> print(corpus_ter(["The cat sat on mat."], ["The cat sat on the mat."]))
    ... # doctest: +ELLIPSIS
    TER|nrefs:1|case:lc|tok:tercom|norm:no|punct:yes|asian:no|version:2.6.0|mtcompute:... = 16.67
    >>> corpus_ter(["a B c"], [["a b d", "c"]], case_sensitive=True).statistics
    (2, 2.0)
    """
    if streaming.is_stream(hypotheses) or streaming.is_stream(references):
        score = chunk_scorer(corpus_ter, locals())
        return _chunked(score, hypotheses, references)
    # a list or a tuple from here on (anything else is refused by the checks below)
    hypotheses = cast("Sequence[str]", hypotheses)
    references = cast("Sequence[str] | Sequence[Sequence[str]]", references)
    refs = checked_texts(hypotheses, references, "segments")
    options = TerOptions(
        normalized=FLAG.parse(normalized, "/normalized"),
        no_punct=FLAG.parse(no_punct, "/no_punct"),
        asian_support=FLAG.parse(asian_support, "/asian_support"),
        case_sensitive=FLAG.parse(case_sensitive, "/case_sensitive"),
    )
    with_segments = FLAG.parse(segment_scores, "/segment_scores")
    each = ter_statistics(hypotheses, refs, options)
    scores = None
    if with_segments:
        scores = tuple(ter_score(*stats).score for stats in each)
    return CorpusTer.from_statistics(each, options, nrefs_of(refs), scores)


def _chunked(
    score: Callable[[list[str], list[object]], CorpusTer],
    hypotheses: Iterable[str],
    references: Iterable[object],
) -> CorpusTer:
    """``score`` (corpus_ter, its options bound) of aligned iterables read in chunks
    (:func:`mtcompute.metrics._arguments.scored_chunks`: its checks, and errors that name the
    segment's index in the whole input), the results added up
    (:func:`~mtcompute.metrics._corpus.added_up`), in bounded memory: the chunks' segment
    statistics kept only when segment scores were asked for."""
    each: list[tuple[int, float]] = []

    def keeping_statistics(parts: Iterable[CorpusTer]) -> Iterator[CorpusTer]:
        for part in parts:
            if part.segment_scores is not None:
                each.extend(part.segment_statistics)
            yield part

    chunks = scored_chunks(score, hypotheses, references, unit="segments", texts=True)
    result = added_up(keeping_statistics(chunks))
    return replace(result, segment_statistics=tuple(each)) if each else result
