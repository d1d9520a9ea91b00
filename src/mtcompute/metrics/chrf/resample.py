"""chrF's and chrF++'s resampling terms for the paired tests and bootstrap intervals
(:mod:`mtcompute.significance`): each segment's statistics, and the score of summed
statistics, one row or a matrix of rows at a time as sacreBLEU's
``CHRF._compute_score_from_stats`` computes it (its ``_compute_f_score``, vectorized with its
float types).
"""

from __future__ import annotations

__all__ = ["ChrfMetric"]

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from mtcompute.metrics._resample import Array, each_segment, float_type, typed
from mtcompute.metrics.chrf.score import ChrfOptions, ChrfResult, chrf_score, chrf_statistics


@dataclass(frozen=True, slots=True)
class ChrfMetric:
    """chrF and chrF++ with sacreBLEU's settings
    (:class:`mtcompute.metrics.chrf.score.ChrfOptions`)."""

    options: ChrfOptions = field(default_factory=ChrfOptions)
    lower_is_better = False

    @property
    def name(self) -> str:
        """``chrF2``, ``chrF2++``, ..."""
        return ChrfResult(0.0, *self._orders_beta()).name

    @property
    def curve(self) -> str:
        """Kocmi et al.'s curve: the score name's (chrF2 has one)."""
        return self.name

    def _orders_beta(self) -> tuple[int, int, int]:
        return self.options.char_order, self.options.word_order, self.options.beta

    @property
    def width(self) -> int:
        """``[n_hyp, n_ref, n_match]`` per order, character orders first."""
        return 3 * self.options.order

    def statistics(
        self, hypotheses: Sequence[str], references: Sequence[Sequence[str]]
    ) -> list[list[int]]:
        """Each segment's statistics (:func:`~mtcompute.metrics.chrf.score.chrf_statistics`)."""
        return each_segment(chrf_statistics, hypotheses, references, self.options)

    def score(self, totals: Sequence[int | float]) -> float:
        """:func:`~mtcompute.metrics.chrf.score.chrf_score`."""
        return chrf_score(totals, self.options).score  # type: ignore[arg-type]

    def scores(self, sums: Array) -> Array:
        """``CHRF._compute_f_score`` on each row, vectorized. With float32 rows each value
        keeps its scalar type: ``eps`` and what is computed from Python numbers alone stay
        Python floats (float64), the rest is float32, a Python float meeting a float32 being
        rounded to float32 first (numpy 2's rule for Python scalars)."""
        ft = float_type(sums)
        values = sums.astype(ft)
        rows = len(values)
        order = self.options.order
        factor = self.options.beta**2
        f_factor, f_factor1 = ft(factor), ft(1 + factor)
        score, score32 = np.zeros(rows), np.zeros(rows, bool)
        avg_prec, avg_rec = np.zeros(rows, ft), np.zeros(rows, ft)
        effective = np.zeros(rows, np.int64)
        with np.errstate(divide="ignore", invalid="ignore", over="ignore", under="ignore"):
            for i in range(order):
                n_hyp, n_ref, n_match = values[:, 3 * i], values[:, 3 * i + 1], values[:, 3 * i + 2]
                hp, rp = n_hyp > 0, n_ref > 0
                prec, rec = n_match / n_hyp, n_match / n_ref
                both = hp & rp
                denom_a = f_factor * prec + rec
                term_a = f_factor1 * prec * rec / denom_a
                usual = both & (denom_a > 0)
                if bool(usual.all()):  # every row has both sides and a match or more
                    term, term32 = term_a.astype(np.float64), usual
                else:
                    term, term32 = _chrf_terms(prec, rec, hp, rp, term_a, usual, factor, ft)
                added32 = (score.astype(ft) + term.astype(ft)).astype(np.float64)
                either = score32 | term32
                score = np.where(either, added32, score + term)
                score32 = either
                avg_prec = np.where(both, avg_prec + prec, avg_prec)
                avg_rec = np.where(both, avg_rec + rec, avg_rec)
                effective += both
            if self.options.eps_smoothing:
                as32 = (ft(100) * score.astype(ft) / ft(order)).astype(np.float64)
                return typed(np.where(score32, as32, 100 * score / order), score32, ft)
            present = effective > 0
            ap = avg_prec / effective.astype(ft)
            ar = avg_rec / effective.astype(ft)
            nonzero = present & (ap + ar != 0)
            f = f_factor1 * ap * ar
            f = f / (f_factor * ap + ar)
            f = ft(100) * f
        return typed(np.where(nonzero, f.astype(np.float64), 0.0), nonzero, ft)


def _chrf_terms(
    prec: Array,
    rec: Array,
    hp: Array,
    rp: Array,
    term_a: Array,
    usual: Array,
    factor: int,
    ft: type[np.floating[Any]],
) -> tuple[Array, Array]:
    """One order's ``(1 + factor) * prec * rec / denom`` (or ``eps``) of chrF for rows with
    an empty side or no match: its value and whether it is a float32 (see ``scores``)."""
    eps = 1e-16
    both = hp & rp
    denom_b = ft(factor) * prec + ft(eps)
    term_b = ft(1 + factor) * prec * ft(eps) / denom_b
    denom_c = ft(factor * eps) + rec
    term_c = ft((1 + factor) * eps) * rec / denom_c
    denom_d = factor * eps + eps  # both sides empty: Python floats only
    term_d = (1 + factor) * eps * eps / denom_d if denom_d > 0 else eps
    cases = [usual, both, hp & (denom_b > 0), hp, rp & (denom_c > 0), rp]
    wide = [x.astype(np.float64) for x in (term_a, term_b, term_c)]
    epsilon = np.full(len(prec), eps)
    term = np.select(cases, [wide[0], epsilon, wide[1], epsilon, wide[2], epsilon], term_d)
    term32 = np.select(cases, [True, False, True, False, True, False], False)
    return term, term32
