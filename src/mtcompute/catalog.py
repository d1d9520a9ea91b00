"""The catalog: every tool version with its contract, built once for every surface.

The CLI (``mtcompute list``), the HTTP API (``/v1/tools``), MCP (``list_catalog`` and the
tool descriptions), the OpenAPI document and the pages all list the same tool versions, in
registry order (by id, then version), with the same fields, read from the same contract
documents. This module is where that list is made, and where the URL paths of a tool
version are spelled.

Each entry also says where it stands among its id's versions: the newest is ``"current"``,
every older one ``"superseded"`` (:data:`CURRENT`, :data:`SUPERSEDED`), with the version that
supersedes it (the newest). A superseded version still answers exactly as its contract says;
the listings, the tool pages and the MCP descriptions say that a newer one exists.
"""

from __future__ import annotations

__all__ = [
    "CURRENT",
    "SUPERSEDED",
    "CatalogEntry",
    "ToolPaths",
    "catalog_entries",
    "catalog_entry",
    "latest_entry",
    "tool_entries",
]

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Final

from mtcompute.contracts import contract, contract_text
from mtcompute.tools import LATEST, get_tool, list_tools, tool_versions

CURRENT: Final = "current"
"""The status of the newest version of a tool id."""
SUPERSEDED: Final = "superseded"
"""The status of every older version: a newer one exists (``superseded_by``)."""


@dataclass(frozen=True, slots=True)
class ToolPaths:
    """A tool version's ``id`` and ``version``, and its URL paths; the base of the records
    that name a tool version (their first two fields)."""

    id: str
    version: str

    @property
    def contract_path(self) -> str:
        """``/v1/tools/{id}/versions/{version}``: the contract's URL path."""
        return f"/v1/tools/{self.id}/versions/{self.version}"

    @property
    def execute_path(self) -> str:
        """``/v1/tools/{id}/versions/{version}/execute``: the execute route's URL path."""
        return f"{self.contract_path}/execute"

    @property
    def page_path(self) -> str:
        """``/tools/{id}/{version}``: the tool page's URL path."""
        return f"/tools/{self.id}/{self.version}"

    def links(self, base_url: str = "") -> dict[str, str]:
        """``{"contract", "execute", "page"}``: the three paths after ``base_url``."""
        return {
            "contract": base_url + self.contract_path,
            "execute": base_url + self.execute_path,
            "page": base_url + self.page_path,
        }


@dataclass(frozen=True, slots=True)
class CatalogEntry(ToolPaths):
    """One tool version: its id, version, the contract's summary fields and the contract."""

    description: str
    """The contract's one-line ``description``."""
    supported_operations: tuple[str, ...]
    unsupported_operations: tuple[str, ...]
    document: Mapping[str, Any] = field(compare=False, repr=False)
    """The contract document, parsed (shared and cached: do not mutate)."""
    text: str = field(compare=False, repr=False)
    """The contract document exactly as shipped (what ``GET`` of the contract answers)."""
    superseded_by: str | None = None
    """The id's newest version when this one is older (then superseded), else None."""

    @property
    def ref(self) -> str:
        """``id@version``, as the catalog's texts name a tool version."""
        return f"{self.id}@{self.version}"

    @property
    def status(self) -> str:
        """:data:`CURRENT` (the id's newest version) or :data:`SUPERSEDED`."""
        return CURRENT if self.superseded_by is None else SUPERSEDED

    @property
    def superseded_note(self) -> str:
        """One sentence for a superseded version's descriptions (MCP, pages), else ``""``."""
        if self.superseded_by is None:
            return ""
        return (
            f"Superseded by {self.id}@{self.superseded_by}: use it for new work; "
            f"{self.version} still answers as its contract says."
        )

    def summary(self) -> dict[str, str]:
        """``{"id", "version", "description"}``, the fields every listing starts with."""
        return {"id": self.id, "version": self.version, "description": self.description}

    def version_status(self) -> dict[str, str]:
        """``{"status"}``, and ``"superseded_by"`` (the newer version) when superseded: the
        version fields of the ``/v1/tools`` listings and ``mtcompute list --json``."""
        if self.superseded_by is None:
            return {"status": self.status}
        return {"status": self.status, "superseded_by": self.superseded_by}


def _entry(tool_id: str, version: str, newest: str) -> CatalogEntry:
    document = contract(tool_id, version)
    return CatalogEntry(
        id=tool_id,
        version=version,
        description=str(document["description"]),
        supported_operations=tuple(document["supported_operations"]),
        unsupported_operations=tuple(document["unsupported_operations"]),
        document=document,
        text=contract_text(tool_id, version),
        superseded_by=None if version == newest else newest,
    )


@cache
def catalog_entries() -> tuple[CatalogEntry, ...]:
    """Every tool version of the registry, in its order (by id, then version); built once.

    >>> [entry.summary()["id"] for entry in catalog_entries()][:2]
    ['bleu-brevity-penalty', 'bleu-corpus-compute']
    """
    return tuple(
        _entry(tool.id, tool.version, get_tool(tool.id, LATEST).version) for tool in list_tools()
    )


@cache
def _by_key() -> dict[tuple[str, str], CatalogEntry]:
    return {(entry.id, entry.version): entry for entry in catalog_entries()}


def catalog_entry(tool_id: object, version: object) -> CatalogEntry:
    """The entry of that tool version (:data:`~mtcompute.tools.LATEST`: the id's newest; the
    entry's ``version`` says which), or :class:`~mtcompute.errors.NotFound` (the registry's
    message, naming the known ids or versions)."""
    tool = get_tool(tool_id, version)
    return _by_key()[(tool.id, tool.version)]


def tool_entries(tool_id: object) -> tuple[CatalogEntry, ...]:
    """Every version of ``tool_id``, oldest first (the last is current), or
    :class:`~mtcompute.errors.NotFound` naming the known ids."""
    return tuple(_by_key()[(tool.id, tool.version)] for tool in tool_versions(tool_id))


def latest_entry(tool_id: object) -> CatalogEntry:
    """The newest version of ``tool_id`` (what ``latest`` names), or NotFound."""
    return catalog_entry(tool_id, LATEST)
