"""The body worker pool's queue: :class:`Ticket` (a body's answer to come, with its deadline),
the jobs, and :class:`FairQueue`, the order in which the pool's processes take them (light
work first, heavy work a client at a time, at most one process fewer than the pool on heavy
work). :mod:`mtcompute.server.supervisor` runs the processes that take them."""

from __future__ import annotations

__all__ = ["REQUEST_IDS", "FairQueue", "Job", "Ticket", "timeout_answer"]

import itertools
import os
import queue
import threading
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass

from mtcompute.envelope import Envelope
from mtcompute.errors import Timeout
from mtcompute.tools._cost import RequestCost


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


def timeout_answer(deadline: float) -> tuple[int, bytes]:
    answer = Envelope.of_error(Timeout(deadline))
    return answer.http_status, answer.json_bytes()


_NO_COST = RequestCost(0.0)  # a control message's


@dataclass(frozen=True, slots=True, eq=False)  # compared by identity (FairQueue.discard)
class Job:
    tool_id: str
    version: str
    body: bytes
    future: Ticket
    client: str = ""
    cost: RequestCost = _NO_COST
    request_id: str = ""


REQUEST_IDS = (f"{os.getpid():x}-{n}" for n in itertools.count(1))
"""Request ids of the body worker's jobs (the server's pid, a count), named in its logs."""


class FairQueue:
    """The body worker pool's jobs, in the order its processes take them: the end of a
    process's thread first (:meth:`end`), then the light requests in arrival order, then the
    heavy ones a client at a time, round-robin (each client with heavy requests waiting takes
    one turn, the clients in the order their turn came), so that one client's many heavy
    requests do not starve another's.

    At most ``heavy_slots`` heavy requests are taken at once (until :meth:`done`; None: no
    limit): with one slot fewer than the pool's processes, one process is always left for
    the light ones. A light request never waits behind a heavy one that waits, nor, in a pool
    of two processes or more, behind those computing; :meth:`waiting` counts each class and
    :meth:`free` the processes that would take one at once, for admission."""

    def __init__(self, heavy_slots: int | None = None) -> None:
        self.heavy_slots = heavy_slots
        self._ready = threading.Condition()
        self._ends = 0  # threads to end
        self._light: deque[Job] = deque()
        self._heavy: dict[str, deque[Job]] = {}  # insertion order: the clients' turns
        self._heavy_count = 0
        self.running = 0  # jobs taken and not done
        self.heavy_running = 0

    def end(self, count: int = 1) -> None:
        """End ``count`` of the threads that take jobs (each :meth:`get` returns None once)."""
        with self._ready:
            self._ends += count
            self._ready.notify_all()

    def put(self, job: Job) -> None:
        """Queue a request by its class (``job.cost``) and client."""
        with self._ready:
            if job.cost.heavy:
                self._heavy.setdefault(job.client, deque()).append(job)
                self._heavy_count += 1
            else:
                self._light.append(job)
            self._ready.notify_all()  # some threads may not take it (a slot, a failed start)

    def discard(self, job: Job) -> bool:
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

    def free(self, heavy: bool, processes: int) -> int:
        """How many requests of the class ``processes`` processes would take at once: those
        not computing, and for heavy ones no more than the heavy slots left."""
        idle = max(0, processes - self.running)
        if not heavy or self.heavy_slots is None:
            return idle
        return min(idle, max(0, self.heavy_slots - self.heavy_running))

    def _heavy_open(self) -> bool:
        return self.heavy_slots is None or self.heavy_running < self.heavy_slots

    def get(
        self, timeout: float, takes: Callable[[], tuple[bool, bool]] | None = None
    ) -> Job | None:
        """The next job (counted as running until :meth:`done`), or None: end the thread;
        :class:`queue.Empty` after ``timeout`` seconds without one. ``takes`` says, each
        time the queue changes (the pool's processes with it), whether the caller takes a
        light job and a heavy one now (both when not given)."""
        light = heavy = True

        def ready() -> bool:
            nonlocal light, heavy
            if self._ends:
                return True
            if takes is not None and (self._light or self._heavy):
                light, heavy = takes()
            return bool((light and self._light) or (heavy and self._heavy and self._heavy_open()))

        with self._ready:
            if not self._ready.wait_for(ready, timeout):
                raise queue.Empty
            if self._ends:
                self._ends -= 1
                return None
            self.running += 1
            if light and self._light:
                return self._light.popleft()
            client = next(iter(self._heavy))
            jobs = self._heavy.pop(client)
            job = jobs.popleft()
            if jobs:
                self._heavy[client] = jobs  # its next turn after every other client's
            self._heavy_count -= 1
            self.heavy_running += 1
            return job

    def done(self, job: Job) -> None:
        """A job :meth:`get` gave is answered: its process (and its heavy slot) is free."""
        with self._ready:
            self.running -= 1
            if job.cost.heavy:
                self.heavy_running -= 1
            self._ready.notify_all()
