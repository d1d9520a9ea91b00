"""The C kernel's paired bootstrap (``_kernel/resample.c``, driven by
:mod:`mtcompute.sacrebleu._paired`) against its numpy twins: numpy's generator (seeding and
the stream of ``choice``), numpy's sort and pairwise means, the scores of
:mod:`mtcompute.significance` in sacreBLEU's arithmetic, and whole ``PairedTest`` results;
then the command, which runs it without importing numpy."""

from __future__ import annotations

import math
import os
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import mtcompute.sacrebleu as facade
from mtcompute import native, significance
from mtcompute.sacrebleu import _paired
from mtcompute.sacrebleu import significance as facade_significance
from mtcompute.significance import _core
from tests.conftest import cli_command, kernel_switch, wmt_lines, wmt_window
from tests.test_startup import imported

pytestmark = pytest.mark.skipif(not native.AVAILABLE, reason="built without the C kernel")


@pytest.fixture(autouse=True)
def _on_the_kernel() -> Iterator[None]:
    """The kernel's path, whatever MTCOMPUTE_PURE says (kernel_and_pure switches inside)."""
    with kernel_switch(True):
        yield


SEEDS = [0, 1, 7, 12345, 2**32 - 1, 2**32, 2**63, 2**64 + 5, 2**96 + 1, 2**128 - 1, 2**200 + 3]


def _ext() -> Any:
    assert native.ext is not None
    return native.ext


# -- numpy's generator ---------------------------------------------------------------------


@pytest.mark.parametrize("seed", SEEDS)
def test_the_pcg64_state_is_numpys(seed: int) -> None:
    """SeedSequence then PCG64 seeding, in Python's integers: numpy's state and increment."""
    state = np.random.PCG64(seed).state["state"]
    assert _paired.pcg64_state(seed) == (state["state"], state["inc"])


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize(
    "n", [1, 2, 3, 7, 200, 2037, 65536, 2**31 - 1, 2**31, 2**31 + 1, 2**32 - 2, 2**32 - 1, 2**32]
)
def test_the_draws_are_numpys_choice(seed: int, n: int) -> None:
    """``default_rng(seed).choice(n, count, replace=True)``, index for index (odd counts:
    the half-used 64-bit word), for ranges up to 2**32 (its full 32-bit words)."""
    count = 1001
    expected = np.random.default_rng(seed).choice(n, size=count, replace=True)
    drawn = np.frombuffer(_ext().resample_draws(_paired.pcg64_bytes(seed), n, count), np.int64)
    assert drawn.tolist() == expected.tolist()


def test_a_matrix_of_draws_is_one_stream() -> None:
    """``choice(N, (S, N))`` is the stream of S * N draws, row after row."""
    expected = np.random.default_rng(12345).choice(37, size=(50, 37), replace=True)
    drawn = np.frombuffer(_ext().resample_draws(_paired.pcg64_bytes(12345), 37, 50 * 37), np.int64)
    assert drawn.tolist() == expected.ravel().tolist()


def test_the_draws_refuse_ranges_they_do_not_draw() -> None:
    """n must be in [1, 2**32] and the state 32 bytes."""
    state = _paired.pcg64_bytes(1)
    for n in (0, 2**32 + 1):
        with pytest.raises(ValueError, match="n in"):
            _ext().resample_draws(state, n, 3)
    with pytest.raises(ValueError, match="32 bytes"):
        _ext().resample_draws(state[:-1], 5, 3)


# -- sort, pairwise means, intervals and p-values ------------------------------------------

LENGTHS = [*range(1, 300), *range(300, 3001, 37), 3000, 4096, 8191, 8192, 8193, 10000, 20000]


def _values(rng: np.random.Generator, n: int, dtype: type[np.floating[Any]]) -> Any:
    """Scores of mixed magnitudes (their sums round, so the order of addition shows)."""
    values = rng.normal(40, 15, n) * np.exp2(rng.integers(-6, 7, n))
    return np.abs(values).astype(dtype)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_the_interval_is_numpys(dtype: type[np.floating[Any]]) -> None:
    """estimate_ci (np.sort, the n // 40 bounds, numpy's pairwise mean in the array's type),
    for every length up to 300 and many up to 20,000."""
    rng = np.random.default_rng(3)
    is32 = dtype is np.float32
    for n in LENGTHS:
        scores = _values(rng, n, dtype)
        expected = significance.estimate_ci(scores)
        found = _ext().bootstrap_interval(scores.astype(np.float64).tobytes(), is32)
        assert (n, found) == (n, expected)
        assert found[0] == float(np.sort(scores).mean())


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_the_p_value_is_numpys(dtype: type[np.floating[Any]]) -> None:
    """The paired test's centred differences against the real one (a float32 array meets it
    rounded to float32), for many lengths and differences near the statistics."""
    rng = np.random.default_rng(4)
    is32 = dtype is np.float32
    for n in LENGTHS[::3]:
        base, own = _values(rng, n, dtype), _values(rng, n, dtype)
        diffs = np.abs(own - base)
        stats = diffs - diffs.mean()
        for difference in [0.0, float(stats[0]), float(np.median(stats)), 1e-9, 3.3]:
            expected = _core._bootstrap_p(base, own, difference)
            wide = [base.astype(np.float64).tobytes(), own.astype(np.float64).tobytes()]
            found = _ext().bootstrap_p(*wide, is32, difference)
            assert (n, difference, found) == (n, difference, expected)


def test_the_summaries_refuse_bad_scores() -> None:
    """No scores, NaN, or two lengths: a ValueError (the caller never passes them)."""
    nan = np.array([1.0, np.nan]).tobytes()
    with pytest.raises(ValueError, match="non-empty"):
        _ext().bootstrap_interval(b"", False)
    with pytest.raises(ValueError, match="NaN"):
        _ext().bootstrap_interval(nan, False)
    with pytest.raises(ValueError, match="unequal"):
        _ext().bootstrap_p(np.ones(3).tobytes(), np.ones(2).tobytes(), False, 0.0)


# -- the scores of the resamples -----------------------------------------------------------

PAIR = "generaltest2022/en-de"
SYSTEMS = ["JDExploreAcademy", "Online-B", "Online-W", "OpenNMT", "PROMT"]
WINDOW = (0, 200)

METRICS: dict[str, Any] = {
    "BLEU": lambda refs: facade.BLEU(references=refs),
    "BLEU none": lambda refs: facade.BLEU(smooth_method="none", references=refs),
    "BLEU floor": lambda refs: facade.BLEU(smooth_method="floor", references=refs),
    "BLEU floor 0.37": lambda refs: facade.BLEU(
        smooth_method="floor", smooth_value=0.37, references=refs
    ),
    "BLEU add-k": lambda refs: facade.BLEU(smooth_method="add-k", references=refs),
    "BLEU add-k 3": lambda refs: facade.BLEU(
        smooth_method="add-k", smooth_value=3, references=refs
    ),
    "BLEU effective": lambda refs: facade.BLEU(effective_order=True, references=refs),
    "BLEU order 2": lambda refs: facade.BLEU(max_ngram_order=2, references=refs),
    "BLEU order 6 none": lambda refs: facade.BLEU(
        max_ngram_order=6, smooth_method="none", references=refs
    ),
    "chrF": lambda refs: facade.CHRF(references=refs),
    "chrF++": lambda refs: facade.CHRF(word_order=2, references=refs),
    "chrF eps": lambda refs: facade.CHRF(eps_smoothing=True, references=refs),
    "chrF++ eps": lambda refs: facade.CHRF(word_order=2, eps_smoothing=True, references=refs),
    "chrF beta 0": lambda refs: facade.CHRF(beta=0, references=refs),
    "chrF beta 3 order 3": lambda refs: facade.CHRF(beta=3, char_order=3, references=refs),
}


def _results(scores: dict[str, list[Any]]) -> dict[str, list[Any]]:
    return {k: [v if isinstance(v, str) else vars(v) for v in col] for k, col in scores.items()}


def _both(
    named: list[tuple[str, list[str]]], metrics: dict[str, Any], samples: int
) -> tuple[Any, Any]:
    """The kernel's results and PairedTest's (numpy's), signatures formatted."""
    served = _paired.paired_bootstrap(named, metrics, samples)
    assert served is not None
    signatures, scores = facade_significance.PairedTest(named, metrics, None, "bs", samples)()
    theirs = ({k: s.format() for k, s in signatures.items()}, _results(scores))
    ours = ({k: s.format() for k, s in served[0].items()}, _results(served[1]))
    return ours, theirs


@pytest.mark.parametrize("metric", list(METRICS))
def test_the_wmt_results_are_the_numpy_paths(metric: str) -> None:
    """Five en-de systems over 200 segments, each BLEU and chrF setting: the kernel's
    results (scores, p-values, means, half widths) and signatures are PairedTest's, float
    for float."""
    ref = wmt_window(wmt_lines(f"{PAIR}/ref.A.txt"), *WINDOW)
    named = [(s, wmt_window(wmt_lines(f"{PAIR}/sys.{s}.txt"), *WINDOW)) for s in SYSTEMS]
    ours, theirs = _both(named, {"m": METRICS[metric]([ref])}, 300)
    assert ours == theirs


WORDS = ["a", "b", "c", "d", "e", "ab", "ba", "!"]


def _line(rng: random.Random) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(rng.choice([0, 0, 1, 2, 3, 5, 8])))


@pytest.mark.parametrize("case", range(40))
def test_small_corpora_take_every_branch(case: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Tiny corpora (1-9 segments, empty lines, few matches: BLEU's early stop and smoothing
    branches, chrF's empty sides and eps terms, Python-float scores among float32 ones) under
    many seeds: the kernel's results are PairedTest's."""
    rng = random.Random(case)
    monkeypatch.setenv("SACREBLEU_SEED", str(rng.choice(SEEDS)))
    n = rng.randint(1, 9)
    ref = [_line(rng) for _ in range(n)]
    named = [(f"s{i}", [_line(rng) for _ in range(n)]) for i in range(rng.randint(2, 4))]
    chosen = rng.sample(list(METRICS), 4)
    metrics = {name: METRICS[name]([ref]) for name in chosen}
    ours, theirs = _both(named, metrics, rng.choice([1, 2, 39, 41, 80]))
    assert ours == theirs


def test_the_kernel_scores_are_the_numpy_scores() -> None:
    """The resampled scores themselves (not only their summaries) and their type: float32
    exactly where mtcompute.significance makes a float32 array."""
    ref = wmt_window(wmt_lines(f"{PAIR}/ref.A.txt"), *WINDOW)
    hyps = wmt_window(wmt_lines(f"{PAIR}/sys.Online-W.txt"), *WINDOW)
    for name in ["BLEU", "BLEU floor", "chrF++", "chrF eps"]:
        metric = METRICS[name]([ref])
        rows = _paired.rows_reader(metric, None)
        spec = _paired._spec(metric)
        assert rows is not None
        assert spec is not None
        _, buffer = rows(hyps)
        matrix = np.frombuffer(buffer, np.int64).reshape(len(hyps), -1)
        expected = significance.bootstrap_resample(
            metric._significance_metric(), matrix, samples=500, seed=99, arithmetic="sacrebleu"
        )
        drawn = _ext().bootstrap_scores(_paired.pcg64_bytes(99), 500, len(hyps), [(spec, buffer)])
        assert drawn is not None
        (scores, is32), *_ = drawn
        found = np.frombuffer(scores, np.float64)
        assert (name, found.tolist(), is32) == (
            name,
            expected.astype(np.float64).tolist(),
            expected.dtype == np.float32,
        )


@pytest.mark.parametrize("segments", [1, 2, 31, 100, 256, 257, 1000])
def test_large_statistics_are_summed_exactly(segments: int) -> None:
    """Statistics up to the largest the kernel takes (65535, and segments * max <= 2**24),
    several series sharing columns (uint16 chunks of one row to all): the scores are
    mtcompute.significance's."""
    rng = np.random.default_rng(segments)
    most = min(65535, 2**24 // segments)
    metric = facade.CHRF(char_order=2)
    spec = _paired._spec(metric)
    assert spec is not None
    shared = rng.integers(0, most + 1, (segments, 1))
    matrices = []
    for _ in range(3):
        m = rng.integers(0, most + 1, (segments, 6))
        m[:, 1:2] = shared  # the references' counts of the first order: one column for all
        matrices.append(m)
    series = [(spec, m.tobytes()) for m in matrices]
    drawn = _ext().bootstrap_scores(_paired.pcg64_bytes(5), 200, segments, series)
    assert drawn is not None
    for m, (scores, is32) in zip(matrices, drawn, strict=True):
        expected = significance.bootstrap_resample(
            metric._significance_metric(), m, samples=200, seed=5, arithmetic="sacrebleu"
        )
        found = np.frombuffer(scores, np.float64)
        assert (found.tolist(), is32) == (
            expected.astype(np.float64).tolist(),
            expected.dtype == np.float32,
        )


def test_sums_that_may_round_go_to_numpy() -> None:
    """A column whose sums may round in float32 (segments * max > 2**24), a negative value
    or one above 65535: the kernel declines (None), the command's numpy path adds them."""
    spec = (1, 1, 0, 0, 0.0, 2, 0, 3)
    big = np.array([[2**23, 2**23, 1], [1, 1, 1], [3, 3, 0]], np.int64).tobytes()
    negative = np.array([[1, 1, -1], [1, 1, 1]], np.int64).tobytes()
    fine = np.array([[5, 4, 3], [1, 1, 1]], np.int64).tobytes()
    wide = np.array([[70000, 1, 1]], np.int64).tobytes()  # exact in float32, not in uint16
    state = _paired.pcg64_bytes(1)
    assert _ext().bootstrap_scores(state, 10, 1, [(spec, wide)]) is None
    assert _ext().bootstrap_scores(state, 10, 3, [(spec, big)]) is None
    assert _ext().bootstrap_scores(state, 10, 2, [(spec, negative)]) is None
    assert _ext().bootstrap_scores(state, 10, 2, [(spec, fine)]) is not None
    with pytest.raises(ValueError, match="another size"):
        _ext().bootstrap_scores(state, 10, 3, [(spec, fine)])
    with pytest.raises(ValueError, match="spec"):
        _ext().bootstrap_scores(state, 10, 2, [((1, 1, 0, 0, 0.0, 2, 0, 4), fine)])
    for spec_of_another_type in ([1, 1, 0, 0, 0.0, 2, 0, 3], None):  # was a SystemError
        with pytest.raises(TypeError, match="spec: a tuple"):
            _ext().bootstrap_scores(state, 10, 2, [(spec_of_another_type, fine)])


def test_what_the_kernel_does_not_serve_goes_to_numpy(monkeypatch: pytest.MonkeyPatch) -> None:
    """TER, a hooked metric, references given to the test, an unseeded run and a lone
    baseline: the kernel's paired_bootstrap answers None (PairedTest runs them)."""
    ref = ["a b c", "d e"]
    named = [("x", ["a b", "d"]), ("y", ["a c", "e"])]

    class Hooked(facade.CHRF):
        def _remove_punctuation(self, sent: str) -> list[str]:
            return sent.split()

    for metrics in (
        {"TER": facade.TER(references=[ref])},
        {"BLEU": facade.BLEU(references=[ref]), "H": Hooked(references=[ref])},
    ):
        assert _paired.paired_bootstrap(named, metrics, 10) is None
    bleu = {"BLEU": facade.BLEU(references=[ref])}
    assert _paired.paired_bootstrap(named[:1], bleu, 10) is None
    assert _paired.paired_bootstrap(named, bleu, 10) is not None
    monkeypatch.setenv("SACREBLEU_SEED", "None")
    assert _paired.paired_bootstrap(named, bleu, 10) is None


def test_the_pure_path_leaves_it_to_numpy(kernel_and_pure: str) -> None:
    """On the pure path (MTCOMPUTE_PURE=1) the kernel step answers None."""
    bleu = {"BLEU": facade.BLEU(references=[["a b c", "d e"]])}
    served = _paired.paired_bootstrap([("x", ["a b", "d"]), ("y", ["a c", "e"])], bleu, 10)
    assert (served is None) == (kernel_and_pure == "pure")


# -- the command ---------------------------------------------------------------------------


SAMPLE = Path(__file__).parents[1] / "data" / "wmt" / PAIR  # 200 segments, in the repository


def _command(metrics: list[str], *extra: str) -> tuple[list[str], list[str]]:
    """Our command and sacreBLEU's on the five en-de systems of the in-repository sample."""
    files = [str(SAMPLE / f"sys.{s}.txt") for s in SYSTEMS]
    args = [str(SAMPLE / "ref.A.txt"), "-i", *files, "-m", *metrics, "-pbs", *extra]
    real = [str(Path(sys.executable).with_name("sacrebleu")), *args]
    return [*cli_command(), "sacrebleu", *args], real


def _run(command: list[str], env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        command,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        env={**{k: v for k, v in os.environ.items() if k != "MTCOMPUTE_PURE"}, **(env or {})},
    )


@pytest.mark.parametrize(
    ("metrics", "numpy"), [(["bleu", "chrf"], False), (["bleu", "chrf", "ter"], True)]
)
def test_the_command_prints_sacrebleus_bytes(metrics: list[str], numpy: bool) -> None:
    """``mtcompute sacrebleu ... -pbs -f text`` on five systems prints sacreBLEU's bytes;
    with BLEU and chrF alone it imports neither numpy nor threadpoolctl (the kernel serves
    the whole run), with TER the numpy path runs."""
    ours, real = _command(metrics, "-f", "text")
    done, expected = _run(ours), _run(real)
    assert (0, expected.returncode, done.stdout) == (done.returncode, 0, expected.stdout)
    modules = imported(ours)  # at exit, importlib's imports included
    assert ({"numpy", "threadpoolctl"} <= modules, "numpy" in modules) == (numpy, numpy)


def test_the_command_prints_its_json_on_both_paths() -> None:
    """The JSON of BLEU and chrF (which sacreBLEU under numpy 2 cannot print) is the same on
    the kernel's path and numpy's."""
    ours, _ = _command(["bleu", "chrf"])
    kernel, pure = _run(ours), _run(ours, {"MTCOMPUTE_PURE": "1"})
    assert (0, 0, kernel.stdout) == (kernel.returncode, pure.returncode, pure.stdout)
    assert '"mean": ' in kernel.stdout


# -- settings and sizes at the edges -------------------------------------------------------


def _child(code: str) -> subprocess.CompletedProcess[str]:
    """``code`` run by a child Python on the kernel's path (whatever MTCOMPUTE_PURE says)."""
    env = {k: v for k, v in os.environ.items() if k != "MTCOMPUTE_PURE"}
    return subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env=env,
    )


TINY_REF = ["a b c d", "e f g", "h i"]
TINY = [("s1", ["a b c", "e f g", "h"]), ("s2", ["a b d d", "e g", "h i"])]


@pytest.mark.parametrize("text", ["007", " 5", "1_0", "+3"])
def test_the_seed_is_signed_as_sacrebleu_signs_it(
    text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """sacreBLEU signs ``str(int(SACREBLEU_SEED))`` (``007`` is ``seed:7``), not the text."""
    monkeypatch.setenv("SACREBLEU_SEED", text)
    ours, theirs = _both(TINY, {"m": facade.BLEU(references=[TINY_REF])}, 40)
    assert ours == theirs
    assert f"seed:{int(text)}|" in next(iter(ours[0].values()))


@pytest.mark.parametrize("beta", [46340, 46341, 50000, 2**26])
def test_a_large_beta_is_scored_as_numpy_scores_it(beta: int) -> None:
    """chrF's beta ** 2 past a C int (46341 ** 2 > 2**31) is still sacreBLEU's factor."""
    ours, theirs = _both(TINY, {"m": facade.CHRF(beta=beta, references=[TINY_REF])}, 40)
    assert ours == theirs


@pytest.mark.parametrize(
    "metric",
    [
        lambda refs: facade.CHRF(beta=2**26 + 1, references=refs),
        lambda refs: facade.CHRF(beta=3 * 10**9, references=refs),  # no C int
        lambda refs: facade.BLEU(smooth_method="add-k", smooth_value=math.nan, references=refs),
        lambda refs: facade.BLEU(smooth_method="floor", smooth_value=-1.0, references=refs),
        lambda refs: facade.BLEU(smooth_method="add-k", smooth_value=-1, references=refs),
        lambda refs: facade.BLEU(smooth_method="add-k", smooth_value=1e300, references=refs),
    ],
)
def test_settings_sacrebleu_scores_as_nan_or_refuses_go_to_numpy(metric: Any) -> None:
    """A beta whose square a double does not hold exactly, a NaN, negative or huge smoothing
    value (NaN scores, which the kernel refused with its own error, or the ``log`` of a
    negative precision, sacreBLEU's ``math domain error``; add-k 1e300 is inf / inf): the
    kernel declines, the numpy path answers as sacreBLEU does."""
    named = [("s1", ["a b c", "x y", "h"]), ("s2", ["a x c d", "e g", "i h"])]
    assert _paired.paired_bootstrap(named, {"m": metric([TINY_REF])}, 40) is None


def test_sizes_past_memory_are_refused_not_written() -> None:
    """Resamples or draws whose buffer size wraps around a Py_ssize_t: MemoryError (in a
    child, as it used to write past its buffer and crash), and a clear error from the test."""
    code = """if True:
        from mtcompute import native
        from mtcompute.sacrebleu import _paired
        import mtcompute.sacrebleu as facade
        ext, state = native.ext, _paired.pcg64_bytes(1)
        spec, rows = (1, 1, 0, 0, 0.0, 2, 0, 3), bytes(48)
        for call in (
            lambda: ext.bootstrap_scores(state, 2**61 + 1, 2, [(spec, rows)]),
            lambda: ext.resample_draws(state, 5, 2**61 + 1),
        ):
            try:
                call()
            except MemoryError:
                print("MemoryError")
        bleu = {"m": facade.BLEU(references=[["a b", "c"]])}
        for samples in (2**61 + 1, 2**63):
            try:
                _paired.paired_bootstrap([("x", ["a", "c"]), ("y", ["b", "c"])], bleu, samples)
            except ValueError as error:
                print(error)
    """
    done = _child(code)
    assert (done.returncode, done.stdout.splitlines()) == (
        0,
        [
            "MemoryError",
            "MemoryError",
            "paired bootstrap: 2305843009213693953 resamples of 2 segments do not fit in memory",
            "paired bootstrap: 9223372036854775808 resamples of 2 segments do not fit in memory",
        ],
    )


def test_a_series_list_emptied_while_it_is_read_is_not_read_freed() -> None:
    """A spec's number whose ``__float__`` empties the list of series (Python code the
    kernel runs while reading it): the kernel reads its own snapshot (it used to read the
    freed items and crash, hence a child)."""
    code = """if True:
        import array
        from mtcompute import native
        from mtcompute.sacrebleu import _paired
        series = []
        class Emptying:
            def __float__(self):
                series.clear()
                return 0.0
        rows = array.array("q", [5, 4, 3, 1, 1, 1])
        series += [((1, 1, 0, 0, Emptying(), 2, 0, 3), rows), ((1, 1, 0, 0, 0.0, 2, 0, 3), rows)]
        print(len(native.ext.bootstrap_scores(_paired.pcg64_bytes(1), 10, 2, series)))
    """
    done = _child(code)
    assert (done.returncode, done.stdout) == (0, "2\n")
