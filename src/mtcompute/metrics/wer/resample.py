"""WER's and CER's resampling terms for the paired tests and bootstrap intervals
(:mod:`mtcompute.significance`): each segment's (errors, reference length), and the rate of
summed statistics in percent, one row or a matrix of rows at a time.

The corpus rate is jiwer 4.0's: the edits of all segments over the units of all references
(:func:`mtcompute.metrics.wer.edits.error_rate`), so a resample's rate is the sum of its
segments' edits over the sum of their reference lengths, as TER's is. The statistics are
integers: every sum the tests make is exact. A resample whose references have no unit at
all (possible only when most references are empty) has no rate; it scores 100 when it has
edits and 0 when it has none, TER's rule for an empty reference, so that every resample has
a number to compare (a corpus without reference units is refused before any test runs).
"""

from __future__ import annotations

__all__ = ["WerMetric"]

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from mtcompute.metrics._resample import Array
from mtcompute.metrics.wer.corpus import segment_counts
from mtcompute.metrics.wer.text import WerOptions


@dataclass(frozen=True, slots=True)
class WerMetric:
    """WER (unit word) or CER (unit character) with the normalisations of ``options``
    (:class:`~mtcompute.metrics.wer.text.WerOptions`: they choose the statistics; the rate
    of summed statistics does not depend on them). An error rate: lower is better."""

    options: WerOptions = field(default_factory=WerOptions)

    width = 2
    lower_is_better = True

    @property
    def name(self) -> str:
        """``WER`` or ``CER``, as the unit says."""
        return "WER" if self.options.unit == "word" else "CER"

    @property
    def curve(self) -> str:
        """The score name (no curve fitted for WER or CER: no estimate)."""
        return self.name

    def statistics(
        self, hypotheses: Sequence[str], references: Sequence[Sequence[str]]
    ) -> list[tuple[int, int]]:
        """Each segment's (errors, reference length) against its one reference
        (``references[i][0]``; WER has one reference per segment)."""
        counts = segment_counts(hypotheses, [refs[0] for refs in references], self.options)
        return [(c.errors, c.reference_length) for c in counts]

    def score(self, totals: Sequence[int | float]) -> float:
        """The rate in percent: ``100 * errors / reference length`` (jiwer's rate)."""
        errors, length = totals[0], totals[1]
        if not length:
            return 100.0 if errors else 0.0
        return 100 * (errors / length)

    def scores(self, sums: Array) -> Array:
        """:meth:`score` of each row, in float64 (the sums are exact integers)."""
        values = sums.astype(np.float64)
        errors, length = values[:, 0], values[:, 1]
        with np.errstate(divide="ignore", invalid="ignore"):
            rate = 100 * (errors / length)
        out: Array = np.where(length > 0, rate, np.where(errors > 0, 100.0, 0.0))
        return out
