"""Input in chunks, written once: the chunk size, aligned chunks of iterables, and lines cut
from bytes.

Every metric's library API, ``mtcompute score``, ``mtcompute sacrebleu`` and the Dask runner
read large inputs a chunk of segments at a time, in bounded memory. This module holds what
they share:

* the chunk size (:data:`CHUNK_SEGMENTS`, overridden by ``MTCOMPUTE_CHUNK_SEGMENTS``, read
  only by :func:`chunk_size`);
* aligned chunks of hypotheses and references read in lockstep (:func:`in_chunks`), with
  :class:`CountMismatch` when they end apart and :func:`shifted` to report a chunk's error at
  its index in the whole input;
* lines cut from bytes as ``mtcompute score`` reads a file (only ``\\n`` ends a line, strict
  UTF-8): :func:`split_lines` decodes them, :func:`skip_lines` only counts them, and
  :func:`decode_lines` takes every line of a whole piece.

``skip_lines`` is a twin (:mod:`mtcompute.native`): the kernel's path, or its Python twin
here, which gives the same answers. ``split_lines`` is Python only: ``bytes.decode``
and ``str.split`` are C already, and a kernel twin was under 2x faster.
"""

from __future__ import annotations

__all__ = [
    "CHUNK_SEGMENTS",
    "CountMismatch",
    "chunk_size",
    "decode_lines",
    "in_chunks",
    "is_stream",
    "shifted",
    "skip_lines",
    "split_lines",
]

import os
import re
from collections.abc import Iterable, Iterator, Mapping
from collections.abc import Set as AbstractSet
from itertools import islice
from typing import TypeVar

from mtcompute import native
from mtcompute.errors import MtcomputeError
from mtcompute.native import twin

T = TypeVar("T")
U = TypeVar("U")

CHUNK_SEGMENTS = 10_000
"""Segments per chunk: enough for every thread of the kernel (256 segments a thread at least),
small enough that a chunk's texts are a few MB. ``MTCOMPUTE_CHUNK_SEGMENTS`` overrides it (the
tests cross chunk boundaries with a small one)."""


def chunk_size() -> int:
    """``MTCOMPUTE_CHUNK_SEGMENTS`` if it is a positive integer, else :data:`CHUNK_SEGMENTS`."""
    env = os.environ.get("MTCOMPUTE_CHUNK_SEGMENTS", "").strip()
    return int(env) if env.isdigit() and int(env) > 0 else CHUNK_SEGMENTS


# --- iterables in chunks -------------------------------------------------------------------


def is_stream(value: object) -> bool:
    """Whether ``value`` is an iterable to read in chunks: not a list or a tuple (read whole,
    as before), nor a str, bytes, mapping or set (refused by the callers' checks, as before:
    a set has no order)."""
    return isinstance(value, Iterable) and not isinstance(
        value, list | tuple | str | bytes | bytearray | Mapping | AbstractSet
    )


class CountMismatch(ValueError):
    """Aligned iterables of different lengths: ``first`` and ``second`` items (each counted
    to its end)."""

    def __init__(self, first: int, second: int) -> None:
        super().__init__(f"{first} hypotheses but {second} reference lists")
        self.first = first
        self.second = second


def in_chunks(
    hypotheses: Iterable[T], references: Iterable[U], size: int | None = None
) -> Iterator[tuple[int, list[T], list[U]]]:
    """``(start, hypotheses, references)`` of consecutive chunks of ``size`` segments
    (default :func:`chunk_size`) of two aligned iterables read in lockstep, ``start`` the
    index of the chunk's first segment; the first chunk always (empty for empty input, or
    with one side empty: the caller's checks refuse it as they refuse empty lists), then
    :class:`CountMismatch` when the two end apart.

    >>> [(start, h) for start, h, _ in in_chunks(iter("abcde"), iter("vwxyz"), 2)]
    [(0, ['a', 'b']), (2, ['c', 'd']), (4, ['e'])]
    """
    step = chunk_size() if size is None else size
    hyps, refs = iter(hypotheses), iter(references)
    start = 0
    while True:
        hyp_chunk, ref_chunk = list(islice(hyps, step)), list(islice(refs, step))
        if start == 0 and not (hyp_chunk and ref_chunk):
            yield 0, hyp_chunk, ref_chunk
            if not (hyp_chunk or ref_chunk):
                return
        if len(hyp_chunk) != len(ref_chunk):
            first = start + len(hyp_chunk) + sum(1 for _ in hyps)
            raise CountMismatch(first, start + len(ref_chunk) + sum(1 for _ in refs))
        if not hyp_chunk:
            return
        yield start, hyp_chunk, ref_chunk
        if len(hyp_chunk) < step:
            return
        start += len(hyp_chunk)


_INDEX = re.compile(r"\b(hypotheses|references)\[([0-9]+)\]")
_POINTER = re.compile(r"/(hypotheses|references)/([0-9]+)(.*)")

E = TypeVar("E", bound=Exception)


def shifted(error: E, start: int) -> E:
    """A chunk's error as the whole input's: its first segment index moved on by ``start``,
    the index of the chunk's first segment. A TypeError or ValueError names it in its message
    (``references[3] must be ...``); a :class:`~mtcompute.errors.MtcomputeError` in its JSON
    pointer path (``/references/3/0``), which its message repeats.

    >>> shifted(TypeError("hypotheses[2] must be a str, got int"), 10)
    TypeError('hypotheses[12] must be a str, got int')
    """
    if not start:
        return error
    if isinstance(error, MtcomputeError):
        found = _POINTER.fullmatch(error.path)
        if found is None:
            return error
        name, index, rest = found.groups()
        path = f"/{name}/{int(index) + start}{rest}"
        return type(error)(error.message.replace(error.path, path, 1), path)
    text = _INDEX.sub(lambda found: f"{found[1]}[{int(found[2]) + start}]", str(error), count=1)
    return type(error)(text)


# --- lines cut from bytes ------------------------------------------------------------------


def split_lines(data: bytes, start: int, count: int, final: bool) -> tuple[list[str], int, int]:
    """Up to ``count`` lines of ``data[start:]`` decoded as ``mtcompute score`` decodes and
    splits a whole file: only lines ended by ``\\n`` are taken, and with ``final`` also the
    bytes after the last ``\\n``. Returns ``(lines, stop, bad)``: ``stop`` is the offset after
    the last line taken; ``bad`` is -1, or the offset where the first line that is not UTF-8
    starts (the lines before it are returned, and ``stop == bad``). The lines' bytes are
    decoded at once.

    >>> split_lines(b"a\\r\\n\\nb", 0, 10, False)
    (['a\\r', ''], 4, -1)
    >>> split_lines(b"a\\nb\\xff\\nc\\n", 0, 10, True)
    (['a'], 2, 2)
    """
    stop, found = start, 0
    while found < count:
        newline = data.find(b"\n", stop)
        if newline < 0:
            break
        stop, found = newline + 1, found + 1
    tail = found < count and final and stop < len(data)
    if tail:
        stop = len(data)
    piece = data[start:stop]
    try:
        text = piece.decode("utf-8")
    except UnicodeDecodeError as exc:
        bad = piece.rfind(b"\n", 0, exc.start) + 1  # the start of the line at fault
        good = piece[:bad].decode("utf-8")
        return (good.split("\n")[:-1] if good else []), start + bad, start + bad
    if not text:
        return [], stop, -1
    lines = text.split("\n")
    if not tail:
        lines.pop()  # after the last \n
    return lines, stop, -1


def _pure_skip_lines(data: bytes, start: int, count: int, final: bool) -> tuple[int, int]:
    """:func:`skip_lines` in Python."""
    stop, found = start, 0
    while found < count and stop < len(data):
        newline = data.find(b"\n", stop)
        if newline < 0:
            if final:
                stop, found = len(data), found + 1
            break
        stop, found = newline + 1, found + 1
    return stop, found


@twin(_pure_skip_lines)
def skip_lines(data: bytes, start: int, count: int, final: bool) -> tuple[int, int]:
    """The lines :func:`split_lines` would take, neither checked nor decoded: ``(stop,
    found)``, the offset after the last and their number; the kernel's path runs without the
    GIL.

    >>> skip_lines(b"a\\n\\nb", 0, 10, False), skip_lines(b"a\\n\\nb", 0, 10, True)
    ((3, 2), (4, 3))
    """
    return native.ext.skip_lines(data, start, count, final)


def decode_lines(data: bytes, count: int | None = None) -> list[str] | None:
    """The first ``count`` lines of ``data`` (default: all of them, the last one with or
    without its ``\\n``), as :func:`split_lines` decodes them; None when one of them is not
    UTF-8.

    >>> decode_lines(b"a\\nb"), decode_lines(b"a\\n\\xff\\n")
    (['a', 'b'], None)
    """
    lines, _, bad = split_lines(data, 0, len(data) + 1 if count is None else count, True)
    return None if bad >= 0 else lines
