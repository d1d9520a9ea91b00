"""bleu-corpus-compute@1.0.0: corpus BLEU from tokenized segments (Papineni et al. 2002).

Per segment the statistics of bleu-sentence-components (§2.1,
:func:`mtcompute.core.bleu.sentence_statistics`), summed over the corpus as exact integers
(§2.1.1 modified precision on blocks of text, §2.2.2 the corpus brevity penalty), then
bleu-smoothing-compute's rules on the sums (Chen & Cherry 2014 §2.2 when smoothed;
:func:`mtcompute.core.bleu.smooth_and_score`). This is exactly bleu-ngrams-count followed by
bleu-smoothing-compute on its summed statistics: the summed statistics always satisfy the
scoring tool's rules (``m_n <= l_n``; a corpus ``m_1 = 0`` means every segment's ``m_1 = 0``,
so every ``m_n = 0``; 500,000 tokens keep every count far below 10^12).
Validation follows the contract's order (its last semantics line).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from mtcompute.tools import Tool
from mtcompute.tools._bleu_common import (
    check_epsilon,
    check_totals,
    corpus_statistics,
    parse_corpus,
    parse_scoring_options,
    score,
)
from mtcompute.tools._validate import require_integer, require_keys, require_object

if TYPE_CHECKING:
    from mtcompute.core.bleu import Smoothing

__all__ = ["CorpusBleuResult", "bleu_corpus"]

ID, VERSION = "bleu-corpus-compute", "1.0.0"
FIELDS = (
    "hypotheses",
    "references",
    "max_order",
    "smoothing",
    "epsilon",
    "effective_order",
    "decimals",
)
REQUIRED = FIELDS[:2]
MAX_SEGMENTS = 4096
MAX_TOTAL_TOKENS = 500_000
MAX_TOTAL_TOKEN_BYTES = 4_194_304
UNSUPPORTED_REASON = (
    "this version scores the corpus-summed statistics with bleu-smoothing-compute's methods, "
    "and methods 4 to 7 are not among them"
)


@dataclass(frozen=True, slots=True)
class CorpusBleuResult:
    """Corpus BLEU, its brevity penalty, the summed statistics and the smoothed counts."""

    bleu: float
    brevity_penalty: float
    orders_used: int
    segment_count: int
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
            "segment_count": self.segment_count,
            "candidate_length": self.candidate_length,
            "reference_length": self.reference_length,
            "matches": list(self.matches),
            "totals": list(self.totals),
            "smoothed_matches": list(self.smoothed_matches),
            "smoothed_totals": list(self.smoothed_totals),
        }


def _compute(raw: object) -> CorpusBleuResult:
    obj = require_object(raw)
    require_keys(obj, FIELDS, REQUIRED)
    corpus = parse_corpus(obj, MAX_SEGMENTS)
    max_order = require_integer(obj["max_order"], "/max_order", 1, 8) if "max_order" in obj else 4
    options = parse_scoring_options(obj, f"{ID}@{VERSION}", UNSUPPORTED_REASON)
    check_totals(
        corpus.token_count,
        corpus.token_bytes,
        MAX_TOTAL_TOKENS,
        MAX_TOTAL_TOKEN_BYTES,
        "the hypotheses and references",
    )
    check_epsilon(options)

    _, total = corpus_statistics(corpus, max_order)
    scored = score(total, options)
    return CorpusBleuResult(
        scored.bleu,
        scored.brevity_penalty,
        scored.orders_used,
        len(corpus.hypotheses),
        total.candidate_length,
        total.reference_length,
        total.matches,
        total.totals,
        scored.smoothed_matches,
        scored.smoothed_totals,
    )


def bleu_corpus(
    hypotheses: Sequence[Sequence[str]],
    references: Sequence[Sequence[Sequence[str]]],
    smoothing: Smoothing = "none",
    *,
    max_order: int = 4,
    epsilon: float | None = None,
    effective_order: bool = False,
    decimals: int | None = None,
) -> CorpusBleuResult:
    """Corpus BLEU of tokenized segments (bleu-corpus-compute@1.0.0): ``references[i]`` holds
    the 1 to 8 reference token lists of segment ``i``. Same validation and limits as the tool.

    Raises :class:`~mtcompute.errors.InvalidInput`, :class:`~mtcompute.errors.LimitExceeded`
    or :class:`~mtcompute.errors.UnsupportedInput` exactly where the tool would.

    >>> bleu_corpus([["the", "cat", "sat"]], [[["the", "cat", "sat"]]], max_order=2).bleu
    1.0
    """
    raw: dict[str, object] = {
        "hypotheses": hypotheses,
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
