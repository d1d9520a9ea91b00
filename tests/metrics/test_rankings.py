"""Rankings of N systems (``mtcompute.significance.rank_systems``): a golden ranking of a WMT
language pair from the in-repo sample, the pairs' p-values against the one-baseline tests on
the same draws, the clusters' laws on generated relations and statistics, Kocmi et al.'s
accuracy against a hand computation, and WER's resampling against a direct computation on
the same resampled indices."""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from itertools import pairwise

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings

from mtcompute import significance as sg
from mtcompute.metrics.agreement import KOCMI_2024, human_agreement
from mtcompute.metrics.bleu.resample import BleuMetric
from mtcompute.metrics.bleu.score import BleuOptions
from mtcompute.metrics.chrf.resample import ChrfMetric
from mtcompute.metrics.wer.resample import WerMetric
from mtcompute.metrics.wer.text import WerOptions
from tests.conftest import WMT_IS_SAMPLE, wmt_lines
from tests.strategies import error_statistics, significance_relations

PROPERTY = settings(deadline=None, max_examples=60, suppress_health_check=[HealthCheck.too_slow])
PAIR = "generaltest2022/zh-en"
SYSTEMS = ["HuaweiTSC", "JDExploreAcademy", "NiuTrans", "Online-B"]


def _statistics(metric: sg.Metric) -> list[list[list[int]]]:
    refs = [[line] for line in wmt_lines(f"{PAIR}/ref.A.txt")][:200]
    hyps = [wmt_lines(f"{PAIR}/sys.{name}.txt")[:200] for name in SYSTEMS]
    return [metric.statistics(h, refs) for h in hyps]  # type: ignore[attr-defined]


def _table(ranking: sg.Ranking) -> list[tuple[str, str, int]]:
    return [(SYSTEMS[r.system], r.rank, r.cluster) for r in ranking.systems]


# --- a WMT language pair ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("metric", "expected"),
    [
        (
            sg.BleuMetric(),
            [
                ("JDExploreAcademy", "1", 1),
                ("Online-B", "2-3", 2),
                ("HuaweiTSC", "2-3", 2),
                ("NiuTrans", "4", 3),
            ],
        ),
        (
            WerMetric(),
            None,  # checked below: the direction of an error rate
        ),
    ],
    ids=["bleu", "wer"],
)
def test_zh_en_sample_ranking_is_fixed_by_the_seed(
    metric: sg.Metric, expected: list[tuple[str, str, int]] | None
) -> None:
    """zh-en's first 200 segments, seed 12345: BLEU's ranking is the one printed in the docs;
    WER ranks the lowest rate first; two runs give the same ranking."""
    statistics = _statistics(metric)
    first = sg.rank_systems(metric, statistics, seed=12345)
    assert first == sg.rank_systems(metric, statistics, seed=12345)
    if expected is not None:
        assert expected == _table(first)
    scores = [r.score for r in first.systems]
    assert scores == sorted(scores, reverse=not metric.lower_is_better)


def test_pairs_with_system_0_are_the_one_baseline_tests() -> None:
    """Each pair (0, j) has the p-value of paired_bootstrap and of
    paired_approximate_randomization with system 0 as the baseline (the same draws)."""
    metric = ChrfMetric()
    statistics = _statistics(metric)
    table = [sg.Table(metric, statistics)]
    bootstrap = sg.paired_bootstrap(table, samples=300, seed=7)[0]
    ar = sg.paired_approximate_randomization(table, trials=500, seed=7)[0]
    by_bs = sg.rank_systems(metric, statistics, samples=300, seed=7)
    by_ar = sg.rank_systems(metric, statistics, method="ar", samples=500, seed=7)
    assert [r.p_value for r in bootstrap[1:]] == [by_bs.pair(0, j).p_value for j in range(1, 4)]
    assert [r.p_value for r in ar[1:]] == [by_ar.pair(j, 0).p_value for j in range(1, 4)]


def test_pairs_hold_delta_direction_and_agreement() -> None:
    """A pair's delta is second minus first, the better is the higher BLEU, the agreement is
    Kocmi et al.'s of |delta|, and every pair appears once in order."""
    ranking = sg.rank_systems(sg.BleuMetric(), _statistics(sg.BleuMetric()), samples=200)
    score = {r.system: r.score for r in ranking.systems}
    assert [(p.first, p.second) for p in ranking.pairs] == [
        (i, j) for i in range(4) for j in range(i + 1, 4)
    ]
    for pair in ranking.pairs:
        delta = score[pair.second] - score[pair.first]
        better = pair.second if delta > 0 else pair.first
        assert (delta, better, human_agreement("BLEU", abs(delta))) == (
            pair.delta,
            pair.better,
            pair.agreement,
        )
        assert pair.significant == (pair.p_value <= 0.05)


@pytest.mark.skipif(WMT_IS_SAMPLE, reason="the docs' figures are on the full en-de data")
def test_full_en_de_clusters() -> None:
    """The full en-de data, chrF2, seed 12345: the clusters the docs print."""
    names = ["JDExploreAcademy", "Online-B", "Online-W", "OpenNMT", "PROMT"]
    refs = [[line] for line in wmt_lines("generaltest2022/en-de/ref.A.txt")]
    metric = ChrfMetric()
    stats = [
        metric.statistics(wmt_lines(f"generaltest2022/en-de/sys.{n}.txt"), refs) for n in names
    ]
    ranking = sg.rank_systems(metric, stats)
    assert [
        ("Online-B", "1", 1),
        ("JDExploreAcademy", "2-3", 2),
        ("Online-W", "2-3", 2),
        ("PROMT", "4", 3),
        ("OpenNMT", "5", 4),
    ] == [(names[r.system], r.rank, r.cluster) for r in ranking.systems]


# --- the laws of clusters and rank ranges ----------------------------------------------------


@PROPERTY
@given(significance_relations())
def test_clusters_are_wmts(relation: tuple[list[int], set[tuple[int, int]]]) -> None:
    """Clusters number 1, 2, ... down the order; every system beats every system of every
    lower cluster; and no finer split keeps that (inside a cluster, every cut has a system
    above it that does not beat one below it)."""
    order, wins = relation
    found = sg.clusters(order, lambda a, b: (a, b) in wins)
    assert found == sorted(found)
    assert found[0] == 1
    assert all(b - a in (0, 1) for a, b in pairwise(found))
    for x in range(len(order)):
        for y in range(x + 1, len(order)):
            if found[x] < found[y]:
                assert (order[x], order[y]) in wins
    for k in range(len(order) - 1):
        if found[k] == found[k + 1]:
            cut = [(a, b) for a in order[: k + 1] for b in order[k + 1 :]]
            assert not all(pair in wins for pair in cut)


@PROPERTY
@given(error_statistics())
def test_rankings_are_ordered_and_consistent(statistics: list[list[tuple[int, int]]]) -> None:
    """On generated WER statistics: systems come lowest rate first; each rank range holds
    the system's position; a significantly better system is above the other; systems of
    different clusters are significantly ordered; pairs agree with rank ranges."""
    ranking = sg.rank_systems(WerMetric(), statistics, samples=100, seed=3)
    systems = ranking.systems
    assert [r.score for r in systems] == sorted(r.score for r in systems)
    position = {r.system: k for k, r in enumerate(systems)}
    for k, r in enumerate(systems):
        assert r.top <= k + 1 <= r.bottom
    for pair in ranking.pairs:
        if pair.significant:
            assert pair.better is not None
            worse = pair.first if pair.better == pair.second else pair.second
            assert position[pair.better] < position[worse]
            assert ranking.pair(pair.better, worse) == pair
    for a in systems:
        for b in systems:
            if a.cluster < b.cluster:
                assert ranking.pair(a.system, b.system).better == a.system
                assert ranking.pair(a.system, b.system).significant
    better_than = {r.system: 0 for r in systems}
    worse_than = {r.system: 0 for r in systems}
    for pair in ranking.pairs:
        if pair.significant and pair.better is not None:
            better_than[pair.better] += 1
            worse_than[pair.first + pair.second - pair.better] += 1
    assert [(1 + worse_than[r.system], len(systems) - better_than[r.system]) for r in systems] == [
        (r.top, r.bottom) for r in systems
    ]


def test_equal_systems_share_the_first_rank() -> None:
    """Identical systems never differ significantly (sacreBLEU's p-value of a zero
    difference is 1/(S+1), but neither score is better): one cluster, rank 1-2."""
    rows = [[3, 10], [0, 5], [7, 7]]
    ranking = sg.rank_systems(WerMetric(), [rows, rows], samples=50)
    assert [("1-2", 1), ("1-2", 1)] == [(r.rank, r.cluster) for r in ranking.systems]
    assert (None, False) == (ranking.pairs[0].better, ranking.pairs[0].significant)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (
            lambda: sg.rank_systems(WerMetric(), [[[1, 2]]]),
            "tables[0] (WER): the baseline and at least one system expected, got 1 system(s)",
        ),
        (
            lambda: sg.rank_systems(WerMetric(), [[[1, 2]], [[1, 2]]], method="x"),  # type: ignore[arg-type]
            "method must be one of ['bootstrap', 'ar'], got 'x'",
        ),
        (
            lambda: sg.rank_systems(WerMetric(), [[[1, 2]], [[1, 2]]], samples=0),
            "samples must be an integer of at least 1, got 0",
        ),
        (
            lambda: sg.rank_systems(WerMetric(), [[[1, 2]], [[1, 2]]], threshold="1"),  # type: ignore[arg-type]
            "threshold must be a number, got '1'",
        ),
    ],
    ids=["one-system", "method", "samples", "threshold"],
)
def test_bad_arguments_are_named(call: Callable[[], object], message: str) -> None:
    """Each bad argument gets its own whole message."""
    with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
        call()


# --- Kocmi et al. 2024 -------------------------------------------------------------------------


def test_agreement_is_kocmi_et_al_s_formula() -> None:
    """a / (1 + e^(-b·|Δ|)) with their a and b: BLEU +1.00 gives their tool's 63.989%, and
    the paper's table of deltas for 70% (BLEU 1.39, chrF 1.00) round to 70%."""
    a, b = KOCMI_2024["BLEU"]
    assert a / (1 + math.e ** (-b * 1.0)) == pytest.approx(human_agreement("BLEU", 1.0), abs=1e-12)
    assert 63.989 == round(human_agreement("BLEU", 1.0) or 0, 3)
    assert 63.989 == round(human_agreement("BLEU", -1.0) or 0, 3)
    assert (70, 70) == (
        round(human_agreement("BLEU", 1.39) or 0),
        round(human_agreement("chrF2", 1.00) or 0),
    )
    assert [None, None, None, None] == [
        human_agreement(name, 1.0) for name in ("chrF2++", "TER", "WER", "CER")
    ]


@pytest.mark.parametrize(
    ("tokenize", "curve", "at_one"),
    [
        ("13a", "BLEU", 63.989),
        ("zh", "BLEU", 63.989),
        ("flores101", "spBLEU101", 65.93),
        ("spm", "spBLEU101", 65.93),
        ("flores200", "spBLEU200", 62.941),
        ("spBLEU-1K", "spBLEU-1K", None),
    ],
)
def test_spbleu_has_its_own_curve(tokenize: str, curve: str, at_one: float | None) -> None:
    """BLEU over the FLORES SentencePiece models is spBLEU, whose curves Kocmi et al. fitted
    apart (their tool's spBLEU101 and spBLEU200); spBLEU-1K has none: no estimate. A ranking
    reads the curve from the metric."""
    metric = BleuMetric(BleuOptions(tokenize=tokenize, max_ngram_order=1))
    agreement = human_agreement(metric.curve, -1.0)
    assert (curve, at_one) == (metric.curve, None if agreement is None else round(agreement, 3))
    systems = [[[5, 5, 3, 5]] * 2, [[5, 5, 5, 5]] * 2]  # unigram BLEU 60 and 100
    (pair,) = sg.rank_systems(metric, systems, samples=10).pairs
    assert (40.0, pair.agreement) == (round(pair.delta, 9), human_agreement(curve, pair.delta))


# --- WER's resampling ------------------------------------------------------------------------


def test_wer_bootstrap_is_the_direct_rate_of_the_same_indices() -> None:
    """bootstrap_resample of WER draws rng.choice(N, (S, N)) and scores each resample as
    100 x its summed errors over its summed reference lengths, float ==."""
    hyps = wmt_lines(f"{PAIR}/sys.NiuTrans.txt")[:200]
    refs = [[line] for line in wmt_lines(f"{PAIR}/ref.A.txt")[:200]]
    for unit in ("word", "character"):
        metric = WerMetric(WerOptions(unit))  # type: ignore[arg-type]
        rows = np.array(metric.statistics(hyps, refs))
        drawn = sg.bootstrap_resample(metric, rows, samples=250, seed=11)
        idx = np.random.default_rng(11).choice(len(rows), size=(250, len(rows)), replace=True)
        errors, lengths = rows[:, 0][idx].sum(axis=1), rows[:, 1][idx].sum(axis=1)
        assert [100 * (int(e) / int(n)) for e, n in zip(errors, lengths, strict=True)] == list(
            drawn
        )


def test_wer_score_of_an_empty_reference_resample() -> None:
    """A resample without reference units scores 100 with edits and 0 without (TER's rule)."""
    sums = np.array([[3, 0], [0, 0], [1, 4]])
    assert [100.0, 0.0, 25.0] == WerMetric().scores(sums).tolist()
    assert (100.0, 0.0, 25.0) == tuple(WerMetric().score(row) for row in sums.tolist())


@pytest.mark.parametrize("seed", [5, None])
def test_progress_reports_every_draw(seed: int | None) -> None:
    """The progress callbacks add up to paired_draws and rank_draws, seeded or not."""
    stats = [[[1, 3], [0, 2], [2, 2]], [[0, 3], [1, 2], [2, 2]], [[3, 3], [0, 2], [1, 2]]]
    table = [sg.Table(WerMetric(), stats)]
    done: list[int] = []
    sg.paired_bootstrap(table, samples=70, seed=seed, progress=done.append)
    bootstrap = sum(done)
    done.clear()
    sg.paired_approximate_randomization(
        table, trials=90, confidence=40, seed=seed, progress=done.append
    )
    ar = sum(done)
    done.clear()
    sg.rank_systems(WerMetric(), stats, method="ar", samples=50, seed=seed, progress=done.append)
    assert (bootstrap, ar, sum(done)) == (
        sg.paired_draws("bootstrap", 70, 0, 3, seed),
        sg.paired_draws("ar", 90, 40, 3, seed),
        sg.rank_draws("ar", 50, 3),
    )
