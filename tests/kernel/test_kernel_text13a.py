"""The kernel's 13a text path against sacreBLEU 2.6.0 (the oracle, imported only by tests):
``mtcompute._kernel.tokenize_13a`` (the tokenizer alone, equal to
:func:`mtcompute.core.tokenizers.tokenize_13a`) and BLEU statistics from raw text through
:func:`mtcompute.metrics.bleu.counts.bleu_text_statistics` with the 13a tokenizer
(``str.lower`` when asked, ``rstrip``, 13a and ``split`` inside the kernel).

Every line of every WMT file in use (raw, right-stripped, lowercased); every pair and system
with all its references, and with the first alone lowercased; adversarial and generated strings
(entities, ``<skipped>``, newlines, every whitespace code point, U+200B, U+001C..U+001F,
astral characters, lone surrogates); the kernel against the pure path, threads, and inputs
the kernel leaves to Python.
"""

from __future__ import annotations

import functools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sacrebleu.metrics.bleu import BLEU
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

from mtcompute import native
from mtcompute.core.tokenizers import tokenize_13a
from mtcompute.metrics.bleu import counts as bleu_counts
from mtcompute.metrics.bleu.statistics import BleuStatistics
from mtcompute.native import ext
from mtcompute.tokenizers import get_tokenizer
from tests.conftest import WMT, kernel_switch
from tests.kernel_wmt import PAIRS, SYSTEMS, assert_thread_counts_agree, pair


@pytest.fixture(autouse=True)
def _needs_kernel() -> None:
    """The kernel's functions are what these tests check."""
    if not native.AVAILABLE:
        pytest.skip("built without the C kernel (MTCOMPUTE_NO_EXTENSION=1)")


SACRE_13A = Tokenizer13a()
FILES = sorted(WMT.glob("*/*/*.txt"))

ADVERSARIAL = [
    "",
    " ",
    "Hello, world! It's 3.5-times &quot;better&quot;.",
    "The price: $1,000.50 (approx.)",
    "a<skipped>b <skip<skipped>ped> <SKIPPED>",
    "line-\nbreak and\nnewline -\n\n- \n-",
    "&amp;lt; &lt;&gt; &quot&quot; &amp& &amp;quot; &&amp;amp;;",
    "....,,,,.. .,., ,. a.,b 1.,2 1,.2",
    "1.2.3 1,2,3 1-2 a-1 1- -1 1.a a.1 .5 5. 1--2 1-2-3 -1-",
    "\t\x0b\x0c\r\x1c\x1d\x1e\x1f\x85\xa0\u1680\u2000\u200a\u2028\u2029\u202f\u205f\u3000",
    "a\u200bb \u200b. ,\u200b",
    "\U0001f600 \U00020000.\U0002a6d6, \U0010ffff-1",
    "\ud800 \udfff. x\ud83d\ude00 1-\ud800",
    "{[(<>)]}~`^_|\\/@#%*+=!?;:'\"$",
    "trailing-\n",
    "a.\n\nb,\x1c c-\x85d",
]

PIECES = [
    *" \t\n\r\x0b\x0c\x1c\x1d\x1e\x1f\x85\xa0\u1680\u2000\u2028\u3000\u200b",
    *".,-&;<>0123456789$()'\"/~aZé中",
    *("&quot;", "&amp;", "&lt;", "&gt;", "<skipped>", "<skip", "ped>", "-\n"),
    *("\U0001f600", "\U00020000", "\ud800", "\udfff"),
]
TEXT = st.lists(st.sampled_from(PIECES), max_size=40).map("".join)


def sacrebleu_13a(line: str) -> str:
    """sacreBLEU's Tokenizer13a, its shared cache cleared first (no answer from another
    test's call)."""
    Tokenizer13a.__call__.cache_clear()
    return str(SACRE_13A(line))


# --- the tokenizer alone ---------------------------------------------------------------------


def test_tokenize_13a_examples() -> None:
    """The issue's two examples tokenize as sacreBLEU does."""
    assert [
        'Hello , world ! It\'s 3.5 - times " better " .',
        "The price : $ 1,000.50 ( approx . )",
    ] == [ext.tokenize_13a(line) for line in ADVERSARIAL[2:4]]


def test_tokenize_13a_adversarial_strings() -> None:
    """Adversarial strings: the kernel, the pure tokenizer and sacreBLEU agree, raw and
    right-stripped."""
    variants = [v for line in ADVERSARIAL for v in (line, line.rstrip())]
    expected = [sacrebleu_13a(v) for v in variants]
    assert expected == [tokenize_13a(v) for v in variants]
    assert expected == [ext.tokenize_13a(v) for v in variants]


@settings(max_examples=400, deadline=None)
@given(TEXT)
def test_tokenize_13a_generated_strings(line: str) -> None:
    """Generated strings over the adversarial alphabet: kernel = pure = sacreBLEU."""
    expected = sacrebleu_13a(line)
    assert expected == tokenize_13a(line)
    assert expected == ext.tokenize_13a(line)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=60))
def test_tokenize_13a_any_text(line: str) -> None:
    """Any text at all (every code point, surrogates included): kernel = sacreBLEU."""
    assert sacrebleu_13a(line) == ext.tokenize_13a(line)


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(WMT)))
def test_tokenize_13a_every_wmt_line(path: object) -> None:
    """Each line of the file, raw, right-stripped and lowercased, gets sacreBLEU's tokens."""
    lines = path.read_text(encoding="utf-8").split("\n")  # type: ignore[attr-defined]
    variants = [v for line in lines for v in (line, line.rstrip(), line.lower())]
    Tokenizer13a.__call__.cache_clear()
    assert [SACRE_13A(v) for v in variants] == [ext.tokenize_13a(v) for v in variants]


def test_tokenize_13a_whitespace_of_every_code_point() -> None:
    """Each code point c from U+0080 (which 13a's patterns never touch): "x" + c + "y" is
    two tokens when c is whitespace (str.isspace), else one."""
    points = [chr(c) for c in range(0x80, 0x110000)]
    expected = ["x y" if c.isspace() else f"x{c}y" for c in points]
    assert expected == [ext.tokenize_13a(f"x{c}y") for c in points]


def test_split_whitespace_of_every_code_point() -> None:
    """The kernel's whitespace split (tokenizer none): "x" + c + "y" is two tokens when c is
    whitespace (str.isspace), else one, for every code point."""
    points = [chr(c) for c in range(0x110000)]
    for start in range(0, len(points), 1 << 16):
        chunk = points[start : start + (1 << 16)]
        buffer, _, _ = ext.bleu_counts_text(
            [f"x{c}y" for c in chunk], [["x"]] * len(chunk), 1, True, "none"
        )
        lengths = memoryview(buffer or b"").cast("q").tolist()[::4]
        assert [2 if c.isspace() else 1 for c in chunk] == lengths


def test_tokenize_13a_refuses_a_non_str() -> None:
    """A non-str is a TypeError that says so."""
    with pytest.raises(TypeError) as caught:
        ext.tokenize_13a(b"abc")  # type: ignore[arg-type]
    assert "text must be a str" == str(caught.value)


# --- BLEU statistics from raw text ---------------------------------------------------------


def flat(stats: BleuStatistics) -> list[int]:
    """sacreBLEU's layout of BLEU statistics: [sys_len, ref_len, correct..., total...]."""
    return [stats.candidate_length, stats.reference_length, *stats.matches, *stats.totals]


@functools.cache
def sacrebleu_bleu(name: str, sets: int, lowercase: bool) -> BLEU:
    """sacreBLEU's BLEU with the pair's first ``sets`` reference sets cached in it."""
    refs = pair(name).references[:sets]
    return BLEU(lowercase=lowercase, references=[list(r) for r in refs])


def streams_of(refs: list[list[str]]) -> list[list[str | None]]:
    """sacreBLEU's layout of per-segment references: one stream per reference set, None where
    a segment has fewer references."""
    width = max(len(r) for r in refs)
    return [[r[k] if k < len(r) else None for r in refs] for k in range(width)]


def sacrebleu_segments(hyps: list[str], refs: list[list[str]], lowercase: bool) -> list[list[int]]:
    """sacreBLEU's per-segment BLEU statistics (13a, cold cache)."""
    streams = streams_of(refs)
    Tokenizer13a.__call__.cache_clear()
    metric = BLEU(lowercase=lowercase)
    return [[int(x) for x in row] for row in metric._extract_corpus_statistics(hyps, streams)]


def ours(
    hyps: list[str], refs: list[list[str]], lowercase: bool = False, threads: int | None = 1
) -> tuple[list[int], list[list[int]]]:
    """bleu_counts.bleu_text_statistics with 13a: the total and each segment, flat."""
    total, each = bleu_counts.bleu_text_statistics(
        hyps,
        refs,
        4,
        per_segment=True,
        threads=threads,
        tokenizer=get_tokenizer("13a"),
        lowercase=lowercase,
    )
    assert each is not None
    return flat(total), [flat(s) for s in each]


def sacrebleu_cached(name: str, hyps: list[str], sets: int, lowercase: bool) -> list[list[int]]:
    """sacreBLEU's per-segment statistics of ``hyps`` against the pair's references."""
    Tokenizer13a.__call__.cache_clear()
    metric = sacrebleu_bleu(name, sets, lowercase)
    return [[int(x) for x in row] for row in metric._extract_corpus_statistics(hyps, None)]


@pytest.mark.parametrize(("name", "system"), SYSTEMS, ids=str)
def test_bleu_13a_statistics_every_wmt_system(name: str, system: str) -> None:
    """Every system with all its references: every segment's statistics and their sum are
    sacreBLEU's."""
    corpus = pair(name)
    hyps = corpus.system(system)
    expected = sacrebleu_cached(name, hyps, len(corpus.references), False)
    total, each = ours(hyps, corpus.per_segment())
    assert expected == each
    assert [sum(column) for column in zip(*expected, strict=True)] == total


@pytest.mark.parametrize("name", PAIRS)
def test_bleu_13a_lowercase_statistics_every_wmt_pair(name: str) -> None:
    """The first system of every pair, lowercased, against each reference set alone: sacreBLEU's
    statistics."""
    corpus = pair(name)
    hyps = corpus.system(corpus.systems[0])
    expected = sacrebleu_cached(name, hyps, 1, True)
    assert expected == ours(hyps, corpus.per_segment(1), lowercase=True)[1]


@pytest.mark.parametrize("name", PAIRS)
def test_bleu_13a_kernel_equals_pure_path_on_wmt(name: str) -> None:
    """A window of each pair (all references): the kernel and the pure path (MTCOMPUTE_PURE=1)
    give the same statistics, mixed case and lowercased."""
    corpus = pair(name)
    system = corpus.system(corpus.systems[0])[:120]
    refs = corpus.per_segment()[:120]
    for lowercase in (False, True):
        with kernel_switch(True):
            on = ours(system, refs, lowercase)
        with kernel_switch(False):
            off = ours(system, refs, lowercase)
        assert on == off


SEGMENTS = st.lists(st.tuples(TEXT, st.lists(TEXT, min_size=1, max_size=3)), min_size=1, max_size=6)


@settings(max_examples=150, deadline=None)
@given(SEGMENTS, st.booleans())
def test_bleu_13a_generated_segments(
    segments: list[tuple[str, list[str]]], lowercase: bool
) -> None:
    """Generated segments with one to three references: kernel = pure = sacreBLEU."""
    hyps = [h for h, _ in segments]
    refs = [r for _, r in segments]
    expected = sacrebleu_segments(hyps, refs, lowercase)
    with kernel_switch(True):
        on = ours(hyps, refs, lowercase)
    with kernel_switch(False):
        off = ours(hyps, refs, lowercase)
    assert expected == on[1]
    assert on == off


def test_bleu_13a_thread_counts_never_change_results() -> None:
    """Split over 1, 2 or 3 threads, the statistics are the same."""
    assert_thread_counts_agree(ours)


class Text(str):
    """A str subclass: the kernel leaves it to Python."""

    __slots__ = ()


def test_bleu_13a_str_subclass_is_tokenized_in_python() -> None:
    """A str subclass among the texts is tokenized in Python, with the same numbers."""
    hyps = ["It's 3.5-times &quot;better&quot;.", "a b"]
    refs = [["It is 3.5 times better."], ["a, b"]]
    assert ours(hyps, refs) == ours([Text(hyps[0]), hyps[1]], [[Text(refs[0][0])], refs[1]])


@pytest.mark.parametrize("tokenize", ["zh", "char", "none"])
def test_bleu_other_tokenizers_run_in_python(tokenize: str) -> None:
    """Tokenizers the kernel does not apply run in Python before it splits: kernel on and off
    give sacreBLEU's statistics."""
    corpus = pair("generaltest2022/en-zh" if "generaltest2022/en-zh" in PAIRS else PAIRS[0])
    hyps, refs = corpus.system(corpus.systems[0])[:100], corpus.per_segment()[:100]
    streams = streams_of(refs)
    expected = [
        [int(x) for x in row]
        for row in BLEU(tokenize=tokenize)._extract_corpus_statistics(hyps, streams)
    ]
    for on in (True, False):
        with kernel_switch(on):
            _, each = bleu_counts.bleu_text_statistics(
                hyps, refs, 4, per_segment=True, tokenizer=get_tokenizer(tokenize)
            )
        assert each is not None
        assert expected == [flat(s) for s in each]


def test_bleu_without_tokenizer_splits_on_whitespace() -> None:
    """No tokenizer is today's whitespace split, and ``none`` counts the same."""
    hyps, refs = ["a b, c.", " x  y "], [["a b c ."], ["x y z"]]
    plain = bleu_counts.bleu_text_statistics(hyps, refs, 2, per_segment=True)
    none = bleu_counts.bleu_text_statistics(
        hyps, refs, 2, per_segment=True, tokenizer=get_tokenizer("none")
    )
    assert plain == none
    assert (5, 7, (3, 1), (5, 3)) == (
        plain[0].candidate_length,
        plain[0].reference_length,
        plain[0].matches,
        plain[0].totals,
    )


def test_bleu_counts_text_refuses_an_unknown_tokenizer() -> None:
    """The kernel names the tokenizers it applies."""
    with pytest.raises(ValueError, match="tokenizers") as caught:
        ext.bleu_counts_text(["a"], [["a"]], 4, False, "zh")
    assert "the kernel's tokenizers are 'none' and '13a'" == str(caught.value)


def test_bleu_counts_text_13a_problems_in_reading_order() -> None:
    """The kernel's 13a path reports the first layout fault as its whitespace path does."""
    assert (None, None, ("not_str", ("references", 1, 0), -1)) == ext.bleu_counts_text(
        ["a", "b"], [["a"], [3]], 4, False, "13a"
    )
