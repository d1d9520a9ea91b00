"""Where a server runs an execute request: on the event loop when it is cheap, else on a
worker thread, or for a large HTTP body in a worker process.

A worker-thread hop costs more than computing a small input (it halves the requests per second
of the seed examples), but an input's size alone does not bound its work (a 1 KiB
bleu-ngrams-count input with n-gram tables takes tens of milliseconds), and whatever runs on
the loop holds up every other request meanwhile. So each tool bounds its work from the input's
size and shape (:mod:`mtcompute.tools._cost`), and :func:`mtcompute._execute.is_cheap`
admits on the loop only inputs within :data:`~mtcompute._execute.INLINE_BUDGET` (about a
millisecond); a tool without an estimate always gets a worker.

Cost before work: every request to execute is first classed from its raw JSON bytes, before
anything is parsed (:func:`~mtcompute.tools._cost.request_cost`: its size, its tokenizer, its
resample count), ``light`` or ``heavy``, and its deadline comes from that estimate
(:meth:`Admission.deadline_for`, capped by ``--deadline``). A body over
:data:`INLINE_BODY_BYTES`, or a heavy one of any size (a 4 KB paired-significance body asking
10,000 resamples), goes whole to :class:`BodyWorker` (:func:`execute_body`,
:func:`in_body_worker`); a smaller light one is parsed by the route, then
:func:`execute_value`. MCP's ``execute`` on the HTTP server takes the same path with its
input's JSON bytes (:mod:`mtcompute.server.mcp`).

:class:`BodyWorker` is a pool of processes (spawned, so they share nothing with the server
but the code; ``--compute-workers``, :data:`DEFAULT_COMPUTE_WORKERS`): one of them parses,
checks, computes and writes the JSON of each large body, the server sends it the body's bytes
and gets back the envelope's status and bytes; at most all of them but one take heavy bodies
at once, so that a light large body never waits behind heavy ones. Parsing a few megabytes of
JSON and writing the result are single C calls that hold the interpreter lock for tens of
milliseconds (no switch interval preempts them), so in a thread of the server they stop the
event loop, /healthz included; in their own process they take the other CPU instead.

A parsed input that is not cheap (at most a 4 KiB body on HTTP, any MCP call: the MCP SDK has
parsed it already) runs on one of two worker threads, rendered there too (``render``: the HTTP
response or the MCP tool result): one for the inputs estimated within :data:`LANE_BUDGET`
(tens of milliseconds at most), one for the rest (no estimate, or larger), so that a heavy
input never queues a moderate one behind it. No more threads than that: CPU-bound threads
share one interpreter lock with the event loop, and the more of them wait for it the longer
the loop waits for its turn. :func:`~mtcompute.server.app.create_app` also shortens the
interpreter's switch interval to :data:`SWITCH_INTERVAL` while it serves, so that the loop
gets the lock back sooner from a Python-level computation.

Admission (:data:`ADMISSION`, one object, set by :func:`configure`): each worker thread has
at most ``max_queue`` requests waiting for it beside the one it computes, and the body worker
pool at most ``max_queue`` of each class beside those its processes compute
(:class:`FairQueue`: light ones first, heavy ones a client at a time, the client as the rate
limit keys it); one more is refused at once with ``503``
:class:`~mtcompute.errors.Overloaded` (and ``Retry-After``), before it is computed. Each
request has at most ``deadline`` seconds from its admission to be answered, queueing
included, and may compute for the time its cost gives it (:meth:`Admission.deadline_for`;
on a worker thread counted from admission): past either, the answer is ``504``
:class:`~mtcompute.errors.Timeout`. In the body worker the work is
stopped (its process is killed and replaced); a computation on a worker thread cannot be
stopped (pure Python in a thread), so its answer is dropped and it finishes in the background,
holding its worker meanwhile. A request cancelled while it waits (its client left: the route's
task is cancelled) is never computed; a body the worker process computes for a client that has
left is stopped (the process is killed and replaced).
"""

from __future__ import annotations

__all__ = [
    "ADMISSION",
    "DEFAULT_COMPUTE_WORKERS",
    "DEFAULT_DEADLINE",
    "DEFAULT_MAX_QUEUE",
    "INLINE_BODY_BYTES",
    "LANE_BUDGET",
    "OVERRUN",
    "READY_MAX_WAITING",
    "RETRY_AFTER",
    "SWITCH_INTERVAL",
    "Admission",
    "BodyWorker",
    "FairQueue",
    "NotReady",
    "configure",
    "execute_body",
    "execute_value",
    "fix_mmap_threshold",
    "in_body_worker",
    "readiness",
]

import asyncio
import contextlib
import logging
import sys
import threading
import time
from collections.abc import Awaitable, Callable
from functools import cache
from typing import TypeVar

import anyio
import anyio.to_thread
from starlette.types import Receive

from mtcompute._execute import INLINE_BUDGET, estimate, execute
from mtcompute.envelope import Envelope
from mtcompute.errors import MtcomputeError, Overloaded, Timeout
from mtcompute.server.admission import (
    ADMISSION,
    DEFAULT_DEADLINE,
    DEFAULT_MAX_QUEUE,
    INLINE_BODY_BYTES,
    OVERRUN,
    RETRY_AFTER,
    Admission,
    NotReady,
    configure,
)
from mtcompute.server.queueing import FairQueue, Ticket
from mtcompute.server.supervisor import DEFAULT_COMPUTE_WORKERS, READY_MAX_WAITING, BodyWorker
from mtcompute.tools._cost import RequestCost

T = TypeVar("T")

LANE_BUDGET = 10 * INLINE_BUDGET
"""Work units of the parsed inputs the moderate worker thread computes (about 10 ms); the
others, and the inputs of tools without an estimate, go to the heavy worker thread."""

SWITCH_INTERVAL = 0.001
"""Seconds: the interpreter's thread switch interval while serving (Python's default is 5 ms)."""


_LOG = logging.getLogger("mtcompute.server")

MMAP_THRESHOLD = 1 << 20
"""Bytes from which glibc's allocator maps each block on its own (returned to the system when
freed), fixed while serving: by default the threshold grows with each large block freed, up
to 32 MiB, and then request bodies of a few megabytes land in the heap, which keeps their
memory after they are freed (the chaos test saw the server grow by 97 MB)."""


def fix_mmap_threshold() -> None:
    """Fix glibc's mmap threshold at :data:`MMAP_THRESHOLD` (M_MMAP_THRESHOLD, which also
    stops it from growing); nothing on another C library."""
    if not sys.platform.startswith("linux"):
        return
    import ctypes  # noqa: PLC0415
    import ctypes.util  # noqa: PLC0415

    name = ctypes.util.find_library("c")
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(name)
        libc.mallopt(-3, MMAP_THRESHOLD)  # M_MMAP_THRESHOLD


@cache
def _lanes() -> tuple[anyio.CapacityLimiter, anyio.CapacityLimiter]:
    """(the moderate worker, the heavy worker): one thread each, per server process."""
    return anyio.CapacityLimiter(1), anyio.CapacityLimiter(1)


@cache
def _lane_locks() -> tuple[threading.Lock, threading.Lock]:
    """Held by the computation of each worker thread: a computation whose request has been
    answered already (past its deadline) keeps its worker until it ends."""
    return threading.Lock(), threading.Lock()


class _Ticket:
    """A worker thread's call: its lane's lock, and since when (``time.monotonic()``) its
    answer is no longer wanted (None while it is)."""

    __slots__ = ("abandoned", "lock")

    def __init__(self, lock: threading.Lock) -> None:
        self.lock = lock
        self.abandoned: float | None = None


def _execute_and_render(
    render: Callable[[Envelope], T], tool_id: str, version: str, value: object, ticket: _Ticket
) -> T | None:
    with ticket.lock:
        if ticket.abandoned is not None:  # its deadline passed or its client left meanwhile
            return None
        answer = render(execute(tool_id, version, value))
        abandoned = ticket.abandoned
        if abandoned is not None:  # a thread cannot be stopped: say how long it ran on
            OVERRUN.record(time.monotonic() - abandoned)
            _LOG.warning(
                "abandoned work on a worker thread (%s@%s) ran %.3f s past its client",
                tool_id,
                version,
                time.monotonic() - abandoned,
            )
        return answer


async def execute_value(
    tool_id: str,
    version: str,
    value: object,
    render: Callable[[Envelope], T],
    json_length: int | None = None,
    receive: Receive | None = None,
    cost: RequestCost | None = None,
) -> T | None:
    """``render`` of :func:`~mtcompute._execute.execute` of a parsed input: here when it is
    cheap (:data:`~mtcompute._execute.INLINE_BUDGET`), else on the moderate or the heavy
    worker. ``json_length``: the bytes of the JSON text ``value`` was read from, if any
    (a bound for the estimate, :func:`~mtcompute._execute.estimate`: with the inline budget
    as the cap it answers without walking the input when the bound is within it).

    Raises :class:`~mtcompute.errors.Overloaded` when the worker's queue is full, and
    :class:`~mtcompute.errors.Timeout` past the deadline (``cost``'s,
    :meth:`Admission.deadline_for`; the cap without it). With
    ``receive`` (an HTTP request's, its body read), None if the client disconnects first
    (:func:`until_disconnect`)."""
    units = estimate(tool_id, version, value, INLINE_BUDGET, json_length)
    if units is not None and units <= INLINE_BUDGET:
        return render(execute(tool_id, version, value))
    if units is not None:  # past the inline budget: the walk's estimate picks the lane
        units = estimate(tool_id, version, value, LANE_BUDGET)
    index = 0 if units is not None and units <= LANE_BUDGET else 1
    lane = _lanes()[index]
    if lane.available_tokens == 0 and lane.statistics().tasks_waiting >= ADMISSION.max_queue:
        name = ("moderate", "heavy")[index]
        raise Overloaded(f"{ADMISSION.max_queue} requests wait for the {name} worker", RETRY_AFTER)
    ticket = _Ticket(_lane_locks()[index])
    deadline = ADMISSION.deadline_for(cost)
    work = _on_lane(lane, ticket, render, tool_id, version, value, deadline)
    return await (work if receive is None else until_disconnect(receive, work))


async def _on_lane(
    lane: anyio.CapacityLimiter,
    ticket: _Ticket,
    render: Callable[[Envelope], T],
    tool_id: str,
    version: str,
    value: object,
    deadline: float,
) -> T:
    try:
        with anyio.fail_after(deadline):
            answer = await anyio.to_thread.run_sync(
                _execute_and_render,
                render,
                tool_id,
                version,
                value,
                ticket,
                limiter=lane,
                abandon_on_cancel=True,
            )
    except TimeoutError:
        ticket.abandoned = time.monotonic()
        raise Timeout(deadline) from None
    except BaseException:  # cancelled: the client left
        ticket.abandoned = time.monotonic()
        raise
    assert answer is not None  # not abandoned
    return answer


async def until_disconnect(receive: Receive, work: Awaitable[T]) -> T | None:
    """``work``'s result, or None when the HTTP client disconnects first (``receive``: the
    request's, its body read); then ``work`` is cancelled."""
    result: T | None = None
    refusal: MtcomputeError | None = None  # raised here, not in an exception group
    async with anyio.create_task_group() as group:

        async def compute() -> None:
            nonlocal result, refusal
            try:
                result = await work
            except MtcomputeError as exc:  # Overloaded, Timeout
                refusal = exc
            group.cancel_scope.cancel()  # stop watching

        async def watch() -> None:
            while (await receive())["type"] != "http.disconnect":
                pass
            group.cancel_scope.cancel()  # the client left: stop the work

        group.start_soon(compute)
        group.start_soon(watch)
    if refusal is not None:
        raise refusal
    return result


def in_body_worker(body: bytes, cost: RequestCost) -> bool:
    """Whether a request goes to the body worker process (:func:`execute_body`): its body is
    over :data:`INLINE_BODY_BYTES` (parsing it would hold the event loop), or its cost is
    ``heavy`` (computing it in a thread of the server would hold the loop, and could not be
    stopped); else it is parsed where it is and run by :func:`execute_value`."""
    return len(body) > INLINE_BODY_BYTES or cost.heavy


async def execute_body(
    worker: BodyWorker,
    tool_id: str,
    version: str,
    body: bytes,
    receive: Receive | None = None,
    client: str = "",
    cost: RequestCost | None = None,
) -> tuple[int, bytes] | None:
    """The (HTTP status, envelope bytes) of :func:`~mtcompute._execute.execute_json` of a
    request body (:func:`in_body_worker`): parsed, checked, computed and written by
    ``worker``'s process (``internal_error`` if it dies meanwhile, ``timeout`` past its
    deadline), taken in its class's turn and its client's (:class:`FairQueue`).
    :class:`~mtcompute.errors.Overloaded` when its queue is full; cancelled (the client left:
    ``receive`` says so, :func:`until_disconnect`), the body is dropped, or its computation
    stopped."""
    ticket = worker.submit(tool_id, version, body, client, cost)
    work = _answer_of(ticket)
    return await (work if receive is None else until_disconnect(receive, work))


async def _answer_of(ticket: Ticket) -> tuple[int, bytes]:
    try:
        return await asyncio.shield(asyncio.wrap_future(ticket))
    except asyncio.CancelledError:
        ticket.stop()
        raise


def readiness(worker: BodyWorker) -> str | None:
    """Why the server is not ready to take work (None when it is): no process of ``worker``
    can compute a body (:attr:`BodyWorker.problem`, naming each process's trouble), or more
    than :data:`READY_MAX_WAITING` requests wait for a worker (the body worker pool and the
    two worker threads together)."""
    problem = worker.problem
    if problem is not None:
        return problem
    waiting = worker.waiting + sum(lane.statistics().tasks_waiting for lane in _lanes())
    if waiting > READY_MAX_WAITING:
        return f"{waiting} requests are waiting for a worker, more than {READY_MAX_WAITING}"
    return None
