"""Structured access log: one JSON line per HTTP request, written off the event loop.

:class:`AccessLogMiddleware` is a pure ASGI middleware (it wraps ``receive`` and ``send``,
never buffers a body, so streaming responses stream): when the response ends it hands one
line to an :class:`AccessLogWriter`, whose thread writes it. Fields::

    {"ts": "2026-05-01T12:00:00.123Z", "pid": 4242, "client": "127.0.0.1:50312",
     "method": "POST", "path": "/v1/tools/chrf-compute/versions/1.0.0/execute",
     "tool": "chrf-compute", "version": "1.0.0", "status": 200, "duration_ms": 1.52,
     "request_bytes": 61, "response_bytes": 245}

``tool`` and ``version`` are set on the contract and execute routes (``null`` elsewhere);
``status`` is ``null`` when the client went away before a response started;
``request_bytes`` counts the body bytes the application read, ``response_bytes`` the body
bytes sent. Bodies are never logged; the path is cut to 256 characters and the tool id and
version to 64, and every string is JSON-escaped, so a request cannot forge or flood lines.

The writer never blocks the event loop: lines go through a bounded queue (lines that do not
fit are counted and dropped, and the count is reported when the writer closes) and are
written by one thread with ``os.write``, whole lines per call, at most 4096 bytes per call
(atomic on a pipe, and on an ``O_APPEND`` file), so several worker processes can share one
stream or file without interleaving lines.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import re
import threading
import time
from datetime import UTC, datetime
from typing import Final

from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["AccessLogMiddleware", "AccessLogWriter", "open_access_log"]

_TOOL_PATH: Final = re.compile(r"^/v1/tools/([^/]+)/versions/([^/]+)(?:/execute)?$")
_MAX_PATH: Final = 256
_MAX_NAME: Final = 64
_ATOMIC_WRITE: Final = 4096  # PIPE_BUF on Linux
_QUEUE_SIZE: Final = 10_000
_CLOSE: Final = object()


class AccessLogWriter:
    """Writes lines to a file descriptor from a background thread (started on first use)."""

    def __init__(self, fd: int, *, close_fd: bool = False) -> None:
        self.fd = fd
        self.close_fd = close_fd
        self.dropped = 0
        self._queue: queue.Queue[object] = queue.Queue(_QUEUE_SIZE)
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def write(self, line: str) -> None:
        """Queue one line (no newline); never blocks. Dropped (and counted) if the queue is full."""
        if self._thread is None:
            self._start()
        try:
            self._queue.put_nowait(line)
        except queue.Full:
            self.dropped += 1

    def _start(self) -> None:
        with self._lock:
            if self._thread is None:
                thread = threading.Thread(target=self._run, name="access-log", daemon=True)
                thread.start()
                self._thread = thread

    def _run(self) -> None:
        while True:
            item = self._queue.get()
            batch: list[bytes] = []
            size = 0
            closing = False
            while True:
                if item is _CLOSE:
                    closing = True
                    break
                data = (str(item) + "\n").encode("utf-8", "backslashreplace")
                if batch and size + len(data) > _ATOMIC_WRITE:
                    self._write(b"".join(batch))
                    batch, size = [], 0
                batch.append(data)
                size += len(data)
                try:
                    item = self._queue.get_nowait()
                except queue.Empty:
                    break
            if batch:
                self._write(b"".join(batch))
            if closing:
                return

    def _write(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            try:
                written = os.write(self.fd, view)
            except InterruptedError:
                continue
            except OSError:
                return  # the log stream is gone (closed pipe, full disk): drop, keep serving
            view = view[written:]

    def close(self, timeout: float = 5.0) -> None:
        """Write what is queued (waiting up to ``timeout`` seconds), then stop the thread."""
        if self.dropped:
            with contextlib.suppress(queue.Full):
                self._queue.put_nowait(
                    json.dumps({"event": "access_log_dropped", "lines": self.dropped})
                )
        thread = self._thread
        if thread is not None:
            with contextlib.suppress(queue.Full):
                self._queue.put(_CLOSE, timeout=timeout)
            thread.join(timeout)
            self._thread = None
        if self.close_fd:
            with contextlib.suppress(OSError):
                os.close(self.fd)
            self.close_fd = False


def open_access_log(destination: str | None) -> AccessLogWriter | None:
    """The writer for an ``MTCOMPUTE_ACCESS_LOG`` value: off (unset, ``""``, ``0``, ``off``),
    standard error (``1``, ``on``, ``-``, ``stderr``), or a file path (appended to)."""
    value = (destination or "").strip()
    if value.lower() in {"", "0", "off", "false", "no"}:
        return None
    if value.lower() in {"1", "on", "true", "yes", "-", "stderr"}:
        return AccessLogWriter(2)
    fd = os.open(value, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC, 0o644)
    return AccessLogWriter(fd, close_fd=True)


def _client(scope: Scope) -> str | None:
    client = scope.get("client")
    if not client:
        return None
    host, port = client[0], client[1]
    return f"[{host}]:{port}" if ":" in str(host) else f"{host}:{port}"


class AccessLogMiddleware:
    """Hands one JSON line per HTTP request to ``writer`` once the response has ended."""

    def __init__(self, app: ASGIApp, writer: AccessLogWriter) -> None:
        self.app = app
        self.writer = writer
        self.pid = os.getpid()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        start = time.perf_counter()
        status: int | None = None
        request_bytes = 0
        response_bytes = 0
        logged = False

        def log() -> None:
            nonlocal logged
            if not logged:
                logged = True
                self.writer.write(self._line(scope, status, start, request_bytes, response_bytes))

        async def counting_receive() -> Message:
            nonlocal request_bytes
            message = await receive()
            if message["type"] == "http.request":
                request_bytes += len(message.get("body", b""))
            return message

        async def logging_send(message: Message) -> None:
            nonlocal status, response_bytes
            if message["type"] == "http.response.start":
                status = int(message["status"])
            elif message["type"] == "http.response.body":
                response_bytes += len(message.get("body", b""))
            await send(message)
            if message["type"] == "http.response.body" and not message.get("more_body", False):
                log()

        try:
            await self.app(scope, counting_receive, logging_send)
        finally:
            log()

    def _line(
        self,
        scope: Scope,
        status: int | None,
        start: float,
        request_bytes: int,
        response_bytes: int,
    ) -> str:
        path = str(scope.get("path", ""))
        match = _TOOL_PATH.match(path)
        now = datetime.now(UTC)
        return json.dumps(
            {
                "ts": now.strftime("%Y-%m-%dT%H:%M:%S.") + f"{now.microsecond // 1000:03d}Z",
                "pid": self.pid,
                "client": _client(scope),
                "method": str(scope.get("method", ""))[:16],
                "path": path[:_MAX_PATH],
                "tool": match.group(1)[:_MAX_NAME] if match else None,
                "version": match.group(2)[:_MAX_NAME] if match else None,
                "status": status,
                "duration_ms": round((time.perf_counter() - start) * 1000, 3),
                "request_bytes": request_bytes,
                "response_bytes": response_bytes,
            },
            separators=(",", ":"),
        )
