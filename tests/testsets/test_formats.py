"""Making the test sets' text files: safe when several commands make the same files at once
(each writes its own temporary file, renamed into place), and clear about a raw file that
cannot be read; no temporary file is ever left behind."""

from __future__ import annotations

import gzip
import io
import os
import subprocess
import tarfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from mtcompute.testsets import _formats
from mtcompute.testsets._registry import TestSetError
from tests.conftest import cli_command


def test_commands_making_the_same_text_file_at_once_all_succeed(tmp_path: Path) -> None:
    """Four writers of one file, each held after its first line until all have started
    (sharing one temporary file, all but one failed): all succeed, the file is whole, and
    no temporary file is left."""
    writers = 4
    barrier = threading.Barrier(writers, timeout=10)
    target = tmp_path / "wmt22.de-en.src"
    lines = [f"line {i} " + "x" * 50 for i in range(2000)]
    errors: list[BaseException] = []

    def held() -> Iterator[str]:
        yield lines[0]
        barrier.wait()
        yield from lines[1:]

    def write() -> None:
        try:
            _formats._write(str(target), held())
        except BaseException as error:  # reported below
            errors.append(error)

    threads = [threading.Thread(target=write) for _ in range(writers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert target.read_text(encoding="utf-8") == "".join(line + "\n" for line in lines)
    assert sorted(p.name for p in tmp_path.iterdir()) == [target.name]


def test_a_killed_writers_stale_temporary_files_are_removed(tmp_path: Path) -> None:
    """A temporary file of the same text file older than an hour (its writer was killed) is
    deleted by the next write; a fresh one (a writer at work) and other files are kept."""
    target = tmp_path / "wmt22.de-en.ref"
    stale, fresh = (tmp_path / f"{target.name}.{c * 32}.part" for c in "ab")
    others = [tmp_path / f"wmt22.de-en.src.{'c' * 32}.part", tmp_path / f"{target.name}.x.part"]
    for path in [stale, fresh, *others]:
        path.write_text("half", encoding="utf-8")
    old = time.time() - _formats._STALE_PART_SECONDS - 60
    for path in [stale, *others]:
        os.utime(path, (old, old))
    _formats._write(str(target), ["a", "b"])
    assert target.read_text(encoding="utf-8") == "a\nb\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        p.name for p in [target, fresh, *others]
    )


@pytest.fixture
def old_tarfile(monkeypatch: pytest.MonkeyPatch) -> None:
    """tarfile as Python 3.11.0 to 3.11.3 have it: no extraction filters."""
    extractall = tarfile.TarFile.extractall

    def no_filter(self: tarfile.TarFile, *args: Any, **kwargs: Any) -> None:
        if "filter" in kwargs:
            raise TypeError("extractall() got an unexpected keyword argument 'filter'")
        extractall(self, *args, **kwargs)

    monkeypatch.delattr(tarfile, "data_filter")
    monkeypatch.setattr(tarfile.TarFile, "extractall", no_filter)


def _tgz(tmp_path: Path, *members: tarfile.TarInfo) -> Path:
    """A tar.gz of ``members`` (a file's content: its name), as a download's partial file."""
    part = tmp_path / "set.tgz.part"
    with tarfile.open(part, mode="w:gz") as tar:
        for info in members:
            data = info.name.encode() if info.isreg() else b""
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return part


def _member(name: str, kind: bytes = tarfile.REGTYPE, link: str = "") -> tarfile.TarInfo:
    info = tarfile.TarInfo(name)
    info.type, info.linkname = kind, link
    return info


def test_without_tar_filters_an_archive_is_unpacked(old_tarfile: None, tmp_path: Path) -> None:
    """Python before 3.11.4: regular files and folders are unpacked all the same."""
    raw = tmp_path / "raw"
    folder = _member("set", tarfile.DIRTYPE)
    part = _tgz(tmp_path, folder, _member("set/a.txt"), _member("set/sub/b.txt"))
    _formats._unpacker("set.tgz", str(raw))(part)
    assert ["set/a.txt", "set/sub/b.txt"] == sorted(
        str(p.relative_to(raw)) for p in raw.rglob("*") if p.is_file()
    )
    assert "set/sub/b.txt" == (raw / "set" / "sub" / "b.txt").read_text()


@pytest.mark.parametrize(
    ("member", "why"),
    [
        (_member("../evil.txt"), "'../evil.txt' is outside the folder"),
        (_member("set/../../evil.txt"), "'set/../../evil.txt' is outside the folder"),
        (_member("/tmp/evil.txt"), "'/tmp/evil.txt' is outside the folder"),
        (_member("set/link", tarfile.SYMTYPE, "/etc/passwd"), "'set/link' is a link"),
        (_member("set/hard", tarfile.LNKTYPE, "set/a.txt"), "'set/hard' is a link"),
        (_member("set/dev", tarfile.CHRTYPE), "'set/dev' is not a file or a folder"),
        (_member("set/fifo", tarfile.FIFOTYPE), "'set/fifo' is not a file or a folder"),
    ],
)
def test_without_tar_filters_unsafe_members_are_refused(
    old_tarfile: None, tmp_path: Path, member: tarfile.TarInfo, why: str
) -> None:
    """Python before 3.11.4: a member outside the folder, a link, a device: the test sets'
    error naming the archive and the member, and nothing unpacked."""
    raw = tmp_path / "raw"
    part = _tgz(tmp_path, _member("set/a.txt"), member)
    with pytest.raises(TestSetError) as raised:
        _formats._unpacker("set.tgz", str(raw))(part)
    assert f"set.tgz: cannot unpack the download: member {why}" == str(raised.value)
    assert not raw.exists()
    assert not (tmp_path / "evil.txt").exists()


@pytest.mark.parametrize("suffix", ["", ".gz"])
def test_a_raw_file_that_is_not_utf8_is_named(tmp_path: Path, suffix: str) -> None:
    """A byte that is not UTF-8: the test sets' error naming the file, its byte offset (in
    the uncompressed text) and line, and the text file being made is not left half-made."""
    raw = tmp_path / f"newstest.src.sgm{suffix}"
    data = '<seg id="1">één</seg>\n<seg id="2">tw\udcffo</seg>\n'.encode("utf-8", "surrogateescape")
    raw.write_bytes(gzip.compress(data) if suffix else data)
    out = tmp_path / "wmt.cs-en.src"
    with pytest.raises(TestSetError) as raised:
        _formats._write(str(out), _formats._sgml_text(str(raw)))
    bad = data.index(b"\xff")
    assert (
        f"{raw}: cannot read the test set's file: not UTF-8 at byte {bad} (line 2: invalid "
        "start byte)"
    ) == str(raised.value)
    assert sorted(p.name for p in tmp_path.iterdir()) == [raw.name]


def _sgml(kind: str, segments: list[bytes]) -> bytes:
    lines = [f'<{kind}set setid="x" srclang="any"><doc docid="d1" genre="news" origlang="cs">']
    head = "\n".join(lines).encode()
    body = b"".join(b'<seg id="%d">%s</seg>\n' % (i, s) for i, s in enumerate(segments, 1))
    return head + b"\n" + body + b"</doc></x>\n"


@pytest.mark.parametrize("command", ["score", "sacrebleu"])
def test_the_commands_name_a_raw_file_that_is_not_utf8(tmp_path: Path, command: str) -> None:
    """A cached raw file with a byte that is not UTF-8: one error line naming it and the
    byte, no traceback, and no temporary file left in the cache."""
    raw = tmp_path / "cache" / "wmt20" / "raw"
    (raw / "sgm").mkdir(parents=True)
    (raw / "wmt20.test.tgz").write_bytes(b"x")  # the download, unpacked already
    src = raw / "sgm" / "newstest2020-csen-src.cs.sgm"
    src.write_bytes(_sgml("src", [b"one", b"tw\xff"]))
    (raw / "sgm" / "newstest2020-csen-ref.en.sgm").write_bytes(_sgml("ref", [b"one", b"two"]))
    (tmp_path / "hyp.txt").write_text("one\ntwo\n", encoding="utf-8")
    args = {
        "score": ["score", "-H", "hyp.txt", "-t", "wmt20", "-l", "cs-en"],
        "sacrebleu": ["sacrebleu", "-t", "wmt20", "-l", "cs-en", "-i", "hyp.txt"],
    }[command]
    done = subprocess.run(
        [*cli_command(), *args],
        cwd=tmp_path,
        env={**os.environ, "SACREBLEU": str(tmp_path / "cache")},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    bad = src.read_bytes().index(b"\xff")
    why = f"{src}: cannot read the test set's file: not UTF-8 at byte {bad} (line 3: invalid "
    assert (1, f"mtcompute {command}: error: {why}start byte)\n") == (
        done.returncode,
        done.stderr,
    )
    assert [] == [p.name for p in (tmp_path / "cache" / "wmt20").iterdir() if p.is_file()]
