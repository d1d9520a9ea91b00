"""``benchmarks/run.py --quick`` runs end to end: every identity check passes, the table prints."""

from __future__ import annotations

import subprocess
import sys

import pytest

from mtcompute import native
from tests.conftest import REPO, SAMPLE_WMT, run_python


def test_quick_benchmark_passes_its_identity_checks() -> None:
    """The quick run (anchors missing here are skipped) exits 0 with all checks passed, on
    the in-repo WMT sample whatever data the other tests use: this is the benchmark code's
    short pass (its rows' identity checks on real WMT lines, 200 of each file); the figures
    come from the full run on the full data (benchmarks/RESULTS.md), whose whole-file
    sacreBLEU anchors (TER and the paired tests over five en-de systems) would take minutes
    of CI here."""
    proc = subprocess.run(
        [
            sys.executable,
            str(REPO / "benchmarks" / "run.py"),
            "--quick",
            "--no-targets",
            "--skip-missing-anchors",
            "--data",
            str(SAMPLE_WMT),
        ],
        capture_output=True,
        timeout=300,
        check=False,
    )
    out = proc.stdout.decode()
    summary = next((line for line in out.splitlines() if "identity checks passed" in line), "")
    passed, _, total = summary.split(" identity")[0].partition(" of ")
    assert (0, True, "| corpus chrF2") == (
        proc.returncode,
        passed == total != "",
        "| corpus chrF2" if "| corpus chrF2" in out else out[-2000:] + proc.stderr.decode()[-2000:],
    )


def test_twins_rows_cover_every_export_with_the_same_answer() -> None:
    """``benchmarks/twins.py``'s short pass (20 lines of the in-repo sample, one run): one
    row for each function the kernel exports (or for functions that only work together,
    named ``a + b``), each with the same answer on both paths. The
    ratios come from the full run (benchmarks/RESULTS.md)."""
    if not native.AVAILABLE:
        pytest.skip("the kernel is not built")
    exports = sorted(
        name
        for name in dir(native.ext)
        if not name.startswith("_") and callable(getattr(native.ext, name))
    )
    proc = subprocess.run(
        [
            sys.executable,
            str(REPO / "benchmarks" / "twins.py"),
            "--wmt",
            str(SAMPLE_WMT),
            "--lines",
            "20",
            "--repeat",
            "1",
        ],
        capture_output=True,
        timeout=600,
        check=False,
    )
    rows = [
        [cell.strip() for cell in line.split("|")[1:-1]]
        for line in proc.stdout.decode().splitlines()
        if line.startswith("| ") and not line.startswith("| export")
    ]
    assert (0, exports, []) == (
        proc.returncode,
        sorted(name for row in rows for name in row[0].split(" + ")),
        [row[0] for row in rows if row[-1] != "yes"],
    ), proc.stderr.decode()[-3000:]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux's ru_maxrss semantics")
def test_a_peak_row_reads_the_commands_own_peak() -> None:
    """run.py's peak memory rows (``sacrebleu --paired-bs``, the native bootstrap) read the
    command's ``ru_maxrss``, which Linux starts at its parent's peak: under run.py's launcher
    a bare interpreter's peak stays small while the benchmark process holds 300 MB."""
    code = (
        "import os, run\n"
        "held = bytearray(300 * 2**20); held[::4096] = b'x' * len(held[::4096])\n"
        "_, peak, out = run._peak_run([sys.executable, '-c', 'print(1)'], dict(os.environ))\n"
        "print(round(peak), out)\n"
    )
    done = run_python(code, path=REPO / "benchmarks")
    assert done.returncode == 0, done.stderr
    peak, out = done.stdout.split(maxsplit=1)
    assert (int(peak) < 100, out) == (True, "b'1\\n'\n")
