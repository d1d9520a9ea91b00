"""chrf-compute@1.0.0: exact chrF (Popović 2015 §2), corpus and per segment.

Validation follows the contract's order exactly (its last semantics line, refined by
CONTRACT-NOTES): plain object, unknown keys, missing keys, hypotheses then references (array,
at most 256, at least one, strings), equal counts, total UTF-8 bytes, lone surrogates, beta,
lowercase. The first failing check decides the error.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import ClassVar

from mtcompute.core.chrf import (
    ChrfStatistics,
    chrf_fraction,
    format_fraction,
    format_score,
    segment_statistics,
)
from mtcompute.errors import InvalidInput, LimitExceeded
from mtcompute.tools import Tool
from mtcompute.tools._validate import (
    first_lone_surrogate,
    require_array,
    require_bool,
    require_integer,
    require_keys,
    require_object,
    require_same_count,
    require_string,
    total_over,
    utf8_length,
)

__all__ = ["ChrfResult", "ScoredTexts", "chrf"]

ID, VERSION = "chrf-compute", "1.0.0"
FIELDS = ("hypotheses", "references", "beta", "lowercase")
REQUIRED = FIELDS[:2]
MAX_SEGMENTS = 256
MAX_TEXT_BYTES = 65_536
CHAR_ORDER = 6


@dataclass(frozen=True, slots=True)
class ScoredTexts:
    """A corpus score with its exact fraction, and each segment's alone: the result shape of
    chrf-compute and chrf-plus-plus-compute, which differ in ``METRIC`` and ``WORD_ORDER``."""

    METRIC: ClassVar[str]
    WORD_ORDER: ClassVar[int]

    beta: int
    lowercase: bool
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


def parse_texts(value: object, key: str) -> list[str]:
    """hypotheses or references: array, at most 256 (limit), at least one, strings."""
    path = f"/{key}"
    items = require_array(value, path, "an array of strings")
    if len(items) > MAX_SEGMENTS:
        raise LimitExceeded(
            f"Expected at most {MAX_SEGMENTS} segments at {path} (limit max segments), "
            f"got {len(items)}.",
            path,
        )
    if not items:
        raise InvalidInput(f"Expected at least 1 segment at {path}, got an empty array.", path)
    return [require_string(item, f"{path}/{i}") for i, item in enumerate(items)]


def check_texts(hypotheses: list[str], references: list[str]) -> None:
    """Equal counts, then total UTF-8 bytes, then lone surrogates (the contract's order)."""
    require_same_count(hypotheses, references)
    if total_over(map(utf8_length, hypotheses + references), MAX_TEXT_BYTES):
        total = sum(map(utf8_length, hypotheses + references))
        raise LimitExceeded(
            f"Expected at most {MAX_TEXT_BYTES} UTF-8 bytes of text in all "
            f"(limit max text bytes), got {total}."
        )
    for key, texts in (("hypotheses", hypotheses), ("references", references)):
        for i, text in enumerate(texts):
            at = first_lone_surrogate(text)
            if at >= 0:
                raise InvalidInput(
                    f"Expected text without lone surrogates at /{key}/{i}, "
                    f"got U+{ord(text[at]):04X} at index {at}.",
                    f"/{key}/{i}",
                )


def score_segments(
    hypotheses: Sequence[str], references: Sequence[str], beta: int, lowercase: bool
) -> tuple[Fraction, tuple[Fraction, ...]]:
    """Corpus fraction (per-order counts summed literally) and per-segment fractions."""
    total = ChrfStatistics.zero(CHAR_ORDER)
    segments: list[Fraction] = []
    for hypothesis, reference in zip(hypotheses, references, strict=True):
        stats = segment_statistics(hypothesis, reference, CHAR_ORDER, lowercase)
        total = total + stats
        segments.append(chrf_fraction(stats, beta))
    return chrf_fraction(total, beta), tuple(segments)


def _compute(raw: object) -> ChrfResult:
    obj = require_object(raw)
    require_keys(obj, FIELDS, REQUIRED)
    hypotheses = parse_texts(obj["hypotheses"], "hypotheses")
    references = parse_texts(obj["references"], "references")
    check_texts(hypotheses, references)
    beta = require_integer(obj["beta"], "/beta", 1, 16) if "beta" in obj else 2
    lowercase = require_bool(obj["lowercase"], "/lowercase") if "lowercase" in obj else False
    corpus, segments = score_segments(hypotheses, references, beta, lowercase)
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
    return _compute(
        {"hypotheses": hypotheses, "references": references, "beta": beta, "lowercase": lowercase}
    )


TOOL = Tool(ID, VERSION, lambda raw: _compute(raw).to_dict())
