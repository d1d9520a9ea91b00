"""uvicorn's HTTP/1.1 protocol (httptools) with a deadline and a size cap on the request head.

uvicorn times out idle keep-alive connections only: a client that opens a connection and
sends nothing, or sends a request line and headers a byte at a time (slowloris), or one
endless header, holds the connection (and, for the endless header, memory: httptools keeps
the partial header) for as long as it likes. :class:`GuardedHttpToolsProtocol` adds:

- a **head deadline** (``MTCOMPUTE_HEADER_TIMEOUT`` seconds, default 10): armed when a
  connection opens, and again whenever bytes arrive while no request is being served (a new
  request head on a kept-alive connection, or the unread rest of a body that was already
  answered, e.g. after a 413). Headers complete cancel it. When it fires, a connection that
  had started a request head gets ``408`` with the JSON envelope; others are just closed.
- a **head size cap** (``MTCOMPUTE_MAX_HEADER_BYTES``, default 64 KiB): request line plus
  headers larger than that get ``431`` with the JSON envelope and the connection is closed.
  Bytes are counted per socket read, so what the parser holds for a head is bounded by the
  cap plus one read (a read that also ends a body or a head is not counted: a head within
  the cap is never refused).
- uvicorn's "Invalid HTTP request received." (a request that is not HTTP) as the JSON
  envelope (400 ``invalid_input``) instead of plain text.

Each of these refusals carries the security headers every response of the application has
(:data:`~mtcompute.server.middleware.SECURITY_HEADERS`).

The body deadline is the application's (:mod:`mtcompute.server.middleware`), since the body
is read by the application; the protocol tells it, through the scope extension
:data:`~mtcompute.server.middleware.BODY_STATE`, when a body is all in already, so that the
common request (a small body in the same read as its headers) costs it no timer. Selected by
``mtcompute serve`` through uvicorn's ``http=`` option.

This subclasses uvicorn internals, not a public API: ``HttpToolsProtocol`` (its
``__init__``, ``connection_made``, ``connection_lost``, ``data_received``, the parser
callbacks ``on_message_begin``, ``on_headers_complete``, ``on_message_complete``, and
``send_400_response``; its attributes ``transport``, ``loop``, ``cycle`` and
``server_state.default_headers``) and the ``STATUS_LINE`` table. ``pyproject.toml`` bounds
uvicorn from above to the releases this was tested with; raise the bound after
``tests/test_hostile_http.py`` and ``tests/test_openapi_errors.py`` pass on a newer one.
"""

from __future__ import annotations

__all__ = [
    "DEFAULT_HEADER_TIMEOUT",
    "DEFAULT_MAX_HEADER_BYTES",
    "GuardedHttpToolsProtocol",
    "head_limits",
]

import asyncio
from functools import cache
from typing import Any

from uvicorn.config import Config
from uvicorn.protocols.http.httptools_impl import STATUS_LINE, HttpToolsProtocol
from uvicorn.server import ServerState

from mtcompute.envelope import Envelope
from mtcompute.errors import HeadersTooLarge, InvalidInput, MtcomputeError, RequestTimeout
from mtcompute.server.middleware import (
    BODY_STATE,
    transfer_coding_refusal,
    with_security_headers,
)
from mtcompute.server.settings import from_environment

DEFAULT_HEADER_TIMEOUT = 10.0  # seconds; MTCOMPUTE_HEADER_TIMEOUT overrides
DEFAULT_MAX_HEADER_BYTES = 64 * 1024  # MTCOMPUTE_MAX_HEADER_BYTES overrides


@cache
def head_limits() -> tuple[float, int]:
    """(head deadline in seconds, head size cap in bytes), from the environment."""
    timeout = from_environment("MTCOMPUTE_HEADER_TIMEOUT", DEFAULT_HEADER_TIMEOUT)
    size = from_environment("MTCOMPUTE_MAX_HEADER_BYTES", DEFAULT_MAX_HEADER_BYTES)
    return timeout, size


class GuardedHttpToolsProtocol(HttpToolsProtocol):
    """:class:`HttpToolsProtocol` with a head deadline, a head size cap and JSON 400s."""

    def __init__(
        self,
        config: Config,
        server_state: ServerState,
        app_state: dict[str, Any],
        _loop: asyncio.AbstractEventLoop | None = None,
    ) -> None:
        super().__init__(config, server_state, app_state, _loop)
        self.header_timeout, self.max_header_bytes = head_limits()
        self._head_timer: asyncio.TimerHandle | None = None
        self._head_deadline: float | None = None  # loop time; None: no head is awaited
        self._head_started = False  # bytes of a request head arrived, headers not complete
        self._head_bytes = 0  # bytes read so far for the pending head (see data_received)
        self._heads_done = 0
        # BODY_STATE of the request whose body is being read: set between headers complete
        # and message complete, None otherwise
        self._body: dict[object, object] | None = None

    # asyncio.Protocol

    def connection_made(  # type: ignore[override]
        self, transport: asyncio.Transport
    ) -> None:
        super().connection_made(transport)
        self._arm_head_deadline()

    def connection_lost(self, exc: Exception | None) -> None:
        self._clear_head_deadline()
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self.transport.is_closing():
            return
        was_in_body, was_in_head = self._body is not None, self._head_started
        heads_done = self._heads_done
        super().data_received(data)
        if self.transport.is_closing():
            return
        if self._head_started:  # a request head is pending after this read: count its bytes
            if was_in_head and not was_in_body and heads_done == self._heads_done:
                self._head_bytes += len(data)  # the whole read belongs to this head
            elif was_in_body or heads_done != self._heads_done:
                self._head_bytes = 0  # the read also ended a body or a head: not counted, so
                # the cap is passed by at most one read, and never refused within the cap
            else:
                self._head_bytes = len(data)  # the head began in this read
            if self._head_bytes > self.max_header_bytes:
                self._refuse(HeadersTooLarge(self.max_header_bytes))
                return
        if self._idle() and self._head_deadline is None:
            self._arm_head_deadline()

    # httptools parser callbacks

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._head_started = True
        if self._head_deadline is None:
            self._arm_head_deadline()

    def on_headers_complete(self) -> None:
        self._clear_head_deadline()
        self._head_started = False
        self._heads_done += 1
        self._body = {"complete": False}
        extensions = self.scope.get("extensions") or {}
        self.scope["extensions"] = {**extensions, BODY_STATE: self._body}
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        if self._body is not None:
            self._body["complete"] = True
            self._body = None
        super().on_message_complete()

    # uvicorn hooks

    def send_400_response(self, msg: str) -> None:  # noqa: ARG002 (uvicorn's fixed text)
        """A request that is not HTTP: the JSON envelope, then close (uvicorn sends text). A
        bare compressed transfer coding (``Transfer-Encoding: gzip``, which the parser itself
        refuses) gets the middleware's clear message instead of the generic one."""
        refusal = transfer_coding_refusal({"headers": self.headers or []})
        self._refuse(
            refusal or InvalidInput("Expected an HTTP/1.1 request, got bytes that do not parse.")
        )

    # internals

    def _idle(self) -> bool:
        """No request is being served on this connection."""
        return self.cycle is None or self.cycle.response_complete

    # The head deadline is a time, not a timer per request: arming and cancelling it are
    # assignments, and one timer per connection wakes at the earliest deadline it may have,
    # then again at the deadline set since, if any (a kept-alive connection at thousands of
    # requests a second would otherwise leave thousands of cancelled timers in the loop).

    def _arm_head_deadline(self) -> None:
        self._head_deadline = self.loop.time() + self.header_timeout
        if self._head_timer is None:
            self._head_timer = self.loop.call_at(self._head_deadline, self._head_timeout)

    def _clear_head_deadline(self) -> None:
        self._head_deadline = None

    def _head_timeout(self) -> None:
        self._head_timer = None
        deadline = self._head_deadline
        if deadline is None:
            return  # no head is awaited: the next arming starts a timer
        if self.loop.time() < deadline:  # armed again since this timer was started
            self._head_timer = self.loop.call_at(deadline, self._head_timeout)
            return
        self._head_deadline = None
        if self.transport.is_closing() or not self._idle():
            return  # a request is being served: its own deadlines apply
        if self._head_started:
            self._refuse(RequestTimeout("headers", self.header_timeout))
        else:
            self.transport.close()

    def _refuse(self, error: MtcomputeError) -> None:
        """Answer ``error``'s envelope with its status, then close the connection."""
        body = Envelope.of_error(error).json_bytes()
        content = [STATUS_LINE[error.http_status]]
        for name, value in with_security_headers(self.server_state.default_headers):
            content.extend([name, b": ", value, b"\r\n"])
        content.extend(
            [
                b"content-type: application/json\r\n",
                b"content-length: " + str(len(body)).encode("ascii") + b"\r\n",
                b"connection: close\r\n",
                b"\r\n",
                body,
            ]
        )
        self.transport.write(b"".join(content))
        self.transport.close()
        self._clear_head_deadline()
