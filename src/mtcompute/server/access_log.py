"""The structured access log, through :mod:`logging`: one JSON line per HTTP request.

:class:`~mtcompute.server.middleware.AccessLogMiddleware` logs one record per request to the
``mtcompute.access`` logger, with the request's fields in ``record.access``; this module
routes that logger's records through a :class:`~logging.handlers.QueueHandler` (so the event
loop never waits for the disk) to a :class:`~logging.handlers.QueueListener` whose handler
writes them with :class:`JsonLineFormatter`. Each line::

    {"ts": "2026-05-01T12:00:00.123Z", "pid": 4242, "client": "127.0.0.1:50312",
     "method": "POST", "path": "/v1/tools/chrf-compute/versions/1.0.0/execute",
     "tool": "chrf-compute", "version": "1.0.0", "status": 200, "duration_ms": 1.52,
     "request_bytes": 61, "response_bytes": 245}

The queue is bounded: a line that does not fit is counted and dropped, and the count is
written (``{"event": "access_log_dropped", "lines": N}``) when the log closes. Each line is
written and flushed on its own, in one write call: atomic on an ``O_APPEND`` file, and on a
pipe up to 4096 bytes (``PIPE_BUF``; the fields are cut so that a line stays far below it
unless its path is made of escaped non-ASCII characters), so several worker processes can
share one stream or file without interleaving lines. A failing stream (closed pipe, full
disk) drops lines and keeps serving.

The logger is the process's, like ``uvicorn.access``: one access log per process (each
``mtcompute serve`` worker opens its own).
"""

from __future__ import annotations

__all__ = ["ACCESS_LOGGER", "AccessLog", "JsonLineFormatter", "open_access_log"]

import contextlib
import json
import logging
import os
import queue
import sys
from datetime import UTC, datetime
from logging.handlers import QueueHandler, QueueListener
from typing import Final, TextIO

ACCESS_LOGGER: Final = "mtcompute.access"
_QUEUE_SIZE: Final = 10_000
_CLOSE_TIMEOUT: Final = 5.0  # seconds to wait for the queued lines at close


class JsonLineFormatter(logging.Formatter):
    """A record's ``access`` fields as one compact JSON object, after ``ts`` (UTC, in ms).

    A record without ``access`` fields is written as its message.
    """

    def format(self, record: logging.LogRecord) -> str:
        """The line for ``record`` (no newline)."""
        fields = getattr(record, "access", None)
        if fields is None:
            return record.getMessage()
        when = datetime.fromtimestamp(record.created, UTC)
        ts = when.strftime("%Y-%m-%dT%H:%M:%S.") + f"{when.microsecond // 1000:03d}Z"
        return json.dumps({"ts": ts, **fields}, separators=(",", ":"))


class _BoundedQueueHandler(QueueHandler):
    """A queue handler that never blocks: a record that does not fit is counted, not queued."""

    def __init__(self, size: int) -> None:
        super().__init__(queue.Queue(size))
        self.dropped = 0

    def enqueue(self, record: logging.LogRecord) -> None:
        """Queue ``record``, or count it as dropped when the queue is full."""
        try:
            self.queue.put_nowait(record)
        except queue.Full:
            self.dropped += 1


class _LineHandler(logging.StreamHandler[TextIO]):
    """Writes each line and flushes it (one write per line); a failing stream drops lines."""

    def __init__(self, stream: TextIO, *, owned: bool) -> None:
        super().__init__(stream)
        self.owned = owned
        self.setFormatter(JsonLineFormatter())

    def handleError(self, record: logging.LogRecord) -> None:  # noqa: N802 (logging's name)
        """Drop the line: the log stream is gone (closed pipe, full disk); keep serving."""

    def close(self) -> None:
        """Close the handler, and the stream if this handler opened it."""
        super().close()
        if self.owned:
            self.owned = False
            self.stream.close()


class _Listener(QueueListener):
    """The stdlib listener, stopping within a timeout even when the queue is full or stuck."""

    def enqueue_sentinel(self) -> None:
        """Queue the stop marker, waiting for room up to the close timeout."""
        with contextlib.suppress(queue.Full):
            self.queue.put(self._sentinel, timeout=_CLOSE_TIMEOUT)  # type: ignore[attr-defined]

    def stop(self) -> None:
        """Let the thread write what is queued (waiting up to the close timeout), then stop."""
        thread = self._thread
        if thread is not None:
            self.enqueue_sentinel()
            thread.join(_CLOSE_TIMEOUT)
            self._thread = None


class AccessLog:
    """The ``mtcompute.access`` logger, routed to one stream until :meth:`close`."""

    def __init__(self, stream: TextIO, *, owned: bool) -> None:
        self.logger = logging.getLogger(ACCESS_LOGGER)
        self.logger.setLevel(logging.INFO)
        self.logger.propagate = False
        self._queue_handler = _BoundedQueueHandler(_QUEUE_SIZE)
        self._handler = _LineHandler(stream, owned=owned)
        self._listener = _Listener(self._queue_handler.queue, self._handler)
        self._listener.start()
        self.logger.addHandler(self._queue_handler)

    @property
    def dropped(self) -> int:
        """Lines dropped so far because the queue was full."""
        return self._queue_handler.dropped

    def close(self) -> None:
        """Write what is queued, report the dropped lines, stop the thread, close the stream."""
        self.logger.removeHandler(self._queue_handler)
        self._listener.stop()
        if self.dropped:
            event = {"event": "access_log_dropped", "lines": self.dropped}
            self._handler.handle(logging.makeLogRecord({"msg": json.dumps(event)}))
        self._handler.close()


def _opener(path: str, flags: int) -> int:
    return os.open(path, flags, 0o644)  # "a" mode's flags: O_WRONLY | O_CREAT | O_APPEND


def open_access_log(destination: str | None) -> AccessLog | None:
    """The access log for an ``MTCOMPUTE_ACCESS_LOG`` value: off (unset, ``""``, ``0``,
    ``off``), standard error (``1``, ``on``, ``-``, ``stderr``), or a file path (appended to)."""
    value = (destination or "").strip()
    if value.lower() in {"", "0", "off", "false", "no"}:
        return None
    if value.lower() in {"1", "on", "true", "yes", "-", "stderr"}:
        return AccessLog(sys.stderr, owned=False)
    stream = open(value, "a", encoding="utf-8", errors="backslashreplace", opener=_opener)  # noqa: SIM115 (the log owns it until close)
    return AccessLog(stream, owned=True)
