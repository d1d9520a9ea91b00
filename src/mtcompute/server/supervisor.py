"""The body worker's server side: :class:`BodyWorker` starts the worker process
(:mod:`mtcompute.server._body_worker`), feeds it request bodies from its :class:`FairQueue`
(light work first, heavy work a client at a time), answers each :class:`Ticket`, stops work
whose client left or whose deadline passed, and restarts the process with backoff when it
dies; :func:`readiness` tells ``/readyz``. :mod:`mtcompute.server.executor` sends it the
requests."""

from __future__ import annotations

__all__ = [
    "POLL_SECONDS",
    "READY_MAX_WAITING",
    "RESPAWN_BACKOFF",
    "STOP_SECONDS",
    "WATCH_SECONDS",
    "BodyWorker",
    "FairQueue",
    "Ticket",
]

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
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass

from mtcompute.envelope import Envelope
from mtcompute.errors import InternalError, Overloaded, Timeout
from mtcompute.server._body_worker import ANSWER, READY, REQUEST, read_exactly
from mtcompute.server.admission import (
    ADMISSION,
    OVERRUN,
    RETRY_AFTER,
    Admission,
    NotReady,
)
from mtcompute.tools._cost import RequestCost, request_cost

_LOG = logging.getLogger("mtcompute.server")

READY_MAX_WAITING = 32
"""Requests waiting for a worker (the body worker's queue and the two worker threads')
beyond which the server reports itself not ready (``/readyz``), so that a load balancer sends
new requests elsewhere; they are still admitted."""

RESPAWN_BACKOFF = (0.25, 30.0)
"""Seconds before the first retry of a body worker process that failed to start, and the most
between two retries (the wait doubles after each failure)."""

WATCH_SECONDS = 1.0
"""How often the body worker's thread checks that its process is alive while idle."""


STOP_SECONDS = 10
"""How long :meth:`BodyWorker.close` waits for the process to end after its input."""


POLL_SECONDS = 0.05
"""How often the body worker's thread, waiting for its process's answer, checks whether the
client is still there."""


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
