"""Batch APIs: corpus TER, any size, and what every metric's corpus API adds up and runs from
its options (:func:`corpus_result`, :class:`ResultSum`). Corpus BLEU is
:mod:`mtcompute.metrics.bleu.corpus`'s; corpus chrF and chrF++ and all-pairs sentence chrF
(MBR) are :mod:`mtcompute.metrics.chrf.corpus`'s.

Two families of rules (docs/decisions.md, "Two families of rules"), one score scale: every corpus
score here is a float on the 0..100 scale, and ``str(result)`` is a one-line summary with the
settings' signature.

* :func:`corpus_ter` is Snover et al. 2006 §2 (TER, translation edit rate with block shifts)
  as sacreBLEU 2.6.0's ``TER(...).corpus_score`` computes it (:mod:`mtcompute.scoring`):
  raw text through its tercom tokenizer (``normalized``, ``no_punct``, ``asian_support``,
  ``case_sensitive``), each segment's fewest edits over its references and the average of
  their lengths, then total edits over the total of the average lengths (added in segment
  order, as sacreBLEU adds them).

References are laid out per segment, as the catalog's tools lay them out: ``references[i]``
is segment ``i``'s reference. Raw-text references are either flat, one string per segment
(one reference each), or nested, one array of one or more strings per segment; the first
item decides which, and every item must then have that form. (sacreBLEU's own layout, one list
per reference set, is :mod:`mtcompute.sacrebleu`'s.)

These are the library forms of the tools, without the service limits (segment counts, text
and token bytes, references per segment) but with their behaviour rules, checked by field types
declared once (:mod:`mtcompute.contracts.fields`, :mod:`mtcompute.metrics._corpus` and the few
below), in the same words: texts are str without lone surrogates, tokens non-empty, every
segment has at least one reference. Faults raise :class:`~mtcompute.errors.InvalidInput` (or
:class:`~mtcompute.errors.UnsupportedInput` for a tokenizer that cannot run here) naming the
field and index as a JSON Pointer. The counting is :mod:`mtcompute.counting` (the C kernel
when it is built, on ``MTCOMPUTE_THREADS`` threads, default all CPUs), which gives the same
numbers as the pure core.
"""

from __future__ import annotations

__all__ = [
    "REFERENCE_TEXTS",
    "RULES",
    "SMOOTH_METHOD",
    "SMOOTH_VALUE",
    "WORD_ORDER",
    "CorpusTer",
    "ReferenceTexts",
    "ResultSum",
    "corpus_result",
    "corpus_ter",
]

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar, cast

from mtcompute import streaming
from mtcompute.contracts import fields

# What the corpus APIs share, under this module's former names for it.
from mtcompute.metrics._corpus import (
    FLAG,
    REFERENCE_TEXTS,
    ReferenceTexts,
    chunk_scorer,
    scored_chunks,
)
from mtcompute.metrics._corpus import checked_texts as _checked_texts
from mtcompute.metrics._corpus import joined_nrefs_and_segments as _joined_nrefs_and_segments
from mtcompute.metrics._corpus import nrefs_of as _nrefs
from mtcompute.metrics._corpus import same_settings as _same_settings
from mtcompute.metrics._corpus import signature_of as _signature
from mtcompute.metrics.bleu.corpus import CorpusBleu, corpus_bleu
from mtcompute.metrics.bleu.score import BleuOptions
from mtcompute.metrics.chrf.corpus import CorpusChrf, corpus_chrf
from mtcompute.metrics.chrf.score import ChrfOptions
from mtcompute.metrics.ter.edits import sum_statistics
from mtcompute.metrics.ter.score import (
    TerOptions,
    TerResult,
    ter_score,
    ter_signature_fields,
    ter_statistics,
)

# --- field types -----------------------------------------------------------------------------
# The arguments' types: the tools' field types, without the service limits, and the few the
# sacreBLEU-rules arguments add (declared here once; candidates for contracts/fields.py).

RULES = fields.RULES
WORD_ORDER = fields.WORD_ORDER
SMOOTH_METHOD = fields.SMOOTH_METHOD
SMOOTH_VALUE = fields.SMOOTH_VALUE
# --- corpus TER ------------------------------------------------------------------------------


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
        (as :class:`ResultSum` sums them)."""
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
        return _signature(ter_signature_fields(self.options, self.nrefs))

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
        out: dict[str, object] = {
            "name": self.name,
            "score": self.score,
            "score_text": self.score_text,
            "signature": self.signature,
            "normalized": self.options.normalized,
            "no_punct": self.options.no_punct,
            "asian_support": self.options.asian_support,
            "case_sensitive": self.options.case_sensitive,
            "nrefs": self.nrefs if self.nrefs >= 0 else "var",
            "num_edits": self.num_edits,
            "ref_length": self.ref_length,
        }
        if self.segment_scores is not None:
            out["segment_scores"] = list(self.segment_scores)
            out["segment_edits"] = [edits for edits, _ in self.segment_statistics]
            out["segment_ref_lengths"] = [length for _, length in self.segment_statistics]
        return out

    @property
    def settings(self) -> tuple[object, ...]:
        """What two results must share to be added: the metric and its settings."""
        return (CorpusTer, self.options)

    def __add__(self, other: CorpusTer) -> CorpusTer:
        _same_settings(self, other, "TER")
        nrefs, segments = _joined_nrefs_and_segments(self, other)
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
        return _chunked(score, hypotheses, references, unit="segments", texts=True)
    # a list or a tuple from here on (anything else is refused by the checks below)
    hypotheses = cast("Sequence[str]", hypotheses)
    references = cast("Sequence[str] | Sequence[Sequence[str]]", references)
    refs = _checked_texts(hypotheses, references, "segments")
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
    return CorpusTer.from_statistics(each, options, _nrefs(refs), scores)


# --- results of a corpus in chunks -------------------------------------------------------------

AnyResult = CorpusBleu | CorpusChrf | CorpusTer


def corpus_result(
    hypotheses: Iterable[str],
    references: Iterable[str] | Iterable[Sequence[str]],
    options: BleuOptions | ChrfOptions | TerOptions,
    *,
    rules: str = "sacrebleu",
    segment_scores: bool = False,
) -> AnyResult:
    """:func:`corpus_bleu`, :func:`corpus_chrf` (with ``rules``) or :func:`corpus_ter`, as
    ``options`` names the metric, with its settings (chrF's ``char_order`` is always 6
    here). What runs a metric from its options object (the score command's chunks, the Dask
    partitions) calls this.

    >>> print(corpus_result(["aa"], ["ab"], ChrfOptions(beta=3)))  # doctest: +ELLIPSIS
    chrF3|nrefs:1|case:mixed|eff:yes|nc:6|nw:0|space:no|version:2.6.0|mtcompute:... = 25.00
    """
    if isinstance(options, BleuOptions):
        return corpus_bleu(
            hypotheses,
            references,
            tokenize=options.tokenize,
            lowercase=options.lowercase,
            smooth_method=options.smooth_method,
            smooth_value=options.smooth_value,
            max_order=options.max_ngram_order,
            effective_order=options.effective_order,
            segment_scores=segment_scores,
        )
    if isinstance(options, ChrfOptions):
        return corpus_chrf(
            hypotheses,
            references,
            word_order=options.word_order,
            beta=options.beta,
            lowercase=options.lowercase,
            whitespace=options.whitespace,
            eps_smoothing=options.eps_smoothing,
            rules=rules,
            segment_scores=segment_scores,
        )
    return corpus_ter(
        hypotheses,
        references,
        normalized=options.normalized,
        no_punct=options.no_punct,
        asian_support=options.asian_support,
        case_sensitive=options.case_sensitive,
        segment_scores=segment_scores,
    )


class ResultSum:
    """The results of consecutive chunks of one corpus (same metric, same settings) added up
    in bounded memory, in the order added: BLEU's and chrF's statistics summed (integer
    counts), TER's edits summed and its reference lengths added one segment at a time in
    segment order from 0, as sacreBLEU adds them; the reference counts joined (-1 when they
    differ). :meth:`total` is what ``a + b + ...`` gives, without the segment scores (a caller
    that wants them keeps or writes each chunk's) and, for TER, the segment statistics.

    >>> parts = ResultSum()
    >>> for chunk in (["a b c"], ["d e"]):
    ...     parts.add(corpus_ter(chunk, ["a b d"]))
    >>> parts.total().statistics == corpus_ter(["a b c", "d e"], ["a b d"] * 2).statistics
    True
    """

    __slots__ = ("_edits", "_first", "_length", "_nrefs", "_statistics")

    def __init__(self) -> None:
        self._first: AnyResult | None = None
        self._statistics: list[int] = []
        self._edits = 0
        self._length: float = 0
        self._nrefs = 0

    def add(self, part: AnyResult) -> None:
        """Add the result of the next chunk (ValueError for another metric or settings, and
        for a TER result without its segment statistics)."""
        first = self._first
        if first is None:
            self._first, self._nrefs = part, part.nrefs
        else:
            if first.settings != part.settings:
                raise ValueError("cannot add results of different metrics or settings")
            self._nrefs = self._nrefs if self._nrefs == part.nrefs else -1
        if isinstance(part, CorpusTer):
            if not part.segment_statistics:
                raise ValueError("a TER result without its segment statistics cannot be added")
            self._edits += part.num_edits
            for _, length in part.segment_statistics:
                self._length += length
        elif first is None:
            self._statistics = list(part.statistics)
        else:
            summed = zip(self._statistics, part.statistics, strict=True)
            self._statistics = [a + b for a, b in summed]

    def total(self, segment_scores: tuple[float, ...] | None = None) -> AnyResult:
        """The result of every chunk added (with ``segment_scores`` if given); ValueError
        before any."""
        first = self._first
        if first is None:
            raise ValueError("no result added")
        if isinstance(first, CorpusTer):
            return CorpusTer.from_sums(
                self._edits, self._length, first.options, self._nrefs, segment_scores
            )
        if isinstance(first, CorpusBleu):
            return CorpusBleu.from_statistics(
                self._statistics,
                first.options,
                first.tokenizer_signature,
                self._nrefs,
                segment_scores,
            )
        return CorpusChrf.from_statistics(
            self._statistics, first.options, first.rules, self._nrefs, segment_scores
        )


# --- iterables: in chunks ---------------------------------------------------------------------


R = TypeVar("R", CorpusBleu, CorpusChrf, CorpusTer)


def _chunked(
    score: Callable[[list[Any], list[Any]], R],
    hypotheses: Iterable[Any],
    references: Iterable[Any],
    *,
    unit: str | None,
    texts: bool,
) -> R:
    """``score`` (a corpus function, its options bound) of aligned iterables read in chunks
    (:func:`mtcompute.metrics._corpus.scored_chunks`: its checks, and errors that name the
    segment's index in the whole input), the results added up (:class:`ResultSum`), in
    bounded memory: the chunks' segment scores (and TER's segment statistics) kept only when
    they were asked for."""
    total = ResultSum()
    scores: list[float] = []
    each: list[tuple[int, float]] = []
    for part in scored_chunks(score, hypotheses, references, unit=unit, texts=texts):
        total.add(part)
        if part.segment_scores is not None:
            scores += part.segment_scores
            if isinstance(part, CorpusTer):
                each += part.segment_statistics
    result = total.total(tuple(scores) if scores else None)
    if isinstance(result, CorpusTer) and each:
        result = replace(result, segment_statistics=tuple(each))
    return cast(R, result)  # the type of score's results, which total() adds up
