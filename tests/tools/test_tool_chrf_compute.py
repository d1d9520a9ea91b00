"""chrf-compute@1.0.0: one test per semantics line, one per error code per field."""

from __future__ import annotations

import unicodedata
from fractions import Fraction
from typing import Any

import mtcompute
from mtcompute.contracts import contract
from mtcompute.metrics.chrf.ngrams import format_score
from mtcompute.metrics.chrf.words import CHRF_WHITESPACE
from tests.harness import ToolHarness, scored
from tests.harness import contract_whitespace as whitespace_listed

TOOL = ("chrf-compute", "1.0.0")
BASE: dict[str, Any] = {"hypotheses": ["ab"], "references": ["abc"]}


HARNESS = ToolHarness(TOOL, BASE)
run, input_with, error = HARNESS.run, HARNESS.input_with, HARNESS.error


def contract_whitespace() -> set[str]:
    """The whitespace code points the contract's second semantics line lists."""
    return whitespace_listed(contract(*TOOL)["semantics"][1])


# --- one test per semantics line ------------------------------------------------------------


@HARNESS.semantics_line(0)
def test_formula_popovic_eq_1() -> None:
    """chrF_beta = (1 + b^2) P R / (b^2 P + R), P and R averaged over orders, 0..100 (line 1)."""
    # "ab" vs "abc": order 1 has 2 of 2 hypothesis and 2 of 3 reference unigrams matched,
    # order 2 has 1 of 1 and 1 of 2; order 3 has no hypothesis n-gram. P = 1, R = 7/12.
    # beta 2: 5 (7/12) / (4 + 7/12) = 7/11; beta 1: 14/19; beta 3: 10 (7/12) / (9 + 7/12) = 14/23.
    assert [
        ("63.636364", "700/11", ["63.636364"]),
        ("73.684211", "1400/19", ["73.684211"]),
        ("60.869565", "1400/23", ["60.869565"]),
    ] == [scored(run()), scored(run(beta=1)), scored(run(beta=3))]
    result = run()
    assert {
        "metric": "chrF",
        "char_order": 6,
        "word_order": 0,
        "beta": 2,
        "lowercase": False,
        "segment_count": 1,
        "score": "63.636364",
        "score_fraction": "700/11",
        "segment_scores": ["63.636364"],
    } == result
    assert list(contract(*TOOL)["output_schema"]["properties"]) == list(result)


@HARNESS.semantics_line(1)
def test_whitespace_removed_and_no_normalization() -> None:
    """All 29 whitespace code points are removed; U+200B, U+FEFF kept; NFC != NFD (line 2)."""
    spaces = sorted(contract_whitespace())
    assert 29 == len(spaces)
    # Each whitespace code point, on either side and in runs, disappears: "ab" against "ab".
    result = run(
        hypotheses=[f"{ws}a{ws}{ws}b{ws}" for ws in spaces],
        references=[f"a{ws}b" for ws in spaces],
    )
    assert ("100.000000", "100/1", ["100.000000"] * 29) == scored(result)
    # "a\u200bb" vs "ab": order 1 matches 2 of 3 and 2 of 2, order 2 0 of 2 and 0 of 1;
    # P = 1/3, R = 1/2, chrF2 = 5/11. "ab" vs "a\ufeffb" swaps them: P = 1/2, R = 1/3, 5/14.
    assert [("45.454545", "500/11", ["45.454545"]), ("35.714286", "250/7", ["35.714286"])] == [
        scored(run(hypotheses=["a\u200bb"], references=["ab"])),
        scored(run(hypotheses=["ab"], references=["a\ufeffb"])),
    ]
    # "caf\u00e9" (NFC, 4 code points) vs "cafe\u0301" (NFD, 5): matches 3, 2, 1, 0 over
    # orders 1-4; P = (3/4 + 2/3 + 1/2 + 0)/4 = 23/48, R = (3/5 + 2/4 + 1/3 + 0)/4 = 43/120,
    # chrF2 = 5 P R / (4 P + R) = 4945/13104.
    nfc = unicodedata.normalize("NFC", "caf\u00e9")
    nfd = unicodedata.normalize("NFD", "caf\u00e9")
    assert [
        ("37.736569", "123625/3276", ["37.736569"]),
        ("100.000000", "100/1", ["100.000000"]),
    ] == [
        scored(run(hypotheses=[nfc], references=[nfd])),
        scored(run(hypotheses=[nfd], references=[nfd])),
    ]


@HARNESS.semantics_line(2)
def test_clipped_matches_and_effective_order() -> None:
    """Matches clip per n-gram; an order counts only when both sides have n-grams (line 3)."""
    # "abab" vs "aba": order 1: a 2/2, b 2/1 -> 3 of 4 and 3 of 3; order 2: ab 2/1, ba 1/1
    # -> 2 of 3 and 2 of 2; order 3: aba -> 1 of 2 and 1 of 1; order 4 has no reference n-gram.
    # P = (3/4 + 2/3 + 1/2)/3 = 23/36, R = 1, chrF2 = 5 (23/36) / (92/36 + 1) = 115/128.
    # "aba" vs "abab" swaps P and R: P = 1, R = 23/36, chrF2 = 5 R / (4 + R) = 115/167.
    # "a" vs "abcdef": only order 1 is effective, P = 1, R = 1/6, chrF2 = 1/5.
    # No effective order ("" or whitespace only), or both averages 0 ("ab" vs "cd"): 0.
    cases = [
        ("abab", "aba"),
        ("aba", "abab"),
        ("a", "abcdef"),
        ("", "abc"),
        (" \t", "abc"),
        ("", ""),
        ("ab", "cd"),
    ]
    expected = [
        ("89.843750", "2875/32"),
        ("68.862275", "11500/167"),
        ("20.000000", "20/1"),
        ("0.000000", "0/1"),
        ("0.000000", "0/1"),
        ("0.000000", "0/1"),
        ("0.000000", "0/1"),
    ]
    actual = [
        (r["score"], r["score_fraction"])
        for h, ref in cases
        for r in [run(hypotheses=[h], references=[ref])]
    ]
    assert expected == actual


@HARNESS.semantics_line(3)
def test_corpus_counts_summed_literally_and_segment_scores() -> None:
    """Corpus: per-order counts summed over all segments; segment scores alone, in order."""
    # Segment 1 is identical (8 chars); segment 2 "xyzw" vs "xy" adds hypothesis n-grams
    # 4, 3, 2, 1 and reference 2, 1 with matches 2, 1. Summed: hypothesis 12, 10, 8, 6, 4, 3;
    # reference = matches = 10, 8, 6, 5, 4, 3. P = (5/6 + 4/5 + 3/4 + 5/6 + 1 + 1)/6
    # = 313/360, R = 1, chrF2 = 5 P / (4 P + 1) = 1565/1612. Segment 2 alone: P = 5/12, R = 1,
    # 25/32. (sacreBLEU gives 98.714953: it drops segment 2's hypothesis counts for orders
    # 3-4, where its reference has no n-gram; the contract does not.)
    result = run(hypotheses=["abcdefgh", "xyzw"], references=["abcdefgh", "xy"])
    assert ("97.084367", "39125/403", ["100.000000", "78.125000"], 2) == (
        *scored(result),
        result["segment_count"],
    )
    swapped = run(hypotheses=["xyzw", "abcdefgh"], references=["xy", "abcdefgh"])
    assert ("97.084367", "39125/403", ["78.125000", "100.000000"]) == scored(swapped)
    # An empty hypothesis still adds its reference's n-grams: P = 1, R = 1/2, chrF2 = 5/9.
    assert ("55.555556", "500/9", ["100.000000", "0.000000"]) == scored(
        run(hypotheses=["abc", ""], references=["abc", "abc"])
    )


@HARNESS.semantics_line(4)
def test_beta_default_and_lowercase() -> None:
    """beta defaults to 2; lowercase defaults to false, true maps both texts (line 5)."""
    assert [(2, False), (2, False), (16, True)] == [
        (r["beta"], r["lowercase"])
        for r in [run(), run(beta=2, lowercase=False), run(beta=16, lowercase=True)]
    ]
    assert scored(run(beta=2)) == scored(run())
    cases = [
        ("AB", "ab", False, "0/1"),
        ("AB", "ab", True, "100/1"),
        ("abc", "ABC", True, "100/1"),  # the reference is lowercased too
        # final sigma: "ΟΔΟΣ".lower() == "οδος", so it matches "οδος" but not "οδοσ"
        ("\u039f\u0394\u039f\u03a3", "\u03bf\u03b4\u03bf\u03c2", True, "100/1"),
        # "οδος" vs "οδοσ": matches 3, 2, 1, 0 of 4, 3, 2, 1 both ways: P = R = 23/48
        ("\u039f\u0394\u039f\u03a3", "\u03bf\u03b4\u03bf\u03c3", True, "575/12"),
        # "İ" lowercases to two code points, "i" and U+0307
        ("\u0130", "i\u0307", True, "100/1"),
        ("\u0130", "i", True, "250/3"),  # P = 1/2, R = 1: 5 (1/2) / (2 + 1) = 5/6
        ("\u0130", "i", False, "0/1"),
    ]
    assert "\u03bf\u03b4\u03bf\u03c2" == "\u039f\u0394\u039f\u03a3".lower()
    assert [c[3] for c in cases] == [
        run(hypotheses=[h], references=[r], lowercase=lc)["score_fraction"] for h, r, lc, _ in cases
    ]
    # an integral float is an integer, echoed as one
    result = run(beta=3.0)
    assert (3, int, True) == (
        result["beta"],
        type(result["beta"]),
        '"beta":3,' in mtcompute.dumps(result),
    )


@HARNESS.semantics_line(5)
def test_score_rounding_half_even_and_fraction_ends() -> None:
    """score rounds the exact value half-even to six decimals; 0/1 and 100/1 at the ends."""
    # Exact ties through the tool, with beta 1 and one effective order: chrF1 = 200 m/(h + r).
    # "a" vs "a" + 1022 letters: 200/1024 = 0.1953125, the 6th decimal 2 is even: down.
    # Three "a" vs references of 340, 340, 341 letters: 600/1024 = 0.5859375, 7 is odd: up.
    assert [
        ("0.195312", "25/128", ["0.195312"]),
        ("0.585938", "75/128", ["0.586510", "0.586510", "0.584795"]),
    ] == [
        scored(run(hypotheses=["a"], references=["a" + "b" * 1022], beta=1)),
        scored(
            run(
                hypotheses=["a"] * 3,
                references=["a" + "b" * 339, "a" + "b" * 339, "a" + "b" * 340],
                beta=1,
            )
        ),
    ]
    cases = {
        "12.3456785": "12.345678",
        "12.3456795": "12.345680",
        "12.34567850000001": "12.345679",
        "12.34567849999999": "12.345678",
        "0.0000005": "0.000000",
        "0.0000015": "0.000002",
        "99.9999995": "100.000000",
        "99.9999985": "99.999998",
        "0": "0.000000",
        "100": "100.000000",
    }
    assert cases == {k: format_score(Fraction(k)) for k in cases}
    assert ("33.333333", "66.666667") == (
        format_score(Fraction(100, 3)),
        format_score(Fraction(200, 3)),
    )
    texts = ["The cat sat.", "Der Hund bellt laut"]
    assert [("100.000000", "100/1", ["100.000000"] * 2), ("0.000000", "0/1", ["0.000000"] * 2)] == [
        scored(run(hypotheses=texts, references=texts)),
        scored(run(hypotheses=["xyz", "qqq"], references=texts)),
    ]


@HARNESS.semantics_line(6)
def test_validation_order_and_inputs_not_mutated() -> None:
    """The first failing check in the contract's order decides; inputs stay as given."""
    assert [(code, path) for _, _, code, path, _ in VALIDATION_PAIRS] == [
        error(raw)[:2] for _, raw, _, _, _ in VALIDATION_PAIRS
    ]
    raw = {
        "hypotheses": ["The CAT\u00a0sat", "\u039f\u0394\u039f\u03a3"],
        "references": ["the cat sat", "\u03bf\u03b4\u03bf\u03c2"],
        "beta": 3.0,
        "lowercase": True,
    }
    assert "100.000000" == HARNESS.assert_not_mutated(raw)["result"]["score"]


def test_contract_whitespace_list_is_python_isspace() -> None:
    """The contract's 29 code points are exactly str.isspace() here, and CHRF_WHITESPACE."""
    python = {chr(c) for c in range(0x110000) if chr(c).isspace()}
    assert (29, python, python) == (
        len(CHRF_WHITESPACE),
        contract_whitespace(),
        set(CHRF_WHITESPACE),
    )
    assert ["a", "b"] == f"a{''.join(sorted(python))}b".split()


# --- the validation order: inputs that break two rules at once ------------------------------

NEAR = "a" * 65_533  # with a lone surrogate (3 bytes) exactly 65,536 bytes
VALIDATION_PAIRS = [
    (
        "not an object + unknown key",
        [["hypotheses", ["a"]], ["zz", 1]],
        "invalid_input",
        "",
        "Expected a JSON object as the input, got an array of 2 items.",
    ),
    (
        "unknown key + missing key",
        {"hypotheses": ["a"], "zz": 1},
        "invalid_input",
        "/zz",
        'Unknown key "zz" in the input; expected only hypotheses, references, beta, lowercase.',
    ),
    (
        "missing key + bad hypotheses",
        {"hypotheses": 5},
        "invalid_input",
        "/references",
        'Missing required key "references".',
    ),
    (
        "hypotheses not an array + references not an array",
        {"hypotheses": "a", "references": "b"},
        "invalid_input",
        "/hypotheses",
        'Expected an array of strings at /hypotheses, got the string "a".',
    ),
    (
        "hypotheses 257 (limit) + hypotheses holding a non-string",
        input_with(hypotheses=["a"] * 256 + [7], references="b"),
        "limit_exceeded",
        "/hypotheses",
        "Expected at most 256 segments at /hypotheses (limit max segments), got 257.",
    ),
    (
        "empty hypotheses + references not an array",
        input_with(hypotheses=[], references="b"),
        "invalid_input",
        "/hypotheses",
        "Expected at least 1 segment at /hypotheses, got an empty array.",
    ),
    (
        "hypotheses holding a non-string + references not an array",
        input_with(hypotheses=["a", None], references=5),
        "invalid_input",
        "/hypotheses/1",
        "Expected a string at /hypotheses/1, got null.",
    ),
    (
        "references not an array + unequal counts",
        input_with(hypotheses=["a", "b"], references={"0": "a"}),
        "invalid_input",
        "/references",
        "Expected an array of strings at /references, got an object.",
    ),
    (
        "references 257 (limit) + references holding a non-string",
        input_with(references=[False] + ["a"] * 256),
        "limit_exceeded",
        "/references",
        "Expected at most 256 segments at /references (limit max segments), got 257.",
    ),
    (
        "empty references + unequal counts",
        input_with(hypotheses=["a", "b"], references=[]),
        "invalid_input",
        "/references",
        "Expected at least 1 segment at /references, got an empty array.",
    ),
    (
        "references holding a non-string + unequal counts",
        input_with(hypotheses=["a", "b"], references=[1]),
        "invalid_input",
        "/references/0",
        "Expected a string at /references/0, got 1.",
    ),
    (
        "unequal counts + over 65536 bytes",
        input_with(hypotheses=["a" * 70_000, "b"], references=["c"]),
        "invalid_input",
        "/references",
        "Expected as many references as hypotheses (2) at /references, got 1.",
    ),
    (
        "over 65536 bytes (a lone surrogate counting 3) + lone surrogate",
        input_with(hypotheses=[NEAR + "a\ud800"], references=[""]),
        "limit_exceeded",
        "",
        "Expected at most 65536 UTF-8 bytes of text in all (limit max text bytes), got 65537.",
    ),
    (
        "65536 bytes with a lone surrogate + bad beta",
        input_with(hypotheses=[NEAR + "\ud800"], references=[""], beta=0),
        "invalid_input",
        "/hypotheses/0",
        "Expected text without lone surrogates at /hypotheses/0, got U+D800 at index 65533.",
    ),
    (
        "lone surrogate + bad beta",
        input_with(references=["\udc00x"], beta=0),
        "invalid_input",
        "/references/0",
        "Expected text without lone surrogates at /references/0, got U+DC00 at index 0.",
    ),
    (
        "bad beta + bad lowercase",
        input_with(beta="2", lowercase=1),
        "invalid_input",
        "/beta",
        'Expected an integer at /beta, got the string "2".',
    ),
]


test_validation_order_pair = HARNESS.validation_pair_test(VALIDATION_PAIRS)


# --- one test per error code per input field -----------------------------------------------

ERRORS = [
    *HARNESS.common("input", "null"),
    (
        "input",
        "invalid_input",
        "string",
        "ab",
        "",
        'Expected a JSON object as the input, got the string "ab".',
    ),
    (
        "input",
        "invalid_input",
        "unknown key",
        input_with(char_order=6),
        "/char_order",
        'Unknown key "char_order" in the input; expected only hypotheses, references, beta, '
        "lowercase.",
    ),
    HARNESS.missing("hypotheses"),
    (
        "hypotheses",
        "invalid_input",
        "not an array",
        input_with(hypotheses="ab"),
        "/hypotheses",
        'Expected an array of strings at /hypotheses, got the string "ab".',
    ),
    (
        "hypotheses",
        "limit_exceeded",
        "257 segments",
        input_with(hypotheses=["ab"] * 257, references=["abc"] * 257),
        "/hypotheses",
        "Expected at most 256 segments at /hypotheses (limit max segments), got 257.",
    ),
    (
        "hypotheses",
        "invalid_input",
        "empty",
        input_with(hypotheses=[]),
        "/hypotheses",
        "Expected at least 1 segment at /hypotheses, got an empty array.",
    ),
    (
        "hypotheses",
        "invalid_input",
        "not a string",
        input_with(hypotheses=[["a", "b"]]),
        "/hypotheses/0",
        "Expected a string at /hypotheses/0, got an array of 2 items.",
    ),
    (
        "hypotheses",
        "invalid_input",
        "lone surrogate",
        input_with(hypotheses=["a\ud83d"]),
        "/hypotheses/0",
        "Expected text without lone surrogates at /hypotheses/0, got U+D83D at index 1.",
    ),
    HARNESS.missing("references"),
    (
        "references",
        "invalid_input",
        "not an array",
        input_with(references=None),
        "/references",
        "Expected an array of strings at /references, got null.",
    ),
    (
        "references",
        "limit_exceeded",
        "257 segments",
        input_with(references=["abc"] * 257),
        "/references",
        "Expected at most 256 segments at /references (limit max segments), got 257.",
    ),
    (
        "references",
        "invalid_input",
        "empty",
        input_with(references=[]),
        "/references",
        "Expected at least 1 segment at /references, got an empty array.",
    ),
    (
        "references",
        "invalid_input",
        "not a string",
        input_with(hypotheses=["a", "b"], references=["a", 2.5]),
        "/references/1",
        "Expected a string at /references/1, got 2.5.",
    ),
    (
        "references",
        "invalid_input",
        "fewer than hypotheses",
        input_with(hypotheses=["a", "b", "c"], references=["a", "b"]),
        "/references",
        "Expected as many references as hypotheses (3) at /references, got 2.",
    ),
    (
        "references",
        "invalid_input",
        "more than hypotheses",
        input_with(references=["a", "b"]),
        "/references",
        "Expected as many references as hypotheses (1) at /references, got 2.",
    ),
    (
        "references",
        "invalid_input",
        "lone surrogate",
        input_with(hypotheses=["a", "b"], references=["a", "b\udfff"]),
        "/references/1",
        "Expected text without lone surrogates at /references/1, got U+DFFF at index 1.",
    ),
    (
        "texts",
        "limit_exceeded",
        "65537 bytes over both sides",
        input_with(hypotheses=["a" * 32_768], references=["\u00e9" * 16_384 + "b"]),
        "",
        "Expected at most 65536 UTF-8 bytes of text in all (limit max text bytes), got 65537.",
    ),
    (
        "beta",
        "invalid_input",
        "0",
        input_with(beta=0),
        "/beta",
        "Expected an integer of at least 1 at /beta, got 0.",
    ),
    (
        "beta",
        "invalid_input",
        "17",
        input_with(beta=17),
        "/beta",
        "Expected an integer of at most 16 at /beta, got 17.",
    ),
    (
        "beta",
        "invalid_input",
        "2.5",
        input_with(beta=2.5),
        "/beta",
        "Expected an integer at /beta, got 2.5.",
    ),
    (
        "beta",
        "invalid_input",
        "true",
        input_with(beta=True),
        "/beta",
        "Expected an integer at /beta, got true.",
    ),
    (
        "beta",
        "invalid_input",
        "string",
        input_with(beta="2"),
        "/beta",
        'Expected an integer at /beta, got the string "2".',
    ),
    (
        "lowercase",
        "invalid_input",
        "1",
        input_with(lowercase=1),
        "/lowercase",
        "Expected true or false at /lowercase, got 1.",
    ),
    (
        "lowercase",
        "invalid_input",
        "null",
        input_with(lowercase=None),
        "/lowercase",
        "Expected true or false at /lowercase, got null.",
    ),
]


def test_limits_are_inclusive() -> None:
    """256 segments and 65,536 bytes (2-byte letters counted as 2) are still accepted."""
    assert [256, 1] == [
        run(hypotheses=["ab"] * 256, references=["abc"] * 256)["segment_count"],
        run(hypotheses=["a" * 32_768], references=["\u00e9" * 16_384])["segment_count"],
    ]


TYPED_FAULTS = {
    "invalid_input": input_with(hypotheses=["a", "b"], references=["a", "b\udfff"]),
    "limit_exceeded": input_with(hypotheses=["ab"] * 257, references=["abc"] * 257),
}
HARNESS.declare(ERRORS, typed_faults=TYPED_FAULTS)


def test_typed_function_returns_frozen_result() -> None:
    """chrf returns a frozen ChrfResult with the exact fraction and the rounded scores."""
    result = mtcompute.chrf(["abcdefgh", "xyzw"], ["abcdefgh", "xy"])
    assert (Fraction(39125, 403), "97.084367", ("100.000000", "78.125000"), 2, False) == (
        result.fraction,
        result.score,
        result.segment_scores,
        result.beta,
        result.lowercase,
    )
    assert isinstance(result, mtcompute.ChrfResult)
    HARNESS.assert_frozen(result, "ratio")
    assert ("25.000000", Fraction(25)) == (
        mtcompute.chrf(["aa"], ["ab"], beta=3).score,
        mtcompute.chrf(["aa"], ["ab"], beta=3).fraction,
    )
