"""bleu-sentence-compute@1.0.0: sentence BLEU with none or Chen & Cherry 2014 §2.2 smoothing.

The composition of two tools (Papineni et al. 2002 §2.1 counting, then scoring): the
statistics of bleu-sentence-components
(:func:`mtcompute.metrics.bleu.statistics.sentence_statistics`), then bleu-smoothing-compute's
rules on them (:func:`mtcompute.metrics.bleu.statistics.smooth_and_score`).
The statistics of one segment always satisfy the scoring tool's rules (``m_n <= l_n``;
``m_1 = 0`` implies every ``m_n = 0``), so the result is exactly what calling the two tools
in sequence gives. Validation follows the contract's order (its last semantics line).
"""

from __future__ import annotations

__all__ = ["SentenceBleuResult", "sentence_bleu"]

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from mtcompute.contracts.validate import contract_limits
from mtcompute.metrics.bleu.counts import bleu_sentence_statistics
from mtcompute.metrics.bleu.statistics import Smoothing
from mtcompute.tools import Tool
from mtcompute.tools._bleu_common import ScoreFields, SmoothedFields, scored_fields, scoring_input
from mtcompute.tools._cost import ngram_cost
from mtcompute.tools._results import Output

ID, VERSION = "bleu-sentence-compute", "1.0.0"
LIMITS = contract_limits(ID, VERSION)
INPUT = scoring_input(LIMITS, False, f"{ID}@{VERSION}", smoothing=None)


@dataclass(frozen=True, slots=True)
class SentenceBleuResult(SmoothedFields, ScoreFields, Output):
    """Sentence BLEU, its brevity penalty, the statistics and the smoothed counts:
    :class:`ScoreFields`, then :class:`SmoothedFields`."""


def _compute(values: Mapping[str, Any]) -> SentenceBleuResult:
    hypothesis, references = values["hypothesis"], values["references"]
    stats = bleu_sentence_statistics(hypothesis, references, values["max_order"])
    return SentenceBleuResult(**scored_fields(stats, values))


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
    return _compute(INPUT.call(**locals()))


TOOL = Tool(ID, VERSION, INPUT, _compute, sentence_bleu, ngram_cost)
