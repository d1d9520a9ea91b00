"""Making the test sets' text files: safe when several commands make the same files at once
(each writes its own temporary file, renamed into place), and clear about a raw file that
cannot be read; no temporary file is ever left behind."""

from __future__ import annotations

import io
import tarfile
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from mtcompute.testsets import _formats
from mtcompute.testsets._registry import TestSetError


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
