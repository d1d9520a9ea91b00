"""chrf-plus-plus-compute@1.0.0: exact chrF++ (Popović 2017 §2), corpus and per segment.

Character 1- to 6-grams as chrf-compute, word unigrams and bigrams of
:func:`mtcompute.metrics.chrf.words.split_words`, the 8 orders averaged together under
chrf-compute's effective-order rule, counts summed over segments literally
(:func:`mtcompute.metrics.chrf.statistics.chrf_ratios` with ``word_order``). Input, limits,
validation order and output shape are chrf-compute's (its :func:`text_steps`, ``beta`` and
``lowercase``), with ``metric`` "chrF++" and ``word_order`` 2.
"""

from __future__ import annotations

__all__ = ["ChrfPlusPlusResult", "chrf_plus_plus"]

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from mtcompute.contracts.validate import InputSpec, contract_limits
from mtcompute.tools import Tool
from mtcompute.tools._cost import linear
from mtcompute.tools.chrf_compute import BETA, LOWERCASE, ScoredTexts, text_steps

ID, VERSION = "chrf-plus-plus-compute", "1.0.0"
WORD_ORDER = 2
INPUT = InputSpec(*text_steps(contract_limits(ID, VERSION)), BETA, LOWERCASE)


@dataclass(frozen=True, slots=True)
class ChrfPlusPlusResult(ScoredTexts):
    """Corpus chrF++ with its exact ratio, and chrF++ of each segment alone."""

    METRIC: ClassVar[str] = "chrF++"
    WORD_ORDER: ClassVar[int] = WORD_ORDER


def chrf_plus_plus(
    hypotheses: Sequence[str],
    references: Sequence[str],
    beta: int = 2,
    lowercase: bool = False,
) -> ChrfPlusPlusResult:
    """Exact corpus and segment chrF++ (chrf-plus-plus-compute@1.0.0), with the tool's checks.

    >>> chrf_plus_plus(["The cat sat."], ["The cat sat on the mat."]).score
    '49.405777'
    """
    return ChrfPlusPlusResult.compute(INPUT.call(**locals()))


# Six character and two word orders over each text: 3 units per size unit.
TOOL = Tool(ID, VERSION, INPUT, ChrfPlusPlusResult.compute, chrf_plus_plus, linear(3))
