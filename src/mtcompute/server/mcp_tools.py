"""The MCP tools' definitions: names, input and output schemas, descriptions and the server
instructions, generated from the catalog (:mod:`mtcompute.catalog_text`: adding a tool to the
catalog updates them). The handlers and transports are :mod:`mtcompute.server.mcp`.

``tools/list`` is kept lean (docs/mcp.md gives its size): one screen of descriptions, short
field descriptions, and the long text left in the contracts, which ``get_contract`` returns.
"""

from __future__ import annotations

__all__ = [
    "DEFAULT_SEARCH_LIMIT",
    "ERROR_CODES",
    "EXECUTE",
    "GET_CONTRACT",
    "LIST_CATALOG",
    "MAX_SEARCH_LIMIT",
    "SEARCH_CATALOG",
    "catalog_listing",
    "instructions",
    "tool_definitions",
]


from functools import cache
from typing import Any, Final

import mcp_types as types

from mtcompute.catalog import catalog_entries
from mtcompute.catalog_text import group_lines, raw_text_advice, summary_sentence
from mtcompute.errors import (
    EXECUTE_ERRORS,
    InternalError,
    InvalidInput,
    MtcomputeError,
    NotFound,
    Overloaded,
    Timeout,
)
from mtcompute.search import MAX_QUERY_LENGTH

EXECUTE: Final = "execute"
LIST_CATALOG: Final = "list_catalog"
GET_CONTRACT: Final = "get_contract"
SEARCH_CATALOG: Final = "search_catalog"
DEFAULT_SEARCH_LIMIT: Final = 5
MAX_SEARCH_LIMIT: Final = 50

# The codes an execute envelope can carry, from the errors module: the tools' and a bug's,
# then the server's refusals of work it cannot take or finish (server.executor).
_REFUSALS: tuple[type[MtcomputeError], ...] = (Overloaded, Timeout)
ERROR_CODES: Final = tuple(cls.code for cls in (*EXECUTE_ERRORS, *_REFUSALS))

_READ_ONLY = types.ToolAnnotations(
    read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False
)

_ID_SCHEMA: Final = {
    "type": "string",
    "description": "Tool id, e.g. sacrebleu-score.",
}
_VERSION_SCHEMA: Final = {
    "type": "string",
    "description": "Exact version, e.g. 1.1.0.",
}


def _error_schema(codes: tuple[str, ...]) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {
            "code": {"type": "string", "enum": list(codes)},
            "message": {"type": "string"},
            "path": {"type": "string"},
            "faults": {"type": "array"},  # each a {"code", "message", "path"}
        },
        "required": ["code", "message"],
    }


# The discovery tools' errors (an argument refused, an unknown tool; they compute nothing,
# so no contract limit, no unsupported variant and no worker refuses them), then execute's.
_DISCOVERY_ERRORS: tuple[type[MtcomputeError], ...] = (InvalidInput, NotFound, InternalError)
_ERROR_SCHEMA: Final = _error_schema(tuple(cls.code for cls in _DISCOVERY_ERRORS))
_ENVELOPE_SCHEMA: Final = {
    "type": "object",
    "properties": {
        "result": {"type": "object"},
        "error": _error_schema(ERROR_CODES),
    },
    "oneOf": [{"required": ["result"]}, {"required": ["error"]}],
    "additionalProperties": False,
}


_STRING: Final = {"type": "string"}
_SUMMARY_PROPERTIES: Final = {"id": _STRING, "version": _STRING, "description": _STRING}
"""The fields every listing starts with (:meth:`~mtcompute.catalog.CatalogEntry.summary`)."""
_STRINGS: Final = {"type": "array", "items": _STRING}

_SEARCH_HIT_SCHEMA: Final = {
    "type": "object",
    "properties": {
        **_SUMMARY_PROPERTIES,
        "score": {"type": "number"},
        # the matched lines, each {"field", "text", "from"?}: docs/search.md
        "matched": {"type": "array", "items": {"type": "object"}},
        "alternative": {"type": "boolean"},
        "note": {"type": "string"},
    },
    "required": ["id", "version", "description", "score", "matched", "alternative"],
}


def _or_error(properties: dict[str, Any], required: list[str]) -> dict[str, Any]:
    """An output schema that admits the tool's answer or the error envelope.

    Clients check the structured content against the output schema even when ``isError`` is
    true (the TypeScript SDK's client, and so the MCP Inspector, do; the spec asks structured
    results to conform to the schema), so every tool's schema has the error arm, as
    ``execute``'s envelope schema does: exactly one of ``required`` and ``["error"]``. No
    description: the tool's own says what it answers (tools/list stays small).
    """
    return {
        "type": "object",
        "properties": {**properties, "error": _ERROR_SCHEMA},
        "oneOf": [{"required": required}, {"required": ["error"]}],
    }


# -- descriptions (generated from the catalog) ---------------------------------------------


def catalog_listing() -> list[dict[str, Any]]:
    """One entry per tool version, in catalog order (by id, then version), with its status
    (``current``, or ``superseded`` and the version that supersedes it), as ``/v1/tools``."""
    return [
        {
            **entry.summary(),
            **entry.version_status(),
            "supported_operations": list(entry.supported_operations),
            "unsupported_operations": list(entry.unsupported_operations),
        }
        for entry in catalog_entries()
    ]


def _execute_description() -> str:
    """Short enough for one screen: each tool's id, newest version and what it gives, grouped
    by what it takes, and where the full contract is; the long text stays in the contracts."""
    tools = "\n".join(f"- {line}" for line in group_lines(labels=False))
    return (
        f"Run a catalog tool; exact, deterministic. Tools by input:\n{tools}\n"
        f"{raw_text_advice()} Full contract (input schema, examples): get_contract."
    )


_LIST_CATALOG_DESCRIPTION: Final = (
    "Every tool version: what it supports, what not, and what to use instead."
)

_GET_CONTRACT_DESCRIPTION: Final = (
    "A tool version's contract: schemas, rules, limits, examples. Read before execute."
)


_SEARCH_CATALOG_DESCRIPTION: Final = (
    "The tools for a task in words (any of 11 languages), best first; "
    '"supported" is false when no tool does it (e.g. COMET), with the reason.'
)


def instructions() -> str:
    """The server instructions: what the catalog is, every tool by what it takes, which one
    raw sentences go to, and the three steps of a call."""
    groups = "\n".join(f"- {line}" for line in group_lines(summaries=False))
    return (
        f"mtcompute: {summary_sentence()} Each tool version has a machine-readable contract.\n"
        f"Tools by what they take (execute's description says what each gives):\n{groups}\n"
        f"{raw_text_advice()}\n"
        "1. Discover: search_catalog {query} ranks the tools for a task in words; "
        "list_catalog gives every tool's supported and unsupported operations.\n"
        "2. Read the contract: get_contract {id, version} gives the input schema, rules, "
        "limits and examples.\n"
        '3. Execute: execute {id, version, input} returns {"result": {...}}, or '
        '{"error": {"code", "message", "path"}} with isError true; fix the field at path and '
        "call again."
    )


@cache
def tool_definitions() -> tuple[types.Tool, ...]:
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
                        "description": "Per the contract's input_schema.",
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
                {
                    "tools": {
                        "type": "array",
                        "items": {
                            "type": "object",
                            "properties": {
                                **_SUMMARY_PROPERTIES,
                                "supported_operations": _STRINGS,
                                "unsupported_operations": _STRINGS,
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
                # execute describes id and version; not repeated here
                "properties": {"id": _STRING, "version": _STRING},
                "required": ["id", "version"],
                "additionalProperties": False,
            },
            output_schema=_or_error(
                {
                    **_SUMMARY_PROPERTIES,
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
                        "description": "The task in words.",
                    },
                    "limit": {
                        "type": "integer",
                        "minimum": 1,
                        "maximum": MAX_SEARCH_LIMIT,
                        "description": f"Default {DEFAULT_SEARCH_LIMIT}.",
                    },
                },
                "required": ["query"],
                "additionalProperties": False,
            },
            output_schema=_or_error(
                {
                    "query": {"type": "string"},
                    "supported": {"type": "boolean"},
                    "reason": {"anyOf": [{"type": "string"}, {"type": "null"}]},
                    "not_done": {"type": "array", "items": {"type": "object"}},
                    "metrics": _STRINGS,
                    "results": {"type": "array", "items": _SEARCH_HIT_SCHEMA},
                },
                ["query", "supported", "reason", "not_done", "metrics", "results"],
            ),
            annotations=_READ_ONLY,
        ),
    )
