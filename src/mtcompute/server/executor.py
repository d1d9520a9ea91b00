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
"""

from __future__ import annotations

__all__ = ["INLINE_BODY_BYTES", "execute_body", "execute_value"]

import anyio.to_thread

from mtcompute._execute import execute, execute_json, is_cheap
from mtcompute.envelope import Envelope

INLINE_BODY_BYTES = 4096
"""The largest request body parsed on the event loop (at most about a millisecond of parsing,
for 4 KiB of small numbers; no input of a larger body is within the budget of the tools whose
work grows with their input); every larger one is parsed, checked and computed on a worker
thread."""


async def execute_value(tool_id: str, version: str, value: object) -> Envelope:
    """:func:`~mtcompute._execute.execute` of a parsed input, here when it is cheap, else on
    a worker thread."""
    if is_cheap(tool_id, version, value):
        return execute(tool_id, version, value)
    return await anyio.to_thread.run_sync(execute, tool_id, version, value)


async def execute_body(tool_id: str, version: str, body: bytes) -> Envelope:
    """:func:`~mtcompute._execute.execute_json` of a request body over
    :data:`INLINE_BODY_BYTES`: parsed, checked and computed on a worker thread."""
    return await anyio.to_thread.run_sync(execute_json, tool_id, version, body)
