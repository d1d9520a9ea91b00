"""``scripts/test_pythons.sh`` (``make test-pythons``, run by ``.ci/run``): a Python it does
not find (not on the PATH, pyenv absent, or there but not running) is passed over, except
under ``MTCOMPUTE_REQUIRE_ALL=1``, where a skip is a failure as it is for the tests."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from tests.conftest import REPO

SCRIPT = REPO / "scripts" / "test_pythons.sh"


def _run(home: Path, require_all: bool) -> subprocess.CompletedProcess[str]:
    """The script for Python 3.98 (a broken one in pyenv's folder) and 3.99 (nowhere), no
    pyenv on the PATH."""
    broken = home / ".pyenv" / "versions" / "3.98.0" / "bin" / "python3.98"
    broken.parent.mkdir(parents=True, exist_ok=True)
    broken.write_text("#!/bin/sh\nexit 1\n", encoding="utf-8")
    broken.chmod(0o755)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("MTCOMPUTE_", "PYENV"))}
    env.update(HOME=str(home), PATH="/usr/bin:/bin")
    if require_all:
        env["MTCOMPUTE_REQUIRE_ALL"] = "1"
    return subprocess.run(
        ["bash", str(SCRIPT), "3.98", "3.99"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env=env,
    )


def test_a_python_not_found_is_passed_over(tmp_path: Path) -> None:
    done = _run(tmp_path, require_all=False)
    skipped = "python3.98: not on this machine, skipped\npython3.99: not on this machine, skipped\n"
    assert (done.returncode, done.stdout, done.stderr) == (0, skipped, "")


def test_under_require_all_a_python_not_found_fails(tmp_path: Path) -> None:
    done = _run(tmp_path, require_all=True)
    assert done.returncode == 1
    assert done.stderr == (
        "scripts/test_pythons.sh: error: MTCOMPUTE_REQUIRE_ALL=1 makes a skip a failure: "
        "no working python3.98, python3.99\n"
    )
