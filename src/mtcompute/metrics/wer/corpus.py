"""Corpus WER and CER, any size: the library form of wer-compute, without the service limits
but with its checks, and with the same numbers (jiwer 4.0's ``wer``/``cer`` of lists with its
default transforms, and the contract's normalisations as options).

References are one string per segment (WER has one reference). A corpus read in chunks (any
iterable that is not a list or tuple) is scored chunk by chunk and the counts added up
(:func:`~mtcompute.metrics._corpus.added_up`): integer counts, so the total is the same
whatever the chunks.
"""

from __future__ import annotations

__all__ = ["CorpusWer", "corpus_wer", "corpus_wer_part", "no_reference_unit", "segment_counts"]

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import ClassVar, cast

from mtcompute import streaming
from mtcompute._version import __version__
from mtcompute.contracts.validate import Choice, check_same_count
from mtcompute.errors import InvalidInput
from mtcompute.metrics._arguments import FLAG, TEXTS, no_lone_surrogates, scored_chunks
from mtcompute.metrics._base import format_score
from mtcompute.metrics._corpus import SummedCounts, added_up, chunk_scorer, result_dict
from mtcompute.metrics.wer.edits import EditCounts, edit_counts, error_rate, sum_counts
from mtcompute.metrics.wer.text import NORMALISATIONS, UNITS, Unit, WerOptions, units

UNIT = Choice(UNITS)
JIWER_VERSION = "4.0.0"
"""The jiwer release whose numbers these are (the signature's ``jiwer`` field)."""


def _rate_or_nan(counts: EditCounts) -> float:
    rate = error_rate(counts)
    return math.nan if rate is None else rate


@dataclass(frozen=True, slots=True)
class CorpusWer(SummedCounts):
    """Corpus WER (unit word) or CER (unit character): ``rate`` is jiwer's number (edits over
    reference units, a fraction), ``score`` the same in percent (``100 * rate``, the batch
    APIs' scale), ``counts`` the summed hits, substitutions, deletions and insertions.

    ``segment_scores``, when asked for, are each segment's rate in percent (NaN for a segment
    whose reference has no units). Two results of the same settings add up (``a + b``)."""

    METRIC: ClassVar[str] = "WER"
    rate: float
    counts: EditCounts
    options: WerOptions
    nrefs: int = 1
    segment_scores: tuple[float, ...] | None = field(default=None, repr=False)

    @classmethod
    def from_statistics(
        cls,
        statistics: Sequence[int],
        options: WerOptions,
        nrefs: int = 1,
        segment_scores: tuple[float, ...] | None = None,
    ) -> CorpusWer:
        """The result of summed (hits, substitutions, deletions, insertions)."""
        counts = EditCounts(*statistics)
        return cls(_rate_or_nan(counts), counts, options, nrefs, segment_scores)

    @property
    def name(self) -> str:
        """WER or CER, as the unit says."""
        return "WER" if self.options.unit == "word" else "CER"

    @property
    def score(self) -> float:
        """The rate in percent."""
        return 100 * self.rate

    @property
    def statistics(self) -> tuple[int, ...]:
        """(hits, substitutions, deletions, insertions)."""
        return tuple(self.counts)

    @property
    def settings(self) -> tuple[object, ...]:
        """What two results must share to be added: the class and the options."""
        return (CorpusWer, self.options)

    @property
    def signature(self) -> str:
        """The settings: ``nrefs:1|unit:word|lc:no|punct:yes|ws:jiwer|jiwer:4.0.0|mtcompute:…``
        (``punct:no`` with remove_punctuation, ``ws:collapsed`` with collapse_whitespace)."""
        o = self.options
        return (
            f"nrefs:{self.nrefs}|unit:{o.unit}|lc:{'yes' if o.lowercase else 'no'}"
            f"|punct:{'no' if o.remove_punctuation else 'yes'}"
            f"|ws:{'collapsed' if o.collapse_whitespace else 'jiwer'}"
            f"|jiwer:{JIWER_VERSION}|mtcompute:{__version__}"
        )

    @property
    def score_text(self) -> str:
        """The percentage with two decimals."""
        return f"{self.score:.2f}"

    def __str__(self) -> str:
        return format_score(self.name, self.score, signature=self.signature)

    def to_dict(self) -> dict[str, object]:
        """The result as JSON-ready data: name, score, score text, signature, the rate, the
        options and the counts (then the segment scores when asked for)."""
        hits, substitutions, deletions, insertions = self.counts
        return result_dict(
            self,
            {
                "rate": self.rate,
                "unit": self.options.unit,
                "lowercase": self.options.lowercase,
                "remove_punctuation": self.options.remove_punctuation,
                "collapse_whitespace": self.options.collapse_whitespace,
                "hits": hits,
                "substitutions": substitutions,
                "deletions": deletions,
                "insertions": insertions,
                "reference_length": self.counts.reference_length,
                "hypothesis_length": self.counts.hypothesis_length,
            },
        )


def segment_counts(
    hypotheses: Sequence[str], references: Sequence[str], options: WerOptions
) -> list[EditCounts]:
    """Each segment's alignment counts under ``options`` (checked texts, equal counts)."""
    return [
        edit_counts(units(ref, options), units(hyp, options))
        for hyp, ref in zip(hypotheses, references, strict=True)
    ]


def no_reference_unit(options: WerOptions) -> InvalidInput:
    """The error of an input without reference units (the rate has no denominator)."""
    noun = "words" if options.unit == "word" else "characters"
    return InvalidInput(
        f"Expected at least one reference with {noun} after normalisation at /references "
        "(an error rate is over the reference's length), got none.",
        "/references",
    )


def corpus_wer(
    hypotheses: Iterable[str],
    references: Iterable[str],
    *,
    unit: Unit = "word",
    lowercase: bool = False,
    remove_punctuation: bool = False,
    collapse_whitespace: bool = False,
    segment_scores: bool = False,
) -> CorpusWer:
    """Corpus WER or CER of raw text, as wer-compute and jiwer 4.0 give it (all options off:
    jiwer's ``wer``/``cer`` with its default transforms); ``references`` has one string per
    segment. No service limits; the same checks, first fault wins: hypotheses (strings, at
    least one), references (the same), equal counts, lone surrogates, unit, lowercase,
    remove_punctuation, collapse_whitespace, segment_scores, then at least one reference
    unit in all (``invalid_input`` at ``/references``: the rate has no denominator).

    >>> result = corpus_wer(["the cat sat on mat"], ["the cat sat on the mat"])
    >>> result.rate, result.counts
    (0.16666666666666666, EditCounts(hits=5, substitutions=0, deletions=1, insertions=0))
    >>> print(result)  # doctest: +ELLIPSIS
    WER|nrefs:1|unit:word|lc:no|punct:yes|ws:jiwer|jiwer:4.0.0|mtcompute:... = 16.67
    """
    score = chunk_scorer(_checked_part, locals())
    if streaming.is_stream(hypotheses) or streaming.is_stream(references):
        chunks = scored_chunks(score, hypotheses, references, unit="segments", texts=False)
        result = added_up(chunks)
    else:  # a list or a tuple from here on (anything else is refused by the checks)
        result = score(cast("list[str]", hypotheses), cast("list[str]", references))
    if not result.counts.reference_length:
        raise no_reference_unit(result.options)
    return result


def _checked_part(
    hypotheses: Sequence[str], references: Sequence[str], **settings: object
) -> CorpusWer:
    """:func:`corpus_wer`'s checks in its order, then the result of these segments (their
    reference units not required: see :func:`corpus_wer_part`)."""
    TEXTS.parse(hypotheses, "/hypotheses")
    TEXTS.parse(references, "/references")
    check_same_count("hypotheses", hypotheses, "references", references, "segments")
    no_lone_surrogates(hypotheses, "hypotheses")
    no_lone_surrogates(references, "references")
    options = WerOptions(
        cast("Unit", UNIT.parse(settings["unit"], "/unit")),
        *(FLAG.parse(settings[name], f"/{name}") for name in NORMALISATIONS),
    )
    with_segments = FLAG.parse(settings["segment_scores"], "/segment_scores")
    return corpus_wer_part(hypotheses, references, options, segment_scores=with_segments)


def corpus_wer_part(
    hypotheses: Sequence[str],
    references: Sequence[str],
    options: WerOptions,
    *,
    segment_scores: bool = False,
) -> CorpusWer:
    """The result of checked segments (equal counts, no lone surrogates) under ``options``,
    their reference units not required: a chunk may have none where the corpus has some (its
    rate is then NaN). Whoever adds the chunks up checks the total
    (:func:`no_reference_unit`), as :func:`corpus_wer` and ``mtcompute score`` do."""
    each = segment_counts(hypotheses, references, options)
    scores = tuple(100 * _rate_or_nan(c) for c in each) if segment_scores else None
    return CorpusWer.from_statistics(sum_counts(each), options, 1, scores)
