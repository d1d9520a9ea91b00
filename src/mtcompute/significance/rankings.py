"""Rankings of N systems: all pairs tested on the same draws, clusters as the WMT findings
group systems (each system of a cluster significantly better than every system of every
lower cluster), rank ranges, and for each pair Kocmi et al.'s (2024) estimated accuracy of
agreeing with human judgement (:mod:`mtcompute.metrics.agreement`)."""

from __future__ import annotations

__all__ = [
    "DEFAULT_RANK_SAMPLES",
    "THRESHOLD",
    "Pair",
    "Ranked",
    "Ranking",
    "clusters",
    "rank_systems",
]

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from mtcompute.metrics import DEFAULT_SEED
from mtcompute.metrics._resample import Metric
from mtcompute.metrics.agreement import human_agreement
from mtcompute.significance._core import (
    Arithmetic,
    Progress,
    Statistics,
    Table,
    _ar_counts,
    _bootstrap_p,
    _check_draws,
    _one_blas_thread,
    _prepare,
    _Resampler,
    _rng,
    _Series,
    no_progress,
)

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
    _check_draws({"samples": (count, 1)}, seed, arithmetic)
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
        agreement = human_agreement(metric.curve, delta)
        pairs.append(Pair(i, j, delta, p, better, significant, agreement))
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
