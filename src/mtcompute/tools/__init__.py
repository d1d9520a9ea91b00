"""The tool registry: one module per tool version, each binding a contract to the core.

A tool module (any module in this package whose name does not start with ``_``) defines
``TOOL``, a :class:`Tool`. Adding a tool means adding its contract document under
``mtcompute/contracts/data/`` and one module here; nothing else changes.
"""

from __future__ import annotations

import importlib

from mtcompute.core._record import Record
from mtcompute.errors import NotFound

# The validators of this package are imported by `mtcompute score` (through the batch APIs),
# so this module keeps its run-time imports light.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

__all__ = ["Tool", "get_tool", "list_tools"]


class Tool(Record):
    """A tool version: validates a raw input and returns the contract's ``result`` object.

    ``run`` raises a :class:`~mtcompute.errors.MtcomputeError` for a bad input; the dict it
    returns has exactly the output schema's keys, in its order.
    """

    __slots__ = ("id", "version", "run")
    id: str
    version: str
    run: Callable[[object], dict[str, object]]

    def __init__(self, id: str, version: str, run: Callable[[object], dict[str, object]]) -> None:
        object.__setattr__(self, "id", id)
        object.__setattr__(self, "version", version)
        object.__setattr__(self, "run", run)


_REGISTRY: dict[tuple[str, str], Tool] = {}  # filled on first use (functools.cache costs start-up)


def _registry() -> Mapping[tuple[str, str], Tool]:
    if _REGISTRY:
        return _REGISTRY
    import pkgutil  # noqa: PLC0415 - only when the registry is first used

    tools: dict[tuple[str, str], Tool] = {}
    for info in pkgutil.iter_modules(__path__):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        tool: Tool = module.TOOL
        tools[(tool.id, tool.version)] = tool
    _REGISTRY.update(sorted(tools.items()))
    return _REGISTRY


def list_tools() -> list[Tool]:
    """Every tool version, sorted by id then version."""
    return list(_registry().values())


def get_tool(tool_id: object, version: object) -> Tool:
    """The tool of that id and version, or :class:`~mtcompute.errors.NotFound`."""
    registry = _registry()
    if not isinstance(tool_id, str) or not any(tid == tool_id for tid, _ in registry):
        shown = tool_id if isinstance(tool_id, str) else type(tool_id).__name__
        raise NotFound(
            f'Expected a tool id from the catalog, got "{shown[:64]}"; '
            f"known tools: {', '.join(sorted({tid for tid, _ in registry}))}."
        )
    tool = registry.get((tool_id, version)) if isinstance(version, str) else None
    if tool is None:
        versions = [v for tid, v in registry if tid == tool_id]
        shown = version if isinstance(version, str) else type(version).__name__
        raise NotFound(
            f'Expected a version of {tool_id} ({", ".join(versions)}), got "{shown[:64]}".'
        )
    return tool
