"""The versioned contracts, shipped as JSON documents inside the package.

Each document (``data/<id>@<version>.json``) is served verbatim by the API; its examples are
golden tests. This module only reads them.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from mtcompute.errors import NotFound

__all__ = ["contract", "contract_ids", "contract_text"]

_DATA = resources.files(__name__) / "data"


@cache
def contract_ids() -> tuple[tuple[str, str], ...]:
    """(id, version) of every shipped contract, sorted."""
    pairs = []
    for entry in _DATA.iterdir():
        name = entry.name
        if name.endswith(".json") and "@" in name:
            tool_id, _, version = name[: -len(".json")].partition("@")
            pairs.append((tool_id, version))
    return tuple(sorted(pairs))


@cache
def contract_text(tool_id: str, version: str) -> str:
    """The contract document exactly as shipped."""
    if (tool_id, version) not in contract_ids():
        raise NotFound(f"No contract for {tool_id}@{version}.")
    return (_DATA / f"{tool_id}@{version}.json").read_text(encoding="utf-8")


@cache
def contract(tool_id: str, version: str) -> dict[str, Any]:
    """The contract document parsed (do not mutate: it is cached)."""
    parsed: dict[str, Any] = json.loads(contract_text(tool_id, version))
    return parsed
