"""The versioned contracts, shipped as JSON documents inside the package.

Each document (``data/<id>@<version>.json``) is served verbatim by the API; its examples are
golden tests. This module only reads them, and says how their versions are ordered
(:func:`version_key`, the one order of the registry, the catalog's texts and the search).
"""

from __future__ import annotations

__all__ = ["contract", "contract_ids", "contract_text", "version_key"]

import json
import os
import re
from functools import cache
from typing import Any, Final

from mtcompute.errors import NotFound

_DATA = os.path.join(os.path.dirname(__file__), "data")  # the package data beside this module
_VERSION: Final = re.compile(r"(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)")


def version_key(version: str) -> tuple[int, int, int]:
    """The sort key of a ``MAJOR.MINOR.PATCH`` version: its numbers, so 1.10.0 > 1.9.0.

    >>> sorted(["1.10.0", "1.9.0", "1.2.0"], key=version_key)
    ['1.2.0', '1.9.0', '1.10.0']
    """
    match = _VERSION.fullmatch(version)
    if match is None:
        raise ValueError(f"Expected a version MAJOR.MINOR.PATCH, got {version!r}.")
    major, minor, patch = (int(part) for part in match.groups())
    return major, minor, patch


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
