"""Corpus BLEU, the library's API (:func:`corpus_bleu`, :class:`CorpusBleu`): Papineni et
al. 2002 §2 as sacreBLEU 2.6.0's ``BLEU(...).corpus_score`` computes it
(:mod:`mtcompute.metrics.bleu.score`), any size: raw text through sacreBLEU's tokenizer
(``tokenize``, default ``13a``), clipped matches against every reference, closest reference
length, sacreBLEU's smoothing (``exp`` by default; Chen & Cherry 2014 §2). ``tokenize=None``
takes token lists instead (the pre-tokenized form: each segment's tokens counted as given,
scored by the same arithmetic). BLEU has this one rule: the catalog contracts' BLEU
arithmetic is the bleu-* tools' (:func:`mtcompute.bleu_corpus`).

Also :func:`corpus_bleu_lines` (undecoded lines, for the score command) and
:func:`text_bleu_statistics` (statistics of whitespace-split texts, an exact building block
of the contract family). Inputs are checked by the field types every corpus API shares,
token lists' among them (:mod:`mtcompute.metrics._arguments`, imported by the functions
that take them: :func:`corpus_bleu_lines`, the ``score`` command's, needs none).
"""

from __future__ import annotations

__all__ = [
    "PRETOKENIZED",
    "CorpusBleu",
    "corpus_bleu",
    "corpus_bleu_lines",
    "text_bleu_statistics",
]

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, cast

from mtcompute import counting, streaming
from mtcompute.errors import MtcomputeError, json_pointer
from mtcompute.metrics._corpus import (
    SummedCounts,
    added_up,
    chunk_scorer,
    nrefs_of,
    result_dict,
    row_scores,
    signature_of,
)
from mtcompute.metrics.bleu import counts as bleu_counts
from mtcompute.metrics.bleu import score as sacre_bleu
from mtcompute.metrics.bleu.statistics import BleuStatistics
from mtcompute.tokenizer_names import SPM
from mtcompute.tokenizers import get_tokenizer

if TYPE_CHECKING:
    from mtcompute.contracts.validate import Array

PRETOKENIZED = "pretokenized"  # the signature's tok: value for tokenize=None (token lists)


def _flat_bleu(stats: BleuStatistics) -> tuple[int, ...]:
    """sacreBLEU's layout of BLEU statistics: ``[sys_len, ref_len, correct_1..N, total_1..N]``."""
    return (stats.candidate_length, stats.reference_length, *stats.matches, *stats.totals)


@dataclass(frozen=True, slots=True)
class CorpusBleu(sacre_bleu.BleuResult, SummedCounts):
    """Corpus BLEU: ``score`` (a float, 0..100) and what sacreBLEU's ``BLEUScore`` holds
    beside it (``counts``, ``totals``, ``precisions``, ``bp``, ``sys_len``, ``ref_len``:
    :class:`~mtcompute.metrics.bleu.score.BleuResult`'s fields, its ``ratio`` and its
    ``verbose`` line, ``67.0/41.2/27.3/18.5 (BP = 1.000 ...)``).

    ``statistics`` are the summed counts in sacreBLEU's layout (``[sys_len, ref_len,
    correct_1..N, total_1..N]``); ``options`` the settings (sacreBLEU's names;
    ``tokenize`` is ``"none"`` there for token lists, and ``tokenizer_signature``
    ``"pretokenized"``); ``nrefs`` the references per segment (-1 when it varies);
    ``segment_scores`` each segment's BLEU with the same settings, when asked for. Two
    results of the same settings add up.
    """

    METRIC = "BLEU"

    statistics: tuple[int, ...]
    options: sacre_bleu.BleuOptions
    tokenizer_signature: str
    nrefs: int
    segment_scores: tuple[float, ...] | None = None

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
        return cls(
            **sacre_bleu.bleu_fields(sacre_bleu.bleu_score(flat, options)),
            statistics=flat,
            options=options,
            tokenizer_signature=tokenizer_signature,
            nrefs=nrefs,
            segment_scores=segment_scores,
        )

    @property
    def signature(self) -> str:
        """sacreBLEU's signature of the settings (``nrefs:1|case:mixed|eff:no|tok:13a|
        smooth:exp|version:2.6.0``), then ``mtcompute:<version>``."""
        return signature_of(
            sacre_bleu.bleu_signature_fields(self.options, self.nrefs, self.tokenizer_signature)
        )

    @property
    def score_text(self) -> str:
        """sacreBLEU's two-decimal score."""
        return f"{self.score:.2f}"

    def __str__(self) -> str:
        return self.format(signature=self.signature)

    def to_dict(self) -> dict[str, object]:
        """The result as JSON-ready data (the ``score`` command's ``--format json``)."""
        return result_dict(
            self,
            {
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
            },
        )

    @property
    def settings(self) -> tuple[object, ...]:
        """What two results must share to be added: the metric and its settings."""
        return (CorpusBleu, self.options, self.tokenizer_signature)


def _token_error(
    problem: bleu_counts.TokenProblem, hypotheses: Sequence[object], references: Sequence[object]
) -> MtcomputeError:
    """The error the declared types give for the first fault the token scan found."""
    from mtcompute.metrics import _arguments as given  # noqa: PLC0415

    field, *indices = problem.path
    value: object = hypotheses if field == "hypotheses" else references
    for index in indices:  # the scan walked this path: lists and tuples all the way
        if isinstance(value, list | tuple):
            value = value[int(index)]
    pointer = json_pointer(*problem.path)
    shapes: dict[tuple[str, int], Array[Any]] = {
        ("hypotheses", 1): given.HYPOTHESIS,
        ("references", 1): given.SEGMENT_REFERENCES,
        ("references", 2): given.REFERENCE,
    }
    try:
        if problem.code in ("not_array", "no_references"):
            shapes[(str(field), len(indices))].check_shape(value, pointer)
        else:
            given.TOKEN.parse(value, pointer)
    except MtcomputeError as error:
        return error
    raise RuntimeError(f"the token scan reported {problem.code} at {pointer}, the types did not")


def _token_statistics(
    hypotheses: Sequence[Sequence[str]],
    references: Sequence[Sequence[Sequence[str]]],
    options: sacre_bleu.BleuOptions,
    with_segments: bool,
) -> tuple[BleuStatistics, list[BleuStatistics] | None]:
    """The statistics of token lists as given (``str.lower`` of each token first if the
    options ask), of the options' order; the tokens checked in reading order (a str,
    non-empty, without lone surrogates)."""
    max_order, lowercase = options.max_ngram_order, options.lowercase
    if not lowercase and not with_segments:
        try:
            return bleu_counts.bleu_totals(hypotheses, references, max_order, validate=True), None
        except bleu_counts.TokenProblem as problem:
            raise _token_error(problem, hypotheses, references) from None
    from mtcompute.metrics import _arguments as given  # noqa: PLC0415

    hyps = given.HYPOTHESES.parse(hypotheses, "/hypotheses")
    refs = given.REFERENCES.parse(references, "/references")
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
    spm_model: str | os.PathLike[str] | None = None,
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
    segment's BLEU with the same settings. ``spm_model`` is the SentencePiece model file of
    ``spm``, ``flores101`` and ``flores200`` (spBLEU; default: the one sacreBLEU caches).

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
        score = chunk_scorer(corpus_bleu, locals())  # the arguments alone: before any import
        from mtcompute.metrics._arguments import scored_chunks  # noqa: PLC0415

        raw = tokenize is not None
        return added_up(scored_chunks(score, hypotheses, references, unit="segments", texts=raw))
    # the argument layer, imported here: corpus_bleu_lines (the score command's) needs none
    from mtcompute.metrics import _arguments as given  # noqa: PLC0415

    # a list or a tuple from here on (anything else is refused by the checks below)
    hypotheses = cast("Sequence[str] | Sequence[Sequence[str]]", hypotheses)
    references = cast(
        "Sequence[str] | Sequence[Sequence[str]] | Sequence[Sequence[Sequence[str]]]", references
    )
    tokenizer = (
        None if tokenize is None else get_tokenizer(tokenize, "/tokenize", spm_model=spm_model)
    )
    plain = tokenizer is not None and counting.plain_texts(hypotheses, references)
    if tokenizer is None:
        given.HYPOTHESES.check_shape(hypotheses, "/hypotheses")
        given.REFERENCES.check_shape(references, "/references")
        hyp_texts: list[str] = []
        texts: list[list[str]] = []
    elif plain:  # every check of the texts passes (the lone surrogates' below too)
        hyp_texts = cast("list[str]", hypotheses)
        texts = cast("list[list[str]]", references)
    else:
        hyp_texts = given.TEXTS.parse(hypotheses, "/hypotheses")
        texts = given.REFERENCE_TEXTS.parse(references, "/references")
    given.check_same_count("hypotheses", hypotheses, "references", references, "segments")
    lowercase = given.FLAG.parse(lowercase, "/lowercase")
    smooth_method = given.SMOOTH_METHOD.parse(smooth_method, "/smooth_method")
    if smooth_value is not None:
        smooth_value = given.SMOOTH_VALUE.parse(smooth_value, "/smooth_value")
        given.check_smooth_value(smooth_method, smooth_value, "/smooth_value")
    options_name = "none" if tokenizer is None else tokenizer.name
    options = sacre_bleu.BleuOptions(
        options_name,
        lowercase,
        smooth_method,
        smooth_value,
        given.MAX_ORDER.parse(max_order, "/max_order"),
        given.FLAG.parse(effective_order, "/effective_order"),
        # the model, kept only for the SentencePiece tokenizers (the others ignore it)
        str(spm_model) if spm_model is not None and options_name in SPM else None,
    )
    with_segments = given.FLAG.parse(segment_scores, "/segment_scores")
    segments: Sequence[Sequence[int]] | None
    if tokenizer is None:
        # token lists: checked while counted
        stats, each = _token_statistics(hypotheses, references, options, with_segments)
        total = _flat_bleu(stats)
        segments = None if each is None else [_flat_bleu(s) for s in each]
        signature, nrefs = PRETOKENIZED, nrefs_of(references)
    else:
        if not plain:
            given.no_lone_surrogates(hyp_texts, "hypotheses")
            given.no_lone_surrogates_in(texts, isinstance(references[0], str))
        flat_total, segments_list = sacre_bleu.bleu_statistics(
            hyp_texts,
            texts,
            options,
            per_segment=with_segments,
            tokenizer=tokenizer,
        )
        total, segments = tuple(flat_total), segments_list
        signature, nrefs = tokenizer.signature, nrefs_of(texts)
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
    tokenizer = get_tokenizer(options.tokenize, "/tokenize", spm_model=options.spm_model)
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
    width = 2 + 2 * options.max_ngram_order
    scores = row_scores(rows, width, lambda row: sacre_bleu.bleu_score(row, options).score)
    return CorpusBleu.from_statistics(
        _flat_bleu(total), options, tokenizer.signature, len(references), scores
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
    from mtcompute.metrics import _arguments as given  # noqa: PLC0415

    given.TEXTS.parse(hypotheses, "/hypotheses")
    given.TEXT_REFERENCES.parse(references, "/references")
    given.check_same_count("hypotheses", hypotheses, "references", references, "segments")
    given.no_lone_surrogates(hypotheses, "hypotheses")
    for i, texts in enumerate(references):
        given.no_lone_surrogates(texts, "references", i)
    max_order = given.MAX_ORDER.parse(max_order, "/max_order")
    per_segment = given.FLAG.parse(per_segment, "/per_segment")
    return bleu_counts.bleu_text_statistics(
        hypotheses, references, max_order, per_segment=per_segment
    )
