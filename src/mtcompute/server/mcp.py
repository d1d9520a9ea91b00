"""The MCP surface: four tools over the one execute path, on streamable HTTP and stdio.

Built on the low-level server of the official MCP Python SDK (``mcp.server.lowlevel.Server``)
so that every tool result is exactly what the other surfaces return:

- ``execute`` runs :func:`mtcompute.execute`; the envelope (``{"result": ...}`` or
  ``{"error": ...}``) is the structured content, its :func:`mtcompute.dumps` text (the bytes
  the HTTP API and ``mtcompute run`` print) is the one text content item, and ``isError`` is
  true exactly when the envelope is an error (docs/decisions.md, "The envelope").
  On the HTTP server, ``execute`` runs on the same pool as the HTTP execute route: its
  input's JSON bytes are classed by cost before any work, a large or heavy one computed in
  the body worker pool in its class's and its client's turn (the client keyed as the
  rate limit keys it), under the same deadlines, stopped when the HTTP client disconnects,
  a full queue or a passed deadline the same ``overloaded`` or ``timeout`` envelope with
  ``isError`` true; a small light one on the worker threads
  (:mod:`mtcompute.server.executor`). ``mtcompute mcp`` on stdio has no server, one client
  and no body worker: it computes on worker threads of its own process.
  On a keyed server (``--api-keys``), ``execute`` over HTTP without a valid key answers the
  ``unauthorized`` envelope with ``isError`` true; everything else (``initialize``,
  ``tools/list``, the three catalog tools) needs no key.
- ``list_catalog`` returns ``{"tools": [{id, version, description, supported_operations,
  unsupported_operations}, ...]}``.
- ``get_contract`` returns a contract document: parsed as structured content, verbatim as
  text; an unknown tool or version is the ``not_found`` envelope with ``isError`` true.
- ``search_catalog`` ranks the tools for a task in words (:mod:`mtcompute.search`, the same
  search as ``GET /v1/tools?q=`` and the search box of ``/``): ``{"query", "supported",
  "reason", "not_done", "metrics", "results": [{id, version, description, score, matched:
  [{field, text, from?}], alternative, note?}]}``.

Every tool's ``outputSchema`` admits its answer or the error envelope (exactly one of the
two), so that a client that checks structured content on errors too (the TypeScript SDK's,
and so the MCP Inspector) shows the error instead of rejecting it. The ``execute``
description lists each tool with its newest version and a short summary, grouped by what it
takes (raw text, tokens or counts), so that an agent can choose a tool from ``tools/list``
alone; the full contract is one ``get_contract`` call away.

A bad argument to one of these tools (a missing ``id``, an unknown argument name) is a tool
error, the ``invalid_input`` envelope with ``isError`` true, so that an agent can read it and
correct the call; only an unknown MCP tool name is a protocol error (JSON-RPC -32602), as the
MCP specification asks.

The tool descriptions, the server description and the instructions are generated from the
catalog (:mod:`mtcompute.catalog_text`, through :mod:`mtcompute.server.mcp_tools`), so adding
a tool to the catalog updates them.
"""

from __future__ import annotations

__all__ = [
    "EXECUTE",
    "GET_CONTRACT",
    "LIST_CATALOG",
    "SEARCH_CATALOG",
    "body_refusal",
    "build_server",
    "mcp_http_app",
    "protocol_versions",
    "refusal",
    "run_stdio",
    "tool_titles",
]

import contextlib
import functools
import json
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

import anyio
import mcp_types as types
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server
from mcp.server.streamable_http_manager import (
    StreamableHTTPASGIApp,
    StreamableHTTPSessionManager,
)
from mcp.server.transport_security import TransportSecuritySettings
from mcp.shared.exceptions import MCPError
from mcp_types.version import SUPPORTED_PROTOCOL_VERSIONS
from starlette.responses import Response
from starlette.types import ASGIApp, Receive, Scope, Send

from mtcompute._version import __version__
from mtcompute.catalog import catalog_entry
from mtcompute.catalog_text import summary_sentence
from mtcompute.contracts.validate import describe, quote
from mtcompute.core.jsjson import dumps, loads
from mtcompute.envelope import Envelope
from mtcompute.errors import (
    InvalidInput,
    MethodNotAllowed,
    MtcomputeError,
    NotFound,
    Overloaded,
    Timeout,
    Unauthorized,
    json_pointer,
)
from mtcompute.search import MAX_QUERY_LENGTH, search_answer
from mtcompute.server.executor import BodyWorker, execute_body, execute_value, in_body_worker
from mtcompute.server.limits import KEY_MISSING, KEY_REQUIRED_MESSAGE, client_of
from mtcompute.server.mcp_tools import (
    DEFAULT_SEARCH_LIMIT,
    EXECUTE,
    GET_CONTRACT,
    LIST_CATALOG,
    MAX_SEARCH_LIMIT,
    SEARCH_CATALOG,
    catalog_listing,
    instructions,
    tool_definitions,
)
from mtcompute.server.responses import JSON_TYPE
from mtcompute.tools._cost import request_cost

# Host headers a loopback server answers: DNS-rebinding protection is on, the SDK's own
# default for a server on 127.0.0.1 plus the port-less forms (Host: localhost).
LOOPBACK_HOSTS: Final = ("127.0.0.1", "127.0.0.1:*", "localhost", "localhost:*", "[::1]", "[::1]:*")


# -- tool calls ----------------------------------------------------------------------------


def _answer(structured: dict[str, Any], text: str, *, is_error: bool) -> types.CallToolResult:
    return types.CallToolResult(
        content=[types.TextContent(text=text)],
        structured_content=structured,
        is_error=is_error,
    )


def _envelope_result(envelope: Envelope) -> types.CallToolResult:
    """The envelope as structured content, its exact JSON text as the text content."""
    return _answer(envelope, envelope.json_text(), is_error=envelope.is_error)


def _argument_error(
    tool: str, arguments: dict[str, Any], required: Sequence[str], allowed: Sequence[str]
) -> Envelope | None:
    """The ``invalid_input`` envelope for the first bad argument of ``tool``, else ``None``.

    Unknown arguments first, then missing ones, then ``id``/``version`` that are not strings
    (the order the tools' own validation uses). ``path`` points at the argument.
    """
    fault: InvalidInput | None = None
    unknown = [name for name in arguments if name not in allowed]
    missing = [name for name in required if name not in arguments]
    wrong = [
        name
        for name in ("id", "version")
        if name in allowed and name in arguments and not isinstance(arguments[name], str)
    ]
    if unknown:
        expected = f"only {', '.join(allowed)}" if allowed else "no arguments"
        fault = InvalidInput(
            f"Unknown argument {quote(unknown[0])} of {tool}; expected {expected}.",
            json_pointer(unknown[0]),
        )
    elif missing:
        fault = InvalidInput(
            f'Missing required argument "{missing[0]}" of {tool}.', json_pointer(missing[0])
        )
    elif wrong:
        fault = InvalidInput(
            f'Expected the argument "{wrong[0]}" of {tool} to be a string, '
            f"got {describe(arguments[wrong[0]])}.",
            json_pointer(wrong[0]),
        )
    return None if fault is None else Envelope.of_error(fault)


def _body_of(value: object) -> bytes | None:
    """The JSON bytes of a tool input, as the MCP client sent it: every number written
    exactly (not in JavaScript's form, which would round large integers), so the body worker
    reads what an HTTP client sending the same JSON would send; None when it has no JSON
    text (NaN, an infinity, a lone surrogate): then it runs in this process."""
    try:
        text = json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
        return text.encode("utf-8")
    except (TypeError, ValueError):  # ValueError covers UnicodeEncodeError
        return None


def _bytes_result(status: int, data: bytes) -> types.CallToolResult:
    """The tool result of an envelope the body worker wrote (its status and JSON bytes)."""
    envelope: dict[str, Any] = loads(data)  # type: ignore[assignment]  # an object
    return _answer(envelope, data.decode("utf-8"), is_error=status != 200)


async def _call_execute(
    arguments: dict[str, Any],
    worker: BodyWorker | None = None,
    client: str = "",
    receive: Receive | None = None,
) -> types.CallToolResult:
    names = ("id", "version", "input")
    bad = _argument_error(EXECUTE, arguments, names, names)
    if bad is not None:
        return _envelope_result(bad)
    tool_id, version, value = arguments["id"], arguments["version"], arguments["input"]
    body = None if worker is None else _body_of(value)
    cost = None if body is None else request_cost(tool_id, body)
    try:
        # Large or heavy: the same pool, classes, turns and deadlines as HTTP.
        if (
            worker is not None
            and body is not None
            and cost is not None
            and in_body_worker(body, cost)
        ):
            answer = await execute_body(worker, tool_id, version, body, receive, client, cost)
            return _gone() if answer is None else _bytes_result(*answer)
        result = await execute_value(
            tool_id, version, value, _envelope_result, receive=receive, cost=cost
        )
    except (Overloaded, Timeout) as exc:  # a full queue, a deadline passed
        return _envelope_result(Envelope.of_error(exc))
    return _gone() if result is None else result


def _call_list_catalog(arguments: dict[str, Any]) -> types.CallToolResult:
    bad = _argument_error(LIST_CATALOG, arguments, (), ())
    if bad is not None:
        return _envelope_result(bad)
    listing = {"tools": catalog_listing()}
    return _answer(listing, dumps(listing), is_error=False)


def _call_get_contract(arguments: dict[str, Any]) -> types.CallToolResult:
    bad = _argument_error(GET_CONTRACT, arguments, ("id", "version"), ("id", "version"))
    if bad is not None:
        return _envelope_result(bad)
    try:
        entry = catalog_entry(arguments["id"], arguments["version"])
    except NotFound as exc:
        return _envelope_result(Envelope.of_error(exc))
    return _answer(dict(entry.document), entry.text, is_error=False)


def _search_argument_error(arguments: dict[str, Any]) -> Envelope | None:
    """The ``invalid_input`` envelope for a bad ``query`` or ``limit``, else ``None``."""
    query, limit = arguments["query"], arguments.get("limit", DEFAULT_SEARCH_LIMIT)
    if isinstance(limit, float) and limit.is_integer():
        limit = int(limit)  # 5.0 is 5, as the contracts' integer fields take it
    fault: InvalidInput | None = None
    if not isinstance(query, str):
        fault = InvalidInput(
            f'Expected the argument "query" of {SEARCH_CATALOG} to be a string, '
            f"got {describe(query)}.",
            json_pointer("query"),
        )
    elif not 1 <= len(query) <= MAX_QUERY_LENGTH:
        fault = InvalidInput(
            f'Expected the argument "query" of {SEARCH_CATALOG} to have 1 to '
            f"{MAX_QUERY_LENGTH} characters, got {len(query)}.",
            json_pointer("query"),
        )
    elif isinstance(limit, bool) or not isinstance(limit, int):
        fault = InvalidInput(
            f'Expected the argument "limit" of {SEARCH_CATALOG} to be an integer, '
            f"got {describe(limit)}.",
            json_pointer("limit"),
        )
    elif not 1 <= limit <= MAX_SEARCH_LIMIT:
        fault = InvalidInput(
            f'Expected the argument "limit" of {SEARCH_CATALOG} to be 1 to '
            f"{MAX_SEARCH_LIMIT}, got {limit}.",
            json_pointer("limit"),
        )
    return None if fault is None else Envelope.of_error(fault)


def _call_search_catalog(arguments: dict[str, Any]) -> types.CallToolResult:
    bad = _argument_error(SEARCH_CATALOG, arguments, ("query",), ("query", "limit"))
    if bad is None:
        bad = _search_argument_error(arguments)
    if bad is not None:
        return _envelope_result(bad)
    limit = int(arguments.get("limit", DEFAULT_SEARCH_LIMIT))
    answer = search_answer(arguments["query"], limit).as_json()
    return _answer(answer, dumps(answer), is_error=False)


async def _on_list_tools(
    _ctx: ServerRequestContext[dict[str, Any]], _params: types.PaginatedRequestParams | None
) -> types.ListToolsResult:
    return types.ListToolsResult(tools=list(tool_definitions()))


def _gone() -> types.CallToolResult:
    """The result of a call whose HTTP client left before its answer (nobody reads it)."""
    return _envelope_result(Envelope.of_error(Overloaded("the client left before its answer")))


def _receive(ctx: ServerRequestContext[dict[str, Any]]) -> Receive | None:
    """The ASGI ``receive`` of the HTTP request carrying this call, its body read (it says
    when the client disconnects; the SDK's JSON-response transport does not watch it while
    the call runs); None on stdio."""
    receive = getattr(ctx.request, "receive", None)
    return receive if callable(receive) else None


def _client(ctx: ServerRequestContext[dict[str, Any]]) -> str:
    """The client of the HTTP request carrying this call, as the rate limit keys it
    (:func:`~mtcompute.server.limits.client_of`); "" on stdio."""
    scope = getattr(ctx.request, "scope", None)
    return client_of(scope) if isinstance(scope, Mapping) else ""


def _key_missing(ctx: ServerRequestContext[dict[str, Any]]) -> bool:
    """Whether the HTTP request carrying this call was marked as keyless on a keyed server
    (:class:`~mtcompute.server.middleware.LimitsMiddleware`); never on stdio."""
    scope = getattr(ctx.request, "scope", None)
    return isinstance(scope, Mapping) and scope.get(KEY_MISSING) is True


async def _on_call_tool(
    worker: BodyWorker | None,
    ctx: ServerRequestContext[dict[str, Any]],
    params: types.CallToolRequestParams,
) -> types.CallToolResult:
    arguments = params.arguments or {}
    if params.name == EXECUTE:
        if _key_missing(ctx):  # a keyed server: discovery is public, execute needs a key
            return _envelope_result(Envelope.of_error(Unauthorized(KEY_REQUIRED_MESSAGE)))
        return await _call_execute(arguments, worker, _client(ctx), _receive(ctx))
    if params.name == LIST_CATALOG:
        return _call_list_catalog(arguments)
    if params.name == GET_CONTRACT:
        return _call_get_contract(arguments)
    if params.name == SEARCH_CATALOG:
        return _call_search_catalog(arguments)
    names = ", ".join(tool.name for tool in tool_definitions())
    raise MCPError(
        types.INVALID_PARAMS, f'Unknown tool "{params.name[:64]}"; the tools are: {names}.'
    )


def tool_titles() -> tuple[tuple[str, str], ...]:
    """(name, title) of each MCP tool, in ``tools/list`` order (the setup page lists them)."""
    return tuple((tool.name, tool.title or tool.name) for tool in tool_definitions())


def protocol_versions() -> tuple[str, ...]:
    """The MCP protocol versions the server negotiates (the SDK's supported versions)."""
    return tuple(SUPPORTED_PROTOCOL_VERSIONS)


def _input_schema(name: str) -> dict[str, Any] | None:
    for tool in tool_definitions():
        if tool.name == name:
            return tool.input_schema
    return None


def build_server(body_worker: BodyWorker | None = None) -> Server[dict[str, Any]]:
    """A new low-level MCP server with the four tools and the instructions. With
    ``body_worker`` (the HTTP server's), ``execute`` runs as the HTTP execute route does: a
    large or heavy input in that worker's process, in its class's and client's turn, under
    the same deadlines; without it (``mtcompute mcp`` on stdio: no server, one client), on
    worker threads of this process."""
    return Server(
        "mtcompute",
        version=__version__,
        title="mtcompute",
        description=summary_sentence(short=True),
        instructions=instructions(),
        get_tool_input_schema=_input_schema,
        on_list_tools=_on_list_tools,
        on_call_tool=functools.partial(_on_call_tool, body_worker),
    )


# -- transports ----------------------------------------------------------------------------


def mcp_http_app(
    *, allowed_hosts: Sequence[str] = (), body_worker: BodyWorker | None = None
) -> tuple[ASGIApp, Callable[[], contextlib.AbstractAsyncContextManager[None]]]:
    """The MCP streamable-HTTP endpoint as an ASGI app, and the lifespan the host must enter.

    Stateless with JSON responses: every POST gets a fresh transport and one
    ``application/json`` answer, no ``Mcp-Session-Id`` is issued and nothing is kept between
    requests, so any worker process can answer any request (the service runs several). The
    2026-07-28 protocol (per-request envelope, ``server/discover``) is served as well: the
    SDK routes it by the ``MCP-Protocol-Version`` header.

    Mount the app with a plain route so that exactly ``/mcp`` answers (a ``Mount("/mcp")``
    only matches ``/mcp/...`` and Starlette would redirect ``/mcp`` to ``/mcp/``)::

        mcp_app, mcp_lifespan = mcp_http_app()
        Route("/mcp", mcp_app, methods=["GET", "POST", "DELETE"])

    and enter ``mcp_lifespan()`` in the host app's lifespan; it runs the session manager's
    task group, and can be entered once only (call :func:`mcp_http_app` once per app).

    The host caps the request body: :func:`mtcompute.server.app.create_app` does, with its
    :class:`~mtcompute.server.middleware.BodyCapMiddleware` answering :func:`body_refusal`
    on ``/mcp``. The SDK's own cap is set out of reach, so that its plain-text 413 never
    answers first (the SDK reads the whole body before it checks anything else, so the
    service's cap refuses an over-cap body before the SDK's other checks, as on every route).

    DNS-rebinding protection is on: the Host header must be a loopback name (``127.0.0.1``,
    ``localhost``, ``[::1]``, any port) or one of ``allowed_hosts`` (``"example.org"``,
    ``"example.org:*"`` for any port); an Origin header, when a browser sends one, must be
    ``http://`` or ``https://`` one of those hosts. GET and DELETE get 405 with
    ``Allow: POST``: there is no session to end and no server-initiated stream to open.
    """
    hosts = [*LOOPBACK_HOSTS, *allowed_hosts]
    manager = StreamableHTTPSessionManager(
        app=build_server(body_worker),
        json_response=True,
        stateless=True,
        security_settings=TransportSecuritySettings(
            enable_dns_rebinding_protection=True,
            allowed_hosts=hosts,
            allowed_origins=[
                f"{scheme}://{host}" for host in hosts for scheme in ("http", "https")
            ],
        ),
        max_request_body_size=sys.maxsize,
    )
    return _PostOnly(StreamableHTTPASGIApp(manager)), manager.run


def body_refusal(error: MtcomputeError) -> Response:
    """The ``/mcp`` answer to a body over the cap: HTTP 413 with a JSON-RPC error (and to a
    body in a transfer coding the service does not take: 400, the same shape).

    The SDK's own cap answers in plain text, which its own client (and any MCP client, which
    parses JSON-RPC) can only report as "Server returned an error response". An MCP client
    reads a JSON-RPC error body at any 4xx status (the SDK client raises it as ``MCPError``
    with the code, message and data), so the refusal is one: code -32600 Invalid Request
    (what the SDK answers for the other requests its transport refuses), ``id`` null since
    the body, and so the request id, is never read (JSON-RPC 2.0 §5), the message the tool
    routes give, and ``data`` the service's own envelope (``limit_exceeded``, path ""). The
    status stays 413, as on the tool routes: an HTTP-level refusal of the body, not of a
    parsed request.
    """
    return refusal(error)


def refusal(error: MtcomputeError, headers: Mapping[str, str] | None = None) -> Response:
    """An HTTP-level refusal on ``/mcp`` (body too large, rate limited, no API key): the
    error's HTTP status, with a JSON-RPC error (-32600, ``id`` null) whose ``data`` is the
    service's envelope, as :func:`body_refusal` describes."""
    reply = {
        "jsonrpc": "2.0",
        "id": None,
        "error": {
            "code": types.INVALID_REQUEST,
            "message": error.message,
            "data": Envelope.of_error(error),
        },
    }
    return Response(dumps(reply), error.http_status, headers, media_type=JSON_TYPE)


class _PostOnly:
    """Answer anything but POST with 405 (``Allow: POST``), as the modern-era SDK path does.

    A stateless server has no session for DELETE to end and pushes nothing on a standalone
    GET stream; the SDK would hold such a GET open, idle, until shutdown, so it is refused
    (the spec allows 405 for a server that offers no GET stream).
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] != "POST":
            refusal = Response(status_code=MethodNotAllowed.http_status, headers={"Allow": "POST"})
            await refusal(scope, receive, send)
            return
        await self.app(scope, receive, send)


async def _serve_stdio() -> None:
    server = build_server()
    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())


def run_stdio() -> None:
    """Serve MCP on stdin/stdout until the client closes stdin (``mtcompute mcp``)."""
    with contextlib.suppress(KeyboardInterrupt):
        anyio.run(_serve_stdio)
