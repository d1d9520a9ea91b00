"""system-ranking@1.0.0: one test per semantics line, the error table, the limits, the cost
estimate, and ``mtcompute compare --rank``.

The reference is :func:`mtcompute.significance.rank_systems` as ``mtcompute compare --rank``
calls it: the tool's numbers are that command's JSON for the same systems, references, seed
and samples (:func:`test_the_numbers_are_compare_ranks`), and its per-pair p-values with the
bootstrap are paired-significance's sacreBLEU p-values with the pair's first system as the
baseline (:func:`test_method_samples_and_seed`).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import mtcompute
from mtcompute.contracts import contract
from mtcompute.metrics.agreement import human_agreement
from mtcompute.tools import get_tool
from mtcompute.tools._cost import HEAVY_SECONDS, request_cost
from mtcompute.tools.system_ranking_1_0_0 import system_ranking_1_0_0 as system_ranking
from tests.conftest import run_cli, wmt_lines
from tests.harness import ToolHarness, no_download

TOOL = ("system-ranking", "1.0.0")
SYSTEM_A = ["The cat sat on mat.", "A quick brown fox jumps over the dog.", "It rains a lot.", ""]
SYSTEM_B = ["The cat sat on the mat.", "A fast brown fox jumps over a dog.", "It rains.", "Hi"]
SYSTEM_C = ["A cat sat on a mat.", "The quick brown fox jumped over the dog.", "Rain.", ""]
REFS = [
    ["The cat sat on the mat.", "There is a cat on the mat."],
    ["A fast brown fox jumped over the lazy dog."],
    ["It rains a lot in this city.", "It is raining a lot.", "Much rain."],
    ["Hello"],
]
SYSTEMS = [
    {"name": "A", "hypotheses": SYSTEM_A},
    {"name": "B", "hypotheses": SYSTEM_B},
    {"name": "C", "hypotheses": SYSTEM_C},
]
BASE: dict[str, Any] = {"systems": SYSTEMS, "references": REFS, "metric": "bleu", "samples": 100}
MAX_SEGMENT_WORDS = 1024

HARNESS = ToolHarness(TOOL, BASE)
run, input_with, error = HARNESS.run, HARNESS.input_with, HARNESS.error


def _system(name: str, hypotheses: list[str] | None = None) -> dict[str, Any]:
    return {"name": name, "hypotheses": SYSTEM_A if hypotheses is None else hypotheses}


def _paired(first: int, second: int, **changes: Any) -> dict[str, Any]:
    """paired-significance's result for system ``second`` against the baseline ``first``."""
    metric = changes.pop("metric", "bleu")
    raw = {
        "baseline": SYSTEMS[first]["hypotheses"],
        "systems": [SYSTEMS[second]],
        "references": REFS,
        "metrics": [metric],
        "method": "bootstrap",
        "samples": 100,
        **changes,
    }
    result: dict[str, Any] = mtcompute.execute("paired-significance", "1.0.0", raw)["result"]
    return result[metric]  # type: ignore[no-any-return]


# --- one test per semantics line ------------------------------------------------------------


@HARNESS.semantics_line(0)
def test_systems_and_references_are_laid_out_per_segment() -> None:
    """Systems are a list of {name, hypotheses} in the order given (pairs follow it);
    references are per segment, each segment with its own number of references."""
    result = run()
    swapped = run(systems=[SYSTEMS[2], SYSTEMS[0], SYSTEMS[1]])
    assert (["A", "A", "B"], ["C", "C", "A"], 4) == (
        [p["first"] for p in result["pairs"]],
        [p["first"] for p in swapped["pairs"]],
        result["segment_count"],
    )
    scores = {s["name"]: s["score"] for s in result["systems"]}
    assert scores == {s["name"]: s["score"] for s in swapped["systems"]}


@HARNESS.semantics_line(1)
def test_metric_options_and_signature_are_sacrebleu_scores() -> None:
    """Each metric's score and signature are sacrebleu-score's with the same options (the
    signature with bs:samples or ar:samples and seed after nrefs); TER is lower-is-better."""
    cases = [
        ("bleu", {"tokenize": "char", "lowercase": True}),
        ("chrf", {"word_order": 2, "beta": 3}),
        ("ter", {"case_sensitive": True, "normalized": True}),
    ]
    for metric, options in cases:
        result = run(metric=metric, **{metric: options}, method="approximate_randomization")
        score = mtcompute.execute(
            "sacrebleu-score",
            "1.1.0",
            {"hypotheses": SYSTEM_B, "references": REFS, "metrics": [metric], metric: options},
        )["result"][metric]
        signature = score["signature"].replace("nrefs:var|", "nrefs:var|ar:100|seed:12345|")
        ranked = next(s for s in result["systems"] if s["name"] == "B")
        assert (score["name"], score["score"], signature, metric == "ter") == (
            result["metric"],
            ranked["score"],
            result["signature"],
            result["lower_is_better"],
        )


@HARNESS.semantics_line(2)
def test_method_samples_and_seed() -> None:
    """With the bootstrap each pair's p-value is paired-significance's with the first system
    as the baseline (same draws); samples default to 1000 or 10000; seed 0 is a seed; AR
    p-values are multiples of 1 / (samples + 1)."""
    result = run(seed=0)
    expected = [
        _paired(0, 1, seed=0)["systems"][0]["p_value"],
        _paired(0, 2, seed=0)["systems"][0]["p_value"],
    ]
    assert expected == [p["p_value"] for p in result["pairs"][:2]]
    assert (run(seed=0), run(seed=1)) != (run(seed=1), run(seed=1))  # the seed is used
    defaults = [run(samples=..., method=m)["samples"] for m in ("bootstrap",)]
    ar = run(method="approximate_randomization", samples=99)
    assert ([1000], True) == (
        defaults,
        all(round(p["p_value"] * 100, 9).is_integer() for p in ar["pairs"]),
    )


def test_ar_default_samples() -> None:
    """Approximate randomization without samples runs sacreBLEU's 10000 trials."""
    assert 10000 == run(samples=..., method="approximate_randomization")["samples"]


@HARNESS.semantics_line(3)
def test_pairs_delta_better_significant_and_agreement() -> None:
    """Each pair's delta is second minus first, better names the better score in the
    metric's direction, significant is p <= threshold, and human_agreement is Kocmi et al.'s
    for BLEU and chrF2 and null for chrF2++ and TER."""
    for metric, options in (("bleu", {}), ("chrf", {}), ("chrf", {"word_order": 2}), ("ter", {})):
        result = run(metric=metric, **{metric: options}, threshold=0.5)
        scores = {s["name"]: s["score"] for s in result["systems"]}
        sign = -1 if result["lower_is_better"] else 1
        for p in result["pairs"]:
            delta = scores[p["second"]] - scores[p["first"]]
            better = None if delta == 0 else (p["second"] if sign * delta > 0 else p["first"])
            agreement = human_agreement(result["metric"], delta)
            assert (delta, better, better is not None and p["p_value"] <= 0.5, agreement) == (
                p["delta"],
                p["better"],
                p["significant"],
                p["human_agreement"],
            )
        fitted = result["metric"] in ("BLEU", "chrF2")
        assert fitted == all(p["human_agreement"] is not None for p in result["pairs"])


def test_threshold_decides_significance() -> None:
    """The same p-values are significant under a threshold of 1 and never under 0."""
    assert ([True, True, True], [False, False, False]) == (
        [p["significant"] for p in run(threshold=1)["pairs"]],
        [p["significant"] for p in run(threshold=0)["pairs"]],
    )


@HARNESS.semantics_line(4)
def test_systems_best_first_with_rank_ranges_and_clusters() -> None:
    """Systems come best first with WMT's rank ranges and clusters, and the test echoed."""
    result = run(
        systems=[_system("copy", ["x"] * 4), _system("B", SYSTEM_B), _system("ref", REFS_0)],
        method="approximate_randomization",
        samples=200,
        threshold=0.5,
        seed=3,
    )
    shown = [(s["name"], s["rank"], s["top"], s["bottom"], s["cluster"]) for s in result["systems"]]
    assert [("ref", "1", 1, 1, 1), ("B", "2", 2, 2, 2), ("copy", "3", 3, 3, 3)] == shown
    assert ("approximate_randomization", 200, 3, 0.5) == (
        result["method"],
        result["samples"],
        result["seed"],
        result["threshold"],
    )
    tied = run(systems=[_system("X", SYSTEM_B), _system("Y", SYSTEM_B)])
    assert [("X", "1-2", 1), ("Y", "1-2", 1)] == [
        (s["name"], s["rank"], s["cluster"]) for s in tied["systems"]
    ]


REFS_0 = [refs[0] for refs in REFS]


@HARNESS.semantics_line(5)
def test_numbers_are_javascript_json_numbers() -> None:
    """A score of 100 is written 100, not 100.0."""
    body = mtcompute.execute_json(*TOOL, json.dumps(input_with(metric="chrf")).encode())
    text = mtcompute.dumps(body)
    result = system_ranking(
        [_system("X", REFS_0), _system("Y", SYSTEM_B)], REFS, "chrf", samples=10
    ).to_dict()
    assert ('"score":100,' in mtcompute.dumps(result), "100.0" in text) == (True, False)


# --- the limits and errors ------------------------------------------------------------------

LONG = " ".join(["a"] * (MAX_SEGMENT_WORDS + 1))
ONE_OVER = ["é" * (4_194_304 // 2 - 100)] + ["a"] * 3  # with the other texts: 28 bytes over
ERRORS = [
    HARNESS.missing("systems"),
    HARNESS.missing("references"),
    HARNESS.missing("metric"),
    ("systems", "invalid_input", "not an array", input_with(systems={"A": SYSTEM_A}), "/systems",
     "Expected an array of 2 to 16 systems (name and hypotheses) at /systems, got an object."),
    ("systems", "limit_exceeded", "17", input_with(systems=[_system(f"s{i}") for i in range(17)]),
     "/systems", "Expected at most 16 systems at /systems (limit max systems), got 17."),
    ("systems", "invalid_input", "one", input_with(systems=[_system("A")]), "/systems",
     "Expected at least 2 systems at /systems (a ranking compares systems), got 1."),
    ("systems", "invalid_input", "empty", input_with(systems=[]), "/systems",
     "Expected at least 2 systems at /systems (a ranking compares systems), got none."),
    ("systems", "invalid_input", "no name", input_with(systems=[_system("A"), {"hypotheses": []}]),
     "/systems/1/name", 'Missing required key "name" at /systems/1.'),
    ("systems", "invalid_input", "name of 129", input_with(systems=[_system("A"),
     _system("n" * 129)]), "/systems/1/name", "Expected a system name of at most 128 "
     "characters at /systems/1/name, got 129."),
    ("systems", "invalid_input", "repeated name",
     input_with(systems=[_system("B"), _system("C"), _system("B")]), "/systems/2/name",
     'Expected each system name once at /systems, got the string "B" again at '
     "/systems/2/name."),
    ("systems", "invalid_input", "hypotheses count",
     input_with(systems=[_system("B"), _system("C", ["a"])]), "/systems/1/hypotheses",
     "Expected the hypotheses of each system to have as many segments as references (4) at "
     "/systems/1/hypotheses, got 1."),
    ("systems", "invalid_input", "hypotheses lone surrogate",
     input_with(systems=[_system("B"), _system("C", ["a", "b", "c", "\udfff"])]),
     "/systems/1/hypotheses/3",
     "Expected text without lone surrogates at /systems/1/hypotheses/3, got U+DFFF at index 0."),
    ("references", "limit_exceeded", "9 references", input_with(references=[*REFS[:3], ["a"] * 9]),
     "/references/3", "Expected at most 8 references at /references/3 (limit max references), "
     "got 9."),
    ("references", "invalid_input", "different counts", input_with(references=REFS[:3]),
     "/systems/0/hypotheses", "Expected the hypotheses of each system to have as many segments "
     "as references (3) at /systems/0/hypotheses, got 4."),
    ("systems", "limit_exceeded", "text bytes",
     input_with(systems=[_system("A", ONE_OVER), _system("B")]), "",
     "Expected at most 4194304 UTF-8 bytes of text in all (limit max text bytes), got "
     "4194332."),
    ("metric", "invalid_input", "unknown", input_with(metric="comet"), "/metric",
     'Expected one of bleu, chrf, ter at /metric, got the string "comet".'),
    ("metric", "invalid_input", "a list", input_with(metric=["bleu"]), "/metric",
     "Expected one of bleu, chrf, ter at /metric, got an array of 1 item."),
    ("bleu", "unsupported_input", "spm", input_with(bleu={"tokenize": "spm"}), "/bleu/tokenize",
     no_download("spm", "/bleu/tokenize")),
    ("chrf", "invalid_input", "for another metric", input_with(chrf={"beta": 3}), "/chrf",
     "Expected chrf options only with metric chrf at /chrf, got them with metric bleu."),
    ("method", "invalid_input", "unknown", input_with(method="ar"), "/method",
     'Expected one of bootstrap, approximate_randomization at /method, got the string "ar".'),
    ("samples", "invalid_input", "0", input_with(samples=0), "/samples",
     "Expected an integer of at least 1 at /samples, got 0."),
    ("samples", "limit_exceeded", "20001", input_with(samples=20001), "/samples",
     "Expected an integer of at most 20000 at /samples (limit max samples), got 20001."),
    ("seed", "invalid_input", "negative", input_with(seed=-1), "/seed",
     "Expected an integer of at least 0 at /seed, got -1."),
    ("threshold", "invalid_input", "over 1", input_with(threshold=1.5), "/threshold",
     "Expected a number from 0 to 1 at /threshold, got 1.5."),
    ("threshold", "invalid_input", "a string", input_with(threshold="0.05"), "/threshold",
     'Expected a number at /threshold, got the string "0.05".'),
    ("ter", "limit_exceeded", "1025 words in a system",
     input_with(metric="ter", systems=[_system("A"), _system("B", ["a", "b", LONG, ""])]),
     "/systems/1/hypotheses/2", "Expected at most 1024 words at /systems/1/hypotheses/2 after "
     "tercom tokenization (limit max segment words), got 1025."),
    ("samples", "limit_exceeded", "draws", input_with(samples=10001,
     systems=[_system(n, ["a"] * 4096) for n in "AB"], references=[["a"]] * 4096), "",
     "Expected at most 40960000 for samples times segments (limit max draws), got 10001 x "
     "4096 = 40964096."),
    ("samples", "limit_exceeded", "pair tests", input_with(method="approximate_randomization",
     samples=20000, systems=[_system(f"s{i}") for i in range(16)]), "",
     "Expected at most 1200000 for samples times pairs of systems with method "
     "approximate_randomization (limit max pair tests), got 20000 x 120 = 2400000."),
    ("samples", "limit_exceeded", "work with AR", input_with(method="approximate_randomization",
     samples=10000, systems=[_system(f"s{i}", ["a"] * 224) for i in range(16)],
     references=[["a"]] * 224), "",
     "Expected at most 268435456 for samples times segments times pairs of systems with method "
     "approximate_randomization (limit max work), got 10000 x 224 x 120 = 268800000."),
    ("samples", "limit_exceeded", "work with bootstrap", input_with(samples=4097,
     systems=[_system(f"s{i}", ["a"] * 4096) for i in range(16)], references=[["a"]] * 4096),
     "", "Expected at most 268435456 for samples times segments times systems with method "
     "bootstrap (limit max work), got 4097 x 4096 x 16 = 268500992."),
    ("samples", "invalid_input", "unknown key", input_with(trials=10), "/trials",
     'Unknown key "trials" in the input; expected only systems, references, metric, bleu, '
     "chrf, ter, method, samples, seed, threshold."),
]  # fmt: skip
HARNESS.declare(ERRORS, errors_line=6, unchanged=input_with(metric="chrf", chrf={"beta": 3}))


def test_the_limits_themselves_are_accepted() -> None:
    """Exactly the limits pass validation: 10000 AR trials of 16 systems (max pair tests)
    over 223 segments (max work), the bootstrap's work and draws at their limits; 16 systems
    with 2000 AR trials are answered with all 120 pairs."""
    spec = get_tool(*TOOL).input
    at_limits = [
        input_with(
            method="approximate_randomization",
            samples=10000,
            systems=[_system(f"s{i}", ["a b"] * 223) for i in range(16)],
            references=[["a b"]] * 223,
        ),
        input_with(
            samples=4096,
            systems=[_system(f"s{i}", ["a"] * 4096) for i in range(16)],
            references=[["a"]] * 4096,
        ),
        input_with(
            samples=10000,
            systems=[_system(f"s{i}", ["a"] * 4096) for i in range(2)],
            references=[["a"]] * 4096,
        ),
    ]
    checked = [spec.parse(raw)["samples"] for raw in at_limits]
    ar = run(
        method="approximate_randomization",
        samples=2000,
        systems=[_system(f"s{i}", ["a b"] * 20) for i in range(16)],
        references=[["a b"]] * 20,
    )
    assert ([10000, 4096, 10000], 120, "1-16") == (
        checked,
        len(ar["pairs"]),
        ar["systems"][0]["rank"],
    )


@HARNESS.semantics_line(7)
def test_validation_order() -> None:
    """The first failing check in the contract's order decides the error."""
    cases = [
        ({"zz": 1}, "/zz"),
        ({"systems": 1}, "/references"),  # every missing key before any value
        (input_with(systems=[_system("B"), _system("B", [1])]), "/systems/1/hypotheses/0"),
        (input_with(systems=[_system("B"), _system("B")], references=1), "/systems/1/name"),
        (input_with(systems=[_system("B"), _system("C", ["\ud800"])], references=1),
         "/references"),
        (input_with(systems=[_system("B"), _system("C", ["\ud800"])]), "/systems/1/hypotheses"),
        (input_with(systems=[_system("A", ONE_OVER), _system("B")], metric=1), ""),
        (input_with(references=[*REFS[:3], ["\ud800"]], metric=1), "/references/3/0"),
        (input_with(metric="ter", bleu=1, method="x"), "/bleu"),
        (input_with(metric="ter", bleu={}, method="x"), "/bleu"),
        (input_with(method="x", samples=0), "/method"),
        (input_with(samples=0, seed=-1), "/samples"),
        (input_with(seed=-1, threshold=2), "/seed"),
        (input_with(threshold=2, metric="ter", systems=[_system("A", [LONG] * 4), _system("B")]),
         "/threshold"),
        (input_with(metric="ter", systems=[_system("A", [LONG] * 4), _system("B")],
                    samples=20000), "/systems/0/hypotheses/0"),
    ]  # fmt: skip
    assert [path for _, path in cases] == [error(raw)[1] for raw, _ in cases]


def test_the_result_is_frozen() -> None:
    """The typed result and its parts are frozen."""
    result = system_ranking(SYSTEMS, REFS, "bleu", samples=10)
    HARNESS.assert_frozen(result, "seed")
    HARNESS.assert_frozen(result.systems[0], "rank")
    HARNESS.assert_frozen(result.pairs[0], "p_value")


# --- the cost class -------------------------------------------------------------------------


def test_many_systems_with_ar_are_heavy() -> None:
    """A 3-system bootstrap of the base input is light; the same texts as 16 systems with
    10,000 AR trials (120 pairs) are heavy, about 40 times dearer."""
    light = json.dumps(input_with(samples=1000)).encode()
    many = [_system(f"s{i}") for i in range(16)]
    heavy = json.dumps(
        input_with(systems=many, method="approximate_randomization", samples=10000)
    ).encode()
    tool = "system-ranking"
    assert (False, True, True) == (
        request_cost(tool, light).heavy,
        request_cost(tool, heavy).heavy,
        request_cost(tool, heavy).seconds > 40 * request_cost(tool, light).seconds,
    )
    assert request_cost(tool, light).seconds < HEAVY_SECONDS


# --- the same numbers as mtcompute compare --rank -------------------------------------------

PAIR = "generaltest2022/en-de"
NAMES = ["JDExploreAcademy", "Online-B", "Online-W", "OpenNMT", "PROMT"]
LINES = 200  # the in-repo sample's segments


@pytest.fixture(scope="module")
def en_de(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The en-de reference A and five systems, the sample's 200 segments each."""
    tmp = tmp_path_factory.mktemp("en-de")
    for name in ["ref.A.txt", *(f"sys.{n}.txt" for n in NAMES)]:
        lines = wmt_lines(f"{PAIR}/{name}")[:LINES]
        (tmp / name).write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    return tmp


def as_tool(ranking: dict[str, Any], name: dict[str, str]) -> tuple[Any, ...]:
    """compare --rank's JSON ranking of one metric in the tool's terms (metric, systems,
    pairs), ``name`` giving each file's system name (here and for 1.1.0's WER and CER)."""
    systems = [
        {"name": name[s["hypotheses"]], **{k: s[k] for k in ("score", "rank", "top", "bottom",
         "cluster")}} for s in ranking["systems"]
    ]  # fmt: skip
    pairs = [
        {**p, "first": name[p["first"]], "second": name[p["second"]],
         "better": None if p["better"] is None else name[p["better"]]}
        for p in ranking["pairs"]
    ]  # fmt: skip
    return ranking["name"], systems, pairs


@pytest.mark.parametrize(
    ("metric", "method", "samples"),
    [("bleu", "bootstrap", 300), ("chrf", "ar", 500), ("ter", "bootstrap", 200)],
)
def test_the_numbers_are_compare_ranks(en_de: Path, metric: str, method: str, samples: int) -> None:
    """On the WMT sample, the tool's systems and pairs are ``mtcompute compare --rank``'s
    JSON rankings, number for number, for the same seed and samples."""
    files = [str(en_de / f"sys.{n}.txt") for n in NAMES]
    done = run_cli(
        "compare", "-r", str(en_de / "ref.A.txt"), "-b", files[0], "-H", *files[1:],
        "-m", metric, "--rank", "--method", method, "--samples", str(samples),
        "--seed", "7", "--format", "json",
    )  # fmt: skip
    assert (0, b"") == (done.returncode, done.stderr)
    ranking = json.loads(done.stdout)["rankings"][metric]
    name = dict(zip(files, NAMES, strict=True))
    refs = (en_de / "ref.A.txt").read_text(encoding="utf-8").splitlines()
    result = system_ranking(
        [{"name": n, "hypotheses": (en_de / f"sys.{n}.txt").read_text().splitlines()}
         for n in NAMES],
        [[r] for r in refs], metric, seed=7, samples=samples,
        method="bootstrap" if method == "bootstrap" else "approximate_randomization",
    ).to_dict()  # fmt: skip
    assert as_tool(ranking, name) == (result["metric"], result["systems"], result["pairs"])


def test_the_contract_examples_show_each_outcome() -> None:
    """The examples show a cluster of three with a significant pair inside it, three
    clusters with chrF's agreement, and TER with human_agreement null."""
    outputs = [e["output"] for e in contract(*TOOL)["examples"]]
    assert (
        [1, 1, 1],
        True,
        [1, 2, 3],
        [None],
    ) == (
        [s["cluster"] for s in outputs[0]["systems"]],
        any(p["significant"] for p in outputs[0]["pairs"]),
        [s["cluster"] for s in outputs[1]["systems"]],
        [p["human_agreement"] for p in outputs[2]["pairs"]],
    )
