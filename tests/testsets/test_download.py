"""Downloads against the loopback server: a wrong body (bad MD5 sum), a body cut short, a
server that fails, are refused with a clear error and leave nothing where the file would be
used; a retry after the server recovers succeeds, resuming with ``Range`` where it can; and
``mtcompute sacrebleu`` says so on one line."""

from __future__ import annotations

import hashlib
import os
import pty
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from mtcompute import downloads as _download
from mtcompute import testsets
from tests.cli.terminal import read_until_closed
from tests.conftest import load_script
from tests.testsets import world as w

diff = load_script("diff_sacrebleu_cli")

BODY = bytes(range(256)) * 400  # 100 KiB: more than one read block
MD5 = hashlib.md5(BODY).hexdigest()


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch) -> Iterator[w.Server]:
    """A server with one file, /f/data.bin, and no pause between retries."""
    monkeypatch.setattr(_download, "RETRY_DELAY", 0.0)
    world = w.World(files={"/f/data.bin": BODY})
    with w.serving(world) as served:
        yield served


def _url(server: w.Server) -> str:
    return server.world.base + "/f/data.bin"


def test_a_download_is_checked_and_renamed_into_place(server: w.Server, tmp_path: Path) -> None:
    """The file arrives whole, under its name, with no partial file beside it."""
    dest = tmp_path / "raw" / "data.bin"
    testsets.download_file(_url(server), MD5, dest)
    assert (BODY, ["data.bin", "data.bin.lock"]) == (
        dest.read_bytes(),
        sorted(p.name for p in dest.parent.iterdir()),
    )


def test_a_wrong_md5_sum_is_refused_and_nothing_is_kept(server: w.Server, tmp_path: Path) -> None:
    """A corrupt body: DownloadError naming both sums; no file at dest, no partial file."""
    server.faults["/f/data.bin"] = w.Fault("corrupt")
    dest = tmp_path / "data.bin"
    with pytest.raises(testsets.DownloadError) as raised:
        testsets.download_file(_url(server), MD5, dest)
    got = hashlib.md5(bytes(b ^ 0x55 for b in BODY)).hexdigest()
    assert (
        f"{_url(server)}: MD5 sum of the downloaded file is {got}, expected {MD5}; the file "
        "was deleted (run again to download it again)",
        [],
    ) == (str(raised.value), sorted(p.name for p in tmp_path.iterdir() if p.suffix != ".lock"))
    testsets.download_file(_url(server), MD5, dest)  # the server recovered: it works
    assert BODY == dest.read_bytes()


def test_a_file_its_check_refuses_is_deleted(server: w.Server, tmp_path: Path) -> None:
    """``verify`` sees the whole partial file; the reason it gives is the error, and the
    partial file is deleted; a file it accepts is renamed into place."""
    dest = tmp_path / "data.bin"
    seen: list[bytes] = []

    def refuse(part: Path) -> str:
        seen.append(part.read_bytes())
        return "is not a model"

    with pytest.raises(testsets.DownloadError) as raised:
        testsets.download_file(_url(server), None, dest, verify=refuse)
    assert (
        f"{_url(server)}: the downloaded file is not a model; it was deleted (run again to "
        "download it again)",
        [BODY],
        [],
    ) == (
        str(raised.value),
        seen,
        sorted(p.name for p in tmp_path.iterdir() if p.suffix != ".lock"),
    )
    testsets.download_file(_url(server), None, dest, verify=lambda _: None)
    assert BODY == dest.read_bytes()


def test_a_truncated_body_is_resumed_with_range(server: w.Server, tmp_path: Path) -> None:
    """A body cut at half its announced length: the next attempt asks for the rest."""
    server.faults["/f/data.bin"] = w.Fault("truncate")
    dest = tmp_path / "data.bin"
    testsets.download_file(_url(server), MD5, dest)
    assert (BODY, [None, f"bytes={len(BODY) // 2}-"]) == (
        dest.read_bytes(),
        [wanted for _, wanted in server.requests],
    )


def test_a_server_that_ignores_range_starts_over(server: w.Server, tmp_path: Path) -> None:
    """A truncated body, then a server that answers 200 to the range: the file is whole."""
    server.faults["/f/data.bin"] = w.Fault("truncate")
    dest = tmp_path / "data.bin"
    with pytest.raises(testsets.DownloadError):
        testsets.download_file(_url(server), MD5, dest, retries=1)
    assert (False, True) == (dest.exists(), (tmp_path / "data.bin.part").exists())
    server.faults["/f/data.bin"] = w.Fault("norange")
    testsets.download_file(_url(server), MD5, dest)
    assert BODY == dest.read_bytes()


def test_failing_every_attempt_is_a_clear_error(server: w.Server, tmp_path: Path) -> None:
    """A server closing early on every attempt: one error after the retries, no file."""
    server.faults["/f/data.bin"] = w.Fault("truncate", times=3)
    dest = tmp_path / "data.bin"
    with pytest.raises(testsets.DownloadError) as raised:
        testsets.download_file(_url(server), MD5, dest)
    part = tmp_path / "data.bin.part"
    # each attempt resumes and gets half of what is left: 1/2, 1/4, then 1/8 is missing
    assert (
        f"cannot download {_url(server)}: the connection closed {len(BODY) // 8} bytes before "
        f"the end (after 3 attempts; the partial file {part} is kept and resumed next time)",
        False,
        len(BODY) * 7 // 8,
    ) == (str(raised.value), dest.exists(), part.stat().st_size)


def test_failing_before_any_byte_names_no_partial_file(server: w.Server, tmp_path: Path) -> None:
    """Every attempt answered 503: the error names no partial file, as none was made."""
    server.faults["/f/data.bin"] = w.Fault("error", times=2)
    with pytest.raises(testsets.DownloadError) as raised:
        testsets.download_file(_url(server), MD5, tmp_path / "data.bin", retries=2)
    assert (
        f"cannot download {_url(server)}: HTTP 503 Service Unavailable (after 2 attempts)",
        ["data.bin.lock"],
    ) == (str(raised.value), sorted(p.name for p in tmp_path.iterdir()))


@pytest.mark.parametrize("retries", [0, -1])
@pytest.mark.parametrize("md5", [None, MD5])
def test_fewer_than_one_attempt_is_refused(
    server: w.Server, tmp_path: Path, retries: int, md5: str | None
) -> None:
    """``retries`` below 1: a ValueError naming it, no request, and a partial file from
    before neither renamed into place nor touched."""
    dest, part = tmp_path / "data.bin", tmp_path / "data.bin.part"
    part.write_bytes(b"partial")
    with pytest.raises(ValueError, match=f"^retries must be at least 1, got {retries}$"):
        testsets.download_file(_url(server), md5, dest, retries=retries)
    assert (False, b"partial", []) == (dest.exists(), part.read_bytes(), server.requests)


def test_server_errors_are_retried(server: w.Server, tmp_path: Path) -> None:
    """Two 503 answers, then the file: it arrives."""
    server.faults["/f/data.bin"] = w.Fault("error", times=2)
    dest = tmp_path / "data.bin"
    testsets.download_file(_url(server), MD5, dest)
    assert (BODY, 3) == (dest.read_bytes(), len(server.requests))


def test_a_missing_file_is_not_retried(server: w.Server, tmp_path: Path) -> None:
    """HTTP 404: one request, a clear error."""
    with pytest.raises(testsets.DownloadError) as raised:
        testsets.download_file(server.world.base + "/nope.tgz", None, tmp_path / "x.tgz")
    assert (f"cannot download {server.world.base}/nope.tgz: HTTP 404 Not Found", 1) == (
        str(raised.value),
        len(server.requests),
    )


def test_a_file_in_place_is_used_without_a_request(server: w.Server, tmp_path: Path) -> None:
    """A non-empty file at dest (sacreBLEU's cache) is kept as it is."""
    dest = tmp_path / "data.bin"
    dest.write_bytes(b"cached")
    testsets.download_file(_url(server), MD5, dest)
    assert (b"cached", []) == (dest.read_bytes(), server.requests)


# -- the command -------------------------------------------------------------------------------


@pytest.fixture
def grid_world(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[w.World, w.Server]]:
    """wmt20's archive served, with no pause between retries."""
    monkeypatch.setattr(_download, "RETRY_DELAY", 0.0)
    world = w.build({"wmt20": ("de-en",)})
    with w.serving(world) as served:
        yield world, served


def test_the_command_refuses_a_corrupt_archive(
    grid_world: tuple[w.World, w.Server], tmp_path: Path
) -> None:
    """A corrupt test set: one line, exit 1, nothing in the cache that a later run would
    use; the next run (the server recovered) downloads it and prints the source."""
    world, server = grid_world
    (url,) = testsets.DATASETS["wmt20"].data
    server.faults[world.served_path(url)] = w.Fault("corrupt")
    cache = tmp_path / "cache"
    case = diff.Case(
        ("-t", "wmt20", "-l", "de-en", "--echo", "src", "-q"), env=(("SACREBLEU", str(cache)),)
    )
    _, mtcompute_main = diff.forked_entries()

    def entry(args: list[str]) -> object:
        w.patch_mtcompute(world)
        return mtcompute_main(args)

    refused = diff.run_forked(entry, case, tmp_path)
    raw = cache / "wmt20" / "raw"
    assert (1, b"", ["wmt20.test.tgz.lock"]) == (
        refused.status,
        refused.stdout,
        sorted(p.name for p in raw.iterdir()),
    )
    served = world.urls[url]
    assert refused.stderr.decode().startswith(
        f"mtcompute sacrebleu: error: {served}: MD5 sum of the downloaded file is "
    )
    again = diff.run_forked(entry, case, tmp_path)
    assert (0, 7, b"") == (again.status, again.stdout.count(b"\n"), again.stderr)


def _on_a_terminal(world: w.World, cache: Path, *args: str) -> bytes:
    """What ``mtcompute sacrebleu ARGS`` draws on standard error when it is a terminal (a
    forked child, the registry pointed at the server)."""
    from mtcompute.cli import main

    leader, follower = pty.openpty()
    pid = os.fork()
    if pid == 0:  # the child never returns
        status = 1
        try:
            os.dup2(follower, 2)
            os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
            sys.stderr = open(2, "w", encoding="utf-8", closefd=False)  # noqa: SIM115
            sys.stdout = open(1, "w", encoding="utf-8", closefd=False)  # noqa: SIM115
            os.environ["SACREBLEU"] = str(cache)
            w.patch_mtcompute(world)
            status = main(["sacrebleu", *args])
            sys.stderr.flush()
        finally:
            os._exit(status)
    os.close(follower)
    drawn = read_until_closed(leader)
    os.close(leader)
    os.waitpid(pid, 0)
    return drawn


@pytest.mark.parametrize("quiet", [False, True])
def test_a_download_shows_progress_on_a_terminal(
    grid_world: tuple[w.World, w.Server], tmp_path: Path, quiet: bool
) -> None:
    """A bar naming the file reaches 100% on a terminal's stderr; -q draws none."""
    world, _ = grid_world
    drawn = _on_a_terminal(
        world, tmp_path / "cache", "--download", "wmt20", "-l", "de-en", *(["-q"] if quiet else [])
    )
    bar = b"wmt20.test.tgz: 100%"
    assert (not quiet, b"Downloading" in drawn) == (bar in drawn, not quiet)


def test_an_archive_escaping_the_cache_is_refused(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A test set's tar.gz with a member ``../evil.txt`` (its MD5 sum right): TestSetError,
    nothing written outside the raw folder, and no download left in place."""
    import dataclasses
    import io
    import tarfile

    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
        info = tarfile.TarInfo("../evil.txt")
        info.size = 5
        tar.addfile(info, io.BytesIO(b"evil\n"))
    data = buffer.getvalue()
    world = w.World(files={"/x/evil.tgz": data})
    with w.serving(world):
        replaced = dataclasses.replace(
            testsets.DATASETS["mtnt2019"],
            data=(world.base + "/x/evil.tgz",),
            md5=(hashlib.md5(data).hexdigest(),),
        )
        monkeypatch.setitem(testsets.DATASETS, "mtnt2019", replaced)
        monkeypatch.setenv("SACREBLEU", str(tmp_path / "cache"))
        with pytest.raises(testsets.TestSetError) as raised:
            testsets.source("mtnt2019", "en-fr")
    raw = tmp_path / "cache" / "mtnt2019" / "raw"
    assert str(raised.value).startswith(f"{raw}/mtnt2019.evil.tgz: cannot unpack the download: ")
    assert ([], ["mtnt2019.evil.tgz.lock"]) == (
        sorted(p.name for p in tmp_path.rglob("evil.txt")),
        sorted(p.name for p in raw.iterdir()),
    )


def test_two_processes_download_once(server: w.Server, tmp_path: Path) -> None:
    """Two processes asking for one file at once (a slow server): the lock makes the second
    wait and find the file; one request, both see the whole file."""
    server.faults["/f/data.bin"] = w.Fault("slow", times=2)
    dest = tmp_path / "data.bin"
    children = []
    for _ in range(2):
        pid = os.fork()
        if pid == 0:  # the child never returns
            status = 1
            try:
                done = testsets.download_file(_url(server), MD5, dest)
                status = 0 if done.read_bytes() == BODY else 2
            finally:
                os._exit(status)
        children.append(pid)
    statuses = [os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]) for pid in children]
    assert ([0, 0], 1, BODY) == (statuses, len(server.requests), dest.read_bytes())
