"""chrf-compute@1.0.0: exact chrF (Popović 2015 §2), corpus and per segment.

Validation follows the contract's order exactly (its last semantics line, refined by
CONTRACT-NOTES): plain object, unknown keys, missing keys, hypotheses then references (array,
at most 256, at least one, strings), equal counts, total UTF-8 bytes, lone surrogates, beta,
lowercase. The first failing check decides the error.
"""

from __future__ import annotations

__all__ = ["BETA", "LOWERCASE", "ChrfResult", "ExactScores", "ScoredTexts", "chrf", "text_steps"]

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ClassVar

from mtcompute.contracts import fields
from mtcompute.contracts.validate import (
    Boolean,
    Field,
    InputSpec,
    Limit,
    Rule,
    contract_limits,
    first_lone_surrogate,
    same_count,
    total_over,
    utf8_length,
)
from mtcompute.core.chrf import chrf_fraction, format_fraction, format_score
from mtcompute.counting import chrf_statistics_and_total
from mtcompute.errors import InvalidInput, LimitExceeded
from mtcompute.tools import Tool
from mtcompute.tools._cost import linear

ID, VERSION = "chrf-compute", "1.0.0"
CHAR_ORDER = 6


class ExactScores:
    """Mixin for a result with an exact corpus ``fraction`` and ``segment_fractions``: their
    six-decimal texts (rounded half to even)."""

    __slots__ = ()
    fraction: Fraction
    segment_fractions: tuple[Fraction, ...]

    @property
    def score(self) -> str:
        """The corpus score rounded half-even to six decimals, e.g. ``"84.642149"``."""
        return format_score(self.fraction)

    @property
    def segment_scores(self) -> tuple[str, ...]:
        """Each segment's score, rounded as :attr:`score`, in input order."""
        return tuple(format_score(f) for f in self.segment_fractions)


@dataclass(frozen=True, slots=True)
class ScoredTexts(ExactScores):
    """A corpus score with its exact fraction, and each segment's alone: the result shape of
    chrf-compute and chrf-plus-plus-compute, which differ in ``METRIC`` and ``WORD_ORDER``."""

    METRIC: ClassVar[str]
    WORD_ORDER: ClassVar[int]

    beta: int
    lowercase: bool
    fraction: Fraction
    segment_fractions: tuple[Fraction, ...]

    def to_dict(self) -> dict[str, object]:
        """The contract's output object, keys in the output schema's order."""
        return {
            "metric": self.METRIC,
            "char_order": CHAR_ORDER,
            "word_order": self.WORD_ORDER,
            "beta": self.beta,
            "lowercase": self.lowercase,
            "segment_count": len(self.segment_fractions),
            "score": self.score,
            "score_fraction": format_fraction(self.fraction),
            "segment_scores": list(self.segment_scores),
        }


@dataclass(frozen=True, slots=True)
class ChrfResult(ScoredTexts):
    """Corpus chrF with its exact fraction, and chrF of each segment alone."""

    METRIC: ClassVar[str] = "chrF"
    WORD_ORDER: ClassVar[int] = 0


def text_steps(limits: Mapping[str, Limit]) -> tuple[Field[list[str]] | Rule, ...]:
    """hypotheses, then references (each: an array, at most ``max segments`` (limit), at least
    one, strings), then equal counts, total UTF-8 bytes (limit ``max text bytes``) and lone
    surrogates: the chrF tools' inputs, in chrf-compute's order."""
    texts = fields.texts(limits["max_segments"])
    return (
        Field("hypotheses", texts),
        Field("references", texts),
        same_count("hypotheses", "references"),
        Rule(_text_bytes(limits["max_text_bytes"])),
        Rule(_no_lone_surrogates),
    )


def _text_bytes(limit: Limit) -> Callable[[Mapping[str, Any]], None]:
    def check(values: Mapping[str, Any]) -> None:
        texts = values["hypotheses"] + values["references"]
        if total_over(map(utf8_length, texts), limit.value):
            raise LimitExceeded(
                f"Expected at most {limit.value} UTF-8 bytes of text in all "
                f"(limit {limit.name}), got {sum(map(utf8_length, texts))}."
            )

    return check


def _no_lone_surrogates(values: Mapping[str, Any]) -> None:
    for key in ("hypotheses", "references"):
        for i, text in enumerate(values[key]):
            at = first_lone_surrogate(text)
            if at >= 0:
                raise InvalidInput(
                    f"Expected text without lone surrogates at /{key}/{i}, "
                    f"got U+{ord(text[at]):04X} at index {at}.",
                    f"/{key}/{i}",
                )


BETA = Field("beta", fields.BETA, default=2)
LOWERCASE = Field("lowercase", Boolean(), default=False)
INPUT = InputSpec(*text_steps(contract_limits(ID, VERSION)), BETA, LOWERCASE)


def score_segments(
    hypotheses: Sequence[str], references: Sequence[str], beta: int, lowercase: bool
) -> tuple[Fraction, tuple[Fraction, ...]]:
    """Corpus fraction (per-order counts summed literally) and per-segment fractions."""
    rows, total = chrf_statistics_and_total(hypotheses, references, CHAR_ORDER, lowercase)
    return chrf_fraction(total, beta), tuple(chrf_fraction(stats, beta) for stats in rows)


def _compute(values: Mapping[str, Any]) -> ChrfResult:
    beta, lowercase = values["beta"], values["lowercase"]
    corpus, segments = score_segments(values["hypotheses"], values["references"], beta, lowercase)
    return ChrfResult(beta, lowercase, corpus, segments)


def chrf(
    hypotheses: Sequence[str],
    references: Sequence[str],
    beta: int = 2,
    lowercase: bool = False,
) -> ChrfResult:
    """Exact corpus and segment chrF (chrf-compute@1.0.0), with the tool's validation.

    >>> chrf(["aa"], ["ab"], beta=3).score
    '25.000000'
    """
    return _compute(INPUT.call(**locals()))


# Six character orders over each text, exact fractions per segment: 3 units per size unit.
TOOL = Tool(ID, VERSION, INPUT, _compute, chrf, linear(3))
