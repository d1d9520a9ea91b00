"""``mtcompute score`` and ``compare`` with ``-t/-l``: the references are the test set's
(sacreBLEU's cache, downloaded from the loopback server), the same scores as with those
files given to ``-r``; and the option's errors."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from mtcompute import testsets
from tests.conftest import load_script
from tests.testsets import world as w

diff = load_script("diff_sacrebleu_cli")


@pytest.fixture(scope="module")
def served() -> Iterator[w.World]:
    world = w.build({"wmt22": ("en-de",)})
    with w.serving(world):
        yield world


def _run(world: w.World, folder: Path, *args: str) -> Any:
    """``mtcompute ARGS`` in a forked child, the registry pointed at the server."""
    from mtcompute.cli import main

    def entry(argv: list[str]) -> object:
        w.patch_mtcompute(world)
        return main(argv)

    case = diff.Case(args, env=(("SACREBLEU", str(folder / "cache")),))
    return diff.run_forked(entry, case, folder)


def _hypotheses(folder: Path, name: str, count: int) -> str:
    lines = [w._sentence(name, i) for i in range(count)]
    (folder / name).write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    return name


@pytest.mark.parametrize("command", ["score", "compare"])
def test_t_gives_the_test_sets_references(served: w.World, tmp_path: Path, command: str) -> None:
    """-t wmt22 -l en-de scores as -r CACHE/wmt22/wmt22.en-de.ref-A (reference A only)."""
    count = served.counts["wmt22", "en-de"]
    systems = [_hypotheses(tmp_path, f"sys{i}.txt", count) for i in range(2)]
    given = ["-H", *systems] if command == "score" else ["-b", systems[0], "-H", systems[1]]
    tail = ["-m", "bleu", "chrf", "--format", "json", "-q"]
    with_t = _run(served, tmp_path, command, "-t", "wmt22", "-l", "en-de", *given, *tail)
    ref = str(tmp_path / "cache" / "wmt22" / "wmt22.en-de.ref-A")
    with_r = _run(served, tmp_path, command, "-r", ref, "-l", "en-de", *given, *tail)
    assert (0, b"") == (with_t.status, with_t.stderr)
    assert with_r.stdout == with_t.stdout
    assert f'"references":["{ref}"]'.encode() in with_t.stdout


@pytest.mark.parametrize(
    ("args", "status", "message"),
    [
        (("-H", "s.txt"), 2, "give the references: -r FILE... or -t TESTSET -l SRC-TRG"),
        (("-H", "s.txt", "-r", "s.txt", "-t", "wmt22", "-l", "en-de"), 2,
         "give -r or -t, not both"),
        (("-H", "s.txt", "-t", "wmt22"), 2, "-t wmt22 needs -l SRC-TRG"),
        (("-H", "s.txt", "-t", "wmt22,wmt21", "-l", "en-de"), 2,
         "-t wmt22,wmt21: one test set here (mtcompute sacrebleu -t joins several)"),
        (("-H", "s.txt", "-t", "nosuch", "-l", "en-de"), 1, "Unknown test set 'nosuch'"),
        (("-H", "s.txt", "-t", "wmt08", "-l", "xx-yy"), 2,
         "-t wmt08 has no pair xx-yy (it has " + ", ".join(testsets.langpairs("wmt08")) + ")"),
    ],
)  # fmt: skip
def test_t_errors_are_one_line(
    served: w.World, tmp_path: Path, args: tuple[str, ...], status: int, message: str
) -> None:
    """Each misuse of -t: one line naming it, usage errors exit 2."""
    _hypotheses(tmp_path, "s.txt", 3)
    done = _run(served, tmp_path, "score", *args)
    assert (status, b"", f"mtcompute score: error: {message}\n") == (
        done.status,
        done.stdout,
        done.stderr.decode(),
    )
