"""One logging configuration: `mtcompute serve` writes uvicorn's own records (start-up,
shutdown) and the access log as JSON lines, one a record, and nothing else."""

from __future__ import annotations

import json
import logging
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

from mtcompute.server.log_config import JsonRecordFormatter
from tests.conftest import cli_command, free_port


def _get(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return int(response.status)
    except urllib.error.HTTPError as exc:
        return exc.code


def test_every_line_serve_writes_is_json(tmp_path: Path) -> None:
    """From start to SIGTERM, stdout and stderr hold JSON objects only, one a line: uvicorn's
    start-up and shutdown records (level, logger, message, pid, ts) and the access log's."""
    port = free_port()
    out, err = tmp_path / "out", tmp_path / "err"
    with out.open("wb") as stdout, err.open("wb") as stderr:
        proc = subprocess.Popen(
            [*cli_command(), "serve", "--port", str(port), "--log-level", "info"],
            stdout=stdout,
            stderr=stderr,
        )
    try:
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                statuses = [_get(url + "/healthz")]
                break
            except OSError:
                time.sleep(0.1)
        statuses.append(_get(url + "/no-such-path"))
    finally:
        proc.terminate()
        proc.wait(15)
    lines = (out.read_bytes() + err.read_bytes()).decode("utf-8").splitlines()
    records = [json.loads(line) for line in lines]
    uvicorn = [r for r in records if r.get("logger", "").startswith("uvicorn")]
    paths = [r["path"] for r in records if "path" in r]
    assert ([200, 404], 0) == (statuses, proc.returncode)
    assert all(isinstance(r, dict) and r["ts"].endswith("Z") for r in records)
    assert any(r["message"].startswith("Uvicorn running on") for r in uvicorn)
    assert any(r["message"].startswith("Finished server process") for r in uvicorn)
    assert {"info"} == {r["level"] for r in uvicorn}
    assert ["/healthz", "/no-such-path"] == paths


def test_uvicorn_s_error_is_a_json_line_too() -> None:
    """A port already taken: uvicorn's error (and every other line) is JSON, and the
    command fails."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run(
            [*cli_command(), "serve", "--port", str(port)],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
    records = [json.loads(line) for line in (done.stdout + done.stderr).splitlines()]
    errors = [r["message"] for r in records if r.get("level") == "error"]
    assert (True, 1) == (done.returncode != 0, len(errors))
    assert "address already in use" in errors[0]


def test_a_traceback_stays_on_one_line() -> None:
    """An error record's traceback is the exception field of its one JSON line."""
    try:
        raise ValueError("boom")
    except ValueError:
        record = logging.LogRecord(
            "uvicorn.error", logging.ERROR, __file__, 1, "failed: %s", ("x",), sys.exc_info()
        )
    line = JsonRecordFormatter().format(record)
    fields = json.loads(line)
    assert "\n" not in line
    assert ("error", "uvicorn.error", "failed: x") == (
        fields["level"],
        fields["logger"],
        fields["message"],
    )
    assert fields["exception"].endswith("ValueError: boom")
