"""Making the test sets' text files: safe when several commands make the same files at once
(each writes its own temporary file, renamed into place), and clear about a raw file that
cannot be read; no temporary file is ever left behind."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

from mtcompute.testsets import _formats


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
