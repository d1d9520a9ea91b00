"""sacreBLEU 2.6.0's ``significance.py``: :class:`PairedTest` (paired bootstrap resampling,
Koehn 2004 §4, and approximate randomization, Riezler & Maxwell 2005 §3), :class:`Result`,
``estimate_ci``, ``_bootstrap_resample`` and ``_compute_p_value``, as a thin facade over
:mod:`mtcompute.significance` in its bit-exact ``"sacrebleu"`` arithmetic: the same random
draws, float32 sums and formulas, hence the same p-values, means and intervals, float for
float. No resampling is done here.

``SACREBLEU_SEED`` is read as sacreBLEU reads it, when a :class:`PairedTest` is built (and
when ``corpus_score(..., n_bootstrap=N)`` resamples): unset means 12345, ``none`` in any case
means unseeded (fresh entropy for each comparison), anything else goes through ``int()``.
One difference, on purpose: ``SACREBLEU_SEED=0`` seeds with 0 here, where sacreBLEU prints
``seed:0`` in the signature but runs its comparisons unseeded (``seed if seed else None``).
A value ``int()`` refuses or a negative one raises :class:`ArgumentError` naming the
variable (sacreBLEU: ``ValueError`` from ``int()`` or from numpy).

Also different: the comparisons run in this process whatever ``n_jobs`` says (the results
are the same; a negative ``n_jobs``, which sacreBLEU's process pool refuses, is refused), and
the numbers held by :class:`Result` are Python floats where sacreBLEU holds numpy scalars (the
same values: the float32 means and half widths of chrF and TER as exact Python floats), so
that ``json.dumps`` of a result's ``__dict__`` works where sacreBLEU's raises ``TypeError``.

A metric on sacreBLEU's path (a subclass with its own hooks, settings the kernel does not
take: :mod:`mtcompute.sacrebleu.metrics.base`) resamples with its own
``_compute_score_from_stats``, as sacreBLEU's tests do. BLEU and chrF on the kernel's path
against the constructor's references are read as the kernel's rows (the same statistics,
no list per segment); the others through ``_extract_corpus_statistics``.
"""

from __future__ import annotations

__all__ = [
    "PairedTest",
    "Result",
    "estimate_ci",
    "read_seed",
    "significance_metric",
]

from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

try:
    import numpy as np
    import numpy.typing as npt
except ImportError as missing:  # the optional extra: say which to install
    raise ImportError(
        "mtcompute.sacrebleu.significance needs numpy (not installed): "
        "pip install 'mtcompute[significance]'",
        name=missing.name,
    ) from missing

from mtcompute import significance
from mtcompute.sacrebleu._errors import ArgumentError
from mtcompute.sacrebleu._paired import (
    Result,
    log_computing,
    log_precomputing,
    log_test,
    log_workers,
    rows_reader,
    workers,
)
from mtcompute.sacrebleu._seed import read_seed
from mtcompute.sacrebleu.metrics.base import Metric, Score, Signature
from mtcompute.sacrebleu.utils import sum_of_lists

ARITHMETIC: significance.Arithmetic = "sacrebleu"


class _HookedMetric:
    """The :mod:`mtcompute.significance` metric of a metric on sacreBLEU's path (a subclass
    with its own hooks, settings the kernel does not take): each row of summed statistics
    scored by the metric's own ``_compute_score_from_stats``, as sacreBLEU's tests score it."""

    def __init__(self, metric: Metric[Any], statistics: Sequence[Sequence[Any]]) -> None:
        self._metric = metric
        self.name: str = metric._aggregate_and_compute(statistics).name
        self.curve = self.name  # sacreBLEU's tests estimate no human agreement
        self.width = len(statistics[0])
        self.lower_is_better = self.name == "TER"  # an error rate

    def score(self, totals: Sequence[int | float]) -> float:
        return float(self._metric._compute_score_from_stats(list(totals)).score)

    def scores(self, sums: npt.NDArray[Any]) -> npt.NDArray[Any]:
        return np.array([self._metric._compute_score_from_stats(row).score for row in sums])


def significance_metric(
    metric: Metric[Any], statistics: Sequence[Sequence[Any]] | None = None
) -> significance.Metric:
    """The :mod:`mtcompute.significance` metric that scores ``metric``'s summed statistics
    (``statistics``, a system's, when the metric is on sacreBLEU's path: its own scoring)."""
    if not isinstance(metric, Metric):
        raise TypeError(
            f"expected a BLEU, CHRF or TER of mtcompute.sacrebleu, got {type(metric).__name__}"
        )
    if statistics is not None and not metric._fast():
        return _HookedMetric(metric, statistics)
    return metric._significance_metric()


RowsReader = Callable[[Sequence[str]], tuple[list[int], npt.NDArray[np.int64]]]


def _rows_reader(metric: Metric[Any], references: object) -> RowsReader | None:
    """:func:`mtcompute.sacrebleu._paired.rows_reader`, its rows as a matrix over the kernel's
    int64 buffer (``None`` for a metric it does not read)."""
    read = rows_reader(metric, references)
    if read is None:
        return None
    width = metric._significance_metric().width

    def rows(hypotheses: Sequence[str]) -> tuple[list[int], npt.NDArray[np.int64]]:
        totals, buffer = read(hypotheses)
        return totals, np.frombuffer(buffer, dtype=np.int64).reshape(-1, width)

    return rows


def _result(result: significance.Result) -> Result:
    return Result(result.score, result.p_value, result.mean, result.ci)


def estimate_ci(scores: npt.ArrayLike) -> tuple[float, float]:
    """sacreBLEU's ``estimate_ci``: the mean of the scores and half the distance between the
    1/40 and 39/40 order statistics (:func:`mtcompute.significance.estimate_ci`)."""
    return significance.estimate_ci(np.asarray(scores))


def _compute_p_value(stats: npt.ArrayLike, real_difference: float) -> float:
    """sacreBLEU's ``_compute_p_value``: ``(1 + #{stats > real_difference}) / (len + 1)``."""
    return significance.p_value(np.asarray(stats), real_difference)


def _bootstrap_resample(
    stats: Sequence[Sequence[int | float]], metric: Metric[Any], n_samples: int = 1000
) -> tuple[str, list[Score]]:
    """sacreBLEU's ``_bootstrap_resample``: ``SACREBLEU_SEED``'s text (lowercased) and the
    scores of ``n_samples`` bootstrap resamples of one system's segment statistics (as plain
    :class:`Score` objects named after the metric)."""
    text, seed = read_seed()
    name = metric._aggregate_and_compute(stats).name
    scores = significance.bootstrap_resample(
        significance_metric(metric, stats),
        stats,
        samples=n_samples,
        seed=seed,
        arithmetic=ARITHMETIC,
    )
    return text.lower(), [Score(name, value) for value in scores]  # numpy scalars, as sacreBLEU


class PairedTest:
    """sacreBLEU's ``PairedTest``: each system of ``named_systems`` (``(name, hypotheses)``,
    the first the baseline) compared with the baseline for each of ``metrics``, by
    approximate randomization (``test_type="ar"``, ``n_samples`` trials, 10000 when 0 or less)
    or paired bootstrap resampling (``"bs"``, 1000 resamples when 0 or less); with
    ``n_ar_confidence`` resamples (0: 1000; -1: none) the AR test estimates intervals too.
    Calling it returns the signatures and the columns of results, as sacreBLEU's."""

    _DEFAULT_SAMPLES: ClassVar[dict[str, int]] = {"ar": 10000, "bs": 1000}

    def __init__(
        self,
        named_systems: Sequence[tuple[str, Sequence[str]]],
        metrics: Mapping[str, Metric[Any]],
        references: Sequence[Sequence[str]] | None,
        test_type: str = "ar",
        n_samples: int = 0,
        n_ar_confidence: int = -1,
        n_jobs: int = 1,
    ) -> None:
        if test_type not in self._DEFAULT_SAMPLES:
            raise ArgumentError(f"PairedTest: Unknown test type {test_type!r}: use 'ar' or 'bs'.")
        if len(named_systems) == 0:
            raise ArgumentError("PairedTest: named_systems is empty: give the baseline first.")
        if n_jobs < 0:  # sacreBLEU's process pool raises ValueError when it is started
            raise ArgumentError(
                f"PairedTest: n_jobs should be at least 0 (0: one worker per system), got {n_jobs}."
            )
        self.test_type = test_type
        _, self._seed = read_seed()
        self.n_jobs = n_jobs
        self.references = references
        self.named_systems = list(named_systems)
        self.n_ar_confidence = n_ar_confidence if n_ar_confidence != 0 else 1000
        self.n_samples = n_samples if n_samples > 0 else self._DEFAULT_SAMPLES[test_type]
        self.n_systems = len(self.named_systems) - 1
        self.n_jobs = workers(self.n_jobs, self.n_systems)

        self._signatures: dict[str, Signature] = {}
        # each metric's baseline statistics (lists, or the kernel's rows) and score
        self._baseline_info: dict[str, tuple[Any, float]] = {}
        self.metrics: dict[str, Metric[Any]] = {}
        bl_name, bl_hyps = self.named_systems[0]
        for key, metric in metrics.items():
            log_precomputing(key, bl_name)
            rows = _rows_reader(metric, self.references)
            bl_stats: Any
            if rows is None:
                bl_stats = metric._extract_corpus_statistics(bl_hyps, self.references)
                bl_score = metric._aggregate_and_compute(bl_stats)
            else:  # the rows' totals are the lists' sums: _aggregate_and_compute's score
                totals, bl_stats = rows(bl_hyps)
                bl_score = metric._compute_score_from_stats(totals)
            self._baseline_info[bl_score.name] = (bl_stats, bl_score.score)
            self.metrics[bl_score.name] = metric
            sig = metric.get_signature()
            sig.update("seed", str(self._seed).lower())
            sig.update(self.test_type, self.n_samples)
            if self.n_ar_confidence > 0:
                sig.update("bs", self.n_ar_confidence)
            self._signatures[bl_score.name] = sig

    def __call__(self) -> tuple[dict[str, Signature], dict[str, list[Any]]]:
        """Run the test: ``(signatures, scores)``, ``scores["System"]`` the names and
        ``scores[metric name]`` a :class:`Result` per system, the baseline first."""
        scores: dict[str, list[Any]] = {"System": [name for name, _ in self.named_systems]}
        log_workers(self.n_jobs)
        statistics = {name: [bl_stats] for name, (bl_stats, _) in self._baseline_info.items()}
        # each metric's references prepared once (as the kernel's rows), not once a system
        readers = {name: _rows_reader(m, self.references) for name, m in self.metrics.items()}
        for sys_name, hyps in self.named_systems[1:]:  # sacreBLEU's order: system by system
            for name, metric in self.metrics.items():
                log_computing(name, sys_name)
                rows = readers[name]
                statistics[name].append(
                    rows(hyps)[1]
                    if rows
                    else metric._extract_corpus_statistics(hyps, self.references)
                )
                log_test(self.test_type, self.n_samples, self.n_ar_confidence)
        tables = [
            significance.Table(significance_metric(metric, statistics[name][0]), statistics[name])
            for name, metric in self.metrics.items()
        ]
        results = self._run(tables)
        for name, column in zip(self.metrics, results, strict=True):
            scores[name] = [_result(result) for result in column]
        return self._signatures, scores

    def _run(self, tables: list[significance.Table]) -> list[list[significance.Result]]:
        confidence = self.n_samples if self.test_type == "bs" else max(0, self.n_ar_confidence)
        if self.n_systems == 0:  # the baseline alone: its interval, if any
            return [[self._baseline(table, confidence)] for table in tables]
        if self.test_type == "bs":
            return significance.paired_bootstrap(
                tables, samples=self.n_samples, seed=self._seed, arithmetic=ARITHMETIC
            )
        return significance.paired_approximate_randomization(
            tables,
            trials=self.n_samples,
            confidence=confidence,
            seed=self._seed,
            arithmetic=ARITHMETIC,
        )

    def _baseline(self, table: significance.Table, confidence: int) -> significance.Result:
        statistics = table.statistics[0]
        listed = statistics.tolist() if isinstance(statistics, np.ndarray) else statistics
        score = table.metric.score(sum_of_lists(listed))
        if confidence <= 0:
            return significance.Result(score)
        drawn = significance.bootstrap_resample(
            table.metric, statistics, samples=confidence, seed=self._seed, arithmetic=ARITHMETIC
        )
        return significance.Result(score, None, *significance.estimate_ci(drawn))
