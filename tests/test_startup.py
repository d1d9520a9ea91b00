"""``mtcompute score`` loads no heavy module: its start-up stays close to Python's own.

Issue 4 asks for the whole ``score`` process within twice Python's start-up plus the kernel
time; ``benchmarks/run.py`` measures that ("score CLI" rows). Timings are not unit tests, so
this suite checks the cause instead: the standard-library modules that each cost a large
share of Python's start-up (typing, dataclasses with inspect, fractions with decimal,
argparse, re, concurrent.futures, and even collections, functools and threading) are never
imported on the command's path, for either metric, with or without per-segment scores, on
one thread or two. (Two threads need over 256 segments a thread: on the in-repo WMT sample the
en-de files are repeated to 512 lines first.)
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import WMT, at_least

EN_DE = WMT / "generaltest2022" / "en-de"
SYS = EN_DE / "sys.Online-B.txt"
REF_A = EN_DE / "ref.A.txt"
REF_B = EN_DE / "ref.B.txt"
TWO_THREADS = 512  # segments: the kernel starts a second thread from 2 x 256 segments

# Import times measured here in a fresh interpreter, against ~11-16 ms for `python -c pass`:
# typing 5-10 ms, dataclasses (with inspect) 10+ ms, argparse 5-9 ms, fractions (with
# decimal and re) 7+ ms, re 5 ms, threading 4.7 ms, collections 2.3 ms, functools 1.4 ms.
HEAVY = (
    "argparse",
    "collections",
    "concurrent.futures",
    "dataclasses",
    "decimal",
    "enum",
    "fractions",
    "functools",
    "inspect",
    "logging",
    "re",
    "threading",
    "typing",
)

# Run the command in-process as the console script would, then list the modules loaded.
PROBE = """
import sys
from mtcompute.cli import main
status = main(sys.argv[1:])
modules = sorted(sys.modules)
import json
sys.stdout.flush()
sys.stderr.write("\\n" + json.dumps({"status": status, "modules": modules}) + "\\n")
"""


def loaded_modules(*args: str, threads: str = "1") -> tuple[int, list[str], bytes]:
    """(exit status, modules loaded by the end, stdout) of ``mtcompute ARGS`` in a fresh
    interpreter. The probe lists the modules before it imports json to report them."""
    env = {**os.environ, "MTCOMPUTE_THREADS": threads}
    proc = subprocess.run(
        [sys.executable, "-c", PROBE, *args], capture_output=True, timeout=120, check=False, env=env
    )
    report = json.loads(proc.stderr.decode().strip().splitlines()[-1])
    return report["status"], report["modules"], proc.stdout


def long_enough(args: tuple[str, ...], folder: Path) -> tuple[str, ...]:
    """``args`` with each en-de file shorter than TWO_THREADS lines (the sample's) replaced by
    a copy in ``folder`` repeated to at least that many; the full files are left as they are."""
    out = []
    for arg in args:
        path = Path(arg)
        if path.parent == EN_DE:
            segments = path.read_bytes().splitlines(keepends=True)
            if len(segments) < TWO_THREADS:
                path = folder / path.name
                path.write_bytes(b"".join(at_least(segments, TWO_THREADS)))
        out.append(str(path))
    return tuple(out)


def heavy_in(modules: list[str]) -> list[str]:
    """The HEAVY modules (or their submodules) among ``modules``."""
    return [m for m in modules if any(m == h or m.startswith(h + ".") for h in HEAVY)]


@pytest.mark.parametrize(
    ("args", "threads"),
    [
        (("-H", str(SYS), "-r", str(REF_A)), "1"),
        (("-H", str(SYS), "-r", str(REF_A)), "2"),
        (("-H", str(SYS), "-r", str(REF_A), "--segments", "--beta", "3", "--lowercase"), "1"),
        (("-H", str(SYS), "-r", str(REF_A), str(REF_B), "--metric", "bleu"), "1"),
        (("-H", str(SYS), "-r", str(REF_A), "--metric", "bleu", "--smoothing", "method1"), "2"),
        (("-H", str(SYS), "-r", str(REF_A), "--metric", "bleu", "--segments"), "1"),
    ],
    ids=["chrf", "chrf-2-threads", "chrf-segments", "bleu-2-refs", "bleu-method1", "bleu-segments"],
)
def test_score_loads_no_heavy_module(args: tuple[str, ...], threads: str, tmp_path: Path) -> None:
    """Text output: the command scores (exit 0, a score line) without any HEAVY module."""
    status, modules, stdout = loaded_modules("score", *long_enough(args, tmp_path), threads=threads)
    assert (0, [], True) == (status, heavy_in(modules), stdout.startswith((b"chrF", b"BLEU")))


def test_the_probe_sees_heavy_modules_when_they_are_loaded() -> None:
    """The check can fail: ``mtcompute list`` builds the registry with dataclasses, and the
    probe reports them."""
    status, modules, _ = loaded_modules("list")
    assert (0, True) == (status, "dataclasses" in heavy_in(modules))
