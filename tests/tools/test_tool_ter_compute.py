"""ter-compute@1.0.0: one test per semantics line, the error table, the limits, and sacreBLEU.

sacreBLEU 2.6.0 is the reference: ``TER(...).corpus_score`` on its reference streams (a
segment's missing reference is ``None`` in its stream), ``sentence_score`` per segment, and
the statistics of ``_extract_corpus_statistics``, all in the tool's shape (:func:`sacre_ter`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sacrebleu.metrics import TER

import mtcompute
from mtcompute.contracts import contract
from mtcompute.metrics.ter import score as ter_scoring
from mtcompute.tools.ter_compute import ter_compute, ter_words
from tests.conftest import WMT, WMT_IS_SAMPLE
from tests.harness import ToolHarness, read_lines
from tests.strategies import small_corpora

TOOL = ("ter-compute", "1.0.0")
HYPS = ["The cat sat on mat.", "A quick brown fox jumps over the dog."]
REFS = [
    ["The cat sat on the mat.", "There is a cat on the mat."],
    ["A fast brown fox jumped over the lazy dog.", "The quick brown fox jumps over the lazy dog."],
]
BASE: dict[str, Any] = {"hypotheses": HYPS, "references": REFS}
OPTIONS = ("case_sensitive", "normalized", "no_punct", "asian_support")
MAX_SEGMENTS, MAX_REFERENCES, MAX_TEXT_BYTES = 4096, 8, 4_194_304
MAX_SEGMENT_WORDS, MAX_ALIGNED_WORDS = 1024, 131_072

HARNESS = ToolHarness(TOOL, BASE)
run, input_with, error = HARNESS.run, HARNESS.input_with, HARNESS.error


def sacre_ter(hyps: list[str], refs: list[list[str]], **options: bool) -> dict[str, Any]:
    """sacreBLEU 2.6.0's TER of a corpus laid out per segment, in the tool's result shape."""
    most = max(len(r) for r in refs)
    streams = [[r[j] if j < len(r) else None for r in refs] for j in range(most)]
    metric = TER(**options)
    corpus = metric.corpus_score(hyps, streams)
    segments = []
    for hyp, segment_refs in zip(hyps, refs, strict=True):
        stats = TER(**options)._extract_corpus_statistics([hyp], [[r] for r in segment_refs])
        edits, length = stats[0]
        score = TER(**options).sentence_score(hyp, list(segment_refs)).score
        segments.append({"edits": edits, "ref_length": length, "score": score})
    return {
        "score": corpus.score,
        "text": str(corpus),
        "signature": str(metric.get_signature()),
        "num_edits": corpus.num_edits,
        "ref_length": corpus.ref_length,
        "segment_count": len(hyps),
        "segments": segments,
    }


def combinations() -> list[dict[str, bool]]:
    """The 16 combinations of the four options."""
    return [{name: bool(bits >> i & 1) for i, name in enumerate(OPTIONS)} for bits in range(16)]


# --- one test per semantics line ------------------------------------------------------------


@HARNESS.semantics_line(0)
def test_references_are_laid_out_per_segment() -> None:
    """references[i] are segment i's references, in any number per segment; texts may be
    empty; swapping the references of two segments changes the score."""
    hyps = ["The cat sat on mat.", "A quick brown fox.", "", "x"]
    refs = [["The cat sat on the mat."], ["", "A fast brown fox.", "The quick brown fox."], [""],
            ["", "y z"]]  # fmt: skip
    swapped = run(references=[REFS[1], REFS[0]])
    assert (sacre_ter(hyps, refs), True) == (
        run(hypotheses=hyps, references=refs),
        swapped["score"] > run()["score"],
    )


@HARNESS.semantics_line(1)
@pytest.mark.parametrize("options", combinations(), ids=lambda o: "+".join(k for k in o if o[k]))
def test_options_are_sacrebleus_tercom_tokenizer(options: dict[str, bool]) -> None:
    """Each combination of the four options scores as sacreBLEU's TER with them, on text that
    each option changes (case, punctuation, numbers, HTML entities, CJK)."""
    hyps = ["The U.S. economy grew 3.5% in 2023, didn't it?", "机器翻译很有用。", "A &quot;b&quot;"]
    refs = [["the US economy grew by 3.5 % in 2023 , did n't it ?"],
            ["机器翻译非常有用。", "機器翻譯很有用"], ["a \"b\"", "A & b"]]  # fmt: skip
    assert sacre_ter(hyps, refs, **options) == run(hypotheses=hyps, references=refs, **options)


def test_omitted_options_are_false() -> None:
    """Omitted options are false, each alone changes the example's words somewhere."""
    hyps = ["Hello, World! 3.5-times", "机器翻译。"]
    refs = [["hello world 3.5 times"], ["机器 翻译"]]
    base = run(hypotheses=hyps, references=refs)
    assert (base, [True] * 4) == (
        run(hypotheses=hyps, references=refs, **dict.fromkeys(OPTIONS, False)),
        [run(hypotheses=hyps, references=refs, **{name: True}) != base for name in OPTIONS],
    )


@HARNESS.semantics_line(2)
def test_segment_statistics_are_sacrebleus() -> None:
    """Per segment: the fewest edits over its references (the first of equals), their average
    length and sacreBLEU's sentence score; a zero reference length scores 100 with edits and
    0 without."""
    hyps = ["a b c d", "a b c d", "x y", ""]
    refs = [["c d a b", "a b c e", "a b"], ["d c b a", "d c b a"], [""], [""]]
    result = run(hypotheses=hyps, references=refs)
    assert (sacre_ter(hyps, refs), [1, 3, 2, 0], [100.0, 0.0]) == (
        result,
        [s["edits"] for s in result["segments"]],
        [s["score"] for s in result["segments"][2:]],
    )
    assert [10 / 3, 4.0] == [s["ref_length"] for s in result["segments"][:2]]


def test_shifts_follow_sacrebleus_search() -> None:
    """Repeated words that invite many shifts, long blocks, far moves and a search that stops
    at its candidate limit: edits equal sacreBLEU's."""
    words = [f"w{i}" for i in range(40)]
    hyps = [
        " ".join("ab"[i % 2] for i in range(40)),
        " ".join(words[25:] + words[:25]),
        " ".join(words[i ^ 3] for i in range(40)),
        " ".join(["a"] * 40),
        " ".join("abcab"[i % 5] for i in range(40)),
    ]
    refs = [
        [" ".join("ba"[i % 2] for i in range(39))],
        [" ".join(words)],
        [" ".join(words), " ".join(reversed(words))],
        [" ".join(["a"] * 20 + ["b"] * 20)],
        [" ".join("bacba"[i % 5] for i in range(36))],
    ]
    assert sacre_ter(hyps, refs) == run(hypotheses=hyps, references=refs)


@HARNESS.semantics_line(3)
def test_corpus_fields_are_sacrebleus() -> None:
    """num_edits and ref_length sum the segments; score, text and signature are sacreBLEU's;
    nrefs is var for different numbers of references; TER may exceed 100."""
    var = [REFS[0], REFS[1][:1]]
    over = run(hypotheses=["a b c d"], references=[["e"]])
    result = run()
    assert (sacre_ter(HYPS, REFS), sacre_ter(HYPS, var)) == (result, run(references=var))
    assert (
        19.35483870967742,
        "TER = 19.35",
        "nrefs:2|case:lc|tok:tercom|norm:no|punct:yes|asian:no|version:2.6.0",
        3,
        15.5,
        "nrefs:var|case:lc|tok:tercom|norm:no|punct:yes|asian:no|version:2.6.0",
        "nrefs:1|case:mixed|tok:tercom|norm:yes|punct:no|asian:yes|version:2.6.0",
        (400.0, "TER = 400.00"),
    ) == (
        result["score"],
        result["text"],
        result["signature"],
        result["num_edits"],
        result["ref_length"],
        run(references=var)["signature"],
        run(references=[["a"], ["b"]], **dict.fromkeys(OPTIONS, True))["signature"],
        (over["score"], over["text"]),
    )


@HARNESS.semantics_line(4)
def test_numbers_are_sacrebleus_floats_in_javascript_form() -> None:
    """Floats are sacreBLEU's; an integral float is written as an integer; counts are ints."""
    text = mtcompute.dumps(mtcompute.execute(*TOOL, BASE))
    assert (
        '"num_edits":3,"ref_length":15.5,"segment_count":2,"segments":[{"edits":1,'
        '"ref_length":6.5,"score":15.384615384615385},{"edits":2,"ref_length":9,'
        '"score":22.22222222222222}]}}',
        (int, int),
    ) == (
        text[text.index('"num_edits"') :],
        (type(run()["num_edits"]), type(run()["segments"][0]["edits"])),
    )


@settings(max_examples=60, deadline=None)
@given(
    small_corpora("ab c.,", "abc ,.", max_size=14),
    st.sampled_from(combinations()),
)
def test_generated_corpora_score_as_sacrebleu(
    segments: list[tuple[str, list[str]]], options: dict[str, bool]
) -> None:
    """Small generated corpora (empty texts, punctuation only, repeated words, variable
    references) under every option combination: the result is sacreBLEU's."""
    hyps, refs = [h for h, _ in segments], [r for _, r in segments]
    assert sacre_ter(hyps, refs, **options) == run(hypotheses=hyps, references=refs, **options)


def _wmt(pair: str) -> tuple[list[str], list[list[str]]]:
    folder = WMT / pair
    system = sorted(folder.glob("sys.*.txt"))[0]
    refs = [read_lines(p) for p in sorted(folder.glob("ref.*.txt")) if ".tok." not in p.name]
    return read_lines(system), [list(r) for r in zip(*refs, strict=True)]


@pytest.mark.parametrize(
    ("pair", "options"),
    [
        ("generaltest2022/en-de", {}),
        ("generaltest2022/de-en", {"normalized": True}),
        (
            "generaltest2022/en-zh",
            {"normalized": True, "asian_support": True, "case_sensitive": True},
        ),
        ("generaltest2023/he-en", {"no_punct": True}),
    ],
    ids=str,
)
def test_wmt_systems_score_as_sacrebleu(pair: str, options: dict[str, bool]) -> None:
    """A WMT system against all of its pair's references (the first 40 segments, sacreBLEU
    being slow): the result is sacreBLEU's, per segment and corpus."""
    if not (WMT / pair).is_dir():
        pytest.skip(f"{pair} is not in the WMT data in use")
    hyps, refs = _wmt(pair)
    hyps, refs = hyps[:40], refs[:40]
    assert sacre_ter(hyps, refs, **options) == run(hypotheses=hyps, references=refs, **options)


ONE_OVER = ["é" * (MAX_TEXT_BYTES // 4), "é" * (MAX_TEXT_BYTES // 4)]
LONG = " ".join(["a"] * (MAX_SEGMENT_WORDS + 1))
ERRORS = [
    HARNESS.missing("hypotheses"),
    HARNESS.missing("references"),
    *HARNESS.common("hypotheses", "not an array", "4097", "empty"),
    ("hypotheses", "invalid_input", "not a string", input_with(hypotheses=["a", 1]),
     "/hypotheses/1", "Expected a string at /hypotheses/1, got 1."),
    ("hypotheses", "limit_exceeded", "1025 words", input_with(hypotheses=["a", LONG]),
     "/hypotheses/1", "Expected at most 1024 words at /hypotheses/1 after tercom tokenization "
     "(limit max segment words), got 1025."),
    *HARNESS.common("references", "segment not an array", "9 references", "no reference",
                    "different counts", "text bytes", "lone surrogate"),
    ("references", "invalid_input", "not a string", input_with(references=[REFS[0], [None]]),
     "/references/1/0", "Expected a string at /references/1/0, got null."),
    ("references", "limit_exceeded", "1025 words after tokenization",
     input_with(references=[REFS[0], ["a," * 513]], normalized=True), "/references/1/0",
     "Expected at most 1024 words at /references/1/0 after tercom tokenization (limit max "
     "segment words), got 1026."),
    ("hypotheses", "limit_exceeded", "aligned words",
     input_with(hypotheses=[" ".join(["a"] * 1024)] * 17, references=[["a"] * 8] * 17), "",
     "Expected at most 131072 aligned words (each hypothesis's words times its references, "
     "summed over segments; limit max aligned words), got 139264."),
    ("case_sensitive", "invalid_input", "not a boolean", input_with(case_sensitive="yes"),
     "/case_sensitive", 'Expected true or false at /case_sensitive, got the string "yes".'),
    ("normalized", "invalid_input", "not a boolean", input_with(normalized=1),
     "/normalized", "Expected true or false at /normalized, got 1."),
    ("no_punct", "invalid_input", "not a boolean", input_with(no_punct=None),
     "/no_punct", "Expected true or false at /no_punct, got null."),
    ("asian_support", "invalid_input", "not a boolean", input_with(asian_support=[True]),
     "/asian_support", "Expected true or false at /asian_support, got an array of 1 item."),
    ("tokenize", "invalid_input", "unknown key", input_with(tokenize="13a"), "/tokenize",
     'Unknown key "tokenize" in the input; expected only hypotheses, references, '
     "case_sensitive, normalized, no_punct, asian_support."),
]  # fmt: skip
HARNESS.declare(ERRORS, errors_line=5, unchanged=input_with(normalized=True, asian_support=True))


def test_the_limits_themselves_are_accepted() -> None:
    """4096 segments with 8 references each, exactly 4194304 UTF-8 bytes, texts of 1024
    words and exactly 131072 aligned words are scored."""
    most = run(
        hypotheses=["a b"] * MAX_SEGMENTS, references=[["a b"] * MAX_REFERENCES] * MAX_SEGMENTS
    )
    half = "é" * (MAX_TEXT_BYTES // 4)
    full = run(hypotheses=[half, "abc"], references=[[half[:-2]], ["a"]])
    words = " ".join(["a"] * MAX_SEGMENT_WORDS)
    aligned = run(hypotheses=[words] * 16, references=[[words] * 8] * 16)
    assert (MAX_SEGMENTS, "nrefs:8|", 2, 16, 0) == (
        most["segment_count"],
        most["signature"][:8],
        full["segment_count"],
        aligned["segment_count"],
        aligned["num_edits"],
    )


def test_words_are_counted_as_they_are_aligned() -> None:
    """The words the limits count are the ones TER aligns: a reference's count is its
    ref_length, under options that split and remove words."""
    options = {"normalized": True, "no_punct": True, "asian_support": True}
    texts = ["Hello, world! 3.5-times &quot;x&quot;", "机器翻译很有用。", "a.b,c", ""]
    ter_options = ter_scoring.TerOptions(**options)
    lengths = [
        run(hypotheses=["x"], references=[[text]], **options)["ref_length"] for text in texts
    ]
    assert lengths == [ter_words(text, ter_options, reference=True) for text in texts]


def test_every_wmt_test_set_fits() -> None:
    """The largest WMT test set in the aligned words (en-zh, two references, normalized and
    asian_support: the contract's 116340) and in bytes (en-hi: 955787) are scored."""
    if WMT_IS_SAMPLE:
        pytest.skip("the full WMT data is not here")
    options = {"normalized": True, "asian_support": True}
    ter_options = ter_scoring.TerOptions(**options)
    folder = Path(WMT / "generaltest2022/en-zh")
    system = read_lines(folder / "sys.JDExploreAcademy.txt")
    references = [read_lines(p) for p in sorted(folder.glob("ref.*.txt"))]
    refs = [list(r) for r in zip(*references, strict=True)]
    aligned = sum(
        ter_words(h, ter_options, reference=False) * len(r)
        for h, r in zip(system, refs, strict=True)
    )
    hindi, hindi_refs = _wmt("wmttest2024/en-hi")
    semantics = contract(*TOOL)["semantics"][5]
    assert (116_340, True, 2037, 998) == (
        aligned,
        "is 116340 (generaltest2022 en-zh" in semantics,
        run(hypotheses=system, references=refs, **options)["segment_count"],
        run(hypotheses=hindi, references=hindi_refs)["segment_count"],
    )


@HARNESS.semantics_line(6)
def test_validation_order() -> None:
    """The first failing check in the contract's order decides the error."""
    cases = [
        *HARNESS.corpus_order_cases(normalized="x"),
        (input_with(hypotheses=[LONG, "a"], normalized="x", asian_support=1), "/normalized"),
        (input_with(hypotheses=[LONG, "a"], asian_support=1), "/asian_support"),
        (input_with(hypotheses=["a", LONG], references=[[LONG], ["a"]]), "/hypotheses/1"),
        (input_with(hypotheses=["a" * 8] * 17, references=[[LONG]] * 17), "/references/0/0"),
    ]
    HARNESS.assert_paths(cases)


def test_the_result_is_frozen() -> None:
    """The typed result and its segments are frozen."""
    result = ter_compute(HYPS, REFS)
    HARNESS.assert_frozen(result, "score")
    HARNESS.assert_frozen(result.segments[0], "edits")
