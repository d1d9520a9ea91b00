"""bleu-smoothing-compute@1.0.0: BLEU from sufficient statistics, Chen & Cherry 2014 §2.2.

Validation in the contract's order (its last semantics line), then
:func:`mtcompute.core.bleu.smooth_and_score`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from mtcompute.core.bleu import BleuStatistics
from mtcompute.errors import InvalidInput, LimitExceeded, json_pointer
from mtcompute.tools import Tool
from mtcompute.tools._bleu_common import (
    STATISTICS_ONLY_REASON,
    ScoringOptions,
    check_epsilon,
    parse_scoring_options,
    score,
)
from mtcompute.tools._validate import require_array, require_integer, require_keys, require_object

if TYPE_CHECKING:
    from mtcompute.core.bleu import Smoothing

__all__ = ["BleuSmoothingResult", "bleu_from_statistics"]

ID, VERSION = "bleu-smoothing-compute", "1.0.0"
MAX_ORDERS = 8
MAX_COUNT = 10**12
FIELDS = (
    "matches",
    "totals",
    "candidate_length",
    "reference_length",
    "smoothing",
    "epsilon",
    "effective_order",
    "decimals",
)
REQUIRED = FIELDS[:5]
UNSUPPORTED_REASON = STATISTICS_ONLY_REASON


@dataclass(frozen=True, slots=True)
class BleuSmoothingResult:
    """The result of bleu-smoothing-compute: smoothed counts, brevity penalty and BLEU."""

    bleu: float
    brevity_penalty: float
    orders_used: int
    smoothed_matches: tuple[int | float, ...]
    smoothed_totals: tuple[int, ...]

    def to_dict(self) -> dict[str, object]:
        """The contract's output object, keys in the output schema's order."""
        return {
            "bleu": self.bleu,
            "brevity_penalty": self.brevity_penalty,
            "orders_used": self.orders_used,
            "smoothed_matches": list(self.smoothed_matches),
            "smoothed_totals": list(self.smoothed_totals),
        }


def _counts(obj: Mapping[str, object], key: str) -> list[int]:
    path = json_pointer(key)
    items = require_array(obj[key], path, "an array of integers")
    if len(items) > MAX_ORDERS:
        raise LimitExceeded(
            f"Expected at most {MAX_ORDERS} orders at {path} (limit max orders), got {len(items)}.",
            path,
        )
    if not items:
        raise InvalidInput(f"Expected at least 1 order at {path}, got an empty array.", path)
    return [
        require_integer(v, json_pointer(key, i), 0, MAX_COUNT, LimitExceeded, "max count value")
        for i, v in enumerate(items)
    ]


def _parse(raw: object) -> tuple[BleuStatistics, ScoringOptions]:
    obj = require_object(raw)
    require_keys(obj, FIELDS, REQUIRED)
    matches = _counts(obj, "matches")
    totals = _counts(obj, "totals")
    lengths = [
        require_integer(obj[k], json_pointer(k), 0, MAX_COUNT, LimitExceeded, "max count value")
        for k in ("candidate_length", "reference_length")
    ]
    options = parse_scoring_options(obj, f"{ID}@{VERSION}", UNSUPPORTED_REASON)
    if len(matches) != len(totals):
        raise InvalidInput(
            f"Expected totals to have as many orders as matches ({len(matches)}) at /totals, "
            f"got {len(totals)}.",
            "/totals",
        )
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
    check_epsilon(options)
    return BleuStatistics(lengths[0], lengths[1], tuple(matches), tuple(totals)), options


def _compute(raw: object) -> BleuSmoothingResult:
    scored = score(*_parse(raw))
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
    raw: dict[str, object] = {
        "matches": matches,
        "totals": totals,
        "candidate_length": candidate_length,
        "reference_length": reference_length,
        "smoothing": smoothing,
        "effective_order": effective_order,
    }
    if epsilon is not None:
        raw["epsilon"] = epsilon
    if decimals is not None:
        raw["decimals"] = decimals
    return _compute(raw)


TOOL = Tool(ID, VERSION, lambda raw: _compute(raw).to_dict())
