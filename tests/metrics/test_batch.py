"""The batch APIs (mtcompute.batch) against the tools, the pure core and sacreBLEU 2.6.0.

Every test runs on both paths, the C kernel and the pure core (``MTCOMPUTE_PURE``), and
must give the same answer on each: corpus chrF under ``rules="contract"`` equal to
chrf-compute's exact fraction, and by default equal to sacreBLEU's corpus chrF (Python float
equality, several references included); all-pairs chrF equal to ``float(chrf_fraction(...))``
and to sacreBLEU's sentence chrF; corpus BLEU equal to sacreBLEU's ``BLEU().corpus_score`` on
raw WMT text and, for token lists (``tokenize=None``), to the summed bleu-sentence-components
statistics scored by sacreBLEU's arithmetic; and the same errors. The WMT data is
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
from mtcompute import __version__, native
from mtcompute.errors import InvalidInput, MtcomputeError
from mtcompute.metrics.bleu import score as sacre_bleu
from mtcompute.metrics.bleu.corpus import CorpusBleu, corpus_bleu
from mtcompute.metrics.bleu.statistics import BleuStatistics
from mtcompute.metrics.chrf.corpus import CorpusChrf, chrf_pairwise, corpus_chrf
from mtcompute.metrics.chrf.ngrams import chrf_fraction, format_score
from mtcompute.metrics.chrf.score import ChrfOptions
from mtcompute.metrics.chrf.statistics import chrf_segment_statistics
from tests.conftest import ISSUE_HYPOTHESES, ISSUE_REFERENCES, kernel_switch, wmt_lines, wmt_window
from tests.oracle import assert_sacrebleu
from tests.strategies import bleu_segments, chrf_inputs, texts

BLEU_SMOOTHING = sacre_bleu.BLEU_SMOOTHING

PATHS = [
    pytest.param(
        "kernel",
        marks=pytest.mark.skipif(not native.AVAILABLE, reason="built without the C kernel"),
    ),
    "pure",
]


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
            rules="contract",
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
        result = corpus_chrf(hyps, refs, beta=beta, lowercase=lowercase, rules="contract")
    expected = (tool.fraction, tool.score, float(tool.fraction), None)
    assert expected == (result.fraction, result.score_text, result.score, result.segment_scores)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize(
    ("pair", "system", "word_order", "references"),
    [
        ("generaltest2022/en-de", "Online-B", 0, ("A",)),
        ("generaltest2022/en-de", "Online-B", 2, ("A", "B")),
        ("generaltest2022/en-zh", "Online-B", 0, ("A", "B")),
        ("generaltest2022/en-ja", "Online-B", 2, ("A",)),
    ],
)
def test_corpus_chrf_equals_sacrebleu_on_wmt(
    path: str, pair: str, system: str, word_order: int, references: tuple[str, ...]
) -> None:
    """The whole test set, one or two references: sacreBLEU's corpus chrF2 or chrF2++ and
    its sentence scores, exactly (float equality)."""
    hyps = wmt_lines(f"{pair}/sys.{system}.txt")
    columns = [wmt_lines(f"{pair}/ref.{ref}.txt") for ref in references]
    per_segment = [list(refs) for refs in zip(*columns, strict=True)]
    with kernel_switch(path == "kernel"):
        actual = corpus_chrf(hyps, per_segment, word_order=word_order, segment_scores=True)

    def sacrebleus() -> tuple[float, tuple[float, ...]]:
        metric = sacrebleu.CHRF(word_order=word_order)
        expected = metric.corpus_score(hyps, columns).score
        sentences = [
            metric.sentence_score(h, list(refs)).score
            for h, *refs in zip(hyps, *columns, strict=True)
        ]
        return expected, tuple(sentences)

    assert_sacrebleu(
        (actual.score, actual.segment_scores),
        "CHRF corpus_score and sentence_score",
        word_order,
        (hyps, columns),
        sacrebleus,
    )


def test_corpus_chrf_differs_from_the_contract_rule_where_the_notes_say() -> None:
    """docs/decisions.md's example: 98.714953 under sacreBLEU's rule, 97.084367 under the
    contract's (a reference without 6-grams zeroes the segment's hypothesis count)."""
    hyps, refs = ["abcdefgh", "xyzw"], ["abcdefgh", "xy"]
    sacre = corpus_chrf(hyps, refs)
    contract = corpus_chrf(hyps, refs, rules="contract")
    expected = (sacrebleu.CHRF().corpus_score(hyps, [refs]).score, "98.71", "97.084367")
    assert expected == (sacre.score, sacre.score_text, contract.score_text)


@pytest.mark.parametrize("path", PATHS)
def test_corpus_chrf_results_add_up(path: str) -> None:
    """corpus_chrf(a) + corpus_chrf(b) is corpus_chrf(a + b), segment scores included, under
    both rules."""
    hyps = wmt_lines("generaltest2022/en-ja/sys.KYB.txt")[:300]
    refs = wmt_lines("generaltest2022/en-ja/ref.A.txt")[:300]
    for rules in ("sacrebleu", "contract"):
        with kernel_switch(path == "kernel"):
            whole = corpus_chrf(hyps, refs, beta=3, rules=rules, segment_scores=True)
            head = corpus_chrf(hyps[:100], refs[:100], beta=3, rules=rules, segment_scores=True)
            tail = corpus_chrf(hyps[100:], refs[100:], beta=3, rules=rules, segment_scores=True)
        assert whole == head + tail


def test_corpus_chrf_result_fields() -> None:
    """A contract result carries the flat statistics, the settings, the reduced fraction and
    its float; the sacreBLEU one the float alone."""
    contract = corpus_chrf(["aa"], ["ab"], beta=3, rules="contract")
    stats = (2, 2, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    options = ChrfOptions(beta=3)
    assert CorpusChrf(25.0, stats, options, "contract", 1, None, Fraction(25)) == contract
    assert CorpusChrf(25.0, stats, options, "sacrebleu", 1) == corpus_chrf(["aa"], ["ab"], beta=3)
    assert type(contract.fraction) is Fraction


def test_corpus_chrf_str_and_data() -> None:
    """str() is the name, signature and score; to_dict the JSON-ready fields."""
    result = corpus_chrf(["aa b"], [["ab b", "aa"]], word_order=2, lowercase=True)
    signature = f"nrefs:2|case:lc|eff:yes|nc:6|nw:2|space:no|version:2.6.0|mtcompute:{__version__}"
    theirs = sacrebleu.CHRF(word_order=2, lowercase=True).corpus_score(["aa b"], [["ab b"], ["aa"]])
    assert f"chrF2++|{signature} = {theirs.score:.2f}" == str(result)
    expected = {
        "name": "chrF2++",
        "score": theirs.score,
        "score_text": f"{theirs.score:.2f}",
        "signature": signature,
        "rules": "sacrebleu",
        "char_order": 6,
        "word_order": 2,
        "beta": 2,
        "lowercase": True,
        "whitespace": False,
        "eps_smoothing": False,
        "nrefs": 2,
        "statistics": list(result.statistics),
    }
    assert expected == result.to_dict()


def test_corpus_chrf_contract_str_names_the_rule() -> None:
    """Under the contract rule str() prints the six-decimal exact score and rules:contract;
    the JSON data carries chrf-compute's fraction."""
    hyps, refs = ["The cat sat."], ["The cat sat on the mat."]
    result = corpus_chrf(hyps, refs, rules="contract")
    expected = (
        "chrF2|nrefs:1|case:mixed|eff:yes|nc:6|nw:0|space:no|version:2.6.0|rules:contract|"
        f"mtcompute:{__version__} = 49.260694",
        mtcompute.execute("chrf-compute", "1.0.0", {"hypotheses": hyps, "references": refs})[
            "result"
        ]["score_fraction"],
    )
    assert expected == (str(result), result.to_dict()["score_fraction"])


def test_corpus_chrf_flat_and_nested_references_agree() -> None:
    """One reference per segment flat or nested gives the same result."""
    hyps = wmt_lines("generaltest2022/en-de/sys.PROMT.txt")[:50]
    refs = wmt_lines("generaltest2022/en-de/ref.A.txt")[:50]
    assert corpus_chrf(hyps, refs) == corpus_chrf(hyps, [[r] for r in refs])


def test_corpus_chrf_fraction_is_reduced() -> None:
    """The contract fraction is in lowest terms, as Fraction keeps it."""
    result = corpus_chrf(["abc"], ["abcd"], beta=2, rules="contract")
    assert result.fraction is not None
    assert (Fraction(result.fraction.numerator, result.fraction.denominator)) == result.fraction


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
    """Each entry is float(chrf_fraction(chrf_segment_statistics(h, r), beta))."""
    expected = [
        [float(chrf_fraction(chrf_segment_statistics(h, r), beta)) for r in refs] for h in hyps
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
            [float(chrf_fraction(chrf_segment_statistics(h, r), 2)) for r in others] for h in block
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

BLEU_CASES = [
    *(("generaltest2022/en-de", "Online-W", ("A", "B"), m) for m in BLEU_SMOOTHING),
    ("generaltest2022/de-en", "LT22", ("A", "B"), "exp"),
    ("generaltest2022/en-zh", "JDExploreAcademy", ("A", "B"), "exp"),
    ("generaltest2022/en-ja", "Online-B", ("A",), "none"),
    ("newstest2021/en-de", "Facebook-AI", ("A", "C", "D"), "floor"),
]


@functools.cache
def sacrebleu_bleu(
    pair: str, system: str, references: tuple[str, ...], smoothing: str, tokenize: str
) -> tuple[float, tuple[float, ...], tuple[int, ...], tuple[int, ...], int, int]:
    """sacreBLEU BLEU(tokenize=..., smooth_method=...): score, precisions, counts, totals and
    lengths."""
    hyps = wmt_lines(f"{pair}/sys.{system}.txt")
    columns = [wmt_lines(f"{pair}/ref.{ref}.txt") for ref in references]
    s = sacrebleu.BLEU(tokenize=tokenize, smooth_method=smoothing).corpus_score(hyps, columns)
    return s.score, tuple(s.precisions), tuple(s.counts), tuple(s.totals), s.sys_len, s.ref_len


def _bleu_fields(result: CorpusBleu) -> tuple[object, ...]:
    return (
        result.score,
        result.precisions,
        result.counts,
        result.totals,
        result.sys_len,
        result.ref_len,
    )


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize(("pair", "system", "references", "smoothing"), BLEU_CASES)
def test_corpus_bleu_equals_sacrebleu_on_wmt(
    path: str, pair: str, system: str, references: tuple[str, ...], smoothing: str
) -> None:
    """Raw WMT text with 13a (zh for en-zh), and its whitespace tokens with tokenize=None:
    sacreBLEU's score, precisions, counts, totals and lengths, exactly."""
    tokenize = "zh" if pair.endswith("-zh") else "13a"
    hyps = wmt_lines(f"{pair}/sys.{system}.txt")
    columns = [wmt_lines(f"{pair}/ref.{ref}.txt") for ref in references]
    refs = [list(segment) for segment in zip(*columns, strict=True)]
    with kernel_switch(path == "kernel"):
        raw = corpus_bleu(hyps, refs, tokenize=tokenize, smooth_method=smoothing)
        tokens = corpus_bleu(
            [h.split() for h in hyps],
            [[r.split() for r in segment] for segment in refs],
            tokenize=None,
            smooth_method=smoothing,
        )
    for tokenizer, result in ((tokenize, raw), ("none", tokens)):
        assert_sacrebleu(
            _bleu_fields(result),
            "BLEU corpus_score fields",
            [smoothing, tokenizer],
            (hyps, columns),
            lambda tokenizer=tokenizer: sacrebleu_bleu(
                pair, system, references, smoothing, tokenizer
            ),
        )


@pytest.mark.parametrize("path", PATHS)
def test_corpus_bleu_segments_and_options_equal_sacrebleu(path: str) -> None:
    """lowercase, floor with its value, max order 3, effective order, char tokens: the
    corpus score and every sentence score are sacreBLEU's."""
    hyps = wmt_lines("generaltest2022/en-de/sys.PROMT.txt")[:300]
    refs = wmt_lines("generaltest2022/en-de/ref.B.txt")[:300]
    settings = {"lowercase": True, "smooth_method": "floor", "smooth_value": 0.3}
    for tokenize, max_order, effective in (("13a", 3, True), ("char", 4, False)):
        metric = sacrebleu.BLEU(
            tokenize=tokenize, max_ngram_order=max_order, effective_order=effective, **settings
        )  # type: ignore[arg-type]
        expected = (
            metric.corpus_score(hyps, [refs]).score,
            tuple(metric.sentence_score(h, [r]).score for h, r in zip(hyps, refs, strict=True)),
            str(metric.get_signature()),
        )
        with kernel_switch(path == "kernel"):
            actual = corpus_bleu(
                hyps,
                refs,
                tokenize=tokenize,
                max_order=max_order,
                effective_order=effective,
                segment_scores=True,
                **settings,  # type: ignore[arg-type]
            )
        signature = actual.signature.removesuffix(f"|mtcompute:{__version__}")
        assert expected == (actual.score, actual.segment_scores, signature)


@pytest.mark.parametrize("path", PATHS)
@given(
    segments=st.lists(bleu_segments(max_references=4, max_tokens=15), min_size=1, max_size=8),
    max_order=st.integers(1, 8),
    smoothing=st.sampled_from(BLEU_SMOOTHING),
    effective_order=st.booleans(),
)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_corpus_bleu_of_tokens_equals_summed_tool_statistics(
    path: str,
    segments: list[tuple[list[str], list[list[str]]]],
    max_order: int,
    smoothing: str,
    effective_order: bool,
) -> None:
    """Summing bleu-sentence-components over the segments and scoring the sums with
    sacreBLEU's compute_bleu gives corpus_bleu(tokenize=None)'s numbers."""
    parts = [mtcompute.bleu_sentence_components(h, r, max_order) for h, r in segments]
    total = BleuStatistics(0, 0, (0,) * max_order, (0,) * max_order)
    for p in parts:
        total = total + BleuStatistics(p.candidate_length, p.reference_length, p.matches, p.totals)
    expected = sacre_bleu.compute_bleu(
        total.matches,
        total.totals,
        total.candidate_length,
        total.reference_length,
        smoothing,
        None,
        effective_order,
        max_order,
    )
    with kernel_switch(path == "kernel"):
        actual = corpus_bleu(
            [h for h, _ in segments],
            [r for _, r in segments],
            tokenize=None,
            max_order=max_order,
            smooth_method=smoothing,
            effective_order=effective_order,
        )
    assert (expected.score, expected.counts, expected.totals, expected.bp) == (
        actual.score,
        actual.counts,
        actual.totals,
        actual.bp,
    )


@pytest.mark.parametrize("path", PATHS)
def test_corpus_bleu_empty_hypotheses(path: str) -> None:
    """Empty hypotheses: sys_len 0, so BLEU and the brevity penalty are 0 (ref_len still sums
    the closest, here the shortest, reference lengths)."""
    with kernel_switch(path == "kernel"):
        actual = corpus_bleu([[], []], [[["a", "b"]], [["c"], []]], tokenize=None, max_order=2)
    expected = (0.0, (0, 0), (0, 0), 0.0, 0, 2, (0, 2, 0, 0, 0, 0), "pretokenized")
    assert expected == (
        actual.score,
        actual.counts,
        actual.totals,
        actual.bp,
        actual.sys_len,
        actual.ref_len,
        actual.statistics,
        actual.tokenizer_signature,
    )


def test_corpus_bleu_str_and_data() -> None:
    """str() is sacreBLEU's line with the signature; to_dict the JSON-ready fields."""
    hyps, refs = ISSUE_HYPOTHESES, ISSUE_REFERENCES
    result = corpus_bleu(hyps, refs)
    signature = (
        f"nrefs:2|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0|mtcompute:{__version__}"
    )
    expected_text = (
        f"BLEU|{signature} = 57.51 100.0/76.9/54.5/44.4 (BP = 0.875 ratio = 0.882 hyp_len = 15 "
        "ref_len = 17)"
    )
    expected = {
        "name": "BLEU",
        "score": 57.51117527863729,
        "score_text": "57.51",
        "signature": signature,
        "tokenize": "13a",
        "lowercase": False,
        "smooth_method": "exp",
        "smooth_value": None,
        "max_order": 4,
        "effective_order": False,
        "nrefs": 2,
        "counts": [15, 10, 6, 4],
        "totals": [15, 13, 11, 9],
        "precisions": list(result.precisions),
        "bp": result.bp,
        "ratio": 15 / 17,
        "sys_len": 15,
        "ref_len": 17,
    }
    assert (expected_text, expected) == (str(result), result.to_dict())


@pytest.mark.parametrize("path", PATHS)
def test_corpus_bleu_results_add_up(path: str) -> None:
    """corpus_bleu(a) + corpus_bleu(b) is corpus_bleu(a + b), segment scores included."""
    hyps = wmt_lines("generaltest2022/en-zh/sys.Online-B.txt")[:200]
    refs = wmt_lines("generaltest2022/en-zh/ref.A.txt")[:200]
    with kernel_switch(path == "kernel"):
        whole = corpus_bleu(hyps, refs, tokenize="zh", segment_scores=True)
        head = corpus_bleu(hyps[:70], refs[:70], tokenize="zh", segment_scores=True)
        tail = corpus_bleu(hyps[70:], refs[70:], tokenize="zh", segment_scores=True)
    assert whole == head + tail


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
    (
        {"hypotheses": ["a"], "references": [["a", 3]]},
        InvalidInput,
        "Expected a string at /references/0/1, got 3.",
        "/references/0/1",
    ),
    (
        {"hypotheses": ["a"], "references": [3]},
        InvalidInput,
        "Expected a string or an array of strings at /references/0, got 3.",
        "/references/0",
    ),
    (
        {"hypotheses": ["a"], "references": ["a"], "word_order": 5},
        InvalidInput,
        "Expected an integer of at most 4 at /word_order, got 5.",
        "/word_order",
    ),
    (
        {"hypotheses": ["a"], "references": ["a"], "eps_smoothing": "no"},
        InvalidInput,
        'Expected true or false at /eps_smoothing, got the string "no".',
        "/eps_smoothing",
    ),
    (
        {"hypotheses": ["a"], "references": ["a"], "rules": "exact"},
        InvalidInput,
        'Expected one of sacrebleu, contract at /rules, got the string "exact".',
        "/rules",
    ),
    (
        {"hypotheses": ["a"], "references": ["a"], "rules": "contract", "whitespace": True},
        InvalidInput,
        'Expected false at /whitespace (rules "contract" is the chrf-compute contract\'s '
        "corpus rule, which removes whitespace), got true.",
        "/whitespace",
    ),
    (
        {"hypotheses": ["a"], "references": ["a"], "rules": "contract", "eps_smoothing": True},
        InvalidInput,
        'Expected false at /eps_smoothing (rules "contract" is the chrf-compute contract\'s '
        "corpus rule, which averages over the effective orders), got true.",
        "/eps_smoothing",
    ),
    (
        {"hypotheses": ["a", "b"], "references": [["a"], ["b", "c"]], "rules": "contract"},
        InvalidInput,
        'Expected one reference at /references/1 (rules "contract" is the chrf-compute '
        'contract\'s corpus rule, one reference per segment; rules "sacrebleu" takes '
        "several), got 2.",
        "/references/1",
    ),
    (
        {"hypotheses": ["a"], "references": ["a"], "segment_scores": 0},
        InvalidInput,
        "Expected true or false at /segment_scores, got 0.",
        "/segment_scores",
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
        {"tokenize": None, "hypotheses": "a b", "references": [[["a"]]]},
        InvalidInput,
        'Expected an array of token lists at /hypotheses, got the string "a b".',
        "/hypotheses",
    ),
    (
        {"tokenize": None, "hypotheses": [["a"]], "references": []},
        InvalidInput,
        "Expected at least 1 segment at /references, got none.",
        "/references",
    ),
    (
        {"tokenize": None, "hypotheses": [["a"], ["b"]], "references": [[["a"]]]},
        InvalidInput,
        "Expected references to have as many segments as hypotheses (2) at /references, got 1.",
        "/references",
    ),
    (
        {"tokenize": None, "hypotheses": [["a"]], "references": [[["a"]]], "max_order": 9},
        InvalidInput,
        "Expected an integer of at most 8 at /max_order, got 9.",
        "/max_order",
    ),
    (
        {
            "tokenize": None,
            "hypotheses": [["a"]],
            "references": [[["a"]]],
            "smooth_method": "method1",
        },
        InvalidInput,
        'Expected one of none, floor, add-k, exp at /smooth_method, got the string "method1".',
        "/smooth_method",
    ),
    (
        {
            "tokenize": None,
            "hypotheses": [["a"]],
            "references": [[["a"]]],
            "smooth_method": "exp",
            "smooth_value": 1,
        },
        InvalidInput,
        "Expected no smooth_value with smooth_method exp at /smooth_value (smooth_value "
        "applies to floor and add-k only), got one.",
        "/smooth_value",
    ),
    (
        {
            "tokenize": None,
            "hypotheses": [["a"]],
            "references": [[["a"]]],
            "smooth_method": "floor",
            "smooth_value": 101,
        },
        InvalidInput,
        "Expected a number from 0 to 100 at /smooth_value, got 101.",
        "/smooth_value",
    ),
    (
        {
            "tokenize": None,
            "hypotheses": [["a"]],
            "references": [[["a"]]],
            "smooth_method": "floor",
            "smooth_value": 1.5,
        },
        InvalidInput,
        "Expected a smooth_value from 0 to 1 with smooth_method floor at /smooth_value, got 1.5.",
        "/smooth_value",
    ),
    (
        {
            "tokenize": None,
            "hypotheses": [["a"]],
            "references": [[["a"]]],
            "effective_order": "yes",
        },
        InvalidInput,
        'Expected true or false at /effective_order, got the string "yes".',
        "/effective_order",
    ),
    (
        {"tokenize": None, "hypotheses": [["a"], "b c"], "references": [[["a"]], [["b"]]]},
        InvalidInput,
        'Expected a token list (an array) at /hypotheses/1, got the string "b c".',
        "/hypotheses/1",
    ),
    (
        {"tokenize": None, "hypotheses": [["a", 2]], "references": [[[""]]]},
        InvalidInput,
        "Expected a token (a non-empty string) at /hypotheses/0/1, got 2.",
        "/hypotheses/0/1",
    ),
    (
        {"tokenize": None, "hypotheses": [["a"]], "references": [[["a"], ["b", ""]]]},
        InvalidInput,
        "Expected a non-empty token at /references/0/1/1, got the empty string.",
        "/references/0/1/1",
    ),
    (
        {"tokenize": None, "hypotheses": [["a"], ["b"]], "references": [[["a"]], []]},
        InvalidInput,
        "Expected at least 1 reference at /references/1, got none.",
        "/references/1",
    ),
    (
        {"tokenize": None, "hypotheses": [["a"]], "references": [["a"]]},
        InvalidInput,
        'Expected a reference token list (an array) at /references/0/0, got the string "a".',
        "/references/0/0",
    ),
    (
        {"tokenize": None, "hypotheses": [["a"]], "references": ["a"]},
        InvalidInput,
        'Expected an array of token lists at /references/0, got the string "a".',
        "/references/0",
    ),
    (
        {"tokenize": None, "hypotheses": [["a"]], "references": [[["ok", "\ud83d\ude00"]]]},
        InvalidInput,
        "Expected a token without lone surrogates at /references/0/0/1, got U+D83D at index 0.",
        "/references/0/0/1",
    ),
    (
        {"hypotheses": ["a"], "references": ["a"], "tokenize": "moses"},
        InvalidInput,
        "Expected one of none, zh, 13a, intl, char, ja-mecab, ko-mecab, spm, flores101, "
        'flores200, spBLEU-1K at /tokenize, got the string "moses".',
        "/tokenize",
    ),
    (
        {"hypotheses": [["a"]], "references": ["a"]},
        InvalidInput,
        "Expected a string at /hypotheses/0, got an array of 1 item.",
        "/hypotheses/0",
    ),
    (
        {"hypotheses": ["a", "b"], "references": [["a"], "b"]},
        InvalidInput,
        'Expected an array of strings at /references/1, got the string "b".',
        "/references/1",
    ),
    (
        {"hypotheses": ["a", "b"], "references": ["a", ["b"]]},
        InvalidInput,
        "Expected a string at /references/1, got an array of 1 item.",
        "/references/1",
    ),
    (
        {"hypotheses": ["a"], "references": [[]]},
        InvalidInput,
        "Expected at least 1 reference at /references/0, got none.",
        "/references/0",
    ),
    (
        {"hypotheses": ["a"], "references": [None]},
        InvalidInput,
        "Expected a string or an array of strings at /references/0, got null.",
        "/references/0",
    ),
    (
        {"hypotheses": ["a", "b"], "references": ["a"]},
        InvalidInput,
        "Expected references to have as many segments as hypotheses (2) at /references, got 1.",
        "/references",
    ),
    (
        {"hypotheses": ["a"], "references": [["b", "c\udfff"]]},
        InvalidInput,
        "Expected text without lone surrogates at /references/0/1, got U+DFFF at index 1.",
        "/references/0/1",
    ),
    (
        {"hypotheses": ["a"], "references": ["a"], "max_order": 0},
        InvalidInput,
        "Expected an integer of at least 1 at /max_order, got 0.",
        "/max_order",
    ),
    (
        {"hypotheses": ["a"], "references": ["a"], "segment_scores": None},
        InvalidInput,
        "Expected true or false at /segment_scores, got null.",
        "/segment_scores",
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
    """score_text rounds the exact fraction half-even to six decimals (contract rule), or is
    sacreBLEU's two decimals."""
    result = corpus_chrf(["The cat sat."], ["The cat sat on the mat."], rules="contract")
    assert result.fraction is not None
    assert format_score(result.fraction) == result.score_text
    sacre_rules = corpus_chrf(["The cat sat."], ["The cat sat on the mat."])
    assert f"{sacre_rules.score:.2f}" == sacre_rules.score_text


def test_corpus_chrf_with_whitespace_is_sacrebleus() -> None:
    """whitespace=True keeps the spaces in the character n-grams, as sacreBLEU's
    CHRF(whitespace=True) does, for chrF and chrF++ with one and two references."""
    hyps = wmt_window(wmt_lines("generaltest2022/en-de/sys.Online-B.txt"), 0, 300)
    ref_a = wmt_window(wmt_lines("generaltest2022/en-de/ref.A.txt"), 0, 300)
    ref_b = wmt_window(wmt_lines("generaltest2022/en-de/ref.B.txt"), 0, 300)
    for word_order in (0, 2):
        metric = sacrebleu.CHRF(word_order=word_order, whitespace=True)
        one = corpus_chrf(hyps, ref_a, word_order=word_order, whitespace=True)
        two = corpus_chrf(
            hyps,
            [list(r) for r in zip(ref_a, ref_b, strict=True)],
            word_order=word_order,
            whitespace=True,
        )
        expected = (
            metric.corpus_score(hyps, [ref_a]).score,
            metric.corpus_score(hyps, [ref_a, ref_b]).score,
        )
        assert expected == (one.score, two.score)
        assert "space:yes" in one.signature
