"""What the server admits, and under which limits: one :class:`Admission` for the whole
process (:data:`ADMISSION`, set by :func:`configure`; the worker threads and the body worker
read it), the refusal when the server cannot take work (:class:`NotReady`), and the counter of
abandoned work (:data:`OVERRUN`). :mod:`mtcompute.server.executor` tells where each request
runs."""

from __future__ import annotations

__all__ = [
    "ADMISSION",
    "DEADLINE_FACTOR",
    "DEFAULT_DEADLINE",
    "DEFAULT_MAX_QUEUE",
    "INLINE_BODY_BYTES",
    "MIN_DEADLINE",
    "OVERRUN",
    "RETRY_AFTER",
    "Admission",
    "NotReady",
    "Overrun",
    "configure",
]

from dataclasses import dataclass

from mtcompute.errors import InternalError, MtcomputeError
from mtcompute.tools._cost import RequestCost

INLINE_BODY_BYTES = 4096
"""The largest request body parsed on the event loop (at most about a millisecond of parsing,
for 4 KiB of small numbers; no input of a larger body is within the budget of the tools whose
work grows with their input); every larger one is parsed, checked, computed and written by
a process of the :class:`BodyWorker` pool."""


DEFAULT_MAX_QUEUE = 64
"""Requests that may wait for each worker (the body worker pool, each worker thread)
beside the one it computes; ``mtcompute serve --max-queue``, ``MTCOMPUTE_MAX_QUEUE``."""

DEFAULT_DEADLINE = 60.0
"""Seconds a request has from its admission to its answer, waiting included; ``mtcompute
serve --deadline``, ``MTCOMPUTE_DEADLINE``."""

RETRY_AFTER = 2
"""The ``Retry-After`` seconds of an :class:`~mtcompute.errors.Overloaded` refusal."""


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
