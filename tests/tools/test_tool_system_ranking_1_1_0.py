"""system-ranking@1.1.0: WER and CER rankings, one test per semantics line, the error table,
the limits, and ``mtcompute compare --rank -m wer / -m cer``; 1.0.0 kept as it answers.

The references are wer-compute@1.0.0 (each system's WER or CER, in percent here) and
``mtcompute compare --rank``'s JSON for the same systems, seed and samples
(:func:`test_the_numbers_are_compare_ranks`, and the contract's WER and CER examples in
:func:`test_the_wer_and_cer_examples_are_compare_ranks`). bleu, chrf and ter answer as 1.0.0
answers them (:func:`test_bleu_chrf_and_ter_answer_as_1_0_0`).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import mtcompute
from mtcompute.contracts import contract
from mtcompute.tools import LATEST, get_tool
from mtcompute.tools.system_ranking import system_ranking
from tests.conftest import run_cli, wmt_lines
from tests.harness import ToolHarness
from tests.tools import test_tool_system_ranking as v1
from tests.tools.test_tool_system_ranking import _system, as_tool

TOOL = ("system-ranking", "1.1.0")
# 1.0.0's systems with B lowercased and unpunctuated in its first segment (WER's options
# then change its score), against one reference per segment (WER takes one)
SYSTEM_B = ["the cat sat on the mat", *v1.SYSTEM_B[1:]]
REFS = [refs[:1] for refs in v1.REFS]
SYSTEMS = [v1.SYSTEMS[0], {"name": "B", "hypotheses": SYSTEM_B}, v1.SYSTEMS[2]]
BASE: dict[str, Any] = {"systems": SYSTEMS, "references": REFS, "metric": "wer", "samples": 100}
NORMALISED = {"lowercase": True, "remove_punctuation": True, "collapse_whitespace": True}

HARNESS = ToolHarness(TOOL, BASE)
run, input_with, error = HARNESS.run, HARNESS.input_with, HARNESS.error


def _wer_compute(hypotheses: list[str], unit: str, options: dict[str, Any]) -> dict[str, Any]:
    raw = {"hypotheses": hypotheses, "references": [r[0] for r in REFS], "unit": unit, **options}
    result: dict[str, Any] = mtcompute.execute("wer-compute", "1.0.0", raw)["result"]
    return result


# --- 1.0.0 stays as it was; 1.1.0 is the latest ------------------------------------------------


@HARNESS.semantics_line(0)
@HARNESS.semantics_line(2)
@HARNESS.semantics_line(4)
@HARNESS.semantics_line(5)
def test_bleu_chrf_and_ter_answer_as_1_0_0() -> None:
    """Layout, test, order, clusters and number form: with bleu, chrf and ter, 1.1.0 answers
    1.0.0's contract examples, and variants of their methods, seeds, thresholds and
    references, exactly as 1.0.0 does (result for result, error for error)."""
    inputs = []
    for example in contract("system-ranking", "1.0.0")["examples"]:
        raw = example["input"]
        inputs += [
            raw,
            {**raw, "method": "approximate_randomization", "samples": 99, "seed": 0},
            {**raw, "threshold": 1, "samples": 50},
            {**raw, "references": [[*r, r[0].lower()] for r in raw["references"]]},
            {**raw, "samples": 0},
        ]
    old = [mtcompute.execute("system-ranking", "1.0.0", raw) for raw in inputs]
    new = [mtcompute.execute("system-ranking", LATEST, raw) for raw in inputs]
    assert (old, 4 * 3) == (new, sum("result" in e for e in new))


def test_1_0_0_refuses_wer_and_cer_and_latest_is_1_1_0() -> None:
    """1.0.0 still refuses metric wer with its own message; latest is 1.1.0, which ranks it."""
    envelope = mtcompute.execute("system-ranking", "1.0.0", BASE)
    assert {
        "code": "invalid_input",
        "message": 'Expected one of bleu, chrf, ter at /metric, got the string "wer".',
        "path": "/metric",
    } == envelope["error"]
    assert (get_tool(*TOOL), "WER") == (
        get_tool("system-ranking", LATEST),
        mtcompute.execute("system-ranking", LATEST, BASE)["result"]["metric"],
    )


# --- one test per semantics line ------------------------------------------------------------


@HARNESS.semantics_line(1)
def test_wer_and_cer_scores_are_wer_computes_in_percent() -> None:
    """Each system's WER or CER is wer-compute's score with the same normalisations, times
    100; the signature is compare's WER signature with bs or ar and seed after nrefs and no
    mtcompute version; WER and CER are lower-is-better."""
    cases = [("wer", "word", {}), ("cer", "character", NORMALISED), ("wer", "word", NORMALISED)]
    for metric, unit, options in cases:
        result = run(metric=metric, **{metric: options}, method="approximate_randomization")
        scores = {s["name"]: s["score"] for s in result["systems"]}
        expected = {
            s["name"]: 100 * _wer_compute(s["hypotheses"], unit, options)["score"] for s in SYSTEMS
        }
        lc, punct, ws = ("yes", "no", "collapsed") if options else ("no", "yes", "jiwer")
        signature = (
            f"nrefs:1|ar:100|seed:12345|unit:{unit}|lc:{lc}|punct:{punct}|ws:{ws}|jiwer:4.0.0"
        )
        assert (expected, metric.upper(), signature, True) == (
            scores,
            result["metric"],
            result["signature"],
            result["lower_is_better"],
        )


@HARNESS.semantics_line(3)
def test_pairs_of_wer_and_cer_have_no_human_agreement() -> None:
    """Each pair's delta is second minus first, better is the lower rate, significant is
    p <= threshold, and human_agreement is null (Kocmi et al. fitted no WER or CER curve)."""
    for metric in ("wer", "cer"):
        result = run(metric=metric, threshold=0.5)
        scores = {s["name"]: s["score"] for s in result["systems"]}
        for p in result["pairs"]:
            delta = scores[p["second"]] - scores[p["first"]]
            better = None if delta == 0 else (p["second"] if delta < 0 else p["first"])
            assert (delta, better, better is not None and p["p_value"] <= 0.5, None) == (
                p["delta"],
                p["better"],
                p["significant"],
                p["human_agreement"],
            )


def test_wer_systems_best_first() -> None:
    """The lowest rate ranks first: a copy of the references is 1, a system of one wrong
    word per segment last."""
    exact = [r[0] for r in REFS]
    result = run(
        systems=[_system("x", ["x"] * 4), _system("B", SYSTEM_B), _system("ref", exact)],
        method="approximate_randomization",
        samples=200,
        threshold=0.5,
    )
    assert [("ref", "1", 0), ("B", "2", 1), ("x", "3", 1)] == [
        (s["name"], s["rank"], min(s["score"], 1)) for s in result["systems"]
    ]


# --- the limits and errors ------------------------------------------------------------------

WORDS = " ".join(["w"] * 4097)
ERRORS = [
    ("metric", "invalid_input", "unknown", input_with(metric="mer"), "/metric",
     'Expected one of bleu, chrf, ter, wer, cer at /metric, got the string "mer".'),
    ("wer", "invalid_input", "not a boolean", input_with(wer={"lowercase": "yes"}),
     "/wer/lowercase", 'Expected true or false at /wer/lowercase, got the string "yes".'),
    ("cer", "invalid_input", "unknown key", input_with(metric="cer", cer={"unit": "word"}),
     "/cer/unit", 'Unknown key "unit" at /cer; expected only lowercase, remove_punctuation, '
     "collapse_whitespace."),
    ("cer", "invalid_input", "for another metric", input_with(cer={}), "/cer",
     "Expected cer options only with metric cer at /cer, got them with metric wer."),
    ("wer", "invalid_input", "with bleu", input_with(metric="bleu", wer={}), "/wer",
     "Expected wer options only with metric wer at /wer, got them with metric bleu."),
    ("references", "invalid_input", "two with wer", input_with(references=[*REFS[:3], ["a", "b"]]),
     "/references/3", "Expected one reference per segment with metric wer at /references/3 "
     "(WER and CER have one reference), got 2."),
    ("references", "invalid_input", "no unit", input_with(metric="cer", references=[[""]] * 4),
     "/references", "Expected at least one reference with characters after normalisation at "
     "/references (an error rate is over the reference's length), got none."),
    ("references", "invalid_input", "no unit without punctuation",
     input_with(wer={"remove_punctuation": True}, references=[["."], ["!"], [""], ["?"]]),
     "/references", "Expected at least one reference with words after normalisation at "
     "/references (an error rate is over the reference's length), got none."),
    ("systems", "limit_exceeded", "4097 words", input_with(systems=[_system("A"),
     _system("B", ["a", WORDS, "", ""])]), "/systems/1/hypotheses/1",
     "Expected at most 4096 words at /systems/1/hypotheses/1 after normalisation (limit max "
     "segment units), got 4097."),
    ("references", "limit_exceeded", "4097 characters",
     input_with(metric="cer", references=[*REFS[:2], ["é" * 4097], REFS[3]]), "/references/2/0",
     "Expected at most 4096 characters at /references/2/0 after normalisation (limit max "
     "segment units), got 4097."),
    ("systems", "limit_exceeded", "aligned units", input_with(metric="cer",
     systems=[_system(f"s{i}", ["ab"] * 4096) for i in range(16)],
     references=[["a" * 31]] + [["a" * 30]] * 4095), "",
     "Expected at most 2097152 units aligned (each hypothesis's and its reference's, summed over "
     "every system; limit max aligned units), got 2097168."),
    ("systems", "limit_exceeded", "unit pairs", input_with(metric="cer",
     systems=[_system(f"s{i}", ["b" * 4096] * 4 + ["b" * 4]) for i in range(4)],
     references=[["a" * 4096]] * 4 + [["a" * 4]]), "",
     "Expected at most 268435456 unit pairs (each hypothesis's units times its reference's, "
     "summed over every system; limit max unit pairs), got 268435520."),
    ("samples", "invalid_input", "unknown key", input_with(trials=10), "/trials",
     'Unknown key "trials" in the input; expected only systems, references, metric, bleu, '
     "chrf, ter, wer, cer, method, samples, seed, threshold."),
]  # fmt: skip
HARNESS.declare(ERRORS, errors_line=6, unchanged=input_with(metric="cer", cer=NORMALISED))


def test_the_unit_limits_themselves_are_accepted() -> None:
    """Exactly the limits pass: 4096 units in a text, 2097152 units aligned, 268435456 unit
    pairs."""
    spec = get_tool(*TOOL).input
    at_limits = [
        input_with(systems=[_system("A"), _system("B", ["a", " ".join(["w"] * 4096), "", ""])]),
        input_with(
            metric="cer",
            systems=[_system(f"s{i}", ["ab"] * 4096) for i in range(16)],
            references=[["a" * 30]] * 4096,
        ),
        input_with(
            metric="cer",
            systems=[_system(f"s{i}", ["b" * 4096] * 4 + [""]) for i in range(4)],
            references=[["a" * 4096]] * 4 + [["a" * 3]],
        ),
    ]
    assert ["wer", "cer", "cer"] == [spec.parse(raw)["metric"] for raw in at_limits]


@HARNESS.semantics_line(7)
def test_validation_order() -> None:
    """The first failing check in the contract's order decides the error: the metric's
    options, then one reference per segment, then the method ... threshold, then the units."""
    two_refs = [*REFS[:3], ["a", "b"]]
    long = [_system("A"), _system("B", ["a", WORDS, "", ""])]
    cases = [
        (input_with(metric="mer", references=two_refs), "/metric"),
        (input_with(wer={"lowercase": 1}, cer={}, references=two_refs), "/wer/lowercase"),
        (input_with(cer={}, references=two_refs), "/cer"),
        (input_with(references=two_refs, method="x"), "/references/3"),
        (input_with(method="x", references=[[""]] * 4), "/method"),
        (input_with(threshold=2, systems=long), "/threshold"),
        (input_with(systems=long, references=[[""]] * 4), "/systems/1/hypotheses/1"),
        (input_with(references=[[""]] * 4096, samples=20000,
                    systems=[_system(n, ["a"] * 4096) for n in "AB"]), "/references"),
        (input_with(metric="bleu", references=two_refs), None),
    ]  # fmt: skip
    expected = [path for _, path in cases]
    actual = [
        error(raw)[1] if "error" in mtcompute.execute(*TOOL, raw) else None for raw, _ in cases
    ]
    assert expected == actual


def test_the_typed_function_takes_wer_and_cer_options() -> None:
    """system_ranking(..., "cer", cer={...}) is the tool's answer, as a frozen result."""
    result = system_ranking(SYSTEMS, REFS, "cer", cer=NORMALISED, samples=10)
    HARNESS.assert_frozen(result, "metric")
    assert run(metric="cer", cer=NORMALISED, samples=10) == result.to_dict()


# --- the same numbers as mtcompute compare --rank -------------------------------------------

PAIR = "generaltest2022/en-de"
NAMES = ["JDExploreAcademy", "Online-B", "Online-W", "OpenNMT", "PROMT"]
LINES = 200  # the in-repo sample's segments


def _write(folder: Path, name: str, lines: list[str]) -> Path:
    path = folder / name
    path.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    return path


def _compare_ranks(
    folder: Path, systems: list[dict[str, Any]], references: list[list[str]], *args: str
) -> tuple[dict[str, Any], dict[str, str]]:
    """compare --rank's JSON ranking of the systems (written as files, the first the
    baseline) with ``args``, with its signature, and the file names' systems."""
    ref = _write(folder, "ref.txt", [r[0] for r in references])
    files = [str(_write(folder, f"sys.{s['name']}.txt", s["hypotheses"])) for s in systems]
    metric = args[args.index("-m") + 1]
    done = run_cli(
        "compare", "-r", str(ref), "-b", files[0], "-H", *files[1:], "--rank",
        "--format", "json", *args,
    )  # fmt: skip
    assert (0, b"") == (done.returncode, done.stderr)
    found = json.loads(done.stdout)
    ranking: dict[str, Any] = found["rankings"][metric]
    ranking["signature"] = found["signatures"][metric]
    return ranking, dict(zip(files, [s["name"] for s in systems], strict=True))


@pytest.mark.parametrize(
    ("metric", "method", "samples", "lowercase"),
    [("wer", "bootstrap", 300, False), ("cer", "ar", 400, True)],
)
def test_the_numbers_are_compare_ranks(
    tmp_path: Path, metric: str, method: str, samples: int, lowercase: bool
) -> None:
    """On the WMT en-de sample (5 systems, 200 segments), the tool's WER and CER systems and
    pairs are ``mtcompute compare --rank -m wer / -m cer``'s JSON rankings, number for
    number, for the same seed and samples (and --lowercase as the lowercase option)."""
    refs = [[line] for line in wmt_lines(f"{PAIR}/ref.A.txt")[:LINES]]
    systems = [{"name": n, "hypotheses": wmt_lines(f"{PAIR}/sys.{n}.txt")[:LINES]} for n in NAMES]
    args = ["-m", metric, "--method", method, "--samples", str(samples), "--seed", "7"]
    ranking, name = _compare_ranks(tmp_path, systems, refs, *args, *["--lowercase"] * lowercase)
    result = system_ranking(
        systems, refs, metric, **{metric: {"lowercase": lowercase}}, seed=7, samples=samples,
        method="bootstrap" if method == "bootstrap" else "approximate_randomization",
    ).to_dict()  # fmt: skip
    assert as_tool(ranking, name) == (result["metric"], result["systems"], result["pairs"])
    assert any(p["significant"] for p in result["pairs"])  # rank ranges other than 1-5
    # compare's signature, its mtcompute version out, the test's after nrefs
    nrefs, settings = ranking["signature"].rsplit("|mtcompute:", 1)[0].split("|", 1)
    key = "bs" if method == "bootstrap" else "ar"
    assert f"{nrefs}|{key}:{samples}|seed:7|{settings}" == result["signature"]


def test_the_wer_and_cer_examples_are_compare_ranks(tmp_path: Path) -> None:
    """The contract's WER and CER examples (computed with the tool) are compare --rank's
    rankings of the same files, seed and samples: a cross-check of the golden outputs."""
    examples = [e for e in contract(*TOOL)["examples"] if e["input"]["metric"] in ("wer", "cer")]
    checked = []
    for i, example in enumerate(examples):
        raw, output = example["input"], example["output"]
        metric = raw["metric"]
        options = raw.get(metric, {})
        assert set(options) <= {"lowercase"}  # what compare can say (--lowercase)
        method = "ar" if raw.get("method") == "approximate_randomization" else "bootstrap"
        args = ["-m", metric, "--method", method, "--seed", str(raw.get("seed", 12345))]
        args += ["--samples", str(output["samples"]), *["--lowercase"] * bool(options)]
        folder = tmp_path / str(i)
        folder.mkdir()
        ranking, name = _compare_ranks(folder, raw["systems"], raw["references"], *args)
        assert as_tool(ranking, name) == (output["metric"], output["systems"], output["pairs"])
        checked.append(metric)
    assert ["wer", "cer"] == checked


def test_the_contract_examples_show_each_outcome() -> None:
    """The WER example has three clusters (lowercase on), the CER example a cluster of two
    whose pair is not significant; both have human_agreement null."""
    outputs = [e["output"] for e in contract(*TOOL)["examples"][3:]]
    assert ([1, 2, 3], [1, 2, 2], [False], {None}) == (
        [s["cluster"] for s in outputs[0]["systems"]],
        [s["cluster"] for s in outputs[1]["systems"]],
        [p["significant"] for p in outputs[1]["pairs"] if p["p_value"] > 0.05],
        {p["human_agreement"] for o in outputs for p in o["pairs"]},
    )
