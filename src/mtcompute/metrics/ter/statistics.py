"""TER's segment statistics at scale, as sacreBLEU 2.6.0 extracts them: per segment the
fewest edits over its references (:func:`~mtcompute.metrics.ter.edits.translation_edit_rate`,
the first of equals) and the average reference length.

The C kernel (:mod:`mtcompute.native`) counts on its path (chosen at import), on several threads
(:func:`mtcompute.counting.map_spans`; it releases the GIL), else the pure core: both give
the same numbers. :func:`id_statistics` takes interned word ids, :func:`text_statistics`
whitespace-tokenized texts (the kernel splits and interns the words itself) and
:func:`lowered_statistics` texts the kernel lowercases while it splits them.
"""

from __future__ import annotations

__all__ = [
    "MIN_SEGMENTS_PER_THREAD",
    "id_statistics",
    "lowered_statistics",
    "text_statistics",
]

from collections.abc import Callable, Sequence

from mtcompute.counting import map_spans, plain_texts
from mtcompute.metrics.ter import edits
from mtcompute.native import ext as _ext
from mtcompute.native import kernel_step, twin

MIN_SEGMENTS_PER_THREAD = 64
"""Segments per thread below which another thread costs more than it saves (tens of
microseconds each in the kernel)."""

IdLists = Sequence[Sequence[int]]


def _type_name(value: object) -> str:
    return type(value).__name__


def _check_ter_layout(hypotheses: object, references: object) -> None:
    """TypeError or ValueError unless both are lists (or tuples) of one length."""
    if not isinstance(hypotheses, list | tuple):
        raise TypeError(f"hypotheses must be a list or tuple, got {_type_name(hypotheses)}")
    if not isinstance(references, list | tuple):
        raise TypeError(f"references must be a list or tuple, got {_type_name(references)}")
    if len(hypotheses) != len(references):
        raise ValueError(f"{len(hypotheses)} hypotheses but {len(references)} reference lists")


def _check_id_list(ids: object, path: str) -> None:
    if not isinstance(ids, list | tuple):
        raise TypeError(f"{path} must be a list or tuple of int, got {_type_name(ids)}")
    for k, value in enumerate(ids):
        if not isinstance(value, int):
            raise TypeError(f"{path}[{k}] must be an int, got {_type_name(value)}")


def _check_str(text: object, path: str) -> None:
    if not isinstance(text, str):
        raise TypeError(f"{path} must be a str, got {_type_name(text)}")


def _check_items(
    hypotheses: Sequence[object],
    references: Sequence[object],
    check: Callable[[object, str], None],
    items: str,
) -> None:
    """The kernel's checks, in its order and with its messages: ``check`` of every
    hypothesis, then every segment's references (a list or tuple of one or more ``items``),
    each checked."""
    for i, item in enumerate(hypotheses):
        check(item, f"hypotheses[{i}]")
    for i, segment in enumerate(references):
        if not isinstance(segment, list | tuple):
            raise TypeError(
                f"references[{i}] must be a list or tuple of {items}, got {_type_name(segment)}"
            )
        if not segment:
            raise ValueError(f"references[{i}] has no reference")
        for j, item in enumerate(segment):
            check(item, f"references[{i}][{j}]")


def _check_ter_ids(hypotheses: Sequence[object], references: Sequence[object]) -> None:
    """Every hypothesis an id list, every segment's references one or more id lists."""
    _check_items(hypotheses, references, _check_id_list, "id lists")


def _best_of(pairs: Sequence[tuple[int, int]]) -> tuple[int, float]:
    """sacreBLEU's ``TER._compute_segment_statistics`` over (edits, length) per reference:
    the fewest edits (the first of equals) and the int sum of the lengths over their count."""
    best = pairs[0][0]
    lengths = 0
    for count, length in pairs:
        lengths += length
        best = min(best, count)
    return best, lengths / len(pairs)


def _pure_id_statistics(
    hypotheses_ids: IdLists,
    references_ids: Sequence[IdLists],
    *,
    threads: int | None = None,  # noqa: ARG001  # the kernel path's signature; one thread here
) -> list[tuple[int, float]]:
    """:func:`id_statistics` on the pure path."""
    _check_ter_layout(hypotheses_ids, references_ids)
    _check_ter_ids(hypotheses_ids, references_ids)
    return [
        _best_of([edits.translation_edit_rate(hypothesis, r) for r in segment_references])
        for hypothesis, segment_references in zip(hypotheses_ids, references_ids, strict=True)
    ]


@twin(_pure_id_statistics)
def id_statistics(
    hypotheses_ids: IdLists,
    references_ids: Sequence[IdLists],
    *,
    threads: int | None = None,
) -> list[tuple[int, float]]:
    """Per segment (edits, average reference length) as sacreBLEU 2.6.0's TER computes them
    from words: the fewest :func:`~mtcompute.metrics.ter.edits.translation_edit_rate` edits of
    ``hypotheses_ids[i]`` over the references ``references_ids[i]`` (the first on a tie) and
    the mean of their lengths. Words are ints compared for equality only (ids interned per
    segment, :func:`~mtcompute.metrics.ter.edits.intern_words`, or over a whole corpus). Lists or
    tuples only; any other layout, a non-int id or a segment without references is TypeError
    or ValueError naming the first bad place.

    >>> id_statistics([[3, 4, 5, 6, 7, 0, 1, 2]], [[[0, 1, 2, 3, 4, 5, 6, 7], [9]]])
    [(1, 4.5)]
    """
    _check_ter_layout(hypotheses_ids, references_ids)
    hyps, refs = hypotheses_ids, references_ids

    def work(start: int, stop: int) -> list[tuple[tuple[int, int], ...]]:
        return _ext.ter_edits(hyps[start:stop], refs[start:stop])

    try:
        parts = map_spans(work, len(hyps), threads, MIN_SEGMENTS_PER_THREAD)
    except OverflowError:  # an id beyond 64 bits: the pure path (ints of any size)
        return _pure_id_statistics(hyps, refs)
    except (TypeError, ValueError):  # raised again with the index in the whole input
        _check_ter_ids(hyps, refs)
        raise
    return [_best_of(pairs) for _, segments in parts for pairs in segments]


def _check_ter_texts(hypotheses: Sequence[object], references: Sequence[object]) -> None:
    """Every hypothesis a str, every segment's references one or more str."""
    _check_items(hypotheses, references, _check_str, "str")


@kernel_step
def lowered_statistics(
    hypotheses: list[str], references: list[list[str]], *, threads: int | None = None
) -> list[tuple[int, float]] | None:
    """:func:`text_statistics` of ``line.rstrip().lower()`` of every text (sacreBLEU's
    TER preprocessing without ``normalized`` and ``no_punct``, case-insensitive), with only
    the texts that hold a code point of U+0100 or more lowered in Python: the kernel lowers
    the others while it splits them, without the GIL and without a new str (see
    the kernel's ``lower1`` (``_kernel/text.c``); the words of a text do not depend on its trailing
    whitespace). ``None`` where the kernel does not do this (the pure path, not
    :func:`~mtcompute.counting.plain_texts`, or a Python whose ``str.lower`` it cannot
    fold): the caller takes the general path.

    >>> from mtcompute.native import kernel_in_use
    >>> found = lowered_statistics(["Über \u03a3 A"], [["über \u03c3 a"]])
    >>> found == ([(0, 3.0)] if kernel_in_use() else None)
    True
    """
    if not plain_texts(hypotheses, references):
        return None
    hyp_wide, ref_wide = _ext.wide_texts(hypotheses, references)
    hyps, refs = hypotheses, references
    if hyp_wide:
        hyps = list(hypotheses)
        for i in hyp_wide:
            hyps[i] = hyps[i].rstrip().lower()
    if ref_wide:
        refs = list(references)
        for i, j in ref_wide:
            if refs[i] is references[i]:
                refs[i] = list(references[i])
            refs[i][j] = refs[i][j].rstrip().lower()

    def work(start: int, stop: int) -> list[tuple[int, float]]:
        return _ext.ter_statistics_text(hyps[start:stop], refs[start:stop], True)

    try:
        parts = map_spans(work, len(hyps), threads, MIN_SEGMENTS_PER_THREAD)
    except ValueError:  # this Python's str.lower cannot be folded
        return None
    return [row for _, rows in parts for row in rows]


def _pure_text_statistics(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str]],
    *,
    threads: int | None = None,  # noqa: ARG001  # the kernel path's signature; one thread here
) -> list[tuple[int, float]]:
    """:func:`text_statistics` on the pure path."""
    _check_ter_layout(hypotheses, references)
    _check_ter_texts(hypotheses, references)
    statistics = []
    for hypothesis, segment in zip(hypotheses, references, strict=True):
        vocabulary: dict[str, int] = {}
        words = edits.intern_words(hypothesis.split(), vocabulary)
        ids = [edits.intern_words(text.split(), vocabulary) for text in segment]
        statistics.append(_best_of([edits.translation_edit_rate(words, r) for r in ids]))
    return statistics


@twin(_pure_text_statistics)
def text_statistics(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str]],
    *,
    threads: int | None = None,
) -> list[tuple[int, float]]:
    """:func:`id_statistics` of tokenized texts: the words of each text are its
    ``str.split()``, the same word where they are equal strings (interned per segment by the
    pure path, per call by the kernel, which splits and interns them itself without the
    GIL). Lists or tuples of str only; any other layout, a non-str text or a segment without
    references is TypeError or ValueError naming the first bad place.

    >>> text_statistics(["d e f a b c"], [["a b c d e f", "x"]])
    [(1, 3.5)]
    """
    _check_ter_layout(hypotheses, references)
    hyps, refs = hypotheses, references

    def work(start: int, stop: int) -> list[tuple[int, float]]:
        return _ext.ter_statistics_text(hyps[start:stop], refs[start:stop])

    try:
        parts = map_spans(work, len(hyps), threads, MIN_SEGMENTS_PER_THREAD)
    except (TypeError, ValueError):  # raised again with the index in the whole input
        _check_ter_texts(hyps, refs)
        raise
    return [row for _, rows in parts for row in rows]
