"""bleu-sentence-components@1.0.0: sentence BLEU statistics (Papineni et al. 2002 §2.1).

Validation in the contract's order (its last semantics line), then
:func:`mtcompute.core.bleu.sentence_statistics` and, when asked, the clipping table.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from mtcompute.core.bleu import NgramEntry, clipping_table, sentence_statistics
from mtcompute.core.jsjson import dumps
from mtcompute.errors import LimitExceeded
from mtcompute.tools import Tool
from mtcompute.tools._bleu_common import (
    check_totals,
    ngram_rows,
    parse_references,
    tokens_at,
)
from mtcompute.tools._validate import require_bool, require_integer, require_keys, require_object

__all__ = ["BleuSentenceComponents", "bleu_sentence_components"]

ID, VERSION = "bleu-sentence-components", "1.0.0"
FIELDS = ("hypothesis", "references", "max_order", "include_ngrams")
REQUIRED = FIELDS[:2]
MAX_TOTAL_TOKENS = 10_000
MAX_TOTAL_TOKEN_BYTES = 262_144
MAX_OUTPUT_BYTES = 1_000_000


@dataclass(frozen=True, slots=True)
class BleuSentenceComponents:
    """Clipped matches, totals, candidate length and closest reference length of a sentence."""

    candidate_length: int
    reference_length: int
    max_order: int
    matches: tuple[int, ...]
    totals: tuple[int, ...]
    ngrams: tuple[NgramEntry, ...] | None = None

    def to_dict(self) -> dict[str, object]:
        """The contract's output object, keys in the output schema's order."""
        out: dict[str, object] = {
            "candidate_length": self.candidate_length,
            "reference_length": self.reference_length,
            "max_order": self.max_order,
            "matches": list(self.matches),
            "totals": list(self.totals),
        }
        if self.ngrams is not None:
            out["ngrams"] = ngram_rows(self.ngrams)
        return out


def _compute(raw: object) -> BleuSentenceComponents:
    obj: Mapping[str, object] = require_object(raw)
    require_keys(obj, FIELDS, REQUIRED)
    hypothesis, hyp_bytes = tokens_at(obj["hypothesis"], "/hypothesis", "a token list (an array)")
    references, ref_bytes = parse_references(obj["references"], "/references")
    max_order = require_integer(obj["max_order"], "/max_order", 1, 8) if "max_order" in obj else 4
    include_ngrams = (
        require_bool(obj["include_ngrams"], "/include_ngrams") if "include_ngrams" in obj else False
    )
    check_totals(
        len(hypothesis) + sum(map(len, references)),
        hyp_bytes + ref_bytes,
        MAX_TOTAL_TOKENS,
        MAX_TOTAL_TOKEN_BYTES,
        "the hypothesis and references",
    )

    stats = sentence_statistics(hypothesis, references, max_order)
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
        if size > MAX_OUTPUT_BYTES:
            raise LimitExceeded(
                f"Expected a result of at most {MAX_OUTPUT_BYTES} UTF-8 bytes of JSON "
                f"(limit max output bytes), got {size} bytes with include_ngrams; "
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
    raw = {
        "hypothesis": hypothesis,
        "references": references,
        "max_order": max_order,
        "include_ngrams": include_ngrams,
    }
    return _compute(raw)


TOOL = Tool(ID, VERSION, lambda raw: _compute(raw).to_dict())
