"""Every command that loads numpy for the significance tests (``mtcompute sacrebleu
--paired-bs`` and ``--confidence``, ``mtcompute compare``, ``mtcompute score --paired-bs``)
loads its OpenBLAS with one thread (the tests' matrix products run on one thread in any case,
and an idle pool spins on the CPUs), and keeps an ``OPENBLAS_NUM_THREADS`` the user set."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests.conftest import WMT

PAIR = WMT / "generaltest2022" / "en-de"

_RUN = """
import json, os, sys
from mtcompute.cli import main
from threadpoolctl import threadpool_info
try:
    main(sys.argv[1:])
except SystemExit:
    pass
pools = [p["num_threads"] for p in threadpool_info() if p["internal_api"] == "openblas"]
print(json.dumps([os.environ.get("OPENBLAS_NUM_THREADS"), pools]))
"""


REF, A, B = (str(PAIR / name) for name in ("ref.A.txt", "sys.OpenNMT.txt", "sys.PROMT.txt"))
# -pbs with TER: BLEU and chrF alone run on the C kernel without numpy
# (tests/sacrebleu/test_paired_kernel.py)
COMMANDS = {
    "sacrebleu -pbs": ["sacrebleu", REF, "-i", A, B, "-m", "chrf", "ter", "-pbs", "-pbsn", "20"],
    "sacrebleu -ci": ["sacrebleu", REF, "-i", A, "-m", "chrf", "-ci", "-cin", "20"],
    "compare": ["compare", "--baseline", A, "--hypotheses", B, "-r", REF, "-m", "chrf"],
    "score --paired-bs": ["score", "-H", A, B, "-r", REF, "-m", "chrf", "--paired-bs"],
}


def _run(preset: str | None, args: list[str] = COMMANDS["sacrebleu -pbs"]) -> list[object]:
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    if preset is not None:
        env["OPENBLAS_NUM_THREADS"] = preset
    done = subprocess.run(
        [sys.executable, "-c", _RUN, *args], capture_output=True, text=True, check=True, env=env
    )
    found: list[object] = json.loads(done.stdout.splitlines()[-1])
    return found


@pytest.mark.parametrize("command", list(COMMANDS))
def test_the_tests_start_no_blas_thread_pool(command: str) -> None:
    """Unset, the variable is 1 when numpy loads OpenBLAS: one thread, no idle pool (on a
    machine of one CPU OpenBLAS has one thread anyway)."""
    assert _run(None, COMMANDS[command]) == ["1", [1]]


@pytest.mark.skipif((os.cpu_count() or 1) < 2, reason="OpenBLAS caps its threads at the CPUs")
def test_a_value_the_user_set_is_kept() -> None:
    """A value already set is the user's: kept, and OpenBLAS starts that many threads."""
    assert _run("2") == ["2", [2]]
