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

:class:`BodyWorker` is one process (spawned, so it shares nothing with the server but the
code): it parses, checks, computes and writes the JSON of every large body, the server sends
it the body's bytes and gets back the envelope's status and bytes. Parsing a few megabytes of
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
at most ``max_queue`` of each class (:class:`FairQueue`: light ones first, heavy ones a client
at a time, the client as the rate limit keys it); one more is refused at once with ``503``
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
import itertools
import logging
import os
import queue
import select
import subprocess
import sys
import threading
import time
import typing
from collections import deque
from collections.abc import Awaitable, Callable
from concurrent.futures import Future
from dataclasses import dataclass
from functools import cache
from typing import TypeVar

import anyio
import anyio.to_thread
from starlette.types import Receive

from mtcompute._execute import INLINE_BUDGET, estimate, execute
from mtcompute.envelope import Envelope
from mtcompute.errors import InternalError, MtcomputeError, Overloaded, Timeout
from mtcompute.server._body_worker import ANSWER, READY, REQUEST, read_exactly
from mtcompute.tools._cost import RequestCost, request_cost

T = TypeVar("T")

INLINE_BODY_BYTES = 4096
"""The largest request body parsed on the event loop (at most about a millisecond of parsing,
for 4 KiB of small numbers; no input of a larger body is within the budget of the tools whose
work grows with their input); every larger one is parsed, checked, computed and written by
the :class:`BodyWorker` process."""

LANE_BUDGET = 10 * INLINE_BUDGET
"""Work units of the parsed inputs the moderate worker thread computes (about 10 ms); the
others, and the inputs of tools without an estimate, go to the heavy worker thread."""

SWITCH_INTERVAL = 0.001
"""Seconds: the interpreter's thread switch interval while serving (Python's default is 5 ms)."""


READY_MAX_WAITING = 32
"""Requests waiting for a worker (the body worker's queue and the two worker threads')
beyond which the server reports itself not ready (``/readyz``), so that a load balancer sends
new requests elsewhere; they are still admitted."""

RESPAWN_BACKOFF = (0.25, 30.0)
"""Seconds before the first retry of a body worker process that failed to start, and the most
between two retries (the wait doubles after each failure)."""

WATCH_SECONDS = 1.0
"""How often the body worker's thread checks that its process is alive while idle."""

_LOG = logging.getLogger("mtcompute.server")

DEFAULT_MAX_QUEUE = 64
"""Requests that may wait for each worker (the body worker process, each worker thread)
beside the one it computes; ``mtcompute serve --max-queue``, ``MTCOMPUTE_MAX_QUEUE``."""

DEFAULT_DEADLINE = 60.0
"""Seconds a request has from its admission to its answer, waiting included; ``mtcompute
serve --deadline``, ``MTCOMPUTE_DEADLINE``."""

RETRY_AFTER = 2
"""The ``Retry-After`` seconds of an :class:`~mtcompute.errors.Overloaded` refusal."""

POLL_SECONDS = 0.05
"""How often the body worker's thread, waiting for its process's answer, checks whether the
client is still there."""


MIN_DEADLINE = 10.0
"""Seconds: the shortest deadline a request's cost gives it (a light request's), so that a
loaded machine does not time out what it would soon answer."""

DEADLINE_FACTOR = 4.0
"""A request's deadline is this many times its estimated CPU seconds (at least
:data:`MIN_DEADLINE`, at most the configured cap): room for a slower or busier machine."""


@dataclass(slots=True)
class Admission:
    """The limits every request is admitted under, one object for the whole server process
    (:data:`ADMISSION`, set by :func:`configure`; the worker threads and the body worker read
    it): ``max_queue`` requests may wait per cost class and worker, and ``deadline`` caps the
    seconds a request has, its own deadline coming from its cost (:meth:`deadline_for`)."""

    max_queue: int = DEFAULT_MAX_QUEUE
    deadline: float = DEFAULT_DEADLINE

    def deadline_for(self, cost: RequestCost | None) -> float:
        """Seconds a request of this cost may compute: :data:`DEADLINE_FACTOR` times its
        estimate, at least :data:`MIN_DEADLINE`, at most ``deadline`` (the cap; a request of
        unknown cost gets the cap). On a worker thread it counts from admission; in the body
        worker from the start of its computation, its wait and computation together being
        bounded by ``deadline`` (a heavy request queued behind others is not timed out for
        waiting its turn)."""
        if cost is None:
            return self.deadline
        return min(self.deadline, max(MIN_DEADLINE, DEADLINE_FACTOR * cost.seconds))


ADMISSION = Admission()
"""The limits of this server process's workers."""


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


def configure(max_queue: int, deadline: float) -> Admission:
    """Set this server process's :data:`ADMISSION` limits; the limits they replace."""
    replaced = Admission(ADMISSION.max_queue, ADMISSION.deadline)
    ADMISSION.max_queue, ADMISSION.deadline = max_queue, deadline
    return replaced


class NotReady(InternalError):
    """503: the server cannot take work now (its worker process is down and could not be
    restarted, or too many requests are waiting); the envelope's code is ``internal_error``."""

    http_status = 503
    summary = "the server cannot take work now; retry later"

    def __init__(self, reason: str) -> None:
        MtcomputeError.__init__(self, f"Not ready: {reason}.")


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


class BodyWorker:
    """One worker process (:mod:`mtcompute.server._body_worker`) for the request bodies over
    :data:`INLINE_BODY_BYTES` (:func:`execute_body`), and the thread of the server that talks
    to it, one body at a time in the order they came.

    Both start at :meth:`start` or at the first body. The thread supervises the process: a
    process that has died (killed, out of memory) is logged (``mtcompute.server`` logger:
    its pid and exit status, and the tool and body size it was computing, if any) and replaced
    at once when idle (checked every :data:`WATCH_SECONDS`), or before the next body; the body
    it was computing is answered ``internal_error``. A process that cannot be started (no
    memory, no process slots) is logged too and retried with a backoff
    (:data:`RESPAWN_BACKOFF`); meanwhile the bodies are answered 503 (:class:`NotReady`) and
    :attr:`problem` says why, which turns ``/readyz`` red (a worker that cannot start is a
    fault of the server, not load: ``internal_error``, unlike a full queue). :meth:`close`
    ends both (the process at the end of its input). ``answered`` counts the bodies the
    process has answered; ``spawn`` is how a process is started (``subprocess.Popen``'s
    signature).

    Admission: at most ``max_queue`` bodies wait beside the one computed, one more is refused
    :class:`~mtcompute.errors.Overloaded` by :meth:`submit`; a body not answered ``deadline``
    seconds after it was submitted is answered :class:`~mtcompute.errors.Timeout` (its
    process killed and replaced if it was computing it), and one whose :class:`Ticket` is
    stopped (its client left) is dropped the same way, unanswered (both default to
    :data:`DEFAULT_MAX_QUEUE`, :data:`DEFAULT_DEADLINE`).
    """

    def __init__(self, admission: Admission | None = None) -> None:
        self.admission = ADMISSION if admission is None else admission
        self._lock = threading.Lock()
        self._jobs = FairQueue()
        self._thread: threading.Thread | None = None
        self._process: subprocess.Popen[bytes] | None = None
        self._ready = False  # the process has said it imported the tools (READY)
        self._spawn_failure: str | None = None  # why the last start failed, while it does
        self._retry_at = 0.0  # monotonic time of the next start after a failure
        self._backoff = RESPAWN_BACKOFF[0]
        self.waiting = 0  # bodies submitted and not yet answered
        self.answered = 0
        self.spawn: Callable[..., subprocess.Popen[bytes]] = subprocess.Popen

    @property
    def max_queue(self) -> int:
        """Requests that may wait per cost class (:attr:`admission`)."""
        return self.admission.max_queue

    @property
    def deadline(self) -> float:
        """The cap of a request's deadline (:attr:`admission`)."""
        return self.admission.deadline

    @property
    def pid(self) -> int | None:
        """The worker process's id, while there is one."""
        process = self._process
        return None if process is None else process.pid

    @property
    def problem(self) -> str | None:
        """Why this worker cannot compute a body now (None when it can, or is not started):
        its process could not be started, is starting, or has died and is not replaced yet."""
        if self._spawn_failure is not None:
            return f"the body worker process could not be started ({self._spawn_failure})"
        if self._thread is None:
            return None  # started by the first body
        if not self._thread.is_alive():
            return "the body worker thread has stopped"
        process = self._process
        if process is None:
            return "the body worker process is starting"
        if process.poll() is not None:
            return "the body worker process has exited and is being replaced"
        if not self._ready:
            return "the body worker process is starting"
        return None

    def start(self) -> None:
        """Start the thread, and the process now rather than at the first body."""
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(
                    target=self._run, name="mtcompute body worker", daemon=True
                )
                self._thread.start()
        self._jobs.put_control(_WARM)

    def submit(
        self,
        tool_id: str,
        version: str,
        body: bytes,
        client: str = "",
        cost: RequestCost | None = None,
    ) -> Ticket:
        """The (HTTP status, envelope bytes) of ``execute_json(tool_id, version, body)``, as
        a :class:`Ticket` (a future). ``cost`` (:func:`~mtcompute.tools._cost.request_cost`
        of the body when not given) gives its class and deadline, ``client`` its turn among
        the heavy requests (:class:`FairQueue`). :class:`~mtcompute.errors.Overloaded` when
        it would wait and ``max_queue`` requests of its class wait already."""
        if self._thread is None:
            self.start()
        if cost is None:
            cost = request_cost(tool_id, body)
        limit = self.admission.max_queue
        with self._lock:
            if self.waiting > 0 and self._jobs.waiting(cost.heavy) >= limit:
                what = "heavy requests" if cost.heavy else "large request bodies"
                raise Overloaded(f"{limit} {what} wait for the body worker", RETRY_AFTER)
            self.waiting += 1
            cap = self.admission.deadline  # waiting and computing, in all
            ticket = Ticket(time.monotonic() + cap, cap, self.admission.deadline_for(cost))
            job = _Job(tool_id, version, body, ticket, client, cost, next(_REQUEST_IDS))
            self._jobs.put(job)
        ticket.on_stop = lambda: self._drop(job)  # a cycle, broken once the job is done
        return ticket

    def _drop(self, job: _Job) -> None:
        """Take a stopped job out of the queue if it still waits there (it no longer takes
        a place in its class's queue)."""
        job.future.on_stop = None
        if self._jobs.discard(job):
            with self._lock:
                self.waiting -= 1

    def close(self) -> None:
        """Answer the bodies already submitted, then end the thread and the process."""
        with self._lock:
            thread, self._thread = self._thread, None
        if thread is not None:
            self._jobs.put_control(None)
            thread.join()

    def _run(self) -> None:
        while True:
            try:
                job = self._jobs.get(timeout=self._idle_seconds())
            except queue.Empty:  # idle: is the process alive (or can it start now)?
                self._check_ready(self._running())
                continue
            if job is None:
                break
            job.future.on_stop = None  # no cycle keeps its body once it is answered
            if job is _WARM:
                self._check_ready(self._running())
            elif not job.future.stopped and job.future.set_running_or_notify_cancel():
                try:
                    answer = self._answer(job)
                finally:
                    with self._lock:
                        self.waiting -= 1
                job.future.set_result(answer)
            else:
                with self._lock:
                    self.waiting -= 1
        self._stop()

    def _idle_seconds(self) -> float:
        """How long to wait for a body before checking on the process."""
        if self._spawn_failure is not None:
            return max(0.0, self._retry_at - time.monotonic())
        if self._process is not None and not self._ready:
            return POLL_SECONDS  # starting: ready soon
        return WATCH_SECONDS

    def _check_ready(self, process: subprocess.Popen[bytes] | None) -> None:
        """Read the process's :data:`~mtcompute.server._body_worker.READY` byte if it has
        come (without waiting): it has imported the tools and can compute."""
        if process is None or self._ready:
            return
        answers = process.stdout
        assert answers is not None  # PIPE
        if select.select([answers], [], [], 0)[0]:
            self._ready = answers.read(1) == READY  # else it ended: replaced when seen

    def _running(self, job: _Job | None = None) -> subprocess.Popen[bytes] | None:
        """The live process, started anew when there is none or it has died; None when it
        cannot be started (then retried after the backoff, not before)."""
        process = self._process
        if process is not None and process.poll() is not None:
            _LOG.error(
                "body worker process %d exited with status %s; starting another",
                process.pid,
                process.returncode,
            )
            _close_pipes(process)
            process = self._process = None
        if process is None:
            if self._spawn_failure is not None and time.monotonic() < self._retry_at:
                return None
            self._ready = False
            try:
                process = self._process = self.spawn(
                    [sys.executable, "-P", "-m", "mtcompute.server._body_worker"],
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                )
            except OSError as exc:
                self._spawn_failure = f"{type(exc).__name__}: {exc}"[:200]
                self._retry_at = time.monotonic() + self._backoff
                _LOG.error(
                    "body worker process could not be started%s: %s; retrying in %g s",
                    "" if job is None else f" for {job.tool_id}@{job.version}",
                    self._spawn_failure,
                    self._backoff,
                )
                self._backoff = min(self._backoff * 2, RESPAWN_BACKOFF[1])
                return None
            if self._spawn_failure is not None:
                _LOG.warning("body worker process %d started after a failure", process.pid)
            self._spawn_failure = None
            self._backoff = RESPAWN_BACKOFF[0]
        return process

    def _answer(self, job: _Job) -> tuple[int, bytes]:
        if time.monotonic() >= job.future.deadline:  # expired while it waited
            return _timeout_answer(job.future.seconds)
        job.future.begin()  # its cost's time to compute starts now
        process = self._running(job)
        if process is None:
            refusal = Envelope.of_error(NotReady(str(self.problem)))
            return refusal.http_status, refusal.json_bytes()
        requests, answers = process.stdin, process.stdout
        assert requests is not None  # PIPE
        assert answers is not None  # PIPE
        tool, version = job.tool_id.encode("utf-8"), job.version.encode("utf-8")
        try:
            if not self._ready:  # started for this body: wait for it to import the tools
                cut = self._wait(answers, job)
                if cut is not None:
                    return self._stop_computing(process, job, cut)
                if answers.read(1) != READY:
                    raise OSError("the body worker process ended before it was ready")
                self._ready = True
            requests.write(REQUEST.pack(len(tool), len(version), len(job.body)))
            requests.write(tool + version)
            requests.write(job.body)
            requests.flush()
            cut = self._wait(answers, job)
            if cut is not None:
                return self._stop_computing(process, job, cut)
            head = read_exactly(answers, ANSWER.size)
            if head is not None:
                status, size = ANSWER.unpack(head)
                data = read_exactly(answers, size)
                if data is not None:
                    self.answered += 1
                    return status, data
        except OSError:  # the process died while it was sent the body
            pass
        process.kill()
        process.wait()
        _LOG.error(
            "body worker process %d died computing %s@%s (a %d-byte body, request %s), "
            "status %s; answered internal_error, starting another",
            process.pid,
            job.tool_id,
            job.version,
            len(job.body),
            job.request_id,
            process.returncode,
        )
        _close_pipes(process)
        self._process = None
        failure = Envelope.of_error(InternalError())
        return failure.http_status, failure.json_bytes()

    def _wait(self, answers: typing.IO[bytes], job: _Job) -> str | None:
        """Until the process's answer starts to arrive (None), its deadline passes
        (``"deadline"``) or its request is cancelled (``"client"``)."""
        ticket = job.future
        while True:
            left = ticket.deadline - time.monotonic()
            if left <= 0:
                return "deadline"
            if ticket.stopped:
                return "client"
            readable, _, _ = select.select([answers], [], [], min(left, POLL_SECONDS))
            if readable:
                return None

    def _stop_computing(
        self, process: subprocess.Popen[bytes], job: _Job, cut: str
    ) -> tuple[int, bytes]:
        """Kill the process computing ``job`` (it is replaced before the next body), for
        ``cut``: its deadline (answered :class:`~mtcompute.errors.Timeout`) or its request
        cancelled (the answer nobody reads)."""
        process.kill()
        process.wait()
        _close_pipes(process)
        self._process = None
        stopped_at = job.future.stopped_at
        if cut == "deadline" or stopped_at is None:
            why = "its deadline passed"
        else:
            overrun = time.monotonic() - stopped_at
            OVERRUN.record(overrun)
            why = (
                "its request was cancelled (its client left, or the server is stopping) "
                f"{overrun:.3f} s before"
            )
        _LOG.warning(
            "body worker process %d stopped computing %s@%s (a %d-byte body, request %s): %s; "
            "starting another",
            process.pid,
            job.tool_id,
            job.version,
            len(job.body),
            job.request_id,
            why,
        )
        return _timeout_answer(job.future.seconds)

    def _stop(self) -> None:
        process, self._process = self._process, None
        if process is None:
            return
        assert process.stdin is not None  # PIPE
        with contextlib.suppress(OSError):
            process.stdin.close()  # the end of its input: it returns
        try:
            process.wait(STOP_SECONDS)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        _close_pipes(process)


def readiness(worker: BodyWorker) -> str | None:
    """Why the server is not ready to take work (None when it is): ``worker`` cannot compute
    a body (:attr:`BodyWorker.problem`), or more than :data:`READY_MAX_WAITING` requests wait
    for a worker (the body worker and the two worker threads together)."""
    problem = worker.problem
    if problem is not None:
        return problem
    waiting = worker.waiting + sum(lane.statistics().tasks_waiting for lane in _lanes())
    if waiting > READY_MAX_WAITING:
        return f"{waiting} requests are waiting for a worker, more than {READY_MAX_WAITING}"
    return None


def _close_pipes(process: subprocess.Popen[bytes]) -> None:
    """Close the pipes to and from an ended process."""
    for pipe in (process.stdin, process.stdout):
        if pipe is not None:
            with contextlib.suppress(OSError):  # what was left unsent to a dead process
                pipe.close()


class Ticket(Future[tuple[int, bytes]]):
    """A body's answer to come (a future), with its deadline (``time.monotonic()``) and
    :meth:`stop`: its client has left, do not compute it or stop computing it."""

    def __init__(self, deadline: float, seconds: float = 0.0, compute: float | None = None) -> None:
        super().__init__()
        self.deadline = deadline
        self.seconds = seconds  # the deadline's length, for the timeout's message
        self.compute = compute  # seconds it may compute once started (None: to the deadline)
        self.stopped = False
        self.stopped_at: float | None = None
        self.on_stop: Callable[[], None] | None = None  # out of its queue

    def begin(self) -> None:
        """Its computation starts: from now it has ``compute`` seconds, if that ends before
        its deadline (which then becomes the earlier)."""
        if self.compute is not None and time.monotonic() + self.compute < self.deadline:
            self.deadline = time.monotonic() + self.compute
            self.seconds = self.compute

    def stop(self) -> None:
        """Drop the body: not computed if it waits (taken out of its queue), its process
        killed if it computes."""
        self.stopped_at = time.monotonic()
        self.stopped = True
        self.cancel()  # the waiting body is skipped at once
        if self.on_stop is not None:
            self.on_stop()


def _timeout_answer(deadline: float) -> tuple[int, bytes]:
    answer = Envelope.of_error(Timeout(deadline))
    return answer.http_status, answer.json_bytes()


_NO_COST = RequestCost(0.0)  # a control message's


@dataclass(frozen=True, slots=True, eq=False)  # compared by identity (FairQueue.discard)
class _Job:
    tool_id: str
    version: str
    body: bytes
    future: Ticket
    client: str = ""
    cost: RequestCost = _NO_COST
    request_id: str = ""


_WARM = _Job("", "", b"", Ticket(0.0))  # start the process (it imports the tools meanwhile)

_REQUEST_IDS = (f"{os.getpid():x}-{n}" for n in itertools.count(1))
"""Request ids of the body worker's jobs (the server's pid, a count), named in its logs."""


class FairQueue:
    """The body worker's jobs, in the order it takes them: control messages (start, end)
    first, then the light requests in arrival order, then the heavy ones a client at a time,
    round-robin (each client with heavy requests waiting takes one turn, the clients in the
    order their turn came), so that one client's many heavy requests do not starve another's.

    A light request never waits behind a heavy one that waits (it may wait for the one being
    computed); :meth:`waiting` counts each class, for admission."""

    def __init__(self) -> None:
        self._ready = threading.Condition()
        self._control: deque[_Job | None] = deque()
        self._light: deque[_Job] = deque()
        self._heavy: dict[str, deque[_Job]] = {}  # insertion order: the clients' turns
        self._heavy_count = 0

    def put_control(self, item: _Job | None) -> None:
        """Queue a control message: ``_WARM`` (start the process) or None (end)."""
        with self._ready:
            self._control.append(item)
            self._ready.notify()

    def put(self, job: _Job) -> None:
        """Queue a request by its class (``job.cost``) and client."""
        with self._ready:
            if job.cost.heavy:
                self._heavy.setdefault(job.client, deque()).append(job)
                self._heavy_count += 1
            else:
                self._light.append(job)
            self._ready.notify()

    def discard(self, job: _Job) -> bool:
        """Take ``job`` out if it waits here; whether it did."""
        with self._ready:
            if not job.cost.heavy:
                if job in self._light:
                    self._light.remove(job)
                    return True
                return False
            jobs = self._heavy.get(job.client)
            if jobs is None or job not in jobs:
                return False
            jobs.remove(job)
            if not jobs:
                del self._heavy[job.client]
            self._heavy_count -= 1
            return True

    def waiting(self, heavy: bool) -> int:
        """Requests of the class waiting."""
        return self._heavy_count if heavy else len(self._light)

    def get(self, timeout: float) -> _Job | None:
        """The next job; :class:`queue.Empty` after ``timeout`` seconds without one."""
        with self._ready:
            if not self._ready.wait_for(
                lambda: bool(self._control or self._light or self._heavy), timeout
            ):
                raise queue.Empty
            if self._control:
                return self._control.popleft()
            if self._light:
                return self._light.popleft()
            client = next(iter(self._heavy))
            jobs = self._heavy.pop(client)
            job = jobs.popleft()
            if jobs:
                self._heavy[client] = jobs  # its next turn after every other client's
            self._heavy_count -= 1
            return job


class Overrun:
    """The longest time abandoned work ran past its client (killed in the body worker,
    dropped on a worker thread), and how many times it happened: a debug counter the chaos
    test reads (``scripts/chaos.py``; the logs say the same per request)."""

    def __init__(self) -> None:
        self.count = 0
        self.longest = 0.0

    def record(self, seconds: float) -> None:
        """One piece of abandoned work ran ``seconds`` past its client."""
        self.count += 1
        self.longest = max(self.longest, seconds)


OVERRUN = Overrun()
"""This server process's :class:`Overrun`."""

STOP_SECONDS = 10
"""How long :meth:`BodyWorker.close` waits for the process to end after its input."""


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
