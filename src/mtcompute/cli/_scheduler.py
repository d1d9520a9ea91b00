"""``mtcompute score --scheduler``: the option's argument.

``--scheduler ADDRESS`` connects to a running Dask scheduler (``tcp://HOST:PORT``, or
``HOST:PORT``, or another of distributed's schemes: ``tls://``, ``ws://``, ``wss://``,
``ucx://``); ``--scheduler local:N`` starts a ``LocalCluster`` of N worker processes for the
run (:mod:`mtcompute.cli._cluster`).
"""

from __future__ import annotations

__all__ = ["LOCAL_MAX_WORKERS", "parse"]

import argparse
import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mtcompute.cli._cluster import Scheduler

LOCAL_MAX_WORKERS = 256
# compiled when the option is given (re's cache), not when every command builds the parser
_ADDRESS = r"(?:(tcp|tls|ws|wss|ucx)://)?(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):(\d+)"


def parse(text: str) -> Scheduler:
    """argparse ``type=`` of --scheduler: ``local:N`` (N from 1 to 256) or an address. Its
    :class:`~mtcompute.cli._cluster.Scheduler` is imported when the option is given (the
    parser, which every command builds, needs no dataclass)."""
    from mtcompute.cli._cluster import Scheduler  # noqa: PLC0415

    if text.startswith("local:"):
        count = text.removeprefix("local:")
        if not (count.isdigit() and 1 <= int(count) <= LOCAL_MAX_WORKERS):
            raise argparse.ArgumentTypeError(
                f"expected local:N with N a number of worker processes from 1 to "
                f"{LOCAL_MAX_WORKERS}, got {text!r}"
            )
        return Scheduler(workers=int(count))
    found = re.fullmatch(_ADDRESS, text)
    if found is None or not 1 <= int(found.group(3)) <= 65535:
        raise argparse.ArgumentTypeError(
            "expected a Dask scheduler address (tcp://HOST:PORT or HOST:PORT, PORT from 1 to "
            f"65535) or local:N, got {text!r}"
        )
    scheme, host, port = found.group(1) or "tcp", found.group(2), int(found.group(3))
    tcp = (host, port) if scheme == "tcp" else ("", 0)
    return Scheduler(f"{scheme}://{host}:{port}", 0, *tcp)
