"""The segment files of ``mtcompute score`` and ``mtcompute compare``: read whole or in
chunks, with one set of checks and messages (:class:`~mtcompute.cli._common.CommandError`).

Imported by the commands' ``run()`` only: ``mtcompute --help`` needs none of it."""

from __future__ import annotations

__all__ = [
    "Chunk",
    "RawChunk",
    "Uneven",
    "byte_chunks",
    "count_segments",
    "decode_chunk",
    "read_ahead",
    "read_segments",
    "reported_fault",
    "segment_chunks",
    "split_segments",
]

import os
import stat
import sys
from collections.abc import Generator, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import BinaryIO, TypeVar

from mtcompute.cli._common import (
    EXIT_DATA_ERROR,
    EXIT_USAGE,
    READ_ERRORS,
    STDIN,
    CommandError,
    label,
    open_input,
    read_failure,
    read_input,
)
from mtcompute.streaming import chunk_size, decode_lines, skip_lines, split_lines


def _read_bytes(name: str) -> bytes:
    try:
        return read_input(name)
    except READ_ERRORS as exc:
        raise _unreadable(name, exc) from None


def _utf8_error(
    name: str, data: bytes, error: UnicodeDecodeError, lines: int = 0, offset: int = 0
) -> CommandError:
    """The error of a file that is not UTF-8: ``data`` is a part of it that starts a line,
    after ``lines`` lines and ``offset`` bytes of it (the whole file: 0 and 0)."""
    line = lines + data.count(b"\n", 0, error.start) + 1
    column = error.start - (data.rfind(b"\n", 0, error.start) + 1)
    return CommandError(
        f"{label(name)}: line {line} is not valid UTF-8: byte 0x{data[error.start]:02x} "
        f"at byte offset {offset + error.start} of the file (offset {column} in the line): "
        f"{error.reason}",
        EXIT_DATA_ERROR,
    )


def split_segments(data: bytes, name: str) -> list[str]:
    """Decode strict UTF-8 and split on ``\\n`` only; a final ``\\n`` ends the last segment.

    >>> split_segments(b"a b\\r\\n\\nc\\n", "f")
    ['a b\\r', '', 'c']
    >>> split_segments(b"", "f")
    []
    """
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise _utf8_error(name, data, exc) from None
    if not text:
        return []
    if text.endswith("\n"):
        text = text[:-1]
    return text.split("\n")


def read_segments(
    systems: Sequence[str], references: Sequence[str]
) -> tuple[list[list[str]], list[list[str]]]:
    """Every system's segments and, per segment, its references (one per reference file):
    every file read before any is decoded (a missing file is reported before a bad byte),
    then the same number of segments in each, at least one."""
    names = [*systems, *references]
    if names.count(STDIN) > 1:
        raise CommandError("'-' (stdin) can stand for at most one file", EXIT_USAGE, "usage")
    raw = [_read_bytes(name) for name in names]
    texts = [split_segments(data, name) for data, name in zip(raw, names, strict=True)]
    first, count = systems[0], len(texts[0])
    for name, lines in zip(names[1:], texts[1:], strict=True):
        if len(lines) != count:
            raise CommandError(
                f"the files have different numbers of lines: {label(first)} has "
                f"{count}, {label(name)} has {len(lines)}; every file needs one "
                "line per segment",
                EXIT_DATA_ERROR,
            )
    if not count:
        raise CommandError(f"no segments to score: {label(first)} is empty", EXIT_DATA_ERROR)
    hyps = texts[: len(systems)]
    refs = [list(segment) for segment in zip(*texts[len(systems) :], strict=True)]
    return hyps, refs


# -- segment files read in chunks: mtcompute score ----------------------------------------

PREFETCH_CHUNKS = 2  # chunks read ahead of the one being counted (the reader thread's queue)


@dataclass(frozen=True, slots=True)
class Chunk:
    """Consecutive segments of every file: ``start`` is the index of the first; ``systems``
    holds each system's segments, ``references`` each segment's references (one per
    reference file), as :func:`read_segments` lays them out."""

    start: int
    systems: list[list[str]]
    references: list[list[str]]


READ_BYTES = 1 << 20  # bytes a segment file is read by (a chunk's lines span a few of them)
MAX_LINE_BYTES = 1 << 26
"""The longest line a file may hold (64 MiB): a longer one is a data error naming the file
and the line, not a buffer that grows until memory runs out."""


class _SegmentFile:
    """One file read a chunk of lines at a time (blocks of :data:`READ_BYTES` split by
    :func:`split_lines`): the lines and bytes read so far, whether it has ended, and its
    first fault (a line that is not UTF-8), after which it is not decoded any further."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.lines = 0
        self.buffer = b""  # bytes read and not yet split, from self.at on
        self.at = 0
        self.base = 0  # the file offset of self.buffer[0]
        self.eof = False  # the handle has given its last byte
        self.ended = False
        self.fault: CommandError | None = None
        try:
            self.handle: BinaryIO = sys.stdin.buffer if name == STDIN else open_input(name)
            # A regular file ends; a device or a pipe may not (/dev/urandom): after a fault
            # such a file is not read on to its end.
            self.regular = name != STDIN and stat.S_ISREG(os.fstat(self.handle.fileno()).st_mode)
        except OSError as exc:
            raise _unreadable(name, exc) from None

    def _too_long(self, line: int) -> CommandError:
        return CommandError(
            f"{label(self.name)} line {line} is longer than {MAX_LINE_BYTES} bytes (no newline "
            "in it): is it a text file with one segment per line?",
            EXIT_DATA_ERROR,
        )

    def _more(self) -> None:
        """Read the next block onto the bytes not yet split."""
        try:
            block = self.handle.read(READ_BYTES)
        except READ_ERRORS as exc:
            raise _unreadable(self.name, exc) from None
        self.base += self.at
        self.buffer = self.buffer[self.at :] + block
        self.at = 0
        self.eof = not block

    def read(self, count: int) -> list[str]:
        """The next ``count`` segments (fewer at the end of the file; none after a fault)."""
        if self.fault is not None:  # to the end, unread (a file that ends)
            if not self.regular:
                self.ended = True
                return []
            while not self.eof:
                self._more()
                self.at = len(self.buffer)
            self.ended = True
            return []
        lines: list[str] = []
        while True:
            got, self.at, bad = split_lines(self.buffer, self.at, count - len(lines), self.eof)
            lines += got
            if bad >= 0:
                self.fault = self._not_utf8(bad, self.lines + len(lines))
                self.ended = self.eof and self.at == len(self.buffer)
                return []
            if len(lines) == count or (self.eof and self.at == len(self.buffer)):
                break
            if len(self.buffer) - self.at > MAX_LINE_BYTES:  # what is left is one open line
                raise self._too_long(self.lines + len(lines) + 1)
            self._more()
        self.lines += len(lines)
        self.ended = len(lines) < count
        return lines

    def cut(self, count: int) -> tuple[bytes, int]:
        """The bytes of the next ``count`` lines, neither checked nor decoded (each line with
        the ``\\n`` that ends it), and how many there are: fewer at the end of the file.
        Each byte is copied once, into the bytes returned (a line across blocks is not
        joined first, as :meth:`read` joins it)."""
        parts: list[memoryview] = []
        found = 0
        open_line = False  # the last part ends inside a line
        open_bytes = 0  # the bytes of that line so far
        while True:
            stop, got = skip_lines(self.buffer, self.at, count - found, False)
            found += got
            if got:
                open_line = False
            if found == count:
                parts.append(memoryview(self.buffer)[self.at : stop])
                self.at = stop
                break
            if self.at < len(self.buffer):
                parts.append(memoryview(self.buffer)[self.at :])
                open_line = not self.buffer.endswith(b"\n")
                start = max(self.at, self.buffer.rfind(b"\n", self.at) + 1)
                open_bytes = (
                    (0 if got or start > self.at else open_bytes) + len(self.buffer) - start
                )
                if open_bytes > MAX_LINE_BYTES:
                    raise self._too_long(self.lines + found + 1)
            self._next()
            if self.eof:
                found += open_line  # the last line, without its \n
                break
        self.lines += found
        self.ended = found < count
        return b"".join(parts), found

    def _next(self) -> None:
        """Read the next block in place of the bytes read (:meth:`cut`'s :meth:`_more`)."""
        try:
            self.buffer = self.handle.read(READ_BYTES)
        except READ_ERRORS as exc:
            raise _unreadable(self.name, exc) from None
        self.at = 0
        self.eof = not self.buffer

    def _not_utf8(self, bad: int, lines: int) -> CommandError:
        """The error of the line that starts at ``self.buffer[bad]``, after ``lines`` lines
        (its own decoding error: an error never reaches past the ``\\n`` that ends it)."""
        newline = self.buffer.find(b"\n", bad)
        line = self.buffer[bad : len(self.buffer) if newline < 0 else newline + 1]
        try:
            line.decode("utf-8")
        except UnicodeDecodeError as exc:
            return _utf8_error(self.name, line, exc, lines, self.base + bad)
        raise RuntimeError(f"line {lines + 1} of {self.name} decodes")  # split_lines said not

    def close(self) -> None:
        if self.handle is not sys.stdin.buffer:
            self.handle.close()


def _unreadable(name: str, exc: Exception) -> CommandError:
    return CommandError(f"cannot read {name}: {read_failure(exc)}", EXIT_USAGE, "usage")


def _fault(files: Sequence[_SegmentFile], count: int) -> CommandError:
    """What :func:`read_segments` would have reported, every file read to its end: the first
    file (in the order given) that is not UTF-8, else the first whose line count differs
    from the first file's."""
    for found in files:
        if found.fault is not None:
            return found.fault
    first = files[0]
    for found in files[1:]:
        if found.lines != first.lines:
            return CommandError(
                f"the files have different numbers of lines: {label(first.name)} has "
                f"{first.lines}, {label(found.name)} has {found.lines}; every file needs one "
                "line per segment",
                EXIT_DATA_ERROR,
            )
    raise RuntimeError(f"no fault found after {count} segments")  # the caller saw one


@contextmanager
def _opened(names: Sequence[str]) -> Iterator[list[_SegmentFile]]:
    """The files ``names`` opened in order (a file that cannot be opened raises before any
    is read), each closed on the way out."""
    files: list[_SegmentFile] = []
    try:
        for name in names:
            files.append(_SegmentFile(name))
        yield files
    finally:
        for found in files:
            found.close()


def segment_chunks(
    systems: Sequence[str], references: Sequence[str], size: int | None = None
) -> Iterator[Chunk]:
    """:func:`read_segments` in chunks of ``size`` segments (default :func:`chunk_size`),
    every file advanced in lockstep, in bounded memory: the same segments and the same errors
    (a file that cannot be opened, before any is read; then the first file that is not
    UTF-8; then files of different lengths; then no segments), the errors raised once every
    file has been read to its end (after chunks have been given: a caller discards what it
    made of them)."""
    names = [*systems, *references]
    if names.count(STDIN) > 1:
        raise CommandError("'-' (stdin) can stand for at most one file", EXIT_USAGE, "usage")
    step = chunk_size() if size is None else size
    with _opened(names) as files:
        start = 0
        while True:
            texts = [found.read(step) for found in files]
            if any(found.fault for found in files) or len({f.lines for f in files}) > 1:
                for found in files:  # to the end of every file: the first fault decides
                    while not found.ended:
                        found.read(step)
                raise _fault(files, start)
            count = len(texts[0])
            if not count:
                break
            columns = texts[len(systems) :]
            yield Chunk(
                start,
                texts[: len(systems)],
                [[text] for text in columns[0]]  # one reference file: no zip, no tuples
                if len(columns) == 1
                else [list(segment) for segment in zip(*columns, strict=True)],
            )
            start += count
    if not start:
        raise CommandError(f"no segments to score: {label(systems[0])} is empty", EXIT_DATA_ERROR)


@dataclass(frozen=True, slots=True)
class RawChunk:
    """Consecutive lines of every file as read, neither checked nor decoded: ``start`` is
    the index of the first, ``count`` how many; ``pieces`` holds each file's bytes of them,
    the systems' then the references' (as :func:`byte_chunks` was given the files)."""

    start: int
    count: int
    pieces: list[bytes]


class Uneven(Exception):
    """Files that :func:`byte_chunks` cannot cut in step: one ended before another, or
    none had a line. Which error that is (a file that is not UTF-8 decides first) is
    :func:`segment_chunks`' to say: :func:`reported_fault`."""


def byte_chunks(names: Sequence[str], size: int | None = None) -> Generator[RawChunk, None, None]:
    """The files ``names`` (none of them standard input: a fault is reported by reading
    them again) cut into chunks of ``size`` lines (default :func:`chunk_size`), every file
    in lockstep, in bounded memory, without decoding them: :func:`decode_chunk` makes of
    each the :class:`Chunk` :func:`segment_chunks` gives. :class:`Uneven` when the files end
    apart or are empty (after the chunks made before); a file that cannot be opened raises
    :func:`segment_chunks`' error, before any is read."""
    if STDIN in names:
        raise ValueError("byte_chunks reads named files only, not standard input")
    step = chunk_size() if size is None else size
    with _opened(names) as files:
        start = 0
        while True:
            cuts = [found.cut(step) for found in files]
            count = cuts[0][1]
            if any(got != count for _, got in cuts):
                raise Uneven
            if not count:
                break
            yield RawChunk(start, count, [piece for piece, _ in cuts])
            start += count
    if not start:
        raise Uneven


def decode_chunk(chunk: RawChunk, systems: int) -> Chunk | None:
    """``chunk``'s lines decoded and laid out as :func:`segment_chunks` lays them out (the
    first ``systems`` pieces are the systems'), or None when a piece holds a line that is
    not UTF-8 (:func:`reported_fault` finds the error)."""
    texts: list[list[str]] = []
    for piece in chunk.pieces:
        lines = decode_lines(piece, chunk.count)
        if lines is None:
            return None
        texts.append(lines)
    columns = texts[systems:]
    return Chunk(
        chunk.start,
        texts[:systems],
        [[text] for text in columns[0]]  # one reference file: no zip, no tuples
        if len(columns) == 1
        else [list(segment) for segment in zip(*columns, strict=True)],
    )


def reported_fault(systems: Sequence[str], references: Sequence[str]) -> CommandError:
    """The error :func:`segment_chunks` reports for these files (read again, to their end):
    for files :func:`byte_chunks` found :class:`Uneven` or :func:`decode_chunk` could not
    decode."""
    try:
        for _ in segment_chunks(systems, references):
            pass
    except CommandError as error:
        return error
    raise RuntimeError("the files were read again without a fault")  # they changed meanwhile


def count_segments(names: Sequence[str]) -> int | None:
    """The segments of the first of ``names`` that is a regular file (its lines, as
    :func:`split_segments` counts them), read in blocks; None when none is (standard input,
    pipes: they can be read once only) or it cannot be read."""
    for name in names:
        if name == STDIN:
            continue
        try:
            if not stat.S_ISREG(os.stat(name).st_mode):
                continue
            count, last = 0, b"\n"
            with open_input(name) as handle:
                while block := handle.read(1 << 20):
                    count += block.count(b"\n")
                    last = block[-1:]
        except READ_ERRORS:
            return None
        return count + (last != b"\n")
    return None


T = TypeVar("T")


def read_ahead(items: Iterator[T], depth: int = PREFETCH_CHUNKS) -> Iterator[T]:
    """``items`` made by a reader thread, up to ``depth`` ahead of the caller: the next chunk
    is read and decoded while the caller counts this one (the kernel counts without the GIL,
    on its own threads). The reader's exception is raised here, after the items made before
    it; a caller that stops early stops the reader at its next item."""
    import threading  # noqa: PLC0415
    from queue import Full, Queue  # noqa: PLC0415

    queue: Queue[tuple[bool, object]] = Queue(depth)
    stop = threading.Event()

    def put(entry: tuple[bool, object]) -> bool:
        while not stop.is_set():
            try:
                queue.put(entry, timeout=0.05)
            except Full:
                continue
            return True
        return False

    def produce() -> None:
        try:
            for item in items:
                if not put((True, item)):
                    return
            put((False, None))
        except BaseException as exc:  # handed to the caller, raised there
            put((False, exc))
        finally:
            close = getattr(items, "close", None)
            if close is not None:
                close()

    thread = threading.Thread(target=produce, name="mtcompute-reader", daemon=True)
    thread.start()
    try:
        while True:
            made, value = queue.get()
            if made:
                yield value  # type: ignore[misc]  # an item of ``items``
            elif value is None:
                break
            else:
                raise value  # type: ignore[misc]  # the reader's exception
        thread.join()
    finally:
        stop.set()
