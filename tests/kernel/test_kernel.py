"""The C kernel (mtcompute._kernel via mtcompute.counting and the metric packages) against the
pure core.

The kernel must give exactly the pure core's integers (and, for sentence chrF, exactly the
double nearest to the exact fraction) on every input: generated text and tokens of every
PEP 393 kind, astral characters, lone surrogates, the 29 whitespace code points, empty
strings, long repetitive strings that load the hash tables, many duplicate tokens, tokens
equal but for normalization; and real WMT segments (``tests.conftest.WMT``: the full data, or
the in-repo 200-line sample, repeated where a test needs enough segments for several threads).
Thread counts never change a result, and ``MTCOMPUTE_PURE=1`` at import switches the kernel off.
"""

from __future__ import annotations

import math
import os
import random
import subprocess
import sys
import threading
import time
from array import array
from concurrent.futures import ThreadPoolExecutor
from fractions import Fraction
from functools import reduce
from operator import add
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mtcompute import counting, native
from mtcompute.metrics.bleu import counts as bleu_counts
from mtcompute.metrics.bleu.statistics import BleuStatistics, sentence_statistics
from mtcompute.metrics.chrf import ngrams
from mtcompute.metrics.chrf import statistics as chrf_counting
from mtcompute.metrics.chrf.ngrams import (
    ChrfStatistics,
    chrf_fraction,
    segment_statistics,
)
from tests.conftest import at_least, kernel_switch, wmt_lines
from tests.strategies import WHITESPACE, bleu_segments, chrf_segments


@pytest.fixture(autouse=True)
def _needs_kernel(request: pytest.FixtureRequest) -> None:
    """Every test here but the build check needs the kernel (that one fails without it)."""
    if not native.AVAILABLE and request.node.originalname != "test_extension_is_built":
        pytest.skip("built without the C kernel (MTCOMPUTE_NO_EXTENSION=1)")


# The kernel starts another thread only for 256 more segments (kernel.MIN_SEGMENTS_PER_THREAD):
# thread tests on the sample repeat its 200 lines to this many per thread they ask for.
SEGMENTS_PER_THREAD = 256

# WMT systems for the BLEU checks: one, two and three references, CJK, an empty system.
BLEU_WMT_CASES = [
    ("generaltest2022/en-de", "JDExploreAcademy", ("A", "B")),
    ("generaltest2022/en-zh", "HuaweiTSC", ("A", "B")),
    ("generaltest2022/en-ja", "Lan-Bridge", ("A",)),
    ("newstest2021/en-de", "UEdin", ("A", "C", "D")),
    ("wmttest2024/en-hi", "ONLINE-empty", ("A",)),
]


# --- strategies beyond tests/strategies.py -------------------------------------------------

SURROGATES = "\ud800\udbff\udc00\udfff"
_chars = st.one_of(
    st.characters(max_codepoint=0xFF),  # 1-byte kind
    st.characters(min_codepoint=0x100, max_codepoint=0xFFFF),  # 2-byte kind (no surrogates)
    st.characters(min_codepoint=0x10000),  # 4-byte kind
    st.sampled_from(WHITESPACE + SURROGATES + "\u200b\ufeff\x00"),
    st.sampled_from("ab"),  # a small alphabet: many repeated n-grams
)
_free_texts = st.text(_chars, max_size=40)
_repeated = st.builds(
    lambda unit, k: unit * k, st.text(_chars, min_size=1, max_size=4), st.integers(1, 300)
)
texts = st.one_of(_free_texts, _repeated, st.just(""))
text_pairs = st.one_of(chrf_segments(), st.tuples(texts, texts))

# Tokens: equal-looking spellings of different kinds or normalizations, empties, surrogates.
TRICKY_TOKENS = (
    *("é", "e\u0301", "e", "E", "ß", "ss", "", "a", "aa", "😀", "\ud800", "\udfff"),
    *("中", "a" * 200, "\x00", " ", "ÿ", "Ā"),
)
_tokens = st.one_of(st.sampled_from(TRICKY_TOKENS), st.text(_chars, max_size=6))
_token_lists = st.lists(_tokens, max_size=30)
_dup_lists = st.builds(
    lambda tokens, k: tokens * k,
    st.lists(st.sampled_from(TRICKY_TOKENS[:4]), min_size=1, max_size=3),
    st.integers(1, 60),
)
token_lists = st.one_of(_token_lists, _dup_lists)
bleu_inputs = st.one_of(
    bleu_segments(),
    st.tuples(token_lists, st.lists(token_lists, min_size=1, max_size=5)),
)


# --- the build and the switch ----------------------------------------------------------------


def test_extension_is_built() -> None:
    """The C kernel was compiled and imports, unless MTCOMPUTE_NO_EXTENSION=1 says it is not."""
    expected = os.environ.get("MTCOMPUTE_NO_EXTENSION") != "1"
    assert expected == native.AVAILABLE


class _NoKernel:
    """Stands in for the extension: any call through it is a test failure."""

    MAX_ORDER = MAX_BETA = 10

    def __getattr__(self, name: str) -> object:
        raise AssertionError(f"the kernel's {name} was called on the pure path")


def test_pure_switch_at_run_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """native.switch(False) puts every twin on the pure path for the next call, and
    native.switch(True) on the kernel's again."""
    expected = ChrfStatistics((2, 1), (2, 1), (2, 1))
    with kernel_switch(False):
        monkeypatch.setattr(chrf_counting, "_ext", _NoKernel())
        assert (False, expected) == (
            native.kernel_in_use(),
            chrf_counting.chrf_segment_statistics("ab", "ab", 2, False),
        )
        monkeypatch.undo()
    with kernel_switch(True):
        assert native.kernel_in_use()
        assert ChrfStatistics((1, 0), (1, 0), (1, 0)) == chrf_counting.chrf_segment_statistics(
            "a", "a", 2, False
        )


@pytest.mark.skipif(not native.AVAILABLE, reason="built without the C kernel")
def test_the_path_is_decided_at_import(monkeypatch: pytest.MonkeyPatch) -> None:
    """The path is the one chosen at import: MTCOMPUTE_PURE set or deleted later in the
    process changes nothing; native.switch changes it."""
    at_import = native.kernel_in_use()
    seen = []
    for value in ("1", "0", None):
        if value is None:
            monkeypatch.delenv("MTCOMPUTE_PURE")
        else:
            monkeypatch.setenv("MTCOMPUTE_PURE", value)  # os.environ[...] = value, undone after
        seen.append(native.kernel_in_use())
    with kernel_switch(False):
        seen.append(native.kernel_in_use())
        with kernel_switch(True):
            seen.append(native.kernel_in_use())
    assert [at_import, at_import, at_import, False, True] == seen


def test_kernel_and_pure_sets_the_seam(kernel_and_pure: str) -> None:
    """conftest's kernel_and_pure runs a test once per path: native.kernel_in_use() says
    which, and every twin made so far runs that path."""
    kernel = kernel_and_pure == "kernel"
    paths = {
        repr(each): each.chosen is (each.kernel if kernel else each.pure) for each in native.twins()
    }
    assert (kernel_and_pure, kernel, dict.fromkeys(paths, True)) == (
        kernel_and_pure,
        native.kernel_in_use(),
        paths,
    )


def test_pure_switch_at_import_time() -> None:
    """A fresh interpreter started with MTCOMPUTE_PURE=1 has the kernel built but inactive."""
    code = "from mtcompute import native; print(native.AVAILABLE, native.kernel_in_use())"
    env = {**os.environ, "MTCOMPUTE_PURE": "1"}
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    assert "True False" == out.stdout.strip()


# --- chrF statistics -------------------------------------------------------------------------


@given(text_pairs, st.integers(1, 10), st.booleans())
@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_chrf_segment_statistics_equal_pure(
    pair: tuple[str, str], char_order: int, lowercase: bool
) -> None:
    """The seam segment_statistics gives the pure counts, for any order 1..10."""
    hypothesis, reference = pair
    with kernel_switch(True):
        actual = chrf_counting.chrf_segment_statistics(hypothesis, reference, char_order, lowercase)
    assert segment_statistics(hypothesis, reference, char_order, lowercase) == actual


@given(st.lists(text_pairs, max_size=8), st.integers(1, 8))
@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_chrf_statistics_many_equal_pure(pairs: list[tuple[str, str]], char_order: int) -> None:
    """chrf_statistics_many gives, segment by segment, the pure counts."""
    hyps, refs = [h for h, _ in pairs], [r for _, r in pairs]
    expected = [segment_statistics(h, r, char_order) for h, r in pairs]
    with kernel_switch(True):
        assert expected == chrf_counting.chrf_statistics_many(hyps, refs, char_order, threads=1)


@pytest.mark.parametrize("path", ["kernel", "pure"])
@given(st.lists(text_pairs, max_size=8), st.integers(1, 8), st.booleans())
@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_chrf_statistics_and_total_equal_pure(
    path: str, pairs: list[tuple[str, str]], char_order: int, lowercase: bool
) -> None:
    """chrf_statistics_and_total gives the pure counts of each segment and their sum."""
    hyps, refs = [h for h, _ in pairs], [r for _, r in pairs]
    expected = [segment_statistics(h, r, char_order, lowercase) for h, r in pairs]
    total = reduce(add, expected, ChrfStatistics.zero(char_order))
    with kernel_switch(path == "kernel"):
        actual = chrf_counting.chrf_statistics_and_total(hyps, refs, char_order, lowercase)
    assert (expected, total) == actual


_COUNTS = st.one_of(st.integers(0, 31), st.integers(0, 2**20), st.integers(0, 2**42))


@st.composite
def _count_sets(draw: st.DrawFn, orders: int | None = None) -> ChrfStatistics:
    """Per-order counts (``orders`` of them, or 1 to 8), mostly valid (matches at most both
    counts), some not."""
    if orders is None:
        orders = draw(st.integers(1, 8))
    hyp = tuple(draw(_COUNTS) for _ in range(orders))
    ref = tuple(draw(_COUNTS) for _ in range(orders))
    matches = tuple(
        draw(st.integers(0, min(h, r)) if draw(st.booleans()) else _COUNTS)
        for h, r in zip(hyp, ref, strict=True)
    )
    return ChrfStatistics(hyp, ref, matches)


@pytest.mark.parametrize("path", ["kernel", "pure"])
@given(st.lists(text_pairs, max_size=8), st.integers(1, 8), st.booleans(), st.integers(1, 12))
@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_chrf_ratios_equal_pure(
    path: str, pairs: list[tuple[str, str]], char_order: int, lowercase: bool, beta: int
) -> None:
    """chrf_ratios gives chrf_ratio of the summed pure counts and of each segment's."""
    hyps, refs = [h for h, _ in pairs], [r for _, r in pairs]
    rows = [segment_statistics(h, r, char_order, lowercase) for h, r in pairs]
    total = reduce(add, rows, ChrfStatistics.zero(char_order))
    expected = (ngrams.chrf_ratio(total, beta), [ngrams.chrf_ratio(s, beta) for s in rows])
    with kernel_switch(path == "kernel"):
        assert expected == chrf_counting.chrf_ratios(hyps, refs, beta, char_order, lowercase)


@pytest.mark.skipif(not native.AVAILABLE, reason="built without the C kernel")
def test_chrf_ratios_past_128_bits_are_finished_in_python() -> None:
    """Order 10 over texts of 150-171 code points: the lcm of ten consecutive counts passes
    2^62, so the kernel leaves the corpus and two segments to Python (None), and
    chrf_ratios still gives chrf_ratio of the pure counts."""
    rng = random.Random(3)
    hyps = ["".join(rng.choice("abcdefgh") for _ in range(n)) for n in (150, 171, 40)]
    refs = ["".join(rng.choice("abcdefgh") for _ in range(n)) for n in (163, 149, 41)]
    rows = [segment_statistics(h, r, 10) for h, r in zip(hyps, refs, strict=True)]
    total = ChrfStatistics.total(rows, 10)
    expected = (ngrams.chrf_ratio(total, 2), [ngrams.chrf_ratio(s, 2) for s in rows])
    with kernel_switch(True):
        buffer, _ = native.ext.chrf_counts(hyps, refs, 10, True)
        kernel_total, kernel_rows = native.ext.chrf_ratios(buffer, 10, 2)
        assert ([None, None, expected[1][2]], None, expected) == (
            kernel_rows,
            kernel_total,
            chrf_counting.chrf_ratios(hyps, refs, 2, 10),
        )


@pytest.mark.skipif(not native.AVAILABLE, reason="built without the C kernel")
@given(
    st.integers(1, 8).flatmap(lambda n: st.lists(_count_sets(n), max_size=6)), st.integers(1, 16)
)
@settings(max_examples=400, deadline=None)
def test_kernel_chrf_ratios_are_the_python_ratios(rows: list[ChrfStatistics], beta: int) -> None:
    """The kernel's chrf_ratios of a counts buffer is Python's reduced fraction of the rows'
    sum and of each row, or None only where an effective order's count is negative or
    reaches 2^40, or the integers pass 128 bits (never for counts under 32)."""
    order = len(rows[0].hypothesis) if rows else 1
    buffer = array("q", [x for s in rows for x in (*s.hypothesis, *s.reference, *s.matches)])
    total, ours = native.ext.chrf_ratios(buffer.tobytes(), order, beta)
    summed = ChrfStatistics.total(rows, order)
    rows = [summed, *rows]
    ours = [total, *ours]
    expected = [ngrams.chrf_ratio(s, beta) for s in rows]
    small = [max((*s.hypothesis, *s.reference, *s.matches)) < 32 for s in rows]
    assert (expected, [False] * len(rows)) == (
        [e if o is None else o for e, o in zip(expected, ours, strict=True)],
        [o is None and sm for o, sm in zip(ours, small, strict=True)],
    )


def test_chrf_long_repetitive_texts() -> None:
    """Long runs of few characters (deep probe chains, counts in the thousands) count right."""
    rng = random.Random(7)
    pairs = [
        ("ab" * 3000, "ba" * 2999 + "a"),
        ("a" * 5000, "a" * 4000 + "\ud800" * 10),
        ("".join(rng.choice("xyz ") for _ in range(20000)), "xyz" * 5000),
        ("😀é" * 2000, "é😀" * 2001),
    ]
    expected = [segment_statistics(h, r, 8) for h, r in pairs]
    with kernel_switch(True):
        actual = chrf_counting.chrf_statistics_many([h for h, _ in pairs], [r for _, r in pairs], 8)
    assert expected == actual


@pytest.mark.parametrize(
    ("pair", "system", "lowercase"),
    [
        ("generaltest2022/en-de", "Online-B", False),
        ("generaltest2022/en-zh", "Online-B", False),
        ("generaltest2022/en-ja", "NT5", True),
        ("generaltest2022/cs-uk", "AMU", True),
        ("wmttest2024/en-hi", "Aya23", False),
        ("wmttest2024/ja-zh", "IKUN", False),
        ("florestest2021/hi-bn", "UEdin", False),
    ],
)
def test_chrf_statistics_equal_pure_on_wmt(pair: str, system: str, lowercase: bool) -> None:
    """On real WMT segments the kernel's counts equal the pure counts, segment by segment."""
    hyps = wmt_lines(f"{pair}/sys.{system}.txt")[:300]
    refs = wmt_lines(f"{pair}/ref.A.txt")[:300]
    expected = [segment_statistics(h, r, 6, lowercase) for h, r in zip(hyps, refs, strict=True)]
    with kernel_switch(True):
        assert expected == chrf_counting.chrf_statistics_many(hyps, refs, 6, lowercase)


def test_chrf_totals_and_scores_equal_pure_on_wmt() -> None:
    """Summed counts and per-segment floats equal the pure sums and float(chrf_fraction)."""
    hyps = wmt_lines("wmttest2024/en-hi/sys.ONLINE-empty.txt")[:200]
    hyps += wmt_lines("generaltest2022/en-de/sys.PROMT.txt")[:200]
    refs = wmt_lines("wmttest2024/en-hi/ref.A.txt")[:200]
    refs += wmt_lines("generaltest2022/en-de/ref.B.txt")[:200]
    stats = [segment_statistics(h, r) for h, r in zip(hyps, refs, strict=True)]
    total = ChrfStatistics.zero(6)
    for s in stats:
        total = total + s
    for beta in (1, 2, 3, 16):
        expected = (total, tuple(float(chrf_fraction(s, beta)) for s in stats))
        with kernel_switch(True):
            assert expected == chrf_counting.chrf_totals(hyps, refs, segment_beta=beta)


# --- exact sentence chrF ---------------------------------------------------------------------


@given(
    st.lists(
        st.tuples(st.integers(0, 2**36), st.integers(0, 2**36), st.integers(0, 2**36)),
        min_size=1,
        max_size=8,
    ),
    st.integers(1, 16),
)
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_chrf_scores_from_any_counts(rows: list[tuple[int, int, int]], beta: int) -> None:
    """From arbitrary counts (any effective orders, any sizes) the kernel's float is
    float(chrf_fraction) or NaN (handed back), never another number."""
    from array import array

    from mtcompute import _kernel

    order = len(rows)
    stats = ChrfStatistics(
        tuple(h for h, _, _ in rows), tuple(r for _, r, _ in rows), tuple(m for _, _, m in rows)
    )
    buffer = array("q", [*stats.hypothesis, *stats.reference, *stats.matches]).tobytes()
    (actual,) = _kernel.chrf_scores(buffer, order, beta)
    expected = float(chrf_fraction(stats, beta))
    assert math.isnan(actual) or expected == actual


def test_pairwise_equals_pure_on_generated_texts() -> None:
    """Every pair of a varied set (all kinds, empties, whitespace-only) equals the pure float."""
    rng = random.Random(3)
    pool = "abc é\u0301😀\ud800中\t\u3000\xa0" + WHITESPACE
    segments = ["", " ", "\u3000\t", "a", "ab", "abcdef", "abcdefg"]
    segments += ["".join(rng.choice(pool) for _ in range(rng.randint(0, 60))) for _ in range(40)]
    for beta in (1, 2, 5):
        expected = [
            [float(chrf_fraction(segment_statistics(h, r), beta)) for r in segments]
            for h in segments
        ]
        with kernel_switch(True):
            assert expected == chrf_counting.chrf_pairwise_matrix(segments, segments, beta)
            assert expected[:7] == chrf_counting.chrf_pairwise_matrix(segments[:7], segments, beta)


def test_pairwise_long_segments_fall_back_exactly() -> None:
    """Paragraph-long texts overflow 128 bits; those pairs are finished with Fraction."""
    rng = random.Random(5)
    long = ["".join(rng.choice("abcdefgh") for _ in range(n)) for n in (3000, 2500, 4001)]
    mixed = [*long, "abcdefgh" * 10, "short"]
    expected = [[float(chrf_fraction(segment_statistics(h, r), 2)) for r in mixed] for h in mixed]
    with kernel_switch(True):
        assert expected == chrf_counting.chrf_pairwise_matrix(mixed, mixed, 2, threads=1)


@pytest.mark.parametrize(
    ("pair", "system"),
    [
        ("generaltest2022/en-de", "Online-W"),
        ("generaltest2022/en-zh", "LanguageX"),
        ("generaltest2022/en-ja", "KYB"),
        ("wmttest2024/en-hi", "IKUN"),
    ],
)
def test_pairwise_equals_pure_on_wmt(pair: str, system: str) -> None:
    """A 24x24 block of real segments (MBR-style, hypotheses = references) equals the pure
    float(chrf_fraction) for every pair, and so does a block against the references."""
    hyps = wmt_lines(f"{pair}/sys.{system}.txt")[100:124]
    refs = wmt_lines(f"{pair}/ref.A.txt")[100:112]
    for others in (hyps, refs):
        expected = [
            [float(chrf_fraction(segment_statistics(h, r), 2)) for r in others] for h in hyps
        ]
        with kernel_switch(True):
            assert expected == chrf_counting.chrf_pairwise_matrix(hyps, others, 2)


# --- BLEU statistics -------------------------------------------------------------------------


@given(bleu_inputs, st.integers(1, 8))
@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_bleu_sentence_statistics_equal_pure(
    segment: tuple[list[str], list[list[str]]], max_order: int
) -> None:
    """The seam sentence_statistics gives the pure statistics (empty tokens, surrogates and
    look-alike tokens included: tokens compare as Python str do)."""
    hypothesis, references = segment
    with kernel_switch(True):
        actual = bleu_counts.bleu_sentence_statistics(hypothesis, references, max_order)
    assert sentence_statistics(hypothesis, references, max_order) == actual


@given(st.lists(bleu_inputs, max_size=8), st.integers(1, 8))
@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_bleu_statistics_many_equal_pure(
    segments: list[tuple[list[str], list[list[str]]]], max_order: int
) -> None:
    """bleu_statistics_many gives, segment by segment, the pure statistics."""
    hyps, refs = [h for h, _ in segments], [r for _, r in segments]
    expected = [sentence_statistics(h, r, max_order) for h, r in segments]
    with kernel_switch(True):
        assert expected == bleu_counts.bleu_statistics_many(hyps, refs, max_order, threads=1)


def test_bleu_str_subclass_and_non_str_tokens_use_the_pure_path() -> None:
    """Tokens the kernel does not take (str subclasses, ints) still give the pure answer."""

    class Word(str):
        __slots__ = ()

    hypothesis = [Word("a"), "b", Word("a")]
    references = [["a", Word("b")], ["a", "a"]]
    with kernel_switch(True):
        assert sentence_statistics(
            hypothesis, references, 2
        ) == bleu_counts.bleu_sentence_statistics(hypothesis, references, 2)
        numbers = bleu_counts.bleu_sentence_statistics([1, 2, 1], [[1, 2]], 2)  # type: ignore[list-item]
    assert BleuStatistics(3, 2, (2, 1), (3, 2)) == numbers


@pytest.mark.parametrize(("pair", "system", "references"), BLEU_WMT_CASES)
def test_bleu_statistics_equal_pure_on_wmt(
    pair: str, system: str, references: tuple[str, ...]
) -> None:
    """On real WMT segments (whitespace tokens) the kernel's statistics equal the pure ones."""
    hyps = [line.split() for line in wmt_lines(f"{pair}/sys.{system}.txt")[:400]]
    columns = [wmt_lines(f"{pair}/ref.{ref}.txt")[:400] for ref in references]
    refs = [[column[i].split() for column in columns] for i in range(len(hyps))]
    expected = [sentence_statistics(h, r, 4) for h, r in zip(hyps, refs, strict=True)]
    with kernel_switch(True):
        assert expected == bleu_counts.bleu_statistics_many(hyps, refs, 4)


# --- BLEU on texts split by the kernel (str.split() tokens) ---------------------------------

# Every code point str.split() splits on, beyond the 29 of the chrF contract: the four ASCII
# separators U+001C..U+001F are already among those; none of these may be missed.
SPLIT_WHITESPACE = "".join(chr(c) for c in range(0x110000) if chr(c).isspace())
_split_texts = st.one_of(
    st.text(st.one_of(_chars, st.sampled_from(SPLIT_WHITESPACE)), max_size=60),
    st.lists(st.sampled_from(TRICKY_TOKENS[:-1]), max_size=20).map(" ".join),
    st.builds(lambda unit, k: " ".join([unit] * k), _tokens, st.integers(1, 40)),
)
text_segments = st.tuples(_split_texts, st.lists(_split_texts, min_size=1, max_size=4))


def split_statistics(
    hyps: list[str], refs: list[list[str]], max_order: int
) -> tuple[BleuStatistics, list[BleuStatistics]]:
    """The pure core on the str.split() tokens: the oracle for the kernel's own splitting."""
    each = [
        sentence_statistics(h.split(), [r.split() for r in rs], max_order)
        for h, rs in zip(hyps, refs, strict=True)
    ]
    total = BleuStatistics(0, 0, (0,) * max_order, (0,) * max_order)
    for stats in each:
        total = total + stats
    return total, each


def test_split_whitespace_covers_the_contract_whitespace() -> None:
    """The generator's whitespace holds every code point str.split() splits on (the chrF
    contract's 29 among them), so a missed separator in the kernel would show."""
    assert (set(WHITESPACE) <= set(SPLIT_WHITESPACE), len(SPLIT_WHITESPACE)) == (True, 29)


@given(st.lists(text_segments, max_size=8), st.integers(1, 8), st.booleans())
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_bleu_text_statistics_equal_pure_split(
    segments: list[tuple[str, list[str]]], max_order: int, per_segment: bool
) -> None:
    """The kernel's splitting and counting give the pure core's statistics of str.split()."""
    hyps = [h for h, _ in segments]
    refs = [rs for _, rs in segments]
    total, each = split_statistics(hyps, refs, max_order)
    expected = (total, each if per_segment else None)
    with kernel_switch(True):
        assert expected == bleu_counts.bleu_text_statistics(
            hyps, refs, max_order, per_segment=per_segment
        )
    with kernel_switch(False):
        assert expected == bleu_counts.bleu_text_statistics(
            hyps, refs, max_order, per_segment=per_segment
        )


def test_bleu_text_tokens_of_different_kinds_are_equal() -> None:
    """A token in a 1-byte text equals the same token in a 2- or 4-byte text (the kernel
    widens every text), and tokens differing only by kind-changing characters differ."""
    hyps = ["the cat é", "the cat 中", "the 😀 cat"]
    refs = [["the cat é 中"], ["the cat é"], ["the cat 😀 x"]]
    with kernel_switch(True):
        assert split_statistics(hyps, refs, 4) == bleu_counts.bleu_text_statistics(
            hyps, refs, 4, per_segment=True
        )


def test_bleu_text_inputs_the_kernel_refuses_are_split_in_python() -> None:
    """A str subclass is the pure path's to count; a segment without references is refused."""

    class Text(str):
        __slots__ = ()

    hyps = [Text("a b"), "c d"]
    refs = [["a b"], ["c"]]
    with kernel_switch(True):
        assert split_statistics(hyps, refs, 2) == bleu_counts.bleu_text_statistics(
            hyps, refs, 2, per_segment=True
        )
        with pytest.raises(ValueError, match=r"references\[0\] has no reference"):
            bleu_counts.bleu_text_statistics(["a"], [[]], 2)


@pytest.mark.parametrize(("pair", "system", "references"), BLEU_WMT_CASES)
@pytest.mark.parametrize("threads", [1, 2])
def test_bleu_text_statistics_equal_pure_on_wmt(
    pair: str, system: str, references: tuple[str, ...], threads: int
) -> None:
    """On whole WMT files the kernel's split statistics equal the pure core's, on any
    number of threads (the sample's files repeated to enough segments for two threads)."""
    enough = 2 * SEGMENTS_PER_THREAD
    hyps = at_least(wmt_lines(f"{pair}/sys.{system}.txt"), enough)
    columns = [at_least(wmt_lines(f"{pair}/ref.{ref}.txt"), enough) for ref in references]
    refs = [[column[i] for column in columns] for i in range(len(hyps))]
    expected = split_statistics(hyps, refs, 4)
    with kernel_switch(True):
        assert expected == bleu_counts.bleu_text_statistics(
            hyps, refs, 4, per_segment=True, threads=threads
        )


PROBLEM_CASES = [
    ([["a"], "b c"], [[["a"]], [["b"]]], ("not_array", ("hypotheses", 1), -1)),
    ([["a", 3]], [[["a"]]], ("not_str", ("hypotheses", 0, 1), -1)),
    ([["a", ""]], [[["a"]]], ("empty", ("hypotheses", 0, 1), -1)),
    ([["a", "b\udc00"]], [[["a"]]], ("surrogate", ("hypotheses", 0, 1), 1)),
    ([["a"], ["b"]], [[["a"]], []], ("no_references", ("references", 1), -1)),
    ([["a"]], [[["a"], None]], ("not_array", ("references", 0, 1), -1)),
    ([["a"]], [(["a"], ("x", "😀\ud800"))], ("surrogate", ("references", 0, 1, 1), 1)),
    ([["a"], [""]], [[[7]], [["b"]]], ("empty", ("hypotheses", 1, 0), -1)),
    ([["a"]], ["a"], ("not_array", ("references", 0), -1)),
]


@pytest.mark.parametrize(("hyps", "refs", "expected"), PROBLEM_CASES)
@pytest.mark.parametrize("on", [True, False], ids=["kernel", "pure"])
def test_token_problems_found_in_reading_order(
    hyps: list[object], refs: list[object], expected: tuple[object, ...], on: bool
) -> None:
    """Both paths report the same first fault: all hypotheses before any reference."""
    with kernel_switch(on), pytest.raises(bleu_counts.TokenProblem) as caught:
        bleu_counts.bleu_totals(hyps, refs, 4, validate=True)  # type: ignore[arg-type]
    assert expected == (caught.value.code, caught.value.path, caught.value.position)


def test_token_problem_across_thread_chunks() -> None:
    """Split over threads, the reported fault is still the first in reading order."""
    hyps: list[list[object]] = [["a", "b"]] * 1200
    refs: list[list[list[object]]] = [[["a"]]] * 1200
    hyps[1100] = ["x", ""]
    refs[3] = [["b", 5]]
    with kernel_switch(True), pytest.raises(bleu_counts.TokenProblem) as caught:
        bleu_counts.bleu_totals(hyps, refs, 4, validate=True, threads=4)  # type: ignore[arg-type]
    assert ("empty", ("hypotheses", 1100, 1)) == (caught.value.code, caught.value.path)


# --- threads ---------------------------------------------------------------------------------


def test_thread_counts_never_change_results() -> None:
    """1, 2 and 5 threads give identical chrF, BLEU and pairwise results on a real corpus
    (the sample's file repeated to enough segments for five threads)."""
    enough = 5 * SEGMENTS_PER_THREAD
    hyps = at_least(wmt_lines("generaltest2022/en-de/sys.OpenNMT.txt"), enough)
    refs = at_least(wmt_lines("generaltest2022/en-de/ref.A.txt"), enough)
    refs_b = at_least(wmt_lines("generaltest2022/en-de/ref.B.txt"), enough)
    hyp_tokens = [h.split() for h in hyps]
    ref_tokens = [[a.split(), b.split()] for a, b in zip(refs, refs_b, strict=True)]
    block = hyps[:70]
    with kernel_switch(True):
        results = [
            (
                chrf_counting.chrf_statistics_many(hyps, refs, threads=t),
                chrf_counting.chrf_totals(hyps, refs, lowercase=True, segment_beta=2, threads=t),
                bleu_counts.bleu_statistics_many(hyp_tokens, ref_tokens, threads=t),
                bleu_counts.bleu_totals(hyp_tokens, ref_tokens, validate=True, threads=t),
                chrf_counting.chrf_pairwise_matrix(block, block, threads=t),
            )
            for t in (1, 2, 5)
        ]
    assert [results[0]] * 3 == results


def test_concurrent_calls_from_many_threads() -> None:
    """Kernel calls running at once in several Python threads (the GIL released while
    counting, scratch tables per call) each get the serial answer."""
    hyps = wmt_lines("generaltest2022/en-zh/sys.Manifold.txt")
    refs = wmt_lines("generaltest2022/en-zh/ref.B.txt")
    tokens = [h.split() for h in hyps]
    ref_tokens = [[r.split()] for r in refs]
    with kernel_switch(True):
        expected_chrf = chrf_counting.chrf_statistics_many(hyps, refs, threads=1)
        expected_bleu = bleu_counts.bleu_statistics_many(tokens, ref_tokens, threads=1)
        with ThreadPoolExecutor(max_workers=6) as pool:
            chrf_jobs = [
                pool.submit(chrf_counting.chrf_statistics_many, hyps, refs, threads=1)
                for _ in range(6)
            ]
            bleu_jobs = [
                pool.submit(bleu_counts.bleu_statistics_many, tokens, ref_tokens, threads=1)
                for _ in range(6)
            ]
            chrf_results = [job.result() for job in chrf_jobs]
            bleu_results = [job.result() for job in bleu_jobs]
    assert ([expected_chrf] * 6, [expected_bleu] * 6) == (chrf_results, bleu_results)


def test_thread_count_from_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """threads=None reads MTCOMPUTE_THREADS, else uses every CPU."""
    monkeypatch.setenv("MTCOMPUTE_THREADS", "1")
    one = counting.thread_count()
    monkeypatch.delenv("MTCOMPUTE_THREADS")
    assert (1, os.cpu_count() or 1, 3) == (one, counting.thread_count(), counting.thread_count(3))


def test_threads_in_context_are_the_calling_thread_s(monkeypatch: pytest.MonkeyPatch) -> None:
    """threads_in_context sets threads=None's count for its block, in the calling thread
    only (another thread reads MTCOMPUTE_THREADS); the block's end restores it."""
    monkeypatch.setenv("MTCOMPUTE_THREADS", "3")
    seen: list[int] = []
    with counting.threads_in_context(1):
        inside = counting.thread_count()
        other = threading.Thread(target=lambda: seen.append(counting.thread_count()))
        other.start()
        other.join()
    assert (1, [3], 3) == (inside, seen, counting.thread_count())


def test_sentence_score_by_hand() -> None:
    """chrF3 of "aa" against "ab": P = R = 1/2 on the one effective order... 25 exactly."""
    stats = segment_statistics("aa", "ab", 6)
    with kernel_switch(True):
        _, scores = chrf_counting.chrf_totals(["aa"], ["ab"], segment_beta=3)
    assert (Fraction(25), (25.0,)) == (chrf_fraction(stats, 3), scores)


@pytest.mark.parametrize(
    ("hyps", "refs", "error", "message"),
    [
        (["a b"], ["a b"], TypeError, r"references\[0\] must be a list of str, got str"),
        ([b"a b"], [["a b"]], TypeError, r"hypotheses\[0\] must be a str, got bytes"),
        (["a"], [["a", 3]], TypeError, r"references\[0\]\[1\] must be a str, got int"),
        (["a", "b"], [["a"]], ValueError, "2 hypotheses but 1 reference lists"),
        ("a b", [["a b"]], TypeError, "must be lists"),
    ],
)
@pytest.mark.parametrize("on", [True, False], ids=["kernel", "pure"])
def test_bleu_text_statistics_refuses_malformed_input(
    hyps: Any, refs: Any, error: type[Exception], message: str, on: bool
) -> None:
    """A reference given as a bare str (not a list of str) would be read one character per
    reference: it is refused, as every other malformed layout, on both paths."""
    with kernel_switch(on), pytest.raises(error, match=message):
        bleu_counts.bleu_text_statistics(hyps, refs, 2)


class _Stop(BaseException):
    """Not an Exception: as KeyboardInterrupt or SystemExit would be."""


@pytest.mark.parametrize("failing", [{0}, {1}, {2, 3}, {0, 1, 2, 3}])
@pytest.mark.parametrize("kind", [ValueError, _Stop])
def test_thread_spans_wait_for_every_thread_and_raise_the_first_error(
    failing: set[int], kind: type[BaseException]
) -> None:
    """map_spans joins every thread before it raises, whatever the error type, and raises
    the error of the first failing span."""
    finished: list[int] = []

    def work(start: int, stop: int) -> int:
        span = start // 100
        time.sleep(0.05 * (3 - span))  # later spans finish first
        finished.append(span)
        if span in failing:
            raise kind(span)
        return stop - start

    with pytest.raises(kind) as raised:
        counting.map_spans(work, 400, 4, 100)
    assert (min(failing), [0, 1, 2, 3]) == (raised.value.args[0], sorted(finished))
