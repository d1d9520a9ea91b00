"""The one execute path every surface shares: find the tool, run it, wrap it in the envelope.

Adapters (CLI, HTTP, MCP, pages) parse their transport into a Python value, call
:func:`execute` (or :func:`execute_json` for JSON text), and render the envelope with
:func:`mtcompute.core.jsjson.dumps`. Nothing flows back up.
"""

from __future__ import annotations

from mtcompute.core.jsjson import JsonError, loads
from mtcompute.errors import InvalidInput, MtcomputeError
from mtcompute.tools import get_tool

__all__ = ["execute", "execute_json"]


def execute(tool_id: str, version: str, input: object) -> dict[str, object]:
    """Run a tool on a JSON-like input: ``{"result": {...}}`` or ``{"error": {...}}``.

    Never raises: a bad input of any Python type gets an error envelope naming the field.

    >>> envelope = execute("chrf-compute", "1.0.0", {"hypotheses": ["aa"], "references": ["ab"]})
    >>> envelope["result"]["score"]
    '25.000000'
    """
    try:
        return {"result": get_tool(tool_id, version).run(input)}
    except MtcomputeError as error:
        return {"error": error.to_dict()}
    except RecursionError:
        return {"error": InvalidInput("Expected an input nested less deeply.").to_dict()}
    except Exception as exc:
        return {
            "error": {
                "code": "internal_error",
                "message": f"Internal error ({type(exc).__name__}); please report this input.",
                "path": "",
            }
        }


def execute_json(tool_id: str, version: str, body: str | bytes) -> dict[str, object]:
    """:func:`execute` on JSON text (bytes must be UTF-8); bad JSON is ``invalid_input``."""
    try:
        get_tool(tool_id, version)
        value = loads(body)
    except MtcomputeError as error:
        return {"error": error.to_dict()}
    except JsonError as error:
        return {"error": InvalidInput(str(error)).to_dict()}
    return execute(tool_id, version, value)
