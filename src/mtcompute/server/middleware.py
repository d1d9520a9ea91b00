"""The application's ASGI middlewares, one concern each (as ``starlette/middleware/`` has them).

- :class:`AccessLogMiddleware`: one access-log record per HTTP request;
- :class:`JsonCORSMiddleware`: Starlette's CORS, a refused preflight as the JSON envelope;
- :class:`BodyDeadlineMiddleware`: the request body must be in within a deadline (408);
- :class:`BodyCapMiddleware`: one cap on the request body for every route (413);
- :class:`LimitsMiddleware`: the per-client rate limit (429) and the API keys execute needs
  when they are configured (401; on ``/mcp``, only ``execute``), :mod:`mtcompute.server.limits`.

All are pure ASGI (they wrap ``receive`` and ``send``, never buffer a body), so streaming
stays streaming. :func:`mtcompute.server.app.create_app` stacks them (outermost first): the
access log outside everything, the error handlers included; then CORS when configured; then
the limits when configured; then the body deadline; then the body cap, just outside the
routes.
"""

from __future__ import annotations

__all__ = [
    "BODY_STATE",
    "EXECUTE_PATH",
    "AccessLogMiddleware",
    "BodyCapMiddleware",
    "BodyDeadlineMiddleware",
    "JsonCORSMiddleware",
    "LimitsMiddleware",
    "route_path",
]

import asyncio
import logging
import os
import re
import time
from collections.abc import Callable, Mapping

import anyio
from starlette.datastructures import Headers
from starlette.middleware.cors import CORSMiddleware
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from mtcompute.errors import (
    BodyTooLarge,
    InvalidInput,
    MtcomputeError,
    RateLimited,
    RequestTimeout,
    Unauthorized,
)
from mtcompute.server.limits import (
    KEY_MISSING,
    KEY_REQUIRED_MESSAGE,
    ApiKeys,
    TokenBuckets,
    presented_key,
)
from mtcompute.server.responses import error_response

Refusal = Callable[[MtcomputeError, Mapping[str, str] | None], Response]
"""How a route answers a refusal of the whole request (the default: the error envelope)."""
EXECUTE_PATH = re.compile(r"/v1/tools/([^/]+)/versions/([^/]+)/execute")
"""An execute route's path (to be matched whole): its groups are the tool id and version."""

BodyRefusal = Callable[[BodyTooLarge], Response]
"""How a route answers a body over the cap (the default: the ``limit_exceeded`` envelope)."""

BODY_STATE = "mtcompute.body"
"""The ASGI scope extension (``scope["extensions"][BODY_STATE]``, a dict) by which a server
that knows tells the application that the request's body is all in: it sets the dict's
``"complete"`` to True then (:class:`mtcompute.server.protocol.GuardedHttpToolsProtocol`)."""


def _body_complete(scope: Scope) -> bool:
    """The server says (:data:`BODY_STATE`) that the request's body is all in already."""
    extensions = scope.get("extensions")
    state = extensions.get(BODY_STATE) if extensions else None
    return state is not None and state.get("complete") is True


def _body_headers(scope: Scope) -> tuple[int | None, bool]:
    """The request's declared ``Content-Length`` (None when absent or not digits) and whether
    it has a ``Transfer-Encoding`` (a chunked body, of no declared length), read from the raw
    headers without building a header object."""
    length: int | None = None
    chunked = False
    for name, value in scope["headers"]:
        if name == b"content-length":
            length = int(value) if value.isdigit() else None
        elif name == b"transfer-encoding":
            chunked = True
    return length, chunked


def route_path(scope: Scope) -> str:
    """The path the router matches (the request path without the ``root_path``)."""
    path, root = str(scope.get("path", "")), str(scope.get("root_path", ""))
    return path[len(root) :] if root and path.startswith(root) else path


class BodyCapMiddleware:
    """Refuse a request body over ``cap`` bytes (413), on every route, when the route reads it.

    A route that never reads its body is not affected, and one that reads it decides first
    what it answers without it (an unknown tool's 404, a wrong Content-Type's 415, a 405 on
    ``/mcp``), exactly as if it read the body itself. At the route's first read, a declared
    ``Content-Length`` over the cap is refused before one byte is read; otherwise the bytes
    are counted as they arrive and refused as soon as they pass the cap, the rest unread.

    The refusal is a :class:`~mtcompute.errors.BodyTooLarge`, answered by the route's entry in
    ``refusals`` (keyed by path; ``/mcp`` answers it as a JSON-RPC error) or, for every other
    route, as the ``limit_exceeded`` envelope. It is raised inside ``receive`` and caught
    here, so it unwinds the route (a route must not catch it), and it is answered only if the
    route has not started its response.
    """

    def __init__(
        self, app: ASGIApp, cap: int, refusals: Mapping[str, BodyRefusal] | None = None
    ) -> None:
        self.app = app
        self.cap = cap
        self.refusals = dict(refusals or {})

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length, chunked = _body_headers(scope)
        if length is not None and length <= self.cap and not chunked:
            # The server delivers exactly Content-Length bytes: this body cannot pass the cap.
            await self.app(scope, receive, send)
            return
        declared = length
        size = 0
        response_started = False

        async def capped_receive() -> Message:
            nonlocal size
            if declared is not None and declared > self.cap:
                raise BodyTooLarge(self.cap, declared)
            message = await receive()
            if message["type"] == "http.request":
                size += len(message.get("body", b""))
                if size > self.cap:
                    raise BodyTooLarge(self.cap)
            return message

        async def watched_send(message: Message) -> None:
            nonlocal response_started
            response_started = True
            await send(message)

        try:
            await self.app(scope, capped_receive, watched_send)
        except BodyTooLarge as error:
            if response_started:
                raise
            refuse = self.refusals.get(route_path(scope), error_response)
            await refuse(error)(scope, receive, send)


class BodyDeadlineMiddleware:
    """Answer 408 (``invalid_input``) and close when the body is not in within ``timeout`` s.

    The deadline runs from the start of the request until the last body chunk has been
    received; once the body is in, ``receive`` is passed through untouched (disconnect
    listeners keep working). When the deadline passes before the body is in, the route is
    cancelled (a cancellation, not an exception, so no handler logs it as an error; the MCP
    transport is built to be cancelled), and the 408 goes out with ``Connection: close``, so
    that uvicorn closes the connection. This holds on every route, ``/mcp`` included.

    A request without a body (no ``Content-Length``, or 0, and no ``Transfer-Encoding``) has
    nothing to wait for and passes straight through, and so does one whose body the server
    says is all in already (:data:`BODY_STATE`: the common case, a small body that came with
    its headers). For the others the deadline is one timer on the event loop, cancelled as
    soon as the last chunk is in, and one cancel scope.
    """

    def __init__(self, app: ASGIApp, timeout: float) -> None:
        self.app = app
        self.timeout = timeout

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length, chunked = _body_headers(scope)
        if (not length and not chunked) or _body_complete(scope):
            await self.app(scope, receive, send)
            return
        body_done = False
        timed_out = False
        response_started = False

        with anyio.CancelScope() as route_scope:

            def expire() -> None:
                nonlocal timed_out
                if not body_done:
                    timed_out = True
                    route_scope.cancel()

            timer = asyncio.get_running_loop().call_later(self.timeout, expire)

            async def guarded_receive() -> Message:
                nonlocal body_done
                if body_done:
                    return await receive()
                if timed_out:  # only if the route shields its read from the cancellation
                    return {"type": "http.disconnect"}
                message = await receive()
                if message["type"] != "http.request" or not message.get("more_body", False):
                    body_done = True
                    timer.cancel()
                return message

            async def guarded_send(message: Message) -> None:
                nonlocal response_started
                if message["type"] == "http.response.start":
                    response_started = True
                await send(message)

            try:
                await self.app(scope, guarded_receive, guarded_send)
            finally:
                timer.cancel()

        if timed_out and not response_started:
            response = error_response(
                RequestTimeout("body", self.timeout), headers={"Connection": "close"}
            )
            await response(scope, receive, send)


class JsonCORSMiddleware(CORSMiddleware):
    """Starlette's CORS middleware, with a refused preflight as the JSON envelope (400)."""

    def preflight_response(self, request_headers: Headers) -> Response:
        """The preflight answer; a refusal carries the envelope instead of plain text."""
        response = super().preflight_response(request_headers)
        if response.status_code == 400:
            failures = (
                bytes(response.body).decode("utf-8", "replace").removeprefix("Disallowed CORS ")
            )
            headers = {
                k: v
                for k, v in response.headers.items()
                if k.lower() not in {"content-length", "content-type"}
            }
            return error_response(
                InvalidInput(
                    "Expected a CORS preflight from an allowed origin with an allowed method "
                    f"and headers, got a disallowed {failures}."
                ),
                headers=headers,
            )
        return response


_TOOL_PATH = re.compile(r"^/v1/tools/([^/]+)/versions/([^/]+)(?:/execute)?$")
_MAX_PATH = 256
_MAX_NAME = 64
_MAX_METHOD = 16


def _client(scope: Scope) -> str | None:
    client = scope.get("client")
    if not client:
        return None
    host, port = client[0], client[1]
    return f"[{host}]:{port}" if ":" in str(host) else f"{host}:{port}"


class AccessLogMiddleware:
    """Logs one record per HTTP request to ``logger`` once the response has ended.

    The record's ``access`` attribute holds the fields of the line
    (:mod:`mtcompute.server.access_log` formats it): ``pid``, ``client``, ``method``,
    ``path``, ``tool`` and ``version`` (on the contract and execute routes, else ``None``),
    ``status`` (``None`` when the client went away before a response started),
    ``duration_ms``, ``request_bytes`` (the body bytes the application read) and
    ``response_bytes`` (the body bytes sent). Bodies are never logged; the path is cut to 256
    characters and the tool id and version to 64, so a request cannot flood a line.
    """

    def __init__(self, app: ASGIApp, logger: logging.Logger) -> None:
        self.app = app
        self.logger = logger
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
                fields = self._fields(scope, status, start, request_bytes, response_bytes)
                self.logger.info("request", extra={"access": fields})

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

    def _fields(
        self,
        scope: Scope,
        status: int | None,
        start: float,
        request_bytes: int,
        response_bytes: int,
    ) -> dict[str, object]:
        path = str(scope.get("path", ""))
        match = _TOOL_PATH.match(path)
        return {
            "pid": self.pid,
            "client": _client(scope),
            "method": str(scope.get("method", ""))[:_MAX_METHOD],
            "path": path[:_MAX_PATH],
            "tool": match.group(1)[:_MAX_NAME] if match else None,
            "version": match.group(2)[:_MAX_NAME] if match else None,
            "status": status,
            "duration_ms": round((time.perf_counter() - start) * 1000, 3),
            "request_bytes": request_bytes,
            "response_bytes": response_bytes,
        }


class LimitsMiddleware:
    """The rate limit and the API keys (either may be off), on every HTTP request.

    The client is the request's valid API key, else its address. A request over the limit
    gets 429 with ``Retry-After``; then, when keys are configured, an execute request (a POST
    of an execute route) without a valid key gets 401 with ``WWW-Authenticate: Bearer``. Each
    is the error envelope, or the route's entry in ``refusals`` (``/mcp``: a JSON-RPC error).
    A request to ``/mcp`` without a valid key goes on, marked
    :data:`~mtcompute.server.limits.KEY_MISSING` in its scope: discovery (``initialize``,
    ``tools/list``, the catalog tools) is public, and the MCP server refuses a ``tools/call``
    of ``execute`` on it.
    """

    def __init__(
        self,
        app: ASGIApp,
        *,
        buckets: TokenBuckets | None,
        keys: ApiKeys | None,
        refusals: Mapping[str, Refusal],
    ) -> None:
        self.app = app
        self.buckets = buckets
        self.keys = keys
        self.refusals = refusals

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        key_client = (
            None if self.keys is None else self.keys.client(presented_key(Headers(scope=scope)))
        )
        refusal: MtcomputeError | None = None
        headers: dict[str, str] = {}
        if self.buckets is not None:
            address = scope.get("client")
            client = key_client or f"address:{address[0] if address else ''}"
            wait = self.buckets.take(client)
            if wait:
                refusal = RateLimited(self.buckets.limit.text, wait)
                headers["Retry-After"] = str(wait)
        path = route_path(scope)
        if refusal is None and self.keys is not None and key_client is None:
            if scope["method"] == "POST" and EXECUTE_PATH.fullmatch(path):
                refusal = Unauthorized(KEY_REQUIRED_MESSAGE)
                headers["WWW-Authenticate"] = "Bearer"
            elif path == "/mcp":
                scope = {**scope, KEY_MISSING: True}  # the MCP server refuses execute only
        if refusal is None:
            await self.app(scope, receive, send)
            return
        answer = self.refusals.get(path)
        response = answer(refusal, headers) if answer else error_response(refusal, headers)
        await response(scope, receive, send)
