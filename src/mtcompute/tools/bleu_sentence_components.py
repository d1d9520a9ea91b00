"""bleu-sentence-components@1.0.0: sentence BLEU statistics (Papineni et al. 2002 §2.1).

Validation in the contract's order (its last semantics line), then
:func:`mtcompute.metrics.bleu.statistics.sentence_statistics` and, when asked, the clipping table.
"""

from __future__ import annotations

__all__ = ["BleuSentenceComponents", "bleu_sentence_components"]

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from mtcompute.contracts.validate import Boolean, Field, contract_limits
from mtcompute.core.jsjson import dumps
from mtcompute.errors import LimitExceeded
from mtcompute.metrics.bleu.counts import bleu_sentence_statistics
from mtcompute.metrics.bleu.statistics import NgramEntry, clipping_table
from mtcompute.tools import Tool
from mtcompute.tools._bleu_common import counting_input
from mtcompute.tools._cost import integer, member, size
from mtcompute.tools._results import Output, omitted_when_none

ID, VERSION = "bleu-sentence-components", "1.0.0"
LIMITS = contract_limits(ID, VERSION)
INPUT = counting_input(LIMITS, False, Field("include_ngrams", Boolean(), default=False))


@dataclass(frozen=True, slots=True)
class BleuSentenceComponents(Output):
    """Clipped matches, totals, candidate length and closest reference length of a sentence."""

    candidate_length: int
    reference_length: int
    max_order: int
    matches: tuple[int, ...]
    totals: tuple[int, ...]
    ngrams: tuple[NgramEntry, ...] | None = omitted_when_none()


def _compute(values: Mapping[str, Any]) -> BleuSentenceComponents:
    hypothesis, references = values["hypothesis"], values["references"]
    max_order, include_ngrams = values["max_order"], values["include_ngrams"]
    stats = bleu_sentence_statistics(hypothesis, references, max_order)
    table = tuple(clipping_table(hypothesis, references, max_order)) if include_ngrams else None
    result = BleuSentenceComponents(
        stats.candidate_length,
        stats.reference_length,
        max_order,
        stats.matches,
        stats.totals,
        table,
    )
    if include_ngrams:
        size = len(dumps(result.to_dict()).encode("utf-8"))
        limit = LIMITS["max_output_bytes"]
        if size > limit.value:
            raise LimitExceeded(
                f"Expected a result of at most {limit.value} UTF-8 bytes of JSON "
                f"(limit {limit.name}), got {size} bytes with include_ngrams; "
                "ask without include_ngrams or split the input."
            )
    return result


def bleu_sentence_components(
    hypothesis: Sequence[str],
    references: Sequence[Sequence[str]],
    max_order: int = 4,
    *,
    include_ngrams: bool = False,
) -> BleuSentenceComponents:
    """Clipped n-gram matches, totals and lengths of one tokenized hypothesis
    (bleu-sentence-components@1.0.0), with the tool's validation and limits.

    >>> bleu_sentence_components("the cat".split(), ["the cat sat".split()]).matches
    (2, 1, 0, 0)
    """
    return _compute(INPUT.call(**locals()))


def _cost(raw: object, cap: int) -> int:
    """Every token counted once per order; with ``include_ngrams``, a table row per n-gram
    holding its n tokens: the size times 1 + order / 8, or (tables) times 1 + order."""
    order = integer(raw, "max_order", 4, 8)
    tables = member(raw, "include_ngrams") not in (None, False)
    units = size(raw, cap)
    return units * (1 + order) if tables else units * (8 + order) // 8


TOOL = Tool(ID, VERSION, INPUT, _compute, bleu_sentence_components, _cost)
