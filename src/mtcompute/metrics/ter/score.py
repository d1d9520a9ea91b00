"""TER under sacreBLEU 2.6.0's rules, from raw text: its ``TER`` settings, preprocessing
(each line right-stripped and tokenized by the tercom tokenizer, a reference twice), segment
statistics (fewest edits, average reference length), the corpus score of their sums, the
result and its signature fields.

Nothing here validates: the callers check their arguments (field types, or sacreBLEU's own
checks in the facade) before calling.
"""

from __future__ import annotations

__all__ = [
    "TER_ABBREVIATIONS",
    "TerOptions",
    "TerReferences",
    "TerResult",
    "corpus_ter",
    "ter_references",
    "ter_score",
    "ter_signature_fields",
    "ter_statistics",
    "ter_statistics_of",
    "ter_texts",
]

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, fields
from typing import Any, cast

from mtcompute import streaming
from mtcompute.metrics._base import ABBREVIATIONS, Formatted, common_fields, summed_in_chunks
from mtcompute.metrics.ter.edits import score_from_statistics, sum_statistics
from mtcompute.metrics.ter.statistics import lowered_statistics, text_statistics
from mtcompute.metrics.ter.tokenizer import TercomTokenizer

TER_ABBREVIATIONS = ABBREVIATIONS | {
    "case": "c",
    "tok": "t",
    "norm": "nr",
    "punct": "pn",
    "asian": "as",
}
"""The short signature keys of TER (sacreBLEU's ``TERSignature``: ``tok`` is ``t`` there)."""


@dataclass(frozen=True, slots=True)
class TerOptions:
    """sacreBLEU's ``TER`` settings, with its names and defaults."""

    normalized: bool = False
    no_punct: bool = False
    asian_support: bool = False
    case_sensitive: bool = False

    def corpus_keywords(self) -> dict[str, Any]:
        """These settings as the corpus API's keywords
        (:func:`mtcompute.metrics.ter.corpus.corpus_ter`)."""
        return {field.name: getattr(self, field.name) for field in fields(self)}

    def tokenizer(self) -> TercomTokenizer:
        """The tercom tokenizer of these settings (its four switches are these fields)."""
        return TercomTokenizer(**self.corpus_keywords())


@dataclass(frozen=True, slots=True)
class TerResult(Formatted):
    """What sacreBLEU's ``TERScore`` holds, and its strings."""

    score: float
    num_edits: int
    ref_length: float

    name = "TER"


def ter_signature_fields(options: TerOptions, nrefs: int | str) -> dict[str, object]:
    """sacreBLEU's ``TERSignature.info`` for these options, in its order (short keys:
    :data:`TER_ABBREVIATIONS`)."""
    return common_fields(nrefs) | {
        "case": "mixed" if options.case_sensitive else "lc",
        "tok": "tercom",
        "norm": options.normalized,
        "punct": not options.no_punct,
        "asian": options.asian_support,
    }


def _tercom_texts(
    lines: Sequence[str], options: TerOptions, tokenizer: TercomTokenizer, *, twice: bool
) -> list[str]:
    """sacreBLEU's TER preprocessing of each line (right-stripped, tokenized; twice for a
    reference), as a text whose ``split()`` is the line's words.

    Without ``normalized`` and ``no_punct`` the tokenizer only lowercases (unless
    ``case_sensitive``) and collapses whitespace, so the words are those of
    ``line.rstrip().lower()`` (or ``line.rstrip()``), once or twice alike: collapsing
    whitespace changes no word, and lowercasing a lowercased text changes nothing, because
    every code point of ``str.lower``'s output lowercases to itself and none is capital
    sigma, the only code point ``str.lower`` maps by its context (CPython's ``lower_ucs4``;
    both facts are checked over every code point by tests/test_ter_text.py).
    """
    if not (options.normalized or options.no_punct):
        if options.case_sensitive:
            return [line.rstrip() for line in lines]
        return [line.rstrip().lower() for line in lines]
    if twice:
        return [tokenizer(tokenizer(line.rstrip()).rstrip()) for line in lines]
    return [tokenizer(line.rstrip()) for line in lines]


def ter_texts(lines: Sequence[str], options: TerOptions, *, reference: bool) -> list[str]:
    """Each line as sacreBLEU's TER preprocesses it (right-stripped and tokenized, a
    reference twice), as a text whose ``split()`` is the words TER aligns.

    >>> ter_texts(["John's car.", "John's car."], TerOptions(normalized=True), reference=True)
    ["john 's car .", "john 's car ."]
    """
    return _tercom_texts(lines, options, options.tokenizer(), twice=reference)


@dataclass(frozen=True, slots=True)
class TerReferences:
    """References preprocessed once for many hypothesis sets (sacreBLEU's reference cache,
    ``TER(references=...)``): per segment, each reference right-stripped and tokenized
    twice, as a text whose ``split()`` is its words. Made by :func:`ter_references`."""

    texts: tuple[tuple[str, ...], ...]
    options: TerOptions


def ter_references(references: Sequence[Sequence[str]], options: TerOptions) -> TerReferences:
    """``references`` (per segment, one or more strings) preprocessed as sacreBLEU's TER
    preprocesses references, for :func:`ter_statistics_of`."""
    counts = [len(segment) for segment in references]
    flat = _tercom_texts(
        [line for segment in references for line in segment],
        options,
        options.tokenizer(),
        twice=True,
    )
    texts = []
    at = 0
    for count in counts:
        texts.append(tuple(flat[at : at + count]))
        at += count
    return TerReferences(tuple(texts), options)


def ter_statistics_of(
    hypotheses: Sequence[str], references: TerReferences, *, threads: int | None = None
) -> list[tuple[int, float]]:
    """:func:`ter_statistics` against references preprocessed by :func:`ter_references`
    (their options apply to the hypotheses too)."""
    if len(hypotheses) != len(references.texts):
        raise ValueError(
            f"{len(hypotheses)} hypotheses but {len(references.texts)} reference lists "
            "(one list per segment expected)"
        )
    options = references.options
    texts = _tercom_texts(hypotheses, options, options.tokenizer(), twice=False)
    return text_statistics(texts, references.texts, threads=threads)


def ter_statistics(
    hypotheses: Iterable[str],
    references: Iterable[Sequence[str]],
    options: TerOptions,
    *,
    threads: int | None = None,
) -> list[tuple[int, float]]:
    """Per segment (edits, average reference length) as sacreBLEU's ``TER`` extracts them:
    each line right-stripped and tokenized (a reference twice, as sacreBLEU does), split on
    whitespace, then the fewest edits over the segment's references (the kernel, which
    splits and interns the words itself, through
    :func:`mtcompute.metrics.ter.statistics.text_statistics`). Iterables that are not lists
    or tuples are read in chunks (only the statistics kept: :func:`corpus_ter` keeps their
    sums)."""
    if streaming.is_stream(hypotheses) or streaming.is_stream(references):

        def count(
            hyps: Sequence[str], refs: Sequence[Sequence[str]]
        ) -> tuple[list[int], list[tuple[int, float]] | None]:
            return [], ter_statistics(hyps, refs, options, threads=threads)

        return summed_in_chunks(count, hypotheses, references)[1] or []
    hypotheses = cast("Sequence[str]", hypotheses)  # a list or a tuple from here on
    references = cast("Sequence[Sequence[str]]", references)
    if len(hypotheses) != len(references):
        raise ValueError(
            f"{len(hypotheses)} hypotheses but {len(references)} reference lists "
            "(one list per segment expected)"
        )
    if not (options.normalized or options.no_punct or options.case_sensitive):
        # the tokenizer only lowercases (see _tercom_texts): the kernel lowers as it splits
        lowered = lowered_statistics(
            cast("list[str]", hypotheses), cast("list[list[str]]", references), threads=threads
        )
        if lowered is not None:
            return lowered
    return ter_statistics_of(hypotheses, ter_references(references, options), threads=threads)


def ter_score(num_edits: int, ref_length: float) -> TerResult:
    """sacreBLEU's ``TER._compute_score_from_stats`` of summed statistics."""
    return TerResult(score_from_statistics(num_edits, ref_length), num_edits, ref_length)


def corpus_ter(
    hypotheses: Iterable[str], references: Iterable[Sequence[str]], options: TerOptions
) -> TerResult:
    """Corpus TER as sacreBLEU's ``TER(...).corpus_score`` gives it: total edits over the
    total of the average reference lengths (summed in segment order).

    >>> corpus_ter(["The cat sat on mat."], [["The cat sat on the mat."]], TerOptions())
    TerResult(score=16.666666666666664, num_edits=1, ref_length=6.0)
    """
    if streaming.is_stream(hypotheses) or streaming.is_stream(references):
        edits, length = 0, 0.0  # added one segment at a time in order, as sum_statistics does
        for start, hyps, refs in streaming.in_chunks(hypotheses, references):
            try:
                each = ter_statistics(hyps, refs, options)
            except (TypeError, ValueError) as error:
                raise streaming.shifted(error, start) from None
            for segment_edits, segment_length in each:
                edits += segment_edits
                length += segment_length
        return ter_score(edits, length)
    return ter_score(*sum_statistics(ter_statistics(hypotheses, references, options)))
