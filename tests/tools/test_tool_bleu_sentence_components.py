"""bleu-sentence-components@1.0.0: one test per semantics line, one per error code per field."""

from __future__ import annotations

import json
import random
import unicodedata
from typing import Any

from sacrebleu.metrics import BLEU

import mtcompute
from mtcompute.core.jsmath import js_exp, js_log
from tests.harness import ToolHarness

TOOL = ("bleu-sentence-components", "1.0.0")
BASE: dict[str, Any] = {
    # Papineni-style example with two references, counted by hand in test_clipping_per_papineni.
    "hypothesis": ["the", "cat", "the", "cat", "on", "the", "mat"],
    "references": [
        ["the", "cat", "is", "on", "the", "mat"],
        ["there", "is", "a", "cat", "on", "the", "mat"],
    ],
}
ENTRY_KEYS = ["order", "ngram", "count", "max_reference_count", "clipped_count"]
RESULT_KEYS = ["candidate_length", "reference_length", "max_order", "matches", "totals"]


HARNESS = ToolHarness(TOOL, BASE)
run, input_with, error = HARNESS.run, HARNESS.input_with, HARNESS.error
assert_codes = HARNESS.assert_codes


def stats(result: dict[str, Any]) -> tuple[int, int, list[int], list[int]]:
    """(candidate_length, reference_length, matches, totals) of a result."""
    return (
        result["candidate_length"],
        result["reference_length"],
        result["matches"],
        result["totals"],
    )


def compact_json_bytes(value: object) -> int:
    """UTF-8 bytes of compact JSON with non-ASCII as itself (JSON.stringify for these values)."""
    return len(json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8"))


def unmatched_unigram_result(hypothesis: list[str]) -> dict[str, Any]:
    """The max_order 1 result with its table for distinct tokens and an empty reference."""
    c = len(hypothesis)
    return {
        "candidate_length": c,
        "reference_length": 0,
        "max_order": 1,
        "matches": [0],
        "totals": [c],
        "ngrams": [
            {"order": 1, "ngram": [t], "count": 1, "max_reference_count": 0, "clipped_count": 0}
            for t in hypothesis
        ],
    }


def tokens_for_exactly_a_million_bytes() -> list[str]:
    """10000 distinct 2-byte-letter tokens whose max_order 1 result is exactly 1,000,000 bytes."""
    tokens = [f"\u00e9{i:05d}" + "x" * 15 for i in range(10_000)]  # 22 UTF-8 bytes, 21 chars
    deficit = 1_000_000 - compact_json_bytes(unmatched_unigram_result(tokens))
    assert 0 <= deficit <= len(tokens)
    return [t + "y" if i < deficit else t for i, t in enumerate(tokens)]


# --- one test per semantics line ------------------------------------------------------------


@HARNESS.semantics_line(0)
def test_exact_string_equality_and_default_max_order() -> None:
    """Tokens match by exact equality (no case folding, no normalization); N defaults to 4."""
    nfc = unicodedata.normalize("NFC", "caf\u00e9")
    nfd = unicodedata.normalize("NFD", "caf\u00e9")
    assert nfc != nfd
    differ = run(hypothesis=["Cat", nfc, "sat", "\uff41"], references=[["cat", nfd, "sat ", "a"]])
    same = run(hypothesis=["Cat", nfc], references=[["Cat", nfc]])
    assert ((4, 4, [0, 0, 0, 0], [4, 3, 2, 1]), 4, (2, 2, [2, 1, 0, 0], [2, 1, 0, 0])) == (
        stats(differ),
        differ["max_order"],
        stats(same),
    )
    assert RESULT_KEYS == list(differ)


@HARNESS.semantics_line(1)
def test_clipping_per_papineni() -> None:
    """matches clip each distinct n-gram by its largest count in one reference; totals c-n+1."""
    # BASE by hand: c = 7. Unigrams the 3 (max ref count 2), cat 2 (1), on 1, mat 1 -> 2+1+1+1.
    # Bigrams: the cat 2 (1), cat the 0, cat on 1 (ref 2), on the 1, the mat 1 -> 4.
    # Trigrams: cat on the (ref 2), on the mat -> 2. 4-grams: cat on the mat (ref 2) -> 1.
    # The classic cases: "the the the the" vs "the cat" clips to 1; seven "the" against
    # references with two and one "the" clip to 2; two references with one "the" each clip
    # to 1 (the largest count in ANY SINGLE reference, not the sum).
    cases = [
        BASE,
        {"hypothesis": ["the"] * 4, "references": [["the", "cat"]]},
        {"hypothesis": ["the"] * 7, "references": BASE["references"]},
        {"hypothesis": ["the", "the"], "references": [["the"], ["the"]]},
    ]
    expected = [
        ([5, 4, 2, 1], [7, 6, 5, 4]),
        ([1, 0, 0, 0], [4, 3, 2, 1]),
        ([2, 0, 0, 0], [7, 6, 5, 4]),
        ([1, 0, 0, 0], [2, 1, 0, 0]),
    ]
    actual = [(r["matches"], r["totals"]) for c in cases for r in [run(**c)]]
    assert expected == actual
    assert ([3, 0, 0, 0, 0, 0, 0, 0], [3, 2, 1, 0, 0, 0, 0, 0]) == tuple(
        run(hypothesis=["a", "b", "c"], references=[["c", "b", "a"]], max_order=8)[k]
        for k in ("matches", "totals")
    )


@HARNESS.semantics_line(2)
def test_closest_reference_length_ties_to_the_shorter() -> None:
    """c is the hypothesis length; r the closest reference length, a tie going to the shorter."""
    hyp5 = ["a", "b", "c", "d", "e"]
    cases = [
        (hyp5, [["x"] * 6, ["x"] * 4]),  # tie 4 / 6 -> 4, whatever the order
        (hyp5, [["x"] * 4, ["x"] * 6]),
        (hyp5, [["x"] * 2, ["x"] * 6]),  # closest wins over shorter
        (hyp5, [["x"] * 9, ["x"] * 3, ["x"] * 7]),  # tie 3 / 7 -> 3
        ([], [["x"] * 2, ["x"]]),  # c = 0 -> the shortest
        (["a"], [["x"] * 3, []]),  # an empty reference is closest to c = 1
    ]
    expected = [(5, 4), (5, 4), (5, 6), (5, 3), (0, 1), (1, 0)]
    actual = [
        (r["candidate_length"], r["reference_length"])
        for h, refs in cases
        for r in [run(hypothesis=h, references=refs)]
    ]
    assert expected == actual


@HARNESS.semantics_line(3)
def test_include_ngrams_table_order_and_output_limit() -> None:
    """ngrams by order, then first occurrence, every field; over 1,000,000 bytes is limited."""
    result = run(hypothesis=["b", "a", "b", "a", "c"], references=[["a", "b", "a"]], max_order=2)
    expected = [
        {"order": 1, "ngram": ["b"], "count": 2, "max_reference_count": 1, "clipped_count": 1},
        {"order": 1, "ngram": ["a"], "count": 2, "max_reference_count": 2, "clipped_count": 2},
        {"order": 1, "ngram": ["c"], "count": 1, "max_reference_count": 0, "clipped_count": 0},
        {"order": 2, "ngram": ["b", "a"], "count": 2, "max_reference_count": 1, "clipped_count": 1},
        {"order": 2, "ngram": ["a", "b"], "count": 1, "max_reference_count": 1, "clipped_count": 1},
        {"order": 2, "ngram": ["a", "c"], "count": 1, "max_reference_count": 0, "clipped_count": 0},
    ]
    assert "ngrams" not in result
    table = run(
        hypothesis=["b", "a", "b", "a", "c"],
        references=[["a", "b", "a"]],
        max_order=2,
        include_ngrams=True,
    )
    assert (expected, [3, 2], [ENTRY_KEYS] * 6, [*RESULT_KEYS, "ngrams"]) == (
        table["ngrams"],
        table["matches"],
        [list(e) for e in table["ngrams"]],
        list(table),
    )
    assert [] == run(hypothesis=[], include_ngrams=True)["ngrams"]

    # Near the input limits: 5000 distinct 50-byte tokens (250,000 bytes) and max_order 8
    # make a table of 39,972 rows, about 11 MB; every row has count 1 and no reference match.
    hypothesis = [f"{i:04d}" + "t" * 46 for i in range(5000)]
    rows = [
        {
            "order": n,
            "ngram": hypothesis[i : i + n],
            "count": 1,
            "max_reference_count": 0,
            "clipped_count": 0,
        }
        for n in range(1, 9)
        for i in range(5000 - n + 1)
    ]
    size = compact_json_bytes(
        {
            "candidate_length": 5000,
            "reference_length": 0,
            "max_order": 8,
            "matches": [0] * 8,
            "totals": [5000 - n for n in range(8)],
            "ngrams": rows,
        }
    )
    raw = {"hypothesis": hypothesis, "references": [[]], "max_order": 8, "include_ngrams": True}
    assert (
        "limit_exceeded",
        "",
        f"Expected a result of at most 1000000 UTF-8 bytes of JSON (limit max output bytes), "
        f"got {size} bytes with include_ngrams; ask without include_ngrams or split the input.",
    ) == error(raw)
    # The same input without the table is well under every limit.
    assert (5000, 0, [0] * 8, [5000 - n for n in range(8)]) == stats(
        run(**{**raw, "include_ngrams": False})
    )


@HARNESS.semantics_line(4)
def test_statistics_feed_bleu_smoothing_compute() -> None:
    """The statistics are accepted as is by bleu-smoothing-compute and give BLEU for them."""
    keys = ("matches", "totals", "candidate_length", "reference_length")

    def bleu_of(result: dict[str, Any], smoothing: str = "none") -> dict[str, Any]:
        envelope = mtcompute.execute(
            "bleu-smoothing-compute",
            "1.0.0",
            {**{k: result[k] for k in keys}, "smoothing": smoothing},
        )
        assert "result" in envelope, envelope
        out: dict[str, Any] = envelope["result"]
        return out

    s = 0.0
    for m, t in [(5, 7), (4, 6), (2, 5), (1, 4)]:
        s += js_log(m / t)
    # c = 3, r = 6: BP = exp(1 - 6/3); matches [2, 1] (the, cat; the cat), totals [3, 2]
    short = run(hypothesis=["the", "cat", "sat"], max_order=2)
    assert (js_exp(s / 4), js_exp(1 - 6 / 3) * js_exp((js_log(2 / 3) + js_log(1 / 2)) / 2)) == (
        bleu_of(run())["bleu"],
        bleu_of(short)["bleu"],
    )
    assert 0 == bleu_of(run(hypothesis=[]))["bleu"]

    # Any output of this tool is a valid input of that one (m_n <= l_n, zeros after m_1 = 0).
    rng = random.Random(20240601)
    for _ in range(200):
        hypothesis = rng.choices("abcd", k=rng.randrange(0, 12))
        references = [rng.choices("abcd", k=rng.randrange(0, 12)) for _ in range(rng.randint(1, 3))]
        result = run(hypothesis=hypothesis, references=references, max_order=rng.randint(1, 8))
        assert "bleu" in bleu_of(result, rng.choice(["none", "method1", "method2", "method3"]))


@HARNESS.semantics_line(5)
def test_token_rules_and_empty_sides() -> None:
    """Tokens non-empty without lone surrogates, at most 128 UTF-8 bytes; empties allowed."""
    euro = "\u20ac"  # 3 UTF-8 bytes
    assert (
        [
            ("invalid_input", "/hypothesis/1"),
            ("invalid_input", "/hypothesis/0"),
            ("limit_exceeded", "/hypothesis/0"),
            ("limit_exceeded", "/references/0/1"),
            ("limit_exceeded", "/references/0/0"),
            ("limit_exceeded", "/references"),
            ("invalid_input", "/max_order"),
            ("invalid_input", "/max_order"),
        ]
        == [
            error(input_with(hypothesis=["a", ""]))[:2],
            error(input_with(hypothesis=["a\udfffb"]))[:2],
            error(input_with(hypothesis=[euro * 43]))[:2],  # 43 characters, 129 bytes
            # 33 characters, 132 bytes
            error(input_with(references=[["a", "\U0001f600" * 33]]))[:2],
            error(input_with(references=[["x" * 129]]))[:2],
            error(input_with(references=[["a"]] * 9))[:2],
            error(input_with(max_order=0))[:2],
            error(input_with(max_order=9))[:2],
        ]
    )
    # At the byte limit exactly: 42 euro signs and an e-acute, 32 emoji, 128 ASCII letters.
    at_limit = [euro * 42 + "\u00e9", "\U0001f600" * 32, "x" * 128]
    assert (3, 3, [3, 2, 1, 0], [3, 2, 1, 0]) == stats(
        run(hypothesis=at_limit, references=[at_limit])
    )
    empty = run(hypothesis=[], references=[["a", "b"], []])
    assert (0, 0, [0, 0, 0, 0], [0, 0, 0, 0]) == stats(empty)
    assert (2, 0, [0, 0, 0, 0], [2, 1, 0, 0]) == stats(run(hypothesis=["a", "b"], references=[[]]))
    assert (1, 1, [1, 0, 0, 0], [1, 0, 0, 0]) == stats(
        run(hypothesis=["a"], references=[["a"]] * 8)
    )
    assert (4, 1, 0) == (
        run(max_order=4.0)["max_order"],
        len(run(max_order=1)["matches"]),
        run(hypothesis=["a"], max_order=8.0)["totals"][-1],
    )


@HARNESS.semantics_line(6)
def test_totals_count_hypothesis_and_every_reference() -> None:
    """max total tokens and bytes count all sides; the output limit measures the whole result."""
    assert_codes(
        [
            (
                {"hypothesis": ["a"] * 4000, "references": [["b"] * 3000, ["c"] * 3001]},
                ("limit_exceeded", ""),
            ),
            ({"hypothesis": ["h" * 128] * 2048, "references": [["r"]]}, ("limit_exceeded", "")),
        ]
    )
    assert [(4000, 3000), (2048, 1)] == [
        (r["candidate_length"], r["reference_length"])
        for r in [
            run(hypothesis=["a"] * 4000, references=[["b"] * 3000, ["c"] * 3000]),
            run(hypothesis=["h" * 128] * 2047 + ["h" * 127], references=[[], ["r"]]),
        ]
    ]

    # The output limit: 10000 tokens (the most allowed), max_order 1, a result of exactly
    # 1,000,000 UTF-8 bytes passes (it would be fewer characters: each token has an e-acute);
    # one more byte in one token makes 1,000,001.
    tokens = tokens_for_exactly_a_million_bytes()
    result = run(hypothesis=tokens, references=[[]], max_order=1, include_ngrams=True)
    assert (unmatched_unigram_result(tokens), 1_000_000) == (
        result,
        len(mtcompute.dumps(result).encode("utf-8")),
    )
    one_more = [*tokens[:-1], tokens[-1] + "z"]
    assert (
        "limit_exceeded",
        "",
        "Expected a result of at most 1000000 UTF-8 bytes of JSON (limit max output bytes), "
        "got 1000001 bytes with include_ngrams; ask without include_ngrams or split the input.",
    ) == error({"hypothesis": one_more, "references": [[]], "max_order": 1, "include_ngrams": True})


@HARNESS.semantics_line(7)
def test_validation_order_first_failing_check_decides() -> None:
    """Two faults at once: the earlier check in the contract's order wins (last line)."""
    bad_token = "\ud800" + "x" * 200  # a lone surrogate and over 128 bytes
    cases = [
        ([("zz", 1)], ("invalid_input", "")),
        ({"zz": 1, "max_order": 0}, ("invalid_input", "/zz")),
        ({"references": 5, "max_order": 0}, ("invalid_input", "/hypothesis")),
        (input_with(hypothesis="a b", references=[["a"]] * 9), ("invalid_input", "/hypothesis")),
        (input_with(hypothesis=[3, ""]), ("invalid_input", "/hypothesis/0")),
        (input_with(hypothesis=["x" * 129, ""]), ("limit_exceeded", "/hypothesis/0")),
        (input_with(hypothesis=["", "\ud800"]), ("invalid_input", "/hypothesis/0")),
        (input_with(hypothesis=[bad_token]), ("invalid_input", "/hypothesis/0")),
        (input_with(hypothesis=[""], references=[["a"]] * 9), ("invalid_input", "/hypothesis/0")),
        (input_with(references=["a"] * 9), ("limit_exceeded", "/references")),
        (input_with(references={"a": 1}, max_order=0), ("invalid_input", "/references")),
        (input_with(references=[["a"], "b", [""]]), ("invalid_input", "/references/1")),
        (input_with(references=[["a", ""], [3]]), ("invalid_input", "/references/0/1")),
        (input_with(references=[[bad_token]]), ("invalid_input", "/references/0/0")),
        (input_with(references=[[""]], max_order=0), ("invalid_input", "/references/0/0")),
        (input_with(max_order=9, include_ngrams="yes"), ("invalid_input", "/max_order")),
        (input_with(max_order=2.5, references=[["b"] * 10_001]), ("invalid_input", "/max_order")),
        (
            input_with(include_ngrams=1, references=[["b"] * 10_001]),
            ("invalid_input", "/include_ngrams"),
        ),
    ]
    assert_codes(cases)
    # total tokens before total bytes, total bytes before the output size
    too_many = {"hypothesis": ["h" * 128] * 2048, "references": [["r"] * 8000]}
    too_big = {"hypothesis": ["h" * 128] * 2048, "references": [["r"]], "include_ngrams": True}
    assert [
        "Expected at most 10000 tokens in the hypothesis and references together "
        "(limit max total tokens), got 10048.",
        "Expected at most 262144 UTF-8 bytes of tokens in all (limit max total token bytes), "
        "got 262145.",
    ] == [error(too_many)[2], error(too_big)[2]]


def test_statistics_agree_with_sacrebleu() -> None:
    """Matches, totals and both lengths equal sacreBLEU's on random tokenized sentences."""
    rng = random.Random(7)
    expected, actual = [], []
    for _ in range(150):
        hypothesis = rng.choices(["a", "b", "c", "the"], k=rng.randrange(0, 15))
        references = [
            rng.choices(["a", "b", "c", "the"], k=rng.randrange(0, 15))
            for _ in range(rng.randint(1, 4))
        ]
        order = rng.randint(1, 8)
        score = BLEU(tokenize="none", max_ngram_order=order).corpus_score(
            [" ".join(hypothesis)], [[" ".join(r)] for r in references]
        )
        expected.append((score.sys_len, score.ref_len, score.counts, score.totals))
        actual.append(stats(run(hypothesis=hypothesis, references=references, max_order=order)))
    assert expected == actual


# --- one test per error code per input field -----------------------------------------------

ERRORS = [
    *HARNESS.common("input", "null"),
    (
        "input",
        "invalid_input",
        "array",
        [BASE, BASE],
        "",
        "Expected a JSON object as the input, got an array of 2 items.",
    ),
    (
        "input",
        "invalid_input",
        "unknown key",
        input_with(smoothing="none"),
        "/smoothing",
        'Unknown key "smoothing" in the input; expected only hypothesis, references, max_order, '
        "include_ngrams.",
    ),
    HARNESS.missing("hypothesis"),
    (
        "hypothesis",
        "invalid_input",
        "not an array",
        input_with(hypothesis="the cat"),
        "/hypothesis",
        'Expected a token list (an array) at /hypothesis, got the string "the cat".',
    ),
    (
        "hypothesis",
        "invalid_input",
        "token not a string",
        input_with(hypothesis=["the", 3]),
        "/hypothesis/1",
        "Expected a token (a non-empty string) at /hypothesis/1, got 3.",
    ),
    (
        "hypothesis",
        "invalid_input",
        "empty token",
        input_with(hypothesis=["the", "cat", ""]),
        "/hypothesis/2",
        "Expected a non-empty token at /hypothesis/2, got the empty string.",
    ),
    (
        "hypothesis",
        "invalid_input",
        "lone surrogate",
        input_with(hypothesis=["c\ud83dt"]),
        "/hypothesis/0",
        "Expected a token without lone surrogates at /hypothesis/0, got U+D83D at index 1.",
    ),
    (
        "hypothesis",
        "limit_exceeded",
        "129 bytes in 43 characters",
        input_with(hypothesis=["\u20ac" * 43]),
        "/hypothesis/0",
        "Expected a token of at most 128 UTF-8 bytes at /hypothesis/0 (limit max token bytes), "
        "got 129 bytes.",
    ),
    HARNESS.missing("references"),
    (
        "references",
        "invalid_input",
        "not an array",
        input_with(references={"0": ["the"]}),
        "/references",
        "Expected an array of 1 to 8 token lists at /references, got an object.",
    ),
    (
        "references",
        "limit_exceeded",
        "9 references",
        input_with(references=[["the"]] * 9),
        "/references",
        "Expected at most 8 references at /references (limit max references), got 9.",
    ),
    (
        "references",
        "invalid_input",
        "no reference",
        input_with(references=[]),
        "/references",
        "Expected at least 1 reference at /references, got none.",
    ),
    (
        "references",
        "invalid_input",
        "reference not an array",
        input_with(references=[["the"], "the cat"]),
        "/references/1",
        'Expected a reference token list (an array) at /references/1, got the string "the cat".',
    ),
    (
        "references",
        "invalid_input",
        "token not a string",
        input_with(references=[["the", "cat", None]]),
        "/references/0/2",
        "Expected a token (a non-empty string) at /references/0/2, got null.",
    ),
    (
        "references",
        "invalid_input",
        "empty token",
        input_with(references=[["the"], ["", "cat"]]),
        "/references/1/0",
        "Expected a non-empty token at /references/1/0, got the empty string.",
    ),
    (
        "references",
        "invalid_input",
        "lone surrogate",
        input_with(references=[["\udc00"]]),
        "/references/0/0",
        "Expected a token without lone surrogates at /references/0/0, got U+DC00 at index 0.",
    ),
    (
        "references",
        "limit_exceeded",
        "token over 128 bytes",
        input_with(references=[["the", "y" * 200]]),
        "/references/0/1",
        "Expected a token of at most 128 UTF-8 bytes at /references/0/1 (limit max token bytes), "
        "got 200 bytes.",
    ),
    *HARNESS.common("max_order", "0", "9", "2.5"),
    *HARNESS.common("total token bytes", "262145"),
    (
        "max_order",
        "invalid_input",
        "string",
        input_with(max_order="4"),
        "/max_order",
        'Expected an integer at /max_order, got the string "4".',
    ),
    (
        "max_order",
        "invalid_input",
        "boolean",
        input_with(max_order=True),
        "/max_order",
        "Expected an integer at /max_order, got true.",
    ),
    (
        "include_ngrams",
        "invalid_input",
        "string",
        input_with(include_ngrams="yes"),
        "/include_ngrams",
        'Expected true or false at /include_ngrams, got the string "yes".',
    ),
    *HARNESS.common("total tokens", "10001"),
    (
        "total token bytes",
        "limit_exceeded",
        "262146 with a 2-byte token",
        input_with(hypothesis=["h" * 128] * 1024, references=[["r" * 128] * 1024, ["\u00e9"], []]),
        "",
        "Expected at most 262144 UTF-8 bytes of tokens in all (limit max total token bytes), "
        "got 262146.",
    ),
]


TYPED_FAULTS = {
    "invalid_input": input_with(hypothesis=["the", ""]),
    "limit_exceeded": input_with(references=[["the"]] * 9),
}
HARNESS.declare(
    ERRORS, typed_faults=TYPED_FAULTS, unchanged=input_with(include_ngrams=True, max_order=4.0)
)


def test_typed_function_returns_frozen_result() -> None:
    """The typed function gives the seed example's statistics in a frozen object."""
    result = mtcompute.bleu_sentence_components(
        ["am", "I", "am", "a", "character", "sequence"],
        [["I", "am", "a", "symbol", "string", "sequence", "a", "a"]],
    )
    assert (6, 8, 4, (4, 2, 1, 0), (6, 5, 4, 3), None) == (
        result.candidate_length,
        result.reference_length,
        result.max_order,
        result.matches,
        result.totals,
        result.ngrams,
    )
    HARNESS.assert_frozen(result, "matches")


def test_typed_function_clipping_table() -> None:
    """With include_ngrams the typed result carries the table rows, clipped_count derived."""
    result = mtcompute.bleu_sentence_components(
        ["the", "the", "cat"], [["the", "cat"]], max_order=2, include_ngrams=True
    )
    assert [
        (1, ("the",), 2, 1, 1),
        (1, ("cat",), 1, 1, 1),
        (2, ("the", "the"), 1, 0, 0),
        (2, ("the", "cat"), 1, 1, 1),
    ] == [
        (e.order, e.ngram, e.count, e.max_reference_count, e.clipped_count)
        for e in result.ngrams or ()
    ]
