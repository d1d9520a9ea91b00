"""The OpenAPI 3.1 document, built from the shipped contracts.

Each tool version gets its own execute operation, with the contract's input schema as the
request body and its output schema inside the success envelope; error responses share one
envelope schema. OpenAPI 3.1 uses JSON Schema 2020-12, so the contract schemas go in as they
are.
"""

from __future__ import annotations

from typing import Any

from mtcompute import __version__
from mtcompute.contracts import contract
from mtcompute.tools import list_tools

__all__ = ["openapi_document"]

_ERROR_STATUSES = {
    "400": ("invalid_input", "The input breaks the schema or a rule, or the body is not JSON."),
    "404": ("not_found", "No tool of that id, or no such version."),
    "413": ("limit_exceeded", "The input (or the body) is over a contract limit."),
    "415": ("invalid_input", "The Content-Type is not application/json."),
    "422": ("unsupported_input", "The input asks for something the contract does not support."),
}


def _error_envelope() -> dict[str, Any]:
    return {
        "type": "object",
        "additionalProperties": False,
        "required": ["error"],
        "properties": {
            "error": {
                "type": "object",
                "additionalProperties": False,
                "required": ["code", "message", "path"],
                "properties": {
                    "code": {
                        "type": "string",
                        "enum": [
                            "invalid_input",
                            "limit_exceeded",
                            "unsupported_input",
                            "not_found",
                            "method_not_allowed",
                            "internal_error",
                        ],
                    },
                    "message": {"type": "string"},
                    "path": {"type": "string", "description": "JSON Pointer to the field."},
                },
            }
        },
    }


def _json_content(schema: dict[str, Any]) -> dict[str, Any]:
    return {"application/json": {"schema": schema}}


def _schema_name(tool_id: str, version: str, kind: str) -> str:
    words = "".join(part.capitalize() for part in tool_id.split("-"))
    return f"{words}V{version.replace('.', '_')}{kind}"


def _operation_id(verb: str, tool_id: str, version: str) -> str:
    return f"{verb}_{tool_id.replace('-', '_')}_{version.replace('.', '_')}"


def openapi_document() -> dict[str, Any]:
    """The whole document (a plain dict, ready for :func:`mtcompute.dumps`)."""
    schemas: dict[str, Any] = {"ErrorEnvelope": _error_envelope()}
    paths: dict[str, Any] = {}
    error_ref = {"$ref": "#/components/schemas/ErrorEnvelope"}
    errors = {
        status: {"description": f"{code}: {text}", "content": _json_content(error_ref)}
        for status, (code, text) in _ERROR_STATUSES.items()
    }
    for tool in list_tools():
        doc = contract(tool.id, tool.version)
        input_name = _schema_name(tool.id, tool.version, "Input")
        output_name = _schema_name(tool.id, tool.version, "Output")
        schemas[input_name] = doc["input_schema"]
        schemas[output_name] = doc["output_schema"]
        base = f"/v1/tools/{tool.id}/versions/{tool.version}"
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
        paths[base + "/execute"] = {
            "post": {
                "operationId": _operation_id("execute", tool.id, tool.version),
                "summary": doc["description"],
                "description": "\n".join(f"- {line}" for line in doc["semantics"]),
                "tags": [tool.id],
                "requestBody": {"required": True, "content": request_content},
                "responses": {
                    "200": {"description": "The result envelope.", "content": ok_content},
                    **errors,
                },
            }
        }
        paths[base] = {
            "get": {
                "operationId": _operation_id("contract", tool.id, tool.version),
                "summary": f"The machine-readable contract of {tool.id}@{tool.version}.",
                "tags": [tool.id],
                "responses": {
                    "200": {
                        "description": "The contract document, verbatim.",
                        "content": _json_content({"type": "object"}),
                    }
                },
            }
        }
    paths["/v1/tools"] = {
        "get": {
            "operationId": "list_tools",
            "summary": "The catalog: every tool version with its links.",
            "responses": {
                "200": {
                    "description": "The catalog.",
                    "content": _json_content(
                        {
                            "type": "object",
                            "required": ["tools"],
                            "properties": {"tools": {"type": "array", "items": {"type": "object"}}},
                        }
                    ),
                }
            },
        }
    }
    paths["/healthz"] = {
        "get": {
            "operationId": "healthz",
            "summary": "Liveness: the process answers and computes.",
            "responses": {
                "200": {
                    "description": "Healthy.",
                    "content": _json_content(
                        {
                            "type": "object",
                            "required": ["status"],
                            "properties": {"status": {"type": "string", "const": "ok"}},
                        }
                    ),
                }
            },
        }
    }
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "mtcompute",
            "version": __version__,
            "description": "Exact, versioned machine-translation metric tools. Each tool is a "
            "contract; results are bit for bit what the contract defines.",
        },
        "paths": paths,
        "components": {"schemas": schemas},
    }
