"""bleu-sentence-compute@1.0.0: sentence BLEU with none or Chen & Cherry 2014 §2.2 smoothing.

The composition of two tools (Papineni et al. 2002 §2.1 counting, then scoring): the
statistics of bleu-sentence-components (:func:`mtcompute.core.bleu.sentence_statistics`),
then bleu-smoothing-compute's rules on them (:func:`mtcompute.core.bleu.smooth_and_score`).
The statistics of one segment always satisfy the scoring tool's rules (``m_n <= l_n``;
``m_1 = 0`` implies every ``m_n = 0``), so the result is exactly what calling the two tools
in sequence gives. Validation follows the contract's order (its last semantics line).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from mtcompute.core.bleu import sentence_statistics
from mtcompute.tools import Tool
from mtcompute.tools._bleu_common import (
    check_epsilon,
    check_totals,
    parse_references,
    parse_scoring_options,
    score,
    tokens_at,
)
from mtcompute.tools._validate import require_integer, require_keys, require_object
from mtcompute.tools.bleu_sentence_components import MAX_TOTAL_TOKEN_BYTES, MAX_TOTAL_TOKENS

if TYPE_CHECKING:
    from mtcompute.core.bleu import Smoothing

__all__ = ["SentenceBleuResult", "sentence_bleu"]

ID, VERSION = "bleu-sentence-compute", "1.0.0"
FIELDS = (
    "hypothesis",
    "references",
    "max_order",
    "smoothing",
    "epsilon",
    "effective_order",
    "decimals",
)
REQUIRED = ("hypothesis", "references", "smoothing")
UNSUPPORTED_REASON = (
    "this version scores a sentence's statistics with bleu-smoothing-compute's methods, "
    "and methods 4 to 7 are not among them"
)


@dataclass(frozen=True, slots=True)
class SentenceBleuResult:
    """Sentence BLEU, its brevity penalty, the statistics and the smoothed counts."""

    bleu: float
    brevity_penalty: float
    orders_used: int
    candidate_length: int
    reference_length: int
    matches: tuple[int, ...]
    totals: tuple[int, ...]
    smoothed_matches: tuple[int | float, ...]
    smoothed_totals: tuple[int, ...]

    def to_dict(self) -> dict[str, object]:
        """The contract's output object, keys in the output schema's order."""
        return {
            "bleu": self.bleu,
            "brevity_penalty": self.brevity_penalty,
            "orders_used": self.orders_used,
            "candidate_length": self.candidate_length,
            "reference_length": self.reference_length,
            "matches": list(self.matches),
            "totals": list(self.totals),
            "smoothed_matches": list(self.smoothed_matches),
            "smoothed_totals": list(self.smoothed_totals),
        }


def _compute(raw: object) -> SentenceBleuResult:
    obj = require_object(raw)
    require_keys(obj, FIELDS, REQUIRED)
    hypothesis, hyp_bytes = tokens_at(obj["hypothesis"], "/hypothesis", "a token list (an array)")
    references, ref_bytes = parse_references(obj["references"], "/references")
    max_order = require_integer(obj["max_order"], "/max_order", 1, 8) if "max_order" in obj else 4
    options = parse_scoring_options(obj, f"{ID}@{VERSION}", UNSUPPORTED_REASON)
    check_totals(
        len(hypothesis) + sum(map(len, references)),
        hyp_bytes + ref_bytes,
        MAX_TOTAL_TOKENS,
        MAX_TOTAL_TOKEN_BYTES,
        "the hypothesis and references",
    )
    check_epsilon(options)

    stats = sentence_statistics(hypothesis, references, max_order)
    scored = score(stats, options)
    return SentenceBleuResult(
        scored.bleu,
        scored.brevity_penalty,
        scored.orders_used,
        stats.candidate_length,
        stats.reference_length,
        stats.matches,
        stats.totals,
        scored.smoothed_matches,
        scored.smoothed_totals,
    )


def sentence_bleu(
    hypothesis: Sequence[str],
    references: Sequence[Sequence[str]],
    smoothing: Smoothing,
    *,
    max_order: int = 4,
    epsilon: float | None = None,
    effective_order: bool = False,
    decimals: int | None = None,
) -> SentenceBleuResult:
    """BLEU of one tokenized hypothesis against 1 to 8 tokenized references
    (bleu-sentence-compute@1.0.0), with the tool's validation and limits.

    Raises :class:`~mtcompute.errors.InvalidInput`, :class:`~mtcompute.errors.LimitExceeded`
    or :class:`~mtcompute.errors.UnsupportedInput` exactly where the tool would.

    >>> hypothesis, reference = "the cat sat on the mat".split(), "the cat is on the mat".split()
    >>> sentence_bleu(hypothesis, [reference], "method1", decimals=4).bleu
    0.2541
    """
    raw: dict[str, object] = {
        "hypothesis": hypothesis,
        "references": references,
        "max_order": max_order,
        "smoothing": smoothing,
        "effective_order": effective_order,
    }
    if epsilon is not None:
        raw["epsilon"] = epsilon
    if decimals is not None:
        raw["decimals"] = decimals
    return _compute(raw)


TOOL = Tool(ID, VERSION, lambda raw: _compute(raw).to_dict())
