"""bleu-smoothing-compute@1.0.0: BLEU from sufficient statistics, Chen & Cherry 2014 §2.2.

Validation in the contract's order (its last semantics line), then
:func:`mtcompute.metrics.bleu.statistics.smooth_and_score`.
"""

from __future__ import annotations

__all__ = ["BleuSmoothingResult", "bleu_from_statistics"]

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from mtcompute.contracts.fields import STATISTICS_ONLY_REASON
from mtcompute.contracts.validate import (
    Array,
    Field,
    InputSpec,
    Integer,
    Rule,
    contract_limits,
    same_count,
)
from mtcompute.errors import InvalidInput
from mtcompute.metrics.bleu.statistics import BleuStatistics, Smoothing
from mtcompute.tools import Tool
from mtcompute.tools._bleu_common import EPSILON_RULE, score, scoring_fields
from mtcompute.tools._cost import linear
from mtcompute.tools._results import Output

ID, VERSION = "bleu-smoothing-compute", "1.0.0"
LIMITS = contract_limits(ID, VERSION)
UNSUPPORTED_REASON = STATISTICS_ONLY_REASON


def _matches_within_totals(values: Mapping[str, Any]) -> None:
    """m_n <= l_n for every order; with m_1 = 0, every m_n = 0."""
    matches, totals = values["matches"], values["totals"]
    for i, (m, total) in enumerate(zip(matches, totals, strict=True)):
        if m > total:
            raise InvalidInput(
                f"Expected matches[{i}] <= totals[{i}] ({total}) at /matches/{i}, got {m}.",
                f"/matches/{i}",
            )
    if matches[0] == 0:
        for i, m in enumerate(matches):
            if m != 0:
                raise InvalidInput(
                    f"Expected every match count to be 0 when matches[0] is 0 at /matches/{i}, "
                    f"got {m}.",
                    f"/matches/{i}",
                )


COUNT = Integer(0, LIMITS["max_count_value"])
COUNTS = Array(COUNT, "an array of integers", "order", 1, LIMITS["max_orders"], "an empty array")
INPUT = InputSpec(
    Field("matches", COUNTS),
    Field("totals", COUNTS),
    Field("candidate_length", COUNT),
    Field("reference_length", COUNT),
    *scoring_fields(f"{ID}@{VERSION}", UNSUPPORTED_REASON, smoothing=None),
    same_count("matches", "totals", "orders"),
    Rule(_matches_within_totals),
    EPSILON_RULE,
)


@dataclass(frozen=True, slots=True)
class BleuSmoothingResult(Output):
    """The result of bleu-smoothing-compute: smoothed counts, brevity penalty and BLEU."""

    bleu: float
    brevity_penalty: float
    orders_used: int
    smoothed_matches: tuple[int | float, ...]
    smoothed_totals: tuple[int, ...]


def _compute(values: Mapping[str, Any]) -> BleuSmoothingResult:
    stats = BleuStatistics(
        values["candidate_length"],
        values["reference_length"],
        tuple(values["matches"]),
        tuple(values["totals"]),
    )
    scored = score(stats, values)
    return BleuSmoothingResult(
        scored.bleu,
        scored.brevity_penalty,
        scored.orders_used,
        scored.smoothed_matches,
        scored.smoothed_totals,
    )


def bleu_from_statistics(
    matches: Sequence[int],
    totals: Sequence[int],
    candidate_length: int,
    reference_length: int,
    smoothing: Smoothing = "none",
    *,
    epsilon: float | None = None,
    effective_order: bool = False,
    decimals: int | None = None,
) -> BleuSmoothingResult:
    """BLEU from matches, totals and lengths (bleu-smoothing-compute@1.0.0).

    Raises :class:`~mtcompute.errors.InvalidInput`, :class:`~mtcompute.errors.LimitExceeded`
    or :class:`~mtcompute.errors.UnsupportedInput` exactly where the tool would.

    >>> bleu_from_statistics([9, 7, 5, 3], [10, 8, 6, 4], 11, 11, decimals=10).bleu
    0.8375922397
    """
    return _compute(INPUT.call(**locals()))


# At most 8 orders: the input's size bounds the work (measured: under 1 unit per size unit).
TOOL = Tool(ID, VERSION, INPUT, _compute, bleu_from_statistics, linear(1))
