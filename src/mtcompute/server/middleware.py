"""The application's ASGI middlewares, one concern each (as ``starlette/middleware/`` has them).

- :class:`AccessLogMiddleware`: one access-log record per HTTP request;
- :class:`JsonCORSMiddleware`: Starlette's CORS, a refused preflight as the JSON envelope;
- :class:`BodyDeadlineMiddleware`: the request body must be in within a deadline (408);
- :class:`BodyCapMiddleware`: one cap on the request body for every route (413);
- :class:`LimitsMiddleware`: the per-client rate limit (429) and the API keys execute needs
  when they are configured (401; on ``/mcp``, only ``execute``), :mod:`mtcompute.server.limits`;
- :class:`SecurityHeadersMiddleware`: the security headers (:data:`SECURITY_HEADERS`) on
  every response that does not set its own;
- :class:`ForwardedMiddleware`: for a request from a trusted proxy (``--trusted-proxy``), the
  client address, scheme and host the proxy forwarded.

All are pure ASGI (they wrap ``receive`` and ``send``, never buffer a body), so streaming
stays streaming. :func:`mtcompute.server.app.create_app` stacks them (outermost first): the
forwarded addresses when proxies are trusted, before anything reads the client; the access
log; the security headers, outside the error handlers so that a 500 has them too; then CORS
when configured; then the limits when configured; then the body deadline; then the body cap,
just outside the routes.
"""

from __future__ import annotations

__all__ = [
    "API_CSP",
    "BODY_STATE",
    "DEFAULT_MIN_UPLOAD_RATE",
    "EXECUTE_PATH",
    "FORWARDED_HOST",
    "RATE_EXEMPT",
    "SECURITY_HEADERS",
    "AccessLogMiddleware",
    "BodyCapMiddleware",
    "BodyDeadlineMiddleware",
    "ForwardedMiddleware",
    "HttpOnlyMiddleware",
    "JsonCORSMiddleware",
    "LimitsMiddleware",
    "SecurityHeadersMiddleware",
    "route_path",
    "transfer_coding_refusal",
    "with_security_headers",
]

import asyncio
import ipaddress
import logging
import os
import re
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Final

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
    CLIENT_KEY,
    KEY_MISSING,
    KEY_REQUIRED_MESSAGE,
    ApiKeys,
    Network,
    TokenBuckets,
    client_of,
    presented_key,
)
from mtcompute.server.responses import error_response

Refusal = Callable[[MtcomputeError, Mapping[str, str] | None], Response]
"""How a route answers a refusal of the whole request (the default: the error envelope)."""
EXECUTE_PATH = re.compile(r"/v1/tools/([^/]+)/versions/([^/]+)/execute")
"""An execute route's path (to be matched whole): its groups are the tool id and version."""

BodyRefusal = Callable[[MtcomputeError], Response]
"""How a route answers a body it refuses before reading it: over the cap (the default: the
``limit_exceeded`` envelope), or in a transfer coding it does not take (``invalid_input``)."""

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


def transfer_coding_refusal(scope: Scope) -> InvalidInput | None:
    """The refusal of a body sent in a transfer coding other than ``chunked`` (``gzip``,
    ``deflate``, ``gzip, chunked``: the body would be compressed bytes), else None."""
    for name, value in scope["headers"]:
        if name == b"transfer-encoding":
            codings = [c.strip().lower() for c in value.split(b",")]
            if any(coding != b"chunked" for coding in codings):
                got = value.decode("latin-1")[:100]
                return InvalidInput(
                    f'Expected no Transfer-Encoding but "chunked", got "{got}": compressed '
                    "transfer codings are not supported; send the body uncompressed, chunked "
                    "or with a Content-Length."
                )
    return None


def route_path(scope: Scope) -> str:
    """The path the router matches (the request path without the ``root_path``)."""
    path, root = str(scope.get("path", "")), str(scope.get("root_path", ""))
    return path[len(root) :] if root and path.startswith(root) else path


class HttpOnlyMiddleware:
    """A middleware of HTTP requests: :meth:`http` handles them; every other scope
    (lifespan, websocket) goes straight to ``app``."""

    app: ASGIApp

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        await self.http(scope, receive, send)

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Handle one HTTP request."""
        raise NotImplementedError


class BodyCapMiddleware(HttpOnlyMiddleware):
    """Refuse a request body over ``cap`` bytes (413), on every route, when the route reads it.

    A route that never reads its body is not affected, and one that reads it decides first
    what it answers without it (an unknown tool's 404, a wrong Content-Type's 415, a 405 on
    ``/mcp``), exactly as if it read the body itself. At the route's first read, a declared
    ``Content-Length`` over the cap is refused before one byte is read; otherwise the bytes
    are counted as they arrive and refused as soon as they pass the cap, the rest unread.

    A body in a transfer coding other than ``chunked`` is refused at once, before any read:
    400 ``invalid_input`` saying so (:func:`transfer_coding_refusal`; a bare ``gzip``, which
    leaves no way to find the body's end, is refused by the HTTP parser already).

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

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        length, chunked = _body_headers(scope)
        if chunked:
            coding = transfer_coding_refusal(scope)
            if coding is not None:
                refuse = self.refusals.get(route_path(scope), error_response)
                await refuse(coding)(scope, receive, send)
                return
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


DEFAULT_MIN_UPLOAD_RATE = 65536.0
"""Bytes per second a body must keep arriving at, after its first ``timeout`` seconds
(``mtcompute serve --min-upload-rate``, ``MTCOMPUTE_MIN_UPLOAD_RATE``)."""


class BodyDeadlineMiddleware(HttpOnlyMiddleware):
    """Answer 408 (``invalid_input``) and close when the body does not arrive in time:
    within ``timeout`` seconds, plus one second per ``min_rate`` bytes received, and never
    ``timeout`` seconds without a body byte (a minimum upload rate, not a whole-body
    deadline: a 24 MB body arriving at 2 MB/s is in time, a client trickling a byte a second
    is cut after ``timeout``, and so is one that sends a burst then nothing, ``timeout``
    after its last byte; 0: the whole body within ``timeout``).

    The deadline runs from the start of the request until the last body chunk has been
    received (each chunk moves it by its bytes over ``min_rate``, to at most ``timeout``
    seconds after that chunk); once the body is in,
    ``receive`` is passed through untouched (disconnect listeners keep working). When the
    deadline passes before the body is in, the route is cancelled (a cancellation, not an
    exception, so no handler logs it as an error; the MCP transport is built to be
    cancelled), and the 408 goes out with ``Connection: close``, so that uvicorn closes the
    connection. This holds on every route, ``/mcp`` included.

    A request without a body (no ``Content-Length``, or 0, and no ``Transfer-Encoding``) has
    nothing to wait for and passes straight through, and so does one whose body the server
    says is all in already (:data:`BODY_STATE`: the common case, a small body that came with
    its headers). For the others the deadline is one timer on the event loop, cancelled as
    soon as the last chunk is in, and one cancel scope.
    """

    def __init__(
        self, app: ASGIApp, timeout: float, min_rate: float = DEFAULT_MIN_UPLOAD_RATE
    ) -> None:
        self.app = app
        self.timeout = timeout
        self.min_rate = min_rate

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        length, chunked = _body_headers(scope)
        if (not length and not chunked) or _body_complete(scope):
            await self.app(scope, receive, send)
            return
        body_done = False
        timed_out = False
        response_started = False
        received = 0
        loop = asyncio.get_running_loop()
        start = loop.time()
        deadline = start + self.timeout

        with anyio.CancelScope() as route_scope:

            def expire() -> None:
                nonlocal timed_out
                if not body_done:
                    timed_out = True
                    route_scope.cancel()

            timer = loop.call_later(self.timeout, expire)

            async def guarded_receive() -> Message:
                nonlocal body_done, received, timer, deadline
                if body_done:
                    return await receive()
                if timed_out:  # only if the route shields its read from the cancellation
                    return {"type": "http.disconnect"}
                message = await receive()
                if message["type"] != "http.request" or not message.get("more_body", False):
                    body_done = True
                    timer.cancel()
                elif self.min_rate > 0 and message.get("body", b""):
                    # each chunk buys time at the minimum rate, but never more than
                    # ``timeout`` seconds from now: a burst then silence is cut as soon
                    # as a trickle is
                    received += len(message["body"])
                    timer.cancel()
                    deadline = min(start + self._allowed(received), loop.time() + self.timeout)
                    timer = loop.call_at(deadline, expire)
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
            seconds = round(deadline - start, 1)
            response = error_response(
                RequestTimeout("body", seconds), headers={"Connection": "close"}
            )
            await response(scope, receive, send)

    def _allowed(self, received: int) -> float:
        """Seconds the body has once ``received`` bytes of it are in."""
        return self.timeout + (received / self.min_rate if self.min_rate > 0 else 0.0)


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


class AccessLogMiddleware(HttpOnlyMiddleware):
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

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
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


class LimitsMiddleware(HttpOnlyMiddleware):
    """The rate limit and the API keys (either may be off), on every HTTP request.

    The client is the request's valid API key, else its address (the forwarded one when a
    trusted proxy sent the request, :class:`ForwardedMiddleware`); the health checks
    (:data:`RATE_EXEMPT`) are not counted. A request over the limit gets 429 with
    ``Retry-After``; then, when keys are configured, an execute request (a POST of an execute
    route) without a valid key gets 401 with ``WWW-Authenticate: Bearer``. Each is the error
    envelope, or the route's entry in ``refusals`` (``/mcp``: a JSON-RPC error).
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

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        key_client = (
            None if self.keys is None else self.keys.client(presented_key(Headers(scope=scope)))
        )
        refusal: MtcomputeError | None = None
        headers: dict[str, str] = {}
        path = route_path(scope)
        if key_client is not None:
            scope = {**scope, CLIENT_KEY: key_client}  # the scheduler's client too (client_of)
        if self.buckets is not None and path not in RATE_EXEMPT:
            wait = self.buckets.take(client_of(scope))
            if wait:
                refusal = RateLimited(self.buckets.limit.text, wait)
                headers["Retry-After"] = str(wait)
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


RATE_EXEMPT: Final = frozenset({"/healthz", "/readyz"})
"""The paths the rate limit does not count: the health checks a load balancer polls."""

API_CSP: Final = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
"""The Content-Security-Policy of every response but the pages (which set their own): JSON,
the client files and the errors load nothing, run nothing and are never framed."""

SECURITY_HEADERS: Final[tuple[tuple[bytes, bytes], ...]] = (
    (b"content-security-policy", API_CSP.encode("latin-1")),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
)
"""The headers of every response (lower-case name and value bytes), unless it sets its own of
the same name (a page sets its own Content-Security-Policy)."""


def with_security_headers(headers: Iterable[tuple[bytes, bytes]]) -> list[tuple[bytes, bytes]]:
    """``headers`` and each of :data:`SECURITY_HEADERS` that they do not name."""
    merged = list(headers)
    present = {bytes(name).lower() for name, _ in merged}
    merged.extend(header for header in SECURITY_HEADERS if header[0] not in present)
    return merged


class SecurityHeadersMiddleware(HttpOnlyMiddleware):
    """Adds :data:`SECURITY_HEADERS` to every HTTP response start that lacks them: the API,
    the pages, ``/mcp`` (its event streams too), the refusals, 404s and the 500 of the error
    handler (this middleware sits outside it). The HTTP layer's own refusals (408 and 431 of
    the request head, 400 for bytes that are not HTTP) add them as well
    (:mod:`mtcompute.server.protocol`)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:

        async def secured_send(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = with_security_headers(message.get("headers", ()))
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, secured_send)


FORWARDED_HOST: Final = "mtcompute.forwarded_host"
"""The ASGI scope entry of a request from a trusted proxy that named the host the client asked
for (``X-Forwarded-Host``, or ``host=`` of ``Forwarded``), checked to be a host name or an IP
address with an optional port: the pages' base URL is built from it."""

_HOST: Final = re.compile(
    r"(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}"
    r"[A-Za-z0-9])?)*|\[[0-9A-Fa-f:.]{2,45}\])(?::[0-9]{1,5})?"
)
_MAX_HOPS: Final = 64  # hops of a forwarded chain read, from the right


def _address(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """The IP address of a forwarded hop (``192.0.2.1``, ``[2001:db8::1]:4711``), or None."""
    text = text.strip().strip('"')
    if text.startswith("["):
        text = text[1 : text.find("]")] if "]" in text else text
    elif text.count(":") == 1:  # IPv4 with a port
        text = text.partition(":")[0]
    try:
        return ipaddress.ip_address(text)
    except ValueError:
        return None


def _forwarded_pairs(value: str) -> list[dict[str, str]]:
    """The elements of a ``Forwarded`` header (RFC 7239), each as its lower-cased keys and
    unquoted values."""
    elements = []
    for element in value.split(","):
        pairs = {}
        for pair in element.split(";"):
            key, sep, item = pair.partition("=")
            if sep:
                pairs[key.strip().lower()] = item.strip().strip('"')
        elements.append(pairs)
    return elements


class ForwardedMiddleware:
    """A request whose direct peer is in ``trusted`` (``--trusted-proxy``) gets, in its scope,
    what the proxy forwarded; any other request is passed on untouched, whatever it says.

    - the client (``scope["client"]``, port 0): the rightmost address of ``X-Forwarded-For``
      that is not itself a trusted proxy (addresses to its left could be anything the client
      wrote); when every address is trusted, the leftmost;
    - the scheme (``scope["scheme"]``): the rightmost ``X-Forwarded-Proto``, ``http`` or
      ``https`` (another value is ignored);
    - the host (:data:`FORWARDED_HOST`): the rightmost ``X-Forwarded-Host``, when it is a host
      name or an IP address with an optional port (anything else is ignored).

    Rightmost, because that is what the nearest proxy, the trusted one, wrote. A request
    without ``X-Forwarded-For`` may instead carry ``Forwarded`` (RFC 7239): ``for=``,
    ``proto=`` and ``host=``, read the same way. The proxy must set the headers it uses
    (appending to ``X-Forwarded-For``, replacing the others), else a client's own pass through.
    """

    def __init__(self, app: ASGIApp, trusted: Sequence[Network]) -> None:
        self.app = app
        self.trusted = tuple(trusted)

    def _is_trusted(self, address: ipaddress.IPv4Address | ipaddress.IPv6Address | None) -> bool:
        return address is not None and any(address in network for network in self.trusted)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        peer = scope.get("client")
        if (
            scope["type"] not in ("http", "websocket")
            or not peer
            or not self._is_trusted(_address(str(peer[0])))
        ):
            await self.app(scope, receive, send)
            return
        fields: dict[str, list[str]] = {}
        for name, raw in scope["headers"]:
            fields.setdefault(name.decode("latin-1").lower(), []).append(raw.decode("latin-1"))
        hops, protos, hosts = self._forwarded(fields)
        scope = dict(scope)
        client = self._client(hops[-_MAX_HOPS:])
        if client is not None:
            scope["client"] = (client, 0)
        if protos and protos[-1].strip().lower() in ("http", "https"):
            scope["scheme"] = protos[-1].strip().lower()
        if hosts and len(hosts[-1].strip()) <= 255 and _HOST.fullmatch(hosts[-1].strip()):
            scope[FORWARDED_HOST] = hosts[-1].strip()
        await self.app(scope, receive, send)

    @staticmethod
    def _forwarded(fields: Mapping[str, list[str]]) -> tuple[list[str], list[str], list[str]]:
        """(client hops, schemes, hosts) the proxies forwarded, leftmost first."""

        def items(name: str) -> list[str]:
            return [v.strip() for value in fields.get(name, ()) for v in value.split(",")]

        if "x-forwarded-for" in fields or "forwarded" not in fields:
            return items("x-forwarded-for"), items("x-forwarded-proto"), items("x-forwarded-host")
        elements = [e for value in fields["forwarded"] for e in _forwarded_pairs(value)]
        return (
            [e["for"] for e in elements if "for" in e],
            [e["proto"] for e in elements if "proto" in e],
            [e["host"] for e in elements if "host" in e],
        )

    def _client(self, hops: Sequence[str]) -> str | None:
        """The rightmost hop that is not a trusted proxy (the leftmost when all are)."""
        for hop in reversed(hops):
            address = _address(hop)
            if not self._is_trusted(address):
                return str(address) if address is not None else hop.strip()[:_MAX_HOST]
        first = _address(hops[0]) if hops else None
        return None if first is None else str(first)


_MAX_HOST: Final = 255
