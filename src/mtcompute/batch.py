"""Batch APIs: corpus BLEU and corpus TER, any size, and what every metric's corpus API adds
up and runs from its options (:func:`corpus_result`, :class:`ResultSum`). Corpus chrF and
chrF++ and all-pairs sentence chrF (MBR) are :mod:`mtcompute.metrics.chrf.corpus`'s.

Two families of rules (docs/decisions.md, "Two families of rules"), one score scale: every corpus
score here is a float on the 0..100 scale, and ``str(result)`` is a one-line summary with the
settings' signature.

* :func:`corpus_bleu` is Papineni et al. 2002 §2 as sacreBLEU 2.6.0's ``BLEU(...).corpus_score``
  computes it (:mod:`mtcompute.scoring`): raw text through sacreBLEU's tokenizer
  (``tokenize``, default ``13a``), clipped matches against every reference, closest
  reference length, sacreBLEU's smoothing (``exp`` by default; Chen & Cherry 2014 §2).
  ``tokenize=None`` takes token lists instead (the pre-tokenized form: each segment's tokens
  counted as given, scored by the same arithmetic). BLEU has this one rule: the catalog
  contracts' BLEU arithmetic is the bleu-* tools' (:func:`mtcompute.bleu_corpus`).
* :func:`corpus_ter` is Snover et al. 2006 §2 (TER, translation edit rate with block shifts)
  as sacreBLEU 2.6.0's ``TER(...).corpus_score`` computes it (:mod:`mtcompute.scoring`):
  raw text through its tercom tokenizer (``normalized``, ``no_punct``, ``asian_support``,
  ``case_sensitive``), each segment's fewest edits over its references and the average of
  their lengths, then total edits over the total of the average lengths (added in segment
  order, as sacreBLEU adds them).
* :func:`text_bleu_statistics` (BLEU statistics of whitespace-split texts) is an exact
  contract-family building block.

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
    "CorpusBleu",
    "CorpusChrf",  # re-exported for cli/
    "CorpusTer",
    "ReferenceTexts",
    "ResultSum",
    "corpus_bleu",
    "corpus_bleu_lines",
    "corpus_chrf_lines",  # re-exported for cli/
    "corpus_result",
    "corpus_ter",
    "text_bleu_statistics",
]

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar, cast

from mtcompute import counting, scoring, streaming
from mtcompute.contracts import fields
from mtcompute.contracts.validate import (
    Array,
    Token,
    check_same_count,
)
from mtcompute.errors import MtcomputeError, json_pointer

# What the corpus APIs share, under this module's former names for it.
from mtcompute.metrics._corpus import (
    FLAG,
    REFERENCE_TEXTS,
    TEXT_REFERENCES,
    TEXTS,
    ReferenceTexts,
    scored_chunks,
)
from mtcompute.metrics._corpus import checked_texts as _checked_texts
from mtcompute.metrics._corpus import joined as _joined
from mtcompute.metrics._corpus import joined_nrefs_and_segments as _joined_nrefs_and_segments
from mtcompute.metrics._corpus import no_lone_surrogates as _no_lone_surrogates
from mtcompute.metrics._corpus import no_lone_surrogates_in as _no_lone_surrogates_in
from mtcompute.metrics._corpus import nrefs_of as _nrefs
from mtcompute.metrics._corpus import signature_of as _signature
from mtcompute.metrics.bleu import counts as bleu_counts
from mtcompute.metrics.bleu import score as sacre_bleu
from mtcompute.metrics.bleu.statistics import BleuStatistics

# CorpusChrf and corpus_chrf_lines: re-exported for cli/ until it imports from metrics.chrf
from mtcompute.metrics.chrf.corpus import CorpusChrf, corpus_chrf, corpus_chrf_lines
from mtcompute.metrics.chrf.score import ChrfOptions
from mtcompute.metrics.ter.edits import sum_statistics
from mtcompute.metrics.ter.score import (
    TerOptions,
    TerResult,
    ter_score,
    ter_signature_fields,
    ter_statistics,
)
from mtcompute.tokenizers import get_tokenizer

PRETOKENIZED = "pretokenized"  # the signature's tok: value for tokenize=None (token lists)

# --- field types -----------------------------------------------------------------------------
# The arguments' types: the tools' field types, without the service limits, and the few the
# sacreBLEU-rules arguments add (declared here once; candidates for contracts/fields.py).

RULES = fields.RULES
WORD_ORDER = fields.WORD_ORDER
SMOOTH_METHOD = fields.SMOOTH_METHOD
SMOOTH_VALUE = fields.SMOOTH_VALUE
TOKEN = Token()
HYPOTHESIS = Array(TOKEN, "a token list (an array)")
REFERENCE = Array(TOKEN, "a reference token list (an array)")
SEGMENT_REFERENCES = Array(REFERENCE, "an array of token lists", "reference", 1)
HYPOTHESES = Array(HYPOTHESIS, "an array of token lists", "segment", 1)
REFERENCES = Array(SEGMENT_REFERENCES, "an array of reference lists", "segment", 1)


# --- corpus BLEU -----------------------------------------------------------------------------


def _flat_bleu(stats: BleuStatistics) -> tuple[int, ...]:
    """sacreBLEU's layout of BLEU statistics: ``[sys_len, ref_len, correct_1..N, total_1..N]``."""
    return (stats.candidate_length, stats.reference_length, *stats.matches, *stats.totals)


@dataclass(frozen=True, slots=True)
class CorpusBleu:
    """Corpus BLEU: ``score`` (a float, 0..100) and what sacreBLEU's ``BLEUScore`` holds
    beside it (``counts``, ``totals``, ``precisions``, ``bp``, ``sys_len``, ``ref_len``).

    ``statistics`` are the summed counts in sacreBLEU's layout (``[sys_len, ref_len,
    correct_1..N, total_1..N]``); ``options`` the settings (sacreBLEU's names;
    ``tokenize`` is ``"none"`` there for token lists, and ``tokenizer_signature``
    ``"pretokenized"``); ``nrefs`` the references per segment (-1 when it varies);
    ``segment_scores`` each segment's BLEU with the same settings, when asked for. Two
    results of the same settings add up.
    """

    score: float
    counts: tuple[int | float, ...]
    totals: tuple[int | float, ...]
    precisions: tuple[float, ...]
    bp: float
    sys_len: int
    ref_len: int
    statistics: tuple[int, ...]
    options: sacre_bleu.BleuOptions
    tokenizer_signature: str
    nrefs: int
    segment_scores: tuple[float, ...] | None = None

    name = "BLEU"

    @classmethod
    def from_statistics(
        cls,
        statistics: Sequence[int],
        options: sacre_bleu.BleuOptions,
        tokenizer_signature: str,
        nrefs: int,
        segment_scores: tuple[float, ...] | None = None,
    ) -> CorpusBleu:
        """The result for summed ``statistics``: sacreBLEU's ``compute_bleu``."""
        flat = tuple(statistics)
        r = sacre_bleu.bleu_score(flat, options)
        return cls(
            r.score,
            r.counts,
            r.totals,
            r.precisions,
            r.bp,
            r.sys_len,
            r.ref_len,
            flat,
            options,
            tokenizer_signature,
            nrefs,
            segment_scores,
        )

    @property
    def _parts(self) -> sacre_bleu.BleuResult:
        return sacre_bleu.BleuResult(
            self.score,
            self.counts,
            self.totals,
            self.precisions,
            self.bp,
            self.sys_len,
            self.ref_len,
        )

    @property
    def ratio(self) -> float:
        """sys_len / ref_len (0 when ref_len is 0), as sacreBLEU computes it."""
        return self._parts.ratio

    @property
    def verbose(self) -> str:
        """What sacreBLEU prints after the score: ``67.0/41.2/27.3/18.5 (BP = 1.000 ...)``."""
        return self._parts.verbose

    @property
    def signature(self) -> str:
        """sacreBLEU's signature of the settings (``nrefs:1|case:mixed|eff:no|tok:13a|
        smooth:exp|version:2.6.0``), then ``mtcompute:<version>``."""
        return _signature(
            sacre_bleu.bleu_signature_fields(self.options, self.nrefs, self.tokenizer_signature)
        )

    @property
    def score_text(self) -> str:
        """sacreBLEU's two-decimal score."""
        return f"{self.score:.2f}"

    def __str__(self) -> str:
        return self._parts.format(signature=self.signature)

    def to_dict(self) -> dict[str, object]:
        """The result as JSON-ready data (the ``score`` command's ``--format json``)."""
        out: dict[str, object] = {
            "name": self.name,
            "score": self.score,
            "score_text": self.score_text,
            "signature": self.signature,
            "tokenize": self.tokenizer_signature,
            "lowercase": self.options.lowercase,
            "smooth_method": self.options.smooth_method,
            "smooth_value": self.options.smooth_value,
            "max_order": self.options.max_ngram_order,
            "effective_order": self.options.effective_order,
            "nrefs": self.nrefs if self.nrefs >= 0 else "var",
            "counts": list(self.counts),
            "totals": list(self.totals),
            "precisions": list(self.precisions),
            "bp": self.bp,
            "ratio": self.ratio,
            "sys_len": self.sys_len,
            "ref_len": self.ref_len,
        }
        if self.segment_scores is not None:
            out["segment_scores"] = list(self.segment_scores)
        return out

    def __add__(self, other: CorpusBleu) -> CorpusBleu:
        if (self.options, self.tokenizer_signature) != (other.options, other.tokenizer_signature):
            raise ValueError("cannot add BLEU results of different settings")
        summed, nrefs, segments = _joined(self, other)
        return CorpusBleu.from_statistics(
            summed, self.options, self.tokenizer_signature, nrefs, segments
        )


def _token_error(
    problem: bleu_counts.TokenProblem, hypotheses: Sequence[object], references: Sequence[object]
) -> MtcomputeError:
    """The error the declared types give for the first fault the token scan found."""
    field, *indices = problem.path
    value: object = hypotheses if field == "hypotheses" else references
    for index in indices:  # the scan walked this path: lists and tuples all the way
        if isinstance(value, list | tuple):
            value = value[int(index)]
    pointer = json_pointer(*problem.path)
    shapes: dict[tuple[str, int], Array[Any]] = {
        ("hypotheses", 1): HYPOTHESIS,
        ("references", 1): SEGMENT_REFERENCES,
        ("references", 2): REFERENCE,
    }
    try:
        if problem.code in ("not_array", "no_references"):
            shapes[(str(field), len(indices))].check_shape(value, pointer)
        else:
            TOKEN.parse(value, pointer)
    except MtcomputeError as error:
        return error
    raise RuntimeError(f"the token scan reported {problem.code} at {pointer}, the types did not")


def _token_statistics(
    hypotheses: Sequence[Sequence[str]],
    references: Sequence[Sequence[Sequence[str]]],
    max_order: int,
    lowercase: bool,
    with_segments: bool,
) -> tuple[BleuStatistics, list[BleuStatistics] | None]:
    """The statistics of token lists as given (``str.lower`` of each token first if asked);
    the tokens checked in reading order (a str, non-empty, without lone surrogates)."""
    if not lowercase and not with_segments:
        try:
            return bleu_counts.bleu_totals(hypotheses, references, max_order, validate=True), None
        except bleu_counts.TokenProblem as problem:
            raise _token_error(problem, hypotheses, references) from None
    hyps = HYPOTHESES.parse(hypotheses, "/hypotheses")
    refs = REFERENCES.parse(references, "/references")
    if lowercase:
        hyps = [[token.lower() for token in tokens] for tokens in hyps]
        refs = [[[token.lower() for token in tokens] for tokens in segment] for segment in refs]
    each = bleu_counts.bleu_statistics_many(hyps, refs, max_order)
    total = BleuStatistics(0, 0, (0,) * max_order, (0,) * max_order)
    for stats in each:
        total = total + stats
    return total, (each if with_segments else None)


def corpus_bleu(
    hypotheses: Iterable[str] | Iterable[Sequence[str]],
    references: Iterable[str] | Iterable[Sequence[str]] | Iterable[Sequence[Sequence[str]]],
    *,
    tokenize: str | None = "13a",
    lowercase: bool = False,
    smooth_method: str = "exp",
    smooth_value: float | None = None,
    max_order: int = 4,
    effective_order: bool = False,
    segment_scores: bool = False,
) -> CorpusBleu:
    """Corpus BLEU (0..100) as sacreBLEU 2.6.0's ``BLEU(tokenize=..., lowercase=...,
    smooth_method=..., smooth_value=..., max_ngram_order=max_order,
    effective_order=...).corpus_score`` gives it.

    With a ``tokenize`` name (sacreBLEU's: ``13a``, ``zh``, ``char``, ``none``, ...) the
    segments are raw text: ``hypotheses`` strings, ``references`` flat (one string per
    segment) or nested (a list of one or more strings per segment). With ``tokenize=None``
    they are token lists, as before: ``hypotheses[i]`` a token list, ``references[i]`` a list
    of one or more token lists; the tokens are counted as given (``lowercase`` lowers each).
    ``smooth_value`` is floor's or add-k's (default 0.1 and 1); segment scores are each
    segment's BLEU with the same settings.

    Validation, first fault wins: tokenize (it decides what the segments are; a tokenizer
    that cannot run here is unsupported), hypotheses and references (their shape, at least
    one segment), equal counts, lowercase, smooth_method, smooth_value (0..100, for floor and
    add-k only), max_order (1..8), effective_order, segment_scores, then the texts (lone
    surrogates) or every token in reading order (a str, non-empty, without lone surrogates;
    every segment with at least one reference).

    >>> print(corpus_bleu(["The cat sat on the mat."], ["The cat sat on the mat."]))
    ... # doctest: +ELLIPSIS
    BLEU|nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0|mtcompute:... = 100.00 ...
    >>> corpus_bleu([["the", "cat"]], [[["the", "cat"]]], tokenize=None, max_order=2).score
    100.00000000000004
    """
    if streaming.is_stream(hypotheses) or streaming.is_stream(references):

        def score(hyps: list[Any], refs: list[Any]) -> CorpusBleu:
            return corpus_bleu(
                hyps,
                refs,
                tokenize=tokenize,
                lowercase=lowercase,
                smooth_method=smooth_method,
                smooth_value=smooth_value,
                max_order=max_order,
                effective_order=effective_order,
                segment_scores=segment_scores,
            )

        raw = tokenize is not None
        return _chunked(score, hypotheses, references, unit="segments", texts=raw)
    # a list or a tuple from here on (anything else is refused by the checks below)
    hypotheses = cast("Sequence[str] | Sequence[Sequence[str]]", hypotheses)
    references = cast(
        "Sequence[str] | Sequence[Sequence[str]] | Sequence[Sequence[Sequence[str]]]", references
    )
    tokenizer = None if tokenize is None else get_tokenizer(tokenize, "/tokenize")
    plain = tokenizer is not None and counting.plain_texts(hypotheses, references)
    if tokenizer is None:
        HYPOTHESES.check_shape(hypotheses, "/hypotheses")
        REFERENCES.check_shape(references, "/references")
        hyp_texts: list[str] = []
        texts: list[list[str]] = []
    elif plain:  # every check of the texts passes (the lone surrogates' below too)
        hyp_texts = cast("list[str]", hypotheses)
        texts = cast("list[list[str]]", references)
    else:
        hyp_texts = TEXTS.parse(hypotheses, "/hypotheses")
        texts = REFERENCE_TEXTS.parse(references, "/references")
    check_same_count("hypotheses", hypotheses, "references", references, "segments")
    lowercase = FLAG.parse(lowercase, "/lowercase")
    smooth_method = SMOOTH_METHOD.parse(smooth_method, "/smooth_method")
    if smooth_value is not None:
        smooth_value = SMOOTH_VALUE.parse(smooth_value, "/smooth_value")
        fields.check_smooth_value(smooth_method, smooth_value, "/smooth_value")
    options = sacre_bleu.BleuOptions(
        "none" if tokenizer is None else tokenizer.name,
        lowercase,
        smooth_method,
        smooth_value,
        fields.MAX_ORDER.parse(max_order, "/max_order"),
        FLAG.parse(effective_order, "/effective_order"),
    )
    with_segments = FLAG.parse(segment_scores, "/segment_scores")
    segments: Sequence[Sequence[int]] | None
    if tokenizer is None:
        stats, each = _token_statistics(
            hypotheses,  # token lists: checked while counted
            references,
            options.max_ngram_order,
            lowercase,
            with_segments,
        )
        total = _flat_bleu(stats)
        segments = None if each is None else [_flat_bleu(s) for s in each]
        signature, nrefs = PRETOKENIZED, _nrefs(references)
    else:
        if not plain:
            _no_lone_surrogates(hyp_texts, "hypotheses")
            _no_lone_surrogates_in(texts, isinstance(references[0], str))
        flat_total, segments_list = sacre_bleu.bleu_statistics(
            hyp_texts,
            texts,
            options,
            per_segment=with_segments,
            tokenizer=tokenizer,
        )
        total, segments = tuple(flat_total), segments_list
        signature, nrefs = tokenizer.signature, _nrefs(texts)
    scores = None
    if segments is not None:
        scores = tuple(sacre_bleu.bleu_score(s, options).score for s in segments)
    return CorpusBleu.from_statistics(total, options, signature, nrefs, scores)


def corpus_bleu_lines(
    hypotheses: bytes,
    references: Sequence[bytes],
    count: int,
    options: sacre_bleu.BleuOptions,
    *,
    segment_scores: bool = False,
) -> CorpusBleu | None:
    """:func:`corpus_bleu` with ``options`` of ``count`` undecoded lines (one reference of
    every segment in each ``references`` item; a line what the score command decodes:
    :func:`mtcompute.metrics.bleu.counts.bleu_line_rows`), counted by the kernel without a str per
    text; ``None`` where it does not count them (lowercase, which is Python's
    ``str.lower``; a tokenizer or lines it does not take): the caller decodes the lines and
    calls :func:`corpus_bleu`, which gives the same result.

    >>> found = corpus_bleu_lines(b"The cat sat.\\n", [b"The cat.\\n"], 1, sacre_bleu.BleuOptions())
    >>> found is None or found.score == corpus_bleu(["The cat sat."], ["The cat."]).score
    True
    """
    if options.lowercase:
        return None
    tokenizer = get_tokenizer(options.tokenize, "/tokenize")
    options = replace(options, tokenize=tokenizer.name)  # as corpus_bleu names it
    found = bleu_counts.bleu_line_rows(
        hypotheses,
        references,
        count,
        options.max_ngram_order,
        per_segment=segment_scores,
        tokenizer=tokenizer,
    )
    if found is None:
        return None
    total, rows = found
    scores = None
    if rows is not None:
        values = memoryview(rows).cast("q").tolist()
        width = 2 + 2 * options.max_ngram_order
        scores = tuple(
            sacre_bleu.bleu_score(values[at : at + width], options).score
            for at in range(0, len(values), width)
        )
    return CorpusBleu.from_statistics(
        _flat_bleu(total), options, tokenizer.signature, len(references), scores
    )


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

    def __add__(self, other: CorpusTer) -> CorpusTer:
        if self.options != other.options:
            raise ValueError("cannot add TER results of different settings")
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

        def score(hyps: list[str], refs: list[Any]) -> CorpusTer:
            return corpus_ter(
                hyps,
                refs,
                normalized=normalized,
                no_punct=no_punct,
                asian_support=asian_support,
                case_sensitive=case_sensitive,
                segment_scores=segment_scores,
            )

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
    options: scoring.BleuOptions | ChrfOptions | TerOptions,
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
    if isinstance(options, scoring.BleuOptions):
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
            if _settings(first) != _settings(part):
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


def _settings(result: AnyResult) -> tuple[object, ...]:
    """What two results must share to be added: the metric and its settings."""
    if isinstance(result, CorpusBleu):
        return (CorpusBleu, result.options, result.tokenizer_signature)
    if isinstance(result, CorpusChrf):
        return (CorpusChrf, result.options, result.rules)
    return (CorpusTer, result.options)


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


# --- the exact building blocks -----------------------------------------------------------------


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
    return bleu_counts.bleu_text_statistics(
        hypotheses, references, max_order, per_segment=FLAG.parse(per_segment, "/per_segment")
    )
