"""sacrebleu-score@1.0.0 (one test per semantics line, the error table and the limits), and
1.1.0 (what it adds: TER), whose answer to every 1.0.0 input is 1.0.0's.

sacreBLEU 2.6.0 is the reference; the WMT data and the option grids are in
tests/tools/test_sacrebleu_tools.py, whose sacreBLEU answers in the tool's shape are reused here.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mtcompute
from mtcompute.contracts import contract
from mtcompute.tools.sacrebleu_score import sacrebleu_score
from mtcompute.tools.sacrebleu_score_1_0_0 import sacrebleu_score_1_0_0
from tests.conftest import shared_file
from tests.harness import ToolHarness, error_table, no_download
from tests.strategies import small_corpora
from tests.tools.test_sacrebleu_tools import sacre_bleu, sacre_chrf
from tests.tools.test_tool_ter_compute import OPTIONS, combinations, sacre_ter

TOOL = ("sacrebleu-score", "1.0.0")
HYPS = ["The cat sat on mat.", "A quick brown fox jumps over the dog."]
REFS = [
    ["The cat sat on the mat.", "There is a cat on the mat."],
    ["A fast brown fox jumped over the lazy dog.", "The quick brown fox jumps over the lazy dog."],
]
BASE: dict[str, Any] = {"hypotheses": HYPS, "references": REFS, "metrics": ["bleu", "chrf"]}
MAX_SEGMENTS, MAX_REFERENCES, MAX_TEXT_BYTES = 4096, 8, 4_194_304

HARNESS = ToolHarness(TOOL, BASE)
run, input_with, error = HARNESS.run, HARNESS.input_with, HARNESS.error


# --- one test per semantics line ------------------------------------------------------------


@HARNESS.semantics_line(0)
def test_references_are_laid_out_per_segment() -> None:
    """references[i] are segment i's references, in any number per segment; texts may be
    empty; swapping the references of two segments changes the score."""
    refs = [["The cat sat on the mat."], ["", "A fast brown fox.", "The quick brown fox."], [""]]
    hyps = ["The cat sat on mat.", "A quick brown fox.", ""]
    result = run(hypotheses=hyps, references=refs)
    swapped = run(references=[REFS[1], REFS[0]])
    assert (sacre_bleu(hyps, refs), sacre_chrf(hyps, refs), True) == (
        result["bleu"],
        result["chrf"],
        swapped["bleu"]["score"] < run()["bleu"]["score"],
    )


@HARNESS.semantics_line(1)
def test_metrics_choose_the_objects_of_the_result() -> None:
    """The result has segment_count and each listed metric's object, bleu before chrf
    whatever the order of metrics; an object of options for a metric not listed is refused."""
    assert (
        ["segment_count", "bleu", "chrf"],
        ["segment_count", "bleu"],
        ["segment_count", "chrf"],
        ("invalid_input", "/bleu"),
    ) == (
        list(run(metrics=["chrf", "bleu"])),
        list(run(metrics=["bleu"])),
        list(run(metrics=["chrf"])),
        error(input_with(metrics=["chrf"], bleu={}))[:2],
    )


@HARNESS.semantics_line(2)
def test_bleu_options_and_their_defaults() -> None:
    """Omitted BLEU options are sacreBLEU's defaults; each option is sacreBLEU's; the
    tokens are bleu-tokenize's (tokenize none on its joined tokens gives the same counts)."""
    defaults = {
        "tokenize": "13a",
        "lowercase": False,
        "smooth_method": "exp",
        "max_ngram_order": 4,
        "effective_order": False,
    }
    options = {"tokenize": "char", "lowercase": True, "smooth_method": "floor", "smooth_value": 0.2,
               "max_ngram_order": 3, "effective_order": True}  # fmt: skip
    joined = [
        [" ".join(t) for t in mtcompute.execute("bleu-tokenize", "1.0.0", {"segments": texts})[
            "result"]["tokens"]]
        for texts in (HYPS, *REFS)
    ]  # fmt: skip
    tokenized = run(hypotheses=joined[0], references=[joined[1], joined[2]], metrics=["bleu"],
                    bleu={"tokenize": "none"})  # fmt: skip
    assert (run()["bleu"], sacre_bleu(HYPS, REFS, **options)) == (
        run(bleu=defaults)["bleu"],
        run(bleu=options)["bleu"],
    )
    assert run()["bleu"]["counts"] == tokenized["bleu"]["counts"]


@HARNESS.semantics_line(3)
def test_bleu_fields_are_sacrebleus() -> None:
    """score, text, signature and the statistics are sacreBLEU's; nrefs is var for segments
    with different numbers of references; add-k's counts are the smoothed ones."""
    var = [REFS[0], REFS[1][:1]]
    add_k = {"smooth_method": "add-k", "smooth_value": 0.5}
    result, varied, smoothed = run()["bleu"], run(references=var)["bleu"], run(bleu=add_k)["bleu"]
    assert (sacre_bleu(HYPS, REFS), sacre_bleu(HYPS, var), sacre_bleu(HYPS, REFS, **add_k)) == (
        result,
        varied,
        smoothed,
    )
    assert (
        "BLEU = 57.51 100.0/76.9/54.5/44.4 (BP = 0.875 ratio = 0.882 hyp_len = 15 ref_len = 17)",
        "nrefs:2|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0",
        "nrefs:var|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0",
        [15, 10.5, 6.5, 4.5],
    ) == (result["text"], result["signature"], varied["signature"], smoothed["counts"])


@HARNESS.semantics_line(4)
def test_chrf_options_and_the_best_reference() -> None:
    """chrF options are sacreBLEU's (defaults when omitted); each segment is scored against
    its best reference, the first of equals."""
    best_second = [["zzz"], ["The cat sat on the mat.", "The cat sat on mat."]]
    hyps = ["The cat sat on mat.", "The cat sat on mat."]
    defaults = {"char_order": 6, "word_order": 0, "beta": 2, "lowercase": False,
                "whitespace": False, "eps_smoothing": False}  # fmt: skip
    options = {
        "char_order": 3,
        "word_order": 1,
        "beta": 1,
        "lowercase": True,
        "eps_smoothing": True,
    }
    assert (
        run()["chrf"],
        sacre_chrf(HYPS, REFS, **options),
        sacre_chrf(hyps, best_second),
    ) == (
        run(chrf=defaults)["chrf"],
        run(chrf=options)["chrf"],
        run(hypotheses=hyps, references=best_second)["chrf"],
    )


@HARNESS.semantics_line(5)
def test_chrf_fields_are_sacrebleus() -> None:
    """name, score, text, signature and the per-order statistics (char orders, then word
    orders) are sacreBLEU's."""
    plus = run(chrf={"word_order": 2, "beta": 3})["chrf"]
    assert (
        sacre_chrf(HYPS, REFS, word_order=2, beta=3),
        "chrF3++",
        ["char"] * 6 + ["word"] * 2,
    ) == (
        plus,
        plus["name"],
        [order["kind"] for order in plus["orders"]],
    )
    assert (
        "chrF2 = 72.15",
        "nrefs:2|case:mixed|eff:yes|nc:6|nw:0|space:no|version:2.6.0",
        "chrF3++ = " + f"{plus['score']:.2f}",
    ) == (run()["chrf"]["text"], run()["chrf"]["signature"], plus["text"])


@HARNESS.semantics_line(6)
def test_numbers_are_sacrebleus_floats_in_javascript_form() -> None:
    """Floats are sacreBLEU's; an integral float is written as an integer; integer options
    accept 4.0."""
    same = run(hypotheses=["a b c d e"], references=[["a b c d e"]], metrics=["bleu"])
    text = mtcompute.dumps(mtcompute.execute(*TOOL, input_with(hypotheses=["a b c d e"],
                           references=[["a b c d e"]], metrics=["bleu"])))  # fmt: skip
    assert (
        sacre_bleu(["a b c d e"], [["a b c d e"]]),
        True,
        run(bleu={"max_ngram_order": 4.0}),
    ) == (
        same["bleu"],
        '"precisions":[100,100,100,100],"bp":1,' in text,
        run(),
    )


@settings(max_examples=80, deadline=None)
@given(
    small_corpora("ab c.", "abc .", max_size=12),
    st.sampled_from([{}, {"word_order": 2}, {"eps_smoothing": True, "char_order": 2}]),
    st.sampled_from(
        [{}, {"smooth_method": "none"}, {"smooth_method": "add-k"}, {"effective_order": True}]
    ),
)
def test_generated_corpora_score_as_sacrebleu(
    segments: list[tuple[str, list[str]]], chrf: dict[str, Any], bleu: dict[str, Any]
) -> None:
    """Small generated corpora (empty texts, repeated characters, variable references): the
    tool's bleu and chrf objects are sacreBLEU's."""
    hyps, refs = [h for h, _ in segments], [r for _, r in segments]
    result = run(hypotheses=hyps, references=refs, bleu=bleu, chrf=chrf)
    assert (sacre_bleu(hyps, refs, **bleu), sacre_chrf(hyps, refs, **chrf)) == (
        result["bleu"],
        result["chrf"],
    )


ONE_OVER = ["é" * (MAX_TEXT_BYTES // 4), "é" * (MAX_TEXT_BYTES // 4)]
ERRORS = [
    HARNESS.missing("hypotheses"),
    HARNESS.missing("references"),
    HARNESS.missing("metrics"),
    *HARNESS.common("hypotheses", "not an array", "4097", "empty"),
    ("hypotheses", "invalid_input", "not a string", input_with(hypotheses=["a", None]),
     "/hypotheses/1", "Expected a string at /hypotheses/1, got null."),
    *HARNESS.common("references", "segment not an array", "9 references", "no reference",
                    "different counts", "text bytes", "lone surrogate"),
    ("metrics", "invalid_input", "empty", input_with(metrics=[]), "/metrics",
     "Expected at least 1 metric at /metrics, got none."),
    ("metrics", "invalid_input", "unknown", input_with(metrics=["bleu", "ter"]), "/metrics/1",
     'Expected one of bleu, chrf at /metrics/1, got the string "ter".'),
    ("metrics", "invalid_input", "chrF++ is chrf", input_with(metrics=["chrf++"]), "/metrics/0",
     'Expected one of bleu, chrf at /metrics/0, got the string "chrf++".'),
    ("metrics", "invalid_input", "repeated", input_with(metrics=["chrf", "chrf"]), "/metrics/1",
     'Expected each metric once at /metrics, got "chrf" again at /metrics/1.'),
    ("metrics", "invalid_input", "three", input_with(metrics=["bleu", "chrf", "bleu"]), "/metrics",
     "Expected at most 2 metrics at /metrics, got 3."),
    ("bleu", "invalid_input", "not an object", input_with(bleu="13a"), "/bleu",
     'Expected an object of bleu options at /bleu, got the string "13a".'),
    ("bleu", "invalid_input", "unknown option", input_with(bleu={"tokenizer": "13a"}),
     "/bleu/tokenizer", 'Unknown key "tokenizer" at /bleu; expected only tokenize, lowercase, '
     "smooth_method, smooth_value, max_ngram_order, effective_order."),
    ("bleu", "unsupported_input", "spm", input_with(bleu={"tokenize": "flores200"}),
     "/bleu/tokenize", no_download("flores200", "/bleu/tokenize")),
    ("bleu", "invalid_input", "unknown tokenizer", input_with(bleu={"tokenize": "moses"}),
     "/bleu/tokenize", "Expected one of none, zh, 13a, intl, char, ja-mecab, ko-mecab, spm, "
     'flores101, flores200, spBLEU-1K at /bleu/tokenize, got the string "moses".'),
    ("bleu", "invalid_input", "smooth_method", input_with(bleu={"smooth_method": "method3"}),
     "/bleu/smooth_method", 'Expected one of none, floor, add-k, exp at /bleu/smooth_method, '
     'got the string "method3".'),
    ("bleu", "invalid_input", "smooth_value range", input_with(bleu={"smooth_method": "floor",
     "smooth_value": 2}), "/bleu/smooth_value",
     "Expected a smooth_value from 0 to 1 with smooth_method floor at /bleu/smooth_value, got 2."),
    ("bleu", "invalid_input", "smooth_value with exp", input_with(bleu={"smooth_value": 0.1}),
     "/bleu/smooth_value", "Expected no smooth_value with smooth_method exp at /bleu/smooth_value "
     "(smooth_value applies to floor and add-k only), got one."),
    ("bleu", "invalid_input", "max_ngram_order", input_with(bleu={"max_ngram_order": 9}),
     "/bleu/max_ngram_order", "Expected an integer of at most 8 at /bleu/max_ngram_order, got 9."),
    ("bleu", "invalid_input", "effective_order", input_with(bleu={"effective_order": "yes"}),
     "/bleu/effective_order", 'Expected true or false at /bleu/effective_order, got the string '
     '"yes".'),
    ("chrf", "invalid_input", "not an object", input_with(chrf=[2]), "/chrf",
     "Expected an object of chrf options at /chrf, got an array of 1 item."),
    ("chrf", "invalid_input", "char_order", input_with(chrf={"char_order": 0}), "/chrf/char_order",
     "Expected an integer of at least 1 at /chrf/char_order, got 0."),
    ("chrf", "invalid_input", "word_order", input_with(chrf={"word_order": 5}), "/chrf/word_order",
     "Expected an integer of at most 4 at /chrf/word_order, got 5."),
    ("chrf", "invalid_input", "beta", input_with(chrf={"beta": 2.5}), "/chrf/beta",
     "Expected an integer at /chrf/beta, got 2.5."),
    ("chrf", "invalid_input", "whitespace", input_with(chrf={"whitespace": None}),
     "/chrf/whitespace", "Expected true or false at /chrf/whitespace, got null."),
    ("chrf", "invalid_input", "not listed", input_with(metrics=["bleu"], chrf={}), "/chrf",
     "Expected chrf options only with chrf in metrics at /chrf, got them with metrics bleu."),
]  # fmt: skip
HARNESS.declare(
    ERRORS,
    errors_line=7,
    unchanged=input_with(bleu={"smooth_method": "add-k"}, chrf={"word_order": 2}),
)


def test_the_limits_themselves_are_accepted() -> None:
    """4096 segments with 8 references each, and exactly 4194304 UTF-8 bytes, are scored."""
    most = run(
        hypotheses=["a b"] * MAX_SEGMENTS, references=[["a b"] * MAX_REFERENCES] * MAX_SEGMENTS
    )
    half = "é" * (MAX_TEXT_BYTES // 4)
    full = run(hypotheses=[half, "abc"], references=[[half[:-2]], ["a"]], metrics=["chrf"])
    assert (MAX_SEGMENTS, "nrefs:8|", 2) == (
        most["segment_count"],
        most["bleu"]["signature"][:8],
        full["segment_count"],
    )


def test_the_text_limit_holds_the_largest_wmt_test_set() -> None:
    """The largest WMT pair in the shared data (one system and all its references) is the
    contract's 955787 bytes, under max text bytes."""
    manifest = shared_file("data/wmt/MANIFEST.tsv").read_text(encoding="utf-8").splitlines()
    header = manifest[0].split("\t")
    rows = [dict(zip(header, line.split("\t"), strict=True)) for line in manifest[1:]]
    refs: dict[str, int] = {}
    largest_system: dict[str, int] = {}
    for row in rows:
        if row["file"].endswith(".tok.txt"):
            continue
        pair, size = f"{row['testset']}/{row['pair']}", int(row["bytes"])
        if row["file"].startswith("ref."):
            refs[pair] = refs.get(pair, 0) + size
        else:
            largest_system[pair] = max(largest_system.get(pair, 0), size)
    largest = max(refs[p] + largest_system[p] for p in refs)
    semantics = contract(*TOOL)["semantics"][7]
    assert (955_787, True, True) == (
        largest,
        largest <= MAX_TEXT_BYTES,
        f"is {largest} bytes" in semantics,
    )


@HARNESS.semantics_line(8)
def test_validation_order() -> None:
    """The first failing check in the contract's order decides the error."""
    cases = [
        *HARNESS.corpus_order_cases(metrics="x"),
        (input_with(metrics=["ter", "ter"], bleu=1), "/metrics/0"),
        (input_with(metrics=["bleu", "bleu"], bleu=1), "/metrics/1"),
        (input_with(bleu={"x": 1, "tokenize": "spm"}), "/bleu/x"),
        (input_with(bleu={"tokenize": "spm", "lowercase": 1}), "/bleu/tokenize"),
        (input_with(bleu={"smooth_value": 0.5, "max_ngram_order": 0}), "/bleu/max_ngram_order"),
        (input_with(bleu={"smooth_value": 0.5}, chrf={"beta": 0}), "/bleu/smooth_value"),
        (input_with(chrf={"eps_smoothing": 1, "char_order": 0}), "/chrf/char_order"),
        (input_with(metrics=["chrf"], bleu={}, chrf={"beta": 0}), "/chrf/beta"),
    ]
    HARNESS.assert_paths(cases)


def test_the_result_is_frozen() -> None:
    """The typed result and its metric objects are frozen."""
    result = sacrebleu_score_1_0_0(HYPS, REFS, ["bleu", "chrf"])
    HARNESS.assert_frozen(result, "bleu")
    HARNESS.assert_frozen(result.bleu, "score")


@pytest.mark.parametrize("metric", ["bleu", "chrf"])
def test_omitted_options_object_is_the_empty_one(metric: str) -> None:
    """An omitted options object scores as an empty one."""
    assert run(metrics=[metric]) == run(metrics=[metric], **{metric: {}})


# --- 1.1.0: TER added, every 1.0.0 answer kept ---------------------------------------------

TOOL_1_1 = ("sacrebleu-score", "1.1.0")
HARNESS_1_1 = ToolHarness(TOOL_1_1, {**BASE, "metrics": ["bleu", "chrf", "ter"]})
MAX_SEGMENT_WORDS, MAX_ALIGNED_WORDS = 1024, 131_072


def _ter_of(hyps: list[str], refs: list[list[str]], **options: bool) -> dict[str, Any]:
    """sacreBLEU 2.6.0's corpus TER in the shape of the tool's ter object."""
    corpus = sacre_ter(hyps, refs, **options)
    return {"name": "TER", **{k: corpus[k] for k in ("score", "text", "signature", "num_edits",
            "ref_length")}}  # fmt: skip


def _same_answers_as_1_0_0() -> list[Any]:
    """Inputs of the 1.0.0 tests that ask for no TER and whose answers name no metric list."""
    inputs: list[Any] = [example["input"] for example in contract(*TOOL)["examples"]]
    inputs += [row[3] for row in ERRORS if row[0] != "metrics"]
    inputs += [
        input_with(references=[REFS[0], REFS[1][:1]]),
        input_with(chrf={"word_order": 2}),
        input_with(bleu={"smooth_method": "add-k", "smooth_value": 0.5}),
        [BASE],
        "x",
    ]
    return inputs


@HARNESS_1_1.semantics_line(0)
@HARNESS_1_1.semantics_line(2)
@HARNESS_1_1.semantics_line(3)
@HARNESS_1_1.semantics_line(4)
@HARNESS_1_1.semantics_line(5)
def test_1_1_0_answers_the_1_0_0_inputs_as_1_0_0() -> None:
    """1.1.0 gives every input of the 1.0.0 tests that asks for no TER (the examples, the
    error table but for metrics, other layouts and options) 1.0.0's envelope, byte for byte."""
    inputs = _same_answers_as_1_0_0()
    assert [mtcompute.dumps(mtcompute.execute(*TOOL, raw)) for raw in inputs] == [
        mtcompute.dumps(mtcompute.execute(*TOOL_1_1, raw)) for raw in inputs
    ]


@HARNESS_1_1.semantics_line(1)
def test_1_1_0_metrics_add_ter() -> None:
    """metrics may list ter (the result's objects in bleu, chrf, ter order, whatever the order
    of metrics); the metric-list messages name ter and a count of 3; ter options only with
    ter in metrics."""
    run_1_1, error_1_1, with_1_1 = HARNESS_1_1.run, HARNESS_1_1.error, HARNESS_1_1.input_with
    assert (
        ["segment_count", "bleu", "chrf", "ter"],
        ["segment_count", "ter"],
        ("invalid_input", "/metrics/1", 'Expected one of bleu, chrf, ter at /metrics/1, got the '
         'string "meteor".'),
        ("invalid_input", "/metrics", "Expected at most 3 metrics at /metrics, got 4."),
        ("invalid_input", "/metrics/2", 'Expected each metric once at /metrics, got "bleu" again '
         "at /metrics/2."),
        ("invalid_input", "/metrics", "Expected an array of metric names (bleu, chrf, ter) at "
         '/metrics, got the string "ter".'),
        ("invalid_input", "/ter", "Expected ter options only with ter in metrics at /ter, got "
         "them with metrics bleu, chrf."),
    ) == (
        list(run_1_1(metrics=["ter", "chrf", "bleu"])),
        list(run_1_1(metrics=["ter"])),
        error_1_1(with_1_1(metrics=["ter", "meteor"])),
        error_1_1(with_1_1(metrics=["bleu", "chrf", "ter", "bleu"])),
        error_1_1(with_1_1(metrics=["bleu", "chrf", "bleu"])),
        error_1_1(with_1_1(metrics="ter")),
        error_1_1(with_1_1(metrics=["bleu", "chrf"], ter={})),
    )  # fmt: skip


@HARNESS_1_1.semantics_line(6)
@pytest.mark.parametrize("options", combinations(), ids=lambda o: "+".join(k for k in o if o[k]))
def test_1_1_0_ter_is_sacrebleus(options: dict[str, bool]) -> None:
    """ter under each combination of its options is sacreBLEU's corpus TER, and ter-compute's
    corpus figures, on text each option changes and segments with different numbers of
    references."""
    hyps = ["The U.S. economy grew 3.5% in 2023, didn't it?", "机器翻译很有用。", ""]
    refs = [["the US economy grew by 3.5 % in 2023 , did n't it ?", "It grew."],
            ["机器翻译非常有用。"], ["A &quot;b&quot;"]]  # fmt: skip
    ter = HARNESS_1_1.run(hypotheses=hyps, references=refs, metrics=["ter"], ter=options)["ter"]
    alone = mtcompute.execute("ter-compute", "1.0.0", {"hypotheses": hyps, "references": refs,
                              **options})["result"]  # fmt: skip
    assert (_ter_of(hyps, refs, **options), [alone[k] for k in ("score", "num_edits")]) == (
        ter,
        [ter["score"], ter["num_edits"]],
    )


@HARNESS_1_1.semantics_line(7)
def test_1_1_0_ter_fields_are_sacrebleus() -> None:
    """name, score, text, signature, num_edits and ref_length are sacreBLEU's (nrefs var for
    different numbers of references; TER over 100 for long hypotheses)."""
    run_1_1 = HARNESS_1_1.run
    var = [REFS[0], REFS[1][:1]]
    assert (
        {"name": "TER", "score": 19.35483870967742, "text": "TER = 19.35",
         "signature": "nrefs:2|case:lc|tok:tercom|norm:no|punct:yes|asian:no|version:2.6.0",
         "num_edits": 3, "ref_length": 15.5},
        _ter_of(HYPS, var),
        ("TER = 300.00", "nrefs:1|case:mixed|tok:tercom|norm:yes|punct:no|asian:yes|version:2.6.0"),
        run_1_1(metrics=["ter"], ter={})["ter"],
    ) == (
        run_1_1()["ter"],
        run_1_1(references=var)["ter"],
        tuple(run_1_1(hypotheses=["a b c"], references=[["d"]], metrics=["ter"],
              ter=dict.fromkeys(OPTIONS, True))["ter"][k] for k in ("text", "signature")),
        run_1_1(metrics=["ter"])["ter"],
    )  # fmt: skip


@HARNESS_1_1.semantics_line(8)
def test_1_1_0_ter_numbers_in_javascript_form() -> None:
    """TER's floats are sacreBLEU's, an integral one written as an integer; num_edits an int."""
    text = mtcompute.dumps(mtcompute.execute(*TOOL_1_1, HARNESS_1_1.input_with(
        hypotheses=["a b"], references=[["a c d"]], metrics=["ter"])))  # fmt: skip
    assert '"ter":{"name":"TER","score":66.66666666666666,"text":"TER = 66.67",' in text
    assert text.endswith('"num_edits":2,"ref_length":3}}}')


LONG = " ".join(["a"] * (MAX_SEGMENT_WORDS + 1))
with_1_1 = HARNESS_1_1.input_with
ERRORS_1_1 = [
    ("ter", "invalid_input", "not an object", with_1_1(ter=True), "/ter",
     "Expected an object of ter options at /ter, got true."),
    ("ter", "invalid_input", "unknown option", with_1_1(ter={"normalize": True}), "/ter/normalize",
     'Unknown key "normalize" at /ter; expected only normalized, no_punct, asian_support, '
     "case_sensitive."),
    ("ter", "invalid_input", "not a boolean", with_1_1(ter={"no_punct": 0}), "/ter/no_punct",
     "Expected true or false at /ter/no_punct, got 0."),
    ("ter", "limit_exceeded", "1025 words", with_1_1(hypotheses=[LONG, "a"]), "/hypotheses/0",
     "Expected at most 1024 words at /hypotheses/0 after tercom tokenization (limit max segment "
     "words), got 1025."),
    ("ter", "limit_exceeded", "1026 words normalized",
     with_1_1(references=[REFS[0], ["a," * 513]], ter={"normalized": True}), "/references/1/0",
     "Expected at most 1024 words at /references/1/0 after tercom tokenization (limit max "
     "segment words), got 1026."),
    ("ter", "limit_exceeded", "aligned words",
     with_1_1(hypotheses=[" ".join(["a"] * 1024)] * 17, references=[["a"] * 8] * 17), "",
     "Expected at most 131072 aligned words (each hypothesis's words times its references, "
     "summed over segments; limit max aligned words), got 139264."),
]  # fmt: skip


@HARNESS_1_1.semantics_line(9)
@error_table(ERRORS_1_1)
def test_1_1_0_ter_error_table(
    field: str, code: str, case: str, raw: Any, path: str, message: str
) -> None:
    """Each fault of ter gets its code, path and whole message, the typed function the same;
    the word limits apply only when metrics lists ter."""
    assert (code, path, message) == HARNESS_1_1.error(raw)
    HARNESS_1_1.assert_raises_as_envelope(code, raw, sacrebleu_score)
    if code == "limit_exceeded":
        without = {k: v for k, v in raw.items() if k != "ter"} | {"metrics": ["bleu"]}
        assert "result" in mtcompute.execute(*TOOL_1_1, without)


def test_1_1_0_limits_are_1_0_0s_and_ter_computes() -> None:
    """1.1.0's limits are 1.0.0's and ter-compute's word limits, figure for figure."""
    limits = contract(*TOOL_1_1)["limits"]
    ter_limits = contract("ter-compute", "1.0.0")["limits"]
    assert (
        contract(*TOOL)["limits"],
        {k: ter_limits[k] for k in ("max_segment_words", "max_aligned_words")},
    ) == (
        {k: limits[k] for k in contract(*TOOL)["limits"]},
        {k: limits[k] for k in ("max_segment_words", "max_aligned_words")},
    )


@HARNESS_1_1.semantics_line(10)
def test_1_1_0_validation_order() -> None:
    """The first failing check in the contract's order decides the error."""
    cases = [
        (with_1_1(metrics=["ter", "ter"], ter=1), "/metrics/1"),
        (with_1_1(chrf={"beta": 0}, ter=1), "/chrf/beta"),
        (with_1_1(ter={"x": 1, "no_punct": 1}), "/ter/x"),
        (with_1_1(metrics=["bleu"], ter={}, hypotheses=[LONG, "a"]), "/ter"),
        (with_1_1(hypotheses=["a", LONG], references=[[LONG], ["a"]]), "/hypotheses/1"),
        (with_1_1(hypotheses=["a" * 8] * 17, references=[[LONG]] * 17), "/references/0/0"),
    ]
    assert [path for _, path in cases] == [HARNESS_1_1.error(raw)[1] for raw, _ in cases]


def test_1_1_0_every_semantics_line_has_a_test() -> None:
    """Each semantics line of the 1.1.0 contract has its test here."""
    HARNESS_1_1.assert_every_semantics_line_tested()
