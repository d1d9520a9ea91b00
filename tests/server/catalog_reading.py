"""What the tests read from the contracts themselves, to check the describing texts against:
a contract's input kind from its schema alone, a tool's newest version and a version's
status."""

from __future__ import annotations

from typing import Any

from mtcompute.contracts import contract_ids


def schema_kind(input_schema: dict[str, Any]) -> str:
    """What a contract's input is, read from its schema alone: ``tokens`` when every free
    string of its array fields is non-empty (a token never is), ``raw text`` when none has a
    minimum length (a segment may be empty), ``counts`` when there are no such strings."""
    leaves = []
    for field in input_schema["properties"].values():
        node, depth = field, 0
        while node.get("type") == "array":
            node, depth = node["items"], depth + 1
        if depth and node.get("type") == "string" and "enum" not in node:
            leaves.append(node)
    if not leaves:
        return "counts"
    if all(leaf.get("minLength", 0) >= 1 for leaf in leaves):
        return "tokens"
    return "raw text" if not any("minLength" in leaf for leaf in leaves) else "mixed"


def newest(tool_id: str) -> str:
    """The newest version of a tool id among the shipped contracts (numeric order)."""
    versions = [v for t, v in contract_ids() if t == tool_id]
    return max(versions, key=lambda v: tuple(int(p) for p in v.split(".")))


def version_status(tool_id: str, version: str) -> dict[str, str]:
    """A version's status as the listings give it, from the shipped versions alone: the
    newest of the id's is current, an older one superseded by the newest."""
    latest = newest(tool_id)
    if version == latest:
        return {"status": "current"}
    return {"status": "superseded", "superseded_by": latest}
