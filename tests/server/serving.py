"""A `mtcompute serve` for the length of a ``with`` block: the fixtures that start a server
with their own flags."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from contextlib import contextmanager

from tests.conftest import start_server, stop_server


@contextmanager
def serving(*extra: str) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """``mtcompute serve EXTRA`` on a free port, answering /healthz: (base URL, process);
    stopped (SIGTERM) when the block ends."""
    proc, url = start_server(*extra)
    try:
        yield url, proc
    finally:
        stop_server(proc)
