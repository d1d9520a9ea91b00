"""The batch APIs (mtcompute.batch) against the tools, the pure core and sacreBLEU 2.6.0.

Every test runs on both paths, the C kernel and the pure core (``MTCOMPUTE_PURE``), and
must give the same answer on each: corpus chrF equal to chrf-compute's exact fraction and to
sacreBLEU's corpus chrF where the two definitions agree (CONTRACT-NOTES, chrf-compute); all-pairs
chrF equal to ``float(chrf_fraction(...))`` and to sacreBLEU's sentence chrF; corpus BLEU equal
to the summed bleu-sentence-components statistics scored by bleu-smoothing-compute, and to
sacreBLEU's ``BLEU(tokenize='none')`` on real WMT data; and the same errors. The WMT data is
``tests.conftest.WMT``: the full data, or the in-repo 200-line sample when it is absent.
"""

from __future__ import annotations

import functools
import math
from fractions import Fraction
from typing import Any

import pytest
import sacrebleu
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mtcompute
from mtcompute import counting, native
from mtcompute.batch import CorpusBleu, CorpusChrf, chrf_pairwise, corpus_bleu, corpus_chrf
from mtcompute.core.bleu import BleuStatistics, sentence_statistics, smooth_and_score
from mtcompute.core.chrf import (
    ChrfStatistics,
    chrf_fraction,
    format_score,
    strip_whitespace,
)
from mtcompute.errors import InvalidInput, MtcomputeError, UnsupportedInput
from tests.conftest import kernel_switch, wmt_lines, wmt_window
from tests.strategies import bleu_segments, chrf_inputs, texts

PATHS = [
    pytest.param(
        "kernel",
        marks=pytest.mark.skipif(not native.AVAILABLE, reason="built without the C kernel"),
    ),
    "pure",
]


def sacrebleu_agrees(hypothesis: str, reference: str) -> bool:
    """Whether sacreBLEU's corpus chrF counts this segment as the contract does: it zeroes a
    hypothesis order whose reference has no n-gram of it (CONTRACT-NOTES, chrf-compute)."""
    return len(strip_whitespace(reference)) >= min(len(strip_whitespace(hypothesis)), 6)


# --- corpus chrF -----------------------------------------------------------------------------


@pytest.mark.parametrize("path", PATHS)
@given(data=chrf_inputs(max_segments=10))
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_corpus_chrf_equals_chrf_compute(path: str, data: dict[str, Any]) -> None:
    """On inputs chrf-compute takes, corpus_chrf has its exact fraction and six-decimal text,
    and its segment scores are the tool's segment fractions as floats."""
    beta = data.get("beta", 2)
    lowercase = data.get("lowercase", False)
    tool = mtcompute.chrf(data["hypotheses"], data["references"], beta, lowercase)
    with kernel_switch(path == "kernel"):
        result = corpus_chrf(
            data["hypotheses"],
            data["references"],
            beta=beta,
            lowercase=lowercase,
            segment_scores=True,
        )
    expected = (tool.fraction, tool.score, tuple(float(f) for f in tool.segment_fractions))
    assert expected == (result.fraction, result.score_text, result.segment_scores)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize(
    ("pair", "system", "beta", "lowercase"),
    [
        ("generaltest2022/en-de", "Online-B", 2, False),
        ("generaltest2022/en-zh", "HuaweiTSC", 3, False),
        ("generaltest2022/en-ja", "JDExploreAcademy", 1, True),
        ("generaltest2022/cs-uk", "CharlesTranslator", 2, True),
    ],
)
def test_corpus_chrf_equals_chrf_compute_on_wmt(
    path: str, pair: str, system: str, beta: int, lowercase: bool
) -> None:
    """Real segments up to chrf-compute's limits (256 segments, 65,536 UTF-8 bytes): the same
    exact fraction, score text and float as the tool (segments 256-511, or the sample's last)."""
    hyps = wmt_window(wmt_lines(f"{pair}/sys.{system}.txt"), 256, 512)
    refs = wmt_window(wmt_lines(f"{pair}/ref.A.txt"), 256, 512)
    while sum(len(t.encode()) for t in hyps + refs) > 65_536:
        hyps, refs = hyps[:-8], refs[:-8]
    tool = mtcompute.chrf(hyps, refs, beta, lowercase)
    with kernel_switch(path == "kernel"):
        result = corpus_chrf(hyps, refs, beta=beta, lowercase=lowercase)
    expected = (tool.fraction, tool.score, float(tool.fraction), None)
    assert expected == (result.fraction, result.score_text, result.score, result.segment_scores)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize(
    ("pair", "system"),
    [
        ("generaltest2022/en-de", "Online-B"),
        ("generaltest2022/en-zh", "Online-B"),
        ("generaltest2022/en-ja", "Online-B"),
    ],
)
def test_corpus_chrf_matches_sacrebleu_on_wmt(path: str, pair: str, system: str) -> None:
    """The whole test set (minus the few segments where sacreBLEU's corpus rule differs):
    sacreBLEU's corpus chrF2 to 1e-9."""
    hyps = wmt_lines(f"{pair}/sys.{system}.txt")
    refs = wmt_lines(f"{pair}/ref.A.txt")
    kept = [(h, r) for h, r in zip(hyps, refs, strict=True) if sacrebleu_agrees(h, r)]
    hyps, refs = [h for h, _ in kept], [r for _, r in kept]
    expected = sacrebleu.CHRF().corpus_score(hyps, [refs]).score
    with kernel_switch(path == "kernel"):
        actual = corpus_chrf(hyps, refs).score
    assert expected == pytest.approx(actual, rel=0, abs=1e-9)


@pytest.mark.parametrize("path", PATHS)
def test_corpus_chrf_results_add_up(path: str) -> None:
    """corpus_chrf(a) + corpus_chrf(b) is corpus_chrf(a + b), segment scores included."""
    hyps = wmt_lines("generaltest2022/en-ja/sys.KYB.txt")[:300]
    refs = wmt_lines("generaltest2022/en-ja/ref.A.txt")[:300]
    with kernel_switch(path == "kernel"):
        whole = corpus_chrf(hyps, refs, beta=3, segment_scores=True)
        parts = corpus_chrf(hyps[:100], refs[:100], beta=3, segment_scores=True) + corpus_chrf(
            hyps[100:], refs[100:], beta=3, segment_scores=True
        )
    assert whole == parts


def test_corpus_chrf_result_fields() -> None:
    """A result carries the statistics, the reduced fraction (as numerator and denominator,
    and as a Fraction), its float and its six-decimal text."""
    result = corpus_chrf(["aa"], ["ab"], beta=3)
    stats = ChrfStatistics((2, 1, 0, 0, 0, 0), (2, 1, 0, 0, 0, 0), (1, 0, 0, 0, 0, 0))
    assert CorpusChrf(stats, 3, 25, 1, 25.0, "25.000000", None) == result
    assert Fraction(25) == result.fraction
    assert type(result.fraction) is Fraction


def test_corpus_chrf_fraction_is_reduced() -> None:
    """numerator/denominator are in lowest terms, as Fraction keeps them."""
    result = corpus_chrf(["abc"], ["abcd"], beta=2)
    assert (Fraction(result.numerator, result.denominator)) == result.fraction
    assert (result.numerator, result.denominator) == (
        result.fraction.numerator,
        result.fraction.denominator,
    )


# --- all-pairs chrF --------------------------------------------------------------------------


@pytest.mark.parametrize("path", PATHS)
@given(
    hyps=st.lists(texts(max_words=8), max_size=6),
    refs=st.lists(texts(max_words=8), max_size=6),
    beta=st.integers(1, 16),
)
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_chrf_pairwise_equals_sentence_fractions(
    path: str, hyps: list[str], refs: list[str], beta: int
) -> None:
    """Each entry is float(chrf_fraction(counting.chrf_segment_statistics(h, r), beta))."""
    expected = [
        [float(chrf_fraction(counting.chrf_segment_statistics(h, r), beta)) for r in refs]
        for h in hyps
    ]
    with kernel_switch(path == "kernel"):
        assert expected == chrf_pairwise(hyps, refs, beta=beta)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize(
    ("pair", "system"),
    [("generaltest2022/en-de", "PROMT"), ("generaltest2022/en-zh", "Manifold")],
)
def test_chrf_pairwise_matches_sacrebleu_on_wmt(path: str, pair: str, system: str) -> None:
    """A 20x20 MBR block of real outputs, and the block against references: sacreBLEU's
    sentence_chrf to 1e-9, and exactly the exact fraction's float."""
    block = wmt_lines(f"{pair}/sys.{system}.txt")[40:60]
    refs = wmt_lines(f"{pair}/ref.A.txt")[40:50]
    for others in (block, refs):
        with kernel_switch(path == "kernel"):
            actual = chrf_pairwise(block, others)
        exact = [
            [float(chrf_fraction(counting.chrf_segment_statistics(h, r), 2)) for r in others]
            for h in block
        ]
        theirs = [[sacrebleu.sentence_chrf(h, [r]).score for r in others] for h in block]
        assert exact == actual
        assert all(
            math.isclose(t, a, rel_tol=0, abs_tol=1e-9)
            for t_row, a_row in zip(theirs, actual, strict=True)
            for t, a in zip(t_row, a_row, strict=True)
        )


def test_chrf_pairwise_empty_sides() -> None:
    """No hypotheses gives no rows; no references gives empty rows."""
    assert ([], [[], []]) == (chrf_pairwise([], ["a"]), chrf_pairwise(["a", "b"], []))


# --- corpus BLEU -----------------------------------------------------------------------------

SACREBLEU_SMOOTHING = {
    "none": ("none", None),
    "method1": ("floor", 0.1),
    "method2": ("add-k", 1),
    "method3": ("exp", None),
}


BLEU_CASES = [
    *(("generaltest2022/en-de", "Online-W", ("A", "B"), m) for m in SACREBLEU_SMOOTHING),
    *(("newstest2015-nltk100/en-ru", "Google.tok", ("A.tok",), m) for m in SACREBLEU_SMOOTHING),
    ("generaltest2022/de-en", "LT22", ("A", "B"), "none"),
    ("generaltest2022/en-zh", "JDExploreAcademy", ("A", "B"), "method3"),
    ("generaltest2022/en-ja", "Online-B", ("A",), "none"),
    ("newstest2021/en-de", "Facebook-AI", ("A", "C", "D"), "method1"),
]


@functools.cache
def sacrebleu_bleu(
    pair: str, system: str, references: tuple[str, ...], smoothing: str
) -> tuple[tuple[int, ...], tuple[int, ...], int, int, float]:
    """sacreBLEU BLEU(tokenize='none'): counts, totals and lengths (from an unsmoothed run:
    add-k changes the counts it reports) and the smoothed score."""
    hyps = wmt_lines(f"{pair}/sys.{system}.txt")
    columns = [wmt_lines(f"{pair}/ref.{ref}.txt") for ref in references]
    method, value = SACREBLEU_SMOOTHING[smoothing]
    smoothed = sacrebleu.BLEU(tokenize="none", smooth_method=method, smooth_value=value)
    plain = sacrebleu.BLEU(tokenize="none", smooth_method="none").corpus_score(hyps, columns)
    score = smoothed.corpus_score(hyps, columns).score
    return tuple(plain.counts), tuple(plain.totals), plain.sys_len, plain.ref_len, score


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize(("pair", "system", "references", "smoothing"), BLEU_CASES)
def test_corpus_bleu_matches_sacrebleu_on_wmt(
    path: str, pair: str, system: str, references: tuple[str, ...], smoothing: str
) -> None:
    """Whitespace tokens of real WMT data: sacreBLEU BLEU(tokenize='none')'s counts, totals
    and lengths exactly, and its score / 100 to 1e-12 relative."""
    *expected, score = sacrebleu_bleu(pair, system, references, smoothing)
    hyps = [line.split() for line in wmt_lines(f"{pair}/sys.{system}.txt")]
    columns = [wmt_lines(f"{pair}/ref.{ref}.txt") for ref in references]
    refs = [[column[i].split() for column in columns] for i in range(len(hyps))]
    with kernel_switch(path == "kernel"):
        actual = corpus_bleu(hyps, refs, smoothing=smoothing)  # type: ignore[arg-type]
    assert tuple(expected) == (
        actual.matches,
        actual.totals,
        actual.candidate_length,
        actual.reference_length,
    )
    assert score / 100 == pytest.approx(actual.bleu, rel=1e-12, abs=0)


@pytest.mark.parametrize("path", PATHS)
@given(
    segments=st.lists(bleu_segments(max_references=4, max_tokens=15), min_size=1, max_size=8),
    max_order=st.integers(1, 8),
    smoothing=st.sampled_from(["none", "method1", "method2", "method3"]),
    epsilon=st.sampled_from([0.1, 0.5, 1]),
    effective_order=st.booleans(),
)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_corpus_bleu_equals_summed_tool_statistics(
    path: str,
    segments: list[tuple[list[str], list[list[str]]]],
    max_order: int,
    smoothing: str,
    epsilon: float,
    effective_order: bool,
) -> None:
    """Summing bleu-sentence-components over the segments and scoring the sums with
    bleu-smoothing-compute gives corpus_bleu's numbers."""
    parts = [mtcompute.bleu_sentence_components(h, r, max_order) for h, r in segments]
    total = BleuStatistics(0, 0, (0,) * max_order, (0,) * max_order)
    for p in parts:
        total = total + BleuStatistics(p.candidate_length, p.reference_length, p.matches, p.totals)
    tool = mtcompute.bleu_from_statistics(
        total.matches,
        total.totals,
        total.candidate_length,
        total.reference_length,
        smoothing,  # type: ignore[arg-type]
        epsilon=epsilon if smoothing == "method1" else None,
        effective_order=effective_order,
    )
    expected = CorpusBleu(
        tool.bleu,
        tool.brevity_penalty,
        total.matches,
        total.totals,
        total.candidate_length,
        total.reference_length,
        tool.orders_used,
    )
    with kernel_switch(path == "kernel"):
        actual = corpus_bleu(
            [h for h, _ in segments],
            [r for _, r in segments],
            max_order=max_order,
            smoothing=smoothing,  # type: ignore[arg-type]
            epsilon=epsilon,
            effective_order=effective_order,
        )
    assert expected == actual


@pytest.mark.parametrize("path", PATHS)
def test_corpus_bleu_empty_hypotheses(path: str) -> None:
    """Empty hypotheses: c = 0, so BLEU and the brevity penalty are 0 (r still sums the
    closest, here the shortest, reference lengths)."""
    with kernel_switch(path == "kernel"):
        actual = corpus_bleu([[], []], [[["a", "b"]], [["c"], []]], max_order=2)
    assert CorpusBleu(0.0, 0.0, (0, 0), (0, 0), 0, 2, 2) == actual


def test_corpus_bleu_is_smooth_and_score_of_the_sums() -> None:
    """corpus_bleu is smooth_and_score of the summed pure statistics (effective order on)."""
    hyps = [line.split() for line in wmt_lines("generaltest2022/en-cs/sys.Online-B.txt")[:50]]
    refs = [[line.split()] for line in wmt_lines("generaltest2022/en-cs/ref.B.txt")[:50]]
    total = BleuStatistics(0, 0, (0,) * 6, (0,) * 6)
    for h, r in zip(hyps, refs, strict=True):
        total = total + sentence_statistics(h, r, 6)
    s = smooth_and_score(
        total.matches, total.totals, total.candidate_length, total.reference_length,
        "method3", 0.1, True,
    )  # fmt: skip
    expected = CorpusBleu(
        s.bleu, s.brevity_penalty, total.matches, total.totals,
        total.candidate_length, total.reference_length, s.orders_used,
    )  # fmt: skip
    actual = corpus_bleu(hyps, refs, max_order=6, smoothing="method3", effective_order=True)
    assert expected == actual


# --- errors ----------------------------------------------------------------------------------

CHRF_ERRORS: list[tuple[dict[str, Any], type[MtcomputeError], str, str]] = [
    (
        {"hypotheses": "abc", "references": ["abc"]},
        InvalidInput,
        'Expected an array of strings at /hypotheses, got the string "abc".',
        "/hypotheses",
    ),
    (
        {"hypotheses": [], "references": []},
        InvalidInput,
        "Expected at least 1 segment at /hypotheses, got an empty array.",
        "/hypotheses",
    ),
    (
        {"hypotheses": ["a", None], "references": ["a", "b"]},
        InvalidInput,
        "Expected a string at /hypotheses/1, got null.",
        "/hypotheses/1",
    ),
    (
        {"hypotheses": ["a", "b"], "references": ["a", 3]},
        InvalidInput,
        "Expected a string at /references/1, got 3.",
        "/references/1",
    ),
    (
        {"hypotheses": ["a", "b"], "references": ["a"]},
        InvalidInput,
        "Expected as many references as hypotheses (2) at /references, got 1.",
        "/references",
    ),
    (
        {"hypotheses": ["a", "b"], "references": ["a", "x\udc00"]},
        InvalidInput,
        "Expected text without lone surrogates at /references/1, got U+DC00 at index 1.",
        "/references/1",
    ),
    (
        {"hypotheses": ["a"], "references": ["a"], "beta": True},
        InvalidInput,
        "Expected an integer at /beta, got true.",
        "/beta",
    ),
    (
        {"hypotheses": ["a"], "references": ["a"], "beta": 17},
        InvalidInput,
        "Expected an integer of at most 16 at /beta, got 17.",
        "/beta",
    ),
    (
        {"hypotheses": ["a"], "references": ["a"], "lowercase": 1},
        InvalidInput,
        "Expected true or false at /lowercase, got 1.",
        "/lowercase",
    ),
]


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize(("kwargs", "error", "message", "pointer"), CHRF_ERRORS)
def test_corpus_chrf_errors(
    path: str, kwargs: dict[str, Any], error: type[MtcomputeError], message: str, pointer: str
) -> None:
    """Each fault raises one clear error naming the field and index."""
    with kernel_switch(path == "kernel"), pytest.raises(error) as caught:
        corpus_chrf(**kwargs)
    assert (message, pointer) == (caught.value.message, caught.value.path)


@pytest.mark.parametrize("path", PATHS)
def test_chrf_pairwise_errors(path: str) -> None:
    """chrf_pairwise checks its texts and beta like corpus_chrf."""
    with kernel_switch(path == "kernel"), pytest.raises(InvalidInput) as caught:
        chrf_pairwise(["a", "\ud800"], ["b"])
    expected = ("Expected text without lone surrogates at /hypotheses/1, got U+D800 at index 0.",
                "/hypotheses/1")  # fmt: skip
    assert expected == (caught.value.message, caught.value.path)


BLEU_ERRORS: list[tuple[dict[str, Any], type[MtcomputeError], str, str]] = [
    (
        {"hypotheses": "a b", "references": [[["a"]]]},
        InvalidInput,
        'Expected an array of token lists at /hypotheses, got the string "a b".',
        "/hypotheses",
    ),
    (
        {"hypotheses": [["a"]], "references": []},
        InvalidInput,
        "Expected at least 1 segment at /references, got none.",
        "/references",
    ),
    (
        {"hypotheses": [["a"], ["b"]], "references": [[["a"]]]},
        InvalidInput,
        "Expected references to have as many segments as hypotheses (2) at /references, got 1.",
        "/references",
    ),
    (
        {"hypotheses": [["a"]], "references": [[["a"]]], "max_order": 9},
        InvalidInput,
        "Expected an integer of at most 8 at /max_order, got 9.",
        "/max_order",
    ),
    (
        {"hypotheses": [["a"]], "references": [[["a"]]], "smoothing": "method5"},
        UnsupportedInput,
        "Chen and Cherry method5 is not supported at /smoothing: it needs the source or corpus "
        "context that sufficient statistics do not carry; use none, method1, method2 or "
        "method3.",
        "/smoothing",
    ),
    (
        {"hypotheses": [["a"]], "references": [[["a"]]], "smoothing": "exp"},
        InvalidInput,
        'Expected one of none, method1, method2, method3 at /smoothing, got the string "exp".',
        "/smoothing",
    ),
    (
        {"hypotheses": [["a"]], "references": [[["a"]]], "epsilon": 1.5},
        InvalidInput,
        "Expected a number from 0 to 1 at /epsilon, got 1.5.",
        "/epsilon",
    ),
    (
        {"hypotheses": [["a"]], "references": [[["a"]]], "effective_order": "yes"},
        InvalidInput,
        'Expected true or false at /effective_order, got the string "yes".',
        "/effective_order",
    ),
    (
        {"hypotheses": [["a"], "b c"], "references": [[["a"]], [["b"]]]},
        InvalidInput,
        'Expected a token list (an array) at /hypotheses/1, got the string "b c".',
        "/hypotheses/1",
    ),
    (
        {"hypotheses": [["a", 2]], "references": [[[""]]]},
        InvalidInput,
        "Expected a token (a non-empty string) at /hypotheses/0/1, got 2.",
        "/hypotheses/0/1",
    ),
    (
        {"hypotheses": [["a"]], "references": [[["a"], ["b", ""]]]},
        InvalidInput,
        "Expected a non-empty token at /references/0/1/1, got the empty string.",
        "/references/0/1/1",
    ),
    (
        {"hypotheses": [["a"], ["b"]], "references": [[["a"]], []]},
        InvalidInput,
        "Expected at least 1 reference at /references/1, got none.",
        "/references/1",
    ),
    (
        {"hypotheses": [["a"]], "references": [["a"]]},
        InvalidInput,
        'Expected a reference token list (an array) at /references/0/0, got the string "a".',
        "/references/0/0",
    ),
    (
        {"hypotheses": [["a"]], "references": ["a"]},
        InvalidInput,
        'Expected an array of token lists at /references/0, got the string "a".',
        "/references/0",
    ),
    (
        {"hypotheses": [["a"]], "references": [[["ok", "\ud83d\ude00"]]]},
        InvalidInput,
        "Expected a token without lone surrogates at /references/0/0/1, got U+D83D at index 0.",
        "/references/0/0/1",
    ),
]


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize(("kwargs", "error", "message", "pointer"), BLEU_ERRORS)
def test_corpus_bleu_errors(
    path: str, kwargs: dict[str, Any], error: type[MtcomputeError], message: str, pointer: str
) -> None:
    """Each fault raises one clear error naming the field and index (the first fault in
    reading order when there are several)."""
    with kernel_switch(path == "kernel"), pytest.raises(error) as caught:
        corpus_bleu(**kwargs)
    assert (message, pointer) == (caught.value.message, caught.value.path)


def test_format_of_score_text() -> None:
    """score_text rounds the exact fraction half-even to six decimals."""
    result = corpus_chrf(["The cat sat."], ["The cat sat on the mat."])
    assert format_score(result.fraction) == result.score_text
