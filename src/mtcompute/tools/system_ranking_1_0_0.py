"""system-ranking@1.0.0: the rankings of BLEU, chrF, chrF++ and TER, exactly as published.

The published version, kept as it answers: :mod:`mtcompute.tools.system_ranking` builds its
input (``metric`` bleu, chrf or ter, the 1.0.0 contract's limits) and computes it; 1.1.0 adds
WER and CER there. Validation follows the 1.0.0 contract's order (its last semantics line).
"""

from __future__ import annotations

__all__ = ["system_ranking_1_0_0"]

from collections.abc import Mapping, Sequence
from typing import Any

from mtcompute.metrics import DEFAULT_SEED
from mtcompute.tools import Tool
from mtcompute.tools.system_ranking import (
    DEFAULT_THRESHOLD,
    ID,
    SystemRankingResult,
    compute,
    input_spec,
)

VERSION = "1.0.0"
INPUT = input_spec(VERSION)


def system_ranking_1_0_0(
    systems: Sequence[Mapping[str, Any]],
    references: Sequence[Sequence[str]],
    metric: str,
    *,
    bleu: Mapping[str, Any] | None = None,
    chrf: Mapping[str, Any] | None = None,
    ter: Mapping[str, Any] | None = None,
    method: str = "bootstrap",
    samples: int | None = None,
    seed: int = DEFAULT_SEED,
    threshold: float = DEFAULT_THRESHOLD,
) -> SystemRankingResult:
    """The ranking of 2 to 16 systems on BLEU, chrF or TER (system-ranking@1.0.0), with that
    version's validation and limits (:func:`mtcompute.tools.system_ranking.system_ranking` is
    1.1.0, with WER and CER).

    >>> result = system_ranking_1_0_0(
    ...     [{"name": "A", "hypotheses": ["a b c d"]}, {"name": "B", "hypotheses": ["a b"]}],
    ...     [["a b c d"]], "chrf", samples=9)
    >>> [s.name for s in result.systems]
    ['A', 'B']
    """
    return compute(INPUT.call(**locals()))


TOOL = Tool(ID, VERSION, INPUT, compute, system_ranking_1_0_0)
