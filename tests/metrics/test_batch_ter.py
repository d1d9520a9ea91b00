"""The batch corpus TER (mtcompute.metrics.ter.corpus.corpus_ter) against sacreBLEU 2.6.0's ``TER``.

Every test runs on both paths, the C kernel and the pure core (``MTCOMPUTE_PURE``): corpus
and sentence scores equal as Python floats, the same edits and reference lengths (in total
and per segment), the same signature, on WMT data (``tests.conftest.WMT``: the full data, or
the in-repo 200-line sample) with one, two and three references, under the four options and
their combinations, and on generated text; results add up; and each bad argument gets one
error naming it.
"""

from __future__ import annotations

import functools
import itertools
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sacrebleu.metrics.ter import TER

from mtcompute import __version__, native
from mtcompute.errors import InvalidInput
from mtcompute.metrics.ter import score as ter_scoring
from mtcompute.metrics.ter.corpus import CorpusTer, corpus_ter
from tests.conftest import ISSUE_HYPOTHESES, ISSUE_REFERENCES, kernel_switch, wmt_lines, wmt_window
from tests.oracle import assert_sacrebleu

PATHS = [
    pytest.param(
        "kernel",
        marks=pytest.mark.skipif(not native.AVAILABLE, reason="built without the C kernel"),
    ),
    "pure",
]
OPTION_NAMES = ("normalized", "no_punct", "asian_support", "case_sensitive")
COMBOS = [
    dict(zip(OPTION_NAMES, flags, strict=True))
    for flags in itertools.product((False, True), repeat=4)
]
MTCOMPUTE = f"|mtcompute:{__version__}"

EXAMPLE_HYPOTHESES, EXAMPLE_REFERENCES = ISSUE_HYPOTHESES, ISSUE_REFERENCES

Expected = tuple[float, int, float, tuple[tuple[float, int, float], ...], str]


def _columns(references: list[list[str | None]]) -> list[list[str | None]]:
    """Per-segment references as sacreBLEU's reference sets (one list per set; ``None``
    where a segment has fewer references, which sacreBLEU leaves out)."""
    width = max(len(segment) for segment in references)
    return [[s[k] if k < len(s) else None for s in references] for k in range(width)]


def sacrebleu_ter(
    hypotheses: list[str], references: list[list[str]], options: dict[str, bool]
) -> Expected:
    """sacreBLEU's TER(**options): corpus score, edits, reference length, every sentence's
    (score, edits, reference length), and the signature (computed once per input)."""
    return _sacrebleu_ter(
        tuple(hypotheses),
        tuple(tuple(segment) for segment in references),
        tuple(sorted(options.items())),
    )


@functools.cache
def _sacrebleu_ter(
    hypotheses: tuple[str, ...],
    references: tuple[tuple[str, ...], ...],
    options: tuple[tuple[str, bool], ...],
) -> Expected:
    metric = TER(**dict(options))
    columns = _columns([list(segment) for segment in references])
    corpus = metric.corpus_score(list(hypotheses), columns)  # type: ignore[arg-type]
    signature = str(metric.get_signature())
    sentences = [
        metric.sentence_score(h, list(refs)) for h, refs in zip(hypotheses, references, strict=True)
    ]
    each = tuple((s.score, s.num_edits, s.ref_length) for s in sentences)
    return corpus.score, corpus.num_edits, corpus.ref_length, each, signature


def ours(result: CorpusTer) -> Expected:
    """The same figures of a corpus_ter result (segment scores asked for)."""
    assert result.segment_scores is not None
    each = tuple(
        (score, edits, length)
        for score, (edits, length) in zip(
            result.segment_scores, result.segment_statistics, strict=True
        )
    )
    signature = result.signature.removesuffix(MTCOMPUTE)
    return result.score, result.num_edits, result.ref_length, each, signature


def wmt_segments(
    pair: str, system: str, references: tuple[str, ...], stop: int | None = None
) -> tuple[list[str], list[list[str]]]:
    """A system's segments and each segment's references (the first ``stop`` segments, or
    the sample's last ones when it is shorter; all of them when ``stop`` is None)."""
    hyps = wmt_lines(f"{pair}/sys.{system}.txt")
    columns = [wmt_lines(f"{pair}/ref.{ref}.txt") for ref in references]
    if stop is not None:
        hyps = wmt_window(hyps, 0, stop)
        columns = [wmt_window(column, 0, stop) for column in columns]
    return hyps, [list(segment) for segment in zip(*columns, strict=True)]


# --- sacreBLEU's numbers -----------------------------------------------------------------------

WMT_CASES = [
    ("generaltest2022/en-de", "Online-B", ("A",), None, ""),
    ("generaltest2022/en-de", "Online-B", ("A", "B"), 500, ""),
    ("generaltest2022/de-en", "LT22", ("A", "B"), 300, "normalized"),
    ("generaltest2022/en-zh", "HuaweiTSC", ("A", "B"), 60, "normalized asian_support"),
    ("generaltest2022/en-ja", "KYB", ("A",), 200, "no_punct asian_support"),
    ("generaltest2022/cs-uk", "AMU", ("A",), 200, "case_sensitive no_punct"),
    ("newstest2021/en-de", "Facebook-AI", ("A", "C", "D"), 150, "normalized no_punct"),
]


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize(("pair", "system", "references", "stop", "options"), WMT_CASES)
def test_corpus_ter_equals_sacrebleu_on_wmt(
    path: str, pair: str, system: str, references: tuple[str, ...], stop: int | None, options: str
) -> None:
    """WMT text, one to three references, options: sacreBLEU's corpus and sentence figures."""
    hyps, refs = wmt_segments(pair, system, references, stop)
    kwargs = dict.fromkeys(options.split(), True)
    with kernel_switch(path == "kernel"):
        actual = corpus_ter(hyps, refs, segment_scores=True, **kwargs)
    assert_sacrebleu(
        ours(actual),
        "TER corpus_score, sentence_score, signature",
        sorted(kwargs),
        (hyps, refs),
        lambda: sacrebleu_ter(hyps, refs, kwargs),
    )


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("options", COMBOS, ids=lambda o: "-".join(k for k in o if o[k]) or "none")
def test_every_option_combination_equals_sacrebleu(path: str, options: dict[str, bool]) -> None:
    """Each of the 16 option combinations on zh, ja and de text: sacreBLEU's figures."""
    zh_hyps, zh_refs = wmt_segments("generaltest2022/en-zh", "Online-B", ("A", "B"), 40)
    ja_hyps, ja_refs = wmt_segments("generaltest2022/en-ja", "Online-B", ("A",), 40)
    de_hyps, de_refs = wmt_segments("generaltest2022/en-de", "PROMT", ("A", "B"), 40)
    hyps = zh_hyps[:20] + ja_hyps[:20] + de_hyps[:20]
    refs = zh_refs[:20] + ja_refs[:20] + de_refs[:20]
    with kernel_switch(path == "kernel"):
        actual = corpus_ter(hyps, refs, segment_scores=True, **options)
    assert_sacrebleu(
        ours(actual),
        "TER corpus_score, sentence_score, signature",
        sorted(k for k in options if options[k]),
        (hyps, refs),
        lambda: sacrebleu_ter(hyps, refs, options),
    )


PIECES = [
    *" \n\t.,-&;'s()\"?:!/0123456789aAbZ",
    *("&quot;", "&amp;", "&lt;", "&gt;", "\n-", "'s ", "美", "众", "り", "の", "カ", "ー"),
    *("\u3001", "\u3002", "\uff0c", "\uff08", "\u30fb", "\uff61", "\u3200", "\u31f0", "\u2e80"),
    *("\u3000", "\u00a0", "\u200b", "İ", "ß", "Σ", "\U00020000", "the ", "cat ", "sat "),
]
TEXT = st.lists(st.sampled_from(PIECES), max_size=30).map("".join)
SEGMENTS = st.lists(st.tuples(TEXT, st.lists(TEXT, min_size=1, max_size=3)), min_size=1, max_size=6)


@pytest.mark.parametrize("path", PATHS)
@given(segments=SEGMENTS, options=st.sampled_from(COMBOS))
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_generated_corpora_equal_sacrebleu(
    path: str, segments: list[tuple[str, list[str]]], options: dict[str, bool]
) -> None:
    """Generated text, one to three references a segment, any options: sacreBLEU's figures."""
    hyps = [h for h, _ in segments]
    refs = [r for _, r in segments]
    with kernel_switch(path == "kernel"):
        actual = corpus_ter(hyps, refs, segment_scores=True, **options)
    assert sacrebleu_ter(hyps, refs, options) == ours(actual)  # type: ignore[arg-type]


REPEATED = " ".join(["a b c d e"] * 6)
EDGES = [
    ("empty hypothesis", [""], [["a b c"]]),
    ("empty reference", ["a b"], [[""]]),
    ("both empty", [""], [[""]]),
    ("an empty and a full reference", ["a b"], [["", "a b"]]),
    ("equal edits, the first reference", ["a b"], [["a c", "c b"]]),
    ("punctuation only", ['... ,,, !!! ?? ;: ()"'], [['?!.,;:()" .']]),
    ("CJK", ["美众院公布对特朗普的弹劾条款。"], [["美国众议院公布了对特朗普的弹劾条款，"]]),
    (
        "one shift, one reference each",
        ["d e f g h a b c", "x"],
        [["a b c d e f g h"], ["x y"]],
    ),
]


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize(("name", "hyps", "refs"), EDGES, ids=[e[0] for e in EDGES])
def test_edge_cases_equal_sacrebleu(
    path: str, name: str, hyps: list[str], refs: list[list[str]]
) -> None:
    """Empty sides, reference ties, punctuation only, CJK: sacreBLEU's figures, all options."""
    for options in COMBOS:
        with kernel_switch(path == "kernel"):
            actual = corpus_ter(hyps, refs, segment_scores=True, **options)
        assert sacrebleu_ter(hyps, refs, options) == ours(actual)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("options", [{}, {"normalized": True, "case_sensitive": True}])
def test_the_shift_candidate_limit_equals_sacrebleu(path: str, options: dict[str, bool]) -> None:
    """A search that stops at 1,000 shift candidates with a gain left: sacreBLEU's figures."""
    hyps, refs = [REPEATED], [[" ".join(reversed(REPEATED.split()))]]
    with kernel_switch(path == "kernel"):
        actual = corpus_ter(hyps, refs, segment_scores=True, **options)
    assert sacrebleu_ter(hyps, refs, options) == ours(actual)


def test_empty_sides_score_as_sacrebleu_says() -> None:
    """An empty reference against two words scores 100; both sides empty score 0."""
    expected = [(100.0, 2, 0.0), (0.0, 0, 0.0)]
    found = [corpus_ter(["a b"], [""]), corpus_ter([""], [""])]
    assert expected == [(r.score, r.num_edits, r.ref_length) for r in found]


# --- the result ------------------------------------------------------------------------------


def test_the_issue_example() -> None:
    """The ter-compute example's totals, per-segment figures and signature."""
    result = corpus_ter(EXAMPLE_HYPOTHESES, EXAMPLE_REFERENCES, segment_scores=True)
    expected = (
        19.35483870967742,
        3,
        15.5,
        ((1, 6.5), (2, 9.0)),
        (15.384615384615385, 22.22222222222222),
        f"nrefs:2|case:lc|tok:tercom|norm:no|punct:yes|asian:no|version:2.6.0{MTCOMPUTE}",
    )
    assert expected == (
        result.score,
        result.num_edits,
        result.ref_length,
        result.segment_statistics,
        result.segment_scores,
        result.signature,
    )


def test_str_is_sacrebleus_line_with_the_signature() -> None:
    """str() is sacreBLEU's TERScore.format with its signature, then mtcompute's version."""
    options = {"normalized": True, "no_punct": True, "asian_support": True}
    metric = TER(**options)
    theirs = metric.corpus_score(EXAMPLE_HYPOTHESES, _columns(EXAMPLE_REFERENCES))  # type: ignore[arg-type]
    expected = theirs.format(signature=str(metric.get_signature()) + MTCOMPUTE)
    assert expected == str(corpus_ter(EXAMPLE_HYPOTHESES, EXAMPLE_REFERENCES, **options))


def test_to_dict() -> None:
    """to_dict holds the settings, sacreBLEU's totals and the per-segment figures, in order."""
    result = corpus_ter(
        EXAMPLE_HYPOTHESES, EXAMPLE_REFERENCES, case_sensitive=True, segment_scores=True
    )
    theirs = TER(case_sensitive=True).corpus_score(
        EXAMPLE_HYPOTHESES,
        _columns(EXAMPLE_REFERENCES),  # type: ignore[arg-type]
    )
    expected = {
        "name": "TER",
        "score": theirs.score,
        "score_text": f"{theirs.score:.2f}",
        "signature": f"nrefs:2|case:mixed|tok:tercom|norm:no|punct:yes|asian:no|version:2.6.0"
        f"{MTCOMPUTE}",
        "normalized": False,
        "no_punct": False,
        "asian_support": False,
        "case_sensitive": True,
        "nrefs": 2,
        "num_edits": theirs.num_edits,
        "ref_length": theirs.ref_length,
        "segment_scores": [15.384615384615385, 22.22222222222222],
        "segment_edits": [1, 2],
        "segment_ref_lengths": [6.5, 9.0],
    }
    actual = result.to_dict()
    assert (expected, list(expected)) == (actual, list(actual))


def test_to_dict_without_segments_and_with_a_varying_reference_count() -> None:
    """Without segment scores no per-segment keys; a varying reference count is nrefs var."""
    refs = [["a b"], ["c", "d e"]]
    metric = TER()
    metric.corpus_score(["a b", "c d"], _columns(refs))  # type: ignore[arg-type]
    result = corpus_ter(["a b", "c d"], refs)
    data = result.to_dict()
    keys = {"segment_scores", "segment_edits", "segment_ref_lengths"}
    expected = (str(metric.get_signature()) + MTCOMPUTE, "var", set())
    assert expected == (result.signature, data["nrefs"], keys & set(data))


def test_flat_and_nested_references_agree() -> None:
    """One reference per segment, flat or nested, gives the same result."""
    hyps, refs = wmt_segments("generaltest2022/en-de", "PROMT", ("A",), 60)
    assert corpus_ter(hyps, [r[0] for r in refs]) == corpus_ter(hyps, refs)


@pytest.mark.parametrize("path", PATHS)
def test_results_add_up_in_segment_order(path: str) -> None:
    """head + tail is the whole, lengths summed in segment order where partial sums differ."""
    hyps, refs = wmt_segments("newstest2021/en-de", "Facebook-AI", ("A", "C", "D"), 150)
    options = {"normalized": True, "no_punct": True}  # a WMT_CASES case: sacreBLEU's is cached
    with kernel_switch(path == "kernel"):
        whole = corpus_ter(hyps, refs, segment_scores=True, **options)
        head = corpus_ter(hyps[:70], refs[:70], segment_scores=True, **options)
        tail = corpus_ter(hyps[70:], refs[70:], segment_scores=True, **options)
    joined = head + tail
    assert (True, whole) == (head.ref_length + tail.ref_length != whole.ref_length, joined)
    assert sacrebleu_ter(hyps, refs, options) == ours(joined)


def test_results_of_other_settings_do_not_add() -> None:
    """Adding results of different settings is refused."""
    message = "cannot add TER results of different settings"
    with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
        corpus_ter(["a"], ["a"]) + corpus_ter(["a"], ["a"], no_punct=True)


def test_statistics_are_sacrebleus_totals() -> None:
    """statistics is sacreBLEU's [total_edits, sum_ref_lengths]; repr omits the segments."""
    result = corpus_ter(EXAMPLE_HYPOTHESES, EXAMPLE_REFERENCES)
    assert ((3, 15.5), False) == (result.statistics, "segment_statistics" in repr(result))


def test_scoring_agrees() -> None:
    """corpus_ter's totals are mtcompute.metrics.ter.score.corpus_ter's (one TER path)."""
    hyps, refs = wmt_segments("generaltest2022/en-de", "Online-B", ("A", "B"), 100)
    options = ter_scoring.TerOptions(no_punct=True)
    theirs = ter_scoring.corpus_ter(hyps, refs, options)
    mine = corpus_ter(hyps, refs, no_punct=True)
    assert (theirs.score, theirs.num_edits, theirs.ref_length) == (
        mine.score,
        mine.num_edits,
        mine.ref_length,
    )


# --- errors ----------------------------------------------------------------------------------

TER_ERRORS: list[tuple[dict[str, Any], str, str]] = [
    (
        {"hypotheses": "abc", "references": ["abc"]},
        'Expected an array of strings at /hypotheses, got the string "abc".',
        "/hypotheses",
    ),
    (
        {"hypotheses": [], "references": []},
        "Expected at least 1 segment at /hypotheses, got an empty array.",
        "/hypotheses",
    ),
    (
        {"hypotheses": ["a", None], "references": ["a", "b"]},
        "Expected a string at /hypotheses/1, got null.",
        "/hypotheses/1",
    ),
    (
        {"hypotheses": ["a"], "references": "a"},
        'Expected an array of strings at /references, got the string "a".',
        "/references",
    ),
    (
        {"hypotheses": ["a", "b"], "references": ["a", 3]},
        "Expected a string at /references/1, got 3.",
        "/references/1",
    ),
    (
        {"hypotheses": ["a"], "references": [["a", 3]]},
        "Expected a string at /references/0/1, got 3.",
        "/references/0/1",
    ),
    (
        {"hypotheses": ["a"], "references": [3]},
        "Expected a string or an array of strings at /references/0, got 3.",
        "/references/0",
    ),
    (
        {"hypotheses": ["a", "b"], "references": [["a"], "b"]},
        'Expected an array of strings at /references/1, got the string "b".',
        "/references/1",
    ),
    (
        {"hypotheses": ["a"], "references": [[]]},
        "Expected at least 1 reference at /references/0, got none.",
        "/references/0",
    ),
    (
        {"hypotheses": ["a", "b"], "references": ["a"]},
        "Expected references to have as many segments as hypotheses (2) at /references, got 1.",
        "/references",
    ),
    (
        {"hypotheses": ["a", "\ud800b"], "references": ["a", "b"]},
        "Expected text without lone surrogates at /hypotheses/1, got U+D800 at index 0.",
        "/hypotheses/1",
    ),
    (
        {"hypotheses": ["a", "b"], "references": ["a", "x\udc00"]},
        "Expected text without lone surrogates at /references/1, got U+DC00 at index 1.",
        "/references/1",
    ),
    (
        {"hypotheses": ["a"], "references": [["b", "c\udfff"]]},
        "Expected text without lone surrogates at /references/0/1, got U+DFFF at index 1.",
        "/references/0/1",
    ),
    (
        {"hypotheses": ["a"], "references": ["a"], "normalized": 1},
        "Expected true or false at /normalized, got 1.",
        "/normalized",
    ),
    (
        {"hypotheses": ["a"], "references": ["a"], "no_punct": "yes"},
        'Expected true or false at /no_punct, got the string "yes".',
        "/no_punct",
    ),
    (
        {"hypotheses": ["a"], "references": ["a"], "asian_support": None},
        "Expected true or false at /asian_support, got null.",
        "/asian_support",
    ),
    (
        {"hypotheses": ["a"], "references": ["a"], "case_sensitive": 0},
        "Expected true or false at /case_sensitive, got 0.",
        "/case_sensitive",
    ),
    (
        {"hypotheses": ["a"], "references": ["a"], "segment_scores": "no"},
        'Expected true or false at /segment_scores, got the string "no".',
        "/segment_scores",
    ),
    (
        {"hypotheses": ["a", 2], "references": ["a"], "normalized": 1},
        "Expected a string at /hypotheses/1, got 2.",
        "/hypotheses/1",
    ),
    (
        {"hypotheses": ["a"], "references": ["a"], "no_punct": 1, "case_sensitive": 1},
        "Expected true or false at /no_punct, got 1.",
        "/no_punct",
    ),
]


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize(("kwargs", "message", "pointer"), TER_ERRORS)
def test_corpus_ter_errors(path: str, kwargs: dict[str, Any], message: str, pointer: str) -> None:
    """Each fault raises one InvalidInput naming the argument (the first fault in order)."""
    with kernel_switch(path == "kernel"), pytest.raises(InvalidInput) as caught:
        corpus_ter(**kwargs)
    assert (message, pointer) == (caught.value.message, caught.value.path)
