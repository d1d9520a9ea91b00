"""wer-compute@1.0.0: one test per semantics line, the error table, the limits, and jiwer.

jiwer 4.0 is the reference (:mod:`tests.jiwer_oracle`): ``process_words`` over the corpus and
over each segment alone, with the transforms of the tool's options. The generated cases and
the WMT data are in tests/metrics/test_differential_jiwer.py.
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from mtcompute.contracts import contract
from mtcompute.tools.wer_compute import wer_compute
from tests.harness import ToolHarness
from tests.jiwer_oracle import NORMALISATIONS, UNITS, jiwer_result, jiwer_segment_score

TOOL = ("wer-compute", "1.0.0")
HYPS = ["the cat sat on mat", "a quick brown fox jumps over the dog"]
REFS = ["the cat sat on the mat", "a fast brown fox jumped over the lazy dog"]
BASE: dict[str, Any] = {"hypotheses": HYPS, "references": REFS}
MAX_SEGMENTS, MAX_TEXT_BYTES, MAX_SEGMENT_UNITS = 4096, 4_194_304, 4096

HARNESS = ToolHarness(TOOL, BASE)
run, input_with, error = HARNESS.run, HARNESS.input_with, HARNESS.error


def combinations() -> list[dict[str, Any]]:
    """Both units with each of the 8 combinations of the three normalisations."""
    return [
        {"unit": unit, **dict(zip(NORMALISATIONS, bits, strict=True))}
        for unit in UNITS
        for bits in itertools.product((False, True), repeat=3)
    ]


def _name(options: dict[str, Any]) -> str:
    return "+".join([options["unit"], *(k for k in NORMALISATIONS if options[k])])


# --- one test per semantics line ------------------------------------------------------------


@HARNESS.semantics_line(0)
def test_one_reference_per_segment() -> None:
    """references[i] is segment i's one reference; texts may be empty (a reference too, when
    another has words); swapping two segments' references changes the score."""
    hyps = ["the cat sat", "", "a b", "extra"]
    refs = ["the cat sat down", "nothing said", "", "b"]
    swapped = run(references=[REFS[1], REFS[0]])
    assert (jiwer_result(hyps, refs), True) == (
        run(hypotheses=hyps, references=refs),
        swapped["score"] > run()["score"],
    )


TEXTS = (
    [
        "Hello,  World!\tHow are you?",
        "It's   FINE.",
        "  «Ça va?» — oui…  ",
        "a\tb c\n\nd",
        "¿Qué?",
        "The End",
    ],
    ["hello world how are you", "it is fine", "ça va oui", "a b c d", "Que", "the end"],
)


@HARNESS.semantics_line(1)
@pytest.mark.parametrize("options", combinations(), ids=_name)
def test_normalisations_are_jiwers_transforms(options: dict[str, Any]) -> None:
    """Each unit with each combination of the normalisations scores as jiwer with
    ToLowerCase, RemovePunctuation, whitespace runs made one space, then its defaults, on
    text each option changes (case, ASCII and Unicode punctuation, tabs, line breaks, runs
    of spaces)."""
    hyps, refs = TEXTS
    assert jiwer_result(hyps, refs, **options) == run(hypotheses=hyps, references=refs, **options)


def test_omitted_options_are_jiwers_defaults() -> None:
    """Omitted options are word and false (jiwer's wer with its defaults: a lone tab does not
    split two words, two whitespace characters do); each option alone changes the result."""
    hyps, refs = TEXTS
    base = run(hypotheses=hyps, references=refs)
    changed = [
        run(hypotheses=hyps, references=refs, **{name: value}) != base
        for name, value in [("unit", "character")] + [(name, True) for name in NORMALISATIONS]
    ]
    tabbed = run(hypotheses=["a\tb", "a\t\tb"], references=["a", "a"])["segments"]
    words = [s["hypothesis_length"] for s in tabbed]
    assert (base, [True] * 4, [1, 2]) == (
        run(hypotheses=hyps, references=refs, unit="word", **dict.fromkeys(NORMALISATIONS, False)),
        changed,
        words,
    )


@HARNESS.semantics_line(2)
def test_segment_counts_are_jiwers_alignment() -> None:
    """Per segment: jiwer's hits, substitutions, deletions and insertions, among alignments
    of equal cost the one it reports (repeated words invite ties); the identities of the
    lengths; a segment whose reference has no units scores null where jiwer gives its
    insertions."""
    hyps = ["a b a b a", "b a", "x y z", "a a b b", "w v", "same text"]
    refs = ["b a b a b", "a b", "x z y", "b b a a", "", "same text"]
    result = run(hypotheses=hyps, references=refs)
    segments = result["segments"]
    assert (jiwer_result(hyps, refs), [0.4, 1.0, 2 / 3, 1.0, None, 0.0], 2.0) == (
        result,
        [s["score"] for s in segments],
        jiwer_segment_score(hyps[4], refs[4]),
    )
    assert all(
        (s["hits"] + s["substitutions"] + s["deletions"], s["hits"] + s["substitutions"]
         + s["insertions"]) == (s["reference_length"], s["hypothesis_length"])
        for s in segments
    )  # fmt: skip


@HARNESS.semantics_line(3)
def test_corpus_fields_are_jiwers() -> None:
    """metric names the unit; the corpus counts are the segments' sums, the score jiwer's
    rate of the lists (it may exceed 1), segments in input order."""
    hyps, refs = ["a b c d e f", "x"], ["a", "x y"]
    words = run(hypotheses=hyps, references=refs)
    chars = run(hypotheses=hyps, references=refs, unit="character")
    assert (jiwer_result(hyps, refs), jiwer_result(hyps, refs, "character")) == (words, chars)
    assert ("WER", "CER", 2.0, 2) == (
        words["metric"],
        chars["metric"],
        words["score"],
        words["segment_count"],
    )


@HARNESS.semantics_line(4)
@pytest.mark.parametrize(
    ("changes", "noun"),
    [
        ({"references": ["", ""]}, "words"),
        ({"references": [" \t", "\n"]}, "words"),
        ({"references": ["", "  "], "unit": "character"}, "characters"),
        ({"references": ["!", "«…»"], "remove_punctuation": True}, "words"),
    ],
    ids=["empty", "whitespace", "characters", "punctuation"],
)
def test_no_reference_unit_is_invalid(changes: dict[str, Any], noun: str) -> None:
    """No reference unit in all (empty, whitespace only, punctuation removed): invalid_input
    at /references, where jiwer 4.0 answers the insertions."""
    assert (
        "invalid_input",
        "/references",
        f"Expected at least one reference with {noun} after normalisation at /references (an "
        "error rate is over the reference's length), got none.",
    ) == error(input_with(**changes))


ONE_OVER = ["é" * (MAX_TEXT_BYTES // 4), "é" * (MAX_TEXT_BYTES // 4)]
LONG = " ".join(["a"] * (MAX_SEGMENT_UNITS + 1))
ERRORS = [
    HARNESS.missing("hypotheses"),
    HARNESS.missing("references"),
    ("hypotheses", "invalid_input", "not an array", input_with(hypotheses="ab"), "/hypotheses",
     'Expected an array of strings at /hypotheses, got the string "ab".'),
    ("hypotheses", "limit_exceeded", "4097", input_with(hypotheses=["a"] * 4097), "/hypotheses",
     "Expected at most 4096 segments at /hypotheses (limit max segments), got 4097."),
    ("hypotheses", "invalid_input", "empty", input_with(hypotheses=[]), "/hypotheses",
     "Expected at least 1 segment at /hypotheses, got an empty array."),
    ("hypotheses", "invalid_input", "not a string", input_with(hypotheses=["a", 1]),
     "/hypotheses/1", "Expected a string at /hypotheses/1, got 1."),
    ("hypotheses", "limit_exceeded", "4097 words", input_with(hypotheses=["a", LONG]),
     "/hypotheses/1", "Expected at most 4096 words at /hypotheses/1 after normalisation "
     "(limit max segment units), got 4097."),
    ("references", "invalid_input", "different counts", input_with(references=REFS[:1]),
     "/references", "Expected as many references as hypotheses (2) at /references, got 1."),
    ("references", "invalid_input", "not a string", input_with(references=[REFS[0], None]),
     "/references/1", "Expected a string at /references/1, got null."),
    ("references", "limit_exceeded", "text bytes", input_with(references=ONE_OVER), "",
     "Expected at most 4194304 UTF-8 bytes of text in all (limit max text bytes), got "
     "4194358."),
    ("references", "invalid_input", "lone surrogate", input_with(references=["a", "b\ud800"]),
     "/references/1", "Expected text without lone surrogates at /references/1, got U+D800 at "
     "index 1."),
    ("references", "limit_exceeded", "4097 characters",
     input_with(references=["a", "x" * 4097], unit="character"), "/references/1",
     "Expected at most 4096 characters at /references/1 after normalisation (limit max "
     "segment units), got 4097."),
    ("references", "invalid_input", "no unit", input_with(references=["", " "]), "/references",
     "Expected at least one reference with words after normalisation at /references (an error "
     "rate is over the reference's length), got none."),
    ("unit", "invalid_input", "unknown unit", input_with(unit="token"), "/unit",
     'Expected one of word, character at /unit, got the string "token".'),
    ("lowercase", "invalid_input", "not a boolean", input_with(lowercase="yes"), "/lowercase",
     'Expected true or false at /lowercase, got the string "yes".'),
    ("remove_punctuation", "invalid_input", "not a boolean", input_with(remove_punctuation=1),
     "/remove_punctuation", "Expected true or false at /remove_punctuation, got 1."),
    ("collapse_whitespace", "invalid_input", "not a boolean",
     input_with(collapse_whitespace=None), "/collapse_whitespace",
     "Expected true or false at /collapse_whitespace, got null."),
    ("tokenize", "invalid_input", "unknown key", input_with(tokenize="13a"), "/tokenize",
     'Unknown key "tokenize" in the input; expected only hypotheses, references, unit, '
     "lowercase, remove_punctuation, collapse_whitespace."),
]  # fmt: skip
HARNESS.declare(
    ERRORS,
    errors_line=5,
    unchanged=input_with(unit="character", lowercase=True, remove_punctuation=True),
    typed_faults={
        "invalid_input": input_with(references=["", ""]),
        "limit_exceeded": input_with(hypotheses=["a", LONG]),
    },
)


def test_the_limits_themselves_are_accepted() -> None:
    """4096 segments, exactly 4194304 UTF-8 bytes, and texts of 4096 words and characters
    are scored."""
    most = run(hypotheses=["a b"] * MAX_SEGMENTS, references=["a c"] * MAX_SEGMENTS)
    half = "é" * (MAX_TEXT_BYTES // 4)
    full = run(hypotheses=[half, "abc"], references=["x", "a"])
    words = " ".join(["a"] * MAX_SEGMENT_UNITS)
    longest = run(hypotheses=[words], references=[words])
    chars = run(hypotheses=["ab" * 2048], references=["ba" * 2048], unit="character")
    assert (MAX_SEGMENTS, 0.5, 2, 0.0, 2) == (
        most["segment_count"],
        most["score"],
        full["segment_count"],
        longest["score"],
        chars["substitutions"] + chars["deletions"] + chars["insertions"],
    )


@HARNESS.semantics_line(6)
def test_validation_order() -> None:
    """The first failing check in the contract's order decides the error."""
    cases = [
        ({"zz": 1}, "/zz"),
        ({"hypotheses": 1}, "/references"),  # every missing key before any value
        (input_with(hypotheses=["\ud800"] * 4097, unit="x"), "/hypotheses"),
        (input_with(references=["\ud800"], unit="x"), "/references"),  # counts first
        (input_with(references=["é" * (MAX_TEXT_BYTES // 2), "\ud800"], unit="x"), ""),
        (input_with(references=["a", "\ud800"], unit="x"), "/references/1"),
        (input_with(unit="x", lowercase=1), "/unit"),
        (input_with(hypotheses=[LONG, "a"], lowercase=1, collapse_whitespace=2), "/lowercase"),
        (input_with(hypotheses=[LONG, "a"], collapse_whitespace=2), "/collapse_whitespace"),
        (input_with(hypotheses=["a", LONG], references=[LONG, ""]), "/hypotheses/1"),
        (input_with(references=[LONG, ""]), "/references/0"),
        (input_with(hypotheses=[LONG[:9], ""], references=["", ""]), "/references"),
    ]
    HARNESS.assert_paths(cases)


def test_typed_function_is_the_tool() -> None:
    """wer_compute(**example input) gives the first example's output, keyword options
    included."""
    output, typed = HARNESS.typed_example(wer_compute)
    options = {"unit": "character", "lowercase": True}
    assert (output, run(**options)) == (
        typed.to_dict(),
        wer_compute(HYPS, REFS, **options).to_dict(),
    )


def test_examples_are_jiwers() -> None:
    """Every contract example is jiwer's result for its input."""
    for example in contract(*TOOL)["examples"]:
        data = dict(example["input"])
        hyps, refs = data.pop("hypotheses"), data.pop("references")
        assert jiwer_result(hyps, refs, **data) == example["output"]


def test_the_result_is_frozen() -> None:
    """The typed result and its segments cannot be changed."""
    result = wer_compute(HYPS, REFS)
    HARNESS.assert_frozen(result, "score")
    HARNESS.assert_frozen(result.segments[0], "hits")
