"""The MCP surface: four tools over the one execute path, on streamable HTTP and stdio.

Built on the low-level server of the official MCP Python SDK (``mcp.server.lowlevel.Server``)
so that every tool result is exactly what the other surfaces return:

- ``execute`` runs :func:`mtcompute.execute`; the envelope (``{"result": ...}`` or
  ``{"error": ...}``) is the structured content, its :func:`mtcompute.dumps` text (the bytes
  the HTTP API and ``mtcompute run`` print) is the one text content item, and ``isError`` is
  true exactly when the envelope is an error (CONTRACT-NOTES, "The envelope").
- ``list_catalog`` returns ``{"tools": [{id, version, description, supported_operations,
  unsupported_operations}, ...]}``.
- ``get_contract`` returns a contract document: parsed as structured content, verbatim as
  text; an unknown tool or version is the ``not_found`` envelope with ``isError`` true.
- ``search_catalog`` ranks the tools for a task in words (:mod:`mtcompute.search`, the same
  search as ``GET /v1/tools?q=`` and the search box of ``/``): ``{"query", "results": [{id,
  version, description, score, matched: [{field, text, from?}]}]}``.

Every tool's ``outputSchema`` admits its answer or the error envelope (exactly one of the
two), so that a client that checks structured content on errors too (the TypeScript SDK's,
and so the MCP Inspector) shows the error instead of rejecting it. The ``execute``
description lists each tool version with its first supported operations and its input
fields, so that an agent can choose a tool from ``tools/list`` alone.

A bad argument to one of these tools (a missing ``id``, an unknown argument name) is a tool
error, the ``invalid_input`` envelope with ``isError`` true, so that an agent can read it and
correct the call; only an unknown MCP tool name is a protocol error (JSON-RPC -32602), as the
MCP specification asks.

The tool descriptions and the server instructions are generated from the tool registry and
the contracts, so adding a tool to the catalog updates them.
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
import sys
from collections.abc import Callable, Mapping, Sequence
from functools import cache
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
from mtcompute.catalog import catalog_entries, catalog_entry
from mtcompute.contracts.validate import describe, quote
from mtcompute.core.jsjson import dumps
from mtcompute.envelope import Envelope
from mtcompute.errors import (
    EXECUTE_ERRORS,
    BodyTooLarge,
    InvalidInput,
    MethodNotAllowed,
    MtcomputeError,
    NotFound,
    json_pointer,
)
from mtcompute.search import MAX_QUERY_LENGTH, search_catalog
from mtcompute.server.executor import execute_value
from mtcompute.server.responses import JSON_TYPE

EXECUTE: Final = "execute"
LIST_CATALOG: Final = "list_catalog"
GET_CONTRACT: Final = "get_contract"
SEARCH_CATALOG: Final = "search_catalog"
DEFAULT_SEARCH_LIMIT: Final = 5
MAX_SEARCH_LIMIT: Final = 50

# The codes an execute envelope can carry, from the errors module.
ERROR_CODES: Final = tuple(cls.code for cls in EXECUTE_ERRORS)

# Host headers a loopback server answers: DNS-rebinding protection is on, the SDK's own
# default for a server on 127.0.0.1 plus the port-less forms (Host: localhost).
LOOPBACK_HOSTS: Final = ("127.0.0.1", "127.0.0.1:*", "localhost", "localhost:*", "[::1]", "[::1]:*")

_READ_ONLY = types.ToolAnnotations(
    read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False
)

_ID_SCHEMA: Final = {
    "type": "string",
    "description": "Tool id from the catalog, e.g. chrf-compute.",
}
_VERSION_SCHEMA: Final = {
    "type": "string",
    "description": "Tool version (exact, e.g. 1.0.0); each version has its own contract.",
}
_ERROR_SCHEMA: Final = {
    "type": "object",
    "properties": {
        "code": {"type": "string", "enum": list(ERROR_CODES)},
        "message": {"type": "string"},
        "path": {"type": "string", "description": "JSON Pointer to the offending field."},
    },
    "required": ["code", "message"],
}
_ENVELOPE_SCHEMA: Final = {
    "type": "object",
    "description": 'The envelope: {"result": {...}} on success, {"error": {...}} on failure.',
    "properties": {
        "result": {"type": "object", "description": "The contract's output_schema object."},
        "error": _ERROR_SCHEMA,
    },
    "oneOf": [{"required": ["result"]}, {"required": ["error"]}],
    "additionalProperties": False,
}


_SEARCH_HIT_SCHEMA: Final = {
    "type": "object",
    "properties": {
        "id": {"type": "string"},
        "version": {"type": "string"},
        "description": {"type": "string"},
        "score": {"type": "number"},
        "matched": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "field": {"type": "string"},
                    "text": {"type": "string"},
                    "from": {"type": "string"},
                },
                "required": ["field", "text"],
            },
        },
    },
    "required": ["id", "version", "description", "score", "matched"],
}


def _or_error(description: str, properties: dict[str, Any], required: list[str]) -> dict[str, Any]:
    """An output schema that admits the tool's answer or the error envelope.

    Clients check the structured content against the output schema even when ``isError`` is
    true (the TypeScript SDK's client, and so the MCP Inspector, do; the spec asks structured
    results to conform to the schema), so every tool's schema has the error arm, as
    ``execute``'s envelope schema does: exactly one of ``required`` and ``["error"]``.
    """
    return {
        "type": "object",
        "description": f'{description} On failure: the error envelope {{"error": {{...}}}}.',
        "properties": {**properties, "error": _ERROR_SCHEMA},
        "oneOf": [{"required": required}, {"required": ["error"]}],
    }


# -- descriptions (generated from the registry) --------------------------------------------


def _catalog() -> list[dict[str, Any]]:
    """One entry per tool version, in catalog order (by id, then version)."""
    return [
        {
            **entry.summary(),
            "supported_operations": list(entry.supported_operations),
            "unsupported_operations": list(entry.unsupported_operations),
        }
        for entry in catalog_entries()
    ]


def _catalog_lines() -> str:
    return "\n".join(
        f"- {entry.id}@{entry.version}: {entry.description}" for entry in catalog_entries()
    )


def _input_fields(schema: object) -> str:
    """``a, b (required); c, d`` for an object schema's properties (``any JSON`` if none)."""
    if not isinstance(schema, dict) or not isinstance(schema.get("properties"), dict):
        return "any JSON"
    names = list(schema["properties"])
    required = [name for name in names if name in schema.get("required", [])]
    optional = [name for name in names if name not in required]
    text = f"{', '.join(required)} (required)" if required else "no required field"
    return text + (f"; {', '.join(optional)}" if optional else "")


def _choice_lines() -> str:
    """One line per tool version: what it does, the first three supported operations (the
    pages' "Use when you need to") and its input fields, enough to choose a tool and shape
    its input without a second call."""
    return "\n".join(
        f"- {entry.id}@{entry.version}: {entry.description} "
        f"Use for: {'; '.join(entry.supported_operations[:3])}. "
        f"Input: {_input_fields(entry.document.get('input_schema'))}."
        for entry in catalog_entries()
    )


def _error_codes_text() -> str:
    """``code (what it means), ...`` for every code an execute envelope can carry."""
    return ", ".join(f"{cls.code} ({cls.summary})" for cls in EXECUTE_ERRORS)


def _execute_description() -> str:
    return (
        "Run one catalog tool (an exact machine-translation metric computation) on one input "
        "and return its result. Tools (id@version: what it does, what to use it for, its "
        "input fields):\n"
        f"{_choice_lines()}\n"
        'Arguments: {"id": tool id, "version": tool version, "input": JSON object}. The input '
        "must follow that tool's contract (input_schema, behaviour rules, limits): fetch it "
        "with get_contract for the exact types, bounds and worked examples unless you already "
        "have it. Results are exact and deterministic: the same input always gives the same "
        "output, to the last digit, on every surface (HTTP API, CLI, MCP). "
        'Returns the envelope {"result": {...}} (the fields of the contract\'s output_schema), '
        'or {"error": {"code", "message", "path"}} with isError true, where code is one of: '
        f"{_error_codes_text()}. "
        "Does not tokenize, normalize or fetch text (bleu-tokenize and sacrebleu-score take raw "
        "text where the catalog has them), and does not compute metrics outside the catalog; "
        "list_catalog gives every tool's full supported and unsupported operations."
    )


_LIST_CATALOG_DESCRIPTION: Final = (
    "List every tool in the catalog: id, version, one-line description, all the operations "
    "it supports and those it does not (each unsupported one says what to use instead). Use "
    "it when execute's short list does not settle which tool fits. Takes no arguments; "
    'computes nothing. Returns {"tools": [...]}; a bad argument gives the error envelope '
    '{"error": {"code", "message", "path"}} with isError true.'
)

_GET_CONTRACT_DESCRIPTION: Final = (
    "Fetch the versioned contract of one catalog tool: description, supported and "
    "unsupported operations, semantics (exact behaviour rules), limits, input_schema, "
    "output_schema and worked examples (input and exact output). Read it before calling "
    "execute with that tool. Returns the contract document (the text is the document "
    "verbatim); an unknown id or version gives the error envelope "
    '{"error": {"code": "not_found", "message", "path"}} with isError true, the message '
    "naming the ids or versions that exist. Computes nothing."
)


_SEARCH_CATALOG_DESCRIPTION: Final = (
    "Find the catalog tools for a task described in words (any language the contracts use: "
    "English, Hebrew, German, Spanish; technical terms such as BLEU, chrF++, TER match in any "
    'language), e.g. "why did my sentence get a low BLEU". Ranks the tools by BM25 over '
    "each contract's id, description and supported operations, and over other tools' "
    'unsupported operations that point to it ("use X instead"); a tool\'s own unsupported '
    'operations never raise its rank. Returns {"query", "results": [{"id", '
    '"version" (the newest), "description", "score" (higher is better), '
    '"matched": [{"field", "text", "from"}]}]}, best first, where matched '
    "are the contract lines the query matched (field is id, description, use_when, "
    "supported, unsupported or referred_by, the last with from naming the tool whose line it "
    "is). Arguments: query (1 to 500 characters), limit (1 to 50, default 5). Computes "
    'nothing; a bad argument gives the error envelope {"error": {"code", "message", '
    '"path"}} with isError true.'
)


def _instructions() -> str:
    return (
        "mtcompute: exact, deterministic machine-translation metrics (BLEU and chrF scores "
        "and their components) as versioned tools with machine-readable contracts. BLEU "
        "tools take tokenized text; nothing here tokenizes, normalizes or fetches text.\n"
        "1. Discover: search_catalog {query} ranks the tools for a task in words; "
        "list_catalog gives each tool's id, version, description and its "
        "supported and unsupported operations. Tools:\n"
        f"{_catalog_lines()}\n"
        "2. Read the contract: get_contract {id, version} gives the input schema, behaviour "
        "rules, limits and worked examples.\n"
        '3. Execute: execute {id, version, input} returns {"result": {...}}, or '
        '{"error": {"code", "message", "path"}} with isError true; fix the input field that '
        "path points at and call again. Results are exact and the same on every call."
    )


@cache
def _tool_definitions() -> tuple[types.Tool, ...]:
    return (
        types.Tool(
            name=EXECUTE,
            title="Execute a metric tool",
            description=_execute_description(),
            input_schema={
                "type": "object",
                "properties": {
                    "id": _ID_SCHEMA,
                    "version": _VERSION_SCHEMA,
                    "input": {
                        "type": "object",
                        "description": "The tool's input, as its contract's input_schema says.",
                    },
                },
                "required": ["id", "version", "input"],
                "additionalProperties": False,
            },
            # The output schema is the envelope, error arm included: clients that check
            # structured content on errors too (the TypeScript SDK's) accept error envelopes.
            output_schema=_ENVELOPE_SCHEMA,
            annotations=_READ_ONLY,
        ),
        types.Tool(
            name=LIST_CATALOG,
            title="List the tool catalog",
            description=_LIST_CATALOG_DESCRIPTION,
            input_schema={"type": "object", "properties": {}, "additionalProperties": False},
            output_schema=_or_error(
                "The catalog.",
                {
                    "tools": {
                        "type": "array",
                        "items": {
                            "type": "object",
                            "properties": {
                                "id": {"type": "string"},
                                "version": {"type": "string"},
                                "description": {"type": "string"},
                                "supported_operations": {
                                    "type": "array",
                                    "items": {"type": "string"},
                                },
                                "unsupported_operations": {
                                    "type": "array",
                                    "items": {"type": "string"},
                                },
                            },
                            "required": [
                                "id",
                                "version",
                                "description",
                                "supported_operations",
                                "unsupported_operations",
                            ],
                        },
                    }
                },
                ["tools"],
            ),
            annotations=_READ_ONLY,
        ),
        types.Tool(
            name=GET_CONTRACT,
            title="Get a tool's contract",
            description=_GET_CONTRACT_DESCRIPTION,
            input_schema={
                "type": "object",
                "properties": {"id": _ID_SCHEMA, "version": _VERSION_SCHEMA},
                "required": ["id", "version"],
                "additionalProperties": False,
            },
            output_schema=_or_error(
                "The contract document.",
                {
                    "id": {"type": "string"},
                    "version": {"type": "string"},
                    "description": {"type": "string"},
                    "input_schema": {"type": "object"},
                    "output_schema": {"type": "object"},
                    "examples": {"type": "array"},
                },
                ["id", "version", "input_schema", "output_schema", "examples"],
            ),
            annotations=_READ_ONLY,
        ),
        types.Tool(
            name=SEARCH_CATALOG,
            title="Search the tool catalog",
            description=_SEARCH_CATALOG_DESCRIPTION,
            input_schema={
                "type": "object",
                "properties": {
                    "query": {
                        "type": "string",
                        "minLength": 1,
                        "maxLength": MAX_QUERY_LENGTH,
                        "description": "The task in words, e.g. chrF++ of a translation.",
                    },
                    "limit": {
                        "type": "integer",
                        "minimum": 1,
                        "maximum": MAX_SEARCH_LIMIT,
                        "description": f"Most results to return; omitted means "
                        f"{DEFAULT_SEARCH_LIMIT}.",
                    },
                },
                "required": ["query"],
                "additionalProperties": False,
            },
            output_schema=_or_error(
                "The ranked tools, best first.",
                {
                    "query": {"type": "string"},
                    "results": {"type": "array", "items": _SEARCH_HIT_SCHEMA},
                },
                ["query", "results"],
            ),
            annotations=_READ_ONLY,
        ),
    )


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


async def _call_execute(arguments: dict[str, Any]) -> types.CallToolResult:
    names = ("id", "version", "input")
    bad = _argument_error(EXECUTE, arguments, names, names)
    if bad is not None:
        return _envelope_result(bad)
    return await execute_value(
        arguments["id"], arguments["version"], arguments["input"], _envelope_result
    )


def _call_list_catalog(arguments: dict[str, Any]) -> types.CallToolResult:
    bad = _argument_error(LIST_CATALOG, arguments, (), ())
    if bad is not None:
        return _envelope_result(bad)
    listing = {"tools": _catalog()}
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
    hits = search_catalog(arguments["query"], int(arguments.get("limit", DEFAULT_SEARCH_LIMIT)))
    answer = {"query": arguments["query"], "results": [hit.as_json() for hit in hits]}
    return _answer(answer, dumps(answer), is_error=False)


async def _on_list_tools(
    _ctx: ServerRequestContext[dict[str, Any]], _params: types.PaginatedRequestParams | None
) -> types.ListToolsResult:
    return types.ListToolsResult(tools=list(_tool_definitions()))


async def _on_call_tool(
    _ctx: ServerRequestContext[dict[str, Any]], params: types.CallToolRequestParams
) -> types.CallToolResult:
    arguments = params.arguments or {}
    if params.name == EXECUTE:
        return await _call_execute(arguments)
    if params.name == LIST_CATALOG:
        return _call_list_catalog(arguments)
    if params.name == GET_CONTRACT:
        return _call_get_contract(arguments)
    if params.name == SEARCH_CATALOG:
        return _call_search_catalog(arguments)
    names = ", ".join(tool.name for tool in _tool_definitions())
    raise MCPError(
        types.INVALID_PARAMS, f'Unknown tool "{params.name[:64]}"; the tools are: {names}.'
    )


def tool_titles() -> tuple[tuple[str, str], ...]:
    """(name, title) of each MCP tool, in ``tools/list`` order (the setup page lists them)."""
    return tuple((tool.name, tool.title or tool.name) for tool in _tool_definitions())


def protocol_versions() -> tuple[str, ...]:
    """The MCP protocol versions the server negotiates (the SDK's supported versions)."""
    return tuple(SUPPORTED_PROTOCOL_VERSIONS)


def _input_schema(name: str) -> dict[str, Any] | None:
    for tool in _tool_definitions():
        if tool.name == name:
            return tool.input_schema
    return None


def build_server() -> Server[dict[str, Any]]:
    """A new low-level MCP server with the four tools and the instructions."""
    return Server(
        "mtcompute",
        version=__version__,
        title="mtcompute",
        description="Exact, versioned machine-translation metric tools (BLEU, chrF).",
        instructions=_instructions(),
        get_tool_input_schema=_input_schema,
        on_list_tools=_on_list_tools,
        on_call_tool=_on_call_tool,
    )


# -- transports ----------------------------------------------------------------------------


def mcp_http_app(
    *, allowed_hosts: Sequence[str] = ()
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
        app=build_server(),
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


def body_refusal(error: BodyTooLarge) -> Response:
    """The ``/mcp`` answer to a body over the cap: HTTP 413 with a JSON-RPC error.

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
