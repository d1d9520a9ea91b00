"""bleu-smoothing-compute@1.0.0: one test per semantics line, one per error code per field."""

from __future__ import annotations

import math
from typing import Any

import mtcompute
from mtcompute.core.jsmath import js_exp, js_log
from tests.harness import ToolHarness

TOOL = ("bleu-smoothing-compute", "1.0.0")
BASE: dict[str, Any] = {
    "matches": [9, 7, 5, 3],
    "totals": [10, 8, 6, 4],
    "candidate_length": 11,
    "reference_length": 11,
    "smoothing": "none",
}


HARNESS = ToolHarness(TOOL, BASE)
run, input_with, error = HARNESS.run, HARNESS.input_with, HARNESS.error
assert_codes = HARNESS.assert_codes


def stats(matches: list[int], totals: list[int], c: int, r: int, **options: Any) -> dict[str, Any]:
    """The result for these matches and totals, candidate length c, reference length r."""
    return run(matches=matches, totals=totals, candidate_length=c, reference_length=r, **options)


# --- one test per semantics line ------------------------------------------------------------


@HARNESS.semantics_line(0)
def test_statistics_are_taken_as_given_including_corpus_sums() -> None:
    """matches/totals per order, N from the array length, lengths taken as given (line 1)."""
    result = stats([900, 700], [1000, 800], 10**12, 10**12 - 1)
    s = js_log(900 / 1000) + js_log(700 / 800)
    assert (2, 1, js_exp(s / 2)) == (
        result["orders_used"],
        result["brevity_penalty"],
        result["bleu"],
    )


@HARNESS.semantics_line(1)
def test_smoothed_counts_per_chen_cherry() -> None:
    """none keeps, method1 epsilon (default 0.1), method2 +1 from n = 2, method3 1/2^k (line 2)."""
    m, t = [3, 0, 2, 0], [5, 4, 3, 2]
    assert {
        "none": ([3, 0, 2, 0], [5, 4, 3, 2]),
        "method1": ([3, 0.1, 2, 0.1], [5, 4, 3, 2]),
        "method2": ([3, 1, 3, 1], [5, 5, 4, 3]),
        "method3": ([3, 0.5, 2, 0.25], [5, 4, 3, 2]),
    } == HARNESS.smoothed(["none", "method1", "method2", "method3"], matches=m, totals=t)
    assert [3, 0.25, 2, 0.25] == run(matches=m, totals=t, smoothing="method1", epsilon=0.25)[
        "smoothed_matches"
    ]


@HARNESS.semantics_line(2)
def test_brevity_penalty_rule() -> None:
    """BP = 0 when c = 0, 1 when c > r (also r = 0 < c), else exp(1 - r/c) (line 3)."""
    cases = [(0, 5), (6, 5), (3, 0), (5, 5), (4, 7)]
    expected = [0, 1, 1, 1, js_exp(1 - 7 / 4)]
    actual = [
        run(candidate_length=c, reference_length=r, matches=[0], totals=[0])["brevity_penalty"]
        for c, r in cases
    ]
    assert expected == actual


@HARNESS.semantics_line(3)
def test_orders_used_and_effective_order() -> None:
    """orders_used = N, or the leading orders with smoothed total > 0 (line 4)."""
    m, t = [2, 1, 0, 0], [3, 2, 1, 0]
    assert (4, 3, 4) == (
        run(matches=m, totals=t)["orders_used"],
        run(matches=m, totals=t, effective_order=True)["orders_used"],
        run(matches=m, totals=t, smoothing="method2", effective_order=True)["orders_used"],
    )
    # "leading": a zero total stops the count even if a later order has n-grams
    assert 1 == run(matches=[1, 0, 0], totals=[5, 0, 3], effective_order=True)["orders_used"]


@HARNESS.semantics_line(4)
def test_bleu_zero_rules() -> None:
    """bleu = 0 for c = 0, m_1 = 0 (before smoothing), no order used, or a zero used order."""
    zero_cases = [
        {"candidate_length": 0},
        {"matches": [0, 0, 0, 0], "smoothing": "method3"},
        {"matches": [0], "totals": [0], "effective_order": True, "candidate_length": 1},
        {"matches": [9, 7, 5, 0]},
        {"matches": [3, 0], "totals": [3, 0], "smoothing": "method1"},
    ]
    assert [0] * len(zero_cases) == [run(**c)["bleu"] for c in zero_cases]


def test_bleu_is_bp_times_exp_mean_log_in_order() -> None:
    """Otherwise bleu = BP * exp(mean of ln(m_n/l_n)), summed n = 1..orders_used (line 4)."""
    result = stats([5, 3, 1, 0], [6, 5, 4, 3], 6, 8, smoothing="method1")
    s = 0.0
    for m, t in [(5, 6), (3, 5), (1, 4), (0.1, 3)]:
        s += js_log(m / t)
    assert js_exp(1 - 8 / 6) * js_exp(s / 4) == result["bleu"]


@HARNESS.semantics_line(5)
def test_decimals_round_with_tofixed() -> None:
    """decimals rounds bleu and BP like toFixed; smoothed counts stay exact (line 6)."""
    full = stats([5, 3, 1, 0], [6, 5, 4, 3], 6, 8, smoothing="method3")
    rounded = stats([5, 3, 1, 0], [6, 5, 4, 3], 6, 8, smoothing="method3", decimals=4)
    assert (
        float(f"{full['bleu']:.4f}"),
        float(f"{full['brevity_penalty']:.4f}"),
        [5, 3, 1, 0.5],
    ) == (rounded["bleu"], rounded["brevity_penalty"], rounded["smoothed_matches"])
    # toFixed rounds an exact binary tie up: 0.5 has no representation error.
    assert (
        1
        == run(candidate_length=1, reference_length=1, matches=[1], totals=[2], decimals=0)["bleu"]
    )


@HARNESS.semantics_line(6)
def test_equal_lengths_epsilon_and_limits_rules() -> None:
    """Unequal lengths and epsilon without method1 are invalid; > 8 orders or 10^12 limited."""
    assert_codes(
        [
            (input_with(totals=[10, 8, 6]), ("invalid_input", "/totals")),
            (input_with(epsilon=0.1), ("invalid_input", "/epsilon")),
            (input_with(matches=[1] * 9, totals=[1] * 9), ("limit_exceeded", "/matches")),
            (input_with(reference_length=10**12 + 1), ("limit_exceeded", "/reference_length")),
            (input_with(smoothing="method5"), ("unsupported_input", "/smoothing")),
        ]
    )


@HARNESS.semantics_line(7)
def test_bp_zero_when_c_zero_even_if_r_zero_and_method3_counts_from_n1() -> None:
    """BP is 0 for c = 0 = r; method3 on all-zero matches gives 1/2, 1/4, 1/8, 1/16."""
    result = stats([0, 0, 0, 0], [0, 0, 0, 0], 0, 0, smoothing="method3")
    assert (0, [0.5, 0.25, 0.125, 0.0625], 0) == (
        result["brevity_penalty"],
        result["smoothed_matches"],
        result["bleu"],
    )


@HARNESS.semantics_line(8)
def test_float_order_and_javascript_log_exp() -> None:
    """The float steps follow the contract's order with JavaScript's log/exp, not Python's."""
    # matches/totals where Python's libm and fdlibm disagree in the last bit for some order.
    found = None
    for m in range(1, 400):
        x = m / 401
        if math.log(x) != js_log(x):
            found = m
            break
    assert found is not None
    result = run(matches=[found], totals=[401], candidate_length=401, reference_length=401)
    assert js_exp(js_log(found / 401) / 1) == result["bleu"]
    # integer fields take integral floats (4.0 is 4)
    assert run()["bleu"] == run(matches=[9.0, 7, 5, 3], candidate_length=11.0)["bleu"]


@HARNESS.semantics_line(9)
def test_validation_order_first_failing_check_decides() -> None:
    """Two faults at once: the earlier check in the contract's order wins (last line)."""
    cases = [
        ([1, 2], ("invalid_input", "")),
        ({**BASE, "zz": 1, "smoothing": "method9"}, ("invalid_input", "/zz")),
        ({"totals": [1], "smoothing": "x"}, ("invalid_input", "/matches")),
        (input_with(matches=[1] * 9, totals="x"), ("limit_exceeded", "/matches")),
        (input_with(totals=[1, -1], candidate_length=-1), ("invalid_input", "/totals/1")),
        (input_with(smoothing="method4", decimals=99), ("unsupported_input", "/smoothing")),
        (input_with(decimals=99, totals=[1]), ("invalid_input", "/decimals")),
        (input_with(totals=[1], matches=[5]), ("invalid_input", "/matches/0")),
        (input_with(matches=[0, 1], totals=[1, 1], epsilon=0.5), ("invalid_input", "/matches/1")),
    ]
    assert_codes(cases)


# --- one test per error code per input field -----------------------------------------------

ERRORS = [
    *HARNESS.common("input", "null"),
    (
        "input",
        "invalid_input",
        "unknown key",
        input_with(weights=[0.25] * 4),
        "/weights",
        'Unknown key "weights" in the input; expected only matches, totals, candidate_length, '
        "reference_length, smoothing, epsilon, effective_order, decimals.",
    ),
    HARNESS.missing("matches"),
    (
        "matches",
        "invalid_input",
        "not an array",
        input_with(matches="9 7 5 3"),
        "/matches",
        'Expected an array of integers at /matches, got the string "9 7 5 3".',
    ),
    (
        "matches",
        "invalid_input",
        "empty",
        input_with(matches=[]),
        "/matches",
        "Expected at least 1 order at /matches, got an empty array.",
    ),
    (
        "matches",
        "limit_exceeded",
        "9 orders",
        input_with(matches=[1] * 9),
        "/matches",
        "Expected at most 8 orders at /matches (limit max orders), got 9.",
    ),
    (
        "matches",
        "invalid_input",
        "fraction",
        input_with(matches=[9, 7.5, 5, 3]),
        "/matches/1",
        "Expected an integer at /matches/1, got 7.5.",
    ),
    (
        "matches",
        "invalid_input",
        "boolean",
        input_with(matches=[True, 7, 5, 3]),
        "/matches/0",
        "Expected an integer at /matches/0, got true.",
    ),
    (
        "matches",
        "invalid_input",
        "negative",
        input_with(matches=[9, 7, 5, -3]),
        "/matches/3",
        "Expected an integer of at least 0 at /matches/3, got -3.",
    ),
    (
        "matches",
        "limit_exceeded",
        "over 10^12",
        input_with(matches=[10**12 + 1, 7, 5, 3]),
        "/matches/0",
        "Expected an integer of at most 1000000000000 at /matches/0 (limit max count value), "
        "got 1000000000001.",
    ),
    (
        "matches",
        "invalid_input",
        "over totals",
        input_with(matches=[9, 9, 5, 3]),
        "/matches/1",
        "Expected matches[1] <= totals[1] (8) at /matches/1, got 9.",
    ),
    (
        "matches",
        "invalid_input",
        "nonzero after m_1 = 0",
        input_with(matches=[0, 7, 5, 3]),
        "/matches/1",
        "Expected every match count to be 0 when matches[0] is 0 at /matches/1, got 7.",
    ),
    HARNESS.missing("totals"),
    (
        "totals",
        "invalid_input",
        "NaN",
        input_with(totals=[10, 8, math.nan, 4]),
        "/totals/2",
        "Expected an integer at /totals/2, got NaN.",
    ),
    (
        "totals",
        "limit_exceeded",
        "over 10^12",
        input_with(totals=[10, 8, 6, 1e13]),
        "/totals/3",
        "Expected an integer of at most 1000000000000 at /totals/3 (limit max count value), "
        "got 10000000000000.",
    ),
    (
        "totals",
        "invalid_input",
        "length differs",
        input_with(totals=[10, 8, 6]),
        "/totals",
        "Expected totals to have as many orders as matches (4) at /totals, got 3.",
    ),
    (
        "candidate_length",
        "invalid_input",
        "string",
        input_with(candidate_length="11"),
        "/candidate_length",
        'Expected an integer at /candidate_length, got the string "11".',
    ),
    (
        "candidate_length",
        "limit_exceeded",
        "huge",
        input_with(candidate_length=10**30),
        "/candidate_length",
        "Expected an integer of at most 1000000000000 at /candidate_length (limit max count "
        "value), got an integer of 31 digits.",
    ),
    (
        "reference_length",
        "invalid_input",
        "negative",
        input_with(reference_length=-1),
        "/reference_length",
        "Expected an integer of at least 0 at /reference_length, got -1.",
    ),
    (
        "reference_length",
        "limit_exceeded",
        "over 10^12",
        input_with(reference_length=10**12 + 1),
        "/reference_length",
        "Expected an integer of at most 1000000000000 at /reference_length (limit max count "
        "value), got 1000000000001.",
    ),
    *HARNESS.common("smoothing", "unknown method"),
    (
        "smoothing",
        "unsupported_input",
        "method7",
        input_with(smoothing="method7"),
        "/smoothing",
        "Chen and Cherry method7 is not supported by bleu-smoothing-compute@1.0.0 at /smoothing: "
        "it needs the source or corpus context that sufficient statistics do not carry; use none, "
        "method1, method2 or method3.",
    ),
    (
        "epsilon",
        "invalid_input",
        "over 1",
        input_with(smoothing="method1", epsilon=1.5),
        "/epsilon",
        "Expected a number from 0 to 1 at /epsilon, got 1.5.",
    ),
    *HARNESS.common("epsilon", "without method1"),
    (
        "effective_order",
        "invalid_input",
        "string",
        input_with(effective_order="yes"),
        "/effective_order",
        'Expected true or false at /effective_order, got the string "yes".',
    ),
    *HARNESS.common("decimals", "16"),
]


TYPED_FAULTS = {
    "invalid_input": input_with(matches=[-1]),
    "limit_exceeded": input_with(matches=[1] * 9),
    "unsupported_input": input_with(smoothing="method6"),
}
HARNESS.declare(ERRORS, typed_faults=TYPED_FAULTS)


def test_typed_function_returns_frozen_result() -> None:
    """The typed function gives the example's numbers in a frozen object."""
    result = mtcompute.bleu_from_statistics([9, 7, 5, 3], [10, 8, 6, 4], 11, 11, decimals=10)
    assert (0.8375922397, 1.0, 4) == (result.bleu, result.brevity_penalty, result.orders_used)
    HARNESS.assert_frozen(result, "bleu")
