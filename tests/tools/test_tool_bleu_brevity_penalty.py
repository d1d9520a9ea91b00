"""bleu-brevity-penalty@1.0.0: one test per semantics line, one per error code per field, the
composition (bleu-smoothing-compute's brevity penalty on the sums), sacreBLEU 2.6.0 on every
WMT pair, properties."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sacrebleu.metrics import BLEU

from mtcompute.core.jsmath import js_exp, round_to_fixed
from mtcompute.tools.bleu_brevity_penalty import bleu_brevity_penalty
from tests.harness import (
    ToolHarness,
    close,
    result_of,
    sacre_score,
    wmt_corpora,
    wmt_pairs,
)

TOOL = ("bleu-brevity-penalty", "1.0.0")
BASE: dict[str, Any] = {"candidate_lengths": [6, 6, 3], "reference_lengths": [[8], [6, 7], [2, 4]]}
PROPERTY = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow], max_examples=150)
MAX_LENGTH = 10**9


HARNESS = ToolHarness(TOOL, BASE)
run, input_with, error = HARNESS.run, HARNESS.input_with, HARNESS.error
assert_codes = HARNESS.assert_codes


@st.composite
def lengths_inputs(draw: st.DrawFn, large: bool = False) -> dict[str, Any]:
    """A valid input: 1 to 20 segments, 1 to 8 reference lengths each, maybe decimals."""
    top = MAX_LENGTH if large else 60
    count = draw(st.integers(1, 20))
    length = st.integers(0, top)
    data: dict[str, Any] = {
        "candidate_lengths": draw(st.lists(length, min_size=count, max_size=count)),
        "reference_lengths": draw(
            st.lists(st.lists(length, min_size=1, max_size=8), min_size=count, max_size=count)
        ),
    }
    if draw(st.booleans()):
        data["decimals"] = draw(st.integers(0, 15))
    return data


def any_lengths() -> st.SearchStrategy[dict[str, Any]]:
    """Valid inputs with small or very large lengths."""
    return st.one_of(lengths_inputs(), lengths_inputs(large=True))


# --- one test per semantics line ------------------------------------------------------------


@HARNESS.semantics_line(0)
def test_segment_i_pairs_a_candidate_with_its_references() -> None:
    """reference_lengths[i] belong to candidate_lengths[i]; the counts must agree."""
    swapped = run(reference_lengths=[[2, 4], [6, 7], [8]])
    assert ([8, 6, 2], [4, 6, 8], ("invalid_input", "/reference_lengths")) == (
        run()["closest_reference_lengths"],
        swapped["closest_reference_lengths"],
        error(input_with(reference_lengths=[[8], [6, 7]]))[:2],
    )


@HARNESS.semantics_line(1)
def test_closest_lengths_ties_to_the_shorter_and_exact_sums() -> None:
    """The closest reference length per segment (a tie to the shorter); exact sums to 10^14."""
    result = run(
        candidate_lengths=[5, 5, 5, 0, 7],
        reference_lengths=[[6, 4], [4, 6], [2, 6, 9], [3, 1], [9, 5, 7, 7]],
    )
    assert ([4, 4, 6, 1, 7], 22, 22) == (
        result["closest_reference_lengths"],
        result["candidate_length"],
        result["reference_length"],
    )
    # 99,999 segments whose closest length is 10^9 exactly (a distance of 0), one whose is 0.
    big = run(
        candidate_lengths=[MAX_LENGTH] * 100_000,
        reference_lengths=[[MAX_LENGTH - 1, MAX_LENGTH]] * 99_999 + [[0]],
    )
    assert (10**14, 10**14 - 10**9) == (
        big["candidate_length"],
        big["reference_length"],
    )


@PROPERTY
@given(any_lengths())
@HARNESS.semantics_line(2)
def test_penalty_is_bleu_smoothing_computes_on_the_sums(data: dict[str, Any]) -> None:
    """brevity_penalty equals bleu-smoothing-compute's for the summed c and r (and decimals)."""
    result = result_of(TOOL[0], data)
    c, r = result["candidate_length"], result["reference_length"]
    if max(c, r) > 10**12:  # beyond that tool's limit: the rule itself
        expected = 0 if c == 0 else 1 if c > r else js_exp(1 - r / c)
        if "decimals" in data:
            expected = round_to_fixed(expected, data["decimals"])
    else:
        smoothing_input = {
            "matches": [0],
            "totals": [0],
            "candidate_length": c,
            "reference_length": r,
            "smoothing": "none",
            **({"decimals": data["decimals"]} if "decimals" in data else {}),
        }
        expected = result_of("bleu-smoothing-compute", smoothing_input)["brevity_penalty"]
    assert expected == result["brevity_penalty"]


@HARNESS.semantics_line(3)
def test_ratio_is_c_over_r_or_null() -> None:
    """ratio = c / r in double precision; null when r = 0 (also when c = 0)."""
    assert (0.9375, None, None, 0, 1 / 3, 1e9) == (
        run()["ratio"],
        run(candidate_lengths=[3], reference_lengths=[[0, 7]])["ratio"],
        run(candidate_lengths=[0], reference_lengths=[[0]])["ratio"],
        run(candidate_lengths=[0], reference_lengths=[[4]])["ratio"],
        run(candidate_lengths=[1], reference_lengths=[[3]])["ratio"],
        run(candidate_lengths=[10**9], reference_lengths=[[1]])["ratio"],
    )


@HARNESS.semantics_line(4)
def test_decimals_round_penalty_and_ratio_with_tofixed() -> None:
    """decimals rounds both with toFixed (exact binary value, ties up); 4.0 is 4."""
    full = run()
    assert (
        (0.935506985, 0.9375),
        (0.94, 0.94),
        (1, 0),
        (float(f"{full['brevity_penalty']:.15f}"), 0.9375),
        run(),
    ) == (
        (run(decimals=10)["brevity_penalty"], run(decimals=10)["ratio"]),
        (run(decimals=2)["brevity_penalty"], run(decimals=2)["ratio"]),
        (
            run(decimals=0)["brevity_penalty"],
            run(candidate_lengths=[1], reference_lengths=[[3]], decimals=0)["ratio"],
        ),
        (run(decimals=15)["brevity_penalty"], run(decimals=15)["ratio"]),
        run(candidate_lengths=[6.0, 6, 3], reference_lengths=[[8.0], [6, 7.0], [2, 4]]),
    )
    # 0.125 is exact in binary: toFixed(2) of a true tie goes up (0.13), unlike round-half-even.
    assert 0.13 == run(candidate_lengths=[1], reference_lengths=[[8]], decimals=2)["ratio"]


@HARNESS.semantics_line(5)
def test_limits_are_limit_exceeded_and_the_rest_invalid() -> None:
    """Over 100000 segments, over 8 references, a length over 10^9: limit_exceeded."""
    assert_codes(
        [
            (input_with(candidate_lengths=[1] * 100_001), ("limit_exceeded", "/candidate_lengths")),
            (
                input_with(reference_lengths=[[1]] * 100_001),
                ("limit_exceeded", "/reference_lengths"),
            ),
            (
                input_with(reference_lengths=[[8], [1] * 9, [2]]),
                ("limit_exceeded", "/reference_lengths/1"),
            ),
            (
                input_with(candidate_lengths=[6, 6, 10**9 + 1]),
                ("limit_exceeded", "/candidate_lengths/2"),
            ),
            (
                input_with(reference_lengths=[[1e10], [6], [2]]),
                ("limit_exceeded", "/reference_lengths/0/0"),
            ),
            (input_with(candidate_lengths=[]), ("invalid_input", "/candidate_lengths")),
            (
                input_with(reference_lengths=[[], [6], [2]]),
                ("invalid_input", "/reference_lengths/0"),
            ),
            (input_with(candidate_lengths=[-1, 6, 3]), ("invalid_input", "/candidate_lengths/0")),
            (
                input_with(reference_lengths=[[8], [6], [2, 0.5]]),
                ("invalid_input", "/reference_lengths/2/1"),
            ),
            (input_with(decimals=16), ("invalid_input", "/decimals")),
        ]
    )
    # At the limits: 100000 segments of 8 references of 10^9.
    at_limit = run(
        candidate_lengths=[MAX_LENGTH] * 100_000, reference_lengths=[[MAX_LENGTH] * 8] * 100_000
    )
    assert (10**14, 10**14, 1, 1) == (
        at_limit["candidate_length"],
        at_limit["reference_length"],
        at_limit["brevity_penalty"],
        at_limit["ratio"],
    )


@HARNESS.semantics_line(6)
def test_validation_order_first_failing_check_decides() -> None:
    """Two faults at once: the earlier check in the contract's order wins (last line)."""
    cases = [
        (3.5, ("invalid_input", "")),
        ({**BASE, "smoothing": "none", "decimals": 99}, ("invalid_input", "/smoothing")),
        ({"reference_lengths": 1}, ("invalid_input", "/candidate_lengths")),
        (
            input_with(candidate_lengths=[1] * 100_001, reference_lengths=5),
            ("limit_exceeded", "/candidate_lengths"),
        ),
        (
            input_with(candidate_lengths=[], reference_lengths=5),
            ("invalid_input", "/candidate_lengths"),
        ),
        (input_with(candidate_lengths=[10**10, -1]), ("limit_exceeded", "/candidate_lengths/0")),
        (input_with(candidate_lengths=[-1, 10**10]), ("invalid_input", "/candidate_lengths/0")),
        (
            input_with(candidate_lengths=[1], reference_lengths="x"),
            ("invalid_input", "/reference_lengths"),
        ),
        (input_with(reference_lengths=[[1] * 9, []]), ("limit_exceeded", "/reference_lengths/0")),
        (input_with(reference_lengths=[[], [1] * 9]), ("invalid_input", "/reference_lengths/0")),
        (
            input_with(reference_lengths=[[1, "2"], [10**10]]),
            ("invalid_input", "/reference_lengths/0/1"),
        ),
        (input_with(reference_lengths=[[8]], decimals=99), ("invalid_input", "/reference_lengths")),
        (input_with(decimals=True), ("invalid_input", "/decimals")),
    ]
    assert_codes(cases)


# --- sacreBLEU ------------------------------------------------------------------------------


@pytest.mark.parametrize("pair", wmt_pairs())
def test_agrees_with_sacrebleu_on_wmt(pair: str) -> None:
    """sacreBLEU's sys_len, ref_len exactly and its bp and ratio closely, per WMT pair."""
    corpus = wmt_corpora(pair)[0]
    score = sacre_score(corpus, "none")
    result = run(
        candidate_lengths=[len(h) for h in corpus.hypotheses],
        reference_lengths=[[len(r) for r in refs] for refs in corpus.references],
    )
    assert (score.sys_len, score.ref_len, True, True) == (
        result["candidate_length"],
        result["reference_length"],
        close(score.bp, result["brevity_penalty"]),
        close(score.ratio, result["ratio"]),
    )


@PROPERTY
@given(any_lengths())
def test_agrees_with_sacrebleu_compute_bleu(data: dict[str, Any]) -> None:
    """sacreBLEU's bp and ratio for the summed lengths, except where the contract differs:
    c = r = 0 (BP 0 here, 1 in sacreBLEU) and r = 0 (ratio null here, 0 in sacreBLEU)."""
    result = result_of(TOOL[0], {k: v for k, v in data.items() if k != "decimals"})
    c, r = result["candidate_length"], result["reference_length"]
    score = BLEU.compute_bleu([0], [0], c, r, max_ngram_order=1)
    expected_bp = 0.0 if c == r == 0 else score.bp
    expected_ratio = None if r == 0 else score.ratio
    assert (True, True) == (
        close(expected_bp, result["brevity_penalty"]) or expected_bp == result["brevity_penalty"],
        expected_ratio == result["ratio"],
    )


# --- properties -------------------------------------------------------------------------------


@PROPERTY
@given(any_lengths())
def test_penalty_in_unit_interval_and_closest_lengths_are_closest(data: dict[str, Any]) -> None:
    """0 <= BP <= 1; each closest length is a reference length with no other closer."""
    result = result_of(TOOL[0], data)
    closest = [
        min(refs, key=lambda x, c=c: (abs(x - c), x))
        for c, refs in zip(data["candidate_lengths"], data["reference_lengths"], strict=True)
    ]
    assert (True, closest, sum(data["candidate_lengths"]), sum(closest)) == (
        0 <= result["brevity_penalty"] <= 1,
        result["closest_reference_lengths"],
        result["candidate_length"],
        result["reference_length"],
    )


@PROPERTY
@given(lengths_inputs(), st.integers(2, 1000))
def test_scaling_every_length_keeps_penalty_and_ratio(data: dict[str, Any], k: int) -> None:
    """Multiplying every length by k scales c, r and the closest lengths, not BP or ratio."""
    scaled = {
        **data,
        "candidate_lengths": [k * c for c in data["candidate_lengths"]],
        "reference_lengths": [[k * r for r in refs] for refs in data["reference_lengths"]],
    }
    before, after = result_of(TOOL[0], data), result_of(TOOL[0], scaled)
    assert (
        k * before["candidate_length"],
        k * before["reference_length"],
        [k * r for r in before["closest_reference_lengths"]],
        before["brevity_penalty"],
        before["ratio"],
    ) == tuple(after.values())


# --- one test per error code per input field -----------------------------------------------

ERRORS = [
    *HARNESS.common("input", "null"),
    (
        "input",
        "invalid_input",
        "unknown key",
        input_with(hypotheses=[]),
        "/hypotheses",
        'Unknown key "hypotheses" in the input; expected only candidate_lengths, '
        "reference_lengths, decimals.",
    ),
    HARNESS.missing("candidate_lengths"),
    (
        "candidate_lengths",
        "invalid_input",
        "not an array",
        input_with(candidate_lengths=15),
        "/candidate_lengths",
        "Expected an array of 1 to 100000 lengths at /candidate_lengths, got 15.",
    ),
    (
        "candidate_lengths",
        "invalid_input",
        "empty",
        input_with(candidate_lengths=[]),
        "/candidate_lengths",
        "Expected at least 1 segment at /candidate_lengths, got none.",
    ),
    (
        "candidate_lengths",
        "limit_exceeded",
        "100001 segments",
        input_with(candidate_lengths=[1] * 100_001),
        "/candidate_lengths",
        "Expected at most 100000 segments at /candidate_lengths (limit max segments), got 100001.",
    ),
    (
        "candidate_lengths",
        "invalid_input",
        "fraction",
        input_with(candidate_lengths=[6, 6.5, 3]),
        "/candidate_lengths/1",
        "Expected an integer at /candidate_lengths/1, got 6.5.",
    ),
    (
        "candidate_lengths",
        "invalid_input",
        "negative",
        input_with(candidate_lengths=[6, 6, -3]),
        "/candidate_lengths/2",
        "Expected an integer of at least 0 at /candidate_lengths/2, got -3.",
    ),
    (
        "candidate_lengths",
        "limit_exceeded",
        "over 10^9",
        input_with(candidate_lengths=[10**9 + 1, 6, 3]),
        "/candidate_lengths/0",
        "Expected an integer of at most 1000000000 at /candidate_lengths/0 "
        "(limit max length value), got 1000000001.",
    ),
    HARNESS.missing("reference_lengths"),
    (
        "reference_lengths",
        "invalid_input",
        "not an array",
        input_with(reference_lengths={"0": [8]}),
        "/reference_lengths",
        "Expected an array of 1 to 100000 reference-length lists at /reference_lengths, "
        "got an object.",
    ),
    (
        "reference_lengths",
        "invalid_input",
        "empty",
        input_with(reference_lengths=[]),
        "/reference_lengths",
        "Expected at least 1 segment at /reference_lengths, got none.",
    ),
    (
        "reference_lengths",
        "limit_exceeded",
        "100001 segments",
        input_with(reference_lengths=[[1]] * 100_001),
        "/reference_lengths",
        "Expected at most 100000 segments at /reference_lengths (limit max segments), got 100001.",
    ),
    (
        "reference_lengths",
        "invalid_input",
        "fewer segments",
        input_with(reference_lengths=[[8], [6, 7]]),
        "/reference_lengths",
        "Expected reference_lengths to have as many segments as candidate_lengths (3) at "
        "/reference_lengths, got 2.",
    ),
    (
        "reference_lengths",
        "invalid_input",
        "segment not an array",
        input_with(reference_lengths=[[8], 6, [2]]),
        "/reference_lengths/1",
        "Expected an array of 1 to 8 reference lengths at /reference_lengths/1, got 6.",
    ),
    (
        "reference_lengths",
        "invalid_input",
        "segment without references",
        input_with(reference_lengths=[[8], [], [2]]),
        "/reference_lengths/1",
        "Expected at least 1 reference at /reference_lengths/1, got none.",
    ),
    (
        "reference_lengths",
        "limit_exceeded",
        "9 references",
        input_with(reference_lengths=[[8], [6] * 9, [2]]),
        "/reference_lengths/1",
        "Expected at most 8 references at /reference_lengths/1 (limit max references), got 9.",
    ),
    (
        "reference_lengths",
        "invalid_input",
        "length not an integer",
        input_with(reference_lengths=[[8], [6, "7"], [2]]),
        "/reference_lengths/1/1",
        'Expected an integer at /reference_lengths/1/1, got the string "7".',
    ),
    (
        "reference_lengths",
        "limit_exceeded",
        "over 10^9",
        input_with(reference_lengths=[[8], [6, 7], [2, 1e12]]),
        "/reference_lengths/2/1",
        "Expected an integer of at most 1000000000 at /reference_lengths/2/1 "
        "(limit max length value), got 1000000000000.",
    ),
    (
        "decimals",
        "invalid_input",
        "negative",
        input_with(decimals=-2),
        "/decimals",
        "Expected an integer of at least 0 at /decimals, got -2.",
    ),
]


TYPED_FAULTS = {
    "invalid_input": input_with(reference_lengths=[[8], [6, 7]]),
    "limit_exceeded": input_with(candidate_lengths=[6, 6, 10**10]),
}
HARNESS.declare(
    ERRORS,
    typed_faults=TYPED_FAULTS,
    unchanged=input_with(candidate_lengths=[6.0, 6, 3], decimals=3),
)


def test_typed_function_returns_frozen_result() -> None:
    """The typed function gives the example's numbers in a frozen object."""
    result = bleu_brevity_penalty([6, 6, 3], [[8], [6, 7], [2, 4]], decimals=10)
    assert (15, 16, (8, 6, 2), 0.935506985, 0.9375) == (
        result.candidate_length,
        result.reference_length,
        result.closest_reference_lengths,
        result.brevity_penalty,
        result.ratio,
    )
    HARNESS.assert_frozen(result, "ratio")
