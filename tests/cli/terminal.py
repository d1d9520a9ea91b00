"""The CLI with a pseudo-terminal on one of its streams: what a person at a terminal sees."""

from __future__ import annotations

import os
import pty
import subprocess

from tests import conftest


def read_until_closed(leader: int) -> bytes:
    """Everything written to the pseudo-terminal ``leader`` until its last writer closes it."""
    chunks = []
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # EIO: the terminal has no writer left
            break
        if not chunk:
            break
        chunks.append(chunk)
    return b"".join(chunks)


def stderr_on_a_terminal(
    args: list[str], timeout: float
) -> tuple[subprocess.CompletedProcess[bytes], bytes]:
    """``mtcompute ARGS`` with stderr on a terminal: the process (its stdout captured) and
    what it drew on the terminal."""
    leader, follower = pty.openpty()
    try:
        proc = subprocess.run(
            [*conftest.cli_command(), *args],
            stderr=follower,
            stdout=subprocess.PIPE,
            timeout=timeout,
            check=False,
        )
        os.close(follower)
        follower = -1
        drawn = read_until_closed(leader)
    finally:
        os.close(leader)
        if follower != -1:
            os.close(follower)
    return proc, drawn
