"""The OpenAPI 3.1 document, built from the shipped contracts.

Each tool version gets its own execute operation, with the contract's input schema as the
request body and its output schema inside the success envelope. OpenAPI 3.1 uses JSON Schema
2020-12, so the contract schemas go in as they are.

Each operation lists every status it can answer, and no other (``tests/test_openapi_errors.py``
provokes each one against a running server). Every error answer is the envelope, with its
``code`` pinned per status:

- every operation: 405 for another method on its path (with ``Allow``), 408 and 431 from the
  HTTP layer of ``mtcompute serve`` (request headers not in within the header deadline, or
  over the header cap), 500 on a bug;
- execute operations also: 400, 413 (a contract limit, or the body cap, refused before the
  body is read), 415, 408 for a body not in within the body deadline, and 422 for the tools
  whose contract names an unsupported variant as ``unsupported_input``;
- ``/healthz`` also: 503 with ``{"status": "failing"}``;
- ``/readyz`` also: 503 with the ``internal_error`` envelope (not ready, and why).

The header 408 and 431 come from the HTTP protocol of ``mtcompute serve``
(:mod:`mtcompute.server.protocol`), not from the application; they are documented because a
client gets them for a request to the operation, as the same envelope, and cannot tell which
layer answered (under a plain ASGI server they just never occur). A request that is not
well-formed HTTP (400 from the same layer) names no operation, so that 400 is not listed.
OpenAPI has no responses per path, so 405, which the path's other methods answer, is listed on
its operations. 404 is not listed: every documented path is a registered tool version, or
(``/v1/tools/{id}``, the versions of an id) a registered tool id.
"""

from __future__ import annotations

__all__ = ["openapi_document"]

from collections.abc import Mapping
from typing import Any

from mtcompute._version import __version__
from mtcompute.catalog import CURRENT, SUPERSEDED, CatalogEntry, catalog_entries, tool_entries
from mtcompute.catalog_text import group_lines, raw_text_advice, summary_sentence
from mtcompute.contracts.validate import MAX_FAULTS
from mtcompute.errors import (
    ERROR_CODES,
    HeadersTooLarge,
    InternalError,
    InvalidInput,
    LimitExceeded,
    MethodNotAllowed,
    MtcomputeError,
    Overloaded,
    RequestTimeout,
    Timeout,
    UnsupportedInput,
    UnsupportedMediaType,
)
from mtcompute.search import MAX_QUERY_LENGTH
from mtcompute.server.executor import NotReady

# The error answers, each an error class (its status and code) with what it means there: for
# every operation, for the execute operations only (a later entry of the same status
# replaces an earlier one), and for those whose contract names an unsupported variant.
_EVERY_OPERATION: tuple[tuple[type[MtcomputeError], str], ...] = (
    (
        MethodNotAllowed,
        "Another method on this path; the Allow header names the methods it has.",
    ),
    (
        RequestTimeout,
        "The request headers did not arrive within the header deadline "
        "(MTCOMPUTE_HEADER_TIMEOUT); the connection is closed.",
    ),
    (
        HeadersTooLarge,
        "The request line and headers are over the header cap (MTCOMPUTE_MAX_HEADER_BYTES); "
        "the connection is closed.",
    ),
    (InternalError, "A bug in the service; please report the request."),
)
_EXECUTE: tuple[tuple[type[MtcomputeError], str], ...] = (
    (InvalidInput, "The input breaks the schema or a rule, or the body is not JSON."),
    (
        RequestTimeout,
        "The request headers or body did not arrive within their deadline "
        "(MTCOMPUTE_HEADER_TIMEOUT, MTCOMPUTE_BODY_TIMEOUT); the connection is closed.",
    ),
    (
        LimitExceeded,
        "The input is over a contract limit, or the body is over the body cap "
        "(MTCOMPUTE_MAX_BODY_BYTES), refused before it is read.",
    ),
    (UnsupportedMediaType, "The Content-Type is not application/json."),
    (
        Overloaded,
        "Too many requests wait for a worker (MTCOMPUTE_MAX_QUEUE), refused before any work; "
        "retry after the Retry-After seconds. Also internal_error: the body worker process "
        "cannot be started.",
    ),
    (
        Timeout,
        "The work did not finish within the request's deadline (MTCOMPUTE_DEADLINE).",
    ),
)
_ALSO: dict[str, tuple[str, ...]] = {str(Overloaded.http_status): (NotReady.code,)}
"""More codes an execute operation's status may carry: a large body's worker process that
cannot be started is 503 ``internal_error``."""
_UNSUPPORTED: tuple[tuple[type[MtcomputeError], str], ...] = (
    (UnsupportedInput, "The input asks for something the contract does not support."),
)


def _statuses(
    *answers: tuple[type[MtcomputeError], str], also: Mapping[str, tuple[str, ...]] | None = None
) -> dict[str, tuple[tuple[str, ...], str]]:
    """``{status: (codes, description)}`` of the error answers, each status once, with the
    codes ``also`` adds to a status."""
    also = also or {}
    return {
        str(cls.http_status): ((cls.code, *also.get(str(cls.http_status), ())), text)
        for cls, text in answers
    }


def _error_envelope() -> dict[str, Any]:
    properties: dict[str, Any] = {
        "code": {"type": "string", "enum": list(ERROR_CODES)},
        "message": {"type": "string"},
        "path": {"type": "string", "description": "JSON Pointer to the field."},
    }
    fault = {
        "type": "object",
        "additionalProperties": False,
        "required": ["code", "message", "path"],
        "properties": properties,
    }
    faults = {
        "type": "array",
        "minItems": 2,
        "maxItems": MAX_FAULTS,
        "items": fault,
        "description": "Every fault of an input with several, this error first.",
    }
    error = {**fault, "properties": {**properties, "faults": faults}}
    return {
        "type": "object",
        "additionalProperties": False,
        "required": ["error"],
        "properties": {"error": error},
    }


def _json_content(schema: dict[str, Any]) -> dict[str, Any]:
    return {"application/json": {"schema": schema}}


def _health(status: str) -> dict[str, Any]:
    return {
        "type": "object",
        "required": ["status"],
        "properties": {"status": {"type": "string", "const": status}},
    }


def _check(
    operation_id: str, summary: str, ok: tuple[str, str], errors: dict[str, Any]
) -> dict[str, Any]:
    """A health check's path item: GET, 200 with ``{"status": ok[0]}`` (described ``ok[1]``),
    then ``errors``."""
    status, description = ok
    content = _json_content(_health(status))
    return {
        "get": {
            "operationId": operation_id,
            "summary": summary,
            "responses": {"200": {"description": description, "content": content}, **errors},
        }
    }


def _error_responses(statuses: Mapping[str, tuple[tuple[str, ...], str]]) -> dict[str, Any]:
    """The error responses, in status order: the envelope with its code (or codes) pinned."""
    responses: dict[str, Any] = {}
    for status, (codes, text) in sorted(statuses.items()):
        pin = {"const": codes[0]} if len(codes) == 1 else {"enum": list(codes)}
        schema = {
            "allOf": [{"$ref": "#/components/schemas/ErrorEnvelope"}],
            "properties": {"error": {"properties": {"code": pin}}},
        }
        response: dict[str, Any] = {
            "description": f"{codes[0]}: {text}",
            "content": _json_content(schema),
        }
        if status == str(MethodNotAllowed.http_status):
            response["headers"] = {
                "Allow": {
                    "description": "The methods this path has.",
                    "required": True,
                    "schema": {"type": "string"},
                }
            }
        if status == str(Overloaded.http_status) and Overloaded.code in codes:
            response["headers"] = {
                "Retry-After": {
                    "description": "Seconds to wait before retrying (with overloaded).",
                    "required": False,
                    "schema": {"type": "string"},
                }
            }
        responses[status] = response
    return responses


def _schema_name(tool_id: str, version: str, kind: str) -> str:
    words = "".join(part.capitalize() for part in tool_id.split("-"))
    return f"{words}V{version.replace('.', '_')}{kind}"


def _operation_id(verb: str, tool_id: str, version: str) -> str:
    return f"{verb}_{tool_id.replace('-', '_')}_{version.replace('.', '_')}"


def _names_unsupported_input(doc: Mapping[str, Any]) -> bool:
    """The contract lists an unsupported operation answered with ``unsupported_input``."""
    return any(UnsupportedInput.code in text for text in doc["unsupported_operations"])


def _description() -> str:
    """The API's description, generated from the catalog: what it is, every tool by what it
    takes (as a Markdown list), which tools raw sentences go to."""
    tools = "\n".join(f"- {line}" for line in group_lines())
    return (
        f"{summary_sentence()} Each tool is a contract; results are bit for bit what the "
        f"contract defines.\n\nTools by what they take:\n\n{tools}\n\n{raw_text_advice()}"
    )


_VERSION_ITEM: dict[str, Any] = {
    "type": "object",
    "required": ["id", "version", "description", "status", "links"],
    "properties": {
        "id": {"type": "string"},
        "version": {"type": "string"},
        "description": {"type": "string"},
        "status": {"type": "string", "enum": [CURRENT, SUPERSEDED]},
        "superseded_by": {
            "type": "string",
            "description": "The newest version, present when this one is superseded.",
        },
        "links": {
            "type": "object",
            "required": ["contract", "execute", "page"],
            "properties": {name: {"type": "string"} for name in ("contract", "execute", "page")},
        },
    },
}


def _versions_operation(entries: tuple[CatalogEntry, ...]) -> dict[str, Any]:
    """``GET /v1/tools/{id}``: the id's versions with their status."""
    tool_id, latest = entries[-1].id, entries[-1].version
    return {
        "get": {
            "operationId": f"versions_{tool_id.replace('-', '_')}",
            "summary": f"The versions of {tool_id}, each with its status and links.",
            "description": f"Oldest first; latest is the newest ({latest}). The version "
            f"`latest` in place of a version in the contract, execute and page paths of "
            f"{tool_id} is {latest}; those answers name the version served or run in the "
            "Mtcompute-Tool header (id@version).",
            "tags": [tool_id],
            "responses": {
                "200": {
                    "description": "The versions, oldest first, and the newest.",
                    "content": _json_content(
                        {
                            "type": "object",
                            "required": ["id", "latest", "versions"],
                            "properties": {
                                "id": {"type": "string", "const": tool_id},
                                "latest": {"type": "string", "const": latest},
                                "versions": {"type": "array", "items": _VERSION_ITEM},
                            },
                        }
                    ),
                },
                **_error_responses(_statuses(*_EVERY_OPERATION)),
            },
        }
    }


# Keyed mode's two ways of presenting a key (server/limits.py reads both).
SECURITY_SCHEMES = {
    "bearer": {"type": "http", "scheme": "bearer", "description": "Authorization: Bearer KEY"},
    "apiKey": {"type": "apiKey", "in": "header", "name": "X-API-Key"},
}


def openapi_document(*, key_needed: bool = False, public_url: str | None = None) -> dict[str, Any]:
    """The whole document (a plain dict, ready for :func:`mtcompute.dumps`). With
    ``key_needed`` (keyed mode) it declares the key's two schemes and requires one on the
    execute operations only (discovery stays public); its server is ``public_url`` when
    configured, else this server, relative (``/``)."""
    schemas: dict[str, Any] = {"ErrorEnvelope": _error_envelope()}
    paths: dict[str, Any] = {}
    get_errors = _error_responses(_statuses(*_EVERY_OPERATION))
    for tool in catalog_entries():
        doc = tool.document
        input_name = _schema_name(tool.id, tool.version, "Input")
        output_name = _schema_name(tool.id, tool.version, "Output")
        schemas[input_name] = doc["input_schema"]
        schemas[output_name] = doc["output_schema"]
        example = doc["examples"][0] if doc["examples"] else None
        request_content = _json_content({"$ref": f"#/components/schemas/{input_name}"})
        if example is not None:
            request_content["application/json"]["example"] = example["input"]
        ok_schema = {
            "type": "object",
            "additionalProperties": False,
            "required": ["result"],
            "properties": {"result": {"$ref": f"#/components/schemas/{output_name}"}},
        }
        ok_content = _json_content(ok_schema)
        if example is not None:
            ok_content["application/json"]["example"] = {"result": example["output"]}
        execute_answers = [*_EVERY_OPERATION, *_EXECUTE]
        if _names_unsupported_input(doc):
            execute_answers.extend(_UNSUPPORTED)
        paths[tool.execute_path] = {
            "post": {
                **({"security": [{"bearer": []}, {"apiKey": []}]} if key_needed else {}),
                "operationId": _operation_id("execute", tool.id, tool.version),
                "summary": doc["description"],
                "description": "\n".join(f"- {line}" for line in doc["semantics"]),
                "tags": [tool.id],
                "requestBody": {"required": True, "content": request_content},
                "responses": {
                    "200": {"description": "The result envelope.", "content": ok_content},
                    **_error_responses(_statuses(*execute_answers, also=_ALSO)),
                },
            }
        }
        paths[tool.contract_path] = {
            "get": {
                "operationId": _operation_id("contract", tool.id, tool.version),
                "summary": f"The machine-readable contract of {tool.id}@{tool.version}.",
                "tags": [tool.id],
                "responses": {
                    "200": {
                        "description": "The contract document, verbatim.",
                        "content": _json_content({"type": "object"}),
                    },
                    **get_errors,
                },
            }
        }
    paths["/v1/tools"] = {
        "get": {
            "operationId": "list_tools",
            "summary": "The catalog: every tool version with its links; with q, a search.",
            "parameters": [
                {
                    "name": "q",
                    "in": "query",
                    "required": False,
                    "description": "A task in words, in any of ten languages: whether a "
                    "tool does it (supported, with a reason when not, and the catalog's "
                    "metrics) and the tools that match it, ranked, each with its score, the "
                    "lines that matched and whether it is only an alternative. Blank or "
                    "omitted: the whole catalog.",
                    "schema": {"type": "string", "maxLength": MAX_QUERY_LENGTH},
                }
            ],
            "responses": {
                "200": {
                    "description": "The catalog, or the search's ranked tools.",
                    "content": _json_content(
                        {
                            "type": "object",
                            "required": ["tools"],
                            "properties": {
                                "query": {"type": "string"},
                                "supported": {"type": "boolean"},
                                "reason": {"type": ["string", "null"]},
                                "not_done": {"type": "array", "items": {"type": "object"}},
                                "metrics": {"type": "array", "items": {"type": "string"}},
                                "tools": {"type": "array", "items": {"type": "object"}},
                            },
                        }
                    ),
                },
                **_error_responses(
                    {
                        **_statuses(*_EVERY_OPERATION),
                        **_statuses((InvalidInput, "a q over 500 characters")),
                    }
                ),
            },
        }
    }
    for tool_id in dict.fromkeys(entry.id for entry in catalog_entries()):
        paths[f"/v1/tools/{tool_id}"] = _versions_operation(tool_entries(tool_id))
    paths["/healthz"] = _check(
        "healthz",
        "Liveness: the process answers and computes.",
        ("ok", "Healthy."),
        {
            **get_errors,
            "503": {
                "description": "Up, but a tiny chrF did not compute.",
                "content": _json_content(_health("failing")),
            },
        },
    )
    not_ready = (
        "not ready: the body worker process is down and could not be restarted yet, or too "
        "many requests wait for a worker; the message says which."
    )
    paths["/readyz"] = _check(
        "readyz",
        "Readiness: the body worker process is up and few requests wait.",
        ("ready", "Ready."),
        {**get_errors, **_error_responses(_statuses((NotReady, not_ready)))},
    )
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "mtcompute",
            "version": __version__,
            "description": _description(),
        },
        "servers": [{"url": public_url or "/"}],
        "paths": paths,
        "components": {
            "schemas": schemas,
            **({"securitySchemes": SECURITY_SCHEMES} if key_needed else {}),
        },
    }
