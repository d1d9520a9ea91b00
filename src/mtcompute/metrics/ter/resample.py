"""TER's resampling terms for the paired tests and bootstrap intervals
(:mod:`mtcompute.significance`): each segment's statistics, and the score of summed
statistics, one row or a matrix of rows at a time as sacreBLEU's
``TER._compute_score_from_stats`` computes it.
"""

from __future__ import annotations

__all__ = ["TerMetric"]

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from mtcompute.metrics._resample import Array, float_type, typed
from mtcompute.metrics.ter.score import TerOptions, ter_score, ter_statistics


@dataclass(frozen=True, slots=True)
class TerMetric:
    """TER with sacreBLEU's settings (:class:`mtcompute.metrics.ter.score.TerOptions`: they
    choose the statistics; the score of summed statistics does not depend on them)."""

    options: TerOptions = field(default_factory=TerOptions)

    name = curve = "TER"  # no curve fitted: no estimate
    width = 2
    lower_is_better = True

    def statistics(
        self, hypotheses: Sequence[str], references: Sequence[Sequence[str]]
    ) -> list[tuple[int, float]]:
        """Each segment's (edits, average reference length)
        (:func:`mtcompute.metrics.ter.score.ter_statistics`)."""
        return ter_statistics(hypotheses, references, self.options)

    def score(self, totals: Sequence[int | float]) -> float:
        """:func:`mtcompute.metrics.ter.score.ter_score`."""
        return ter_score(totals[0], totals[1]).score  # type: ignore[arg-type]

    def scores(self, sums: Array) -> Array:
        """``TER._compute_score_from_stats`` on each row, vectorized (float32 rows: float32
        scores but for the Python 100.0 and 0.0 of an empty reference)."""
        ft = float_type(sums)
        values = sums.astype(ft)
        edits, length = values[:, 0], values[:, 1]
        with np.errstate(divide="ignore", invalid="ignore"):
            rate = (ft(100) * (edits / length)).astype(np.float64)
        positive = length > 0
        out = np.where(positive, rate, np.where(edits > 0, 100.0, 0.0))
        return typed(out, positive, ft)
