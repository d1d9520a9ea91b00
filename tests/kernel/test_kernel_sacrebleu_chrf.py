"""sacreBLEU's chrF and chrF++ statistics
(:func:`mtcompute.metrics.chrf.sacrebleu_statistics.sacrebleu_chrf_statistics`,
the kernel's ``sacrebleu_chrf_counts`` and the pure path) against sacreBLEU 2.6.0's
``CHRF._extract_corpus_statistics`` (the oracle, imported only by tests).

Every pair and system of the WMT data in use, chrF and chrF++, with every reference set of the
pair (the best-reference rule where there are two or three) and with the first alone; the option
grid (word_order 0, 1, 2; whitespace; eps_smoothing; beta 1, 2, 3; lowercase) on a window of a
two-reference pair; generated segments over an adversarial alphabet; the kernel against the
pure path; threads.
"""

from __future__ import annotations

import functools
import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sacrebleu.metrics.chrf import CHRF

from mtcompute import native
from mtcompute.metrics.chrf.sacrebleu_statistics import sacrebleu_chrf_statistics
from mtcompute.metrics.chrf.words import split_words
from mtcompute.native import ext
from tests.conftest import kernel_switch
from tests.kernel_wmt import PAIRS, SYSTEMS, assert_thread_counts_agree, pair
from tests.oracle import assert_sacrebleu


@pytest.fixture(autouse=True)
def _needs_kernel() -> None:
    """The kernel's function is what these tests check against the pure path."""
    if not native.AVAILABLE:
        pytest.skip("built without the C kernel (MTCOMPUTE_NO_EXTENSION=1)")


def streams_of(refs: list[list[str]]) -> list[list[str | None]]:
    """sacreBLEU's layout of per-segment references: one stream per reference set, None where
    a segment has fewer references."""
    width = max(len(r) for r in refs)
    return [[r[k] if k < len(r) else None for r in refs] for k in range(width)]


def sacrebleu_segments(
    metric: CHRF, hyps: list[str], refs: list[list[str]] | None
) -> list[list[int]]:
    """sacreBLEU's per-segment statistics (its cached references when ``refs`` is None)."""
    streams = streams_of(refs) if refs is not None else None
    return [[int(x) for x in row] for row in metric._extract_corpus_statistics(hyps, streams)]


@functools.cache
def sacrebleu_chrf(name: str, sets: int, word_order: int) -> CHRF:
    """sacreBLEU's CHRF with the pair's first ``sets`` reference sets cached in it."""
    refs = pair(name).references[:sets]
    return CHRF(word_order=word_order, references=[list(r) for r in refs])


def ours(
    hyps: list[str],
    refs: list[list[str]],
    word_order: int = 2,
    *,
    char_order: int = 6,
    beta: int = 2,
    threads: int | None = 1,
    **options: bool,
) -> tuple[list[int], list[list[int]]]:
    """sacrebleu_chrf_statistics: the total and each segment."""
    total, each = sacrebleu_chrf_statistics(
        hyps, refs, char_order, word_order, beta, per_segment=True, threads=threads, **options
    )
    assert each is not None
    return total, each


@pytest.mark.parametrize(("name", "system"), SYSTEMS, ids=str)
def test_chrf_plus_plus_every_wmt_system(name: str, system: str) -> None:
    """Every system, chrF++, with all the pair's references: every segment's statistics and
    their sum are sacreBLEU's."""
    corpus = pair(name)
    hyps = corpus.system(system)
    sets = len(corpus.references)
    total, each = ours(hyps, corpus.per_segment(), 2)
    assert_sacrebleu(
        each,
        "CHRF._extract_corpus_statistics",
        {"word_order": 2},
        (hyps, corpus.references),
        lambda: sacrebleu_segments(sacrebleu_chrf(name, sets, 2), hyps, None),
    )
    assert [sum(column) for column in zip(*each, strict=True)] == total


@pytest.mark.parametrize("name", PAIRS)
def test_chrf_every_wmt_pair(name: str) -> None:
    """The first system of every pair, chrF (no word orders), with all the pair's references:
    sacreBLEU's statistics."""
    corpus = pair(name)
    hyps = corpus.system(corpus.systems[0])
    sets = len(corpus.references)
    assert_sacrebleu(
        ours(hyps, corpus.per_segment(), 0)[1],
        "CHRF._extract_corpus_statistics",
        {"word_order": 0},
        (hyps, corpus.references),
        lambda: sacrebleu_segments(sacrebleu_chrf(name, sets, 0), hyps, None),
    )


@pytest.mark.parametrize("name", [p for p in PAIRS if len(pair(p).references) > 1])
def test_statistics_first_reference_alone(name: str) -> None:
    """The first system of every pair with several references, against the first alone."""
    corpus = pair(name)
    hyps = corpus.system(corpus.systems[0])
    assert_sacrebleu(
        ours(hyps, corpus.per_segment(1))[1],
        "CHRF._extract_corpus_statistics",
        {"word_order": 2},
        (hyps, corpus.references[:1]),
        lambda: sacrebleu_segments(sacrebleu_chrf(name, 1, 2), hyps, None),
    )


def test_whitespace_of_every_code_point() -> None:
    """Each code point c: the kernel finds 2 characters and 2 words in "x" + c + "y" when c
    is whitespace (str.isspace), else 3 characters and 1 word, as sacreBLEU's split() does."""
    points = [chr(c) for c in range(0x110000)]
    for start in range(0, len(points), 1 << 16):
        chunk = points[start : start + (1 << 16)]
        buffer, _ = ext.sacrebleu_chrf_counts(
            [f"x{c}y" for c in chunk], [["xy"]] * len(chunk), 1, 1, 2, False, False, True
        )
        values = memoryview(buffer or b"").cast("q")
        spaces = [c.isspace() for c in chunk]
        assert [2 if space else 3 for space in spaces] == values[0::6].tolist()
        assert [2 if space else 1 for space in spaces] == values[3::6].tolist()


GRID_PAIR = "generaltest2022/en-de"
GRID = [
    {"word_order": w, "whitespace": ws, "eps_smoothing": eps, "beta": b, "lowercase": False}
    for w, ws, eps, b in itertools.product((0, 1, 2), (False, True), (False, True), (1, 2, 3))
] + [
    {"word_order": w, "whitespace": ws, "eps_smoothing": False, "beta": 2, "lowercase": True}
    for w, ws in itertools.product((0, 2), (False, True))
]


@pytest.mark.parametrize("config", GRID, ids=lambda c: "-".join(f"{k}={v}" for k, v in c.items()))
def test_option_grid_with_two_references(config: dict[str, int | bool]) -> None:
    """Each option combination, on a window of a pair with two references: sacreBLEU's
    statistics, segment by segment (which reference wins depends on every option)."""
    corpus = pair(GRID_PAIR)
    hyps = corpus.system(corpus.systems[0])[:300]
    refs = corpus.per_segment()[:300]
    word_order, beta = int(config["word_order"]), int(config["beta"])
    flags = {k: bool(config[k]) for k in ("whitespace", "eps_smoothing", "lowercase")}
    assert_sacrebleu(
        ours(hyps, refs, word_order, beta=beta, **flags)[1],
        "CHRF._extract_corpus_statistics",
        config,
        (hyps, refs),
        lambda: sacrebleu_segments(CHRF(**config), hyps, refs),  # type: ignore[arg-type]
    )


@pytest.mark.parametrize("name", PAIRS)
def test_kernel_equals_pure_path_on_wmt(name: str) -> None:
    """A window of each pair with all its references: the kernel and the pure path
    (MTCOMPUTE_PURE=1) give the same statistics."""
    corpus = pair(name)
    hyps = corpus.system(corpus.systems[-1])[:100]
    refs = corpus.per_segment()[:100]
    with kernel_switch(True):
        on = ours(hyps, refs, 2, eps_smoothing=True)
    with kernel_switch(False):
        off = ours(hyps, refs, 2, eps_smoothing=True)
    assert on == off


PIECES = [
    *" \t\n\r\x0b\x0c\x1c\x1d\x1e\x1f\x85\xa0\u1680\u2000\u2028\u3000\u200b\ufeff",
    *"!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~0123456789abAé中",
    *("ab", "ba", "a.", "(a", "a)", "..", "\U0001f600", "\U00020000", "\ud800", "\udfff"),
]
TEXT = st.lists(st.sampled_from(PIECES), max_size=30).map("".join)
SEGMENTS = st.lists(st.tuples(TEXT, st.lists(TEXT, min_size=1, max_size=3)), min_size=1, max_size=5)
OPTIONS = st.fixed_dictionaries(
    {
        "char_order": st.integers(1, 6),
        "word_order": st.integers(0, 3),
        "beta": st.integers(0, 4),
        "whitespace": st.booleans(),
        "eps_smoothing": st.booleans(),
        "lowercase": st.booleans(),
    }
)


@settings(max_examples=300, deadline=None)
@given(SEGMENTS, OPTIONS)
def test_generated_segments(
    segments: list[tuple[str, list[str]]], options: dict[str, int | bool]
) -> None:
    """Generated segments with one to three references, any options: kernel = pure =
    sacreBLEU."""
    hyps = [h for h, _ in segments]
    refs = [r for _, r in segments]
    expected = sacrebleu_segments(CHRF(**options), hyps, refs)  # type: ignore[arg-type]
    orders = {k: int(options[k]) for k in ("char_order", "word_order", "beta")}
    flags = {k: bool(options[k]) for k in ("whitespace", "eps_smoothing", "lowercase")}

    def both(kernel: bool) -> tuple[list[int], list[list[int]]]:
        with kernel_switch(kernel):
            return ours(
                hyps,
                refs,
                orders["word_order"],
                char_order=orders["char_order"],
                beta=orders["beta"],
                **flags,
            )

    on, off = both(True), both(False)
    assert expected == on[1]
    assert on == off


@settings(max_examples=300, deadline=None)
@given(TEXT)
def test_split_words_is_remove_punctuation(text: str) -> None:
    """The pure path's words are sacreBLEU's ``_remove_punctuation``."""
    assert CHRF()._remove_punctuation(text) == split_words(text)


def test_ties_keep_the_first_reference() -> None:
    """Two references with equal f-scores (50.0 both) but different statistics: the first one
    is kept, in either order, kernel and pure alike."""
    for on in (True, False):
        with kernel_switch(on):
            first = ours(["ab"], [["ac", "abcdef"]], 0, char_order=1, beta=1)[1]
            second = ours(["ab"], [["abcdef", "ac"]], 0, char_order=1, beta=1)[1]
        assert ([[2, 2, 1]], [[2, 6, 2]]) == (first, second)


def test_thread_counts_never_change_results() -> None:
    """Split over 1, 2 or 3 threads, the statistics are the same."""
    assert_thread_counts_agree(ours)


def test_totals_without_segments() -> None:
    """Without per_segment the totals are the same and no segments come back."""
    hyps, refs = ["The cat sat.", "A dog"], [["The cat sat on the mat."], ["A dog.", "Dogs"]]
    total, each = sacrebleu_chrf_statistics(hyps, refs, 6, 2, 2)
    assert (ours(hyps, refs)[0], None) == (total, each)


def test_no_segments() -> None:
    """No segments: zero totals, kernel and pure alike."""
    for on in (True, False):
        with kernel_switch(on):
            assert ([0] * 24, []) == ours([], [], 2)


def test_refuses_malformed_input() -> None:
    """A segment without references, or a non-str, is an error naming the place."""
    with pytest.raises(ValueError, match="reference") as caught:
        sacrebleu_chrf_statistics(["a"], [[]], 6, 2, 2)
    assert "references[0] has no reference" == str(caught.value)
    with pytest.raises(TypeError, match="str") as type_error:
        sacrebleu_chrf_statistics(["a"], [["a", 3]], 6, 2, 2)  # type: ignore[list-item]
    assert "references[0][1] must be a str, got int" == str(type_error.value)


def test_kernel_names_the_fault() -> None:
    """The kernel's own checks name the field."""
    with pytest.raises(TypeError, match="str") as caught:
        ext.sacrebleu_chrf_counts(["a"], [["a", b"b"]], 6, 2, 2, False, False, False)  # type: ignore[list-item]
    assert "references[0][1] is not a str" == str(caught.value)
    with pytest.raises(ValueError, match="references") as layout:
        ext.sacrebleu_chrf_counts(["a"], [[]], 6, 2, 2, False, False, False)
    assert "references[0] must be a list of one or more str" == str(layout.value)
