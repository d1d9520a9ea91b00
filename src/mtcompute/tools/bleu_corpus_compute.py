"""bleu-corpus-compute@1.0.0: corpus BLEU from tokenized segments (Papineni et al. 2002).

Per segment the statistics of bleu-sentence-components (§2.1,
:func:`mtcompute.metrics.bleu.statistics.sentence_statistics`), summed over the corpus as
exact integers (§2.1.1 modified precision on blocks of text, §2.2.2 the corpus brevity
penalty), then bleu-smoothing-compute's rules on the sums (Chen & Cherry 2014 §2.2 when
smoothed; :func:`mtcompute.metrics.bleu.statistics.smooth_and_score`). This is exactly
bleu-ngrams-count followed by bleu-smoothing-compute on its summed statistics: the summed
statistics always satisfy the scoring tool's rules (``m_n <= l_n``; a corpus ``m_1 = 0``
means every segment's ``m_1 = 0``, so every ``m_n = 0``; 500,000 tokens keep every count far
below 10^12).
Validation follows the contract's order (its last semantics line).
"""

from __future__ import annotations

__all__ = ["CorpusBleuResult", "bleu_corpus"]

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from mtcompute.contracts.validate import contract_limits
from mtcompute.metrics.bleu.counts import corpus_statistics
from mtcompute.metrics.bleu.statistics import Smoothing
from mtcompute.tools import Tool
from mtcompute.tools._bleu_common import ScoreFields, SmoothedFields, scored_fields, scoring_input
from mtcompute.tools._cost import ngram_cost
from mtcompute.tools._results import Output

ID, VERSION = "bleu-corpus-compute", "1.0.0"
LIMITS = contract_limits(ID, VERSION)
INPUT = scoring_input(LIMITS, True, f"{ID}@{VERSION}")


@dataclass(frozen=True)
class _CorpusScoreFields(ScoreFields):
    __slots__ = ()

    segment_count: int


@dataclass(frozen=True, slots=True)
class CorpusBleuResult(SmoothedFields, _CorpusScoreFields, Output):
    """Corpus BLEU, its brevity penalty, the summed statistics and the smoothed counts: bleu,
    brevity_penalty, orders_used, segment_count, then :class:`SmoothedFields`."""


def _compute(values: Mapping[str, Any]) -> CorpusBleuResult:
    hypotheses = values["hypotheses"]
    _, total = corpus_statistics(hypotheses, values["references"], values["max_order"])
    return CorpusBleuResult(segment_count=len(hypotheses), **scored_fields(total, values))


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
    return _compute(INPUT.call(**locals()))


TOOL = Tool(ID, VERSION, INPUT, _compute, bleu_corpus, ngram_cost)
