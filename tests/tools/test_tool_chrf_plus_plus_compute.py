"""chrf-plus-plus-compute@1.0.0: one test per semantics line, one per error code per field, the
word rule against sacreBLEU 2.6.0's own, sacreBLEU ``CHRF(word_order=2)`` on every WMT pair,
properties.

sacreBLEU differs from the contract in one documented way (docs/decisions.md, chrf-compute): it
sets a segment's hypothesis count to 0 for an order in which that segment's reference has no
n-gram. With word bigrams this happens for every one-word reference, so the WMT comparison
checks our per-segment statistics with that zeroing applied against sacreBLEU's exactly, the
corpus score of the zeroed sums and every segment score against sacreBLEU's (1e-9 on the 0..100
scale; a segment's own score cannot change, such an order is not effective either way), and our
literal corpus score against sacreBLEU's wherever no segment is affected.
"""

from __future__ import annotations

import string
import unicodedata
from collections.abc import Sequence
from fractions import Fraction
from functools import reduce
from operator import add
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sacrebleu.metrics import CHRF

import mtcompute
from mtcompute.contracts import contract
from mtcompute.metrics.chrf.ngrams import (
    ChrfStatistics,
    chrf_fraction,
    format_score,
    sacrebleu_zeroed,
    segment_statistics_with_words,
    word_statistics,
)
from mtcompute.metrics.chrf.ngrams import segment_statistics as char_statistics
from mtcompute.metrics.chrf.words import CHRF_WHITESPACE, PUNCTUATION, split_words
from mtcompute.tools.chrf_plus_plus_compute import ChrfPlusPlusResult, chrf_plus_plus
from tests import strategies as sts
from tests.conftest import WMT_IS_SAMPLE
from tests.harness import (
    ToolHarness,
    contract_whitespace,
    scored,
    tool_chunks,
    wmt_pairs,
    wmt_system,
)
from tests.tools.test_tool_chrf_compute import BASE
from tests.tools.test_tool_chrf_compute import ERRORS as CHRF_ERRORS
from tests.tools.test_tool_chrf_compute import VALIDATION_PAIRS as CHRF_VALIDATION_PAIRS

TOOL = ("chrf-plus-plus-compute", "1.0.0")
TOL = 1e-9  # the 0..100 scale: our exact fraction against sacreBLEU's floats
PROPERTY = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow], max_examples=80)
CAT = ("The cat sat.", "The cat sat on the mat.")
# "The cat sat." against "The cat sat on the mat.", counted by hand: "Thecatsat." has 10 code
# points, "Thecatsatonthemat." 18; every hypothesis 1- to 3-gram is in the reference, of the
# 4-grams "sat." is not, and so on; words "The cat sat ." (4) and "The cat sat on the mat ."
# (7), bigrams "The cat", "cat sat" of "sat ." match.
CAT_COUNTS = (
    (10, 9, 8, 7, 6, 5, 4, 3),
    (18, 17, 16, 15, 14, 13, 7, 6),
    (10, 9, 8, 6, 5, 4, 4, 2),
)


HARNESS = ToolHarness(TOOL, BASE)
run, input_with, error = HARNESS.run, HARNESS.input_with, HARNESS.error


def fraction_of(hypothesis: str, reference: str, **options: Any) -> Fraction:
    """The exact score of one segment through the tool."""
    return Fraction(
        run(hypotheses=[hypothesis], references=[reference], **options)["score_fraction"]
    )


def by_hand(
    hyp: Sequence[int], ref: Sequence[int], matches: Sequence[int], beta: int = 2
) -> Fraction:
    """The contract's formula written out: P and R averaged over the orders with h > 0 and
    r > 0, chrF_beta on the 0..100 scale (0 without such an order or with P = R = 0)."""
    effective = [(m, h, r) for h, r, m in zip(hyp, ref, matches, strict=True) if h and r]
    if not effective:
        return Fraction(0)
    p = sum(Fraction(m, h) for m, h, _ in effective) / len(effective)
    r = sum(Fraction(m, r) for m, _, r in effective) / len(effective)
    if p == 0 and r == 0:
        return Fraction(0)
    return 100 * (1 + beta**2) * p * r / (beta**2 * p + r)


def sacre_words(text: str) -> list[str]:
    """sacreBLEU 2.6.0's own word split (``CHRF._remove_punctuation``)."""
    words: list[str] = _SACRE_CHRF_PLUS_PLUS._remove_punctuation(text)
    return words


_SACRE_CHRF_PLUS_PLUS = CHRF(word_order=2)


# --- one test per semantics line ------------------------------------------------------------


@HARNESS.semantics_line(0)
def test_formula_eight_orders_averaged_together() -> None:
    """chrF_beta of P and R averaged over char 1..6 and word 1..2 together, 0..100 (line 1)."""
    hyp, ref, matches = CAT_COUNTS
    expected = [by_hand(hyp, ref, matches, beta) for beta in (2, 1, 3)]
    actual = [fraction_of(*CAT, beta=beta) for beta in (2, 1, 3)]
    assert (expected, "49.405777") == (actual, format_score(expected[0]))
    # The same counts, character orders alone, are chrf-compute's score: words change it.
    assert by_hand(hyp[:6], ref[:6], matches[:6]) == mtcompute.chrf([CAT[0]], [CAT[1]]).fraction
    result = run(hypotheses=[CAT[0]], references=[CAT[1]])
    assert {
        "metric": "chrF++",
        "char_order": 6,
        "word_order": 2,
        "beta": 2,
        "lowercase": False,
        "segment_count": 1,
        "score": "49.405777",
        "score_fraction": "3099323775/62732012",
        "segment_scores": ["49.405777"],
    } == result
    assert list(contract(*TOOL)["output_schema"]["properties"]) == list(result)


@HARNESS.semantics_line(1)
def test_whitespace_removed_and_no_normalization() -> None:
    """The 29 whitespace code points go; U+200B, U+FEFF stay; NFC != NFD (line 2)."""
    spaces = sorted(contract_whitespace(contract(*TOOL)["semantics"][1]))
    assert (29, set(CHRF_WHITESPACE)) == (len(spaces), set(spaces))
    # Each whitespace code point, on either side and in runs, separates "a" from "b" and
    # disappears from the characters: "a b" against "a b".
    result = run(
        hypotheses=[f"{ws}a{ws}{ws}b{ws}" for ws in spaces],
        references=[f"a{ws}b" for ws in spaces],
    )
    assert ("100.000000", "100/1", ["100.000000"] * 29) == scored(result)
    # "a\u200bb" is one word of three characters: char order 1 matches 2 of 3 and 2 of 2,
    # order 2 0 of 2 and 0 of 1, order 3 has no reference n-gram; word unigrams 0 of 1 and
    # 0 of 2, word bigrams none in the hypothesis. U+FEFF likewise, the sides swapped.
    # "caf\u00e9" (NFC, 4 code points) against "cafe\u0301" (NFD, 5): matches 3, 2, 1, 0 over
    # character orders 1-4, order 5 has no hypothesis n-gram; the one word does not match.
    nfc = unicodedata.normalize("NFC", "caf\u00e9")
    nfd = unicodedata.normalize("NFD", "caf\u00e9")
    assert [
        by_hand((3, 2, 1, 0, 0, 0, 1, 0), (2, 1, 0, 0, 0, 0, 2, 1), (2, 0, 0, 0, 0, 0, 0, 0)),
        by_hand((2, 1, 0, 0, 0, 0, 2, 1), (3, 2, 1, 0, 0, 0, 1, 0), (2, 0, 0, 0, 0, 0, 0, 0)),
        by_hand((4, 3, 2, 1, 0, 0, 1, 0), (5, 4, 3, 2, 1, 0, 1, 0), (3, 2, 1, 0, 0, 0, 0, 0)),
        Fraction(100),
    ] == [
        fraction_of("a\u200bb", "a b"),
        fraction_of("a b", "a\ufeffb"),
        fraction_of(nfc, nfd),
        fraction_of(nfd, nfd),
    ]


WORD_CASES = [
    ("The cat sat.", ["The", "cat", "sat", "."]),
    ("(hi)", ["(hi", ")"]),  # one split at most: the last character wins (sacreBLEU #124)
    ("(hi", ["(", "hi"]),
    ("...", ["..", "."]),
    (".", ["."]),
    ("a.", ["a", "."]),
    (".a", [".", "a"]),
    ("'s", ["'", "s"]),
    ("--", ["-", "-"]),
    ("a.b", ["a.b"]),
    ("x!?", ["x!", "?"]),
    ("\u00aba\u00bb", ["\u00aba\u00bb"]),  # non-ASCII punctuation is not split off
    ("a\uff01", ["a\uff01"]),  # nor is a full-width exclamation mark
    ("\U0001f600.", ["\U0001f600", "."]),  # two code points (an astral one and ".")
    ("\u00e9,", ["\u00e9", ","]),
    ("a\u200b.", ["a\u200b", "."]),  # U+200B is not whitespace: part of the word
    ("x\u3000,y\u00a0z;", ["x", ",", "y", "z", ";"]),
    ("\t\n ", []),
    ("", []),
    (" \\a` ~", ["\\a", "`", "~"]),
]


@HARNESS.semantics_line(2)
def test_word_rule() -> None:
    """Words split on whitespace, one ASCII punctuation character split off (line 3)."""
    assert 32 == len(PUNCTUATION) == len(set(string.punctuation) & PUNCTUATION)
    expected = [(text, words) for text, words in WORD_CASES]
    assert expected == [(text, split_words(text)) for text, _ in WORD_CASES]
    assert expected == [(text, sacre_words(text)) for text, _ in WORD_CASES]
    # Every punctuation character, at the end, at the start, and alone.
    assert [[["w", p], [p, "w"], [p]] for p in sorted(PUNCTUATION)] == [
        [split_words("w" + p), split_words(p + "w"), split_words(p)] for p in sorted(PUNCTUATION)
    ]
    # Through the tool: "(hi)" against "( hi )" has the same characters (orders 1-4 all match,
    # 5-6 empty) but words "(hi" ")" against "(" "hi" ")": unigrams 1 of 2 and 1 of 3, bigrams
    # 0 of 1 and 0 of 2. Lowercasing comes first: "Hi." against "hi ." matches only when asked.
    assert [
        by_hand((4, 3, 2, 1, 0, 0, 2, 1), (4, 3, 2, 1, 0, 0, 3, 2), (4, 3, 2, 1, 0, 0, 1, 0)),
        Fraction(100),
    ] == [fraction_of("(hi)", "( hi )"), fraction_of("Hi.", "hi .", lowercase=True)]


@HARNESS.semantics_line(3)
def test_clipped_matches_and_effective_order() -> None:
    """Matches clip per n-gram for words as for characters; effective orders only (line 4)."""
    cases = [
        # "ab" against "ab cd": chars 2 of 2 / 4 and 1 of 1 / 3; one word of two matches; the
        # hypothesis has no word bigram. P = 1, R = (1/2 + 1/3 + 1/2)/3 = 4/9: exactly 50.
        (
            "ab",
            "ab cd",
            (2, 1, 0, 0, 0, 0, 1, 0),
            (4, 3, 2, 1, 0, 0, 2, 1),
            (2, 1, 0, 0, 0, 0, 1, 0),
        ),
        # "the the the" against "the cat": "the" 3 times against once, clipped to 1, and so on.
        (
            "the the the",
            "the cat",
            (9, 8, 7, 6, 5, 4, 3, 2),
            (6, 5, 4, 3, 2, 1, 2, 1),
            (4, 2, 1, 0, 0, 0, 1, 0),
        ),
        # "abab" against "aba": one word each, effective but unmatched: P and R averaged over 4.
        (
            "abab",
            "aba",
            (4, 3, 2, 1, 0, 0, 1, 0),
            (3, 2, 1, 0, 0, 0, 1, 0),
            (3, 2, 1, 0, 0, 0, 0, 0),
        ),
        ("", "abc", (0,) * 8, (3, 2, 1, 0, 0, 0, 1, 0), (0,) * 8),
        (" \t", "", (0,) * 8, (0,) * 8, (0,) * 8),
        ("ab", "cd", (2, 1, 0, 0, 0, 0, 1, 0), (2, 1, 0, 0, 0, 0, 1, 0), (0,) * 8),
    ]
    expected = [by_hand(h, r, m) for _, _, h, r, m in cases]
    assert expected == [fraction_of(hyp, ref) for hyp, ref, *_ in cases]
    assert (Fraction(50), [0, 0, 0]) == (expected[0], expected[3:])
    # The hand counts above are the core's statistics.
    assert [c[2:] for c in cases] == [
        (s.hypothesis, s.reference, s.matches)
        for c in cases
        for s in [segment_statistics_with_words(c[0], c[1], 6, 2)]
    ]


@HARNESS.semantics_line(4)
def test_corpus_counts_summed_literally_and_segment_scores() -> None:
    """Corpus: all 8 orders' counts summed literally; segment scores alone, in order (line 5)."""
    # The example of docs/decisions.md: segment 1 identical ("abcdefgh", one word), segment 2 "xyzw"
    # against "xy": characters as chrf-compute, one word each, unmatched, no bigrams.
    hyp = (12, 10, 8, 6, 4, 3, 2, 0)
    ref = (10, 8, 6, 5, 4, 3, 2, 0)
    matches = (10, 8, 6, 5, 4, 3, 1, 0)
    segment_2 = by_hand(
        (4, 3, 2, 1, 0, 0, 1, 0), (2, 1, 0, 0, 0, 0, 1, 0), (2, 1, 0, 0, 0, 0, 0, 0)
    )
    result = run(hypotheses=["abcdefgh", "xyzw"], references=["abcdefgh", "xy"])
    swapped = run(hypotheses=["xyzw", "abcdefgh"], references=["xy", "abcdefgh"])
    expected = by_hand(hyp, ref, matches)
    assert (
        (format_score(expected), f"{expected.numerator}/{expected.denominator}"),
        ["100.000000", format_score(segment_2)],
        scored(result)[:2],
        2,
    ) == (
        scored(result)[:2],
        result["segment_scores"],
        scored(swapped)[:2],
        result["segment_count"],
    )
    # sacreBLEU drops segment 2's hypothesis counts of character orders 3-4: another score.
    theirs = CHRF(word_order=2).corpus_score(["abcdefgh", "xyzw"], [["abcdefgh", "xy"]]).score
    zeroed = by_hand((12, 10, 6, 5, 4, 3, 2, 0), ref, matches)
    assert (True, True) == (abs(float(zeroed) - theirs) <= TOL, zeroed != expected)
    # An empty hypothesis still adds its reference's n-grams.
    assert ("55.555556", "500/9", ["100.000000", "0.000000"]) == scored(
        run(hypotheses=["abc", ""], references=["abc", "abc"])
    )


@HARNESS.semantics_line(5)
def test_beta_default_and_lowercase() -> None:
    """beta defaults to 2; lowercase defaults to false, true maps both texts first (line 6)."""
    assert [(2, False), (2, False), (16, True)] == [
        (r["beta"], r["lowercase"])
        for r in [run(), run(beta=2, lowercase=False), run(beta=16, lowercase=True)]
    ]
    assert scored(run(beta=2)) == scored(run())
    sigma = "\u039f\u0394\u039f\u03a3."  # "ΟΔΟΣ." lowercases to "οδος." (final sigma)
    cases = [
        ("The Cat.", "the cat .", False, False),
        ("The Cat.", "the cat .", True, True),
        ("the cat", "THE CAT", True, True),  # the reference is lowercased too
        (sigma, "\u03bf\u03b4\u03bf\u03c2 .", True, True),
        (sigma, "\u03bf\u03b4\u03bf\u03c3 .", True, False),
        ("\u0130", "i\u0307", True, True),  # "İ" lowercases to "i" and U+0307
    ]
    assert [c[3] for c in cases] == [
        fraction_of(h, r, lowercase=lc) == 100 for h, r, lc, _ in cases
    ]
    result = run(beta=3.0)
    assert (3, int, True) == (
        result["beta"],
        type(result["beta"]),
        '"beta":3,' in mtcompute.dumps(result),
    )


@HARNESS.semantics_line(6)
def test_score_rounding_half_even_and_fraction_ends() -> None:
    """score rounds the exact value half-even to six decimals; 0/1 and 100/1 at the ends."""
    # "abab" against "aba": P = 23/48, R = 3/4, chrF2 = 345/512 = 0.673828125 exactly.
    assert ("67.382812", "8625/128") == scored(run(hypotheses=["abab"], references=["aba"]))[:2]
    assert ["67.382812", "67.382814", "0.000000", "100.000000"] == [
        format_score(Fraction(k)) for k in ("67.3828125", "67.3828135", "0.0000005", "99.9999995")
    ]
    texts = ["The cat sat.", "Der Hund bellt laut"]
    assert [("100.000000", "100/1", ["100.000000"] * 2), ("0.000000", "0/1", ["0.000000"] * 2)] == [
        scored(run(hypotheses=texts, references=texts)),
        scored(run(hypotheses=["xyz", "qqq"], references=texts)),
    ]


@HARNESS.semantics_line(7)
def test_validation_order_and_inputs_not_mutated() -> None:
    """chrf-compute's validation order, its codes, paths and messages; inputs stay (line 8)."""
    assert [(code, path, message) for _, _, code, path, message in CHRF_VALIDATION_PAIRS] == [
        error(raw) for _, raw, _, _, _ in CHRF_VALIDATION_PAIRS
    ]
    raw = {
        "hypotheses": ["The CAT\u00a0sat.", "\u039f\u0394\u039f\u03a3"],
        "references": ["the cat sat .", "\u03bf\u03b4\u03bf\u03c2"],
        "beta": 3.0,
        "lowercase": True,
    }
    assert "100.000000" == HARNESS.assert_not_mutated(raw)["result"]["score"]


def test_input_schema_and_limits_are_chrf_computes() -> None:
    """Input schema and limits are chrf-compute's; the output differs in metric, word_order."""
    ours, seed = contract(*TOOL), contract("chrf-compute", "1.0.0")
    assert (seed["input_schema"], seed["limits"], seed["semantics"][1]) == (
        ours["input_schema"],
        ours["limits"],
        ours["semantics"][1],
    )
    differ = {
        k
        for k in seed["output_schema"]["properties"]
        if seed["output_schema"]["properties"][k] != ours["output_schema"]["properties"][k]
    }
    assert {"metric", "word_order"} == differ


# --- one test per error code per input field: chrf-compute's table ---------------------------


TYPED_FAULTS = {
    "invalid_input": input_with(hypotheses=["a", "b"], references=["a", "b\udfff"]),
    "limit_exceeded": input_with(hypotheses=["ab"] * 257, references=["abc"] * 257),
}
HARNESS.declare(CHRF_ERRORS, typed_faults=TYPED_FAULTS)


def test_typed_function_returns_frozen_result() -> None:
    """chrf_plus_plus returns a frozen ChrfPlusPlusResult with the exact fractions."""
    output, result = HARNESS.typed_example(chrf_plus_plus)
    assert (
        Fraction(40260030811255, 485806076756),
        "82.872637",
        ("83.308483", "82.578862"),
        2,
        False,
        output,
    ) == (
        result.fraction,
        result.score,
        result.segment_scores,
        result.beta,
        result.lowercase,
        result.to_dict(),
    )
    assert isinstance(result, ChrfPlusPlusResult)
    HARNESS.assert_frozen(result, "ratio")


# --- the word rule against sacreBLEU's own -----------------------------------------------------

_PUNCT = sorted(PUNCTUATION)
_word_core = st.one_of(
    st.sampled_from(["a", "ab", "The", "cat", "\u00e9t\u00e9", "\u0436", "\U0001f600", "x\u200by"]),
    st.text(alphabet=string.ascii_letters + "".join(_PUNCT) + "\u00ab\u00bb\uff01", max_size=4),
    sts.tokens(),
)


@st.composite
def punctuated_texts(draw: st.DrawFn) -> str:
    """Words with 0-3 punctuation characters before and after, joined by whitespace runs."""
    parts = []
    for _ in range(draw(st.integers(0, 8))):
        before = draw(st.text(alphabet=_PUNCT, max_size=3))
        after = draw(st.text(alphabet=_PUNCT, max_size=3))
        parts.append(before + draw(_word_core) + after)
        parts.append(draw(st.text(alphabet=sts.WHITESPACE, min_size=1, max_size=2)))
    return draw(st.text(alphabet=sts.WHITESPACE, max_size=2)) + "".join(parts)


@PROPERTY
@given(punctuated_texts())
def test_generated_words_equal_sacrebleu(text: str) -> None:
    """split_words equals sacreBLEU 2.6.0's CHRF._remove_punctuation on generated text."""
    assert sacre_words(text) == split_words(text)


def test_wmt_words_equal_sacrebleu() -> None:
    """split_words equals sacreBLEU's on every line of one system and the reference of every
    WMT pair, cased and lowercased."""
    different, lines = [], 0
    for k, pair in enumerate(wmt_pairs()):
        _, hyps, refs = wmt_system(pair, k)
        for text in (*hyps, *refs):
            lines += 1
            for t in (text, text.lower()):
                if sacre_words(t) != split_words(t):
                    different.append(t)
    expected_lines = 5_800 if WMT_IS_SAMPLE else 46_578  # the in-repo sample, the full data
    assert ([], expected_lines) == (different[:5], lines)


# --- sacreBLEU 2.6.0 CHRF(word_order=2) on every WMT pair --------------------------------------


def flat(stats: ChrfStatistics) -> list[int]:
    """Counts as sacreBLEU lists them: [h_1, r_1, m_1, h_2, ...]."""
    return [
        x for t in zip(stats.hypothesis, stats.reference, stats.matches, strict=True) for x in t
    ]


WMT_SEGMENTS = 600  # per pair: the runtime budget (every pair, a rotating system)
LOWERCASE_SEGMENTS = 200


@pytest.mark.parametrize("pair", wmt_pairs())
def test_equals_sacrebleu_chrf_plus_plus_on_wmt(pair: str) -> None:
    """sacreBLEU CHRF(word_order=2) on one system of the pair (first 600 segments; 200 of the
    next system lowercased): statistics with its zeroing, corpus and every segment
    score equal ours; the tool on the first tool-sized chunk gives the same segment scores;
    without the zeroing the corpus score is sacreBLEU's wherever no segment is affected."""
    k = wmt_pairs().index(pair)
    problems: list[str] = []
    for lowercase, system, count in ((False, k, WMT_SEGMENTS), (True, k + 1, LOWERCASE_SEGMENTS)):
        name, all_hyps, all_refs = wmt_system(pair, system)
        hyps, refs = list(all_hyps[:count]), list(all_refs[:count])
        metric = CHRF(word_order=2, lowercase=lowercase)
        theirs = metric._extract_corpus_statistics(hyps, [refs])
        ours = [
            segment_statistics_with_words(h, r, 6, 2, lowercase)
            for h, r in zip(hyps, refs, strict=True)
        ]
        if [flat(sacrebleu_zeroed(s)) for s in ours] != [list(s) for s in theirs]:
            problems.append(f"{name}: statistics differ")
        zeroed = reduce(add, map(sacrebleu_zeroed, ours))
        corpus = metric._aggregate_and_compute(theirs).score
        if abs(float(chrf_fraction(zeroed, 2)) - corpus) > TOL:
            problems.append(f"{name}: corpus {float(chrf_fraction(zeroed, 2))} vs {corpus}")
        literal = reduce(add, ours)
        if literal == zeroed and chrf_fraction(literal, 2) != chrf_fraction(zeroed, 2):
            problems.append(f"{name}: no segment affected, yet the scores differ")
        segment_fractions = [chrf_fraction(s, 2) for s in ours]
        for i, (ours_i, stats) in enumerate(zip(segment_fractions, theirs, strict=True)):
            score = metric._compute_score_from_stats(stats).score
            if abs(float(ours_i) - score) > TOL:
                problems.append(f"{name} segment {i}: {float(ours_i)} vs {score}")
        chunk = next(tool_chunks(hyps, refs))
        result = chrf_plus_plus(
            hyps[chunk.start : chunk.stop], refs[chunk.start : chunk.stop], lowercase=lowercase
        )
        if list(result.segment_fractions) != segment_fractions[chunk.start : chunk.stop]:
            problems.append(f"{name}: the tool's segment scores differ from the core's")
        chunk_theirs = metric._aggregate_and_compute(theirs[chunk.start : chunk.stop]).score
        chunk_zeroed = reduce(add, map(sacrebleu_zeroed, ours[chunk.start : chunk.stop]))
        if abs(float(chrf_fraction(chunk_zeroed, 2)) - chunk_theirs) > TOL:
            problems.append(f"{name}: chunk corpus differs from sacreBLEU's")
        if chunk_zeroed == reduce(add, ours[chunk.start : chunk.stop]) and (
            abs(float(result.fraction) - chunk_theirs) > TOL
        ):
            problems.append(f"{name}: the tool's unaffected chunk differs from sacreBLEU's")
    assert [] == problems


def test_public_sacrebleu_api_agrees_on_a_wmt_chunk() -> None:
    """The public corpus_score and sentence_score give what the private steps above give."""
    _, hyps, refs = wmt_system("generaltest2022/de-en", 0)
    h, r = list(hyps[:60]), list(refs[:60])
    metric = CHRF(word_order=2)
    stats = metric._extract_corpus_statistics(h, [r])
    assert (
        metric._aggregate_and_compute(stats).score,
        [metric._compute_score_from_stats(s).score for s in stats],
    ) == (
        metric.corpus_score(h, [r]).score,
        [metric.sentence_score(a, [b]).score for a, b in zip(h, r, strict=True)],
    )


# --- properties -------------------------------------------------------------------------------


@PROPERTY
@given(sts.chrf_inputs())
def test_scores_stay_between_0_and_100(data: dict[str, Any]) -> None:
    """Corpus and segment scores are exact fractions in [0, 100], rounded as format_score."""
    result = chrf_plus_plus(**data)
    fractions = [result.fraction, *result.segment_fractions]
    assert ([True] * len(fractions), [format_score(f) for f in result.segment_fractions]) == (
        [0 <= f <= 100 for f in fractions],
        list(result.segment_scores),
    )


@PROPERTY
@given(st.lists(sts.texts(), min_size=1, max_size=4), st.integers(1, 16), st.booleans())
def test_identical_texts_score_100(texts: list[str], beta: int, lowercase: bool) -> None:
    """A segment identical to its reference scores 100 unless it is all whitespace (then 0)."""
    result = chrf_plus_plus(texts, texts, beta, lowercase)
    expected = ["0.000000" if not t.split() else "100.000000" for t in texts]
    assert expected == list(result.segment_scores)


@PROPERTY
@given(sts.chrf_inputs(), st.randoms(use_true_random=False))
def test_statistics_add_up(data: dict[str, Any], rng: Any) -> None:
    """The corpus score is that of the summed character and word statistics of each segment,
    whatever the segment order; word counts are max(0, words - n + 1), matches at most both."""
    hyps, refs = data["hypotheses"], data["references"]
    lowercase = data.get("lowercase", False)
    chars = [char_statistics(h, r, 6, lowercase) for h, r in zip(hyps, refs, strict=True)]
    words = [word_statistics(h, r, 2, lowercase) for h, r in zip(hyps, refs, strict=True)]
    joined = ChrfStatistics(
        reduce(add, chars).hypothesis + reduce(add, words).hypothesis,
        reduce(add, chars).reference + reduce(add, words).reference,
        reduce(add, chars).matches + reduce(add, words).matches,
    )
    order = list(range(len(hyps)))
    rng.shuffle(order)
    shuffled = chrf_plus_plus(
        [hyps[i] for i in order], [refs[i] for i in order], data.get("beta", 2), lowercase
    )
    beta = data.get("beta", 2)
    assert (chrf_fraction(joined, beta), chrf_fraction(joined, beta)) == (
        chrf_plus_plus(hyps, refs, beta, lowercase).fraction,
        shuffled.fraction,
    )
    for h, r, w in zip(hyps, refs, words, strict=True):
        nh = len(split_words(h.lower() if lowercase else h))
        nr = len(split_words(r.lower() if lowercase else r))
        assert ((max(0, nh), max(0, nh - 1)), (max(0, nr), max(0, nr - 1)), True) == (
            w.hypothesis,
            w.reference,
            all(
                m <= min(a, b) for m, a, b in zip(w.matches, w.hypothesis, w.reference, strict=True)
            ),
        )
