"""sacrebleu-score@1.0.0: corpus BLEU, chrF and chrF++ of raw text, exactly as sacreBLEU 2.6.0.

The published version, kept as it answers: :mod:`mtcompute.tools.sacrebleu_score` builds its
input (``metrics`` bleu and chrf, the 1.0.0 contract's limits) and computes it; 1.1.0 adds
TER there. Validation follows the 1.0.0 contract's order (its last semantics line).
"""

from __future__ import annotations

__all__ = ["sacrebleu_score_1_0_0"]

from collections.abc import Mapping, Sequence
from typing import Any

from mtcompute.tools import Tool
from mtcompute.tools.sacrebleu_score import ID, SacrebleuResult, compute, cost, input_spec

VERSION = "1.0.0"
INPUT = input_spec(VERSION)


def sacrebleu_score_1_0_0(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str]],
    metrics: Sequence[str],
    *,
    bleu: Mapping[str, Any] | None = None,
    chrf: Mapping[str, Any] | None = None,
) -> SacrebleuResult:
    """sacreBLEU 2.6.0's corpus BLEU and chrF of raw text (sacrebleu-score@1.0.0), with that
    version's validation and limits (:func:`mtcompute.tools.sacrebleu_score.sacrebleu_score`
    is 1.1.0, with TER).

    >>> sacrebleu_score_1_0_0(["aa"], [["ab"]], ["chrf"]).chrf.text
    'chrF2 = 25.00'
    """
    return compute(INPUT.call(**locals()))


def _cost(raw: object, cap: int) -> int:
    """sacrebleu-score's estimate without TER."""
    return cost(raw, cap, ter=False)


TOOL = Tool(ID, VERSION, INPUT, compute, sacrebleu_score_1_0_0, _cost)
