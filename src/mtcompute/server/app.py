"""The ASGI application: HTTP API, MCP (streamable HTTP at ``/mcp``) and catalog pages.

Every route is a thin adapter over the one execute path (:func:`mtcompute.execute`): read
the body (bounded), parse it, execute off the event loop, render the envelope with
:func:`mtcompute.dumps`. The bytes are exactly what ``mtcompute run`` prints. Every error,
including unknown paths and methods, is a JSON envelope, never HTML.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import AsyncIterator
from typing import Any

import anyio.to_thread
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

from mtcompute import dumps, execute
from mtcompute.contracts import contract, contract_text
from mtcompute.core.jsjson import JsonError, loads
from mtcompute.errors import ERRORS_BY_CODE, LimitExceeded, MtcomputeError, NotFound
from mtcompute.server.openapi import openapi_document
from mtcompute.tools import get_tool, list_tools

__all__ = ["DEFAULT_MAX_BODY_BYTES", "create_app"]

DEFAULT_MAX_BODY_BYTES = 1 << 20  # 1 MiB; MTCOMPUTE_MAX_BODY_BYTES overrides
JSON_TYPE = "application/json"


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


def create_app(max_body_bytes: int | None = None) -> Starlette:
    """The application. ``max_body_bytes`` defaults to ``MTCOMPUTE_MAX_BODY_BYTES`` or 1 MiB."""
    if max_body_bytes is None:
        max_body_bytes = int(os.environ.get("MTCOMPUTE_MAX_BODY_BYTES", DEFAULT_MAX_BODY_BYTES))
    from mtcompute.server.mcp import mcp_http_app  # noqa: PLC0415

    # Host names this server is reached by, besides loopback (MCP's DNS-rebinding check),
    # e.g. MTCOMPUTE_ALLOWED_HOSTS="mt.example.org,mt.example.org:*" behind a proxy.
    hosts = [h.strip() for h in os.environ.get("MTCOMPUTE_ALLOWED_HOSTS", "").split(",")]
    mcp_app, mcp_lifespan = mcp_http_app(
        allowed_hosts=[h for h in hosts if h], max_body_bytes=max_body_bytes
    )

    @contextlib.asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        async with mcp_lifespan():
            yield

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
    app = Starlette(
        routes=routes,
        exception_handlers={HTTPException: _http_exception, Exception: _server_error},
        lifespan=lifespan,
    )
    app.state.max_body_bytes = max_body_bytes
    app.state.openapi_text = dumps(openapi_document())
    return app
