"""Downloading one file safely: written to ``DEST.part``, its MD5 sum checked, and only then
renamed to ``DEST`` (so a truncated or corrupt download is never found where it would be
used); retried on network faults, resumed with an HTTP ``Range`` request where the server
allows it; a lock file ``DEST.lock`` (sacreBLEU's own) keeps two processes from downloading
the same file at once. Standard library only (``urllib``): the test sets
(:mod:`mtcompute.testsets`) and spBLEU's SentencePiece models (:mod:`mtcompute.spm`) download
through it."""

from __future__ import annotations

__all__ = ["DownloadError", "ProgressBar", "download_file", "md5sum"]

import contextlib
import hashlib
import logging
import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Protocol

BLOCK = 1 << 16  # bytes read at a time
RETRIES = 3  # attempts at most, each resuming the last
RETRY_DELAY = 0.5  # seconds before the second attempt, doubled each time after
TIMEOUT = 60.0  # seconds without a byte before an attempt fails
LOGGER = logging.getLogger("mtcompute.downloads")


class DownloadError(Exception):
    """A download that failed, or whose bytes are not the expected ones; nothing was left
    where the file would be used."""


class ProgressBar(Protocol):
    """What :func:`download_file` advances as bytes arrive (``mtcompute.cli._progress.Bar``)."""

    def advance(self, count: int = 1) -> None: ...

    def close(self) -> None: ...


# A bar for a download of ``total`` bytes (None: unknown) named ``label``.
Progress = Callable[[str, "int | None"], ProgressBar]


def md5sum(path: str | os.PathLike[str]) -> str:
    """The MD5 sum of the file at ``path``, as hexadecimal digits."""
    digest = hashlib.md5(usedforsecurity=False)
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(BLOCK), b""):
            digest.update(block)
    return digest.hexdigest()


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    """An exclusive lock on ``path`` (created if missing) while the block runs; sacreBLEU's
    portalocker takes the same ``flock`` on the same file. No lock where fcntl is missing."""
    try:
        import fcntl  # noqa: PLC0415
    except ImportError:  # Windows: no lock
        yield
        return
    with open(path, "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _attempt(url: str, part: Path, progress: Progress | None) -> None:
    """Fetch ``url`` into ``part``, continuing after its bytes where the server allows a
    range request; raise OSError or http.client.HTTPException on a fault (IncompleteRead
    when the body is shorter than announced)."""
    import http.client  # noqa: PLC0415 (urllib costs 100 ms to import: only to download)
    import urllib.request  # noqa: PLC0415

    have = part.stat().st_size if part.exists() else 0
    request = urllib.request.Request(url, headers={"User-Agent": "mtcompute"})
    if have:
        request.add_header("Range", f"bytes={have}-")
    with urllib.request.urlopen(request, timeout=TIMEOUT) as response:
        resumed = have > 0 and response.status == 206
        length = response.headers.get("Content-Length")
        expected = int(length) if length is not None and length.isdigit() else None
        total = None if expected is None else expected + (have if resumed else 0)
        bar = (
            progress(os.path.basename(part.name.removesuffix(".part")), total) if progress else None
        )
        got = 0
        try:
            with open(part, "ab" if resumed else "wb") as out:
                if bar is not None and resumed:
                    bar.advance(have)
                for block in iter(lambda: response.read(BLOCK), b""):
                    out.write(block)
                    got += len(block)
                    if bar is not None:
                        bar.advance(len(block))
        finally:
            if bar is not None:
                bar.close()
    if expected is not None and got < expected:
        raise http.client.IncompleteRead(b"", expected - got)


def download_file(
    url: str,
    md5: str | None,
    dest: str | os.PathLike[str],
    *,
    progress: Progress | None = None,
    retries: int = RETRIES,
    unpack: Callable[[Path], None] | None = None,
    verify: Callable[[Path], str | None] | None = None,
    failure: type[DownloadError] = DownloadError,
    logger: logging.Logger = LOGGER,
) -> Path:
    """Download ``url`` to ``dest`` unless a non-empty file is there already; return its path.

    The bytes go to ``DEST.part`` and are renamed to ``dest`` only once complete and, when
    ``md5`` is given, once their MD5 sum is ``md5``: a truncated or corrupt download is never
    left at ``dest``. A network fault or a short body is retried (``retries`` attempts in
    all), continuing from the bytes already there when the server honours ``Range``. A wrong
    sum deletes the partial file and raises :class:`DownloadError`, as does a download that
    fails ``retries`` times (its partial file is kept, so the next call resumes it);
    ``retries`` below 1 is a ValueError.
    ``progress``, when given, makes a bar for the download and advances it. ``unpack``, when
    given, runs on the checked partial file before the rename (sacreBLEU's extraction of an
    archive): a file at ``dest`` means it ran to its end. ``verify``, when given, checks the
    complete partial file first (a file with no MD5 sum to check, such as a model that must
    load): the reason it returns, when not None, deletes the partial file and raises
    ``failure``; without ``md5`` or ``verify`` a body cut short by a server that sent no
    length cannot be told from a whole one. The INFO message "Downloading URL
    to DEST" goes to ``logger`` (``mtcompute.downloads``); faults raise ``failure`` (a
    subclass of :class:`DownloadError`, so that a caller's own errors keep their class).
    """
    _check_retries(retries)
    shown, dest = os.fspath(dest), Path(dest)
    dest.parent.mkdir(parents=True, exist_ok=True)
    with _locked(dest.with_name(dest.name + ".lock")):
        if dest.exists() and dest.stat().st_size > 0:
            return dest
        logger.info("Downloading %s to %s", url, shown)
        part = dest.with_name(dest.name + ".part")
        fetch_to(url, md5, part, progress=progress, retries=retries, failure=failure)
        try:
            wrong = verify(part) if verify is not None else None
            if wrong is not None:
                raise failure(
                    f"{url}: the downloaded file {wrong}; it was deleted (run again to "
                    "download it again)"
                )
            if unpack is not None:
                unpack(part)
        except BaseException:
            part.unlink(missing_ok=True)  # refused, or checked but not unpacked: not kept
            raise
        os.replace(part, dest)
    return dest


def fetch_to(
    url: str,
    md5: str | None,
    part: Path,
    *,
    progress: Progress | None,
    retries: int,
    failure: type[DownloadError] = DownloadError,
) -> None:
    """Fetch ``url`` into ``part`` (resuming it), with retries, and check its MD5 sum; on a
    wrong sum delete ``part`` and raise ``failure``."""
    import http.client  # noqa: PLC0415
    import urllib.error  # noqa: PLC0415

    _check_retries(retries)
    delay, reason = RETRY_DELAY, ""
    for attempt in range(1, retries + 1):
        try:
            _attempt(url, part, progress)
            break
        except urllib.error.HTTPError as error:
            error.close()  # its response (a socket)
            if error.code == 416 and part.exists():  # a range past the end: start again
                part.unlink()
            elif error.code < 500 and error.code != 429:
                raise failure(f"cannot download {url}: HTTP {error.code} {error.reason}") from None
            reason = f"HTTP {error.code} {error.reason}"
        except (OSError, http.client.HTTPException) as error:
            reason = _reason(error)
        if attempt < retries:
            time.sleep(delay)
            delay *= 2
    else:  # every attempt failed
        kept = part.exists() and part.stat().st_size > 0
        resumed = f"; the partial file {part} is kept and resumed next time" if kept else ""
        attempts = "1 attempt" if retries == 1 else f"{retries} attempts"
        raise failure(f"cannot download {url}: {reason} (after {attempts}{resumed})")
    if md5 is not None:
        got = md5sum(part)
        if got != md5:
            part.unlink()
            raise failure(
                f"{url}: MD5 sum of the downloaded file is {got}, expected {md5}; the file was "
                "deleted (run again to download it again)"
            )


def _check_retries(retries: int) -> None:
    """``retries`` is a number of attempts: at least one."""
    if retries < 1:
        raise ValueError(f"retries must be at least 1, got {retries}")


def _reason(error: BaseException) -> str:
    """A network fault in a few words."""
    import http.client  # noqa: PLC0415
    import urllib.error  # noqa: PLC0415

    if isinstance(error, http.client.IncompleteRead):
        return f"the connection closed {error.expected} bytes before the end"
    if isinstance(error, urllib.error.URLError):
        return str(error.reason)
    return str(error) or type(error).__name__
