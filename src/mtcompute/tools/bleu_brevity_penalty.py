"""bleu-brevity-penalty@1.0.0: the BLEU corpus brevity penalty (Papineni et al. 2002 §2.2.2).

Per segment the closest reference length, ties to the shorter
(:func:`mtcompute.metrics.bleu.statistics.closest_reference_length`, as mteval-v13a, NLTK
and sacreBLEU); c and r the exact sums; the penalty by bleu-smoothing-compute's rule
(:func:`mtcompute.metrics.bleu.statistics.brevity_penalty`: 0 when c = 0, 1 when c > r, else
``exp(1 - r/c)`` with JavaScript's ``Math.exp``); ``ratio = c / r`` in double precision.
Validation follows the contract's order (its last semantics line).
"""

from __future__ import annotations

__all__ = ["BrevityPenaltyResult", "bleu_brevity_penalty"]

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from mtcompute.contracts import fields
from mtcompute.contracts.validate import (
    Field,
    InputSpec,
    Integer,
    contract_limits,
    one_to,
    same_count,
)
from mtcompute.metrics.bleu.statistics import corpus_brevity_penalty
from mtcompute.tools import Tool
from mtcompute.tools._cost import linear
from mtcompute.tools._results import Output

ID, VERSION = "bleu-brevity-penalty", "1.0.0"
LIMITS = contract_limits(ID, VERSION)
LENGTH = Integer(0, LIMITS["max_length_value"])
_LENGTHS = one_to(LIMITS["max_references"], LENGTH, "reference lengths", "reference")
INPUT = InputSpec(
    Field("candidate_lengths", one_to(LIMITS["max_segments"], LENGTH, "lengths", "segment")),
    Field(
        "reference_lengths",
        one_to(LIMITS["max_segments"], _LENGTHS, "reference-length lists", "segment"),
    ),
    same_count("candidate_lengths", "reference_lengths", "segments"),
    Field("decimals", fields.DECIMALS, default=None),
)


@dataclass(frozen=True, slots=True)
class BrevityPenaltyResult(Output):
    """Summed lengths, each segment's closest reference length, the penalty and c / r."""

    candidate_length: int
    reference_length: int
    closest_reference_lengths: tuple[int, ...]
    brevity_penalty: float
    ratio: float | None


def _compute(values: Mapping[str, Any]) -> BrevityPenaltyResult:
    return BrevityPenaltyResult(
        *corpus_brevity_penalty(
            values["candidate_lengths"], values["reference_lengths"], values["decimals"]
        )
    )


def bleu_brevity_penalty(
    candidate_lengths: Sequence[int],
    reference_lengths: Sequence[Sequence[int]],
    *,
    decimals: int | None = None,
) -> BrevityPenaltyResult:
    """The corpus brevity penalty from per-segment lengths (bleu-brevity-penalty@1.0.0):
    ``reference_lengths[i]`` holds the 1 to 8 reference lengths of segment ``i``.

    Raises :class:`~mtcompute.errors.InvalidInput` or :class:`~mtcompute.errors.LimitExceeded`
    exactly where the tool would.

    >>> bleu_brevity_penalty([6, 6, 3], [[8], [6, 7], [2, 4]], decimals=10).brevity_penalty
    0.935506985
    """
    return _compute(INPUT.call(**locals()))


# One pass over the lengths: linear in the input's size.
TOOL = Tool(ID, VERSION, INPUT, _compute, bleu_brevity_penalty, linear(1))
