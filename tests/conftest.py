"""Shared fixtures: the shipped contracts, the CLI command, the WMT data folder."""

from __future__ import annotations

import shutil
import socket
import subprocess
import sys
from collections.abc import Iterator
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


def free_port() -> int:
    """A TCP port free on 127.0.0.1 right now."""
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def start_server(
    *extra: str, env: dict[str, str] | None = None
) -> tuple[subprocess.Popen[bytes], str]:
    """Start `mtcompute serve` on a free port; return the process and its base URL once it
    answers /healthz."""
    import os
    import tempfile
    import time
    import urllib.request

    port = free_port()
    fd, log_path = tempfile.mkstemp(prefix="mtcompute-serve-", suffix=".log")
    with os.fdopen(fd, "wb") as log:  # a file, not a pipe: a full pipe would block the server
        proc = subprocess.Popen(
            [*cli_command(), "serve", "--port", str(port), "--log-level", "warning", *extra],
            stdout=subprocess.DEVNULL,
            stderr=log,
            env={**os.environ, **(env or {})},
        )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            tail = Path(log_path).read_text(errors="replace")[-2000:]
            raise RuntimeError(f"server exited {proc.returncode}: {tail}")
        try:
            with urllib.request.urlopen(url + "/healthz", timeout=1) as response:
                if response.status == 200:
                    return proc, url
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("server did not answer /healthz within 30 s")


def stop_server(proc: subprocess.Popen[bytes]) -> None:
    """SIGTERM, then wait (kill after 15 s)."""
    proc.terminate()
    try:
        proc.wait(15)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


@pytest.fixture(scope="session")
def server_url() -> Iterator[str]:
    """A real `mtcompute serve` in a subprocess on a free port, for the whole session."""
    proc, url = start_server()
    try:
        yield url
    finally:
        stop_server(proc)


class RawResponses:
    """HTTP/1.1 responses with a Content-Length read one after another from a raw socket,
    keeping the bytes of later responses that arrive with earlier ones (pipelining)."""

    def __init__(self, sock: socket.socket, timeout: float = 10) -> None:
        sock.settimeout(timeout)
        self.sock = sock
        self.buffer = b""

    def _fill(self, what: str) -> None:
        chunk = self.sock.recv(65536)
        if not chunk:
            raise ConnectionError(f"closed before {what}: {self.buffer[:200]!r}")
        self.buffer += chunk

    def next(self) -> tuple[int, dict[str, str], bytes]:
        """(status, headers with lower-cased names, body) of the next response."""
        while b"\r\n\r\n" not in self.buffer:
            self._fill("a full response head")
        head, _, self.buffer = self.buffer.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        headers = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
        length = int(headers["content-length"])
        while len(self.buffer) < length:
            self._fill("the whole response body")
        body, self.buffer = self.buffer[:length], self.buffer[length:]
        return int(lines[0].split()[1]), headers, body


def read_raw_response(
    sock: socket.socket, timeout: float = 10
) -> tuple[int, dict[str, str], bytes]:
    """(status, headers with lower-cased names, body) of the one response expected on a raw
    socket (for several in a row, use one :class:`RawResponses`)."""
    return RawResponses(sock, timeout).next()


def require_program(name: str) -> str:
    """The path of the program ``name`` on PATH, or a skip naming it (a stub for the merge:
    the data helper's version, which makes the skip a failure under MTCOMPUTE_REQUIRE_ALL=1,
    replaces it)."""
    return shutil.which(name) or pytest.skip(
        f"{name} is not installed: the tests that need it are skipped (install it to run them)"
    )
