"""BLEU's resampling terms for the paired tests and bootstrap intervals
(:mod:`mtcompute.significance`): each segment's statistics, and the score of summed
statistics, one row or a matrix of rows at a time as sacreBLEU's ``BLEU.compute_bleu``
computes it (its element operations vectorized; the logs, their sum and the exponentials
Python's, row by row, so that every score is sacreBLEU's float).
"""

from __future__ import annotations

__all__ = ["BleuMetric"]

import math
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from mtcompute.metrics._resample import Array, each_segment, float_type
from mtcompute.metrics.agreement import SPBLEU_CURVES
from mtcompute.metrics.bleu.score import SMOOTH_DEFAULTS, BleuOptions, bleu_score, bleu_statistics

_LOG_ZERO = -9999999999  # sacreBLEU's my_log(0)


@dataclass(frozen=True, slots=True)
class BleuMetric:
    """BLEU with sacreBLEU's settings (:class:`mtcompute.BleuOptions`)."""

    options: BleuOptions = field(default_factory=BleuOptions)

    name = "BLEU"
    lower_is_better = False

    @property
    def curve(self) -> str:
        """Kocmi et al.'s curve: spBLEU's under a FLORES SentencePiece model, else BLEU's."""
        return SPBLEU_CURVES.get(self.options.tokenize, self.name)

    @property
    def width(self) -> int:
        """``[sys_len, ref_len, correct_1..N, total_1..N]``."""
        return 2 + 2 * self.options.max_ngram_order

    def statistics(
        self, hypotheses: Sequence[str], references: Sequence[Sequence[str]]
    ) -> list[list[int]]:
        """Each segment's statistics (:func:`mtcompute.bleu_statistics`)."""
        return each_segment(bleu_statistics, hypotheses, references, self.options)

    def score(self, totals: Sequence[int | float]) -> float:
        """:func:`mtcompute.bleu_score`."""
        return bleu_score(totals, self.options).score

    def scores(self, sums: Array) -> Array:
        """``BLEU.compute_bleu`` on each row, its element operations vectorized (the logs,
        their ``sum`` and the exponentials are Python's, row by row)."""
        n = self.options.max_ngram_order
        method = self.options.smooth_method
        k = self.options.smooth_value
        if k is None:
            k = SMOOTH_DEFAULTS[method]
        ft = float_type(sums)
        truncate = sums.dtype.kind in "iu"  # `int64_row[i] += float` truncates
        values = sums.astype(ft)
        rows = len(values)
        correct = values[:, 2 : 2 + n]
        total = values[:, 2 + n : 2 + 2 * n]
        started = (correct != 0).any(axis=1)
        active = started.copy()
        eff = np.full(rows, n)
        precisions = np.zeros((rows, n))
        smooth = np.ones(rows)
        hundred = ft(100.0)
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            for j in range(n):
                c, t = correct[:, j], total[:, j]
                if method == "add-k" and j > 0:
                    c, t = c + ft(k), t + ft(k)
                    if truncate:
                        c, t = np.trunc(c), np.trunc(t)
                active &= t != 0
                if self.options.effective_order:
                    eff = np.where(active, j + 1, eff)
                zero = active & (c == 0)
                if method == "exp":
                    smooth = np.where(zero, smooth * 2, smooth)
                    at_zero = hundred / (smooth.astype(ft) * t)
                elif method == "floor":
                    at_zero = ft(100.0 * k) / t  # type: ignore[operator]
                else:
                    at_zero = np.zeros(rows, ft)
                at_match = hundred * c / t
                precisions[:, j] = np.where(
                    active & (c != 0), at_match, np.where(zero, at_zero, 0.0)
                )
        score: Array = _brevity(values[:, 0], values[:, 1]) * _exp(_mean_log(precisions, eff) / eff)
        return np.where(started, score, 0.0)


def _exp(values: Array) -> Array:
    """``math.exp`` of each value (numpy's own exp may differ from the C library's)."""
    return np.array(list(map(math.exp, values.tolist())), dtype=np.float64).reshape(values.shape)


def _brevity(sys_lens: Array, ref_lens: Array) -> Array:
    """sacreBLEU's brevity penalty of ``int(sys_len)`` and ``int(ref_len)``:
    ``exp(1 - ref_len / sys_len)`` when shorter (0 when empty), else 1."""
    sys_len, ref_len = np.trunc(sys_lens.astype(np.float64)), np.trunc(ref_lens.astype(np.float64))
    shorter = (sys_len < ref_len) & (sys_len > 0)
    bp = np.where(sys_len < ref_len, 0.0, 1.0)
    bp[shorter] = _exp(1 - ref_len[shorter] / sys_len[shorter])
    return bp


def _mean_log(precisions: Array, eff: Array) -> Array:
    """``sum([my_log(p) for p in precisions[:eff]])`` of each row: math.log, log 0 as
    -9999999999, added as this Python's ``sum`` adds (one float addition after another up
    to 3.11; 3.12's compensated ``sum`` row by row)."""
    if sys.version_info >= (3, 12):
        return np.array(
            [
                sum([_LOG_ZERO if p == 0.0 else math.log(p) for p in row[:e]])
                for row, e in zip(precisions.tolist(), eff.tolist(), strict=True)
            ],
            dtype=np.float64,
        )
    logs = np.full(precisions.shape, float(_LOG_ZERO))
    nonzero = precisions != 0.0
    logs[nonzero] = list(map(math.log, precisions[nonzero].tolist()))
    total = logs[:, 0].copy()
    for j in range(1, precisions.shape[1]):
        total = np.where(j < eff, total + logs[:, j], total)
    return total
