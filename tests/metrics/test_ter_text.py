"""TER from raw text, fast: :func:`mtcompute.metrics.ter.score.ter_statistics`'s text step (the fast
path without ``normalized`` and ``no_punct``, and why it is sacreBLEU's tokenizer), the
kernel's ``ter_statistics_text`` (words split and interned in C) behind
:func:`mtcompute.metrics.ter.statistics.text_statistics`, and its pure fallback: the same figures as
sacreBLEU 2.6.0 (the oracle, imported only by tests), the kernel on and off, threads, errors;
and a short pass of ``scripts/diff_ter.py --kernel``."""

from __future__ import annotations

import re
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sacrebleu.metrics.ter import TER
from sacrebleu.tokenizers.tokenizer_ter import TercomTokenizer as SacrebleuTercomTokenizer

from mtcompute import native
from mtcompute.metrics.ter import score as sacre_ter
from mtcompute.metrics.ter import score as ter_scoring
from mtcompute.metrics.ter.statistics import text_statistics
from mtcompute.native import ext
from tests.conftest import WMT, assert_one_error, at_least, kernel_switch, load_script
from tests.kernel_wmt import PAIRS, pair, read_segments

diff_ter = load_script("diff_ter")
COMBOS: tuple[dict[str, bool], ...] = diff_ter.COMBOS
FAST_COMBOS = [o for o in COMBOS if not (o["normalized"] or o["no_punct"])]
CAPITAL_SIGMA = "\u03a3"


def _needs_kernel() -> None:
    if not native.AVAILABLE:
        pytest.skip("built without the C kernel (MTCOMPUTE_NO_EXTENSION=1)")


def sacrebleu_words(lines: list[str], options: dict[str, bool], *, twice: bool) -> list[list[str]]:
    """The words sacreBLEU's TER makes of each line: a hypothesis tokenized once, a reference
    twice (``Metric._cache_references``, then ``TER._extract_reference_info``)."""
    tokenizer = SacrebleuTercomTokenizer(**options)
    words = []
    for line in lines:
        once = tokenizer(line.rstrip())
        words.append((tokenizer(once.rstrip()) if twice else once).split())
    return words


def fast_words(lines: list[str], options: dict[str, bool], *, twice: bool) -> list[list[str]]:
    """The words of scoring's text step (what the kernel splits)."""
    opts = ter_scoring.TerOptions(**options)
    texts = sacre_ter._tercom_texts(lines, opts, opts.tokenizer(), twice=twice)
    return [text.split() for text in texts]


# --- the fast path is the tokenizer -----------------------------------------------------------


def test_every_lowercased_code_point_lowercases_to_itself() -> None:
    """For every code point, each code point of its ``str.lower`` is its own lowercase and
    none is capital sigma: so lowercasing a lowercased text changes nothing (the fast path's
    premise for a reference, which sacreBLEU lowercases twice)."""
    moving = []
    for code in range(sys.maxunicode + 1):
        lowered = chr(code).lower()
        if any(c.lower() != c for c in lowered) or CAPITAL_SIGMA in lowered:
            moving.append(code)
    assert [] == moving


def test_only_capital_sigma_lowercases_by_its_context() -> None:
    """Each code point lowercases alike alone, after a cased letter, and between two; only
    capital sigma (final or not) differs."""
    contextual = []
    for code in range(sys.maxunicode + 1):
        c = chr(code)
        alone = c.lower()
        if alone != ("A" + c).lower()[1:] or alone != ("A" + c + "A").lower()[1:-1]:
            contextual.append(code)
    assert [ord(CAPITAL_SIGMA)] == contextual


def _wmt_files() -> list[str]:
    return sorted(str(p.relative_to(WMT)) for p in WMT.glob("*/*/*.txt"))


@pytest.mark.parametrize("name", _wmt_files())
def test_every_wmt_line_gives_the_tokenizers_words(name: str) -> None:
    """Each line of the file (raw), as a hypothesis and as a reference, line i under the
    fast path's option combination i mod 4: the words of sacreBLEU's tokenizer."""
    lines = read_segments(WMT / name)
    expected, actual = [], []
    for k, options in enumerate(FAST_COMBOS):
        chosen = lines[k :: len(FAST_COMBOS)]
        for twice in (False, True):
            expected.append(sacrebleu_words(chosen, options, twice=twice))
            actual.append(fast_words(chosen, options, twice=twice))
    assert expected == actual


TRICKY = st.text(
    alphabet=st.sampled_from(
        [
            "a",
            "B",
            "\u03a3",  # capital sigma: final or not by its context
            "\u03c3",
            "\u03c2",
            "\u0130",  # capital I with dot: two code points in lowercase
            "\u1e9e",
            "\u0345",  # combining ypogegrammeni: case-ignorable, uppercases to iota
            "\u0301",
            "'",
            ".",
            "\u00df",
            "\u01c5",
            "\u2126",
            "\u212a",
            " ",
            "\t",
            "\n",
            "\x1c",
            "\x85",
            "\xa0",
            "\u2028",
            "\u3000",
            "\u200b",
            "\u180e",
        ]
    ),
    max_size=30,
)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(TRICKY, st.text(max_size=30)), min_size=1, max_size=4))
def test_generated_text_gives_the_tokenizers_words(lines: list[str]) -> None:
    """Sigmas in every context, the dotted I, combining marks, every kind of whitespace, any
    code point: the fast path's words are sacreBLEU's, once and twice."""
    expected = [sacrebleu_words(lines, o, twice=t) for o in FAST_COMBOS for t in (False, True)]
    actual = [fast_words(lines, o, twice=t) for o in FAST_COMBOS for t in (False, True)]
    assert expected == actual


# --- the kernel's splitting and interning -----------------------------------------------------


def test_the_kernel_splits_on_every_whitespace_code_point_as_str_split() -> None:
    """Every code point c, in texts of 1,024 pieces ``"x" + c``: against the words of
    ``text.split()`` joined by spaces, each text has 0 edits and their number of words (so
    the kernel's words are exactly str.split()'s)."""
    _needs_kernel()
    codes = range(sys.maxunicode + 1)
    texts = ["".join("x" + chr(c) for c in codes[i : i + 1024]) for i in range(0, len(codes), 1024)]
    rows = ext.ter_statistics_text([" ".join(t.split()) for t in texts], [[t] for t in texts])
    assert [(0, float(len(t.split()))) for t in texts] == rows


def test_words_of_different_string_kinds_are_equal_by_code_points() -> None:
    """``a`` and ``b`` in a Latin-1, a UCS-2 and a UCS-4 text are the same words; ``\u0100``
    and ``\U00010100`` differ."""
    _needs_kernel()
    hypotheses = ["b a", "b a \u0100", "a \u0100"]
    references = [["a b \u0100"], ["a b \U00010100"], ["a \U00010100"]]
    expected = [(2, 3.0), (2, 3.0), (1, 2.0)]
    with kernel_switch(True):
        on = text_statistics(hypotheses, references)
    with kernel_switch(False):
        off = text_statistics(hypotheses, references)
    assert (expected, expected) == (on, off)


WORDS = st.lists(st.sampled_from(["a", "b", "c", "\u00e9", "\u0100", "\U0001f600"]), max_size=25)
SEPARATORS = st.sampled_from([" ", "  ", "\t", "\u3000", "\x85", " \u2028 "])


@st.composite
def texts(draw: st.DrawFn) -> str:
    """Words of a small vocabulary (every string kind) joined by varied whitespace."""
    words = draw(WORDS)
    return (
        "".join(w + draw(SEPARATORS) for w in words) if words else draw(st.sampled_from(["", " "]))
    )


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(texts(), st.lists(texts(), min_size=1, max_size=3)), max_size=6))
def test_the_kernel_and_the_pure_path_give_sacrebleus_statistics(
    segments: list[tuple[str, list[str]]],
) -> None:
    """Tokenized texts: kernel, pure path and sacreBLEU's ``translation_edit_rate`` of the
    split words (fewest edits, average reference length) agree, types too."""
    hypotheses = [h for h, _ in segments]
    references = [r for _, r in segments]
    metric = TER(case_sensitive=True)
    expected = [
        metric._compute_segment_statistics(h, {"ref_words": [r.split() for r in refs]})
        for h, refs in segments
    ]
    expected_rows = [(e, n) for e, n in expected]
    with kernel_switch(True):
        on = text_statistics(hypotheses, references)
    with kernel_switch(False):
        off = text_statistics(hypotheses, references)
    types = {(type(e), type(n)) for e, n in on + off}
    assert (expected_rows, expected_rows) == (on, off)
    assert types <= {(int, float)}


# --- ter_scoring.ter_statistics against sacreBLEU -------------------------------------------------


def _window(references: list[list[str]]) -> list[int]:
    """Six segments from 40 on whose references are at most 120 UTF-8 bytes each."""
    short = [i for i, refs in enumerate(references) if all(len(r.encode()) <= 120 for r in refs)]
    return [i for i in short if i >= 40][:6]


@pytest.mark.parametrize("name", ["generaltest2022/en-de", "generaltest2022/en-zh"])
def test_a_wmt_window_under_every_combination_is_sacrebleus(name: str) -> None:
    """Six segments of the pair's first system, both references, under the 16 combinations:
    ``ter_scoring.ter_statistics`` with the kernel on and off gives sacreBLEU's per-segment
    statistics (``TER._extract_corpus_statistics``)."""
    corpus = pair(name)
    every = corpus.per_segment()
    segments = _window(every)
    hypotheses = [corpus.system(corpus.systems[0])[i] for i in segments]
    references = [every[i] for i in segments]
    reference_sets = [list(column) for column in zip(*references, strict=True)]
    differences = []
    for options in COMBOS:
        rows = TER(**options)._extract_corpus_statistics(hypotheses, reference_sets)
        expected = [(e, n) for e, n in rows]
        for on in (True, False):
            with kernel_switch(on):
                actual = ter_scoring.ter_statistics(
                    hypotheses, references, ter_scoring.TerOptions(**options)
                )
            if actual != expected:
                differences.append((options, on, expected, actual))
    assert (6, []) == (len(segments), differences)


def test_references_preprocessed_once_give_the_same_statistics() -> None:
    """``ter_statistics_of`` against ``ter_references`` (sacreBLEU's reference cache) gives
    ``ter_statistics``'s figures for two hypothesis sets, under four option combinations."""
    corpus = pair("generaltest2022/en-de")
    references = corpus.per_segment()[:60]
    differences = []
    for options in (COMBOS[0], COMBOS[1], COMBOS[8], COMBOS[15]):
        ter_options = ter_scoring.TerOptions(**options)
        prepared = ter_scoring.ter_references(references, ter_options)
        for system in corpus.systems[:2]:
            hypotheses = corpus.system(system)[:60]
            expected = ter_scoring.ter_statistics(hypotheses, references, ter_options)
            if ter_scoring.ter_statistics_of(hypotheses, prepared) != expected:
                differences.append((options, system))
    assert [] == differences


def test_prepared_references_of_another_length_are_refused() -> None:
    """Two hypotheses against one segment's prepared references: the one message."""
    prepared = ter_scoring.ter_references([["a b"]], ter_scoring.TerOptions())
    with pytest.raises(ValueError, match="2 hypotheses") as caught:
        ter_scoring.ter_statistics_of(["a", "b"], prepared)
    expected = "2 hypotheses but 1 reference lists (one list per segment expected)"
    assert expected == str(caught.value)


def test_threads_change_nothing() -> None:
    """300 en-de segments on one thread and on three (kernel on), and the pure path on the
    first 30: the same figures."""
    corpus = pair("generaltest2022/en-de")
    hypotheses = at_least(corpus.system(corpus.systems[0])[:150], 300)
    references = at_least(corpus.per_segment()[:150], 300)
    options = ter_scoring.TerOptions()
    with kernel_switch(True):
        one = ter_scoring.ter_statistics(hypotheses, references, options, threads=1)
        three = ter_scoring.ter_statistics(hypotheses, references, options, threads=3)
    with kernel_switch(False):
        pure = ter_scoring.ter_statistics(hypotheses[:30], references[:30], options)
    assert (one, one[:30]) == (three, pure)


# --- errors -----------------------------------------------------------------------------------

BAD_INPUTS = [
    ("hypotheses must be a list or tuple, got str", TypeError, "ab", [["a"]]),
    ("references must be a list or tuple, got dict", TypeError, ["a"], {}),
    ("2 hypotheses but 1 reference lists", ValueError, ["a", "b"], [["a"]]),
    ("hypotheses[1] must be a str, got list", TypeError, ["a", ["b"]], [["a"]] * 2),
    ("references[0] must be a list or tuple of str, got str", TypeError, ["a"], ["a"]),
    ("references[1] has no reference", ValueError, ["a", "b"], [["a"], []]),
    ("references[0][1] must be a str, got NoneType", TypeError, ["a"], [["a", None]]),
    ("hypotheses[0] must be a str, got bytes", TypeError, [b"a"], [["a"]]),
]


@pytest.mark.parametrize(
    ("message", "error", "hypotheses", "references"), BAD_INPUTS, ids=[b[0] for b in BAD_INPUTS]
)
def test_bad_input_is_refused_with_one_message(
    message: str, error: type[Exception], hypotheses: object, references: object
) -> None:
    """The kernel, ter_text_statistics with the kernel on and with it off: the same error."""
    _needs_kernel()
    assert_one_error(
        message, error, ext.ter_statistics_text, text_statistics, hypotheses, references
    )


def test_a_bad_text_past_the_first_thread_is_named_in_the_whole_input() -> None:
    """With 200 segments on two threads, a bad text in segment 150 is named as segment 150."""
    hyps: list[object] = ["a b"] * 200
    hyps[150] = 7
    refs = [["b a"]] * 200
    expected = "hypotheses[150] must be a str, got int"
    with kernel_switch(True), pytest.raises(TypeError, match=re.escape(expected)) as caught:
        text_statistics(hyps, refs, threads=2)  # type: ignore[arg-type]
    assert expected == str(caught.value)


# --- scripts/diff_ter.py --kernel -------------------------------------------------------------


def test_the_kernel_mode_of_the_diff_script_finds_no_difference(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A short pass of ``diff_ter.py --kernel``: segments 40-44 of every system of the
    smallest pairs, one and two references, the 16 combinations; 0 differences, exit 0."""
    _needs_kernel()
    chosen = [p for p in ("generaltest2022/en-de", "newstest2015-nltk100/en-ru") if p in PAIRS]
    arguments = ["--kernel", "--ter-only", "--window", "40:44", "--wmt", str(WMT)]
    for name in chosen:
        arguments += ["--pair", name]
    status = diff_ter.main(arguments)
    total = capsys.readouterr().out.splitlines()[-1]
    found = re.search(r"(\d+) differing segments, (\d+) differing corpora", total)
    assert (0, ("0", "0")) == (status, found.groups() if found else None)


def test_the_kernel_mode_finds_a_difference_when_there_is_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With ``ter_scoring.ter_statistics`` off by one edit on every segment, the comparison sees
    every segment and the corpus differ (the check can fail)."""
    _needs_kernel()
    real = ter_scoring.ter_statistics

    def wrong(*args: object, **kwargs: object) -> list[tuple[int, float]]:
        return [(e + 1, n) for e, n in real(*args, **kwargs)]  # type: ignore[arg-type]

    monkeypatch.setattr(ter_scoring, "ter_statistics", wrong)
    monkeypatch.setattr(sacre_ter, "ter_statistics", wrong)  # what corpus_ter calls
    outcome = diff_ter.compare(["a b", "c"], [["b a", "c"]], {}, ours=diff_ter.kernel_figures)
    assert ((0, 1), False) == (outcome.differing, outcome.corpus_equal)
