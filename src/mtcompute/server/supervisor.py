"""The body worker pool's server side: :class:`BodyWorker` starts its worker processes
(:mod:`mtcompute.server._body_worker`, :data:`DEFAULT_COMPUTE_WORKERS` of them unless told),
feeds them request bodies from its one :class:`FairQueue` (light work first, heavy work a
client at a time, and at most one process fewer than the pool on heavy work, so that light
work never waits behind it), answers each :class:`Ticket`, stops work whose client left or
whose deadline passed (killing and replacing only the process computing it), and restarts
each process with backoff when it dies; :func:`~mtcompute.server.executor.readiness` tells
``/readyz``. :mod:`mtcompute.server.executor` sends it the requests."""

from __future__ import annotations

__all__ = [
    "DEFAULT_COMPUTE_WORKERS",
    "POLL_SECONDS",
    "READY_MAX_WAITING",
    "RESPAWN_BACKOFF",
    "STOP_SECONDS",
    "WATCH_SECONDS",
    "BodyWorker",
]

import contextlib
import logging
import queue
import select
import subprocess
import sys
import threading
import time
import typing
from collections.abc import Callable

from mtcompute.envelope import Envelope
from mtcompute.errors import InternalError, Overloaded
from mtcompute.server._body_worker import ANSWER, READY, REQUEST, read_exactly
from mtcompute.server.admission import (
    ADMISSION,
    OVERRUN,
    RETRY_AFTER,
    Admission,
    NotReady,
)
from mtcompute.server.queueing import REQUEST_IDS, FairQueue, Job, Ticket, timeout_answer
from mtcompute.tools._cost import RequestCost, request_cost

_LOG = logging.getLogger("mtcompute.server")

DEFAULT_COMPUTE_WORKERS = 2
"""Body worker processes per server process (``mtcompute serve --compute-workers``,
``MTCOMPUTE_COMPUTE_WORKERS``): one for the heavy requests and one always left for the light
ones (at most N-1 processes compute heavy requests at once), whatever the CPU count: on one
core the two share it and a light body still starts at once instead of after a heavy one of
many seconds; more processes compute more heavy requests at once, each costing its memory."""

READY_MAX_WAITING = 32
"""Requests waiting for a worker (the body worker pool's queue and the two worker threads')
beyond which the server reports itself not ready (``/readyz``), so that a load balancer sends
new requests elsewhere; they are still admitted."""

RESPAWN_BACKOFF = (0.25, 30.0)
"""Seconds before the first retry of a body worker process that failed to start, and the most
between two retries (the wait doubles after each failure)."""

WATCH_SECONDS = 1.0
"""How often each body worker thread checks that its process is alive while idle."""


STOP_SECONDS = 10
"""How long :meth:`BodyWorker.close` waits for each process to end after its input."""


POLL_SECONDS = 0.05
"""How often a body worker thread, waiting for its process's answer, checks whether the
client is still there."""


class BodyWorker:
    """The pool of body worker processes (:mod:`mtcompute.server._body_worker`) for the
    request bodies :func:`~mtcompute.server.executor.in_body_worker` sends them
    (:func:`~mtcompute.server.executor.execute_body`): ``processes`` of them (default
    :data:`DEFAULT_COMPUTE_WORKERS`), each with a thread of the server that talks to it, one
    body at a time, all taking their bodies from the one :class:`FairQueue` under the one
    :class:`~mtcompute.server.admission.Admission`.

    Light work never waits behind heavy work when there are two processes or more: at most
    ``processes - 1`` of them compute heavy requests at once (the queue's heavy slots), so
    one is always there for the light ones (one process computes both, light first).

    Each thread supervises its process: a process that has died (killed, out of memory) is
    logged (``mtcompute.server`` logger: its pid and exit status, which worker of the pool,
    and the tool, body size and request id it was computing, if any) and replaced at once
    when idle (checked every :data:`WATCH_SECONDS`), or before the next body; the body it was
    computing is answered ``internal_error``. A process that cannot be started (no memory, no
    process slots) is logged too and retried with a backoff (:data:`RESPAWN_BACKOFF`);
    meanwhile it leaves the bodies to the processes that can compute, and when none can they
    are answered 503 (:class:`NotReady`) and :attr:`problem` says why and which process,
    which turns ``/readyz`` red (a worker that cannot start is a fault of the server, not
    load: ``internal_error``, unlike a full queue). :attr:`problems` says it per process.
    :meth:`close` ends the threads and the processes (each at the end of its input).
    ``answered`` counts the bodies the processes have answered; ``spawn`` is how a process is
    started (``subprocess.Popen``'s signature), for all of them.

    Admission: at most ``max_queue`` bodies of each class wait beside those computed (the
    bodies a free process takes at once do not wait), one more is refused
    :class:`~mtcompute.errors.Overloaded` by :meth:`submit`; a body not answered
    ``deadline`` seconds after it was submitted is answered :class:`~mtcompute.errors.Timeout`
    (its process killed and replaced if it was computing it: only that process), and one
    whose :class:`Ticket` is stopped (its client left) is dropped the same way, unanswered
    (both default to :data:`DEFAULT_MAX_QUEUE`, :data:`DEFAULT_DEADLINE`).
    """

    def __init__(
        self, admission: Admission | None = None, processes: int = DEFAULT_COMPUTE_WORKERS
    ) -> None:
        if processes < 1:
            raise ValueError(f"a body worker pool needs at least 1 process, not {processes}")
        self.admission = ADMISSION if admission is None else admission
        self.size = processes
        self._lock = threading.Lock()
        self._jobs = FairQueue(heavy_slots=max(1, processes - 1))
        self._processes = [_Process(self, number) for number in range(1, processes + 1)]
        self._started = False
        self.waiting = 0  # bodies submitted and not yet answered
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
    def answered(self) -> int:
        """Bodies the processes have answered."""
        return sum(process.answered for process in self._processes)

    @property
    def pid(self) -> int | None:
        """The first worker process's id, while there is one (the only one in a pool of 1)."""
        return self._processes[0].pid

    @property
    def pids(self) -> list[int | None]:
        """Each worker process's id (None while it has none), in the pool's order."""
        return [process.pid for process in self._processes]

    @property
    def computing(self) -> list[str | None]:
        """The request id each worker process computes (None when idle), in the pool's
        order."""
        return [None if p.job is None else p.job.request_id for p in self._processes]

    @property
    def problems(self) -> list[str | None]:
        """Why each worker process cannot compute a body now (None when it can, or when
        the pool is not started), in the pool's order."""
        return [process.problem for process in self._processes]

    @property
    def problem(self) -> str | None:
        """Why the pool cannot compute a body now: no process can (None when one can, or
        the pool is not started), naming each process's trouble."""
        problems = self.problems
        if any(problem is None for problem in problems):
            return None
        if self.size == 1:
            return problems[0]
        each = "; ".join(
            f"process {number} of {self.size}: {problem}"
            for number, problem in enumerate(problems, 1)
        )
        return f"no body worker process can compute ({each})"

    def start(self) -> None:
        """Start the threads, and the processes now rather than at the first body."""
        with self._lock:
            if self._started:
                return
            self._started = True
            for process in self._processes:
                process.start()

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
        no process would take it at once and ``max_queue`` requests of its class wait
        already."""
        self.start()
        if cost is None:
            cost = request_cost(tool_id, body)
        limit = self.admission.max_queue
        with self._lock:
            if self._jobs.waiting(cost.heavy) >= limit + self._jobs.free(cost.heavy, self.size):
                what = "heavy requests" if cost.heavy else "large request bodies"
                raise Overloaded(f"{limit} {what} wait for the body worker", RETRY_AFTER)
            self.waiting += 1
            cap = self.admission.deadline  # waiting and computing, in all
            ticket = Ticket(time.monotonic() + cap, cap, self.admission.deadline_for(cost))
            job = Job(tool_id, version, body, ticket, client, cost, next(REQUEST_IDS))
            self._jobs.put(job)
        ticket.on_stop = lambda: self._drop(job)  # a cycle, broken once the job is done
        return ticket

    def _drop(self, job: Job) -> None:
        """Take a stopped job out of the queue if it still waits there (it no longer takes
        a place in its class's queue)."""
        job.future.on_stop = None
        if self._jobs.discard(job):
            with self._lock:
                self.waiting -= 1

    def _finished(self, job: Job) -> None:
        """A job taken from the queue is answered (or dropped): its process is free."""
        with self._lock:
            self.waiting -= 1
        self._jobs.done(job)

    def _another(self, asking: _Process, ready: bool, light: bool) -> bool:
        """Whether a process of the pool other than ``asking`` can compute a body now
        (``ready``) or is starting (not ``ready``: it has no start failure), and, with
        ``light``, computes no heavy body (it is free, or soon)."""
        return any(
            p is not asking
            and (p.problem is None if ready else p.problem is not None and p.starting)
            and not (light and p.job is not None and p.job.cost.heavy)
            for p in self._processes
        )

    def close(self) -> None:
        """End the threads and the processes (a body still waiting stays queued for the
        next :meth:`start`)."""
        with self._lock:
            threads = [p.thread for p in self._processes if p.thread is not None]
            for process in self._processes:
                process.thread = None
            self._started = False
        self._jobs.end(len(threads))
        for thread in threads:
            thread.join()


class _Process:
    """One process of a :class:`BodyWorker` pool and the thread of the server that feeds it
    (number ``number`` of the pool, as the logs and ``/readyz`` name it)."""

    def __init__(self, pool: BodyWorker, number: int) -> None:
        self.pool = pool
        self.number = number
        self.thread: threading.Thread | None = None
        self._process: subprocess.Popen[bytes] | None = None
        self._ready = False  # the process has said it imported the tools (READY)
        self._spawn_failure: str | None = None  # why the last start failed, while it does
        self._retry_at = 0.0  # monotonic time of the next start after a failure
        self._backoff = RESPAWN_BACKOFF[0]
        self.answered = 0
        self.job: Job | None = None  # the body it computes

    @property
    def name(self) -> str:
        """Which process of the pool, for the logs: ``worker 1 of 2``."""
        return f"worker {self.number} of {self.pool.size}"

    @property
    def pid(self) -> int | None:
        """The worker process's id, while there is one."""
        process = self._process
        return None if process is None else process.pid

    @property
    def starting(self) -> bool:
        """Whether its thread runs (alive) and its process has not failed to start."""
        thread = self.thread
        return self._spawn_failure is None and thread is not None and thread.is_alive()

    @property
    def problem(self) -> str | None:
        """Why this process cannot compute a body now (None when it can, or is not started):
        it could not be started, is starting, or has died and is not replaced yet."""
        if self._spawn_failure is not None:
            return f"the body worker process could not be started ({self._spawn_failure})"
        thread = self.thread
        if thread is None:
            return None  # started by the first body
        if not thread.is_alive():
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
        """Start the thread (which starts the process at once); the pool's lock is held."""
        self.thread = threading.Thread(
            target=self._run, name=f"mtcompute body {self.name}", daemon=True
        )
        self.thread.start()

    def _run(self) -> None:
        jobs = self.pool._jobs
        self._watch()  # the process imports the tools meanwhile
        while True:
            try:
                job = jobs.get(self._idle_seconds(), self._takes)
            except queue.Empty:  # idle: is the process alive (or can it start now)?
                self._watch()
                continue
            if job is None:
                break
            job.future.on_stop = None  # no cycle keeps its body once it is answered
            answer = None
            try:
                if not job.future.stopped and job.future.set_running_or_notify_cancel():
                    self.job = job
                    answer = self._answer(job)
            finally:
                self.job = None
                self.pool._finished(job)
            if answer is not None:
                job.future.set_result(answer)
            if self._process is None:  # killed (its body stopped, or died): replaced now
                self._watch()
        self._stop()

    def _watch(self) -> None:
        """Check on the process (start it anew if it has died, note when it is ready); a
        failure of the check itself is logged and its process replaced, so that the thread
        never dies and leaves its share of the bodies unanswered."""
        try:
            self._check_ready(self._running())
        except Exception:
            _LOG.exception("body worker thread (%s) failed checking its process", self.name)
            self._discard()
            time.sleep(POLL_SECONDS)  # not a busy loop should the failure repeat

    def _takes(self) -> tuple[bool, bool]:
        """Whether this thread takes a light body now, and a heavy one: a process that cannot
        start leaves both to those that can compute; one starting leaves the light ones to
        a process that is ready and computes no heavy body (their answer waits for a light
        body's milliseconds, not for the tools' import), and one that is ready leaves the
        heavy ones to a process starting that computes no heavy body (which would else take
        the light ones after its import)."""
        pool = self.pool
        if self._spawn_failure is not None:
            others = pool._another(self, ready=True, light=False)
            return not others, not others
        if self.problem is not None:  # starting
            return not pool._another(self, ready=True, light=True), True
        return True, not pool._another(self, ready=False, light=True)

    def _idle_seconds(self) -> float:
        """How long to wait for a body before checking on the process."""
        if self._spawn_failure is not None:
            return min(WATCH_SECONDS, max(0.0, self._retry_at - time.monotonic()))
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
        if _readable(answers, 0):
            self._ready = answers.read(1) == READY  # else it ended: replaced when seen

    def _running(self, job: Job | None = None) -> subprocess.Popen[bytes] | None:
        """The live process, started anew when there is none or it has died; None when it
        cannot be started (then retried after the backoff, not before)."""
        process = self._process
        if process is not None and process.poll() is not None:
            _LOG.error(
                "body worker process %d exited with status %s (%s); starting another",
                process.pid,
                process.returncode,
                self.name,
            )
            _close_pipes(process)
            process = self._process = None
        if process is None:
            if self._spawn_failure is not None and time.monotonic() < self._retry_at:
                return None
            self._ready = False
            try:
                process = self._process = self.pool.spawn(
                    [sys.executable, "-P", "-m", "mtcompute.server._body_worker"],
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                )
            except OSError as exc:
                self._spawn_failure = f"{type(exc).__name__}: {exc}"[:200]
                self._retry_at = time.monotonic() + self._backoff
                _LOG.error(
                    "body worker process (%s) could not be started%s: %s; retrying in %g s",
                    self.name,
                    "" if job is None else f" for {job.tool_id}@{job.version}",
                    self._spawn_failure,
                    self._backoff,
                )
                self._backoff = min(self._backoff * 2, RESPAWN_BACKOFF[1])
                return None
            if self._spawn_failure is not None:
                _LOG.warning(
                    "body worker process %d (%s) started after a failure", process.pid, self.name
                )
            self._spawn_failure = None
            self._backoff = RESPAWN_BACKOFF[0]
        return process

    def _answer(self, job: Job) -> tuple[int, bytes]:
        """The answer to ``job``; any failure of this thread computing it (not the
        process's: those are answered in :meth:`_compute`) is logged and answered
        ``internal_error``, and the process is replaced, its state unknown."""
        try:
            return self._compute(job)
        except Exception:
            _LOG.exception(
                "body worker thread (%s) failed sending %s@%s (a %d-byte body, request %s) "
                "to its process; answered internal_error, starting another",
                self.name,
                ascii(job.tool_id),
                ascii(job.version),
                len(job.body),
                job.request_id,
            )
            self._discard()
            failure = Envelope.of_error(InternalError())
            return failure.http_status, failure.json_bytes()

    def _discard(self) -> None:
        """Kill the process, if any (it is replaced before the next body)."""
        process, self._process = self._process, None
        self._ready = False
        if process is not None:
            process.kill()
            process.wait()
            _close_pipes(process)

    def _compute(self, job: Job) -> tuple[int, bytes]:
        if time.monotonic() >= job.future.deadline:  # expired while it waited
            return timeout_answer(job.future.seconds)
        job.future.begin()  # its cost's time to compute starts now
        process = self._running(job)
        if process is None:
            refusal = Envelope.of_error(NotReady(str(self.pool.problem or self.problem)))
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
        self._discard()
        self._log_death(process, job, "; answered internal_error, starting another")
        failure = Envelope.of_error(InternalError())
        return failure.http_status, failure.json_bytes()

    def _wait(self, answers: typing.IO[bytes], job: Job) -> str | None:
        """Until the process's answer starts to arrive (None), its deadline passes
        (``"deadline"``) or its request is cancelled (``"client"``)."""
        ticket = job.future
        wait = 0.0  # first: an answer, or the end of a process that died, before the rest
        while not _readable(answers, wait):
            left = ticket.deadline - time.monotonic()
            if left <= 0:
                return "deadline"
            if ticket.stopped:
                return "client"
            wait = min(left, POLL_SECONDS)
        return None

    def _stop_computing(
        self, process: subprocess.Popen[bytes], job: Job, cut: str
    ) -> tuple[int, bytes]:
        """Kill the process computing ``job`` (it is replaced before the next body), for
        ``cut``: its deadline (answered :class:`~mtcompute.errors.Timeout`) or its request
        cancelled (the answer nobody reads). A process found dead here died by itself
        meanwhile: logged as a death."""
        status = process.poll()
        self._discard()
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
        if status is not None:
            self._log_death(process, job, f", as {why}; starting another")
        else:
            _LOG.warning(
                "body worker process %d (%s) stopped computing %s@%s (a %d-byte body, "
                "request %s): %s; starting another",
                process.pid,
                self.name,
                job.tool_id,
                job.version,
                len(job.body),
                job.request_id,
                why,
            )
        return timeout_answer(job.future.seconds)

    def _log_death(self, process: subprocess.Popen[bytes], job: Job, after: str) -> None:
        """Log that ``process`` (ended, waited for) died computing ``job``; ``after`` ends
        the line (what was answered, what comes next)."""
        _LOG.error(
            "body worker process %d died computing %s@%s (a %d-byte body, request %s, %s), "
            "status %s%s",
            process.pid,
            job.tool_id,
            job.version,
            len(job.body),
            job.request_id,
            self.name,
            process.returncode,
            after,
        )

    def _stop(self) -> None:
        process, self._process = self._process, None
        self._ready = False
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


def _readable(pipe: typing.IO[bytes], seconds: float) -> bool:
    """Whether ``pipe`` has bytes to read or has ended, waiting up to ``seconds``: poll, not
    select, which refuses descriptors over 1023 (a server holding a thousand connections
    gives a new process's pipes such numbers)."""
    poller = select.poll()
    poller.register(pipe, select.POLLIN)
    return bool(poller.poll(seconds * 1000))


def _close_pipes(process: subprocess.Popen[bytes]) -> None:
    """Close the pipes to and from an ended process."""
    for pipe in (process.stdin, process.stdout):
        if pipe is not None:
            with contextlib.suppress(OSError):  # what was left unsent to a dead process
                pipe.close()
