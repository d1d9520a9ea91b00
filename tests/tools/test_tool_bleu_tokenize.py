"""bleu-tokenize@1.0.0: one test per semantics line, the error table, the limits, and the
pre-tokenized BLEU tools' pages pointing here.

sacreBLEU 2.6.0 is the reference for tokens (``BLEU._preprocess_segment`` then ``split``); the
whole WMT data is compared in tests/tools/test_sacrebleu_tools.py.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sacrebleu.metrics import BLEU

from mtcompute.contracts import contract
from mtcompute.server.pages import tool_page
from mtcompute.tokenizers import NAMES
from mtcompute.tools import list_tools
from tests.harness import ToolHarness, no_download, result_of

TOOL = ("bleu-tokenize", "1.0.0")
BASE: dict[str, Any] = {"segments": ["Hello, world!", "It's 3.5-times &quot;better&quot;."]}
MAX_SEGMENTS, MAX_TEXT_BYTES = 4096, 4_194_304
PURE = ("13a", "zh", "char", "none")  # the tokenizers every installation runs
DOWNLOADING = ("spm", "flores101", "flores200", "spBLEU-1K")

HARNESS = ToolHarness(TOOL, BASE)
run, input_with, error = HARNESS.run, HARNESS.input_with, HARNESS.error

# Strings that tokenizers get wrong: entities, <skipped>, runs of . and ,, digits around
# punctuation, whitespace of every kind (trailing too), U+200B, U+001C-U+001F, CJK, astral.
ADVERSARIAL = [
    "",
    "   ",
    "a\u00a0b\u3000c\u2028d\u0085 ",
    "x\u200by \u001c\u001d\u001e\u001fz",
    "&amp;&lt;&gt;&quot;&apos; &#39; &AMP;",
    "<skipped> a<skipped>b",
    "...,,,. a.b,c 1.5,3 ,5 5, .5 5.",
    "1-2 a-b 3- -4 1,000.50 (approx.)",
    "end-\nline\r\nnext\ttab",
    "中文（简体）与English混排, ok.",
    "日本語のテキスト。한국어 텍스트.",
    "\U00020000\U0001f600 \U0001d400x",
    "İSTANBUL ΣΊΣΥΦΟΣ ẞtraße",
    "trailing spaces and tabs \t \u2003",
]


def sacre_tokens(segments: list[str], tokenizer: str = "13a", lowercase: bool = False) -> Any:
    """sacreBLEU 2.6.0's BLEU tokens of each segment."""
    sacre = BLEU(tokenize=tokenizer, lowercase=lowercase, force=True)
    return [sacre._preprocess_segment(s).split() for s in segments]


# --- one test per semantics line ------------------------------------------------------------


@HARNESS.semantics_line(0)
@pytest.mark.parametrize("lowercase", [False, True])
@pytest.mark.parametrize("tokenizer", PURE)
def test_each_segment_is_what_sacrebleus_bleu_counts(tokenizer: str, lowercase: bool) -> None:
    """tokens[i] is sacreBLEU's lower, rstrip, tokenizer, split of segments[i], each segment
    alone (an empty or all-whitespace segment has no tokens)."""
    result = run(segments=ADVERSARIAL, tokenizer=tokenizer, lowercase=lowercase)
    alone = [
        run(segments=[s], tokenizer=tokenizer, lowercase=lowercase)["tokens"][0]
        for s in ADVERSARIAL
    ]
    expected = sacre_tokens(ADVERSARIAL, tokenizer, lowercase)
    assert (expected, expected, [], []) == (result["tokens"], alone, expected[0], expected[1])


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.text(st.characters(exclude_categories=["Cs"]), max_size=30), min_size=1, max_size=4)
)
def test_generated_text_is_tokenized_as_sacrebleu(segments: list[str]) -> None:
    """On generated text (any code point but surrogates), every pure tokenizer in both cases
    gives sacreBLEU's tokens."""
    expected = [sacre_tokens(segments, t, lc) for t in PURE for lc in (False, True)]
    actual = [
        run(segments=segments, tokenizer=t, lowercase=lc)["tokens"]
        for t in PURE
        for lc in (False, True)
    ]
    assert expected == actual


@HARNESS.semantics_line(1)
def test_tokenizer_names_and_the_refused_ones() -> None:
    """tokenizer is sacreBLEU's name, 13a when omitted; the SentencePiece ones are refused
    with unsupported_input and the reason."""
    refused = {name: error(input_with(tokenizer=name)) for name in DOWNLOADING}
    assert (run()["tokens"], run()["tokenizer"]) == (run(tokenizer="13a")["tokens"], "13a")
    assert {
        name: (
            "unsupported_input",
            "/tokenizer",
            f"The {name} tokenizer at /tokenizer needs a SentencePiece model that sacreBLEU "
            "downloads; the catalog's tools never download models. Use 13a, intl, zh, char, "
            "none, ja-mecab or ko-mecab.",
        )
        for name in DOWNLOADING
    } == refused
    assert run(segments=["中文abc"], tokenizer="zh")["tokens"] == [["中", "文", "abc"]]


@HARNESS.semantics_line(2)
@pytest.mark.parametrize("tokenizer", PURE)
def test_the_echo_and_the_signature(tokenizer: str) -> None:
    """tokenizer and lowercase are echoed, segment_count counts the segments, and signature is
    what sacreBLEU prints after tok: for this tokenizer."""
    result = run(tokenizer=tokenizer, lowercase=True)
    signature = BLEU(tokenize=tokenizer, force=True).tokenizer_signature
    assert (tokenizer, signature, True, 2) == (
        result["tokenizer"],
        result["signature"],
        result["lowercase"],
        result["segment_count"],
    )


@HARNESS.semantics_line(3)
def test_tokens_give_the_pre_tokenized_tools_sacrebleus_counts() -> None:
    """bleu-corpus-compute on the tokens of hypotheses and references gives sacreBLEU's
    BLEU(tokenize=13a, lowercase=True) counts and lengths."""
    hyps = ["The Cat, sat on the mat.", "It's 3.5-times better!", ""]
    refs = [
        ["The cat sat on the mat."],
        ["It is 3.5 times better.", "It's 3.5-times &quot;better&quot;!"],
        ["Nothing."],
    ]
    tokens = run(segments=hyps, lowercase=True)["tokens"]
    ref_tokens = [run(segments=r, lowercase=True)["tokens"] for r in refs]
    corpus = result_of("bleu-corpus-compute", {"hypotheses": tokens, "references": ref_tokens})
    streams = [[r[j] if j < len(r) else None for r in refs] for j in range(2)]
    sacre = BLEU(lowercase=True, smooth_method="none", force=True).corpus_score(hyps, streams)
    assert (sacre.sys_len, sacre.ref_len, sacre.counts, sacre.totals) == (
        corpus["candidate_length"],
        corpus["reference_length"],
        corpus["matches"],
        corpus["totals"],
    )


ERRORS = [
    HARNESS.missing("segments"),
    ("segments", "invalid_input", "not an array", input_with(segments="a b"), "/segments",
     'Expected an array of strings at /segments, got the string "a b".'),
    ("segments", "invalid_input", "empty", input_with(segments=[]), "/segments",
     "Expected at least 1 segment at /segments, got an empty array."),
    ("segments", "limit_exceeded", "4097 segments", input_with(segments=["a"] * 4097), "/segments",
     "Expected at most 4096 segments at /segments (limit max segments), got 4097."),
    ("segments", "invalid_input", "not a string", input_with(segments=["a", 1]), "/segments/1",
     "Expected a string at /segments/1, got 1."),
    ("segments", "limit_exceeded", "text bytes", input_with(segments=["é" * 2_097_152, "abc"]), "",
     "Expected at most 4194304 UTF-8 bytes of text in all (limit max text bytes), got 4194307."),
    ("segments", "invalid_input", "lone surrogate", input_with(segments=["a", "b\udc00c"]),
     "/segments/1",
     "Expected text without lone surrogates at /segments/1, got U+DC00 at index 1."),
    ("tokenizer", "invalid_input", "unknown", input_with(tokenizer="v13a"), "/tokenizer",
     'Expected one of none, zh, 13a, intl, char, ja-mecab, ko-mecab, spm, flores101, flores200, '
     'spBLEU-1K at /tokenizer, got the string "v13a".'),
    ("tokenizer", "invalid_input", "not a string", input_with(tokenizer=None), "/tokenizer",
     "Expected one of none, zh, 13a, intl, char, ja-mecab, ko-mecab, spm, flores101, flores200, "
     "spBLEU-1K at /tokenizer, got null."),
    ("tokenizer", "unsupported_input", "spm", input_with(tokenizer="spm"), "/tokenizer",
     no_download("spm", "/tokenizer")),
    ("lowercase", "invalid_input", "not a boolean", input_with(lowercase=1), "/lowercase",
     "Expected true or false at /lowercase, got 1."),
    ("", "invalid_input", "unknown key", input_with(tokenize="13a"), "/tokenize",
     'Unknown key "tokenize" in the input; expected only segments, tokenizer, lowercase.'),
]  # fmt: skip
HARNESS.declare(ERRORS, errors_line=4, unchanged=input_with(segments=["A  ", "b"], lowercase=True))


def test_the_limits_themselves_are_accepted() -> None:
    """4096 segments, and exactly 4194304 UTF-8 bytes of text, are answered."""
    most = run(segments=["a"] * MAX_SEGMENTS)
    full = run(segments=["é" * (MAX_TEXT_BYTES // 2 - 2), "abcd"], tokenizer="none")
    assert (MAX_SEGMENTS, 2, ["abcd"]) == (
        most["segment_count"],
        full["segment_count"],
        full["tokens"][1],
    )


@HARNESS.semantics_line(5)
def test_validation_order() -> None:
    """The first failing check in the contract's order decides the error."""
    too_big = ["é" * (MAX_TEXT_BYTES // 2 + 1)]
    cases = [
        ({"zz": 1}, "/zz"),  # unknown key before the missing one
        ({"segments": ["\ud800"] * 4097, "tokenizer": "spm"}, "/segments"),  # count first
        ({"segments": [*too_big, "\ud800"], "tokenizer": "spm"}, ""),  # bytes before surrogates
        ({"segments": ["\ud800"], "tokenizer": "spm"}, "/segments/0"),  # surrogates first
        ({"segments": ["a"], "tokenizer": "spm", "lowercase": 1}, "/tokenizer"),
        ({"segments": ["a"], "tokenizer": "13a", "lowercase": 1}, "/lowercase"),
    ]
    assert [path for _, path in cases] == [error(raw)[1] for raw, _ in cases]


def test_every_tokenizer_name_is_in_the_contract() -> None:
    """The contract's tokenizer enum is sacreBLEU's names, in its order."""
    properties = contract(*TOOL)["input_schema"]["properties"]
    assert list(NAMES) == properties["tokenizer"]["enum"]


# --- the pages ------------------------------------------------------------------------------

PRE_TOKENIZED = (
    "bleu-corpus-compute",
    "bleu-ngrams-count",
    "bleu-sentence-components",
    "bleu-sentence-compute",
)
RAW_TEXT_NOTE = re.compile(
    r'<p id="raw-text">This tool takes tokens\. .*?<a href="/tools/bleu-tokenize/1\.0\.0">'
)


def test_pre_tokenized_bleu_pages_point_to_bleu_tokenize() -> None:
    """The pages of the BLEU tools that take tokens point to bleu-tokenize for raw text; the
    pages of the other tools do not."""
    pointing = sorted(
        tool.id
        for tool in list_tools()
        if RAW_TEXT_NOTE.search(tool_page(tool.id, tool.version, "http://127.0.0.1:8000"))
    )
    assert list(PRE_TOKENIZED) == pointing
