"""BLEU, chrF and chrF++ of undecoded lines (``mtcompute._kernel.bleu_counts_lines`` and
``sacrebleu_chrf_lines``, what ``mtcompute score`` counts their chunks by) against the text
path they stand for: the lines decoded by ``split_lines`` and counted by ``bleu_counts_text``
or ``sacrebleu_chrf_counts``, the same buffer and totals, on every WMT pair's files whole
(13a and ``none``; chrF, chrF++ and words alone; every reference file) and on generated lines
(bytes that are not UTF-8, ``\\r``, every whitespace, entities, astral characters, a missing
final newline, one to three references); ``None`` for input the text path must decide; and
:func:`mtcompute.metrics.bleu.corpus.corpus_bleu_lines` and ``corpus_chrf_lines`` against
:func:`~mtcompute.metrics.bleu.corpus.corpus_bleu` and ``corpus_chrf``.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mtcompute import native
from mtcompute.metrics.bleu import score as sacre_bleu
from mtcompute.metrics.bleu.corpus import corpus_bleu, corpus_bleu_lines
from mtcompute.metrics.chrf.corpus import corpus_chrf, corpus_chrf_lines
from mtcompute.metrics.chrf.score import ChrfOptions
from mtcompute.streaming import split_lines
from tests.conftest import WMT, kernel_switch
from tests.kernel_wmt import PAIRS

pytestmark = pytest.mark.skipif(not native.AVAILABLE, reason="the kernel is not built")


def decoded_lines(
    hyps: bytes, refs: tuple[bytes, ...], count: int
) -> tuple[list[str], list[list[str]]] | None:
    """The lines as split_lines decodes them (None when one is not UTF-8 or an input has
    another count of lines), references per segment."""
    decoded = []
    for data in (hyps, *refs):
        lines, stop, bad = split_lines(data, 0, count, True)
        if bad >= 0 or len(lines) != count or stop != len(data):
            return None
        decoded.append(lines)
    return decoded[0], [list(segment) for segment in zip(*decoded[1:], strict=True)]


def chrf_text_path(
    hyps: bytes, refs: tuple[bytes, ...], count: int, orders: tuple[int, int], *flags: bool
) -> tuple[bytes | None, tuple[int, ...]] | None:
    """What sacrebleu_chrf_lines stands for: the lines decoded, then sacrebleu_chrf_counts
    (flags: whitespace, eps_smoothing, per_segment)."""
    found = decoded_lines(hyps, refs, count)
    if found is None:
        return None
    return native.ext.sacrebleu_chrf_counts(*found, *orders, 2, *flags)


def text_path(
    hyps: bytes, refs: tuple[bytes, ...], count: int, order: int, per: bool, tok: str
) -> tuple[bytes | None, tuple[int, ...]] | None:
    """What bleu_counts_lines stands for: the lines decoded (None when one is not UTF-8 or
    an input has another count of lines), then bleu_counts_text."""
    found = decoded_lines(hyps, refs, count)
    if found is None:
        return None
    buffer, totals, problem = native.ext.bleu_counts_text(*found, order, per, tok)
    assert problem is None
    return buffer, totals


def wmt_files(name: str) -> tuple[list[bytes], tuple[bytes, ...]]:
    """The raw files of one pair: its systems' and its references'."""
    folder = WMT / name
    systems = [p.read_bytes() for p in sorted(folder.glob("sys.*.txt")) if raw(p)]
    refs = tuple(p.read_bytes() for p in sorted(folder.glob("ref.*.txt")) if raw(p))
    return systems, refs


def raw(path: Path) -> bool:
    return not path.name.endswith(".tok.txt")


@pytest.mark.parametrize("name", PAIRS)
def test_every_wmt_pair_counts_as_its_decoded_lines(name: str) -> None:
    """Each pair's first system against all its reference files, then against the first
    alone, 13a and none, with the per-segment buffer: the text path's answer."""
    systems, refs = wmt_files(name)
    count = systems[0].count(b"\n") + (not systems[0].endswith(b"\n"))
    for tok in ("13a", "none"):
        for chosen in (refs, refs[:1]):
            expected = text_path(systems[0], chosen, count, 4, True, tok)
            assert expected is not None
            assert expected == native.ext.bleu_counts_lines(systems[0], chosen, count, 4, True, tok)


PIECES = [
    *(b" ", b"\t", b"\r", b"\x0b", b"\x1c", "\x85".encode(), "\u3000".encode()),
    *(b".", b",", b"-", b"&quot;", b"&amp;", b"<skipped>", b"0", b"7", b"a", b"Z", b"'"),
    *("é".encode(), "中".encode(), "\U0001f600".encode(), "\u200b".encode()),
    *(b"\xff", b"\xed\xa0\x80", b"\xe2\x82"),  # never UTF-8, a surrogate, a truncated euro
]
LINE = st.lists(st.sampled_from(PIECES), max_size=12).map(b"".join)


def joined(lines: list[bytes], final: bool) -> bytes:
    return b"\n".join(lines) + (b"\n" if final and lines else b"")


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.tuples(LINE, st.lists(LINE, min_size=3, max_size=3)), max_size=6),
    st.integers(1, 3),
    st.integers(1, 5),
    st.booleans(),
    st.sampled_from(["13a", "none"]),
    st.integers(-1, 1),
)
def test_generated_lines_count_as_their_decoded_lines(
    segments: list[tuple[bytes, list[bytes]]],
    nrefs: int,
    order: int,
    final: bool,
    tok: str,
    shift: int,
) -> None:
    """Generated lines, one to three references, any order, with and without a final
    newline, a count that is right or one off: the text path's answer, or None where it
    finds a line that is not UTF-8 or another count."""
    hyps = joined([h for h, _ in segments], final)
    refs = tuple(joined([r[j] for _, r in segments], final) for j in range(nrefs))
    count = max(0, len(segments) + shift)
    for per in (True, False):
        expected = text_path(hyps, refs, count, order, per, tok)
        assert expected == native.ext.bleu_counts_lines(hyps, refs, count, order, per, tok)


CHRF_ORDERS = [(6, 0), (6, 2), (0, 2), (1, 1)]


@pytest.mark.parametrize("name", PAIRS)
def test_every_wmt_pair_counts_chrf_as_its_decoded_lines(name: str) -> None:
    """Each pair's first system against all its reference files, then the first alone,
    chrF, chrF++ and words alone, with the per-segment buffer: the text path's answer."""
    systems, refs = wmt_files(name)
    count = systems[0].count(b"\n") + (not systems[0].endswith(b"\n"))
    for orders in CHRF_ORDERS[:3]:
        for chosen in (refs, refs[:1]):
            expected = chrf_text_path(systems[0], chosen, count, orders, False, False, True)
            assert expected is not None
            assert expected == native.ext.sacrebleu_chrf_lines(
                systems[0], chosen, count, *orders, 2, False, False, True
            )


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.tuples(LINE, st.lists(LINE, min_size=3, max_size=3)), max_size=6),
    st.integers(1, 3),
    st.sampled_from(CHRF_ORDERS),
    st.booleans(),
    st.tuples(st.booleans(), st.booleans()),
    st.integers(-1, 1),
)
def test_generated_lines_count_chrf_as_their_decoded_lines(
    segments: list[tuple[bytes, list[bytes]]],
    nrefs: int,
    orders: tuple[int, int],
    final: bool,
    flags: tuple[bool, bool],
    shift: int,
) -> None:
    """Generated lines as above, chrF's orders, whitespace and eps_smoothing: the text
    path's answer, or None where it finds a line that is not UTF-8 or another count."""
    hyps = joined([h for h, _ in segments], final)
    refs = tuple(joined([r[j] for _, r in segments], final) for j in range(nrefs))
    count = max(0, len(segments) + shift)
    for per in (True, False):
        expected = chrf_text_path(hyps, refs, count, orders, *flags, per)
        found = native.ext.sacrebleu_chrf_lines(hyps, refs, count, *orders, 2, *flags, per)
        assert expected == found


def test_bad_arguments_are_value_errors() -> None:
    """An unknown tokenizer, an order out of range or no reference is refused."""
    with pytest.raises(ValueError, match=r"^the kernel's tokenizers are 'none' and '13a'$"):
        native.ext.bleu_counts_lines(b"a\n", (b"a\n",), 1, 4, False, "intl")
    with pytest.raises(ValueError, match=r"^max_order, count or references out of range$"):
        native.ext.bleu_counts_lines(b"a\n", (b"a\n",), 1, 0, False, "13a")
    with pytest.raises(ValueError, match=r"^max_order, count or references out of range$"):
        native.ext.bleu_counts_lines(b"a\n", (), 1, 4, False, "13a")


def online_b_head() -> tuple[bytes, list[bytes], int, list[str], list[list[str]]]:
    """The first 300 lines of en-de Online-B (of the in-repo sample, its 200) and of both
    references: as bytes, their count, and as segments and references per segment."""
    folder = WMT / "generaltest2022" / "en-de"
    count = min(300, len((folder / "sys.Online-B.txt").read_bytes().splitlines()))  # sample: 200

    def head(name: str) -> bytes:
        return b"".join((folder / name).read_bytes().splitlines(keepends=True)[:count])

    hyps, refs = head("sys.Online-B.txt"), [head("ref.A.txt"), head("ref.B.txt")]
    columns = (r.decode().split("\n")[:count] for r in refs)
    per_segment = [list(pair) for pair in zip(*columns, strict=True)]
    return hyps, refs, count, hyps.decode().split("\n")[:count], per_segment


def assert_lines_agree(
    lines: Callable[..., object],
    options: object,
    text: Callable[..., object],
    *names: str,
    **keywords: Any,
) -> None:
    """``lines`` on Online-B's head as bytes with ``options`` equals ``text`` on its segments
    with ``keywords`` and the options ``names`` (as keywords of the same names), field for
    field, segment scores included."""
    keywords.update({name: getattr(options, name) for name in names})
    hyps, refs, count, hyp_lines, ref_lines = online_b_head()
    expected = text(hyp_lines, ref_lines, segment_scores=True, **keywords)
    assert expected == lines(hyps, refs, count, options, segment_scores=True)


OPTIONS = [
    sacre_bleu.BleuOptions(),
    sacre_bleu.BleuOptions(tokenize="none", smooth_method="floor", smooth_value=0.5),
    sacre_bleu.BleuOptions(max_ngram_order=2, effective_order=True, smooth_method="add-k"),
]


@pytest.mark.parametrize("options", OPTIONS, ids=["default", "none-floor", "order2-eff-addk"])
def test_corpus_bleu_lines_is_corpus_bleu(options: sacre_bleu.BleuOptions) -> None:
    """Online-B's head (see online_b_head), with segment scores: corpus_bleu's result."""
    names = ("tokenize", "smooth_method", "smooth_value", "effective_order")
    keywords = {"max_order": options.max_ngram_order}
    assert_lines_agree(corpus_bleu_lines, options, corpus_bleu, *names, **keywords)


CHRF_OPTIONS = [
    ChrfOptions(),
    ChrfOptions(word_order=2, beta=3),
    ChrfOptions(whitespace=True, eps_smoothing=True),
]


@pytest.mark.parametrize("options", CHRF_OPTIONS, ids=["chrf", "chrf++-beta3", "space-eps"])
def test_corpus_chrf_lines_is_corpus_chrf(options: ChrfOptions) -> None:
    """Online-B's head (see online_b_head), with segment scores: corpus_chrf's result."""
    names = ("word_order", "beta", "whitespace", "eps_smoothing")
    assert_lines_agree(corpus_chrf_lines, options, corpus_chrf, *names)


def test_corpus_chrf_lines_leaves_to_the_text_path() -> None:
    """None for lowercase, the contract rule, a line that is not UTF-8, and without the
    kernel."""
    lines = (b"a b\n", [b"a c\n"], 1)
    assert corpus_chrf_lines(*lines, ChrfOptions(lowercase=True)) is None
    assert corpus_chrf_lines(*lines, ChrfOptions(), rules="contract") is None
    assert corpus_chrf_lines(b"a\xff\n", [b"a\n"], 1, ChrfOptions()) is None
    with kernel_switch(False):
        assert corpus_chrf_lines(*lines, ChrfOptions()) is None


def test_corpus_bleu_lines_leaves_to_the_text_path() -> None:
    """None for lowercase (Python's str.lower), a tokenizer the kernel does not apply, a
    line that is not UTF-8, and without the kernel."""
    lines = (b"a b\n", [b"a c\n"], 1)
    assert corpus_bleu_lines(*lines, sacre_bleu.BleuOptions(lowercase=True)) is None
    assert corpus_bleu_lines(*lines, sacre_bleu.BleuOptions(tokenize="char")) is None
    assert corpus_bleu_lines(b"a\xff\n", [b"a\n"], 1, sacre_bleu.BleuOptions()) is None
    with kernel_switch(False):
        assert corpus_bleu_lines(*lines, sacre_bleu.BleuOptions()) is None
