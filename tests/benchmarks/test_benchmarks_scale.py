"""The short pass of three benchmarks whose figures come from full runs
(benchmarks/RESULTS.md): ``benchmarks/streaming.py`` (streaming ``mtcompute score``, one and
two kernel threads print the same bytes), ``benchmarks/dask_scale.py`` (one process and a
two-process LocalCluster give identical results, and ``score --scheduler local:2`` prints
what the plain command prints), on a few thousand generated segments, and
``benchmarks/mecab_fork.py`` (``mtcompute sacrebleu -l en-ja`` against sacreBLEU)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO, WMT


def _run(script: str, *args: str) -> tuple[int, str]:
    proc = subprocess.run(
        [sys.executable, str(REPO / "benchmarks" / script), *args],
        capture_output=True,
        timeout=300,
        check=False,
    )
    return proc.returncode, proc.stdout.decode() + proc.stderr.decode()[-2000:]


def test_streaming_short_pass() -> None:
    """Two metrics at 3,000 segments and a two-size growth table: exit 0, the rows printed,
    no output that differs between one and two threads."""
    status, out = _run(
        "streaming.py",
        *("--segments", "3000", "--sizes", "1000", "3000", "--metrics", "chrf", "ter"),
        *("--repeats", "1", "--no-targets"),
    )
    rows = [line.split()[0] for line in out.splitlines() if line.startswith(("chrf ", "ter "))]
    assert (0, ["chrf", "ter"], False) == (status, rows, "NO" in out), out


def test_dask_scale_short_pass() -> None:
    """20,000 segments, chrF and TER: identical results on one process and on the cluster,
    and the command with --scheduler local:2 prints the plain command's JSON."""
    status, out = _run(
        "dask_scale.py",
        *("--segments", "20000", "--metric", "chrf", "ter", "--data", str(WMT)),
        *("--check-command", "--no-targets"),
    )
    checks = [
        line
        for line in out.splitlines()
        if line.startswith(("identical results:", "mtcompute score --scheduler"))
    ]
    expected = [
        "identical results: True",
        "mtcompute score --scheduler local:2 == mtcompute score: True",
    ]
    assert (0, expected) == (status, checks), out


def test_mecab_fork_short_pass() -> None:
    """One round of ``mtcompute sacrebleu`` against sacreBLEU on en-ja (MeCab: the extra ja,
    which .ci/run installs): the same stdout, and each command's row with its paired ratio."""
    pytest.importorskip("MeCab", reason="needs the extra ja (.ci/run installs it)")
    scripts = Path(sys.executable).parent
    status, out = _run(
        "mecab_fork.py",
        *("--rounds", "1", "--data", str(WMT / "generaltest2022" / "en-ja")),
        *("--command", f"mt=:{scripts / 'mtcompute'} sacrebleu"),
        *("--command", f"sb=:{scripts / 'sacrebleu'}", "--", "-m", "bleu", "chrf", "-l", "en-ja"),
    )
    same = [line for line in out.splitlines() if "same as the first" in line]
    rows = [line.split(":")[0].strip() for line in out.splitlines() if "paired wall" in line]
    assert (0, ["mt", "sb"], ["mt", "sb"]) == (
        status,
        [line.split(":")[0] for line in same if line.endswith("True")],
        rows,
    ), out
