"""Files as Dask reads them for :mod:`mtcompute.dask`: paths, globs and fsspec URLs cut into
line-aligned ranges (:mod:`mtcompute._ranges`) that the workers count, read and decode
themselves, in ``mtcompute score``'s reading (strict UTF-8, only ``\\n`` ends a line, a final
``\\n`` ends the last one), and the errors it gives for files it refuses.
"""

from __future__ import annotations

__all__ = [
    "CHUNK_BYTES",
    "RANGES_PER_THREAD",
    "Failure",
    "Range",
    "ScoreFilesError",
    "aligned_bags",
    "first_failure",
    "line_ranges",
    "read",
    "url_of",
    "worker_threads",
]

import os
from bisect import bisect_right
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, cast

import dask
import dask.bag as db
import fsspec  # type: ignore[import-untyped]  # no stubs, no py.typed
from distributed import Client

from mtcompute._ranges import DecodeProblem, boundary, count_segments, decode_segments, skip_lines

CHUNK_BYTES = 16 << 20  # at most this many bytes of each file in one range (one task)
RANGES_PER_THREAD = 2  # at least this many ranges per worker thread, for balance

# Dask's and distributed's functions are untyped, and mypy --strict refuses calls to them:
# they are called through these names, typed Any (the values are typed where they land).
_dask: Any = dask
_db: Any = db
_Client: Any = Client


class ScoreFilesError(Exception):
    """Files that cannot be scored, with ``mtcompute score``'s message and exit status (2: a
    file that cannot be read; 1: a data error)."""

    def __init__(self, message: str, exit_code: int) -> None:
        super().__init__(message)
        self.message = message
        self.exit_code = exit_code


@dataclass(frozen=True, slots=True)
class Failure:
    """Why files cannot be scored, found on a worker: file ``file`` (its index) cannot be
    read (``read_error``, its ``strerror``) or is not UTF-8 at byte ``offset``. Of several,
    the first file's (then the first offset) is reported, as one process reads them."""

    file: int
    offset: int
    read_error: str = ""
    decode: DecodeProblem | None = None

    def error(self, names: Sequence[str]) -> ScoreFilesError:
        if self.decode is not None:
            return ScoreFilesError(self.decode.message(names[self.file]), 1)
        return ScoreFilesError(f"cannot read {names[self.file]}: {self.read_error}", 2)


def first_failure(found: Iterable[Any]) -> Failure | None:
    failures = [f for f in found if isinstance(f, Failure)]
    return min(failures, key=lambda f: (f.file, f.offset)) if failures else None


@dataclass(frozen=True, slots=True)
class Chunk:
    """Bytes ``[start, end)`` of a file of ``size`` bytes, holding ``lines`` segments."""

    start: int
    end: int
    lines: int
    size: int


@dataclass(frozen=True, slots=True)
class Range:
    """Lines ``first_line`` (from 0) to ``first_line + lines`` of every file: in file ``j``,
    they start ``starts[j][1]`` lines after byte ``starts[j][0]``."""

    urls: tuple[str, ...]
    sizes: tuple[int, ...]
    starts: tuple[tuple[int, int], ...]
    first_line: int
    lines: int


def _opened(url: str) -> Any:
    return fsspec.open(url, "rb").open()


def _size(file: int, url: str) -> int | Failure:
    try:
        fs, path = fsspec.core.url_to_fs(url)
        return int(fs.size(path))
    except OSError as exc:
        return Failure(file, -1, str(exc.strerror or exc))


def _count(file: int, url: str, size: int, index: int, count: int) -> Chunk | Failure:
    """Range ``index`` of ``count`` of a file and its segments (counted, not decoded)."""
    try:
        with _opened(url) as f:
            start = boundary(f, index * size // count, size)
            end = boundary(f, (index + 1) * size // count, size)
            return Chunk(start, end, count_segments(f, start, end, size), size)
    except OSError as exc:
        return Failure(file, -1, str(exc.strerror or exc))


def _decoded(file: int, url: str, chunk: Chunk, first_line: int) -> Failure | None:
    """Where a range is not UTF-8 (None when it is)."""
    with _opened(url) as f:
        found = decode_segments(f, chunk.start, chunk.end, first_line + 1)
    if isinstance(found, DecodeProblem):
        return Failure(file, found.offset, decode=found)
    return None


def read(r: Range) -> list[list[str]] | Failure:
    """Every file's segments of the range, or the first problem in them."""
    texts = []
    for file, (url, size, (byte, skip)) in enumerate(zip(r.urls, r.sizes, r.starts, strict=True)):
        try:
            with _opened(url) as f:
                start = skip_lines(f, byte, skip)
                end = boundary(f, skip_lines(f, start, r.lines - 1) + 1, size)
                found = decode_segments(f, start, end, r.first_line + 1)
        except OSError as exc:
            return Failure(file, -1, str(exc.strerror or exc))
        if isinstance(found, DecodeProblem):
            return Failure(file, found.offset, decode=found)
        if len(found) != r.lines:
            raise RuntimeError(f"{url} changed while it was read: lines {r.first_line}+")
        texts.append(found)
    return texts


def line_ranges(
    names: Sequence[str], urls: Sequence[str], ranges: int | None, threads: int
) -> list[Range]:
    """The line-aligned ranges of the files (all of the same length), or the error: the files'
    sizes, then each file's ranges counted on the workers."""
    sizes = _dask.compute(*[_dask.delayed(_size)(i, u) for i, u in enumerate(urls)])
    failure = first_failure(sizes)
    if failure is not None:
        raise failure.error(names)
    largest = max(cast("tuple[int, ...]", sizes))
    count = ranges or max(RANGES_PER_THREAD * threads, -(-largest // CHUNK_BYTES), 1)
    counted = _dask.compute(
        *[
            [_dask.delayed(_count)(i, u, s, k, count) for k in range(count)]
            for i, (u, s) in enumerate(zip(urls, sizes, strict=True))
        ]
    )
    failure = first_failure(c for chunks in counted for c in chunks)
    if failure is not None:
        raise failure.error(names)
    chunks = cast("list[list[Chunk]]", counted)
    firsts = [_starts(file) for file in chunks]
    totals = [sum(c.lines for c in file) for file in chunks]
    if len(set(totals)) > 1 or not totals[0]:
        _refuse(names, urls, chunks, firsts, totals)
    out = []
    for k, chunk in enumerate(chunks[0]):
        if not chunk.lines:
            continue
        line = firsts[0][k]
        starts = []
        for file, lines_at in zip(chunks, firsts, strict=True):
            at = bisect_right(lines_at, line) - 1
            starts.append((file[at].start, line - lines_at[at]))
        out.append(
            Range(tuple(urls), tuple(c[0].size for c in chunks), tuple(starts), line, chunk.lines)
        )
    return out


def _starts(chunks: Sequence[Chunk]) -> list[int]:
    """The line number (from 0) at each chunk's start."""
    found, at = [], 0
    for chunk in chunks:
        found.append(at)
        at += chunk.lines
    return found


def _refuse(
    names: Sequence[str],
    urls: Sequence[str],
    chunks: Sequence[Sequence[Chunk]],
    firsts: Sequence[Sequence[int]],
    totals: Sequence[int],
) -> None:
    """Files of different lengths, or none with a segment: the first byte that is not UTF-8
    if there is one (one process decodes every file before it compares them), else the
    length or emptiness, in ``mtcompute score``'s words."""
    decoded = _dask.compute(
        *[
            _dask.delayed(_decoded)(i, urls[i], chunk, firsts[i][k])
            for i, file in enumerate(chunks)
            for k, chunk in enumerate(file)
        ]
    )
    failure = first_failure(decoded)
    if failure is not None:
        raise failure.error(names)
    for name, total in zip(names[1:], totals[1:], strict=True):
        if total != totals[0]:
            raise ScoreFilesError(
                f"the files have different numbers of lines: {names[0]} has {totals[0]}, "
                f"{name} has {total}; every file needs one line per segment",
                1,
            )
    raise ScoreFilesError(f"no segments to score: {names[0]} is empty", 1)


def worker_threads() -> int:
    """The worker threads of the current distributed client (1 without one)."""
    try:
        client = _Client.current()
    except ValueError:
        return os.cpu_count() or 1
    workers = client.scheduler_info()["workers"].values()
    return max(sum(int(w["nthreads"]) for w in workers), 1)


def url_of(name: str) -> str:
    """A local path made absolute (workers may start elsewhere); URLs as they are."""
    return name if "://" in name else os.path.abspath(name)


def _expanded(urlpath: str) -> list[str]:
    """The files a path, glob or fsspec URL names, in order (a glob's matches sorted)."""
    if not fsspec.core.has_magic(urlpath):
        return [url_of(urlpath)]
    fs, pattern = fsspec.core.url_to_fs(urlpath)
    found = sorted(fs.glob(pattern))
    if not found:
        raise ScoreFilesError(f"cannot read {urlpath}: no file matches it", 2)
    return [str(fs.unstrip_protocol(path)) for path in found]


def aligned_bags(paths: Sequence[str], *, ranges: int | None = None) -> list[db.Bag]:
    """One bag of segments per path (hypotheses then references: one segment per line,
    read as ``mtcompute score`` reads them), partitioned alike by line number: the workers
    count each file's ranges, then each reads its lines of every file (``ranges``: how many
    a file; default about two per worker thread and at most :data:`CHUNK_BYTES` each).
    A glob names parts in order (``sys.*.txt`` beside ``ref.*.txt``): each must match as
    many files, and the n-th files of all have the same number of lines
    (:class:`ScoreFilesError` otherwise)."""
    files = [_expanded(path) for path in paths]
    for path, found in zip(paths[1:], files[1:], strict=True):
        if len(found) != len(files[0]):
            raise ScoreFilesError(
                f"{paths[0]} names {len(files[0])} files but {path} names {len(found)}: "
                "each part needs its line-aligned file in every stream",
                1,
            )
    plan = []
    for group in zip(*files, strict=True):
        names = [name.removeprefix("file://") for name in group]
        plan += line_ranges(names, group, ranges, worker_threads())
    texts = _db.from_sequence(plan, npartitions=len(plan)).map(_checked_read)
    return [cast(db.Bag, texts.pluck(i).flatten()) for i in range(len(paths))]


def _checked_read(r: Range) -> list[list[str]]:
    found = read(r)
    if isinstance(found, Failure):
        raise found.error([url.removeprefix("file://") for url in r.urls])
    return found
