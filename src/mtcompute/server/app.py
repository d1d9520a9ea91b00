"""The ASGI application: HTTP API, MCP (streamable HTTP at ``/mcp``) and catalog pages.

Every route is a thin adapter over the one execute path (:func:`mtcompute.execute`): read
the body (bounded), parse it, execute off the event loop, render the envelope with
:func:`mtcompute.dumps`. The bytes are exactly what ``mtcompute run`` prints. Every error,
including unknown paths and methods, is a JSON envelope, never HTML.

Around the routes (outermost first):

- the access log (:mod:`mtcompute.server.access_log`), when ``MTCOMPUTE_ACCESS_LOG`` says
  where (``mtcompute serve`` turns it on);
- CORS, off unless origins are configured (``MTCOMPUTE_CORS_ORIGINS``, comma-separated):
  then Starlette's ``CORSMiddleware`` for exactly those origins, GET and POST, with a refused
  preflight answered by the JSON envelope;
- the body deadline: a request body that has not fully arrived ``MTCOMPUTE_BODY_TIMEOUT``
  seconds (default 10) after the request started gets ``408`` with the ``invalid_input``
  envelope and the connection is closed; this holds on every route, ``/mcp`` included.

The request-head deadline and size cap live in the HTTP protocol
(:mod:`mtcompute.server.protocol`), before the application sees a request.

No route reads a file named by a request or runs anything: tool ids and versions are looked
up in the registry, and contracts are read only for registered (id, version) pairs.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import AsyncIterator
from typing import Any

import anyio
import anyio.lowlevel
import anyio.to_thread
from starlette.applications import Starlette
from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.cors import CORSMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from mtcompute import dumps, execute
from mtcompute.contracts import contract, contract_text
from mtcompute.core.jsjson import JsonError, loads
from mtcompute.errors import ERRORS_BY_CODE, LimitExceeded, MtcomputeError, NotFound
from mtcompute.server.access_log import AccessLogMiddleware, AccessLogWriter, open_access_log
from mtcompute.server.openapi import openapi_document
from mtcompute.tools import get_tool, list_tools

__all__ = ["DEFAULT_BODY_TIMEOUT", "DEFAULT_MAX_BODY_BYTES", "create_app"]

# 32 MiB: admits the largest valid input of every contract in the catalog in compact JSON,
# escapes included (bleu-corpus-compute: 500,000 tokens, 4 MiB of token bytes, each byte a
# control character written \u0001: 26,784,747 bytes). MTCOMPUTE_MAX_BODY_BYTES overrides.
DEFAULT_MAX_BODY_BYTES = 32 << 20
DEFAULT_BODY_TIMEOUT = 10.0  # seconds; MTCOMPUTE_BODY_TIMEOUT overrides
JSON_TYPE = "application/json"
CORS_METHODS = ("GET", "POST")
CORS_HEADERS = ("content-type", "mcp-protocol-version")


def _json(text: str, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    return Response(text.encode("utf-8"), status, headers, media_type=JSON_TYPE)


def _envelope_response(envelope: dict[str, object]) -> Response:
    error = envelope.get("error")
    status = 200
    if isinstance(error, dict):
        cls = ERRORS_BY_CODE.get(str(error.get("code")))
        status = cls.http_status if cls is not None else 500
    return _json(dumps(envelope), status)


def _error(
    status: int, code: str, message: str, path: str = "", headers: dict[str, str] | None = None
) -> Response:
    return _json(
        dumps({"error": {"code": code, "message": message, "path": path}}), status, headers
    )


def _is_json_content_type(value: str | None) -> bool:
    if value is None:
        return True  # no header at all: browsers' cross-site forms always send one
    media = value.split(";", 1)[0].strip().lower()
    return media == JSON_TYPE or (media.startswith("application/") and media.endswith("+json"))


async def _read_body(request: Request, cap: int) -> bytes:
    """The whole body, or :class:`LimitExceeded` as soon as it passes ``cap`` bytes."""
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > cap:
        raise LimitExceeded(
            f"Expected a request body of at most {cap} bytes, got {int(declared)} (Content-Length)."
        )
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > cap:
            raise LimitExceeded(
                f"Expected a request body of at most {cap} bytes, got more; "
                "the body was not read further."
            )
        chunks.append(chunk)
    return b"".join(chunks)


async def execute_endpoint(request: Request) -> Response:
    """POST /v1/tools/{id}/versions/{version}/execute: body is the input; answer the envelope."""
    tool_id = request.path_params["tool_id"]
    version = request.path_params["version"]
    try:
        get_tool(tool_id, version)
    except NotFound as exc:
        return _envelope_response({"error": exc.to_dict()})
    content_type = request.headers.get("content-type")
    if content_type is not None and not _is_json_content_type(content_type):
        return _error(
            415,
            "invalid_input",
            f"Expected Content-Type application/json, got {content_type[:64]!r}.",
        )
    try:
        body = await _read_body(request, request.app.state.max_body_bytes)
    except MtcomputeError as exc:
        return _envelope_response({"error": exc.to_dict()})
    try:
        value = loads(body)
    except JsonError as exc:
        return _error(400, "invalid_input", str(exc))
    # Always on a worker thread, even for tiny bodies: computing small inputs on the event
    # loop doubles the requests per second, but input size does not bound the work (a 1 KiB
    # bleu-ngrams-count input with n-gram tables answers 135 KB and takes 18 ms; 16 KiB of
    # it takes 235 ms), and meanwhile every other request on the worker would wait.
    envelope = await anyio.to_thread.run_sync(execute, tool_id, version, value)
    return _envelope_response(envelope)


async def contract_endpoint(request: Request) -> Response:
    """GET /v1/tools/{id}/versions/{version}: the contract document as shipped."""
    tool_id = request.path_params["tool_id"]
    version = request.path_params["version"]
    try:
        get_tool(tool_id, version)
    except NotFound as exc:
        return _envelope_response({"error": exc.to_dict()})
    return _json(contract_text(tool_id, version))


def catalog(base_url: str = "") -> list[dict[str, Any]]:
    """One entry per tool version: id, version, description and links."""
    entries = []
    for tool in list_tools():
        doc = contract(tool.id, tool.version)
        base = f"/v1/tools/{tool.id}/versions/{tool.version}"
        entries.append(
            {
                "id": tool.id,
                "version": tool.version,
                "description": doc["description"],
                "links": {
                    "contract": base_url + base,
                    "execute": base_url + base + "/execute",
                    "page": f"{base_url}/tools/{tool.id}/{tool.version}",
                },
            }
        )
    return entries


async def catalog_endpoint(_request: Request) -> Response:
    """GET /v1/tools: the catalog."""
    return _json(dumps({"tools": catalog()}))


async def openapi_endpoint(request: Request) -> Response:
    """GET /openapi.json: OpenAPI 3.1 built from the contracts."""
    return _json(request.app.state.openapi_text)


async def healthz(_request: Request) -> Response:
    """GET /healthz: the process is up and can compute (a tiny chrF)."""
    ok = "result" in execute("chrf-compute", "1.0.0", {"hypotheses": ["a"], "references": ["a"]})
    return _json(dumps({"status": "ok" if ok else "failing"}), 200 if ok else 503)


def _base_url(request: Request) -> str:
    return str(request.base_url).rstrip("/")


async def index_endpoint(request: Request) -> Response:
    """GET /: the catalog page."""
    from mtcompute.server.pages import index_page  # noqa: PLC0415

    return HTMLResponse(index_page(_base_url(request)))


async def tool_page_endpoint(request: Request) -> Response:
    """GET /tools/{id}/{version}: a tool's page with a try-it form."""
    from mtcompute.server.pages import tool_page  # noqa: PLC0415

    try:
        html = tool_page(
            request.path_params["tool_id"], request.path_params["version"], _base_url(request)
        )
    except NotFound as exc:
        return _envelope_response({"error": exc.to_dict()})
    return HTMLResponse(html)


async def _http_exception(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    if exc.status_code == 404:
        return _error(404, "not_found", f"No such path: {request.url.path[:200]}.")
    if exc.status_code == 405:
        allow = (exc.headers or {}).get("Allow", "")
        return _error(
            405,
            "method_not_allowed",
            f"Method {request.method} is not allowed on {request.url.path[:200]}; "
            f"allowed: {allow}.",
            headers={"Allow": allow} if allow else None,
        )
    return _error(exc.status_code, "invalid_input", str(exc.detail))


async def _server_error(_request: Request, _exc: Exception) -> Response:
    return _error(500, "internal_error", "Internal error; please report this request.")


class BodyDeadlineMiddleware:
    """Answer 408 (``invalid_input``) and close when the body is not in within ``timeout`` s.

    Pure ASGI. The deadline runs from the start of the request until the last body chunk has
    been received; a route that does not read the body is not affected, and once the body is
    in, ``receive`` is passed through untouched (disconnect listeners keep working). When the
    deadline passes while the route waits for body bytes, the route is cancelled (a
    cancellation, not an exception, so no handler logs it as an error; the MCP transport is
    built to be cancelled), and the 408 goes out with ``Connection: close``, so that uvicorn
    closes the connection.
    """

    def __init__(self, app: ASGIApp, timeout: float) -> None:
        self.app = app
        self.timeout = timeout

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        deadline = anyio.current_time() + self.timeout
        body_done = False
        timed_out = False
        response_started = False

        with anyio.CancelScope() as route_scope:

            async def guarded_receive() -> Message:
                nonlocal body_done, timed_out
                if body_done:
                    return await receive()
                with anyio.move_on_after(deadline - anyio.current_time()):
                    message = await receive()
                    if message["type"] != "http.request" or not message.get("more_body", False):
                        body_done = True
                    return message
                timed_out = True
                route_scope.cancel()
                await anyio.lowlevel.checkpoint()  # raises the cancellation
                return {"type": "http.disconnect"}  # only if the route shields its read

            async def guarded_send(message: Message) -> None:
                nonlocal response_started
                if message["type"] == "http.response.start":
                    response_started = True
                await send(message)

            await self.app(scope, guarded_receive, guarded_send)

        if timed_out and not response_started:
            response = _error(
                408,
                "invalid_input",
                f"Expected the request body within {self.timeout:g} s; it did not arrive in "
                "time, so the connection is closed.",
                headers={"Connection": "close"},
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
            return _error(
                400,
                "invalid_input",
                f"Expected a CORS preflight from an allowed origin with an allowed method and "
                f"headers, got a disallowed {failures}.",
                headers=headers,
            )
        return response


class _App(Starlette):
    """Starlette with the access log outside everything, the error handlers included."""

    access_log: AccessLogWriter | None = None

    def build_middleware_stack(self) -> ASGIApp:
        app = super().build_middleware_stack()
        if self.access_log is not None:
            return AccessLogMiddleware(app, self.access_log)
        return app


def _cors_origins(value: str | None) -> list[str]:
    return [o.strip() for o in (value or "").split(",") if o.strip()]


def create_app(
    max_body_bytes: int | None = None,
    *,
    body_timeout: float | None = None,
    cors_origins: list[str] | None = None,
    access_log: str | None = None,
) -> Starlette:
    """The application. Each setting defaults to its environment variable, then its default:

    - ``max_body_bytes``: ``MTCOMPUTE_MAX_BODY_BYTES``, 32 MiB;
    - ``body_timeout``: ``MTCOMPUTE_BODY_TIMEOUT``, 10 seconds;
    - ``cors_origins``: ``MTCOMPUTE_CORS_ORIGINS`` (comma-separated), none (CORS off);
    - ``access_log``: ``MTCOMPUTE_ACCESS_LOG``: off, ``stderr`` or a file path; off.
    """
    if max_body_bytes is None:
        max_body_bytes = int(os.environ.get("MTCOMPUTE_MAX_BODY_BYTES", DEFAULT_MAX_BODY_BYTES))
    if body_timeout is None:
        body_timeout = float(os.environ.get("MTCOMPUTE_BODY_TIMEOUT", DEFAULT_BODY_TIMEOUT))
    if cors_origins is None:
        cors_origins = _cors_origins(os.environ.get("MTCOMPUTE_CORS_ORIGINS"))
    if access_log is None:
        access_log = os.environ.get("MTCOMPUTE_ACCESS_LOG")
    log_writer = open_access_log(access_log)
    from mtcompute.server.mcp import mcp_http_app  # noqa: PLC0415

    # Host names this server is reached by, besides loopback (MCP's DNS-rebinding check),
    # e.g. MTCOMPUTE_ALLOWED_HOSTS="mt.example.org,mt.example.org:*" behind a proxy.
    hosts = [h.strip() for h in os.environ.get("MTCOMPUTE_ALLOWED_HOSTS", "").split(",")]
    mcp_app, mcp_lifespan = mcp_http_app(
        allowed_hosts=[h for h in hosts if h], max_body_bytes=max_body_bytes
    )

    @contextlib.asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        try:
            async with mcp_lifespan():
                yield
        finally:
            if log_writer is not None:
                await anyio.to_thread.run_sync(log_writer.close)

    tool_path = "/v1/tools/{tool_id}/versions/{version}"
    routes = [
        Route("/", index_endpoint, methods=["GET"]),
        Route("/healthz", healthz, methods=["GET"]),
        Route("/openapi.json", openapi_endpoint, methods=["GET"]),
        Route("/v1/tools", catalog_endpoint, methods=["GET"]),
        Route(tool_path, contract_endpoint, methods=["GET"]),
        Route(tool_path + "/execute", execute_endpoint, methods=["POST"]),
        Route("/tools/{tool_id}/{version}", tool_page_endpoint, methods=["GET"]),
        Route("/mcp", mcp_app, methods=["GET", "POST", "DELETE"]),
    ]
    middleware = [Middleware(BodyDeadlineMiddleware, timeout=body_timeout)]
    if cors_origins:
        middleware.insert(
            0,
            Middleware(
                JsonCORSMiddleware,
                allow_origins=cors_origins,
                allow_methods=CORS_METHODS,
                allow_headers=CORS_HEADERS,
            ),
        )
    app = _App(
        routes=routes,
        middleware=middleware,
        exception_handlers={HTTPException: _http_exception, Exception: _server_error},
        lifespan=lifespan,
    )
    app.access_log = log_writer
    app.state.max_body_bytes = max_body_bytes
    app.state.body_timeout = body_timeout
    app.state.cors_origins = cors_origins
    app.state.openapi_text = dumps(openapi_document())
    return app
