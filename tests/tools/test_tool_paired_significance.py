"""paired-significance@1.0.0: one test per semantics line, the error table, the limits, and
sacreBLEU.

sacreBLEU 2.6.0 is the reference: its ``PairedTest`` (the baseline's statistics, score and
bootstrap interval, its signatures) with each comparison run by the test function it calls,
``_paired_bs_test`` or ``_paired_ar_test``, given the seed itself (:func:`sacre_paired`), so
that seed 0 is seeded as here (``PairedTest.__call__`` passes ``seed if seed else None``); for
other seeds that is ``PairedTest()()`` itself (:func:`test_the_oracle_is_paired_test`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest
import sacrebleu.significance as sb
from sacrebleu.metrics import BLEU, CHRF, TER

import mtcompute
from mtcompute import significance
from mtcompute.contracts import contract
from mtcompute.metrics.chrf.resample import ChrfMetric
from mtcompute.metrics.chrf.score import ChrfOptions
from mtcompute.tools import get_tool
from mtcompute.tools.paired_significance import paired_significance
from tests.conftest import WMT, WMT_IS_SAMPLE
from tests.harness import ToolHarness, no_download, read_lines

TOOL = ("paired-significance", "1.0.0")
BASELINE = ["The cat sat on mat.", "A quick brown fox jumps over the dog.", "It rains a lot.", ""]
SYSTEM_B = ["The cat sat on the mat.", "A fast brown fox jumps over a dog.", "It rains.", "Hi"]
SYSTEM_C = ["A cat sat on a mat.", "The quick brown fox jumped over the dog.", "Rain.", ""]
REFS = [
    ["The cat sat on the mat.", "There is a cat on the mat."],
    ["A fast brown fox jumped over the lazy dog."],
    ["It rains a lot in this city.", "It is raining a lot.", "Much rain."],
    ["Hello"],
]
SYSTEMS = [{"name": "B", "hypotheses": SYSTEM_B}, {"name": "C", "hypotheses": SYSTEM_C}]
BASE: dict[str, Any] = {
    "baseline": BASELINE,
    "systems": SYSTEMS,
    "references": REFS,
    "metrics": ["bleu"],
    "method": "bootstrap",
    "samples": 100,
}
MAX_SYSTEMS, MAX_SEGMENTS, MAX_REFERENCES, MAX_TEXT_BYTES = 16, 4096, 8, 4_194_304
MAX_SAMPLES, MAX_DRAWS, MAX_WORK = 20000, 40_960_000, 268_435_456
MAX_SEGMENT_WORDS, MAX_ALIGNED_WORDS, MAX_RESAMPLE_SUM = 1024, 131_072, 2**24

HARNESS = ToolHarness(TOOL, BASE)
run, input_with, error = HARNESS.run, HARNESS.input_with, HARNESS.error

TEST_TYPE = {"bootstrap": "bs", "approximate_randomization": "ar"}
DEFAULT_SAMPLES = {"bootstrap": 1000, "approximate_randomization": 10000}
SACRE_METRICS = {"bleu": BLEU, "chrf": CHRF, "ter": TER}


def sacre_streams(references: Sequence[Sequence[str]]) -> list[list[str | None]]:
    """Per-segment references as sacreBLEU's streams (a segment's missing one is None)."""
    most = max(len(r) for r in references)
    return [[r[j] if j < len(r) else None for r in references] for j in range(most)]


def _result(r: sb.Result, name: str | None = None) -> dict[str, Any]:
    """A sacreBLEU Result in the tool's shape (Python floats of its numpy scalars)."""
    out: dict[str, Any] = {} if name is None else {"name": name}
    out["score"] = float(r.score)
    if r.p_value is not None:
        out["p_value"] = r.p_value
    if r.mean is not None:
        out |= {"mean": float(r.mean), "ci": float(r.ci or 0.0)}
    return out


def sacre_paired(raw: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """sacreBLEU 2.6.0's paired test of a tool input, in the tool's result shape."""
    method = raw["method"]
    samples = raw.get("samples", DEFAULT_SAMPLES[method])
    seed = raw.get("seed", 12345)
    monkeypatch.setenv("SACREBLEU_SEED", str(seed))  # the baseline's interval reads it
    listed = [m for m in ("bleu", "chrf", "ter") if m in raw["metrics"]]
    metrics = {m: SACRE_METRICS[m](**raw.get(m, {})) for m in listed}
    named = [("baseline", raw["baseline"])] + [(s["name"], s["hypotheses"]) for s in raw["systems"]]
    test = sb.PairedTest(
        named, metrics, sacre_streams(raw["references"]), TEST_TYPE[method], samples
    )
    names = list(test._baseline_info)
    outcomes = [
        test._fn(test._baseline_info, name, hyps, test.references, test.metrics, samples, -1, seed)[
            1
        ]
        for name, hyps in named[1:]
    ]
    out: dict[str, Any] = {
        "method": method,
        "samples": samples,
        "seed": seed,
        "segment_count": len(raw["baseline"]),
    }
    for metric, name in zip(listed, names, strict=True):
        out[metric] = {
            "name": name,
            "signature": str(test._signatures[name]),
            "baseline": _result(test._baseline_info[name][1]),
            "systems": [
                _result(outcome[name], system)
                for (system, _), outcome in zip(named[1:], outcomes, strict=True)
            ],
        }
    return out


def wmt_en_de(lines: int | None = None) -> tuple[list[str], list[tuple[str, list[str]]], list[str]]:
    """generaltest2022 en-de: JDExploreAcademy (the issue's baseline), the other four systems
    by name, reference A (the first ``lines`` segments)."""
    folder = WMT / "generaltest2022" / "en-de"
    names = ["JDExploreAcademy", "Online-B", "Online-W", "OpenNMT", "PROMT"]
    texts = [read_lines(folder / f"sys.{name}.txt")[:lines] for name in names]
    reference = read_lines(folder / "ref.A.txt")[:lines]
    return texts[0], list(zip(names[1:], texts[1:], strict=True)), reference


def _wmt_input(lines: int | None, **changes: Any) -> dict[str, Any]:
    baseline, systems, reference = wmt_en_de(lines)
    return {
        "baseline": baseline,
        "systems": [{"name": name, "hypotheses": hyps} for name, hyps in systems],
        "references": [[r] for r in reference],
        **changes,
    }


# --- one test per semantics line ------------------------------------------------------------


@HARNESS.semantics_line(0)
def test_systems_and_references_are_laid_out_per_segment(monkeypatch: pytest.MonkeyPatch) -> None:
    """The systems come back in input order with their names, references[i] are segment i's
    (any number per segment: nrefs:var), texts may be empty; swapping two systems swaps their
    rows and swapping two segments' references changes the scores."""
    raw = input_with(metrics=["bleu", "chrf"])
    result = run(metrics=["bleu", "chrf"])
    swapped = run(metrics=["bleu", "chrf"], systems=SYSTEMS[::-1])
    moved = run(references=[REFS[1], REFS[0], *REFS[2:]])
    assert (sacre_paired(raw, monkeypatch), ["C", "B"], True, "nrefs:var|") == (
        result,
        [s["name"] for s in swapped["chrf"]["systems"]],
        moved["bleu"]["baseline"]["score"] != result["bleu"]["baseline"]["score"],
        result["bleu"]["signature"][:10],
    )


OPTIONS = [
    ({"metrics": ["bleu"], "bleu": {"tokenize": "char", "smooth_method": "floor"}}),
    ({"metrics": ["bleu"], "bleu": {"lowercase": True, "smooth_method": "add-k",
                                    "smooth_value": 0.5, "max_ngram_order": 3}}),
    ({"metrics": ["bleu"], "bleu": {"smooth_method": "none", "effective_order": True}}),
    ({"metrics": ["chrf"], "chrf": {"word_order": 2, "beta": 1, "eps_smoothing": True}}),
    ({"metrics": ["chrf"], "chrf": {"char_order": 3, "lowercase": True, "whitespace": True}}),
    ({"metrics": ["ter"], "ter": {"normalized": True, "no_punct": True}}),
    ({"metrics": ["ter"], "ter": {"case_sensitive": True, "asian_support": True}}),
]  # fmt: skip


@HARNESS.semantics_line(1)
@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: str(o)[:60])
def test_metric_options_are_sacrebleu_scores(
    options: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Under sacrebleu-score's options, every score is sacrebleu-score@1.1.0's for that
    system's texts, and the whole result is sacreBLEU's paired test's."""
    (metric,) = options["metrics"]
    result = run(**options)[metric]
    texts = [BASELINE, SYSTEM_B, SYSTEM_C]
    alone = [
        mtcompute.execute("sacrebleu-score", "1.1.0", {"hypotheses": t, "references": REFS,
                                                       **options})["result"][metric]["score"]
        for t in texts
    ]  # fmt: skip
    scores = [result["baseline"]["score"]] + [s["score"] for s in result["systems"]]
    assert (alone, sacre_paired(input_with(**options), monkeypatch)[metric]) == (scores, result)


def test_metric_errors_are_sacrebleu_scores() -> None:
    """A fault in metrics or an options object gets sacrebleu-score's code, path and message."""
    faults = [
        {"metrics": ["bleu", "bleu"]},
        {"metrics": ["bleu"], "bleu": {"smooth_value": 0.5}},
        {"metrics": ["bleu"], "chrf": {}},
        {"metrics": ["chrf"], "chrf": {"beta": 17}},
        {"metrics": ["ter"], "ter": {"normalized": "yes"}},
        {"metrics": ["bleu"], "bleu": {"tokenize": "spm"}},
        {"metrics": []},
    ]
    sacre = {"hypotheses": BASELINE, "references": REFS}
    expected = [
        mtcompute.execute("sacrebleu-score", "1.1.0", {**sacre, **fault})["error"]
        for fault in faults
    ]
    assert [(e["code"], e["path"], e["message"]) for e in expected] == [
        error(input_with(**fault)) for fault in faults
    ]


@HARNESS.semantics_line(2)
def test_method_samples_and_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    """samples defaults to 1000 resamples and 10000 trials, seed to 12345; seed 0 is seeded
    (the same answer twice, sacreBLEU's test functions with seed 0, not seed 12345's)."""
    bootstrap = run(samples=...)
    ar = run(samples=..., method="approximate_randomization")
    zero = input_with(seed=0, metrics=["chrf"])
    assert (1000, 10000, 12345, 12345) == (
        bootstrap["samples"], ar["samples"], bootstrap["seed"], ar["seed"]
    )  # fmt: skip
    assert (sacre_paired(zero, monkeypatch), run(seed=0, metrics=["chrf"]), True) == (
        run(seed=0, metrics=["chrf"]),
        run(seed=0, metrics=["chrf"]),
        run(seed=0, metrics=["chrf"]) != run(metrics=["chrf"]),
    )


def test_the_seed_is_mtcompute_significance_seed() -> None:
    """The result is mtcompute.significance's, in sacrebleu arithmetic, over the metric packages'
    statistics, for the seed given (0 here)."""
    options = ChrfOptions(word_order=2)
    metric = ChrfMetric(options)
    texts = [BASELINE, SYSTEM_B, SYSTEM_C]
    table = significance.Table(metric, [metric.statistics(t, REFS) for t in texts])
    direct = significance.paired_bootstrap([table], samples=300, seed=0, arithmetic="sacrebleu")
    result = run(metrics=["chrf"], chrf={"word_order": 2}, samples=300, seed=0)["chrf"]
    base, *others = direct[0]
    expected = [(base.score, None, base.mean, base.ci)]
    expected += [(r.score, r.p_value, r.mean, r.ci) for r in others]
    rows = [result["baseline"], *result["systems"]]
    assert expected == [(r["score"], r.get("p_value"), r["mean"], r["ci"]) for r in rows]


def test_the_oracle_is_paired_test(monkeypatch: pytest.MonkeyPatch) -> None:
    """For a seed other than 0, sacre_paired is sacreBLEU's PairedTest()() itself."""
    raw = input_with(metrics=["bleu", "chrf"], seed=7, method="approximate_randomization")
    monkeypatch.setenv("SACREBLEU_SEED", "7")
    named = [("baseline", BASELINE), ("B", SYSTEM_B), ("C", SYSTEM_C)]
    test = sb.PairedTest(named, {"bleu": BLEU(), "chrf": CHRF()}, sacre_streams(REFS), "ar", 100)
    signatures, scores = test()
    expected = sacre_paired(raw, monkeypatch)
    assert [
        [_result(r) if i == 0 else _result(r, named[i][0]) for i, r in enumerate(scores[name])]
        for name in ("BLEU", "chrF2")
    ] == [[expected[m]["baseline"], *expected[m]["systems"]] for m in ("bleu", "chrf")]
    assert [str(signatures["BLEU"]), str(signatures["chrF2"])] == [
        expected["bleu"]["signature"], expected["chrf"]["signature"]
    ]  # fmt: skip


@HARNESS.semantics_line(3)
@pytest.mark.parametrize("method", ["bootstrap", "approximate_randomization"])
def test_the_tests_rules(method: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """p-values are multiples of 1/(samples + 1) in (0, 1]; the bootstrap gives every row a
    mean and ci (ci >= 0), AR none; all of it sacreBLEU's."""
    raw = input_with(metrics=["bleu", "chrf", "ter"], method=method, samples=250)
    result = run(metrics=["bleu", "chrf", "ter"], method=method, samples=250)
    rows = [row for m in ("bleu", "chrf", "ter") for row in [result[m]["baseline"],
                                                               *result[m]["systems"]]]  # fmt: skip
    p_values = [s["p_value"] for m in ("bleu", "chrf", "ter") for s in result[m]["systems"]]
    keys = {"bootstrap": {"mean", "ci"}, "approximate_randomization": set()}[method]
    assert (sacre_paired(raw, monkeypatch), True, True) == (
        result,
        all(p == round(p * 251) / 251 and 1 <= round(p * 251) <= 251 for p in p_values),
        all(keys <= set(row) and (not keys or row["ci"] >= 0) for row in rows)
        and all("mean" not in row for row in rows if not keys),
    )


@HARNESS.semantics_line(4)
def test_output_fields() -> None:
    """method, samples and seed echo the test; names and signatures are PairedTest's."""
    result = run(metrics=["ter", "chrf", "bleu"], method="approximate_randomization", seed=3,
                 chrf={"word_order": 2}, samples=50)  # fmt: skip
    assert (
        ["method", "samples", "seed", "segment_count", "bleu", "chrf", "ter"],
        ("approximate_randomization", 50, 3, 4),
        ["BLEU", "chrF2++", "TER"],
        "nrefs:var|ar:50|seed:3|case:lc|tok:tercom|norm:no|punct:yes|asian:no|version:2.6.0",
        [["score"], ["name", "score", "p_value"]],
    ) == (
        list(result),
        (result["method"], result["samples"], result["seed"], result["segment_count"]),
        [result[m]["name"] for m in ("bleu", "chrf", "ter")],
        result["ter"]["signature"],
        [list(result["ter"]["baseline"]), list(result["ter"]["systems"][0])],
    )


def _generated(rng: np.random.Generator, segments: int, systems: int) -> dict[str, Any]:
    words = ["a", "b", "c", "d", "e", "the", "cat", "sat", ".", ",", "Dog"]

    def text() -> str:
        return " ".join(rng.choice(words, size=int(rng.integers(0, 9))).tolist())

    return {
        "baseline": [text() for _ in range(segments)],
        "systems": [
            {"name": f"s{k}", "hypotheses": [text() for _ in range(segments)]}
            for k in range(systems)
        ],
        "references": [[text() for _ in range(int(rng.integers(1, 4)))] for _ in range(segments)],
    }


GRID = [
    (segments, systems, method, samples, seed)
    for segments, systems in [(1, 1), (7, 3), (30, 2)]
    for method, samples, seed in [("bootstrap", 200, 12345), ("bootstrap", 41, 99),
                                  ("approximate_randomization", 300, 12345),
                                  ("approximate_randomization", 64, 1)]
]  # fmt: skip


@HARNESS.semantics_line(5)
@pytest.mark.parametrize(("segments", "systems", "method", "samples", "seed"), GRID)
def test_generated_corpora_are_sacrebleus(
    segments: int,
    systems: int,
    method: str,
    samples: int,
    seed: int,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Generated corpora (empty texts, 1 to 3 references, one segment too) under all three
    metrics: every number equals sacreBLEU's PairedTest's (Python float ==)."""
    raw = {
        **_generated(np.random.default_rng(segments * 100 + systems), segments, systems),
        "metrics": ["bleu", "chrf", "ter"],
        "method": method,
        "samples": samples,
        "seed": seed,
    }
    assert sacre_paired(raw, monkeypatch) == mtcompute.execute(*TOOL, raw)["result"]


def test_wmt_systems_are_sacrebleus(monkeypatch: pytest.MonkeyPatch) -> None:
    """The first 200 segments of en-de (five WMT systems), BLEU and chrF: both tests as
    sacreBLEU's PairedTest (the same with the in-repo sample and the full data)."""
    for method, samples in [("bootstrap", 1000), ("approximate_randomization", 1000)]:
        raw = _wmt_input(200, metrics=["bleu", "chrf"], method=method, samples=samples)
        assert sacre_paired(raw, monkeypatch) == mtcompute.execute(*TOOL, raw)["result"]


def test_the_issues_en_de_figures() -> None:
    """The whole en-de set with sacreBLEU's defaults gives the p-values the issue reports from
    sacreBLEU (k / 1001 and k / 10001, printed to six places) and its BLEU baseline interval."""
    if WMT_IS_SAMPLE:
        pytest.skip("the full WMT data is not here")
    bs = mtcompute.execute(*TOOL, _wmt_input(None, metrics=["bleu", "chrf"], method="bootstrap"))
    ar = mtcompute.execute(
        *TOOL, _wmt_input(None, metrics=["bleu", "chrf"], method="approximate_randomization")
    )
    p = {
        (method, m): [s["p_value"] for s in env["result"][m]["systems"]]
        for method, env in (("bs", bs), ("ar", ar))
        for m in ("bleu", "chrf")
    }
    baseline = bs["result"]["bleu"]["baseline"]
    assert {
        ("bs", "bleu"): [31 / 1001, 2 / 1001, 1 / 1001, 1 / 1001],
        ("bs", "chrf"): [43 / 1001, 166 / 1001, 1 / 1001, 1 / 1001],
        ("ar", "bleu"): [502 / 10001, 12 / 10001, 1 / 10001, 1 / 10001],
        ("ar", "chrf"): [697 / 10001, 4094 / 10001, 1 / 10001, 1 / 10001],
    } == p
    assert (37.79929525973223, 0.9890726025580676) == (baseline["mean"], baseline["ci"])
    assert [f"{v:.6f}" for v in p["bs", "bleu"] + p["ar", "bleu"]] == [
        "0.030969", "0.001998", "0.000999", "0.000999",
        "0.050195", "0.001200", "0.000100", "0.000100",
    ]  # fmt: skip


# --- the limits and errors ------------------------------------------------------------------


def _system(name: str, hypotheses: list[str] | None = None) -> dict[str, Any]:
    return {"name": name, "hypotheses": BASELINE if hypotheses is None else hypotheses}


ONE_OVER = ["é" * (MAX_TEXT_BYTES // 2 - 100)] + [
    "a"
] * 3  # with the systems and references: 89 over
LONG = " ".join(["a"] * (MAX_SEGMENT_WORDS + 1))
WORDS = " ".join(["a"] * MAX_SEGMENT_WORDS)
ERRORS = [
    HARNESS.missing("baseline"),
    HARNESS.missing("systems"),
    HARNESS.missing("references"),
    HARNESS.missing("metrics"),
    HARNESS.missing("method"),
    ("baseline", "invalid_input", "not an array", input_with(baseline="a"), "/baseline",
     'Expected an array of 1 to 4096 strings at /baseline, got the string "a".'),
    ("baseline", "limit_exceeded", "4097", input_with(baseline=["a"] * 4097), "/baseline",
     "Expected at most 4096 segments at /baseline (limit max segments), got 4097."),
    ("baseline", "invalid_input", "empty", input_with(baseline=[]), "/baseline",
     "Expected at least 1 segment at /baseline, got none."),
    ("baseline", "invalid_input", "not a string", input_with(baseline=["a", 1]), "/baseline/1",
     "Expected a string at /baseline/1, got 1."),
    ("baseline", "invalid_input", "different counts", input_with(baseline=BASELINE[:3]),
     "/systems/0/hypotheses", "Expected the hypotheses of each system to have as many "
     "segments as baseline (3) at /systems/0/hypotheses, got 4."),
    ("baseline", "invalid_input", "lone surrogate", input_with(baseline=["a", "\ud800", "", ""]),
     "/baseline/1", "Expected text without lone surrogates at /baseline/1, got U+D800 at "
     "index 0."),
    ("systems", "invalid_input", "not an array", input_with(systems={"B": SYSTEM_B}), "/systems",
     "Expected an array of 1 to 16 systems (name and hypotheses) at /systems, got an object."),
    ("systems", "limit_exceeded", "17", input_with(systems=[_system(f"s{i}") for i in range(17)]),
     "/systems", "Expected at most 16 systems at /systems (limit max systems), got 17."),
    ("systems", "invalid_input", "empty", input_with(systems=[]), "/systems",
     "Expected at least 1 system at /systems, got none."),
    ("systems", "invalid_input", "not an object", input_with(systems=[SYSTEM_B]), "/systems/0",
     "Expected an object of system fields (name, hypotheses) at /systems/0, got an array of 4 "
     "items."),
    ("systems", "invalid_input", "unknown key",
     input_with(systems=[{**_system("B"), "score": 1}]), "/systems/0/score",
     'Unknown key "score" at /systems/0; expected only name, hypotheses.'),
    ("systems", "invalid_input", "no name", input_with(systems=[{"hypotheses": BASELINE}]),
     "/systems/0/name", 'Missing required key "name" at /systems/0.'),
    ("systems", "invalid_input", "no hypotheses", input_with(systems=[_system("B"), {"name": "C"}]),
     "/systems/1/hypotheses", 'Missing required key "hypotheses" at /systems/1.'),
    ("systems", "invalid_input", "empty name", input_with(systems=[_system("")]),
     "/systems/0/name", 'Expected a system name (a non-empty string) at /systems/0/name, got '
     'the string "".'),
    ("systems", "invalid_input", "name not a string", input_with(systems=[_system(7)]),  # type: ignore[arg-type]
     "/systems/0/name", "Expected a system name (a non-empty string) at /systems/0/name, got 7."),
    ("systems", "invalid_input", "name of 129", input_with(systems=[_system("n" * 129)]),
     "/systems/0/name", "Expected a system name of at most 128 characters at /systems/0/name, "
     "got 129."),
    ("systems", "invalid_input", "name lone surrogate", input_with(systems=[_system("x\udc00")]),
     "/systems/0/name", "Expected a system name without lone surrogates at /systems/0/name, got "
     "U+DC00 at index 1."),
    ("systems", "invalid_input", "repeated name",
     input_with(systems=[_system("B"), _system("C"), _system("B")]), "/systems/2/name",
     'Expected each system name once at /systems, got the string "B" again at '
     "/systems/2/name."),
    ("systems", "invalid_input", "hypotheses not a string",
     input_with(systems=[_system("B", ["a", "b", None, "d"])]), "/systems/0/hypotheses/2",
     "Expected a string at /systems/0/hypotheses/2, got null."),
    ("systems", "invalid_input", "hypotheses count",
     input_with(systems=[_system("B"), _system("C", ["a"])]), "/systems/1/hypotheses",
     "Expected the hypotheses of each system to have as many segments as baseline (4) at "
     "/systems/1/hypotheses, got 1."),
    ("systems", "invalid_input", "hypotheses lone surrogate",
     input_with(systems=[_system("B", ["a", "b", "c", "\udfff"])]), "/systems/0/hypotheses/3",
     "Expected text without lone surrogates at /systems/0/hypotheses/3, got U+DFFF at index 0."),
    ("references", "invalid_input", "segment not an array", input_with(references=["a"] * 4),
     "/references/0", 'Expected an array of 1 to 8 reference strings at /references/0, got the '
     'string "a".'),
    ("references", "limit_exceeded", "9 references", input_with(references=[*REFS[:3], ["a"] * 9]),
     "/references/3", "Expected at most 8 references at /references/3 (limit max references), "
     "got 9."),
    ("references", "invalid_input", "different counts", input_with(references=REFS[:3]),
     "/references", "Expected references to have as many segments as baseline (4) at "
     "/references, got 3."),
    ("baseline", "limit_exceeded", "text bytes", input_with(baseline=ONE_OVER), "",
     "Expected at most 4194304 UTF-8 bytes of text in all (limit max text bytes), got "
     "4194393."),
    ("references", "invalid_input", "lone surrogate",
     input_with(references=[*REFS[:3], ["\ud801"]]), "/references/3/0",
     "Expected text without lone surrogates at /references/3/0, got U+D801 at index 0."),
    ("metrics", "invalid_input", "unknown metric", input_with(metrics=["comet"]), "/metrics/0",
     'Expected one of bleu, chrf, ter at /metrics/0, got the string "comet".'),
    ("bleu", "unsupported_input", "spm", input_with(bleu={"tokenize": "spm"}), "/bleu/tokenize",
     no_download("spm", "/bleu/tokenize")),
    ("method", "invalid_input", "unknown", input_with(method="paired-bs"), "/method",
     'Expected one of bootstrap, approximate_randomization at /method, got the string '
     '"paired-bs".'),
    ("samples", "invalid_input", "0", input_with(samples=0), "/samples",
     "Expected an integer of at least 1 at /samples, got 0."),
    ("samples", "invalid_input", "fractional", input_with(samples=10.5), "/samples",
     "Expected an integer at /samples, got 10.5."),
    ("samples", "limit_exceeded", "20001", input_with(samples=20001), "/samples",
     "Expected an integer of at most 20000 at /samples (limit max samples), got 20001."),
    ("seed", "invalid_input", "negative", input_with(seed=-1), "/seed",
     "Expected an integer of at least 0 at /seed, got -1."),
    ("seed", "invalid_input", "2**53", input_with(seed=2**53), "/seed",
     "Expected an integer of at most 9007199254740991 at /seed, got 9007199254740992."),
    ("seed", "invalid_input", "null", input_with(seed=None), "/seed",
     "Expected an integer at /seed, got null."),
    ("ter", "limit_exceeded", "1025 words in a system",
     input_with(metrics=["ter"], systems=[_system("B", ["a", "b", LONG, ""])]),
     "/systems/0/hypotheses/2", "Expected at most 1024 words at /systems/0/hypotheses/2 after "
     "tercom tokenization (limit max segment words), got 1025."),
    ("ter", "limit_exceeded", "aligned words over the systems",
     input_with(metrics=["ter"], baseline=[WORDS] * 4,
                systems=[_system(n, [WORDS] * 4) for n in "BCDEFGHIJKLMNOPQ"],
                references=[["a", "b"]] * 4), "",
     "Expected at most 131072 aligned words (each hypothesis's words times its references, "
     "summed over segments; limit max aligned words), got 139264."),
    ("samples", "limit_exceeded", "draws", input_with(baseline=["a"] * 4096, samples=10001,
     systems=[_system("B", ["a"] * 4096)], references=[["a"]] * 4096), "",
     "Expected at most 40960000 for samples times segments (limit max draws), got 10001 x "
     "4096 = 40964096."),
    ("samples", "limit_exceeded", "work", input_with(baseline=["a"] * 4096, samples=4097,
     systems=[_system(f"s{i}", ["a"] * 4096) for i in range(16)], references=[["a"]] * 4096), "",
     "Expected at most 268435456 for samples times segments times systems (limit max work), "
     "got 4097 x 4096 x 16 = 268500992."),
    ("baseline", "limit_exceeded", "resample sum",
     input_with(baseline=["a" * 2_000_000, "b", "c", "d", "e", "f", "g", "h", "i"],
                systems=[_system("B", ["a"] * 9)], references=[["a"]] * 9, metrics=["chrf"]),
     "/baseline/0", "Expected at most 16777216 for the segments times the largest statistic of "
     "one segment with method bootstrap (limit max resample sum; float32 adds integers exactly "
     "up to it), got 9 x 2000000 for chrF2 at /baseline/0."),
    ("samples", "invalid_input", "unknown key", input_with(trials=10), "/trials",
     'Unknown key "trials" in the input; expected only baseline, systems, references, metrics, '
     "bleu, chrf, ter, method, samples, seed."),
]  # fmt: skip
HARNESS.declare(
    ERRORS, errors_line=6, unchanged=input_with(metrics=["bleu", "chrf", "ter"], chrf={"beta": 3})
)


def test_the_limits_themselves_are_accepted() -> None:
    """16 systems, 4096 segments with 8 references, 4194304 bytes, 20000 samples, the TER
    words at their limits and a resample sum of exactly 2**24 are answered; exactly the draws
    and work limits pass validation."""
    segments = ["a"] * MAX_SEGMENTS
    most = run(
        baseline=["a b"] * MAX_SEGMENTS,
        references=[["a b"] * MAX_REFERENCES] * MAX_SEGMENTS,
        systems=[_system("B", segments)],
        samples=2,
    )
    sixteen = run(systems=[_system(f"s{i}") for i in range(MAX_SYSTEMS)], samples=10)
    half = "é" * (MAX_TEXT_BYTES // 4)
    full = run(
        baseline=[half, "", "", ""],
        references=[[half[:-3]], ["a"], ["b"], ["c"]],
        systems=[_system("B", ["", "", "", "a"])],
        samples=2,
    )
    samples = run(samples=MAX_SAMPLES, method="approximate_randomization")
    words = run(
        metrics=["ter"],
        baseline=[WORDS] * 4,
        references=[["a", "b"]] * 4,
        systems=[_system(n, [WORDS] * 4) for n in "BCDEFGHIJKLMNOP"],
        samples=10,
    )
    exact = run(
        baseline=["a" * (MAX_RESAMPLE_SUM // 8), *"bcdefgh"],
        metrics=["chrf"],
        systems=[_system("B", ["a"] * 8)],
        references=[["a"]] * 8,
        samples=5,
    )
    draws = input_with(
        baseline=segments,
        systems=[_system("B", segments)],
        references=[["a"]] * MAX_SEGMENTS,
        samples=MAX_DRAWS // MAX_SEGMENTS,
    )
    work = {
        **draws,
        "samples": MAX_WORK // MAX_SEGMENTS // MAX_SYSTEMS,
        "systems": [_system(f"s{i}", segments) for i in range(MAX_SYSTEMS)],
    }
    parse = get_tool(*TOOL).input.parse
    assert (MAX_SEGMENTS, MAX_SYSTEMS, 4, MAX_SAMPLES, 15, 8, 10000, 4096) == (
        most["segment_count"],
        len(sixteen["bleu"]["systems"]),
        full["segment_count"],
        samples["samples"],
        len(words["ter"]["systems"]),
        exact["segment_count"],
        parse(draws)["samples"],
        parse(work)["samples"],
    )


def test_every_wmt_test_set_is_within_the_resample_sum() -> None:
    """The largest N times longest text of the project's WMT data (generaltest2022 zh-en
    ref.B: 1875 segments, 1670 characters) is the contract's 3131250, under the limit."""
    if WMT_IS_SAMPLE:
        pytest.skip("the full WMT data is not here")
    products = {
        str(path.relative_to(WMT)): len(lines) * max(map(len, lines))
        for path in sorted(WMT.glob("*/*/*.txt"))
        for lines in [read_lines(path)]
    }
    top = max(products, key=products.__getitem__)
    semantics = contract(*TOOL)["semantics"][6]
    assert ("generaltest2022/zh-en/ref.B.txt", 3_131_250, True) == (
        top, products[top], "reach at most 3131250 (generaltest2022 zh-en" in semantics
    )  # fmt: skip


@HARNESS.semantics_line(7)
def test_validation_order() -> None:
    """The first failing check in the contract's order decides the error."""
    bad_system = {"name": "B", "hypotheses": ["\ud800"]}
    cases = [
        ({"zz": 1}, "/zz"),
        ({"baseline": 1}, "/systems"),  # every missing key before any value
        (input_with(baseline=["a"] * 4097, systems=1), "/baseline"),
        (input_with(systems=[_system("B"), _system("B", [1])]), "/systems/1/hypotheses/0"),
        (input_with(systems=[_system("B"), _system("B")], references=1), "/systems/1/name"),
        (input_with(systems=[bad_system], references=1), "/references"),
        (input_with(systems=[bad_system]), "/systems/0/hypotheses"),  # counts first
        (input_with(baseline=ONE_OVER, references=[*REFS[:3], ["\ud800"]], metrics=1), ""),
        (input_with(references=[*REFS[:3], ["\ud800"]], metrics=1), "/references/3/0"),
        (input_with(metrics=["ter"], bleu=1, method="x"), "/bleu"),
        (input_with(metrics=["ter"], bleu={}, method="x"), "/bleu"),
        (input_with(method="x", samples=0), "/method"),
        (input_with(samples=0, seed=-1), "/samples"),
        (input_with(seed=-1, metrics=["ter"], baseline=[LONG] * 4), "/seed"),
        (input_with(metrics=["ter"], baseline=[LONG] * 4, samples=MAX_SAMPLES), "/baseline/0"),
        (input_with(metrics=["ter"], references=[[LONG]] * 4), "/references/0/0"),
    ]  # fmt: skip
    assert [path for _, path in cases] == [error(raw)[1] for raw, _ in cases]


def test_the_result_is_frozen() -> None:
    """The typed result and its parts are frozen."""
    result = paired_significance(BASELINE, SYSTEMS, REFS, ["bleu"], "bootstrap", samples=10)
    assert result.bleu is not None
    HARNESS.assert_frozen(result, "seed")
    HARNESS.assert_frozen(result.bleu, "signature")
    HARNESS.assert_frozen(result.bleu.systems[0], "p_value")
