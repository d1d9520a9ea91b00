"""sacreBLEU 2.6.0's chrF and chrF++ statistics (``CHRF._compute_segment_statistics``; Popović
2015 §2, 2017 §2) at scale, and its floating-point F-score (``CHRF._compute_f_score``), which
chooses each segment's reference and scores the sums.

Statistics are sacreBLEU's flat lists, ``[n_hyp, n_ref, n_match]`` per order, character orders
first, then word orders. Of several references a segment keeps the first whose
:func:`chrf_f_score` is strictly the greatest (sacreBLEU's best reference); ``n_hyp`` is 0
where the reference has no n-gram of the order.

The C kernel (:mod:`mtcompute.native`) counts on its path (chosen at import), on several threads
(:func:`mtcompute.counting.map_spans`; it releases the GIL), or straight from undecoded lines
(:func:`sacrebleu_chrf_line_rows`), else the pure path here: both give the same numbers.
"""

from __future__ import annotations

__all__ = [
    "MAX_SACREBLEU_BETA",
    "chrf_f_score",
    "sacrebleu_chrf_line_rows",
    "sacrebleu_chrf_rows",
    "sacrebleu_chrf_statistics",
]

from array import array
from collections import Counter
from collections.abc import Sequence
from typing import NamedTuple

from mtcompute.counting import MIN_SEGMENTS_PER_THREAD, _check_texts, _int64s, map_spans
from mtcompute.metrics.chrf.words import split_words
from mtcompute.native import ext as _ext
from mtcompute.native import kernel_step, kernel_test

# The largest beta the kernel takes (its f-score squares it in 64 bits).
MAX_SACREBLEU_BETA = 10**6


def sacrebleu_chrf_statistics(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str]],
    char_order: int,
    word_order: int,
    beta: int,
    *,
    lowercase: bool = False,
    whitespace: bool = False,
    eps_smoothing: bool = False,
    per_segment: bool = False,
    threads: int | None = None,
) -> tuple[list[int], list[list[int]] | None]:
    """sacreBLEU 2.6.0's chrF/chrF++ statistics (``CHRF._compute_segment_statistics``):
    the sum over the segments and, with ``per_segment``, each segment's, both flat
    ``[n_hyp, n_ref, n_match]`` per order, character orders 1..char_order then word orders
    1..word_order. ``references[i]`` holds the one or more reference texts of segment ``i``.

    Texts are lowercased with ``str.lower`` when asked; characters are those of
    ``''.join(text.split())`` (the text as it is with ``whitespace``), words those of
    :func:`~mtcompute.metrics.chrf.words.split_words` (sacreBLEU's ``_remove_punctuation``),
    word n-grams their ``' '``-joined strings; ``n_hyp`` is 0 where the reference has no
    n-gram of the order; of several references a segment keeps the first whose
    :func:`chrf_f_score` is strictly the greatest. Any other layout is TypeError or
    ValueError.

    >>> total, _ = sacrebleu_chrf_statistics(["a b"], [["a c"]], 1, 1, 2)
    >>> total
    [2, 2, 1, 2, 2, 1]
    """
    settings = _Settings(char_order, word_order, beta, whitespace, eps_smoothing)
    total, buffer, segments = _sacrebleu_chrf(
        hypotheses, references, settings, lowercase, per_segment, threads
    )
    if buffer is not None:
        values = _int64s(buffer)
        width = 3 * (char_order + word_order)
        segments = [values[i : i + width] for i in range(0, len(values), width)]
    return total, segments


def sacrebleu_chrf_rows(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str]],
    char_order: int,
    word_order: int,
    beta: int,
    *,
    lowercase: bool = False,
    whitespace: bool = False,
    eps_smoothing: bool = False,
    threads: int | None = None,
) -> tuple[list[int], bytes]:
    """:func:`sacrebleu_chrf_statistics` with each segment's statistics as one buffer of
    native int64 values, ``3 * (char_order + word_order)`` a segment: the kernel's own buffer,
    without a list per segment (as :func:`mtcompute.metrics.bleu.counts.bleu_text_rows`).

    >>> total, rows = sacrebleu_chrf_rows(["a b"], [["a c"]], 1, 1, 2)
    >>> memoryview(rows).cast("q").tolist()
    [2, 2, 1, 2, 2, 1]
    """
    settings = _Settings(char_order, word_order, beta, whitespace, eps_smoothing)
    total, buffer, segments = _sacrebleu_chrf(
        hypotheses, references, settings, lowercase, True, threads
    )
    if buffer is None:
        assert segments is not None  # asked for per segment
        buffer = array("q", [v for segment in segments for v in segment]).tobytes()
    return total, buffer


@kernel_step
def sacrebleu_chrf_line_rows(
    hypotheses: bytes,
    references: Sequence[bytes],
    count: int,
    char_order: int,
    word_order: int,
    beta: int,
    *,
    whitespace: bool = False,
    eps_smoothing: bool = False,
    per_segment: bool = False,
) -> tuple[list[int], bytes | None] | None:
    """:func:`sacrebleu_chrf_rows` (``per_segment``: with the buffer, else None in its place)
    of ``count`` undecoded lines, as :func:`mtcompute.metrics.bleu.counts.bleu_line_rows` takes
    them: the kernel checks, decodes and counts them without the GIL and without a str per
    text. ``None`` where it does not (the pure path, settings it does not take, a line that is not
    UTF-8, inputs of other line counts, a line too long for it): the caller decodes the lines
    and takes :func:`sacrebleu_chrf_rows`' path, which gives the same numbers.

    >>> found = sacrebleu_chrf_line_rows(b"a b\\n", [b"a c\\n"], 1, 1, 1, 2, per_segment=True)
    >>> found is None or memoryview(found[1]).cast("q").tolist() == [2, 2, 1, 2, 2, 1]
    True
    """
    if not (references and _kernel_takes(char_order, word_order, beta)):
        return None
    found = _ext.sacrebleu_chrf_lines(
        hypotheses,
        tuple(references),
        count,
        char_order,
        word_order,
        beta,
        whitespace,
        eps_smoothing,
        per_segment,
    )
    if found is None:
        return None
    buffer, totals = found
    return list(totals), buffer


@kernel_test
def _kernel_takes(char_order: int, word_order: int, beta: int) -> bool:
    """Whether the kernel counts with these settings (else the pure path does)."""
    return (
        all(type(x) is int for x in (char_order, word_order, beta))
        and 0 <= char_order <= _ext.MAX_ORDER
        and 0 <= word_order <= _ext.MAX_ORDER
        and char_order + word_order > 0
        and 0 <= beta <= MAX_SACREBLEU_BETA
    )


class _Settings(NamedTuple):
    """What sacreBLEU's chrF counts with, in the kernel's argument order."""

    char_order: int
    word_order: int
    beta: int
    whitespace: bool
    eps_smoothing: bool


def _sacrebleu_chrf(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str]],
    settings: _Settings,
    lowercase: bool,
    per_segment: bool,
    threads: int | None,
) -> tuple[list[int], bytes | None, list[list[int]] | None]:
    """The sums, and per segment (with ``per_segment``) the kernel's buffer or, where the
    kernel did not count, the lists (the other one ``None``)."""
    _check_texts(hypotheses, references)
    if lowercase:
        hypotheses = [text.lower() for text in hypotheses]
        references = [[text.lower() for text in texts] for texts in references]
    order = settings.char_order + settings.word_order
    if _kernel_takes(settings.char_order, settings.word_order, settings.beta):
        hyps, refs = hypotheses, references

        def work(start: int, stop: int) -> tuple[bytes | None, tuple[int, ...]]:
            return _ext.sacrebleu_chrf_counts(
                hyps[start:stop], refs[start:stop], *settings, per_segment
            )

        try:
            parts = map_spans(work, len(hypotheses), threads, MIN_SEGMENTS_PER_THREAD)
        except OverflowError:  # a text over the kernel's length limit: the pure path
            pass
        else:
            totals = [sum(column) for column in zip(*(t for _, (_, t) in parts), strict=True)]
            if not per_segment:
                return totals, None, None
            return totals, b"".join(buf or b"" for _, (buf, _) in parts), None
    segments = [
        _sacrebleu_chrf_segment(h, r, settings) for h, r in zip(hypotheses, references, strict=True)
    ]
    total = [sum(column) for column in zip(*segments, strict=True)] or [0] * (3 * order)
    return total, None, (segments if per_segment else None)


def _sacrebleu_ngrams(
    text: str, char_order: int, word_order: int, whitespace: bool
) -> list[Counter[str]]:
    """sacreBLEU's n-gram counters of one text: character orders, then word orders."""
    chars = text if whitespace else "".join(text.split())
    counters = [
        Counter(chars[i : i + n] for i in range(len(chars) - n + 1))
        for n in range(1, char_order + 1)
    ]
    if word_order:
        words = split_words(text)
        counters += [
            Counter(" ".join(words[i : i + n]) for i in range(len(words) - n + 1))
            for n in range(1, word_order + 1)
        ]
    return counters


def _sacrebleu_chrf_segment(
    hypothesis: str, references: Sequence[str], settings: _Settings
) -> list[int]:
    """The pure path of :func:`sacrebleu_chrf_statistics` for one segment."""
    char_order, word_order, beta, whitespace, eps_smoothing = settings
    order = char_order + word_order
    hyp = _sacrebleu_ngrams(hypothesis, char_order, word_order, whitespace)
    best, best_f = [0] * (3 * order), -1.0
    for reference in references:
        stats: list[int] = []
        for h, r in zip(
            hyp, _sacrebleu_ngrams(reference, char_order, word_order, whitespace), strict=True
        ):
            matches = sum(min(count, r[g]) for g, count in h.items() if g in r)
            stats += [sum(h.values()) if r else 0, sum(r.values()), matches]
        f = chrf_f_score(stats, order, beta, eps_smoothing)
        if f > best_f:
            best, best_f = stats, f
    return best


def chrf_f_score(
    statistics: Sequence[int], order: int, beta: int, eps_smoothing: bool = False
) -> float:
    """chrF (0..100) of flat ``[n_hyp, n_ref, n_match]`` statistics for ``order`` orders, as
    ``CHRF._compute_f_score`` computes it.

    >>> chrf_f_score([2, 2, 1], 1, 2)
    50.0
    """
    eps = 1e-16
    score = 0.0
    effective_order = 0
    factor = beta**2
    avg_prec, avg_rec = 0.0, 0.0

    for i in range(order):
        n_hyp, n_ref, n_match = statistics[3 * i : 3 * i + 3]
        prec = n_match / n_hyp if n_hyp > 0 else eps
        rec = n_match / n_ref if n_ref > 0 else eps
        denom = factor * prec + rec
        score += ((1 + factor) * prec * rec / denom) if denom > 0 else eps
        if n_hyp > 0 and n_ref > 0:
            avg_prec += prec
            avg_rec += rec
            effective_order += 1

    if eps_smoothing:
        return 100 * score / order

    if effective_order == 0:
        avg_prec = avg_rec = 0.0
    else:
        avg_prec /= effective_order
        avg_rec /= effective_order

    if avg_prec + avg_rec:
        score = (1 + factor) * avg_prec * avg_rec
        score /= (factor * avg_prec) + avg_rec
        return 100 * score
    return 0.0
