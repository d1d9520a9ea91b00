"""The one execute path every surface shares: find the tool, run it, wrap it in the envelope.

Adapters (CLI, HTTP, MCP, pages) parse their transport into a Python value, call
:func:`execute` (or :func:`execute_json` for JSON text), and render the
:class:`~mtcompute.envelope.Envelope` it returns (its status, exit code and JSON bytes).
Nothing flows back up.
"""

from __future__ import annotations

__all__ = ["execute", "execute_json"]

from mtcompute.core.jsjson import JsonError, loads
from mtcompute.envelope import Envelope
from mtcompute.errors import InternalError, InvalidInput, MtcomputeError
from mtcompute.tools import get_tool


def execute(tool_id: str, version: str, input: object) -> Envelope:
    """Run a tool on a JSON-like input: ``{"result": {...}}`` or ``{"error": {...}}``.

    Never raises: a bad input of any Python type gets an error envelope naming the field.

    >>> envelope = execute("chrf-compute", "1.0.0", {"hypotheses": ["aa"], "references": ["ab"]})
    >>> envelope["result"]["score"]
    '25.000000'
    >>> (envelope.http_status, envelope.exit_code)
    (200, 0)
    """
    try:
        return Envelope.of_result(get_tool(tool_id, version).run(input))
    except MtcomputeError as error:
        return Envelope.of_error(error)
    except RecursionError:
        return Envelope.of_error(InvalidInput("Expected an input nested less deeply."))
    except Exception as exc:
        return Envelope.of_error(InternalError(exc))


def execute_json(tool_id: str, version: str, body: str | bytes) -> Envelope:
    """:func:`execute` on JSON text (bytes must be UTF-8); bad JSON is ``invalid_input``."""
    try:
        get_tool(tool_id, version)
        value = loads(body)
    except MtcomputeError as error:
        return Envelope.of_error(error)
    except JsonError as error:
        return Envelope.of_error(InvalidInput(str(error)))
    return execute(tool_id, version, value)
