"""chrf-compute@1.0.0: exact chrF (Popović 2015 §2), corpus and per segment
(:func:`mtcompute.metrics.chrf.statistics.chrf_ratios`).

Validation follows the contract's order exactly (its last semantics line, refined by
docs/decisions.md): plain object, unknown keys, missing keys, hypotheses then references (array,
at most 256, at least one, strings), equal counts, total UTF-8 bytes, lone surrogates, beta,
lowercase. The first failing check decides the error.
"""

from __future__ import annotations

__all__ = ["BETA", "LOWERCASE", "ChrfResult", "ExactScores", "ScoredTexts", "chrf", "text_steps"]

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import starmap
from typing import Any, ClassVar, Self

from mtcompute.contracts import fields
from mtcompute.contracts.validate import (
    Boolean,
    Field,
    InputSpec,
    Limit,
    Rule,
    contract_limits,
    same_count,
    utf8_length,
)
from mtcompute.counting import first_lone_surrogate
from mtcompute.errors import InvalidInput, LimitExceeded
from mtcompute.metrics.chrf.ngrams import format_ratio
from mtcompute.metrics.chrf.statistics import chrf_ratios
from mtcompute.tools import Tool
from mtcompute.tools._cost import linear

ID, VERSION = "chrf-compute", "1.0.0"
CHAR_ORDER = 6


class ExactScores:
    """Mixin for a result with an exact corpus ``ratio`` and ``segment_ratios`` (each a
    reduced ``(numerator, denominator)``): them as fractions, and their six-decimal texts
    (rounded half to even)."""

    __slots__ = ()
    ratio: tuple[int, int]
    segment_ratios: tuple[tuple[int, int], ...]

    @property
    def fraction(self) -> Fraction:
        """The exact corpus score."""
        return Fraction(*self.ratio)

    @property
    def segment_fractions(self) -> tuple[Fraction, ...]:
        """Each segment's exact score, in input order."""
        return tuple(Fraction(*ratio) for ratio in self.segment_ratios)

    @property
    def score(self) -> str:
        """The corpus score rounded half-even to six decimals, e.g. ``"84.642149"``."""
        return format_ratio(*self.ratio)

    @property
    def score_fraction(self) -> str:
        """The corpus score's reduced fraction, e.g. ``"7116866012380/84081820977"``."""
        numerator, denominator = self.ratio
        return f"{numerator}/{denominator}"

    @property
    def segment_count(self) -> int:
        """The number of segments."""
        return len(self.segment_ratios)

    @property
    def segment_scores(self) -> tuple[str, ...]:
        """Each segment's score, rounded as :attr:`score`, in input order."""
        return tuple(starmap(format_ratio, self.segment_ratios))


@dataclass(frozen=True, slots=True)
class ScoredTexts(ExactScores):
    """A corpus score with its exact ratio, and each segment's alone: the result shape of
    chrf-compute and chrf-plus-plus-compute, which differ in ``METRIC`` and ``WORD_ORDER``."""

    METRIC: ClassVar[str]
    WORD_ORDER: ClassVar[int]

    beta: int
    lowercase: bool
    ratio: tuple[int, int]
    segment_ratios: tuple[tuple[int, int], ...]

    def to_dict(self) -> dict[str, object]:
        """The contract's output object, keys in the output schema's order."""
        return {
            "metric": self.METRIC,
            "char_order": CHAR_ORDER,
            "word_order": self.WORD_ORDER,
            "beta": self.beta,
            "lowercase": self.lowercase,
            "segment_count": self.segment_count,
            "score": self.score,
            "score_fraction": self.score_fraction,
            "segment_scores": list(self.segment_scores),
        }

    @classmethod
    def compute(cls, values: Mapping[str, Any]) -> Self:
        """The result for checked values: six character orders and ``WORD_ORDER`` word
        orders, over each segment and the corpus."""
        beta, lowercase = values["beta"], values["lowercase"]
        corpus, segments = chrf_ratios(
            values["hypotheses"],
            values["references"],
            beta,
            CHAR_ORDER,
            lowercase,
            word_order=cls.WORD_ORDER,
        )
        return cls(beta, lowercase, corpus, tuple(segments))


@dataclass(frozen=True, slots=True)
class ChrfResult(ScoredTexts):
    """Corpus chrF with its exact ratio, and chrF of each segment alone."""

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
        # One text of them all: a str is code points, so joining merges no surrogates and
        # the UTF-8 length is the sum of the texts' own.
        total = utf8_length("".join(values["hypotheses"] + values["references"]))
        if total > limit.value:
            raise LimitExceeded(
                f"Expected at most {limit.value} UTF-8 bytes of text in all "
                f"(limit {limit.name}), got {total}."
            )

    return check


def _no_lone_surrogates(values: Mapping[str, Any]) -> None:
    for key in ("hypotheses", "references"):
        found = first_lone_surrogate(values[key])
        if found is not None:
            i, at = found
            raise InvalidInput(
                f"Expected text without lone surrogates at /{key}/{i}, "
                f"got U+{ord(values[key][i][at]):04X} at index {at}.",
                f"/{key}/{i}",
            )


BETA = Field("beta", fields.BETA, default=2)
LOWERCASE = Field("lowercase", Boolean(), default=False)
INPUT = InputSpec(*text_steps(contract_limits(ID, VERSION)), BETA, LOWERCASE)


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
    return ChrfResult.compute(INPUT.call(**locals()))


# Six character orders over each text, exact fractions per segment: 3 units per size unit.
TOOL = Tool(ID, VERSION, INPUT, ChrfResult.compute, chrf, linear(3))
