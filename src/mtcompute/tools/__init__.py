"""The tool registry: one module per tool version, each binding a contract to the core.

A tool module (any module in this package whose name does not start with ``_``) defines
``TOOL``, a :class:`Tool`: its input declared field by field
(:class:`~mtcompute.contracts.validate.InputSpec`), the computation on the checked values, the
typed library function, and optionally its cost estimate (:mod:`mtcompute.tools._cost`: a
bound on the work from the raw input's size and shape, which lets a server run small inputs
without a worker thread; a tool without one always gets a worker thread). Adding a tool means
adding its contract document under ``mtcompute/contracts/data/`` and one module here; nothing
else changes.

Versions are ``MAJOR.MINOR.PATCH`` and ordered as numbers (1.10.0 after 1.9.0), by
:func:`version_key` (defined in :mod:`mtcompute.contracts`, whose order the catalog's texts and
the search use as well). Wherever a version is taken, :data:`LATEST` (``"latest"``) names the
newest version of the id: it is resolved here, in :func:`get_tool`, and the tool it answers
says which version that is.
"""

from __future__ import annotations

__all__ = [
    "LATEST",
    "Cost",
    "Registry",
    "Result",
    "Tool",
    "get_tool",
    "list_tools",
    "tool_versions",
    "version_key",
]

import importlib
import pkgutil
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any, Final, Protocol

from mtcompute.contracts import version_key
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


LATEST: Final = "latest"
"""The version that names the newest version of a tool id, wherever a version is taken."""


class Registry:
    """Tool versions by (id, version), ordered by id then version (:func:`version_key`),
    with the newest version of each id (what :data:`LATEST` names)."""

    __slots__ = ("_newest", "_tools", "_versions")

    def __init__(self, tools: Iterable[Tool]) -> None:
        ordered = sorted(tools, key=lambda tool: (tool.id, version_key(tool.version)))
        self._tools: dict[tuple[str, str], Tool] = {}
        self._versions: dict[str, list[Tool]] = {}
        for tool in ordered:
            if (tool.id, tool.version) in self._tools:
                raise ValueError(f"Two tools are {tool.id}@{tool.version}.")
            self._tools[(tool.id, tool.version)] = tool
            self._versions.setdefault(tool.id, []).append(tool)
        self._newest = {tool_id: tools[-1] for tool_id, tools in self._versions.items()}

    def tools(self) -> list[Tool]:
        """Every tool version, by id then version (oldest first)."""
        return list(self._tools.values())

    def versions(self, tool_id: object) -> list[Tool]:
        """The versions of ``tool_id``, oldest first, or :class:`NotFound` naming the ids."""
        if isinstance(tool_id, str) and tool_id in self._versions:
            return list(self._versions[tool_id])
        raise self._unknown_id(tool_id)

    def get(self, tool_id: object, version: object) -> Tool:
        """The tool of that id and version (:data:`LATEST`: the newest), or
        :class:`NotFound` naming the known ids or versions."""
        if type(tool_id) is str and type(version) is str:  # the common case: one lookup
            found = self._tools.get((tool_id, version))
            if found is not None:
                return found
            if version == LATEST and tool_id in self._newest:
                return self._newest[tool_id]
        if not isinstance(tool_id, str) or tool_id not in self._versions:
            raise self._unknown_id(tool_id)
        tool = self._tools.get((tool_id, version)) if isinstance(version, str) else None
        if tool is None:
            if version == LATEST:  # a str subclass equal to "latest"
                return self._newest[tool_id]
            versions = [t.version for t in self._versions[tool_id]]
            shown = version if isinstance(version, str) else type(version).__name__
            raise NotFound(
                f'Expected a version of {tool_id} ({", ".join(versions)}), got "{shown[:64]}".'
            )
        return tool

    def _unknown_id(self, tool_id: object) -> NotFound:
        shown = tool_id if isinstance(tool_id, str) else type(tool_id).__name__
        return NotFound(
            f'Expected a tool id from the catalog, got "{shown[:64]}"; '
            f"known tools: {', '.join(sorted(self._versions))}."
        )


@cache
def _registry() -> Registry:
    tools: list[Tool] = []
    for info in pkgutil.iter_modules(__path__):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        tools.append(module.TOOL)
    return Registry(tools)


def list_tools() -> list[Tool]:
    """Every tool version, sorted by id then version (:func:`version_key`)."""
    return _registry().tools()


def tool_versions(tool_id: object) -> list[Tool]:
    """Every version of ``tool_id``, oldest first (the last is :data:`LATEST`), or
    :class:`~mtcompute.errors.NotFound` naming the known ids."""
    return _registry().versions(tool_id)


def get_tool(tool_id: object, version: object) -> Tool:
    """The tool of that id and version, or :class:`~mtcompute.errors.NotFound`; the version
    :data:`LATEST` is the id's newest (``get_tool(id, "latest").version`` says which)."""
    return _registry().get(tool_id, version)
