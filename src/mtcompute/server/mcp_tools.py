"""The MCP tools' definitions: names, input and output schemas, descriptions and the server
instructions, generated from the tool registry and the contracts (adding a tool to the catalog
updates them). The handlers and transports are :mod:`mtcompute.server.mcp`.
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
from mtcompute.errors import (
    EXECUTE_ERRORS,
)
from mtcompute.search import MAX_QUERY_LENGTH

EXECUTE: Final = "execute"
LIST_CATALOG: Final = "list_catalog"
GET_CONTRACT: Final = "get_contract"
SEARCH_CATALOG: Final = "search_catalog"
DEFAULT_SEARCH_LIMIT: Final = 5
MAX_SEARCH_LIMIT: Final = 50

# The codes an execute envelope can carry, from the errors module.
ERROR_CODES: Final = tuple(cls.code for cls in EXECUTE_ERRORS)

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


_STRING: Final = {"type": "string"}
_SUMMARY_PROPERTIES: Final = {"id": _STRING, "version": _STRING, "description": _STRING}
"""The fields every listing starts with (:meth:`~mtcompute.catalog.CatalogEntry.summary`)."""
_STRINGS: Final = {"type": "array", "items": _STRING}

_SEARCH_HIT_SCHEMA: Final = {
    "type": "object",
    "properties": {
        **_SUMMARY_PROPERTIES,
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
        "alternative": {"type": "boolean"},
        "note": {"type": "string"},
    },
    "required": ["id", "version", "description", "score", "matched", "alternative"],
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


def catalog_listing() -> list[dict[str, Any]]:
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
    "Find the catalog tools for a task described in words (en, de, fr, es, it, pt, ru, zh, "
    'ja, ko or he), e.g. "why did my sentence get a low BLEU". Ranks the tools by BM25 over '
    "each contract's id, description and supported operations, other tools' "
    '"use X instead" lines and multilingual concept terms. Returns {"query", "supported" '
    '(false when no tool does it, e.g. COMET), "reason", "not_done", "metrics" (what the '
    'catalog computes), "results": [{"id", "version" (the newest), "description", "score", '
    '"matched": [{"field", "text", "from"}], "alternative" (true: not a fit), "note"}]}, '
    "fits first. Arguments: query (1 to 500 characters), limit (1 to 50, default 5). Computes "
    'nothing; a bad argument gives the error envelope {"error": {"code", "message", '
    '"path"}} with isError true.'
)


def instructions() -> str:
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
                "properties": {"id": _ID_SCHEMA, "version": _VERSION_SCHEMA},
                "required": ["id", "version"],
                "additionalProperties": False,
            },
            output_schema=_or_error(
                "The contract document.",
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
