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
"""

from __future__ import annotations

__all__ = [
    "ARITHMETICS",
    "DEFAULT_RANK_SAMPLES",
    "DEFAULT_SEED",
    "THRESHOLD",
    "Arithmetic",
    "BleuMetric",
    "Metric",
    "Pair",
    "Progress",
    "Ranked",
    "Ranking",
    "Result",
    "Table",
    "TerMetric",
    "bootstrap_confidence",
    "bootstrap_resample",
    "clusters",
    "estimate_ci",
    "no_progress",
    "p_value",
    "paired_approximate_randomization",
    "paired_bootstrap",
    "paired_draws",
    "rank_draws",
    "rank_systems",
    "score_estimate_ci",
]

import functools
import math
import statistics as pystatistics
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any, Literal, ParamSpec, TypeVar, get_args

try:
    import numpy as np

    # threadpoolctl ships no type information (no py.typed): its one function used here is
    # typed at the call
    from threadpoolctl import threadpool_limits  # type: ignore[import-untyped]
except ImportError as missing:  # the optional extra: say which to install
    raise ImportError(
        f"mtcompute.significance needs numpy and threadpoolctl ({missing.name} is not "
        "installed): pip install 'mtcompute[significance]'",
        name=missing.name,
    ) from missing

from mtcompute.metrics import DEFAULT_SEED
from mtcompute.metrics._resample import Array, Metric
from mtcompute.metrics.agreement import human_agreement
from mtcompute.metrics.bleu.resample import BleuMetric
from mtcompute.metrics.ter.resample import TerMetric

Arithmetic = Literal["sacrebleu", "native"]
ARITHMETICS: tuple[str, ...] = get_args(Arithmetic)

Statistics = Sequence[Sequence[int | float]] | Array
"""Per-segment sufficient statistics: one row of the metric's width per segment."""
Progress = Callable[[int], object]
"""Told the number of resamples or trials of each block drawn (a progress bar's advance)."""

_BLOCK_ENTRIES = 1 << 20  # random draws per call: 8 MB of indices
_PRODUCT_ENTRIES = 1 << 22  # draw counts per matrix product: 32 MB (a few rows at 10**5)
_MASK_WORD = 32  # mask entries per 32-bit word of the boolean fill
_FLOAT32_DIGITS = 24
_FLOAT64_DIGITS = 53
_LOG_ZERO = -9999999999  # sacreBLEU's my_log(0)

_P = ParamSpec("_P")
_R = TypeVar("_R")


def no_progress(_done: int) -> None:
    """The progress callback that reports to no one."""


def paired_draws(method: str, samples: int, confidence: int, systems: int, seed: int | None) -> int:
    """The resamples and trials the tests of ``systems`` systems (the baseline included)
    report to ``progress`` in all, whatever the number of tables: :func:`paired_bootstrap`
    (``method="bootstrap"``) or :func:`paired_approximate_randomization` (``"ar"``, with
    ``confidence`` interval resamples)."""
    if method == "bootstrap":
        return samples * (1 if seed is not None else systems)
    comparisons = 1 if seed is not None else systems - 1
    return confidence + comparisons * (samples + confidence)


def rank_draws(method: str, samples: int, systems: int) -> int:
    """The resamples or trials :func:`rank_systems` reports to ``progress`` in all."""
    return samples if method == "bootstrap" else samples * (systems - 1)


def _one_blas_thread(function: Callable[_P, _R]) -> Callable[_P, _R]:
    """``function`` run with numpy's BLAS held to one thread (the module docstring says why)."""

    @functools.wraps(function)
    def limited(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        with threadpool_limits(limits=1, user_api="blas"):
            return function(*args, **kwargs)

    return limited


# --- results and inputs ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Result:
    """sacreBLEU's ``significance.Result``: a system's score for one metric, the p-value of
    its comparison with the baseline, and the bootstrap mean and 95% half width. Python
    floats: where sacreBLEU holds numpy scalars (float32 means and widths of chrF and TER in
    sacreBLEU arithmetic), the same values, which format to the same strings."""

    score: float
    p_value: float | None = None
    mean: float | None = None
    ci: float | None = None


@dataclass(frozen=True, slots=True)
class Table:
    """One metric's per-segment statistics of the systems compared, the baseline first."""

    metric: Metric
    statistics: Sequence[Statistics]


@dataclass(frozen=True, slots=True)
class _Series:
    """One system's statistics for one metric, ready to resample."""

    metric: Metric
    matrix: Array  # N x K as numpy makes it of the rows (int64, or float64 with a float)
    score: float


def _check_count(value: object, name: str, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise ValueError(f"{name} must be an integer of at least {minimum}, got {value!r}")
    return value


def _check_arithmetic(arithmetic: object) -> None:
    if arithmetic not in ARITHMETICS:
        raise ValueError(f"arithmetic must be one of {list(ARITHMETICS)}, got {arithmetic!r}")


def _check_seed(seed: object) -> None:
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or seed < 0):
        raise ValueError(f"seed must be a non-negative integer or None, got {seed!r}")


def _matrix(statistics: Statistics, metric: Metric, where: str) -> Array:
    try:
        matrix = np.asarray(statistics)  # no copy of an array: never written to
    except ValueError:
        matrix = np.array([], dtype=object)
    if matrix.ndim != 2 or matrix.shape[1] != metric.width or matrix.dtype.kind not in "iuf":
        raise ValueError(
            f"{where}: expected one row of {metric.width} numbers per segment for {metric.name}"
        )
    if matrix.shape[0] == 0:
        raise ValueError(f"{where}: no segments")
    if matrix.dtype.kind == "f" and not bool(np.isfinite(matrix).all()):
        raise ValueError(f"{where}: statistics must be finite numbers")
    if matrix.dtype.kind == "u":
        matrix = matrix.astype(np.int64)
    return matrix


def _totals(matrix: Array) -> list[int | float]:
    """sacreBLEU's ``sum_of_lists``: integers exactly, floats added in segment order."""
    if matrix.dtype.kind == "f":
        result: list[int | float] = np.cumsum(matrix, axis=0)[-1].tolist()
        return result
    if len(matrix) * float(np.abs(matrix).max(initial=0)) < 2.0**63:
        return [int(v) for v in matrix.sum(axis=0)]
    return [int(v) for v in matrix.sum(axis=0, dtype=object)]


def _prepare(tables: Sequence[Table]) -> list[list[_Series]]:
    """Each table's series, one per system: checked, each system's score computed; every
    table of the same systems (their count), every series of the same segments."""
    if not tables:
        raise ValueError("tables: at least one metric's statistics expected")
    prepared: list[list[_Series]] = []
    segments = -1
    for t, table in enumerate(tables):
        if len(table.statistics) < 2:
            raise ValueError(
                f"tables[{t}] ({table.metric.name}): the baseline and at least one system "
                f"expected, got {len(table.statistics)} system(s)"
            )
        row = []
        for s, stats in enumerate(table.statistics):
            matrix = _matrix(stats, table.metric, f"tables[{t}].statistics[{s}]")
            if segments < 0:
                segments = matrix.shape[0]
            elif matrix.shape[0] != segments:
                raise ValueError(
                    f"tables[{t}].statistics[{s}]: {matrix.shape[0]} segments, "
                    f"expected {segments} (as tables[0].statistics[0])"
                )
            row.append(_Series(table.metric, matrix, table.metric.score(_totals(matrix))))
        prepared.append(row)
    if any(len(row) != len(prepared[0]) for row in prepared):
        raise ValueError("tables: every metric needs the statistics of the same systems")
    return prepared


def _single(metric: Metric, statistics: Statistics) -> _Series:
    matrix = _matrix(statistics, metric, "statistics")
    return _Series(metric, matrix, metric.score(_totals(matrix)))


# --- the rules: p-values and intervals -------------------------------------------------------


def p_value(stats: Array, real_difference: float) -> float:
    """sacreBLEU's ``_compute_p_value``: ``(1 + #{stats > real_difference}) / (len + 1)``
    (numpy's comparison: a float32 array meets the difference rounded to float32)."""
    count: int = np.sum(stats > real_difference).item()
    return (count + 1) / (len(stats) + 1)


def estimate_ci(scores: Array) -> tuple[float, float]:
    """sacreBLEU's ``significance.estimate_ci``: the mean of the sorted scores (numpy's) and
    half the distance between the scores at ``n // 40`` and ``n - n // 40 - 1``."""
    ordered = np.sort(scores)
    n = len(ordered)
    lower_idx = n // 40
    upper_idx = n - lower_idx - 1
    ci = 0.5 * (ordered[upper_idx] - ordered[lower_idx])
    return float(ordered.mean()), float(ci)


def score_estimate_ci(scores: Array) -> tuple[float, float]:
    """sacreBLEU's ``Score.estimate_ci`` (``--confidence``): ``sorted`` and
    ``statistics.mean`` over the scores as the scalars sacreBLEU holds (numpy float32 for a
    float32 array), half the distance between the same order statistics."""
    raw = sorted(list(scores) if scores.dtype == np.float32 else scores.tolist())
    n = len(raw)
    lower_idx = n // 40
    upper_idx = n - lower_idx - 1
    ci = 0.5 * (raw[upper_idx] - raw[lower_idx])
    return float(pystatistics.mean(raw)), float(ci)


# --- resampling ------------------------------------------------------------------------------


def _block_rows(segments: int, multiple: int = 1) -> int:
    rows = max(1, _BLOCK_ENTRIES // segments)
    return max(multiple, rows // multiple * multiple)


def _blocks(samples: int, rows: int) -> Iterator[int]:
    done = 0
    while done < samples:
        size = min(rows, samples - done)
        yield size
        done += size


def _dyadic_limit(columns: Array, digits: int) -> Array:
    """Per column, the largest total up to which any sum of its values (each used any number
    of times) is exact in a float of ``digits`` significand bits: the values must be
    non-negative multiples of one power of two, 2**-m, and the total at most 2**(digits - m);
    -1 when they are not."""
    limits = np.full(columns.shape[1], -1.0)
    for c in range(columns.shape[1]):
        col = columns[:, c].astype(np.float64)
        if bool((col < 0).any()):
            continue
        for m in range(digits + 1):
            scaled = np.ldexp(col, m)
            if bool((scaled == np.floor(scaled)).all()):
                limits[c] = math.ldexp(1.0, digits - m)
                break
    return limits


def _product_type(limits: Array, digits: int, bound: Array) -> type[np.floating[Any]]:
    """float32 for matrix products of small counts with integer columns (their
    :func:`_dyadic_limit` is ``2**digits``) whose results stay within ``bound`` <= 2**24
    (then float32 adds exactly in any order), else float64."""
    integral = bool((limits == 2.0**digits).all())
    small = bool((bound <= 2.0**_FLOAT32_DIGITS).all())
    return np.float32 if integral and small else np.float64


class _Resampler:
    """Sums of bootstrap resamples of the columns of several series at once: one matrix
    product of the draw counts with all columns, exact, then float32 in sacreBLEU mode (or a
    sequential sum where the product is not provably the sequential sum)."""

    def __init__(self, series: Sequence[_Series], arithmetic: Arithmetic) -> None:
        self.series = series
        self.float32 = arithmetic == "sacrebleu"
        self.dtype = np.float32 if self.float32 else np.float64
        widths = [s.matrix.shape[1] for s in series]
        bounds = np.cumsum([0, *widths]).tolist()
        self.slices = [slice(a, b) for a, b in pairwise(bounds)]
        # N x C, the values sacreBLEU sums (numpy rounds int64 and float64 to float32 as it
        # does the Python numbers of its lists)
        self.columns = np.empty((len(series[0].matrix), bounds[-1]), self.dtype)
        for one, cols in zip(series, self.slices, strict=True):
            self.columns[:, cols] = one.matrix
        digits = _FLOAT32_DIGITS if self.float32 else _FLOAT64_DIGITS
        self.limits = _dyadic_limit(self.columns, digits)
        most = len(self.columns) * np.abs(self.columns).max(axis=0).astype(np.float64)
        self.product = _product_type(self.limits, digits, most)
        self.wide = self.columns.astype(self.product, copy=False)
        self.always_exact = bool(((self.limits >= 0) & (most <= self.limits)).all())

    def _counts(self, rng: np.random.Generator, rows: int) -> Array:
        """How often each segment is drawn in each of ``rows`` resamples (drawn in calls of
        at most _BLOCK_ENTRIES indices)."""
        segments = self.columns.shape[0]
        counts = np.empty((rows, segments), self.product)
        for start in range(0, rows, _block_rows(segments)):
            part = min(_block_rows(segments), rows - start)
            idx = rng.choice(segments, size=(part, segments), replace=True)
            flat = (idx + (np.arange(part) * segments)[:, None]).ravel()
            counts[start : start + part] = np.bincount(flat, minlength=part * segments).reshape(
                part, segments
            )
        return counts

    def sums(self, idx: Array) -> Array:
        """The summed statistics of each resample (row of ``idx``), in ``self.dtype``."""
        rows, segments = idx.shape
        flat = (idx + (np.arange(rows) * segments)[:, None]).ravel()
        counts = np.bincount(flat, minlength=rows * segments).reshape(rows, segments)
        exact = (counts.astype(self.product) @ self.wide).astype(np.float64)
        out = exact.astype(self.dtype)
        inexact = exact > self.limits
        for c in np.flatnonzero(inexact.any(axis=0)):
            bad = np.flatnonzero(inexact[:, c])
            drawn = np.take(self.columns[:, c], idx[bad])
            out[bad, c] = np.cumsum(drawn, axis=1, dtype=self.dtype)[:, -1]
        return out

    def scores(
        self, rng: np.random.Generator, samples: int, progress: Progress = no_progress
    ) -> list[Array]:
        """Each series' scores over ``samples`` resamples drawn as
        ``rng.choice(N, (samples, N), replace=True)`` (block by block: the same stream;
        ``progress(rows)`` after each block). When every sum is provably exact, the counts of
        many blocks go into one product and the indices are not kept."""
        segments = self.columns.shape[0]
        out: list[list[Array]] = [[] for _ in self.series]
        rows = max(1, _PRODUCT_ENTRIES // segments)
        for size in _blocks(samples, rows):
            if self.always_exact:
                exact = self._counts(rng, size) @ self.wide
                self._score(exact.astype(self.dtype), out)
            else:
                idx = rng.choice(segments, size=(size, segments), replace=True)
                self._score(self.sums(idx), out)
            progress(size)
        return [np.concatenate(parts) for parts in out]

    def _score(self, sums: Array, out: list[list[Array]]) -> None:
        for s, (series, cols) in enumerate(zip(self.series, self.slices, strict=True)):
            out[s].append(series.metric.scores(sums[:, cols]))


def _rng(seed: int | None) -> np.random.Generator:
    return np.random.default_rng(seed)


@_one_blas_thread
def bootstrap_resample(
    metric: Metric,
    statistics: Statistics,
    *,
    samples: int = 1000,
    seed: int | None = DEFAULT_SEED,
    arithmetic: Arithmetic = "native",
    progress: Progress = no_progress,
) -> Array:
    """The scores of ``samples`` bootstrap resamples of one system (sacreBLEU's
    ``_bootstrap_resample``: a fresh generator, one ``choice`` of all indices), as the array
    sacreBLEU makes of them (float32 for chrF and TER in sacreBLEU mode); ``progress(n)``
    after each block of ``n`` resamples."""
    _check_count(samples, "samples", 1)
    _check_seed(seed)
    _check_arithmetic(arithmetic)
    series = _single(metric, statistics)
    return _Resampler([series], arithmetic).scores(_rng(seed), samples, progress)[0]


@_one_blas_thread
def bootstrap_confidence(
    metric: Metric,
    statistics: Statistics,
    *,
    samples: int = 1000,
    seed: int | None = DEFAULT_SEED,
    arithmetic: Arithmetic = "native",
    progress: Progress = no_progress,
) -> Result:
    """One system's score with the bootstrap mean and half width of ``--confidence``
    (``corpus_score(n_bootstrap=samples)``: :func:`bootstrap_resample`, then
    :func:`score_estimate_ci`)."""
    scores = bootstrap_resample(
        metric, statistics, samples=samples, seed=seed, arithmetic=arithmetic, progress=progress
    )
    mean, ci = score_estimate_ci(scores)
    return Result(_single(metric, statistics).score, mean=mean, ci=ci)


def _comparisons(systems: int, seed: int | None) -> list[tuple[np.random.Generator, list[int]]]:
    """The generators of the comparisons and the systems each serves: with a seed every
    comparison draws the same numbers (one generator for all); without, one each."""
    if seed is None:
        return [(_rng(None), [i]) for i in range(1, systems)]
    return [(_rng(seed), list(range(1, systems)))]


def _bootstrap_p(baseline: Array, system: Array, difference: float) -> float:
    sample_diffs = np.abs(system - baseline)
    stats = sample_diffs - sample_diffs.mean()
    return p_value(stats, difference)


@_one_blas_thread
def paired_bootstrap(
    tables: Sequence[Table],
    *,
    samples: int = 1000,
    seed: int | None = DEFAULT_SEED,
    arithmetic: Arithmetic = "native",
    progress: Progress = no_progress,
) -> list[list[Result]]:
    """Paired bootstrap resampling of each system against the baseline, for each metric:
    ``result[t][s]`` for ``tables[t]`` and its system ``s`` (0: the baseline, with its score,
    mean and half width; the others with their p-values too), as sacreBLEU's ``PairedTest``
    with ``test_type="bs"``. ``progress(n)`` after each block of ``n`` resamples
    (:func:`paired_draws` in all)."""
    _check_count(samples, "samples", 1)
    _check_seed(seed)
    _check_arithmetic(arithmetic)
    prepared = _prepare(tables)
    systems = len(prepared[0])
    results: list[list[Result | None]] = [[None] * systems for _ in prepared]
    if seed is None:  # the baseline's interval from its own draw
        base = _Resampler([row[0] for row in prepared], arithmetic).scores(
            _rng(None), samples, progress
        )
        for t, row in enumerate(prepared):
            results[t][0] = Result(row[0].score, None, *estimate_ci(base[t]))
    for rng, members in _comparisons(systems, seed):
        series = [row[i] for row in prepared for i in [0, *members]]
        scores = iter(_Resampler(series, arithmetic).scores(rng, samples, progress))
        for t, row in enumerate(prepared):
            base_scores = next(scores)
            if seed is not None:  # the same draw as sacreBLEU's _bootstrap_resample
                results[t][0] = Result(row[0].score, None, *estimate_ci(base_scores))
            for i in members:
                own = next(scores)
                difference = abs(row[0].score - row[i].score)
                p = _bootstrap_p(base_scores, own, difference)
                results[t][i] = Result(row[i].score, p, *estimate_ci(own))
    return [[r for r in row if r is not None] for row in results]


class _Randomizer:
    """AR trial sums for several (baseline, system) pairs at once: with the mask ``P`` of a
    trial, ``a = P @ bl + ~P @ sys = P @ (bl - sys) + sum(sys)`` and
    ``b = sum(bl) + sum(sys) - a``, one matrix product for all pairs (exact: integers, or
    multiples of one power of two, below 2**53). Columns where that is not exact (TER's
    average reference lengths of three references, say) are added as sacreBLEU adds them
    (its own products over the whole mask) or, natively, in segment order."""

    def __init__(self, pairs: Sequence[tuple[_Series, _Series]], arithmetic: Arithmetic) -> None:
        self.pairs = pairs
        self.native = arithmetic == "native"
        diffs, bases, systems, exact, scales = [], [], [], [], []
        for base, system in pairs:
            bl, sy = base.matrix.astype(np.float64), system.matrix.astype(np.float64)
            diffs.append(bl - sy)
            bases.append(bl.sum(axis=0))
            systems.append(sy.sum(axis=0))
            both = np.abs(np.concatenate([bl, sy], axis=0))
            limits = _dyadic_limit(both, _FLOAT64_DIGITS)
            exact.append((limits >= 0) & (both.sum(axis=0) <= limits))
            scales.append(limits)
        self.diffs = np.concatenate(diffs, axis=1)
        self.base_totals = np.concatenate(bases)
        self.system_totals = np.concatenate(systems)
        self.exact = np.concatenate(exact)
        bound = np.concatenate(
            [np.abs(b.matrix).sum(0) + np.abs(s.matrix).sum(0) for b, s in pairs]
        )
        self.product = _product_type(np.concatenate(scales), _FLOAT64_DIGITS, bound)
        self.narrow = self.diffs.astype(self.product)
        bounds = np.cumsum([0] + [b.matrix.shape[1] for b, _ in pairs])
        self.slices = [slice(a, b) for a, b in pairwise(bounds.tolist())]

    @property
    def literal(self) -> bool:
        """Whether sacreBLEU's own products over the whole mask are needed."""
        return not self.native and not bool(self.exact.all())

    def _rows(self, values: Array, pair: int) -> Array:
        if self.native:
            return values
        return values.astype(np.int64) if self.pairs[pair][0].matrix.dtype.kind in "iu" else values

    def differences(self, mask: Array) -> list[Array]:
        """``|score(a) - score(b)|`` of each pair over the trials of ``mask`` (the whole
        mask when :attr:`literal`)."""
        a = (mask.astype(self.product) @ self.narrow).astype(np.float64) + self.system_totals
        b = self.base_totals + self.system_totals - a
        for p, cols in enumerate(self.slices):
            inexact = np.flatnonzero(~self.exact[cols])
            if not len(inexact):
                continue
            bl, sy = self.pairs[p][0].matrix, self.pairs[p][1].matrix
            if self.native:
                for c in inexact:
                    a[:, cols.start + c] = np.cumsum(np.where(mask, bl[:, c], sy[:, c]), axis=1)[
                        :, -1
                    ]
                    b[:, cols.start + c] = np.cumsum(np.where(mask, sy[:, c], bl[:, c]), axis=1)[
                        :, -1
                    ]
            else:  # sacreBLEU: shuf_a = pos_sel @ bl + neg_sel @ sys, and shuf_b
                neg = ~mask
                full_a = mask @ bl + neg @ sy
                full_b = neg @ bl + mask @ sy
                a[:, cols.start + inexact] = full_a[:, inexact]
                b[:, cols.start + inexact] = full_b[:, inexact]
        out = []
        for p, cols in enumerate(self.slices):
            metric = self.pairs[p][0].metric
            scores_a = metric.scores(self._rows(a[:, cols], p))
            scores_b = metric.scores(self._rows(b[:, cols], p))
            out.append(np.abs(scores_a - scores_b))
        return out


def _ar_counts(
    pairs: Sequence[tuple[_Series, _Series]],
    rng: np.random.Generator,
    trials: int,
    arithmetic: Arithmetic,
    progress: Progress = no_progress,
) -> list[int]:
    """Each pair's count of AR trials whose difference exceeds its observed one, every pair
    over the same masks (``rng.integers(2, size=(trials, N), dtype=bool)``, in blocks)."""
    segments = pairs[0][0].matrix.shape[0]
    randomizer = _Randomizer(pairs, arithmetic)
    counts = [0] * len(pairs)
    rows = trials if randomizer.literal else _block_rows(segments, _MASK_WORD)
    for size in _blocks(trials, rows):
        mask = rng.integers(2, size=(size, segments), dtype=bool)
        for p, diffs in enumerate(randomizer.differences(mask)):
            difference = abs(pairs[p][0].score - pairs[p][1].score)
            counts[p] += int(np.sum(diffs > difference))
        progress(size)
    return counts


@_one_blas_thread
def paired_approximate_randomization(
    tables: Sequence[Table],
    *,
    trials: int = 10000,
    confidence: int = 0,
    seed: int | None = DEFAULT_SEED,
    arithmetic: Arithmetic = "native",
    progress: Progress = no_progress,
) -> list[list[Result]]:
    """Paired approximate randomization of each system against the baseline, for each
    metric: ``result[t][s]`` as :func:`paired_bootstrap`'s, as sacreBLEU's ``PairedTest``
    with ``test_type="ar"``; with ``confidence`` resamples (sacreBLEU's
    ``n_ar_confidence``; 0: none) the bootstrap mean and half width too. ``progress(n)``
    after each block of ``n`` trials or resamples (:func:`paired_draws` in all)."""
    _check_count(trials, "trials", 1)
    _check_count(confidence, "confidence", 0)
    _check_seed(seed)
    _check_arithmetic(arithmetic)
    prepared = _prepare(tables)
    systems = len(prepared[0])
    results: list[list[Result | None]] = [[None] * systems for _ in prepared]
    base_ci: list[tuple[float | None, float | None]] = [(None, None)] * len(prepared)
    if confidence > 0:  # the baseline's interval: PairedTest's own _bootstrap_resample
        drawn = _Resampler([row[0] for row in prepared], arithmetic).scores(
            _rng(seed), confidence, progress
        )
        base_ci = [estimate_ci(scores) for scores in drawn]
    for t, row in enumerate(prepared):
        results[t][0] = Result(row[0].score, None, *base_ci[t])
    for rng, members in _comparisons(systems, seed):
        pairs = [(row[0], row[i]) for row in prepared for i in members]
        counts = _ar_counts(pairs, rng, trials, arithmetic, progress)
        intervals: list[tuple[float | None, float | None]] = [(None, None)] * len(pairs)
        if confidence > 0:
            own = _Resampler([pair[1] for pair in pairs], arithmetic).scores(
                rng, confidence, progress
            )
            intervals = [estimate_ci(scores) for scores in own]
        p = 0
        for t, row in enumerate(prepared):
            for i in members:
                results[t][i] = Result(row[i].score, (counts[p] + 1) / (trials + 1), *intervals[p])
                p += 1
    return [[r for r in row if r is not None] for row in results]


# --- rankings: all pairs, clusters and rank ranges -------------------------------------------

THRESHOLD = 0.05
"""A p-value at most this marks a significant difference (sacreBLEU's ``*``)."""
DEFAULT_RANK_SAMPLES = {"bootstrap": 1000, "ar": 10000}
"""sacreBLEU's defaults: ``--paired-bs-n`` 1000, ``--paired-ar-n`` 10000."""


@dataclass(frozen=True, slots=True)
class Pair:
    """The paired test of systems ``first`` and ``second`` (their indices, ``first`` the
    smaller): ``delta`` is ``score(second) - score(first)``, ``better`` the index of the
    better score in the metric's direction (None when the scores are equal), ``significant``
    whether that one is significantly better (p <= the threshold), ``agreement`` Kocmi et
    al.'s estimated accuracy in percent of ``|delta|`` (None where they fitted no curve:
    :func:`mtcompute.metrics.agreement.human_agreement`)."""

    first: int
    second: int
    delta: float
    p_value: float
    better: int | None
    significant: bool
    agreement: float | None


@dataclass(frozen=True, slots=True)
class Ranked:
    """One system in a ranking: its index among the systems given, its score, its rank range
    (``top`` = 1 + the systems significantly better than it; ``bottom`` = the number of
    systems minus those it is significantly better than) and its cluster (1: the best)."""

    system: int
    score: float
    top: int
    bottom: int
    cluster: int

    @property
    def rank(self) -> str:
        """The rank range as WMT's findings print it: ``3``, or ``1-2``."""
        return str(self.top) if self.top == self.bottom else f"{self.top}-{self.bottom}"


@dataclass(frozen=True, slots=True)
class Ranking:
    """All-pairs significance of N systems on one metric: ``systems`` best first (the
    metric's direction; equal scores in the order given), ``pairs`` every pair ``i < j`` in
    the order ``(0, 1), (0, 2), ..., (1, 2), ...``."""

    metric: str
    lower_is_better: bool
    method: str
    samples: int
    seed: int | None
    threshold: float
    systems: tuple[Ranked, ...]
    pairs: tuple[Pair, ...]

    def pair(self, i: int, j: int) -> Pair:
        """The test of systems ``i`` and ``j`` (either order)."""
        first, second = min(i, j), max(i, j)
        count = len(self.systems)
        return self.pairs[first * (2 * count - first - 1) // 2 + second - first - 1]


def clusters(order: Sequence[int], beats: Callable[[int, int], bool]) -> list[int]:
    """The cluster (1, 2, ...) of each position of ``order`` (systems best first), as WMT's
    findings group systems: contiguous runs of the order such that every system of a cluster
    is significantly better (``beats(a, b)``) than every system of every lower cluster, as
    many clusters as that allows. A cluster ends after position ``k`` exactly when each
    system at or above ``k`` beats each system below it."""
    found = []
    cluster = 1
    for k in range(len(order)):
        found.append(cluster)
        above, below = order[: k + 1], order[k + 1 :]
        if below and all(beats(a, b) for a in above for b in below):
            cluster += 1
    return found


def _pair_p_values(
    series: Sequence[_Series],
    method: str,
    samples: int,
    seed: int | None,
    arithmetic: Arithmetic,
    progress: Progress,
) -> dict[tuple[int, int], float]:
    """Each pair's p-value, every pair over the same random draws: one bootstrap of all the
    systems (paired_bootstrap's rule on each pair of their resampled scores), or the same AR
    masks for every pair (a generator of ``seed`` per first system)."""
    count = len(series)
    found: dict[tuple[int, int], float] = {}
    if method == "bootstrap":
        scores = _Resampler(series, arithmetic).scores(_rng(seed), samples, progress)
        for i in range(count):
            for j in range(i + 1, count):
                difference = abs(series[i].score - series[j].score)
                found[i, j] = _bootstrap_p(scores[i], scores[j], difference)
        return found
    for i in range(count - 1):
        pairs = [(series[i], series[j]) for j in range(i + 1, count)]
        counts = _ar_counts(pairs, _rng(seed), samples, arithmetic, progress)
        for j, n in enumerate(counts, start=i + 1):
            found[i, j] = (n + 1) / (samples + 1)
    return found


@_one_blas_thread
def rank_systems(
    metric: Metric,
    statistics: Sequence[Statistics],
    *,
    method: Literal["bootstrap", "ar"] = "bootstrap",
    samples: int | None = None,
    seed: int | None = DEFAULT_SEED,
    arithmetic: Arithmetic = "native",
    threshold: float = THRESHOLD,
    progress: Progress = no_progress,
) -> Ranking:
    """All-pairs paired tests of N >= 2 systems' per-segment ``statistics`` on ``metric``,
    their clusters and rank ranges as WMT's findings give them (:func:`clusters`, and
    :class:`Ranked`), each pair with Kocmi et al.'s estimated agreement with humans.

    ``method`` ``"bootstrap"``: paired bootstrap resampling, ``samples`` resamples (default
    1000) of all systems at once, so a pair with system 0 has :func:`paired_bootstrap`'s
    p-value with system 0 as the baseline; ``"ar"``: approximate randomization, ``samples``
    trials (default 10000), the same masks for every pair. With a seed the ranking is the
    same at every run. A system is significantly better than another when its score is
    better in the metric's direction (``metric.lower_is_better``) and p <= ``threshold``.
    ``progress(n)`` after each block of ``n`` resamples or trials (:func:`rank_draws` in
    all)."""
    if method not in ("bootstrap", "ar"):
        raise ValueError(f"method must be one of ['bootstrap', 'ar'], got {method!r}")
    count = DEFAULT_RANK_SAMPLES[method] if samples is None else samples
    _check_count(count, "samples", 1)
    _check_seed(seed)
    _check_arithmetic(arithmetic)
    if isinstance(threshold, bool) or not isinstance(threshold, float | int):
        raise ValueError(f"threshold must be a number, got {threshold!r}")
    (series,) = _prepare([Table(metric, statistics)])
    lower = bool(metric.lower_is_better)
    sign = -1.0 if lower else 1.0
    p_values = _pair_p_values(series, method, count, seed, arithmetic, progress)
    pairs = []
    wins: set[tuple[int, int]] = set()
    for (i, j), p in p_values.items():
        delta = series[j].score - series[i].score
        better = None if delta == 0 else (j if sign * delta > 0 else i)
        significant = better is not None and p <= threshold
        if significant:
            wins.add((i, j) if better == i else (j, i))
        pairs.append(Pair(i, j, delta, p, better, significant, human_agreement(metric.name, delta)))
    order = sorted(range(len(series)), key=lambda s: (-sign * series[s].score, s))
    found = clusters(order, lambda a, b: (a, b) in wins)
    ranked = tuple(
        Ranked(
            system=s,
            score=series[s].score,
            top=1 + sum((o, s) in wins for o in order),
            bottom=len(order) - sum((s, o) in wins for o in order),
            cluster=cluster,
        )
        for s, cluster in zip(order, found, strict=True)
    )
    return Ranking(metric.name, lower, method, count, seed, float(threshold), ranked, tuple(pairs))
