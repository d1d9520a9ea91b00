"""The WMT corpora of the kernel's sacreBLEU-exact tests (tests/kernel/test_kernel_text13a.py and
tests/kernel/test_kernel_sacrebleu_chrf.py): per pair its references and systems, read once.

Lines are the file split on ``"\\n"`` (a final newline ends the last line), so that the
other line-break code points (U+000B, U+000C, U+001C..U+001E, U+0085, U+2028, U+2029) stay
inside lines, where sacreBLEU's tokenizers and chrF see them. The pre-tokenized ``.tok.txt``
files of newstest2015-nltk100 are left out (they pair with each other, not with the raw text).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from mtcompute import counting
from tests.conftest import WMT, at_least


def read_segments(path: Path) -> list[str]:
    """The segments of a file: split on ``"\\n"``, without the empty piece after a final one."""
    text = path.read_text(encoding="utf-8")
    lines = text.split("\n")
    return lines[:-1] if text.endswith("\n") else lines


@dataclass(frozen=True)
class Pair:
    """One language pair: its reference sets (``ref.X.txt``, sorted) and systems."""

    name: str
    references: tuple[tuple[str, ...], ...]
    systems: tuple[str, ...]

    def per_segment(self, sets: int | None = None) -> list[list[str]]:
        """The references per segment (the first ``sets`` reference sets, or all)."""
        chosen = self.references[: sets or len(self.references)]
        return [list(texts) for texts in zip(*chosen, strict=True)]

    def system(self, name: str) -> list[str]:
        """The segments of system ``name``."""
        return read_segments(WMT / self.name / f"sys.{name}.txt")


def _raw(path: Path) -> bool:
    return not path.name.endswith(".tok.txt")


@functools.cache
def pair(name: str) -> Pair:
    """The pair ``name`` (``generaltest2022/en-de``), read once."""
    folder = WMT / name
    refs = tuple(tuple(read_segments(p)) for p in sorted(folder.glob("ref.*.txt")) if _raw(p))
    systems = tuple(
        p.name[len("sys.") : -len(".txt")] for p in sorted(folder.glob("sys.*.txt")) if _raw(p)
    )
    return Pair(name, refs, systems)


PAIRS: list[str] = sorted(
    str(p.relative_to(WMT)) for p in WMT.glob("*/*") if p.is_dir() and any(p.glob("ref.*.txt"))
)
"""Every pair of the WMT data in use."""

SYSTEMS: list[tuple[str, str]] = [(name, system) for name in PAIRS for system in pair(name).systems]
"""Every (pair, system) of the WMT data in use."""


def assert_thread_counts_agree(ours: Callable[..., object]) -> None:
    """``ours(hyps, refs, threads=k)`` is the same for 1, 2 and 3 threads, on the first pair's
    first system repeated to fill three threads."""
    corpus = pair(PAIRS[0])
    hyps = at_least(corpus.system(corpus.systems[0]), 3 * counting.MIN_SEGMENTS_PER_THREAD)
    refs = at_least(corpus.per_segment(), len(hyps))[: len(hyps)]
    results = [ours(hyps, refs, threads=k) for k in (1, 2, 3)]
    assert results[0] == results[1] == results[2]
