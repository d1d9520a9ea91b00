"""The versioned contracts, shipped as JSON documents inside the package.

Each document (``data/<id>@<version>.json``) is served verbatim by the API; its examples are
golden tests. This module only reads them.
"""

from __future__ import annotations

__all__ = ["contract", "contract_ids", "contract_text"]

import json
import os
from functools import cache
from typing import Any

from mtcompute.errors import NotFound

_DATA = os.path.join(os.path.dirname(__file__), "data")  # the package data beside this module


@cache
def contract_ids() -> tuple[tuple[str, str], ...]:
    """(id, version) of every shipped contract, sorted."""
    pairs = []
    for name in os.listdir(_DATA):
        if name.endswith(".json") and "@" in name:
            tool_id, _, version = name[: -len(".json")].partition("@")
            pairs.append((tool_id, version))
    return tuple(sorted(pairs))


@cache
def contract_text(tool_id: str, version: str) -> str:
    """The contract document exactly as shipped."""
    if (tool_id, version) not in contract_ids():
        raise NotFound(f"No contract for {tool_id}@{version}.")
    with open(os.path.join(_DATA, f"{tool_id}@{version}.json"), encoding="utf-8") as file:
        return file.read()


@cache
def contract(tool_id: str, version: str) -> dict[str, Any]:
    """The contract document parsed (do not mutate: it is cached)."""
    parsed: dict[str, Any] = json.loads(contract_text(tool_id, version))
    return parsed
