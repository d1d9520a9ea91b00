"""Line-aligned byte ranges of text files, for scoring on many processes (:mod:`mtcompute.dask`).

A file of one segment per line (only ``\\n`` ends a line; a final ``\\n`` does not start a
segment: the rule of ``mtcompute score``) is cut into ranges that start at line starts: range
``k`` of ``n`` starts at the first line start at or after byte ``k * size // n`` (seek there,
advance past the next newline), so finding a boundary reads a few bytes, not the file.

The hypothesis and reference files are different files, so their byte ranges do not line up:
they are aligned by LINE NUMBER. First each file's ranges are counted (newlines, at memchr
speed, no decoding): the counts give the line number at each range start of each file. The
ranges of the first file define the work (line ``a`` to line ``b``); the start of line ``a`` in
any other file is the start of the range of that file holding it, plus the lines to skip
(less than one range to read). Whoever reads a range counts and decodes it itself: only line
counts and offsets are exchanged, never the texts.

Everything here works on binary file objects opened by the caller (local files or fsspec
files alike); it is stdlib only and does no scoring.
"""

from __future__ import annotations

__all__ = [
    "BLOCK_BYTES",
    "DecodeProblem",
    "boundary",
    "count_segments",
    "decode_segments",
    "skip_lines",
]

from dataclasses import dataclass
from typing import IO

BLOCK_BYTES = 1 << 22  # bytes read at a time while counting or skipping lines


def boundary(file: IO[bytes], position: int, size: int) -> int:
    """The first line start at or after byte ``position`` of a file of ``size`` bytes:
    ``position`` itself when it is 0 or follows a newline, else just past the next newline
    (``size`` when there is none)."""
    if position <= 0:
        return 0
    if position >= size:
        return size
    at = position - 1
    file.seek(at)
    while True:
        block = file.read(BLOCK_BYTES)
        if not block:
            return size
        found = block.find(b"\n")
        if found >= 0:
            return at + found + 1
        at += len(block)


def count_segments(file: IO[bytes], start: int, end: int, size: int) -> int:
    """The segments of the range ``[start, end)`` (which starts at a line start and ends at one
    or at the end of the file): its newlines, plus one for a last line without a newline at
    the end of the file."""
    file.seek(start)
    left, lines, last = end - start, 0, b"\n"
    while left > 0:
        block = file.read(min(BLOCK_BYTES, left))
        if not block:
            break
        lines += block.count(b"\n")
        left -= len(block)
        last = block[-1:]
    if end == size and end > start and last != b"\n":
        lines += 1
    return lines


def skip_lines(file: IO[bytes], start: int, lines: int) -> int:
    """The byte offset of the line ``lines`` lines after the line that starts at ``start``
    (which must exist: a newline ends each line skipped)."""
    at = start
    file.seek(start)
    while lines:
        block = file.read(BLOCK_BYTES)
        if not block:
            raise ValueError(f"fewer than {lines} more lines after byte {at}")
        newlines = block.count(b"\n")
        if newlines < lines:
            lines -= newlines
            at += len(block)
            continue
        found = -1
        for _ in range(lines):
            found = block.index(b"\n", found + 1)
        return at + found + 1
    return at


@dataclass(frozen=True, slots=True)
class DecodeProblem:
    """Bytes that are not UTF-8, where ``mtcompute score`` reports them: the file's line
    (from 1), the offending byte and its offset in the file and in its line, the reason."""

    line: int
    byte: int
    offset: int
    column: int
    reason: str

    def message(self, name: str) -> str:
        """``mtcompute score``'s message for this problem in the file shown as ``name``."""
        return (
            f"{name}: line {self.line} is not valid UTF-8: byte 0x{self.byte:02x} at byte "
            f"offset {self.offset} of the file (offset {self.column} in the line): {self.reason}"
        )


def decode_segments(
    file: IO[bytes], start: int, end: int, first_line: int
) -> list[str] | DecodeProblem:
    """The segments of the range ``[start, end)`` whose first line is line ``first_line``
    (from 1) of the file: strict UTF-8 split on ``\\n`` only, a final ``\\n`` ending the last
    segment (``mtcompute score``'s reading); or where its first byte that is not UTF-8 is.
    A range starts and ends at line starts, and a newline byte is never inside a UTF-8
    sequence, so a range decodes as the same bytes do in the whole file."""
    file.seek(start)
    data = file.read(end - start)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + first_line
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1)
        return DecodeProblem(line, data[exc.start], start + exc.start, column, exc.reason)
    if not text:
        return []
    if text.endswith("\n"):
        text = text[:-1]
    return text.split("\n")
