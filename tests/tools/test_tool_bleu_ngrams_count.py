"""bleu-ngrams-count@1.0.0: one test per semantics line, one per error code per field, the
composition (each segment is bleu-sentence-components), sacreBLEU 2.6.0 statistics, the output
limit, properties."""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mtcompute
from mtcompute.errors import LimitExceeded
from mtcompute.metrics.bleu.counts import corpus_statistics
from mtcompute.tools.bleu_ngrams_count import INPUT, _segments, bleu_ngrams_count
from tests.harness import (
    ToolHarness,
    result_of,
    sacre_score,
    wmt_corpora,
    wmt_pairs,
)
from tests.strategies import bleu_segments
from tests.tools.test_tool_bleu_corpus_compute import (
    CAT_HYP,
    CAT_REFS,
    SEED_HYP,
    SEED_REF,
    STAT_KEYS,
)

TOOL = ("bleu-ngrams-count", "1.0.0")
BASE: dict[str, Any] = {"hypotheses": [SEED_HYP, CAT_HYP], "references": [[SEED_REF], CAT_REFS]}
PROPERTY = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow], max_examples=60)
LIMIT_MESSAGE = (
    "Expected a result of at most 1000000 UTF-8 bytes of JSON (limit max output bytes), got "
    "more with include_ngrams, passing the limit at segment {}; ask without include_ngrams or "
    "split the input."
)


HARNESS = ToolHarness(TOOL, BASE)
run, input_with, error = HARNESS.run, HARNESS.input_with, HARNESS.error
assert_codes = HARNESS.assert_codes


def size(value: object) -> int:
    """UTF-8 bytes of the compact JSON of ``value``."""
    return len(mtcompute.dumps(value).encode("utf-8"))


def per_component(data: dict[str, Any]) -> list[dict[str, Any]]:
    """bleu-sentence-components of each segment, without max_order (segments do not echo it)."""
    options = {k: data[k] for k in ("max_order", "include_ngrams") if k in data}
    return [
        {
            k: v
            for k, v in result_of(
                "bleu-sentence-components", {"hypothesis": h, "references": refs, **options}
            ).items()
            if k != "max_order"
        }
        for h, refs in zip(data["hypotheses"], data["references"], strict=True)
    ]


@st.composite
def ngrams_inputs(draw: st.DrawFn, max_segments: int = 6) -> dict[str, Any]:
    """A valid bleu-ngrams-count input."""
    segments = draw(st.lists(bleu_segments(max_references=3), min_size=1, max_size=max_segments))
    data: dict[str, Any] = {
        "hypotheses": [h for h, _ in segments],
        "references": [refs for _, refs in segments],
    }
    if draw(st.booleans()):
        data["max_order"] = draw(st.integers(1, 8) | st.integers(1, 8).map(float))
    if draw(st.booleans()):
        data["include_ngrams"] = draw(st.booleans())
    return data


def unmatched_unigram_result(segments: list[list[str]]) -> dict[str, Any]:
    """The max_order 1 result with tables for distinct tokens and empty references."""
    return {
        "segment_count": len(segments),
        "max_order": 1,
        "candidate_length": sum(map(len, segments)),
        "reference_length": 0,
        "matches": [0],
        "totals": [sum(map(len, segments))],
        "segments": [
            {
                "candidate_length": len(tokens),
                "reference_length": 0,
                "matches": [0],
                "totals": [len(tokens)],
                "ngrams": [
                    {
                        "order": 1,
                        "ngram": [t],
                        "count": 1,
                        "max_reference_count": 0,
                        "clipped_count": 0,
                    }
                    for t in tokens
                ],
            }
            for tokens in segments
        ],
    }


@cache
def _million_bytes() -> tuple[tuple[str, ...], ...]:
    tokens = [f"\u00e9{i:05d}" + "x" * 15 for i in range(10_097)]  # 22 UTF-8 bytes each
    segments = [tokens[:100], tokens[100:9_997], tokens[9_997:]]
    deficit = 1_000_000 - size(unmatched_unigram_result(segments))
    assert 0 <= deficit <= 100
    segments[2] = [t + "y" if i < deficit else t for i, t in enumerate(segments[2])]
    return tuple(tuple(segment) for segment in segments)


def segments_of_exactly_a_million_bytes() -> list[list[str]]:
    """Three segments of distinct tokens (10,097 in all) whose max_order 1 result with tables
    is exactly 1,000,000 bytes."""
    return [list(segment) for segment in _million_bytes()]


def as_input(segments: list[list[str]]) -> dict[str, Any]:
    """A max_order 1 input with tables and one empty reference per segment."""
    return {
        "hypotheses": segments,
        "references": [[[]]] * len(segments),
        "max_order": 1,
        "include_ngrams": True,
    }


# --- one test per semantics line ------------------------------------------------------------


@HARNESS.semantics_line(0)
def test_segment_layout_and_defaults() -> None:
    """references[i] belong to segment i; counts must agree; N = 4, no tables by default."""
    result = run()
    swapped = run(references=[CAT_REFS, [SEED_REF]])
    assert (4, [[1, 0, 0, 0], [0, 0, 0, 0]], ["ngrams" in s for s in result["segments"]]) == (
        result["max_order"],
        [s["matches"] for s in swapped["segments"]],
        [False, False],
    )
    assert ("invalid_input", "/references") == error(input_with(references=[[SEED_REF]]))[:2]


@PROPERTY
@given(ngrams_inputs())
@HARNESS.semantics_line(1)
def test_each_segment_is_bleu_sentence_components(data: dict[str, Any]) -> None:
    """segments[i] is bleu-sentence-components of segment i (table included when asked)."""
    assert per_component(data) == result_of(TOOL[0], data)["segments"]


def test_each_segment_is_bleu_sentence_components_on_real_wmt_segments() -> None:
    """The same on real WMT segments of every pair, with tables on a shorter stretch."""
    expected, actual = [], []
    for k, pair in enumerate(wmt_pairs()):
        corpus = wmt_corpora(pair)[0]
        for count, tables in ((200, False), (12, True)):
            data = {
                "hypotheses": corpus.hypotheses[:count],
                "references": corpus.references[:count],
                "max_order": 1 + k % 8,
                "include_ngrams": tables,
            }
            expected.append(per_component(data))
            actual.append(result_of(TOOL[0], data)["segments"])
    assert expected == actual


@HARNESS.semantics_line(2)
def test_sums_are_the_inputs_of_bleu_smoothing_compute() -> None:
    """The top-level statistics are the exact sums; bleu-smoothing-compute takes them as is."""
    result = run(max_order=2)
    segments = result["segments"]
    expected = {
        "segment_count": 2,
        "max_order": 2,
        "candidate_length": sum(s["candidate_length"] for s in segments),
        "reference_length": sum(s["reference_length"] for s in segments),
        "matches": [sum(s["matches"][n] for s in segments) for n in range(2)],
        "totals": [sum(s["totals"][n] for s in segments) for n in range(2)],
    }
    assert expected == {k: v for k, v in result.items() if k != "segments"}
    score = result_of(
        "bleu-smoothing-compute",
        {**{k: result[k] for k in STAT_KEYS}, "smoothing": "method3", "decimals": 10},
    )
    corpus = result_of(
        "bleu-corpus-compute", {**BASE, "max_order": 2, "smoothing": "method3", "decimals": 10}
    )
    assert score == {k: corpus[k] for k in score}


@HARNESS.semantics_line(3)
def test_output_limit_names_the_first_segment_passing_it() -> None:
    """A result of exactly 1,000,000 bytes passes; one byte more fails at the crossing segment."""
    segments = segments_of_exactly_a_million_bytes()
    result = run(**as_input(segments))
    assert (unmatched_unigram_result(segments), 1_000_000) == (result, size(result))
    one_more = [segments[0], segments[1], [*segments[2][:-1], segments[2][-1] + "z"]]
    assert ("limit_exceeded", "", LIMIT_MESSAGE.format(2)) == error(as_input(one_more))
    # The second of three segments passes the limit: the message names segment 1.
    big = [segments[0], segments[1] + segments[2] + [f"extra{i}" for i in range(5)], ["a"]]
    assert ("limit_exceeded", "", LIMIT_MESSAGE.format(1)) == error(as_input(big))
    # A segment whose table would be far too large is refused before it is built.
    huge = {
        "hypotheses": [["a"], [f"t{i}" for i in range(200_000)]],
        "references": [[["a"]], [[]]],
        "max_order": 2,
        "include_ngrams": True,
    }
    assert ("limit_exceeded", "", LIMIT_MESSAGE.format(1)) == error(huge)
    # Without tables the largest possible result (4096 segments, 8 orders, every number at
    # its largest: 500,000 tokens bound every count and length) stays under 800,000 bytes.
    numbers = [500_000] * 8
    segment = {
        "candidate_length": 500_000,
        "reference_length": 500_000,
        "matches": numbers,
        "totals": numbers,
    }
    largest = {
        "segment_count": 4096,
        "max_order": 8,
        **segment,
        "segments": [segment] * 4096,
    }
    assert True is (size(largest) < 800_000)


@PROPERTY
@given(ngrams_inputs(), st.integers(150, 3000))
def test_size_precheck_changes_no_answer(data: dict[str, Any], limit: int) -> None:
    """With any limit, the error names the first segment at which the full result passes it."""
    data["include_ngrams"] = True
    full = result_of(TOOL[0], data)
    top = {k: v for k, v in full.items() if k != "segments"}
    sizes = [
        size({**top, "segments": full["segments"][: i + 1]}) for i in range(len(full["segments"]))
    ]
    expected = next((i for i, s in enumerate(sizes) if s > limit), None)
    values = INPUT.parse(data)
    max_order = values["max_order"]
    stats, _ = corpus_statistics(values["hypotheses"], values["references"], max_order)
    try:
        _segments(values["hypotheses"], values["references"], stats, top, max_order, True, limit)
        actual = None
    except LimitExceeded as exc:
        actual = int(exc.message.split("at segment ")[1].split(";")[0])
    assert expected == actual


@HARNESS.semantics_line(4)
def test_limits_and_error_codes() -> None:
    """Each rule of the limits line gets its code."""
    assert_codes(
        [
            (input_with(references=[[[]]] * 4097), ("limit_exceeded", "/references")),
            (input_with(references=[[[]] * 9, CAT_REFS]), ("limit_exceeded", "/references/0")),
            (
                input_with(references=[[SEED_REF], [["\u00e9" * 65]]]),
                ("limit_exceeded", "/references/1/0/0"),
            ),
            (
                {"hypotheses": [["h" * 128] * 32_768], "references": [[["é"]]]},
                ("limit_exceeded", ""),
            ),
            (input_with(hypotheses=[SEED_HYP] * 3), ("invalid_input", "/references")),
            (input_with(references=[[SEED_REF], []]), ("invalid_input", "/references/1")),
            (input_with(hypotheses=[["a\udfff"], CAT_HYP]), ("invalid_input", "/hypotheses/0/0")),
            (input_with(max_order=8.5), ("invalid_input", "/max_order")),
            (input_with(include_ngrams="true"), ("invalid_input", "/include_ngrams")),
        ]
    )
    # Empty hypotheses and references are fine.
    empty = run(hypotheses=[[]], references=[[[]]], max_order=1)
    assert [{"candidate_length": 0, "reference_length": 0, "matches": [0], "totals": [0]}] == (
        empty["segments"]
    )


@HARNESS.semantics_line(5)
def test_validation_order_first_failing_check_decides() -> None:
    """Two faults at once: the earlier check in the contract's order wins (last line)."""
    cases = [
        (None, ("invalid_input", "")),
        ({**BASE, "smoothing": "none", "max_order": 0}, ("invalid_input", "/smoothing")),
        ({"hypotheses": []}, ("invalid_input", "/references")),
        (input_with(hypotheses=[[]] * 4097, references=[]), ("limit_exceeded", "/hypotheses")),
        (
            input_with(hypotheses=[[""]], references=[[["x" * 200]]]),
            ("invalid_input", "/hypotheses/0/0"),
        ),
        (input_with(references=[[SEED_REF]], max_order=0), ("invalid_input", "/references")),
        (input_with(references=[[SEED_REF], [[""]]] * 2), ("invalid_input", "/references/1/0/0")),
        (input_with(max_order=0, include_ngrams=0), ("invalid_input", "/max_order")),
        (
            {"hypotheses": [["a"] * 500_001], "references": [[[]]], "include_ngrams": 0},
            ("invalid_input", "/include_ngrams"),
        ),
        (
            {"hypotheses": [["h" * 128] * 40_000] * 13, "references": [[[]]] * 13},
            ("limit_exceeded", ""),
        ),
    ]
    assert_codes(cases)
    # total tokens, then total bytes, then the output size
    too_big = {
        "hypotheses": [["h" * 128] * 32_768, ["x"]],
        "references": [[[]], [[]]],
        "include_ngrams": True,
    }
    assert [
        "Expected at most 500000 tokens in the hypotheses and references together "
        "(limit max total tokens), got 520000.",
        "Expected at most 4194304 UTF-8 bytes of tokens in all (limit max total token bytes), "
        "got 4194305.",
    ] == [
        error({"hypotheses": [["h" * 128] * 40_000] * 13, "references": [[[]]] * 13})[2],
        error(too_big)[2],
    ]


@pytest.mark.parametrize("pair", wmt_pairs())
def test_statistics_equal_sacrebleu_on_wmt(pair: str) -> None:
    """The summed statistics of the first system of every pair are sacreBLEU's exactly."""
    corpus = wmt_corpora(pair)[0]
    score = sacre_score(corpus, "none")
    result = result_of(TOOL[0], {"hypotheses": corpus.hypotheses, "references": corpus.references})
    assert (score.sys_len, score.ref_len, score.counts, score.totals) == tuple(
        result[k] for k in STAT_KEYS
    )


# --- properties -------------------------------------------------------------------------------


@PROPERTY
@given(ngrams_inputs())
def test_statistics_add_up_and_stay_in_range(data: dict[str, Any]) -> None:
    """Sums of segments; 0 <= m_n <= l_n = max(0, c_i - n + 1); tables sum to the matches."""
    data["include_ngrams"] = True
    result = result_of(TOOL[0], data)
    n_max = result["max_order"]
    segments = result["segments"]
    assert (
        [sum(s["matches"][n] for s in segments) for n in range(n_max)],
        [[max(0, s["candidate_length"] - n) for n in range(n_max)] for s in segments],
        [
            [
                sum(e["clipped_count"] for e in s["ngrams"] if e["order"] == n + 1)
                for n in range(n_max)
            ]
            for s in segments
        ],
        True,
    ) == (
        result["matches"],
        [s["totals"] for s in segments],
        [s["matches"] for s in segments],
        all(0 <= m <= t for s in segments for m, t in zip(s["matches"], s["totals"], strict=True)),
    )


# --- one test per error code per input field -----------------------------------------------

ERRORS = [
    (
        "input",
        "invalid_input",
        "string",
        "{}",
        "",
        'Expected a JSON object as the input, got the string "{}".',
    ),
    (
        "input",
        "invalid_input",
        "unknown key",
        input_with(smoothing="none"),
        "/smoothing",
        'Unknown key "smoothing" in the input; expected only hypotheses, references, max_order, '
        "include_ngrams.",
    ),
    HARNESS.missing("hypotheses"),
    (
        "hypotheses",
        "invalid_input",
        "not an array",
        input_with(hypotheses=None),
        "/hypotheses",
        "Expected an array of 1 to 4096 token lists at /hypotheses, got null.",
    ),
    *HARNESS.common("hypotheses", "empty"),
    (
        "hypotheses",
        "limit_exceeded",
        "4097 segments",
        input_with(hypotheses=[["a"]] * 4097),
        "/hypotheses",
        "Expected at most 4096 segments at /hypotheses (limit max segments), got 4097.",
    ),
    (
        "hypotheses",
        "invalid_input",
        "segment not an array",
        input_with(hypotheses=[SEED_HYP, {"0": "the"}]),
        "/hypotheses/1",
        "Expected a token list (an array) at /hypotheses/1, got an object.",
    ),
    (
        "hypotheses",
        "invalid_input",
        "token not a string",
        input_with(hypotheses=[[True], CAT_HYP]),
        "/hypotheses/0/0",
        "Expected a token (a non-empty string) at /hypotheses/0/0, got true.",
    ),
    (
        "hypotheses",
        "limit_exceeded",
        "token over 128 bytes",
        input_with(hypotheses=[SEED_HYP, ["cat", "x" * 129]]),
        "/hypotheses/1/1",
        "Expected a token of at most 128 UTF-8 bytes at /hypotheses/1/1 (limit max token bytes), "
        "got 129 bytes.",
    ),
    HARNESS.missing("references"),
    (
        "references",
        "limit_exceeded",
        "4097 segments",
        input_with(references=[[["a"]]] * 4097),
        "/references",
        "Expected at most 4096 segments at /references (limit max segments), got 4097.",
    ),
    (
        "references",
        "invalid_input",
        "more segments than hypotheses",
        input_with(references=[[SEED_REF], CAT_REFS, CAT_REFS]),
        "/references",
        "Expected references to have as many segments as hypotheses (2) at /references, got 3.",
    ),
    (
        "references",
        "limit_exceeded",
        "9 references",
        input_with(references=[[SEED_REF] * 9, CAT_REFS]),
        "/references/0",
        "Expected at most 8 references at /references/0 (limit max references), got 9.",
    ),
    (
        "references",
        "invalid_input",
        "lone surrogate",
        input_with(references=[[SEED_REF], [["ok"], ["\ud800x"]]]),
        "/references/1/1/0",
        "Expected a token without lone surrogates at /references/1/1/0, got U+D800 at index 0.",
    ),
    (
        "max_order",
        "invalid_input",
        "string",
        input_with(max_order="2"),
        "/max_order",
        'Expected an integer at /max_order, got the string "2".',
    ),
    *HARNESS.common("max_order", "0"),
    (
        "include_ngrams",
        "invalid_input",
        "number",
        input_with(include_ngrams=1),
        "/include_ngrams",
        "Expected true or false at /include_ngrams, got 1.",
    ),
    *HARNESS.common("total tokens", "500001"),
    (
        "total token bytes",
        "limit_exceeded",
        "4194306 with a 2-byte token",
        {"hypotheses": [["h" * 128] * 16384] * 2, "references": [[["\u00e9"]], [[]]]},
        "",
        "Expected at most 4194304 UTF-8 bytes of tokens in all (limit max total token bytes), "
        "got 4194306.",
    ),
    (
        "output",
        "limit_exceeded",
        "1000001 bytes",
        as_input([[*s[:-1], s[-1] + "z"] if i == 2 else s for i, s in enumerate(_million_bytes())]),
        "",
        LIMIT_MESSAGE.format(2),
    ),
]


TYPED_FAULTS = {
    "invalid_input": input_with(hypotheses=[SEED_HYP]),
    "limit_exceeded": input_with(references=[[SEED_REF] * 9, CAT_REFS]),
}
HARNESS.declare(
    ERRORS, typed_faults=TYPED_FAULTS, unchanged=input_with(include_ngrams=True, max_order=3.0)
)


def test_typed_function_returns_frozen_result() -> None:
    """The typed function gives the example's counts, and tables when asked, frozen."""
    result = bleu_ngrams_count(BASE["hypotheses"], BASE["references"], 2, include_ngrams=True)
    first = result.segments[0]
    assert (2, 2, 12, 14, (9, 5), (12, 10), (6, 8, (4, 2), (6, 5)), 10) == (
        result.segment_count,
        result.max_order,
        result.candidate_length,
        result.reference_length,
        result.matches,
        result.totals,
        (first.candidate_length, first.reference_length, first.matches, first.totals),
        len(first.ngrams or ()),
    )
    HARNESS.assert_frozen(result, "matches")
