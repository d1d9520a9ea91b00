"""The TER kernel (the extension's ``ter_edits`` and
:func:`mtcompute.metrics.ter.statistics.id_statistics`) against the pure core
(:func:`mtcompute.metrics.ter.edits.translation_edit_rate`) and sacreBLEU 2.6.0 (the oracle,
imported only by tests): the same edits per hypothesis and reference, the same
segment statistics and corpus score, on windows of WMT pairs, adversarial inputs (empty
segments, repeated words inviting many shifts, the 1,000-candidate limit, ties, long segments)
and generated small vocabularies; the kernel on and off; threads; the errors."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sacrebleu.metrics import lib_ter
from sacrebleu.metrics.ter import TER

from mtcompute import native
from mtcompute.metrics.ter import edits as ter
from mtcompute.metrics.ter.statistics import id_statistics
from mtcompute.metrics.ter.tokenizer import TercomTokenizer
from mtcompute.native import ext
from tests.conftest import (
    ISSUE_HYPOTHESES,
    ISSUE_REFERENCES,
    assert_one_error,
    at_least,
    kernel_switch,
)
from tests.kernel_wmt import pair
from tests.metrics.test_ter_core import sacrebleu_candidates


@pytest.fixture(autouse=True)
def _needs_kernel() -> None:
    """The kernel's function is what these tests check against the pure path."""
    if not native.AVAILABLE:
        pytest.skip("built without the C kernel (MTCOMPUTE_NO_EXTENSION=1)")


Words = list[str]


def interned(hypothesis: Words, references: list[Words]) -> tuple[list[int], list[list[int]]]:
    """A segment's words as ids of one vocabulary (per segment, as the core interns them)."""
    vocabulary: dict[str, int] = {}
    hyp = ter.intern_words(hypothesis, vocabulary)
    return hyp, [ter.intern_words(r, vocabulary) for r in references]


def three_ways(hypothesis: Words, references: list[Words]) -> list[object]:
    """Per reference (edits, length) by the kernel, the pure core and sacreBLEU's
    ``translation_edit_rate``, in that order (all three equal when the kernel is right)."""
    hyp, refs = interned(hypothesis, references)
    (kernel,) = ext.ter_edits([hyp], [refs])
    core = tuple(ter.translation_edit_rate(hyp, r) for r in refs)
    sacre = tuple(lib_ter.translation_edit_rate(hypothesis, r) for r in references)
    return [kernel, core, sacre]


def assert_three_agree(hypothesis: Words, references: list[Words]) -> None:
    """Kernel, core and sacreBLEU give the same edits and lengths."""
    kernel, core, sacre = three_ways(hypothesis, references)
    assert (sacre, sacre) == (kernel, core)


def tokenized(
    hypotheses: list[str], references: list[list[str]], options: dict[str, bool]
) -> tuple[list[list[int]], list[list[list[int]]]]:
    """Texts as sacreBLEU's TER tokenizes them (a reference twice), interned per segment."""
    tokenizer = TercomTokenizer(**options)
    hyps, refs = [], []
    for hypothesis, texts in zip(hypotheses, references, strict=True):
        words = tokenizer(hypothesis.rstrip()).split()
        ref_words = [tokenizer(tokenizer(t.rstrip()).rstrip()).split() for t in texts]
        hyp, ids = interned(words, ref_words)
        hyps.append(hyp)
        refs.append(ids)
    return hyps, refs


def sacrebleu_statistics(
    hypotheses: list[str], references: list[list[str]], options: dict[str, bool]
) -> tuple[list[tuple[int, float]], float]:
    """sacreBLEU's per-segment (edits, average reference length) and corpus score."""
    streams = [list(column) for column in zip(*references, strict=True)]
    metric = TER(**options)
    rows = metric._extract_corpus_statistics(hypotheses, streams)
    score = TER(**options).corpus_score(hypotheses, streams).score
    return [(edits, length) for edits, length in rows], score


def ours(
    hypotheses: list[str],
    references: list[list[str]],
    options: dict[str, bool],
    *,
    on: bool = True,
    threads: int | None = 1,
) -> tuple[list[tuple[int, float]], float]:
    """ter_statistics (kernel on or off) and the corpus score from their sum."""
    hyps, refs = tokenized(hypotheses, references, options)
    with kernel_switch(on):
        rows = id_statistics(hyps, refs, threads=threads)
    return rows, ter.score_from_statistics(*ter.sum_statistics(rows))


# --- WMT windows ---------------------------------------------------------------------------

WINDOWS = [
    ("generaltest2022/en-de", {}),
    ("generaltest2022/en-de", {"normalized": True, "case_sensitive": True}),
    ("generaltest2022/en-ja", {"normalized": True, "asian_support": True}),
    ("generaltest2022/cs-uk", {"no_punct": True}),
]


def _window(references: list[list[str]]) -> list[int]:
    """The first eight segments from 40 on whose references are at most 200 UTF-8 bytes
    (sacreBLEU's time grows fast with length; the long cases are below)."""
    chosen = [i for i, refs in enumerate(references) if all(len(r.encode()) <= 200 for r in refs)]
    return [i for i in chosen if i >= 40][:8]


@pytest.mark.parametrize(("name", "options"), WINDOWS, ids=str)
def test_a_wmt_window_scores_as_sacrebleu_does(name: str, options: dict[str, bool]) -> None:
    """Eight segments (:func:`_window`) of the pair's first two systems, with all its
    references (the best reference rule where there are two) and with the first alone: per
    segment statistics and the corpus score equal to sacreBLEU's and the core's, types too."""
    corpus = pair(name)
    segments = _window(corpus.per_segment())
    differences = []
    for system in corpus.systems[:2]:
        lines = corpus.system(system)
        hypotheses = [lines[i] for i in segments]
        for sets in sorted({1, len(corpus.references)}):
            every = corpus.per_segment(sets)
            references = [every[i] for i in segments]
            expected = sacrebleu_statistics(hypotheses, references, options)
            tokenizer = TercomTokenizer(**options)
            core = ter.corpus_statistics(hypotheses, references, tokenizer)
            kernel = ours(hypotheses, references, options)
            if not (expected == kernel and expected[0] == core):
                differences.append((system, sets, expected, kernel, core))
            types = {(type(e), type(r)) for e, r in kernel[0]}
            assert {(int, float)} == types
    assert (8, []) == (len(segments), differences)


def test_a_wmt_pair_segment_by_segment_against_each_reference() -> None:
    """en-de segments 0-29 of one system against each reference: the kernel's edits for every
    hypothesis and reference are sacreBLEU's and the core's."""
    corpus = pair("generaltest2022/en-de")
    tokenizer = TercomTokenizer()
    hypotheses = corpus.system(corpus.systems[0])[:30]
    results = []
    for i, hypothesis in enumerate(hypotheses):
        words = tokenizer(hypothesis.rstrip()).split()
        refs = [tokenizer(tokenizer(r[i].rstrip()).rstrip()).split() for r in corpus.references]
        results.append(three_ways(words, refs))
    assert [[sacre, sacre] for _, _, sacre in results] == [r[:2] for r in results]


# --- adversarial inputs --------------------------------------------------------------------

REPEATED = ["a", "b", "c", "d", "e"] * 6
LONG_HYPOTHESIS = [str(i % 37) for i in range(150)]
LONG_REFERENCE = [str((i * 7) % 37) for i in range(160)]
# a search ends with exactly 1,000 candidates checked (a limit of 1,001 would give 10 edits)
LIMIT_AT_1000 = (
    list("11111111001100010000101000"),
    list("1000100010010011111101110111011010"),
)
# a search ends with exactly 999 candidates checked (a limit of 999 would give 5 edits)
BELOW_LIMIT = (
    list("100010100100001110111111110001"),
    list("100100101100101101111010001100"),
)

ADVERSARIAL: list[tuple[str, Words, list[Words]]] = [
    ("empty hypothesis", [], [["a", "b", "c"]]),
    ("empty reference", ["a", "b"], [[]]),
    ("both empty", [], [[]]),
    ("an empty and a full reference", ["a", "b"], [[], ["a", "b"]]),
    ("identical", list("abcd"), [list("abcd")]),
    ("nothing in common", list("def"), [list("abc")]),
    ("one shift fixes it", list("defghabc"), [list("abcdefgh")]),
    ("equal edits, first reference kept", ["a", "b"], [["a", "c"], ["c", "b"]]),
    ("repeated blocks", list("aaaabbbbaaaabbbb"), [list("bbbbaaaabbbbaaaa")]),
    ("candidate limit with a gain left", REPEATED, [list(reversed(REPEATED))]),
    ("many of one word", ["the"] * 80, [["the", "a"] * 45]),
    ("one word everywhere", ["x"] * 60, [["x"] * 55]),
    ("ties between targets", list("abab"), [list("baba")]),
    ("hypothesis far shorter", ["b", "a"], [list("abcdefghij" * 13)]),
    ("reference far shorter", list("abcdefghij" * 17), [["j", "a"]]),
    ("a shift farther than 50", ["x"] * 60 + ["p", "q"], [["p", "q"] + ["y"] * 60]),
    ("blocks longer than 10", [*"klmnopqrstuv", "a", "b"], [["a", "b", *"klmnopqrstuv"]]),
    ("long segment at the candidate limit", LONG_HYPOTHESIS, [LONG_REFERENCE]),
    ("the limit reached at exactly 1,000", LIMIT_AT_1000[0], [LIMIT_AT_1000[1]]),
    ("999 candidates are not the limit", BELOW_LIMIT[0], [BELOW_LIMIT[1]]),
]


@pytest.mark.parametrize(
    ("name", "hypothesis", "references"), ADVERSARIAL, ids=[a[0] for a in ADVERSARIAL]
)
def test_adversarial_inputs_give_sacrebleus_edits(
    name: str, hypothesis: Words, references: list[Words]
) -> None:
    """Kernel, core and sacreBLEU agree on each reference."""
    assert_three_agree(hypothesis, references)


def test_the_limit_case_reaches_the_candidate_limit_with_a_gain_left() -> None:
    """The repeated-blocks case stops at 1,000 candidates in sacreBLEU with a gain it leaves
    unapplied (so the adversarial test covers that rule; the long case does too)."""
    checked, gain = sacrebleu_candidates(REPEATED, list(reversed(REPEATED)))
    assert (True, True) == (checked >= ter.MAX_SHIFT_CANDIDATES, gain > 0)


def test_a_long_segment_is_the_cores_and_bounded() -> None:
    """600 words of a three-word vocabulary against 640: the kernel's edits are the core's."""
    hypothesis = [(i * 5) % 3 for i in range(600)]
    reference = [(i * i) % 3 for i in range(640)]
    expected = ter.translation_edit_rate(hypothesis, reference)
    assert [(expected,)] == ext.ter_edits([hypothesis], [[reference]])


def test_ids_are_compared_for_equality_only() -> None:
    """Negative, large and bool ids give what interned ids give."""
    hypothesis, reference = [5, -1, 2**62, True], [1, 5, -1, 2**62]
    relabelled = ([0, 1, 2, 3], [3, 0, 1, 2])
    assert ext.ter_edits([relabelled[0]], [[relabelled[1]]]) == ext.ter_edits(
        [hypothesis], [[reference]]
    )


# --- generated inputs ----------------------------------------------------------------------

SMALL = st.lists(st.sampled_from(["a", "b", "c"]), max_size=30)


@settings(max_examples=60, deadline=None)
@given(SMALL, st.lists(SMALL, min_size=1, max_size=3))
def test_small_vocabularies_give_sacrebleus_edits(
    hypothesis: Words, references: list[Words]
) -> None:
    """Three words, so that shifts tie often: kernel, core and sacreBLEU agree."""
    assert_three_agree(hypothesis, references)


@settings(max_examples=8, deadline=None)
@given(
    st.lists(st.sampled_from(["a", "b"]), min_size=20, max_size=40),
    st.lists(st.sampled_from(["a", "b"]), min_size=20, max_size=40),
)
def test_two_word_vocabularies_give_sacrebleus_edits(hypothesis: Words, reference: Words) -> None:
    """Two words over longer segments: many candidates per search, often the limit."""
    assert_three_agree(hypothesis, [reference])


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.lists(st.integers(0, 4), max_size=25),
            st.lists(st.lists(st.integers(0, 4), max_size=25), min_size=1, max_size=3),
        ),
        max_size=5,
    )
)
def test_the_kernel_on_and_off_agree(segments: list[tuple[list[int], list[list[int]]]]) -> None:
    """ter_statistics gives the same figures with the kernel on and off."""
    hyps = [h for h, _ in segments]
    refs = [r for _, r in segments]
    with kernel_switch(True):
        on = id_statistics(hyps, refs)
    with kernel_switch(False):
        off = id_statistics(hyps, refs)
    assert off == on


# --- statistics.id_statistics ---------------------------------------------------------------


def test_threads_change_nothing() -> None:
    """A corpus of 260 en-de segments (the sample repeated where it is short) on one thread
    and on three, kernel on, and the pure path: the same figures."""
    corpus = pair("generaltest2022/en-de")
    hypotheses = at_least(corpus.system(corpus.systems[0])[:130], 260)
    references = at_least(corpus.per_segment()[:130], 260)
    one = ours(hypotheses, references, {}, threads=1)
    three = ours(hypotheses, references, {}, threads=3)
    pure = ours(hypotheses[:40], references[:40], {}, on=False)
    assert (one, one[0][:40]) == (three, pure[0])


def test_the_issue_example() -> None:
    """Issue 12's example: edits 1 and 2, average lengths 6.5 and 9.0, TER 19.35483870967742."""
    hypotheses, references = ISSUE_HYPOTHESES, ISSUE_REFERENCES
    expected = ([(1, 6.5), (2, 9.0)], 19.35483870967742)
    assert (expected, expected) == (
        ours(hypotheses, references, {}),
        ours(hypotheses, references, {}, on=False),
    )


def test_ids_beyond_64_bits_take_the_pure_path() -> None:
    """An id over 64 bits: the kernel says so, ter_statistics answers by the pure path."""
    big = 2**70
    expected = "hypotheses[0][1] is outside the kernel's 64-bit range"
    with pytest.raises(OverflowError, match=re.escape(expected)) as caught:
        ext.ter_edits([[1, big]], [[[big, 1]]])
    assert expected == str(caught.value)
    with kernel_switch(True):
        on = id_statistics([[1, big]], [[[big, 1]]])
    assert [(1, 2.0)] == on


BAD_INPUTS = [
    ("hypotheses must be a list or tuple, got str", TypeError, "ab", [[[1]]]),
    ("references must be a list or tuple, got dict", TypeError, [[1]], {}),
    ("2 hypotheses but 1 reference lists", ValueError, [[1], [2]], [[[1]]]),
    ("hypotheses[1] must be a list or tuple of int, got str", TypeError, [[1], "ab"], [[[1]]] * 2),
    ("hypotheses[0][1] must be an int, got float", TypeError, [[1, 2.0]], [[[1]]]),
    ("references[0] must be a list or tuple of id lists, got int", TypeError, [[1]], [1]),
    ("references[1] has no reference", ValueError, [[1], [1]], [[[1]], []]),
    (
        "references[0][1] must be a list or tuple of int, got NoneType",
        TypeError,
        [[1]],
        [[[1], None]],
    ),
    ("references[0][0][2] must be an int, got str", TypeError, [[1]], [[[1, 2, "x"]]]),
    ("hypotheses[0][0] must be an int, got str", TypeError, [["x"]], [[["y"]]]),
]


@pytest.mark.parametrize(
    ("message", "error", "hypotheses", "references"), BAD_INPUTS, ids=[b[0] for b in BAD_INPUTS]
)
def test_bad_input_is_refused_with_one_message(
    message: str, error: type[Exception], hypotheses: object, references: object
) -> None:
    """The kernel, ter_statistics with the kernel on and with it off: the same error."""
    assert_one_error(message, error, ext.ter_edits, id_statistics, hypotheses, references)


def test_a_bad_id_past_the_first_thread_is_named_in_the_whole_input() -> None:
    """With 200 segments on two threads, a bad id in segment 150 is named as segment 150."""
    hyps: list[list[object]] = [[1, 2]] * 200
    hyps = [*hyps[:150], [1, "x"], *hyps[151:]]
    refs = [[[2, 1]]] * 200
    expected = "hypotheses[150][1] must be an int, got str"
    with kernel_switch(True), pytest.raises(TypeError, match=re.escape(expected)) as caught:
        id_statistics(hyps, refs, threads=2)  # type: ignore[arg-type]
    assert expected == str(caught.value)
