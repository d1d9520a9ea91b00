"""bleu-brevity-penalty@1.0.0: the BLEU corpus brevity penalty (Papineni et al. 2002 §2.2.2).

Per segment the closest reference length, ties to the shorter
(:func:`mtcompute.core.bleu.closest_reference_length`, as mteval-v13a, NLTK and sacreBLEU);
c and r the exact sums; the penalty by bleu-smoothing-compute's rule
(:func:`mtcompute.core.bleu.brevity_penalty`: 0 when c = 0, 1 when c > r, else
``exp(1 - r/c)`` with JavaScript's ``Math.exp``); ``ratio = c / r`` in double precision.
Validation follows the contract's order (its last semantics line).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from mtcompute.core.bleu import brevity_penalty, closest_reference_length
from mtcompute.core.jsmath import round_to_fixed
from mtcompute.errors import InvalidInput, LimitExceeded
from mtcompute.tools import Tool
from mtcompute.tools._validate import require_array, require_integer, require_keys, require_object

__all__ = ["BrevityPenaltyResult", "bleu_brevity_penalty"]

ID, VERSION = "bleu-brevity-penalty", "1.0.0"
FIELDS = ("candidate_lengths", "reference_lengths", "decimals")
REQUIRED = FIELDS[:2]
MAX_SEGMENTS = 100_000
MAX_REFERENCES = 8
MAX_LENGTH_VALUE = 10**9


@dataclass(frozen=True, slots=True)
class BrevityPenaltyResult:
    """Summed lengths, each segment's closest reference length, the penalty and c / r."""

    candidate_length: int
    reference_length: int
    closest_reference_lengths: tuple[int, ...]
    brevity_penalty: float
    ratio: float | None

    def to_dict(self) -> dict[str, object]:
        """The contract's output object, keys in the output schema's order."""
        return {
            "candidate_length": self.candidate_length,
            "reference_length": self.reference_length,
            "closest_reference_lengths": list(self.closest_reference_lengths),
            "brevity_penalty": self.brevity_penalty,
            "ratio": self.ratio,
        }


def _length(value: object, path: str) -> int:
    return require_integer(value, path, 0, MAX_LENGTH_VALUE, LimitExceeded, "max length value")


def _segments(obj: Mapping[str, object], key: str, what: str) -> Sequence[object]:
    path = f"/{key}"
    items = require_array(obj[key], path, what)
    if len(items) > MAX_SEGMENTS:
        raise LimitExceeded(
            f"Expected at most {MAX_SEGMENTS} segments at {path} (limit max segments), "
            f"got {len(items)}.",
            path,
        )
    if not items:
        raise InvalidInput(f"Expected at least 1 segment at {path}, got none.", path)
    return items


def _reference_lengths(value: object, path: str) -> list[int]:
    items = require_array(value, path, f"an array of 1 to {MAX_REFERENCES} reference lengths")
    if len(items) > MAX_REFERENCES:
        raise LimitExceeded(
            f"Expected at most {MAX_REFERENCES} references at {path} (limit max references), "
            f"got {len(items)}.",
            path,
        )
    if not items:
        raise InvalidInput(f"Expected at least 1 reference at {path}, got none.", path)
    return [_length(v, f"{path}/{j}") for j, v in enumerate(items)]


def _compute(raw: object) -> BrevityPenaltyResult:
    obj = require_object(raw)
    require_keys(obj, FIELDS, REQUIRED)
    candidates = [
        _length(v, f"/candidate_lengths/{i}")
        for i, v in enumerate(
            _segments(obj, "candidate_lengths", f"an array of 1 to {MAX_SEGMENTS} lengths")
        )
    ]
    references = [
        _reference_lengths(v, f"/reference_lengths/{i}")
        for i, v in enumerate(
            _segments(
                obj,
                "reference_lengths",
                f"an array of 1 to {MAX_SEGMENTS} reference-length lists",
            )
        )
    ]
    if len(references) != len(candidates):
        raise InvalidInput(
            "Expected reference_lengths to have as many segments as candidate_lengths "
            f"({len(candidates)}) at /reference_lengths, got {len(references)}.",
            "/reference_lengths",
        )
    decimals = require_integer(obj["decimals"], "/decimals", 0, 15) if "decimals" in obj else None

    closest = tuple(
        closest_reference_length(c, refs) for c, refs in zip(candidates, references, strict=True)
    )
    c, r = sum(candidates), sum(closest)
    bp = brevity_penalty(c, r)
    # The one float step of its own: c / r in double precision (both exact below 2^53).
    ratio = float(c) / float(r) if r else None
    if decimals is not None:
        bp = round_to_fixed(bp, decimals)
        ratio = None if ratio is None else round_to_fixed(ratio, decimals)
    return BrevityPenaltyResult(c, r, closest, bp, ratio)


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
    raw: dict[str, object] = {
        "candidate_lengths": candidate_lengths,
        "reference_lengths": reference_lengths,
    }
    if decimals is not None:
        raw["decimals"] = decimals
    return _compute(raw)


TOOL = Tool(ID, VERSION, lambda raw: _compute(raw).to_dict())
