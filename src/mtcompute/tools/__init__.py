"""The tool registry: one module per tool version, each binding a contract to the core.

A tool module (any module in this package whose name does not start with ``_``) defines
``TOOL``, a :class:`Tool`: its input declared field by field
(:class:`~mtcompute.contracts.validate.InputSpec`), the computation on the checked values, the
typed library function, and optionally its cost estimate (:mod:`mtcompute.tools._cost`: a
bound on the work from the raw input's size and shape, which lets a server run small inputs
without a worker thread; a tool without one always gets a worker thread). Adding a tool means
adding its contract document under ``mtcompute/contracts/data/`` and one module here; nothing
else changes.
"""

from __future__ import annotations

__all__ = ["Cost", "Result", "Tool", "get_tool", "list_tools"]

import importlib
import pkgutil
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any, Protocol

from mtcompute.contracts.validate import InputSpec
from mtcompute.errors import NotFound
from mtcompute.tools._cost import Linear


class Result(Protocol):
    """What a tool computes: a typed record that writes the contract's output object."""

    def to_dict(self) -> dict[str, object]:
        """The ``result`` object, keys in the output schema's order."""
        ...


Cost = Callable[[object, int], int]
"""``cost(raw, cap)``: the work units of running a raw input (:mod:`mtcompute.tools._cost`),
any value above ``cap`` once it is known to pass it (so that the estimate stays cheap)."""


@dataclass(frozen=True, slots=True)
class Tool:
    """A tool version: ``input`` checks a raw input in the contract's order, ``compute`` turns
    the checked values into the result, ``function`` is the typed library function
    (``function(**example_input)`` gives the same result as :meth:`run`); ``cost``, when
    the tool has one, bounds the work of :meth:`run` (:meth:`estimate`)."""

    id: str
    version: str
    input: InputSpec
    compute: Callable[[Mapping[str, Any]], Result]
    function: Callable[..., Result]
    cost: Cost | None = None

    def estimate(self, raw: object, cap: int, json_length: int | None = None) -> int | None:
        """The work units of :meth:`run` on ``raw`` (above ``cap`` once past it, found
        within about ``cap`` steps), or None when the tool has no estimate (unknown).

        ``json_length``, the bytes of the JSON text ``raw`` was read from, bounds a linear
        cost without walking the input (:meth:`~mtcompute.tools._cost.Linear.of_json_length`)
        when that bound is within ``cap``."""
        if self.cost is None:
            return None
        if json_length is not None and isinstance(self.cost, Linear):
            units = self.cost.of_json_length(json_length)
            if units <= cap:
                return units
        return self.cost(raw, cap)

    def run(self, raw: object) -> dict[str, object]:
        """The contract's ``result`` object for a raw input, or a coded error
        (:class:`~mtcompute.errors.MtcomputeError`)."""
        return self.compute(self.input.parse(raw)).to_dict()


@cache
def _registry() -> Mapping[tuple[str, str], Tool]:
    tools: dict[tuple[str, str], Tool] = {}
    for info in pkgutil.iter_modules(__path__):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        tool: Tool = module.TOOL
        tools[(tool.id, tool.version)] = tool
    return dict(sorted(tools.items()))


def list_tools() -> list[Tool]:
    """Every tool version, sorted by id then version."""
    return list(_registry().values())


def get_tool(tool_id: object, version: object) -> Tool:
    """The tool of that id and version, or :class:`~mtcompute.errors.NotFound`."""
    registry = _registry()
    if type(tool_id) is str and type(version) is str:  # the common case: one lookup
        found = registry.get((tool_id, version))
        if found is not None:
            return found
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
