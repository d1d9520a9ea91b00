"""What every metric's counting at scale shares: the thread count (:func:`thread_count`,
:func:`threads_in_context`), work split over threads (:func:`map_spans`), and the raw-text
checks (:func:`plain_texts`, :func:`first_lone_surrogate`, ``_check_texts``), made by the C
kernel (:mod:`mtcompute.native`) in one call on its path.

The statistics themselves are each metric's: :mod:`mtcompute.metrics.bleu.counts`,
:mod:`mtcompute.metrics.chrf.statistics`, :mod:`mtcompute.metrics.chrf.sacrebleu_statistics`
and :mod:`mtcompute.metrics.ter.statistics`.

The kernel is used when it was built and ``MTCOMPUTE_PURE`` is not ``1`` at import
(:mod:`mtcompute.native`). Batch functions split their segments over ``threads``
threads of a :class:`concurrent.futures.ThreadPoolExecutor` (the kernel releases the GIL
while counting); ``threads=None`` means ``MTCOMPUTE_THREADS`` if set, else
:func:`os.cpu_count`. Results never depend on the thread count.
"""

from __future__ import annotations

__all__ = [
    "first_lone_surrogate",
    "map_spans",
    "plain_texts",
    "thread_count",
    "threads_beside",
    "threads_in_context",
]

import os
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TypeVar

from mtcompute.core.text import first_lone_surrogate as _first_surrogate_py
from mtcompute.native import ext as _ext
from mtcompute.native import kernel_test, twin

T = TypeVar("T")
U = TypeVar("U")
Counts = tuple[int, ...]

# Segments per thread below which another thread costs more than it saves.
MIN_SEGMENTS_PER_THREAD = 256


# The thread count of threads_in_context: a context variable, so one thread's setting is
# its own (a new thread starts in a context of its own, without it).
_CONTEXT_THREADS: ContextVar[int | None] = ContextVar("mtcompute_threads", default=None)


def thread_count(threads: int | None = None) -> int:
    """``threads`` if given, else the count of the enclosing :func:`threads_in_context`
    block, else ``MTCOMPUTE_THREADS`` if it is a positive integer, else the number of CPUs.

    >>> thread_count(3)
    3
    """
    if threads is None:
        threads = _default_threads()
    if isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
        raise ValueError(f"threads must be a positive int or None, got {threads!r}")
    return threads


def _default_threads() -> int:
    """What ``threads=None`` means here: the enclosing :func:`threads_in_context` block's
    count, else ``MTCOMPUTE_THREADS`` if it is a positive integer, else the number of CPUs."""
    threads = _CONTEXT_THREADS.get()
    if threads is None:
        env = os.environ.get("MTCOMPUTE_THREADS", "").strip()
        threads = int(env) if env.isdigit() and int(env) > 0 else (os.cpu_count() or 1)
    return threads


@contextmanager
def threads_beside(busy: int) -> Iterator[None]:
    """Within the block, ``threads=None`` means ``busy`` threads fewer than it did (at least
    one) for the calling thread's calls: for counting beside ``busy`` CPUs taken by other
    work (a child process parsing), one thread on two CPUs, seven on eight.

    >>> with threads_in_context(4), threads_beside(1):
    ...     thread_count()
    3
    """
    with threads_in_context(max(1, _default_threads() - busy)):
        yield


@contextmanager
def threads_in_context(threads: int) -> Iterator[None]:
    """Within the block, ``threads=None`` means ``threads`` for the calling thread's calls
    (other threads keep theirs): for code that runs whole chunks on threads of its own and
    wants each call on one.

    >>> with threads_in_context(1):
    ...     thread_count()
    1
    """
    token = _CONTEXT_THREADS.set(thread_count(threads))
    try:
        yield
    finally:
        _CONTEXT_THREADS.reset(token)


def _spans(n: int, parts: int) -> list[tuple[int, int]]:
    """``parts`` contiguous ranges covering ``range(n)``, sizes differing by at most one."""
    size, extra = divmod(n, parts)
    spans: list[tuple[int, int]] = []
    start = 0
    for p in range(parts):
        stop = start + size + (1 if p < extra else 0)
        spans.append((start, stop))
        start = stop
    return spans


def map_spans(
    work: Callable[[int, int], T], n: int, threads: int | None, minimum: int
) -> list[tuple[int, T]]:
    """``work(start, stop)`` over contiguous spans of ``range(n)``, on up to ``threads``
    threads; (start, result) pairs in span order. The first span runs in the calling thread;
    every thread is waited for, then the error of the first span that failed is raised."""
    if threads is None and n < 2 * minimum:  # one span whatever MTCOMPUTE_THREADS says
        return [(0, work(0, n))]
    parts = max(1, min(thread_count(threads), n // minimum))
    spans = _spans(n, parts)
    if parts == 1:
        return [(0, work(0, n))]
    from concurrent.futures import ThreadPoolExecutor  # noqa: PLC0415  # only when work is split

    with ThreadPoolExecutor(max_workers=parts - 1) as pool:
        futures = [pool.submit(work, start, stop) for start, stop in spans[1:]]
        first = work(*spans[0])
        rest = [future.result() for future in futures]
    return list(zip((start for start, _ in spans), [first, *rest], strict=True))


def _int64s(buffer: bytes | None) -> list[int]:
    return memoryview(buffer or b"").cast("q").tolist()


# --- raw-text checks ---------------------------------------------------------------------


@kernel_test
def plain_texts(hypotheses: object, references: object) -> bool:
    """Whether the kernel runs and finds ``hypotheses`` a non-empty list of exact str
    and ``references`` a list of as many lists of one or more exact str each, none of the texts
    with a lone surrogate: input every check of the raw-text functions passes (they run
    their checks one by one otherwise, to find and report the fault).

    >>> from mtcompute.native import kernel_in_use
    >>> plain_texts(["a"], [["b"]]) == kernel_in_use(), plain_texts(["a"], [[]])
    (True, False)
    """
    return _ext.plain_texts(hypotheses, references)


def _pure_first_lone_surrogate(texts: Sequence[str]) -> tuple[int, int] | None:
    """:func:`first_lone_surrogate` in Python."""
    for i, text in enumerate(texts):
        at = _first_surrogate_py(text)
        if at >= 0:
            return i, at
    return None


@twin(_pure_first_lone_surrogate)
def first_lone_surrogate(texts: Sequence[str]) -> tuple[int, int] | None:
    """(index of the first text holding a lone surrogate, its position in it), or ``None``."""
    return _ext.first_lone_surrogate(texts)


# --- texts ---------------------------------------------------------------------------------


def _check_texts(hypotheses: object, references: object) -> None:
    """TypeError or ValueError unless hypotheses is a list of str and references, of the
    same length, a list of lists (or tuples) of one or more str each."""
    if plain_texts(hypotheses, references):  # the usual case, in one call
        return
    if not isinstance(hypotheses, list | tuple) or not isinstance(references, list | tuple):
        raise TypeError("hypotheses and references must be lists")
    if len(hypotheses) != len(references):
        raise ValueError(f"{len(hypotheses)} hypotheses but {len(references)} reference lists")
    for i, text in enumerate(hypotheses):
        if not isinstance(text, str):
            raise TypeError(f"hypotheses[{i}] must be a str, got {type(text).__name__}")
    for i, texts in enumerate(references):
        if not isinstance(texts, list | tuple):
            raise TypeError(f"references[{i}] must be a list of str, got {type(texts).__name__}")
        if not texts:
            raise ValueError(f"references[{i}] has no reference")
        for j, text in enumerate(texts):
            if not isinstance(text, str):
                raise TypeError(f"references[{i}][{j}] must be a str, got {type(text).__name__}")
