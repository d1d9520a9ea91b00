"""Paired significance tests and bootstrap confidence intervals over per-segment sufficient
statistics, as sacreBLEU 2.6.0's ``sacrebleu/significance.py`` runs them.

* Paired bootstrap resampling (Koehn 2004, "Statistical Significance Tests for Machine
  Translation Evaluation", §3-4; sacreBLEU's ``_paired_bs_test``, after Moses'
  ``bootstrap-hypothesis-difference-significance.pl``): the centred-delta p-value
  ``(1 + #{|d_s| - mean|d| > |d|}) / (S + 1)``.
* Approximate randomization (Riezler & Maxwell 2005, "On Some Pitfalls in Automatic
  Evaluation and Significance Testing for MT", §3; sacreBLEU's ``_paired_ar_test``, after
  multeval): each trial swaps each segment's statistics between the two systems with
  probability 1/2; ``(1 + #{|a_s - b_s| > |d|}) / (S + 1)``.
* The bootstrap confidence interval (sacreBLEU's ``_bootstrap_resample`` and ``estimate_ci``:
  the mean of the resampled scores and half the distance between the 1/40 and 39/40 order
  statistics; ``Score.estimate_ci`` for ``--confidence``).

The random numbers are sacreBLEU's: a ``numpy.random.default_rng(seed)`` per comparison,
bootstrap indices from ``Generator.choice(N, (S, N), replace=True)``, AR masks from
``Generator.integers(2, size=(S, N), dtype=bool)`` followed, when AR estimates confidence, by
the bootstrap indices. With a seed every comparison draws the same numbers, so they are drawn
once for all systems. Both are drawn in blocks of rows: ``choice`` takes each index from the
bit generator's 32-bit stream, whose half-used 64-bit word the generator itself keeps between
calls, so blocks continue one stream; the boolean fill takes 32 mask bits per 32-bit word and
drops the rest at the end of a call, so mask blocks of a multiple of 32 entries continue it too
(tests/test_significance.py proves both). Memory is O(B x N + S + N x K) per test for a block
of B rows, never sacreBLEU's S x N x K float array.

Two arithmetic modes (:data:`ARITHMETICS`):

* ``"sacrebleu"``: bit-exact. The bootstrap sums ``numpy.float32`` statistics in numpy's
  order (one row after another) and scores the float32 sums with numpy 2's scalar rules, as
  sacreBLEU's ``_compute_score_from_stats`` does on them (chrF and TER then score in float32,
  and their resampled scores form a float32 array); AR sums int64 (float64 for TER) and scores
  those rows. The sums are exact integer matrix products whenever that provably equals the
  float32 sum (non-negative multiples of a power of two whose total fits float32's 24 bits),
  else they are added in float32 in sacreBLEU's order.
* ``"native"``: exact sums (float64 matrix products of integers; TER's average reference
  lengths exactly when they are multiples of a power of two, else added in float64 in draw
  order), scored in float64 by the same sacreBLEU formulas (:mod:`mtcompute.metrics`), and
  the same p-value and interval rules. The seed is always honoured (sacreBLEU runs
  ``SACREBLEU_SEED=0`` unseeded); ``None`` draws fresh entropy per comparison, as sacreBLEU.

BLAS threads: the resampled sums are matrix products, which numpy hands to its BLAS library
(OpenBLAS), and OpenBLAS starts one thread per CPU whose waiting threads spin. The products
here are blocks of a few rows by N segments, too small for threads to pay back, and on a
machine shared with other processes the spinning costs more than it gains (the native
bootstrap at 100,000 segments for 5 systems: 9.8 s with OpenBLAS's default threads, 4.0 s with
one, on 2 CPUs). The public tests and resamplers therefore run under
``threadpoolctl.threadpool_limits(1, "blas")``, which sets the loaded BLAS library's own thread
count for the call and restores it afterwards, whatever imported numpy first
(``OPENBLAS_NUM_THREADS`` counts only when set before numpy loads OpenBLAS).

A metric is anything with the small :class:`Metric` interface: the width of a segment's
statistics, the score of one summed row, the scores of many summed rows (BLEU's:
:class:`mtcompute.metrics.bleu.resample.BleuMetric`; chrF's:
:class:`mtcompute.metrics.chrf.resample.ChrfMetric`; TER's:
:class:`mtcompute.metrics.ter.resample.TerMetric`).

The rankings of N systems (all pairs, clusters, rank ranges) are
:mod:`mtcompute.significance.rankings`, re-exported here.
"""

from __future__ import annotations

from mtcompute.significance import _core, rankings
from mtcompute.significance._core import *  # noqa: F403 (its __all__: one list of names)
from mtcompute.significance.rankings import *  # noqa: F403

__all__ = _core.__all__ + rankings.__all__
