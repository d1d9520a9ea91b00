"""The paired tests and intervals themselves (re-exported by :mod:`mtcompute.significance`,
whose docstring tells the draws, the two arithmetic modes and the BLAS threads)."""

from __future__ import annotations

__all__ = [
    "ARITHMETICS",
    "DEFAULT_SEED",
    "Arithmetic",
    "BleuMetric",
    "Metric",
    "Progress",
    "Result",
    "Table",
    "TerMetric",
    "bootstrap_confidence",
    "bootstrap_resample",
    "estimate_ci",
    "no_progress",
    "p_value",
    "paired_approximate_randomization",
    "paired_bootstrap",
    "paired_draws",
    "rank_draws",
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


def _check_draws(counts: dict[str, tuple[object, int]], seed: object, arithmetic: object) -> None:
    """The arguments every test and resampler takes, in this order: each count (``name:
    (value, minimum)``), the seed, the arithmetic."""
    for name, (value, minimum) in counts.items():
        _check_count(value, name, minimum)
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or seed < 0):
        raise ValueError(f"seed must be a non-negative integer or None, got {seed!r}")
    if arithmetic not in ARITHMETICS:
        raise ValueError(f"arithmetic must be one of {list(ARITHMETICS)}, got {arithmetic!r}")


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
    _check_draws({"samples": (samples, 1)}, seed, arithmetic)
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
    _check_draws({"samples": (samples, 1)}, seed, arithmetic)
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
    _check_draws({"trials": (trials, 1), "confidence": (confidence, 0)}, seed, arithmetic)
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
