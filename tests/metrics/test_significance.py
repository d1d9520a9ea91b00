"""Paired significance tests (``mtcompute.significance``) against sacreBLEU 2.6.0's own
``significance.py`` (the oracle: ``PairedTest``, ``_paired_bs_test``, ``_paired_ar_test``,
``_bootstrap_resample``, ``estimate_ci``, ``corpus_score(n_bootstrap=...)``), float ``==``:
the random streams drawn block by block, each metric's scores of float32, int64 and float64
rows, the tests on generated statistics (exact and inexact float32 sums, TER's fractional
reference lengths) and on WMT data, the issue's figures on the full en-de data, the native
arithmetic against a direct exact reference, and the argument errors."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np
import pytest
from sacrebleu import significance as sb
from sacrebleu.metrics import BLEU, CHRF, TER
from sacrebleu.metrics.base import Metric as SacrebleuMetric
from threadpoolctl import threadpool_info, threadpool_limits  # type: ignore[import-untyped]

from mtcompute import significance as sg
from mtcompute.metrics.bleu import score as sacre_bleu
from mtcompute.metrics.chrf.resample import ChrfMetric
from mtcompute.metrics.chrf.score import ChrfOptions
from mtcompute.significance import _core as core
from tests.conftest import WMT_IS_SAMPLE, wmt_lines, wmt_window

PAIR = "generaltest2022/en-de"
BASELINE = "JDExploreAcademy"
SYSTEMS = [BASELINE, "Online-B", "Online-W", "OpenNMT", "PROMT"]


# --- sacreBLEU over given statistics ---------------------------------------------------------


class _Given:
    """A sacreBLEU metric whose "hypotheses" are already its per-segment statistics."""

    def _extract_corpus_statistics(self, hypotheses: Any, _references: Any) -> list[list[Any]]:
        self.num_refs = 1
        return [list(row) for row in hypotheses]


class GivenBLEU(_Given, BLEU):
    """sacreBLEU's BLEU over given statistics."""


class GivenCHRF(_Given, CHRF):
    """sacreBLEU's chrF over given statistics."""


class GivenTER(_Given, TER):
    """sacreBLEU's TER over given statistics."""


Row = tuple[float, float | None, float | None, float | None]


def _rows(results: Sequence[Any]) -> list[Row]:
    """(score, p-value, mean, half width) of sacreBLEU's or our results, as Python floats."""
    return [
        (
            float(r.score),
            r.p_value,
            None if r.mean is None else float(r.mean),
            None if r.ci is None else float(r.ci),
        )
        for r in results
    ]


@pytest.fixture(autouse=True)
def _default_sacrebleu_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    """sacreBLEU's PairedTest reads SACREBLEU_SEED: its default, whatever the environment."""
    monkeypatch.setenv("SACREBLEU_SEED", "12345")


@pytest.fixture
def sacrebleu_seed(monkeypatch: pytest.MonkeyPatch) -> Callable[[int | None], None]:
    """Set SACREBLEU_SEED for sacreBLEU's PairedTest (None: 'None', unseeded)."""

    def set_seed(seed: int | None) -> None:
        monkeypatch.setenv("SACREBLEU_SEED", str(seed))

    return set_seed


def _memoized(metric: SacrebleuMetric) -> SacrebleuMetric:
    """The metric with its statistics extracted once per hypotheses list (the same
    sacreBLEU statistics for its bootstrap and its AR)."""
    original = metric._extract_corpus_statistics
    cache: dict[int, Any] = {}

    def extract(hypotheses: Any, references: Any) -> Any:
        if id(hypotheses) not in cache:
            cache[id(hypotheses)] = original(hypotheses, references)
        return cache[id(hypotheses)]

    metric._extract_corpus_statistics = extract  # type: ignore[method-assign]
    return metric


def _paired_test(
    metric: SacrebleuMetric,
    systems: Sequence[Any],
    test_type: str,
    n_samples: int,
    n_ar_confidence: int = -1,
    references: Any = None,
) -> list[Row]:
    """sacreBLEU's PairedTest over the systems (the baseline first)."""
    named = [(f"system {i}", hyps) for i, hyps in enumerate(systems)]
    test = sb.PairedTest(
        named,
        {"metric": metric},
        references=references,
        test_type=test_type,
        n_samples=n_samples,
        n_ar_confidence=n_ar_confidence,
    )
    _, scores = test()
    (name,) = (key for key in scores if key != "System")
    return _rows(scores[name])


# --- generated statistics --------------------------------------------------------------------


def _bleu_statistics(rng: np.random.Generator, segments: int, order: int = 4) -> list[list[int]]:
    """BLEU rows with short segments (orders without n-grams, orders without matches)."""
    rows = []
    for _ in range(segments):
        length = int(rng.integers(0, 12))
        totals = [max(0, length - n) for n in range(order)]
        correct = [int(rng.integers(0, t + 1)) if rng.random() < 0.7 else 0 for t in totals]
        rows.append([length, int(rng.integers(0, 14)), *correct, *totals])
    return rows


def _chrf_statistics(
    rng: np.random.Generator, segments: int, order: int = 6, scale: int = 1
) -> list[list[int]]:
    """chrF rows with empty hypotheses, empty references and no matches among them."""
    rows = []
    for _ in range(segments):
        row = []
        for _ in range(order):
            hyp = int(rng.integers(0, 40)) * scale if rng.random() < 0.9 else 0
            ref = int(rng.integers(0, 40)) * scale if rng.random() < 0.9 else 0
            match = int(rng.integers(0, min(hyp, ref) + 1)) if rng.random() < 0.8 else 0
            row += [hyp, ref, match]
        rows.append(row)
    return rows


def _ter_statistics(
    rng: np.random.Generator, segments: int, references: int = 1
) -> list[list[int | float]]:
    """TER rows (edits, average length of ``references`` references), some empty."""
    rows: list[list[int | float]] = []
    for _ in range(segments):
        lengths = [
            int(rng.integers(0, 30)) if rng.random() < 0.95 else 0 for _ in range(references)
        ]
        rows.append([int(rng.integers(0, 20)), sum(lengths) / references])
    return rows


def _systems(make: Callable[[np.random.Generator, int], Any], count: int, segments: int) -> Any:
    rng = np.random.default_rng(count * 1000 + segments)
    return [make(rng, segments) for _ in range(count)]


METRICS: list[tuple[str, Callable[[], SacrebleuMetric], sg.Metric, Callable[..., Any]]] = [
    ("bleu", GivenBLEU, sg.BleuMetric(), _bleu_statistics),
    (
        "bleu-floor-effective",
        lambda: GivenBLEU(smooth_method="floor", effective_order=True),
        sg.BleuMetric(sacre_bleu.BleuOptions(smooth_method="floor", effective_order=True)),
        _bleu_statistics,
    ),
    (
        "bleu-add-k-0.5",
        lambda: GivenBLEU(smooth_method="add-k", smooth_value=0.5),
        sg.BleuMetric(sacre_bleu.BleuOptions(smooth_method="add-k", smooth_value=0.5)),
        _bleu_statistics,
    ),
    (
        "bleu-none",
        lambda: GivenBLEU(smooth_method="none"),
        sg.BleuMetric(sacre_bleu.BleuOptions(smooth_method="none")),
        _bleu_statistics,
    ),
    ("chrf", GivenCHRF, ChrfMetric(), _chrf_statistics),
    (
        "chrf++-eps",
        lambda: GivenCHRF(word_order=2, eps_smoothing=True),
        ChrfMetric(ChrfOptions(word_order=2, eps_smoothing=True)),
        lambda rng, n: _chrf_statistics(rng, n, order=8),
    ),
    (
        "chrf-beta1-char3",
        lambda: GivenCHRF(char_order=3, beta=1),
        ChrfMetric(ChrfOptions(char_order=3, beta=1)),
        lambda rng, n: _chrf_statistics(rng, n, order=3),
    ),
    ("ter", GivenTER, sg.TerMetric(), _ter_statistics),
    ("ter-2-refs", GivenTER, sg.TerMetric(), lambda rng, n: _ter_statistics(rng, n, 2)),
    ("ter-3-refs", GivenTER, sg.TerMetric(), lambda rng, n: _ter_statistics(rng, n, 3)),
]
METRIC_IDS = [m[0] for m in METRICS]


# --- the random streams ----------------------------------------------------------------------


def _pieces(total: int, sizes: Sequence[int]) -> Iterator[int]:
    """Block sizes cycling through ``sizes`` up to ``total``."""
    done, i = 0, 0
    while done < total:
        size = min(sizes[i % len(sizes)], total - done)
        yield size
        done, i = done + size, i + 1


@pytest.mark.parametrize("segments", [1, 2, 7, 33, 2037])
def test_bootstrap_indices_drawn_in_blocks_are_one_draw(segments: int) -> None:
    """choice(N, (S, N)) drawn as blocks of any rows is the same stream (the bit generator
    keeps the unused half of its 64-bit word between calls), and what follows too."""
    whole_rng = np.random.default_rng(12345)
    whole = whole_rng.choice(segments, size=(100, segments), replace=True)
    rng = np.random.default_rng(12345)
    blocks = [
        rng.choice(segments, size=(b, segments), replace=True) for b in _pieces(100, [1, 3, 10])
    ]
    assert whole.tolist() == np.concatenate(blocks).tolist()
    assert whole_rng.integers(1 << 30, size=5).tolist() == rng.integers(1 << 30, size=5).tolist()


@pytest.mark.parametrize("segments", [1, 3, 7, 100, 2037])
def test_ar_masks_in_blocks_of_32_rows_are_one_draw(segments: int) -> None:
    """integers(2, (S, N), dtype=bool) drawn in blocks of a multiple of 32 rows (the last
    any) is the same mask, and the bootstrap indices drawn after it the same indices."""
    whole_rng = np.random.default_rng(12345)
    whole = whole_rng.integers(2, size=(200, segments), dtype=bool)
    rng = np.random.default_rng(12345)
    blocks = [rng.integers(2, size=(b, segments), dtype=bool) for b in _pieces(200, [32, 64, 96])]
    assert whole.tolist() == np.concatenate(blocks).tolist()
    after = rng.choice(segments, size=(3, segments), replace=True)
    assert whole_rng.choice(segments, size=(3, segments), replace=True).tolist() == after.tolist()


def test_ar_masks_in_blocks_of_other_sizes_are_not_one_draw() -> None:
    """A mask block of 7 entries drops the rest of its 32-bit word: the next block differs
    (why the blocks are multiples of 32 rows)."""
    whole = np.random.default_rng(12345).integers(2, size=(4, 7), dtype=bool)
    rng = np.random.default_rng(12345)
    blocks = [rng.integers(2, size=(1, 7), dtype=bool) for _ in range(4)]
    assert whole[0].tolist() == blocks[0][0].tolist()
    assert whole.tolist() != np.concatenate(blocks).tolist()


# --- each metric's scores of summed rows -----------------------------------------------------


# sacreBLEU's TER statistics hold floats: its AR rows are float64, never int64
ROW_CASES = [
    pytest.param(*m, dtype, id=f"{m[0]}-{dtype}")
    for m in METRICS
    for dtype in ("float32", "int64", "float64")
    if not (dtype == "int64" and m[0].startswith("ter"))
]


@pytest.mark.parametrize(("name", "make_sacrebleu", "metric", "make_rows", "dtype"), ROW_CASES)
def test_scores_of_rows_are_sacrebleus(
    name: str,
    make_sacrebleu: Callable[[], SacrebleuMetric],
    metric: sg.Metric,
    make_rows: Callable[..., Any],
    dtype: str,
) -> None:
    """Each row scored as sacreBLEU's _compute_score_from_stats scores that numpy row, and
    the array numpy makes of those scores (its dtype included)."""
    rng = np.random.default_rng(7)
    singles = np.array(make_rows(rng, 300))
    # running totals: many distinct large sums (for BLEU, enough distinct logarithms that
    # numpy's own log would differ from math.log somewhere)
    totals = np.cumsum(np.array(make_rows(rng, 3000 if name.startswith("bleu") else 300)), axis=0)
    sums = np.concatenate([singles, totals, singles[:1] * 0])
    rows = sums.astype(dtype)
    oracle = make_sacrebleu()
    expected = np.array([oracle._compute_score_from_stats(row.copy()).score for row in rows])
    actual = metric.scores(rows)
    assert (expected.dtype, expected.tolist()) == (actual.dtype, actual.tolist())


@pytest.mark.parametrize(("name", "make_sacrebleu", "metric", "make_rows"), METRICS, ids=METRIC_IDS)
def test_score_of_totals_is_sacrebleus(
    name: str,
    make_sacrebleu: Callable[[], SacrebleuMetric],
    metric: sg.Metric,
    make_rows: Callable[..., Any],
) -> None:
    """The score of summed Python statistics is sacreBLEU's _aggregate_and_compute."""
    stats = make_rows(np.random.default_rng(3), 50)
    oracle = make_sacrebleu()
    expected = oracle._aggregate_and_compute(oracle._extract_corpus_statistics(stats, None))
    assert (
        expected.score
        == sg.paired_bootstrap([sg.Table(metric, [stats, stats])], samples=1)[0][0].score
    )


# --- the tests on generated statistics -------------------------------------------------------


@pytest.mark.parametrize("seed", [12345, 7])
@pytest.mark.parametrize(("name", "make_sacrebleu", "metric", "make_rows"), METRICS, ids=METRIC_IDS)
def test_paired_bootstrap_is_sacrebleus(
    name: str,
    make_sacrebleu: Callable[[], SacrebleuMetric],
    metric: sg.Metric,
    make_rows: Callable[..., Any],
    seed: int,
    sacrebleu_seed: Callable[[int | None], None],
) -> None:
    """sacrebleu arithmetic: PairedTest(test_type="bs")'s scores, p-values, means and half
    widths, baseline included."""
    systems = _systems(make_rows, 4, 120)
    sacrebleu_seed(seed)
    expected = _paired_test(make_sacrebleu(), systems, "bs", 150)
    table = sg.Table(metric, systems)
    actual = sg.paired_bootstrap([table], samples=150, seed=seed, arithmetic="sacrebleu")[0]
    assert expected == _rows(actual)


@pytest.mark.parametrize("confidence", [-1, 40])
@pytest.mark.parametrize(("name", "make_sacrebleu", "metric", "make_rows"), METRICS, ids=METRIC_IDS)
def test_paired_ar_is_sacrebleus(
    name: str,
    make_sacrebleu: Callable[[], SacrebleuMetric],
    metric: sg.Metric,
    make_rows: Callable[..., Any],
    confidence: int,
) -> None:
    """sacrebleu arithmetic: PairedTest(test_type="ar")'s scores and p-values, with and
    without its bootstrap intervals."""
    systems = _systems(make_rows, 3, 90)
    expected = _paired_test(make_sacrebleu(), systems, "ar", 300, confidence)
    table = sg.Table(metric, systems)
    actual = sg.paired_approximate_randomization(
        [table], trials=300, confidence=max(confidence, 0), arithmetic="sacrebleu"
    )[0]
    assert expected == _rows(actual)


def test_ar_trial_sums_of_fractional_lengths_are_sacrebleus() -> None:
    """TER with three references (average lengths in thirds, which float64 rounds): each AR
    trial's |score(a) - score(b)| from sacreBLEU's own products over the whole mask, not
    from the exact path's reordered sums."""
    systems = _systems(lambda rng, n: _ter_statistics(rng, n, 3), 2, 400)
    series = [core._Series(sg.TerMetric(), np.array(s), 0.0) for s in systems]
    randomizer = core._Randomizer([(series[0], series[1])], "sacrebleu")
    assert randomizer.literal
    mask = np.random.default_rng(12345).integers(2, size=(500, 400), dtype=bool)
    bl, sys = (np.array(s) for s in systems)
    oracle = TER()
    expected = [
        abs(
            oracle._aggregate_and_compute(a[None]).score
            - oracle._aggregate_and_compute(b[None]).score
        )
        for a, b in zip(mask @ bl + ~mask @ sys, ~mask @ bl + mask @ sys, strict=True)
    ]
    assert expected == randomizer.differences(mask)[0].tolist()


def test_several_metrics_at_once_are_each_alone() -> None:
    """One product for BLEU, chrF and TER of four systems gives what each metric alone gives."""
    tables = [
        sg.Table(metric, _systems(make_rows, 4, 80))
        for _, _, metric, make_rows in (METRICS[0], METRICS[4], METRICS[9])
    ]
    for arithmetic in sg.ARITHMETICS:
        together = sg.paired_bootstrap(tables, samples=50, arithmetic=arithmetic)  # type: ignore[arg-type]
        alone = [sg.paired_bootstrap([t], samples=50, arithmetic=arithmetic)[0] for t in tables]  # type: ignore[arg-type]
        assert alone == together
        together = sg.paired_approximate_randomization(tables, trials=70, arithmetic=arithmetic)  # type: ignore[arg-type]
        alone = [
            sg.paired_approximate_randomization([t], trials=70, arithmetic=arithmetic)[0]  # type: ignore[arg-type]
            for t in tables
        ]
        assert alone == together


def test_float32_sums_past_2_24_are_sacrebleus() -> None:
    """chrF statistics whose resampled sums pass 2**24 (float32 rounds them): sacreBLEU's
    float32 sums, in its order, and the p-values and intervals that follow."""
    systems = [_chrf_statistics(np.random.default_rng(i), 60, scale=20000) for i in range(3)]
    assert sum(row[0] for row in systems[0]) > 2**24
    expected = _paired_test(GivenCHRF(), systems, "bs", 100)
    actual = sg.paired_bootstrap(
        [sg.Table(ChrfMetric(), systems)], samples=100, arithmetic="sacrebleu"
    )
    assert expected == _rows(actual[0])


def test_bootstrap_resample_and_estimate_ci_are_sacrebleus() -> None:
    """_bootstrap_resample's scores (values and dtype) and estimate_ci of them."""
    for _, make_sacrebleu, metric, make_rows in METRICS:
        stats = make_rows(np.random.default_rng(11), 70)
        _, scores = sb._bootstrap_resample(stats, make_sacrebleu(), 120)
        expected = np.array([s.score for s in scores])
        actual = sg.bootstrap_resample(metric, stats, samples=120, arithmetic="sacrebleu")
        assert (expected.dtype, expected.tolist()) == (actual.dtype, actual.tolist())
        mean, ci = sb.estimate_ci(expected)
        assert (float(mean), float(ci)) == sg.estimate_ci(actual)


# --- WMT data --------------------------------------------------------------------------------


def _wmt(start: int, stop: int) -> tuple[list[list[str]], list[str]]:
    """The five en-de systems and reference A over a window of segments."""
    hyps = [wmt_window(wmt_lines(f"{PAIR}/sys.{name}.txt"), start, stop) for name in SYSTEMS]
    return hyps, wmt_window(wmt_lines(f"{PAIR}/ref.A.txt"), start, stop)


WMT_METRICS: list[tuple[str, Callable[[], SacrebleuMetric], sg.Metric]] = [
    ("bleu", BLEU, sg.BleuMetric()),
    ("chrf", CHRF, ChrfMetric()),
    ("chrf++", lambda: CHRF(word_order=2), ChrfMetric(ChrfOptions(word_order=2))),
    ("ter", TER, sg.TerMetric()),
]


@pytest.mark.parametrize(
    ("name", "make_sacrebleu", "metric"), WMT_METRICS, ids=[m[0] for m in WMT_METRICS]
)
def test_wmt_paired_tests_are_sacrebleus(
    name: str, make_sacrebleu: Callable[[], SacrebleuMetric], metric: Any
) -> None:
    """On 120 en-de segments (ref.A, JDExploreAcademy against four systems), from raw text:
    sacreBLEU's PairedTest bootstrap and AR (with intervals) from its own statistics, ours
    from the metric packages'."""
    hyps, ref = _wmt(600, 720)
    refs = [[line] for line in ref]
    systems = [metric.statistics(h, refs) for h in hyps]
    table = sg.Table(metric, systems)
    oracle = _memoized(make_sacrebleu())
    expected = _paired_test(oracle, hyps, "bs", 200, references=[ref])
    assert expected == _rows(sg.paired_bootstrap([table], samples=200, arithmetic="sacrebleu")[0])
    expected = _paired_test(oracle, hyps, "ar", 400, 50, references=[ref])
    actual = sg.paired_approximate_randomization(
        [table], trials=400, confidence=50, arithmetic="sacrebleu"
    )[0]
    assert expected == _rows(actual)


@pytest.mark.parametrize(
    ("name", "make_sacrebleu", "metric"), WMT_METRICS[:3], ids=[m[0] for m in WMT_METRICS[:3]]
)
def test_wmt_bootstrap_confidence_is_corpus_scores(
    name: str, make_sacrebleu: Callable[[], SacrebleuMetric], metric: Any
) -> None:
    """corpus_score(n_bootstrap=100)'s score, mean and half width (Score.estimate_ci)."""
    hyps, ref = _wmt(0, 300)
    score = make_sacrebleu().corpus_score(hyps[4], [ref], n_bootstrap=100)
    stats = metric.statistics(hyps[4], [[line] for line in ref])
    actual = sg.bootstrap_confidence(metric, stats, samples=100, arithmetic="sacrebleu")
    assert (score.score, float(score._mean), float(score._ci), None) == (
        actual.score,
        actual.mean,
        actual.ci,
        actual.p_value,
    )


def _issue_tables() -> list[sg.Table]:
    hyps, ref = _wmt(0, 2037)
    refs = [[line] for line in ref]
    return [
        sg.Table(m, [m.statistics(h, refs) for h in hyps]) for m in (sg.BleuMetric(), ChrfMetric())
    ]


@pytest.mark.skipif(WMT_IS_SAMPLE, reason="the issue's figures are on the full en-de data")
def test_issue_figures() -> None:
    """Issue 13's figures on en-de (seed 12345): the bootstrap and AR p-values of BLEU and chrF
    of the four systems against JDExploreAcademy, and the BLEU baseline's 37.7993 ± 0.9891."""
    tables = _issue_tables()
    bootstrap = sg.paired_bootstrap(tables, arithmetic="sacrebleu")
    ar = sg.paired_approximate_randomization(tables, arithmetic="sacrebleu")
    assert [[31, 2, 1, 1], [43, 166, 1, 1]] == [
        [round(r.p_value * 1001) for r in row[1:] if r.p_value is not None] for row in bootstrap
    ]
    assert [
        [31 / 1001, 2 / 1001, 1 / 1001, 1 / 1001],
        [43 / 1001, 166 / 1001, 1 / 1001, 1 / 1001],
    ] == [[r.p_value for r in row[1:]] for row in bootstrap]
    assert [
        [502 / 10001, 12 / 10001, 1 / 10001, 1 / 10001],
        [697 / 10001, 4094 / 10001, 1 / 10001, 1 / 10001],
    ] == [[r.p_value for r in row[1:]] for row in ar]
    assert (37.79929525973223, 0.9890726025580676) == (bootstrap[0][0].mean, bootstrap[0][0].ci)


# --- native arithmetic -----------------------------------------------------------------------


def _exact_reference(
    metric: sg.Metric, systems: Sequence[Any], samples: int, seed: int, test: str
) -> list[Row]:
    """A direct native reference: whole draws, exact int64 (or float64) sums with numpy,
    each sum scored by metric.score on Python numbers, sacreBLEU's rules."""
    matrices = [np.array(s) for s in systems]
    segments = len(matrices[0])
    totals = [m.sum(axis=0).tolist() for m in matrices]
    scores = [metric.score(t) for t in totals]
    rng = np.random.default_rng(seed)
    out: list[Row] = []
    if test == "bs":
        idx = rng.choice(segments, size=(samples, segments), replace=True)
        resampled = [
            np.array([metric.score(m[i].sum(axis=0).tolist()) for i in idx]) for m in matrices
        ]
        for s, own in enumerate(resampled):
            ordered = np.sort(own)
            lower = samples // 40
            mean, ci = (
                float(ordered.mean()),
                float(0.5 * (ordered[samples - lower - 1] - ordered[lower])),
            )
            p = None
            if s:
                diffs = np.abs(own - resampled[0])
                count = int(np.sum(diffs - diffs.mean() > abs(scores[0] - scores[s])))
                p = (count + 1) / (samples + 1)
            out.append((scores[s], p, mean, ci))
        return out
    mask = rng.integers(2, size=(samples, segments), dtype=bool)
    out.append((scores[0], None, None, None))
    for s in range(1, len(matrices)):
        a = mask @ matrices[0] + ~mask @ matrices[s]
        b = ~mask @ matrices[0] + mask @ matrices[s]
        trial = np.abs(
            np.array([metric.score(x.tolist()) for x in a])
            - np.array([metric.score(x.tolist()) for x in b])
        )
        count = int(np.sum(trial > abs(scores[0] - scores[s])))
        out.append((scores[s], (count + 1) / (samples + 1), None, None))
    return out


@pytest.mark.parametrize("seed", [0, 12345])
@pytest.mark.parametrize(
    ("name", "make_sacrebleu", "metric", "make_rows"),
    [m for m in METRICS if m[0] != "ter-3-refs"],
    ids=[i for i in METRIC_IDS if i != "ter-3-refs"],
)
def test_native_is_the_exact_reference(
    name: str,
    make_sacrebleu: Callable[[], SacrebleuMetric],
    metric: sg.Metric,
    make_rows: Callable[..., Any],
    seed: int,
) -> None:
    """native arithmetic: exact sums scored in float64 (mtcompute.metrics), the same draws
    (seed 0 seeded) and rules, as a direct implementation computes them."""
    systems = _systems(make_rows, 3, 60)
    table = sg.Table(metric, systems)
    expected = _exact_reference(metric, systems, 80, seed, "bs")
    assert expected == _rows(sg.paired_bootstrap([table], samples=80, seed=seed)[0])
    expected = _exact_reference(metric, systems, 96, seed, "ar")
    assert expected == _rows(sg.paired_approximate_randomization([table], trials=96, seed=seed)[0])


def test_native_ar_is_sacrebleus_ar_for_integer_statistics() -> None:
    """sacreBLEU's AR adds int64 statistics and scores them in float64: native AR gives its
    p-values (but for add-k's truncation, not checked here)."""
    for _, _, metric, make_rows in [m for m in METRICS if not m[0].startswith(("ter", "bleu-add"))]:
        table = sg.Table(metric, _systems(make_rows, 3, 70))
        expected = sg.paired_approximate_randomization([table], trials=200, arithmetic="sacrebleu")
        assert expected == sg.paired_approximate_randomization([table], trials=200)


def test_unseeded_tests_score_and_bound_their_p_values() -> None:
    """seed=None draws fresh numbers per comparison: scores are the seeded ones, p-values in
    (0, 1] with S + 1 in their denominator, intervals present."""
    table = sg.Table(sg.BleuMetric(), _systems(_bleu_statistics, 3, 40))
    seeded = sg.paired_bootstrap([table], samples=30)[0]
    for result in [sg.paired_bootstrap([table], samples=30, seed=None)[0]]:
        assert [r.score for r in seeded] == [r.score for r in result]
        assert all(r.mean is not None and r.ci is not None for r in result)
        assert all(0 < round(r.p_value * 31) <= 31 for r in result[1:] if r.p_value is not None)
    result = sg.paired_approximate_randomization([table], trials=30, confidence=5, seed=None)[0]
    assert [r.score for r in seeded] == [r.score for r in result]
    assert all(r.mean is not None for r in result)


# --- argument errors -------------------------------------------------------------------------


BLEU_ROWS = _bleu_statistics(np.random.default_rng(1), 3)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (
            lambda: sg.paired_bootstrap([], samples=5),
            "tables: at least one metric's statistics expected",
        ),
        (
            lambda: sg.paired_bootstrap([sg.Table(sg.BleuMetric(), [BLEU_ROWS])]),
            "tables[0] (BLEU): the baseline and at least one system expected, got 1 system(s)",
        ),
        (
            lambda: sg.paired_bootstrap([sg.Table(sg.BleuMetric(), [BLEU_ROWS, BLEU_ROWS[:2]])]),
            "tables[0].statistics[1]: 2 segments, expected 3 (as tables[0].statistics[0])",
        ),
        (
            lambda: sg.paired_bootstrap([sg.Table(ChrfMetric(), [BLEU_ROWS, BLEU_ROWS])]),
            "tables[0].statistics[0]: expected one row of 18 numbers per segment for chrF2",
        ),
        (
            lambda: sg.paired_bootstrap([sg.Table(sg.TerMetric(), [[], []])]),
            "tables[0].statistics[0]: expected one row of 2 numbers per segment for TER",
        ),
        (
            lambda: sg.paired_bootstrap(
                [sg.Table(sg.TerMetric(), [[[1, float("nan")]], [[1, 2]]])]
            ),
            "tables[0].statistics[0]: statistics must be finite numbers",
        ),
        (
            lambda: sg.paired_bootstrap([sg.Table(sg.TerMetric(), [[[1, 2], [1]], [[1, 2]]])]),
            "tables[0].statistics[0]: expected one row of 2 numbers per segment for TER",
        ),
        (
            lambda: sg.paired_bootstrap([sg.Table(sg.BleuMetric(), [BLEU_ROWS] * 2)], samples=0),
            "samples must be an integer of at least 1, got 0",
        ),
        (
            lambda: sg.paired_approximate_randomization(
                [sg.Table(sg.BleuMetric(), [BLEU_ROWS] * 2)], trials=True
            ),
            "trials must be an integer of at least 1, got True",
        ),
        (
            lambda: sg.paired_approximate_randomization(
                [sg.Table(sg.BleuMetric(), [BLEU_ROWS] * 2)], confidence=-1
            ),
            "confidence must be an integer of at least 0, got -1",
        ),
        (
            lambda: sg.paired_bootstrap([sg.Table(sg.BleuMetric(), [BLEU_ROWS] * 2)], seed=-3),
            "seed must be a non-negative integer or None, got -3",
        ),
        (
            lambda: sg.bootstrap_resample(sg.BleuMetric(), BLEU_ROWS, arithmetic="float32"),  # type: ignore[arg-type]
            "arithmetic must be one of ['sacrebleu', 'native'], got 'float32'",
        ),
        (
            lambda: sg.bootstrap_confidence(sg.BleuMetric(), [["a"] * 10]),
            "statistics: expected one row of 10 numbers per segment for BLEU",
        ),
    ],
)
def test_bad_arguments_are_named(call: Callable[[], object], message: str) -> None:
    """Each bad argument raises ValueError naming it, expected and got."""
    with pytest.raises(ValueError, match=re.escape(message)) as caught:
        call()
    assert message == str(caught.value)


def test_environment_seed_is_not_read(monkeypatch: pytest.MonkeyPatch) -> None:
    """The library takes its seed as an argument: SACREBLEU_SEED plays no part."""
    table = sg.Table(sg.BleuMetric(), _systems(_bleu_statistics, 2, 30))
    before = sg.paired_bootstrap([table], samples=20)
    monkeypatch.setenv("SACREBLEU_SEED", "7")
    assert before == sg.paired_bootstrap([table], samples=20)


class _CountingThreads:
    """BLEU that records the BLAS thread count each time it scores resampled sums."""

    def __init__(self) -> None:
        self.bleu = sg.BleuMetric()
        self.name, self.width = self.bleu.name, self.bleu.width
        self.seen: list[int] = []

    def score(self, totals: Sequence[int | float]) -> float:
        return self.bleu.score(totals)

    def scores(self, sums: Any) -> Any:
        self.seen.append(_blas_threads())
        return self.bleu.scores(sums)


def _blas_threads() -> int:
    """The thread count of numpy's BLAS library as threadpoolctl reads it."""
    (blas,) = [pool for pool in threadpool_info() if pool["user_api"] == "blas"]
    return int(blas["num_threads"])


def test_the_tests_run_with_one_blas_thread() -> None:
    """Every public test and resampler scores with numpy's BLAS held to one thread and leaves
    the count as it found it (2 here: the tests set it so, whatever the machine's CPUs)."""
    metric = _CountingThreads()
    rows = _systems(_bleu_statistics, 2, 30)
    with threadpool_limits(limits=2, user_api="blas"):
        calls = [
            lambda: sg.paired_bootstrap([sg.Table(metric, rows)], samples=5),
            lambda: sg.paired_approximate_randomization([sg.Table(metric, rows)], trials=5),
            lambda: sg.bootstrap_resample(metric, rows[0], samples=5),
            lambda: sg.bootstrap_confidence(metric, rows[0], samples=5),
        ]
        after = []
        for call in calls:
            call()
            after.append(_blas_threads())
    assert ([1] * len(metric.seen), [2] * 4) == (metric.seen, after)
    assert len(metric.seen) >= 4
