"""wer-compute@1.0.0: word or character error rate of raw text, as jiwer 4.0 computes it.

WER and CER are the Levenshtein edit distance (substitutions, deletions and insertions, each
costing 1; no block shifts) between a hypothesis and its reference, in words or characters,
over the reference's length; a corpus's rate is its summed edits over its summed reference
lengths, as jiwer's ``wer``/``cer`` of lists. The computation is :mod:`mtcompute.metrics.wer`
(``text`` for the normalisations and units, ``edits`` for the counts and rates). This module
declares the input (one reference per segment, the unit and three normalisations), bounds the
work (each text's units, and at least one reference unit in all: a corpus without one has no
rate) and writes the result. Validation follows the contract's order (its last semantics
line).
"""

from __future__ import annotations

__all__ = ["WerComputeResult", "WerCounts", "WerSegment", "wer_compute"]

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from mtcompute.contracts.validate import Boolean, Choice, Field, InputSpec, Rule, contract_limits
from mtcompute.errors import InvalidInput, LimitExceeded
from mtcompute.metrics.wer import edits as wer
from mtcompute.metrics.wer.corpus import segment_counts
from mtcompute.metrics.wer.text import NORMALISATIONS, UNITS, Unit, WerOptions, units
from mtcompute.tools import Tool
from mtcompute.tools._cost import member, pair_products, size
from mtcompute.tools._results import Output
from mtcompute.tools.chrf_compute import text_steps

ID, VERSION = "wer-compute", "1.0.0"
LIMITS = contract_limits(ID, VERSION)
METRIC = {"word": "WER", "character": "CER"}


def _options(values: Mapping[str, Any]) -> WerOptions:
    return WerOptions(values["unit"], *(values[name] for name in NORMALISATIONS))


def _units(values: Mapping[str, Any]) -> tuple[list[list[str] | str], list[list[str] | str]]:
    options = _options(values)
    hyps = [units(text, options) for text in values["hypotheses"]]
    refs = [units(text, options) for text in values["references"]]
    return hyps, refs


def _check_units(values: Mapping[str, Any]) -> None:
    """Each text at most ``max segment units`` units (hypotheses, then references, in order),
    then at least one reference unit in all."""
    limit = LIMITS["max_segment_units"]
    hyps, refs = _units(values)
    noun = "words" if values["unit"] == "word" else "characters"
    for key, texts in (("hypotheses", hyps), ("references", refs)):
        for i, text in enumerate(texts):
            if len(text) > limit.value:
                raise LimitExceeded(
                    f"Expected at most {limit.value} {noun} at /{key}/{i} after normalisation "
                    f"(limit {limit.name}), got {len(text)}.",
                    f"/{key}/{i}",
                )
    if not any(refs):
        raise InvalidInput(
            f"Expected at least one reference with {noun} after normalisation at /references "
            f"(an error rate is over the reference's length), got none.",
            "/references",
        )


INPUT = InputSpec(
    *text_steps(LIMITS),
    Field("unit", Choice(UNITS), default="word"),
    *(Field(name, Boolean(), default=False) for name in NORMALISATIONS),
    Rule(_check_units),
)


COUNTS = (
    "hits",
    "substitutions",
    "deletions",
    "insertions",
    "reference_length",
    "hypothesis_length",
)
"""The count keys of a segment and of the corpus, in the output's order."""


@dataclass(frozen=True, slots=True)
class WerCounts(Output):
    """An alignment's counts (or their sums) and the two lengths they make up."""

    hits: int
    substitutions: int
    deletions: int
    insertions: int
    reference_length: int
    hypothesis_length: int

    @classmethod
    def fields_of(cls, counts: wer.EditCounts) -> tuple[int, int, int, int, int, int]:
        """The fields of these counts, in order."""
        hits, substitutions, deletions, insertions = counts
        return (
            hits,
            substitutions,
            deletions,
            insertions,
            counts.reference_length,
            counts.hypothesis_length,
        )


@dataclass(frozen=True, slots=True)
class WerSegment(WerCounts):
    """One segment: its rate (None when its reference has no units) and alignment counts."""

    OUTPUT_KEYS: ClassVar[tuple[str, ...]] = ("score", *COUNTS)
    score: float | None


@dataclass(frozen=True, slots=True)
class WerComputeResult(WerCounts):
    """The corpus rate (WER or CER) and its summed counts, and each segment's."""

    OUTPUT_KEYS: ClassVar[tuple[str, ...]] = (
        "metric",
        "score",
        *COUNTS,
        "segment_count",
        "segments",
    )
    metric: str
    score: float
    segment_count: int
    segments: tuple[WerSegment, ...]


def _segment(counts: wer.EditCounts) -> WerSegment:
    return WerSegment(*WerCounts.fields_of(counts), wer.error_rate(counts))


def _compute(values: Mapping[str, Any]) -> WerComputeResult:
    each = segment_counts(values["hypotheses"], values["references"], _options(values))
    total = wer.sum_counts(each)
    score = wer.error_rate(total)
    assert score is not None  # checked by _check_units: some reference has units
    return WerComputeResult(
        *WerCounts.fields_of(total),
        METRIC[values["unit"]],
        score,
        len(each),
        tuple(map(_segment, each)),
    )


def wer_compute(
    hypotheses: Sequence[str],
    references: Sequence[str],
    *,
    unit: Unit = "word",
    lowercase: bool = False,
    remove_punctuation: bool = False,
    collapse_whitespace: bool = False,
) -> WerComputeResult:
    """Corpus and segment WER or CER (wer-compute@1.0.0): ``references[i]`` is segment ``i``'s
    one reference; all options off is jiwer 4.0's ``wer``/``cer`` with its default
    transforms. Same validation and limits as the tool.

    Raises :class:`~mtcompute.errors.InvalidInput` or
    :class:`~mtcompute.errors.LimitExceeded` exactly where the tool would.

    >>> wer_compute(["the cat sat on mat"], ["the cat sat on the mat"]).score
    0.16666666666666666
    """
    return _compute(INPUT.call(**locals()))


def _cost(raw: object, cap: int) -> int:
    """Normalising and splitting each text (4 units per size unit), then aligning each
    hypothesis with its reference: a unit per 16 pairs of their characters (the alignment
    runs on machine words of the reference's units)."""
    units_ = 4 * size(raw, cap)
    if units_ > cap:
        return units_
    return units_ + pair_products(member(raw, "hypotheses"), member(raw, "references")) // 16


TOOL = Tool(ID, VERSION, INPUT, _compute, wer_compute, _cost)
