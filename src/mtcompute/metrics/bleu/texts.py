"""BLEU statistics of raw texts at scale, as sacreBLEU 2.6.0's ``BLEU`` tokenizes them
(``str.lower`` when asked, ``tokenizer(text.rstrip())``, ``str.split()``): the sum over the
segments and each segment's, as statistics objects or as one buffer of int64 rows.

When the kernel is active (:func:`mtcompute.native.active`, read at every call) and applies
the tokenizer itself (``13a`` or ``none``), it tokenizes and counts in one pass, on several
threads, without a str per token; other tokenizers run in Python and the kernel splits their
output; without the kernel the pure path counts the split tokens
(:mod:`mtcompute.metrics.bleu.counts`). Every path gives the same integers.
"""

from __future__ import annotations

__all__ = [
    "KERNEL_TOKENIZERS",
    "bleu_line_rows",
    "bleu_text_rows",
    "bleu_text_statistics",
    "tokenize_segments",
]

from array import array
from collections.abc import Sequence

from mtcompute.counting import MIN_SEGMENTS_PER_THREAD, _check_texts, map_spans
from mtcompute.metrics.bleu.counts import (
    _bleu_kernel_ok,
    _bleu_segments,
    _bleu_stats,
    _join_bleu_parts,
    bleu_statistics_many,
)
from mtcompute.metrics.bleu.statistics import BleuStatistics
from mtcompute.native import active
from mtcompute.native import ext as _ext
from mtcompute.tokenizers import Tokenizer

# The tokenizers the kernel's text path applies itself (Tokenizer.kernel).
KERNEL_TOKENIZERS = ("none", "13a")


def bleu_text_statistics(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str]],
    max_order: int = 4,
    *,
    per_segment: bool = False,
    threads: int | None = None,
    tokenizer: Tokenizer | None = None,
    lowercase: bool = False,
) -> tuple[BleuStatistics, list[BleuStatistics] | None]:
    """BLEU statistics of texts: the sum over the segments and, with ``per_segment``, each
    segment's. ``references[i]`` holds the one or more reference texts of segment ``i``.

    A text's tokens are what sacreBLEU 2.6.0's ``BLEU`` counts: ``str.lower`` when
    ``lowercase``, then, with a ``tokenizer``, ``tokenizer(text.rstrip())``, then
    ``str.split()``; without one (``None``), the text is split on whitespace as it is (as
    ``none`` does). When the kernel is active and the tokenizer's ``kernel`` is ``13a`` or
    ``none``, the kernel tokenizes and counts in one pass without making a str per token;
    other tokenizers run in Python and the kernel splits their output. The answer is
    :func:`bleu_totals` and :func:`bleu_statistics_many` of the tokens, whichever path
    computes it. Any other layout (a bare str for a segment's references, say) is TypeError
    or ValueError.

    >>> total, each = bleu_text_statistics(["a b\u3000c"], [["a  b d"]], 2, per_segment=True)
    >>> total.matches, total.totals, each == [total]
    ((2, 1), (3, 2), True)
    """
    total, buffer, each = _bleu_text(
        hypotheses, references, max_order, per_segment, threads, tokenizer, lowercase
    )
    if buffer is not None:
        each = _bleu_segments(buffer, max_order)
    return total, each


def bleu_text_rows(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str]],
    max_order: int = 4,
    *,
    threads: int | None = None,
    tokenizer: Tokenizer | None = None,
    lowercase: bool = False,
) -> tuple[BleuStatistics, bytes]:
    """:func:`bleu_text_statistics` with each segment's statistics as one buffer of native
    int64 values, ``2 + 2 * max_order`` a segment (candidate length, reference length, the
    matches and the totals of each order): the kernel's own buffer, without a Python object
    per segment, for code that holds many segments' rows (the significance tests).

    >>> total, rows = bleu_text_rows(["a b"], [["a c"]], 2)
    >>> memoryview(rows).cast("q").tolist()
    [2, 2, 1, 0, 2, 1]
    """
    total, buffer, each = _bleu_text(
        hypotheses, references, max_order, True, threads, tokenizer, lowercase
    )
    if buffer is None:
        assert each is not None  # asked for per segment
        flat = [
            v for s in each for v in (s.candidate_length, s.reference_length, *s.matches, *s.totals)
        ]
        buffer = array("q", flat).tobytes()
    return total, buffer


def bleu_line_rows(
    hypotheses: bytes,
    references: Sequence[bytes],
    count: int,
    max_order: int = 4,
    *,
    per_segment: bool = False,
    tokenizer: Tokenizer | None = None,
) -> tuple[BleuStatistics, bytes | None] | None:
    """:func:`bleu_text_rows` (``per_segment``: with the buffer, else None in its place) of
    ``count`` undecoded lines: ``hypotheses`` the bytes of the hypotheses' lines, each
    ``references`` item those of one reference of every segment, a line what
    :func:`mtcompute.streaming.split_lines` decodes; the kernel checks, decodes,
    tokenizes and counts them without the GIL and without a str per text. ``None`` where
    it does not (not active, a tokenizer it does not apply, an order it does not take, a
    line that is not UTF-8, inputs of other line counts, a text too long for it): the
    caller decodes the lines and takes :func:`bleu_text_rows`' path, which gives the same
    numbers.

    >>> found = bleu_line_rows(b"a b\\n", [b"a c\\n"], 1, 2, per_segment=True)
    >>> found is None or memoryview(found[1]).cast("q").tolist() == [2, 2, 1, 0, 2, 1]
    True
    """
    kernel = "none" if tokenizer is None else tokenizer.kernel
    if not (
        active()
        and kernel in KERNEL_TOKENIZERS
        and type(max_order) is int
        and 1 <= max_order <= _ext.MAX_ORDER
        and references
    ):
        return None
    assert kernel is not None  # one of KERNEL_TOKENIZERS
    found = _ext.bleu_counts_lines(
        hypotheses, tuple(references), count, max_order, per_segment, kernel
    )
    if found is None:
        return None
    buffer, totals = found
    return _bleu_stats(totals, max_order), buffer


def _bleu_text(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str]],
    max_order: int,
    per_segment: bool,
    threads: int | None,
    tokenizer: Tokenizer | None,
    lowercase: bool,
) -> tuple[BleuStatistics, bytes | None, list[BleuStatistics] | None]:
    """The sum, and per segment (with ``per_segment``) the kernel's buffer or, where the
    kernel did not count, the statistics objects (the other one ``None``)."""
    _check_texts(hypotheses, references)
    if lowercase:
        hypotheses = [text.lower() for text in hypotheses]
        references = [[text.lower() for text in texts] for texts in references]
    kernel = "none" if tokenizer is None else tokenizer.kernel
    if tokenizer is not None and (kernel not in KERNEL_TOKENIZERS or not active()):
        hypotheses, references = _tokenized(tokenizer, hypotheses, references)
        kernel = "none"
    counts = None
    if kernel is not None and _bleu_kernel_ok(hypotheses, references, max_order):
        hyps, refs, name = hypotheses, references, kernel

        def work(
            start: int, stop: int
        ) -> tuple[bytes | None, tuple[int, ...], None] | tuple[None, None, _ext.Problem]:
            return _ext.bleu_counts_text(
                hyps[start:stop], refs[start:stop], max_order, per_segment, name
            )

        try:
            counts = _join_bleu_parts(
                map_spans(work, len(hypotheses), threads, MIN_SEGMENTS_PER_THREAD)
            )
        except OverflowError:  # more tokens than the kernel indexes (2^32): split below
            counts = None
    if counts is None:  # no kernel, or an input it does not take: tokenize, split, count
        if tokenizer is not None and kernel != "none":
            hypotheses, references = _tokenized(tokenizer, hypotheses, references)
        hyp_tokens = [text.split() for text in hypotheses]
        ref_tokens = [[text.split() for text in texts] for texts in references]
        each = bleu_statistics_many(hyp_tokens, ref_tokens, max_order, threads=threads)
        total = BleuStatistics(0, 0, (0,) * max_order, (0,) * max_order)
        for stats in each:
            total = total + stats
        return total, None, (each if per_segment else None)
    buffer, totals = counts
    return _bleu_stats(totals, max_order), (buffer if per_segment else None), None


def _tokenized(
    tokenizer: Tokenizer, hypotheses: Sequence[str], references: Sequence[Sequence[str]]
) -> tuple[list[str], list[list[str]]]:
    """``tokenizer(text.rstrip())`` of every text (sacreBLEU's BLEU preprocessing)."""
    return (
        [tokenizer(text.rstrip()) for text in hypotheses],
        [[tokenizer(text.rstrip()) for text in texts] for texts in references],
    )


def tokenize_segments(
    segments: Sequence[str], tokenizer: Tokenizer, lowercase: bool
) -> tuple[list[str], ...]:
    """Each segment as sacreBLEU's BLEU counts it: lowercased when asked, rstripped,
    tokenized, split on whitespace."""
    if lowercase:
        return tuple(tokenizer(segment.lower().rstrip()).split() for segment in segments)
    return tuple(tokenizer(segment.rstrip()).split() for segment in segments)
