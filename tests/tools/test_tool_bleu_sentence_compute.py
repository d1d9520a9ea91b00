"""bleu-sentence-compute@1.0.0: one test per semantics line, one per error code per field, the
composition (bleu-sentence-components then bleu-smoothing-compute), sacreBLEU 2.6.0
sentence_score, properties."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mtcompute
from mtcompute.core.jsmath import js_exp, js_log
from mtcompute.tools.bleu_sentence_compute import sentence_bleu
from tests.harness import (
    ToolHarness,
    close,
    result_of,
    sacre_bleu,
    wmt_corpora,
    wmt_pairs,
)
from tests.strategies import bleu_segments
from tests.tools.test_tool_bleu_corpus_compute import (
    SMOOTHINGS,
)

TOOL = ("bleu-sentence-compute", "1.0.0")
BASE: dict[str, Any] = {
    "hypothesis": ["am", "I", "am", "a", "character", "sequence"],
    "references": [["I", "am", "a", "symbol", "string", "sequence", "a", "a"]],
    "smoothing": "method1",
}
CAT = {
    "hypothesis": ["the", "cat", "sat", "on", "the", "mat"],
    "references": [
        ["the", "cat", "is", "on", "the", "mat"],
        ["there", "is", "a", "cat", "on", "the", "mat"],
    ],
}
STAT_KEYS = ("candidate_length", "reference_length", "matches", "totals")
SCORE_KEYS = ("bleu", "brevity_penalty", "orders_used", "smoothed_matches", "smoothed_totals")
OUTPUT_KEYS = [*SCORE_KEYS[:3], *STAT_KEYS, *SCORE_KEYS[3:]]
PROPERTY = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow], max_examples=80)


HARNESS = ToolHarness(TOOL, BASE)
run, input_with, error = HARNESS.run, HARNESS.input_with, HARNESS.error
assert_codes = HARNESS.assert_codes


def composed(data: dict[str, Any]) -> str:
    """bleu-sentence-components then bleu-smoothing-compute, as this tool's result text."""
    counted = {k: data[k] for k in ("hypothesis", "references", "max_order") if k in data}
    components = result_of("bleu-sentence-components", counted)
    options = {
        k: data[k] for k in ("smoothing", "epsilon", "effective_order", "decimals") if k in data
    }
    score = result_of(
        "bleu-smoothing-compute", {**{k: components[k] for k in STAT_KEYS}, **options}
    )
    merged = {k: score[k] if k in score else components[k] for k in OUTPUT_KEYS}
    return mtcompute.dumps(merged)


@st.composite
def sentence_inputs(draw: st.DrawFn) -> dict[str, Any]:
    """A valid bleu-sentence-compute input (optional keys present or not)."""
    hypothesis, references = draw(bleu_segments())
    data: dict[str, Any] = {
        "hypothesis": hypothesis,
        "references": references,
        "smoothing": draw(st.sampled_from(SMOOTHINGS)),
    }
    if data["smoothing"] == "method1" and draw(st.booleans()):
        data["epsilon"] = draw(st.sampled_from([0, 1, 0.1, 0.5]) | st.floats(0, 1))
    if draw(st.booleans()):
        data["max_order"] = draw(st.integers(1, 8) | st.integers(1, 8).map(float))
    if draw(st.booleans()):
        data["effective_order"] = draw(st.booleans())
    if draw(st.booleans()):
        data["decimals"] = draw(st.integers(0, 15))
    return data


def sacre_sentence(data: dict[str, Any]) -> Any:
    """sacreBLEU's sentence_score for an input (tokens joined with spaces)."""
    bleu = sacre_bleu(
        data["smoothing"],
        data.get("epsilon"),
        int(data.get("max_order", 4)),
        data.get("effective_order", False),
    )
    return bleu.sentence_score(
        " ".join(data["hypothesis"]), [" ".join(r) for r in data["references"]]
    )


def sacre_mismatch(data: dict[str, Any]) -> str | None:
    """How this tool's result differs from sacreBLEU's sentence_score, or None."""
    result = result_of(TOOL[0], {k: v for k, v in data.items() if k != "decimals"})
    score = sacre_sentence(data)
    method2 = data["smoothing"] == "method2" and result["matches"][0] > 0
    keys = ("smoothed_matches", "smoothed_totals") if method2 else ("matches", "totals")
    expected = (score.sys_len, score.ref_len, list(score.counts), list(score.totals))
    actual = (result["candidate_length"], result["reference_length"], *(result[k] for k in keys))
    if expected == actual and close(score.score / 100, result["bleu"]):
        return None
    return f"{data}: sacreBLEU {expected} {score.score / 100}, tool {actual} {result['bleu']}"


# --- one test per semantics line ------------------------------------------------------------


@HARNESS.semantics_line(0)
def test_statistics_are_bleu_sentence_components() -> None:
    """The four statistics are bleu-sentence-components' for the same input; N defaults to 4."""
    cases = [
        {},
        CAT,
        {"hypothesis": ["Cat", "caf\u00e9"], "references": [["cat", "cafe\u0301"]]},
        {"max_order": 2},
        {"hypothesis": [], "references": [["a"], []]},
    ]
    expected = [
        {
            k: v
            for k, v in result_of(
                "bleu-sentence-components",
                {k: v for k, v in input_with(**c).items() if k != "smoothing"},
            ).items()
            if k in STAT_KEYS
        }
        for c in cases
    ]
    actual = [{k: run(**c)[k] for k in STAT_KEYS} for c in cases]
    assert expected == actual
    assert ([0, 0, 0, 0], 4) == (actual[2]["matches"], run()["orders_used"])


@PROPERTY
@given(sentence_inputs())
@HARNESS.semantics_line(1)
def test_equals_components_then_smoothing_compute(data: dict[str, Any]) -> None:
    """Every field equals bleu-sentence-components then bleu-smoothing-compute, byte for byte."""
    assert composed(data) == mtcompute.dumps(result_of(TOOL[0], data))


def test_equals_the_composition_on_real_wmt_lines() -> None:
    """The composition holds on real WMT lines of every pair, each option in turn."""
    expected, actual = [], []
    for k, pair in enumerate(wmt_pairs()):
        corpus = wmt_corpora(pair)[0]
        for i in range(40):
            hypothesis, references = corpus.hypotheses[i], corpus.references[i]
            if len(hypothesis) + sum(map(len, references)) > 10_000:
                continue
            data: dict[str, Any] = {
                "hypothesis": hypothesis,
                "references": references,
                "smoothing": SMOOTHINGS[(k + i) % 4],
                "effective_order": i % 2 == 0,
                "max_order": 1 + (k + i) % 8,
            }
            if i % 5 == 0:
                data["decimals"] = i % 16
            expected.append(composed(data))
            actual.append(mtcompute.dumps(result_of(TOOL[0], data)))
    assert (expected, 600) == (actual, len(actual))


@HARNESS.semantics_line(2)
def test_smoothing_is_required_and_each_method_smooths() -> None:
    """smoothing is required; none, method1 (epsilon 0.1 default), method2, method3."""
    assert {
        "none": ([4, 2, 1, 0], [6, 5, 4, 3]),
        "method1": ([4, 2, 1, 0.1], [6, 5, 4, 3]),
        "method2": ([4, 3, 2, 1], [6, 6, 5, 4]),
        "method3": ([4, 2, 1, 0.5], [6, 5, 4, 3]),
    } == HARNESS.smoothed(SMOOTHINGS)
    assert ([4, 2, 1, 0.5], ("invalid_input", "/smoothing")) == (
        run(epsilon=0.5)["smoothed_matches"],
        error(input_with(smoothing=...))[:2],
    )
    # method3 counts k from n = 1: no unigram match gives 1/2, 1/4, ... (bleu still 0)
    assert [0.5, 0.25, 0.125, 0.0625] == run(hypothesis=["x", "y", "z", "w"], smoothing="method3")[
        "smoothed_matches"
    ]


@HARNESS.semantics_line(3)
def test_brevity_penalty_rule() -> None:
    """BP = 0 when c = 0 (also r = 0), 1 when c > r (also r = 0 < c), else exp(1 - r/c)."""
    cases = [
        {"hypothesis": [], "references": [["a"]]},
        {"hypothesis": [], "references": [[]]},
        {"hypothesis": ["a", "b"], "references": [["a"]]},
        {"hypothesis": ["a"], "references": [[]]},
        {"hypothesis": ["a"], "references": [["a"]]},
        {},
    ]
    expected = [0, 0, 1, 1, 1, js_exp(1 - 8 / 6)]
    assert expected == [run(**c)["brevity_penalty"] for c in cases]


@HARNESS.semantics_line(4)
def test_orders_used_and_effective_order() -> None:
    """orders_used = max_order, or the leading orders with a smoothed total > 0."""
    short = {"hypothesis": ["a", "b"], "references": [["a", "b"]]}
    assert [4, 2, 4, 2] == HARNESS.orders_used(short, max_order=2)


@HARNESS.semantics_line(5)
def test_bleu_zero_rules() -> None:
    """bleu = 0 for c = 0, m_1 = 0 (before smoothing), no order used, or a zero used order."""
    cases = [
        {"hypothesis": [], "smoothing": "method3"},
        {"hypothesis": ["x", "y"], "smoothing": "method3"},
        {"hypothesis": [], "effective_order": True},
        {"smoothing": "none"},  # m_4 = 0
        {"hypothesis": ["a"], "references": [["a"]], "smoothing": "method1"},  # l_2 = 0
        {"smoothing": "method1", "epsilon": 0},  # smoothed m_4 = 0
    ]
    assert [0] * 6 == [run(**c)["bleu"] for c in cases]
    assert 1 == run(hypothesis=["a"], references=[["a"]], effective_order=True)["bleu"]


@HARNESS.semantics_line(6)
def test_decimals_round_with_tofixed_and_counts_stay_exact() -> None:
    """decimals rounds bleu and BP with toFixed; counts stay exact integers or 1/2^k."""
    full = run()
    rounded = run(decimals=10)
    assert (0.1555722183, 0.7165313106, full["smoothed_matches"]) == (
        rounded["bleu"],
        rounded["brevity_penalty"],
        rounded["smoothed_matches"],
    )
    assert (float(f"{full['bleu']:.4f}"), 1, [0.5]) == (
        run(decimals=4)["bleu"],
        run(hypothesis=["a", "b"], references=[["a", "c"]], max_order=1, decimals=0)["bleu"],
        run(hypothesis=["x"], smoothing="method3", max_order=1)["smoothed_matches"],
    )


@HARNESS.semantics_line(7)
def test_float_steps_follow_javascript() -> None:
    """BP * exp(sum of JavaScript ln(m/l) in order / N), BP = exp(1 - r/c); 4.0 is 4."""
    s = 0.0
    for m, t in [(4, 6), (2, 5), (1, 4), (0.1, 3)]:
        s += js_log(m / t)
    assert (js_exp(1 - 8 / 6) * js_exp(s / 4), run()) == (run()["bleu"], run(max_order=4.0))


@HARNESS.semantics_line(8)
def test_limits_and_error_codes() -> None:
    """Tokens, references, totals, max_order, methods 4-7 and epsilon get their codes."""
    assert_codes(
        [
            (input_with(hypothesis=[""]), ("invalid_input", "/hypothesis/0")),
            (input_with(references=[["\udc00"]]), ("invalid_input", "/references/0/0")),
            (input_with(hypothesis=["\u20ac" * 43]), ("limit_exceeded", "/hypothesis/0")),
            (input_with(references=[["a"]] * 9), ("limit_exceeded", "/references")),
            (input_with(hypothesis=["a"] * 10_001), ("limit_exceeded", "")),
            (input_with(hypothesis=["h" * 128] * 2049), ("limit_exceeded", "")),
            (input_with(max_order=9), ("invalid_input", "/max_order")),
            (input_with(smoothing="method7"), ("unsupported_input", "/smoothing")),
            (input_with(smoothing="method2", epsilon=0.1), ("invalid_input", "/epsilon")),
        ]
    )
    # Empty sides are allowed; the limits are inclusive.
    assert [(0, 0, 0), (1, 0, 0), (2047, 128, 0)] == [
        (r["candidate_length"], r["reference_length"], r["bleu"])
        for r in [
            run(hypothesis=[], references=[[]]),
            run(hypothesis=["a"], references=[[]] * 8),
            # 1024 * 128 + 1023 * 128 + 128 = 262144 bytes: the limit exactly
            run(hypothesis=["h" * 128] * 1024 + ["\u00e9" * 64] * 1023, references=[["b"] * 128]),
        ]
    ]


@HARNESS.semantics_line(9)
def test_agrees_with_sacrebleu_sentence_score_on_wmt() -> None:
    """sacreBLEU's sentence_score (effective order, its sentence default) on real WMT lines."""
    bad = []
    for k, pair in enumerate(wmt_pairs()):
        corpus = wmt_corpora(pair)[-1]
        for i in range(30):
            for smoothing in SMOOTHINGS:
                data = {
                    "hypothesis": corpus.hypotheses[i],
                    "references": corpus.references[i],
                    "smoothing": smoothing,
                    "effective_order": True,
                    "max_order": 4 if i % 3 else 1 + (k + i) % 8,
                }
                if len(data["hypothesis"]) + sum(map(len, data["references"])) > 10_000:
                    continue
                bad.append(sacre_mismatch(data))
                bad.append(sacre_mismatch({**data, "effective_order": False}))
    assert ([], 3600) == ([b for b in bad if b], len(bad))


@HARNESS.semantics_line(10)
def test_validation_order_first_failing_check_decides() -> None:
    """Two faults at once: the earlier check in the contract's order wins (last line)."""
    cases = [
        ("x", ("invalid_input", "")),
        ({**BASE, "zz": 1, "smoothing": "method9"}, ("invalid_input", "/zz")),
        ({"references": [["a"]]}, ("invalid_input", "/hypothesis")),
        ({"hypothesis": [], "references": [["a"]]}, ("invalid_input", "/smoothing")),
        (input_with(hypothesis=[1], references=[]), ("invalid_input", "/hypothesis/0")),
        (input_with(hypothesis=["x" * 200, ""]), ("limit_exceeded", "/hypothesis/0")),
        (input_with(references=[["a"]] * 9, max_order=0), ("limit_exceeded", "/references")),
        (input_with(references=[], max_order=0), ("invalid_input", "/references")),
        (input_with(references=[[""]], max_order=0), ("invalid_input", "/references/0/0")),
        (input_with(max_order=0, smoothing="method4"), ("invalid_input", "/max_order")),
        (input_with(smoothing="method4", epsilon=5), ("unsupported_input", "/smoothing")),
        (input_with(smoothing=None, epsilon=5), ("invalid_input", "/smoothing")),
        (input_with(epsilon=5, effective_order="no"), ("invalid_input", "/epsilon")),
        (input_with(effective_order="no", decimals=99), ("invalid_input", "/effective_order")),
        (input_with(decimals=99, hypothesis=["a"] * 10_001), ("invalid_input", "/decimals")),
        (
            input_with(hypothesis=["a"] * 10_001, smoothing="none", epsilon=0.1),
            ("limit_exceeded", ""),
        ),
        (input_with(smoothing="method3", epsilon=0.1), ("invalid_input", "/epsilon")),
    ]
    assert_codes(cases)
    # total tokens before total bytes
    assert error(input_with(hypothesis=["h" * 128] * 10_001))[2].startswith(
        "Expected at most 10000 tokens"
    )


@PROPERTY
@given(sentence_inputs())
def test_agrees_with_sacrebleu_on_generated_sentences(data: dict[str, Any]) -> None:
    """Generated sentences without empty references agree with sacreBLEU's sentence_score."""
    data["references"] = [r for r in data["references"] if r] or [["filler"]]
    assert None is sacre_mismatch(data)


# --- properties -------------------------------------------------------------------------------


@PROPERTY
@given(sentence_inputs())
def test_bleu_and_brevity_penalty_stay_in_the_unit_interval(data: dict[str, Any]) -> None:
    """0 <= bleu, BP <= 1; 0 <= m_n <= l_n = max(0, c - n + 1); orders_used <= max_order."""
    result = result_of(TOOL[0], data)
    c, max_order = len(data["hypothesis"]), int(data.get("max_order", 4))
    assert (True, True, True, [max(0, c - n) for n in range(max_order)], True) == (
        0 <= result["bleu"] <= 1,
        0 <= result["brevity_penalty"] <= 1,
        all(0 <= m <= t for m, t in zip(result["matches"], result["totals"], strict=True)),
        result["totals"],
        result["orders_used"] <= max_order,
    )


@PROPERTY
@given(bleu_segments(max_references=3), st.sampled_from(SMOOTHINGS))
def test_hypothesis_among_its_references_scores_one(
    segment: tuple[list[str], list[list[str]]], smoothing: str
) -> None:
    """A non-empty hypothesis that is one of its references scores 1 with effective order."""
    hypothesis, references = segment
    if not hypothesis:
        hypothesis = ["a"]
    result = result_of(
        TOOL[0],
        {
            "hypothesis": hypothesis,
            "references": [*references, hypothesis],
            "smoothing": smoothing,
            "effective_order": True,
        },
    )
    assert 1 == result["bleu"]


# --- one test per error code per input field -----------------------------------------------

ERRORS = [
    (
        "input",
        "invalid_input",
        "array",
        [BASE],
        "",
        "Expected a JSON object as the input, got an array of 1 item.",
    ),
    (
        "input",
        "invalid_input",
        "unknown key",
        input_with(include_ngrams=True),
        "/include_ngrams",
        'Unknown key "include_ngrams" in the input; expected only hypothesis, references, '
        "max_order, smoothing, epsilon, effective_order, decimals.",
    ),
    HARNESS.missing("hypothesis"),
    (
        "hypothesis",
        "invalid_input",
        "not an array",
        input_with(hypothesis="am I"),
        "/hypothesis",
        'Expected a token list (an array) at /hypothesis, got the string "am I".',
    ),
    (
        "hypothesis",
        "invalid_input",
        "token not a string",
        input_with(hypothesis=["am", 1.5]),
        "/hypothesis/1",
        "Expected a token (a non-empty string) at /hypothesis/1, got 1.5.",
    ),
    (
        "hypothesis",
        "invalid_input",
        "empty token",
        input_with(hypothesis=["am", ""]),
        "/hypothesis/1",
        "Expected a non-empty token at /hypothesis/1, got the empty string.",
    ),
    (
        "hypothesis",
        "invalid_input",
        "lone surrogate",
        input_with(hypothesis=["\ud83d"]),
        "/hypothesis/0",
        "Expected a token without lone surrogates at /hypothesis/0, got U+D83D at index 0.",
    ),
    (
        "hypothesis",
        "limit_exceeded",
        "132 bytes in 33 characters",
        input_with(hypothesis=["\U0001f600" * 33]),
        "/hypothesis/0",
        "Expected a token of at most 128 UTF-8 bytes at /hypothesis/0 (limit max token bytes), "
        "got 132 bytes.",
    ),
    HARNESS.missing("references"),
    (
        "references",
        "invalid_input",
        "not an array",
        input_with(references="I am"),
        "/references",
        'Expected an array of 1 to 8 token lists at /references, got the string "I am".',
    ),
    (
        "references",
        "invalid_input",
        "none",
        input_with(references=[]),
        "/references",
        "Expected at least 1 reference at /references, got none.",
    ),
    (
        "references",
        "limit_exceeded",
        "9 references",
        input_with(references=[["a"]] * 9),
        "/references",
        "Expected at most 8 references at /references (limit max references), got 9.",
    ),
    (
        "references",
        "invalid_input",
        "reference not an array",
        input_with(references=[["a"], None]),
        "/references/1",
        "Expected a reference token list (an array) at /references/1, got null.",
    ),
    (
        "references",
        "invalid_input",
        "empty token",
        input_with(references=[["a", ""]]),
        "/references/0/1",
        "Expected a non-empty token at /references/0/1, got the empty string.",
    ),
    (
        "references",
        "limit_exceeded",
        "token over 128 bytes",
        input_with(references=[["\u00e9" * 65]]),
        "/references/0/0",
        "Expected a token of at most 128 UTF-8 bytes at /references/0/0 "
        "(limit max token bytes), got 130 bytes.",
    ),
    *HARNESS.common("max_order", "0", "9"),
    *HARNESS.common("total token bytes", "262145"),
    HARNESS.missing("smoothing"),
    (
        "smoothing",
        "invalid_input",
        "sacreBLEU name",
        input_with(smoothing="exp"),
        "/smoothing",
        'Expected one of none, method1, method2, method3 at /smoothing, got the string "exp".',
    ),
    (
        "smoothing",
        "unsupported_input",
        "method4",
        input_with(smoothing="method4"),
        "/smoothing",
        "Chen and Cherry method4 is not supported by bleu-sentence-compute@1.0.0 at /smoothing: "
        "this version scores a sentence's statistics with bleu-smoothing-compute's methods, and "
        "methods 4 to 7 are not among them; use none, method1, method2 or method3.",
    ),
    (
        "epsilon",
        "invalid_input",
        "string",
        input_with(epsilon="0.1"),
        "/epsilon",
        'Expected a number at /epsilon, got the string "0.1".',
    ),
    (
        "epsilon",
        "invalid_input",
        "over 1",
        input_with(epsilon=1.5),
        "/epsilon",
        "Expected a number from 0 to 1 at /epsilon, got 1.5.",
    ),
    (
        "epsilon",
        "invalid_input",
        "without method1",
        input_with(smoothing="method3", epsilon=0.1),
        "/epsilon",
        "Expected no epsilon with smoothing method3 at /epsilon (epsilon applies to method1 only), "
        "got one.",
    ),
    (
        "effective_order",
        "invalid_input",
        "null",
        input_with(effective_order=None),
        "/effective_order",
        "Expected true or false at /effective_order, got null.",
    ),
    (
        "decimals",
        "invalid_input",
        "1.5",
        input_with(decimals=1.5),
        "/decimals",
        "Expected an integer at /decimals, got 1.5.",
    ),
    *HARNESS.common("total tokens", "10001"),
    *HARNESS.common("decimals", "16"),
]


TYPED_FAULTS = {
    "invalid_input": input_with(hypothesis=["a", ""]),
    "limit_exceeded": input_with(references=[["a"]] * 9),
    "unsupported_input": input_with(smoothing="method5"),
}
HARNESS.declare(
    ERRORS, typed_faults=TYPED_FAULTS, unchanged=input_with(max_order=4.0, effective_order=True)
)


def test_typed_function_returns_frozen_result() -> None:
    """The typed function gives the example's numbers in a frozen object."""
    result = sentence_bleu(BASE["hypothesis"], BASE["references"], "method1", decimals=10)
    assert (0.1555722183, 0.7165313106, 4, 6, 8, (4, 2, 1, 0), (6, 5, 4, 3), (4, 2, 1, 0.1)) == (
        result.bleu,
        result.brevity_penalty,
        result.orders_used,
        result.candidate_length,
        result.reference_length,
        result.matches,
        result.totals,
        result.smoothed_matches,
    )
    HARNESS.assert_frozen(result, "bleu")
