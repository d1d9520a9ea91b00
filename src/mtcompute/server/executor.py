"""Where a server runs an execute request: on the event loop when it is cheap, else on a
worker thread.

A worker-thread hop costs more than computing a small input (it halves the requests per second
of the seed examples), but an input's size alone does not bound its work (a 1 KiB
bleu-ngrams-count input with n-gram tables takes tens of milliseconds), and whatever runs on
the loop holds up every other request meanwhile. So each tool bounds its work from the input's
size and shape (:mod:`mtcompute.tools._cost`), and :func:`mtcompute._execute.is_cheap`
admits on the loop only inputs within :data:`~mtcompute._execute.INLINE_BUDGET` (about a
millisecond); a tool without an estimate always gets a worker thread. On HTTP, a body over
:data:`INLINE_BODY_BYTES` is parsed on the worker as well (:func:`execute_body`); a smaller
one is parsed by the route, then :func:`execute_value`.

What goes to a worker is rendered there too (``render``: the HTTP response with its JSON
bytes, or the MCP tool result), since writing a large result (megabytes of JSON) costs as
much as computing it. There are two workers, each one thread: one for the inputs estimated
within :data:`LANE_BUDGET` (tens of milliseconds at most), one for the rest (no estimate,
larger, or a body over :data:`INLINE_BODY_BYTES`), so that a burst of heavy inputs never
queues a moderate one behind it. No more threads than that: CPU-bound threads share one
interpreter lock with the event loop, and the more of them wait for it the longer the loop
waits for its turn (measured on 2 CPUs, eight heavy inputs in flight: /healthz p99 34 ms with
one thread computing them, 213 ms with two at Python's default switch interval).
:func:`~mtcompute.server.app.create_app` also shortens the interpreter's switch interval to
:data:`SWITCH_INTERVAL` while it serves, so that the loop gets the lock back sooner.
"""

from __future__ import annotations

__all__ = [
    "INLINE_BODY_BYTES",
    "LANE_BUDGET",
    "SWITCH_INTERVAL",
    "execute_body",
    "execute_value",
]

from collections.abc import Callable
from functools import cache
from typing import TypeVar

import anyio
import anyio.to_thread

from mtcompute._execute import INLINE_BUDGET, estimate, execute, execute_json
from mtcompute.envelope import Envelope

T = TypeVar("T")

INLINE_BODY_BYTES = 4096
"""The largest request body parsed on the event loop (at most about a millisecond of parsing,
for 4 KiB of small numbers; no input of a larger body is within the budget of the tools whose
work grows with their input); every larger one is parsed, checked and computed on a worker
thread."""

LANE_BUDGET = 10 * INLINE_BUDGET
"""Work units of the inputs the moderate worker computes (about 10 ms); the others, and the
inputs of tools without an estimate, go to the heavy worker."""

SWITCH_INTERVAL = 0.001
"""Seconds: the interpreter's thread switch interval while serving (Python's default is 5 ms)."""


@cache
def _lanes() -> tuple[anyio.CapacityLimiter, anyio.CapacityLimiter]:
    """(the moderate worker, the heavy worker): one thread each, per process."""
    return anyio.CapacityLimiter(1), anyio.CapacityLimiter(1)


def _execute_and_render(
    render: Callable[[Envelope], T], tool_id: str, version: str, value: object
) -> T:
    return render(execute(tool_id, version, value))


def _execute_json_and_render(
    render: Callable[[Envelope], T], tool_id: str, version: str, body: bytes
) -> T:
    return render(execute_json(tool_id, version, body))


async def execute_value(
    tool_id: str, version: str, value: object, render: Callable[[Envelope], T]
) -> T:
    """``render`` of :func:`~mtcompute._execute.execute` of a parsed input: here when it is
    cheap (:data:`~mtcompute._execute.INLINE_BUDGET`), else on the moderate or the heavy
    worker."""
    units = estimate(tool_id, version, value, LANE_BUDGET)
    if units is not None and units <= INLINE_BUDGET:
        return render(execute(tool_id, version, value))
    moderate, heavy = _lanes()
    lane = moderate if units is not None and units <= LANE_BUDGET else heavy
    return await anyio.to_thread.run_sync(
        _execute_and_render, render, tool_id, version, value, limiter=lane
    )


async def execute_body(
    tool_id: str, version: str, body: bytes, render: Callable[[Envelope], T]
) -> T:
    """``render`` of :func:`~mtcompute._execute.execute_json` of a request body over
    :data:`INLINE_BODY_BYTES`: parsed, checked, computed and rendered on the heavy worker."""
    return await anyio.to_thread.run_sync(
        _execute_json_and_render, render, tool_id, version, body, limiter=_lanes()[1]
    )
