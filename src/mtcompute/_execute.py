"""The one execute path every surface shares: find the tool, run it, wrap it in the envelope.

Adapters (CLI, HTTP, MCP, pages) parse their transport into a Python value, call
:func:`execute` (or :func:`execute_json` for JSON text), and render the
:class:`~mtcompute.envelope.Envelope` it returns (its status, exit code and JSON bytes).
Nothing flows back up.

:func:`is_cheap` tells a server which inputs it may run where it stands (on its event loop)
rather than on a worker thread: those whose tool's cost estimate (:mod:`mtcompute.tools._cost`,
a bound from the input's size and shape) is within :data:`INLINE_BUDGET`. A tool without an
estimate, or an estimate that fails, is never cheap.
"""

from __future__ import annotations

__all__ = ["INLINE_BUDGET", "estimate", "execute", "execute_json", "is_cheap"]

from mtcompute.core.jsjson import JsonError, loads
from mtcompute.envelope import Envelope
from mtcompute.errors import InternalError, InvalidInput, MtcomputeError
from mtcompute.tools import get_tool

INLINE_BUDGET = 1000
"""Work units (:mod:`mtcompute.tools._cost`) of an input cheap enough to run on an event loop:
about a millisecond of checking and computing on one core (each tool's units are scaled to
about a microsecond each, measured; ``benchmarks/run.py`` reports the slowest input within
it)."""


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


def estimate(
    tool_id: str, version: str, input: object, cap: int, json_length: int | None = None
) -> int | None:
    """The work units of :func:`execute` of this input by its tool's estimate
    (:mod:`mtcompute.tools._cost`), ``cap + 1`` once past ``cap``; 0 for an unknown tool (its
    ``not_found`` costs nothing); None when the tool has no estimate or it fails (unknown).
    Never raises, and costs at most about ``cap`` steps itself, whatever the input.
    ``json_length``: the bytes of the JSON text the input was read from, when it was
    (:meth:`~mtcompute.tools.Tool.estimate`)."""
    try:
        tool = get_tool(tool_id, version)
    except MtcomputeError:
        return 0
    try:
        units = tool.estimate(input, cap, json_length)
    except Exception:  # an estimate that fails knows nothing: unknown
        return None
    return None if units is None else min(units, cap + 1)


def is_cheap(tool_id: str, version: str, input: object, budget: int = INLINE_BUDGET) -> bool:
    """Whether :func:`execute` of this input is known to cost at most ``budget`` work units
    (:func:`estimate`).

    >>> is_cheap("chrf-compute", "1.0.0", {"hypotheses": ["aa"], "references": ["ab"]})
    True
    >>> is_cheap("chrf-compute", "1.0.0", {"hypotheses": ["a" * 5000], "references": ["b"]})
    False
    """
    units = estimate(tool_id, version, input, budget)
    return units is not None and units <= budget
