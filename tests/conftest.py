"""Shared fixtures: the shipped contracts, the CLI command, the WMT data folder."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
WMT = REPO.parent / "shared" / "data" / "wmt"


def cli_command() -> list[str]:
    """The installed ``mtcompute`` console script (next to this interpreter)."""
    script = Path(sys.executable).with_name("mtcompute")
    if script.exists():
        return [str(script)]
    found = shutil.which("mtcompute")
    if found:
        return [found]
    return [sys.executable, "-m", "mtcompute.cli"]


def run_cli(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    """Run the CLI as a subprocess, capturing bytes."""
    return subprocess.run(
        [*cli_command(), *args], input=stdin, capture_output=True, timeout=60, check=False
    )


@pytest.fixture(scope="session")
def wmt_dir() -> Path:
    """The real WMT data folder in ../shared (required: the differential tests need it)."""
    if not WMT.is_dir():
        pytest.fail(f"WMT data not found at {WMT}; the tests read it from ../shared")
    return WMT
