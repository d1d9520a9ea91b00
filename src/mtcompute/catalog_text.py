"""The catalog's description of itself, generated from the catalog.

Every text that describes the catalog (the MCP instructions and tool descriptions, the MCP
server description, the home page, the CLI's description, the OpenAPI description) is made
from what this module gives: the tool ids and versions of the shipped contracts, and each
tool's presentation metadata in ``server/catalog_meta.json`` (what its input is, its task,
the metric families it serves, a short summary). A new tool therefore appears in every text
without anyone editing one; ``tests/server/test_describing_texts.py`` fails when a tool has
no metadata, when the metadata's input kind disagrees with the contract's input schema, or
when a text leaves a tool out.

Cheap on purpose: it lists the contract files and reads one small JSON file, parses no
contract and imports neither the tools nor the server, so ``mtcompute --help`` can use it.
"""

from __future__ import annotations

__all__ = [
    "INPUT_KINDS",
    "TASKS",
    "ToolFacts",
    "and_list",
    "group_lines",
    "metric_families",
    "raw_text_advice",
    "summary_sentence",
    "tool_facts",
    "tool_groups",
    "tool_metadata",
]

import json
import os
from functools import cache
from typing import Any, Final, NamedTuple

from mtcompute.contracts import contract_ids, version_key

# What a tool's input is, in the texts' order, with the words that say what it looks like.
INPUT_KINDS: Final = {
    "raw text": "sentences as strings",
    "tokens": "token lists",
    "counts": "lengths or n-gram counts",
}
# What a tool does, in the texts' order, as the summary sentence names it.
TASKS: Final = {
    "score": "scores",
    "statistics": "statistics",
    "tokenize": "tokenization",
    "significance": "paired significance tests",
}

# The metadata file, beside the pages that first used it; read by path so that nothing here
# imports the server package.
_META_PATH: Final = os.path.join(os.path.dirname(__file__), "server", "catalog_meta.json")


class ToolFacts(NamedTuple):
    """One tool id (every version) as the describing texts present it."""

    id: str
    versions: tuple[str, ...]
    """Oldest first; the last is the newest."""
    category: str
    takes: str
    """One of :data:`INPUT_KINDS`, or ``"unknown"`` for a tool without metadata."""
    task: str
    metrics: tuple[str, ...]
    summary: str
    related: tuple[str, ...]

    @property
    def version(self) -> str:
        """The newest version."""
        return self.versions[-1]

    @property
    def ref(self) -> str:
        """``id@version`` of the newest version."""
        return f"{self.id}@{self.version}"

    def line(self) -> str:
        """``id@newest (summary; older: 1.0.0)``: the tool in a list of the texts."""
        notes = [self.summary] if self.summary else []
        if len(self.versions) > 1:
            notes.append(f"older: {', '.join(reversed(self.versions[:-1]))}")
        return f"{self.ref} ({'; '.join(notes)})" if notes else self.ref


@cache
def tool_metadata() -> dict[str, dict[str, Any]]:
    """The entries of ``server/catalog_meta.json``, by tool id (do not mutate: cached)."""
    with open(_META_PATH, encoding="utf-8") as file:
        tools: dict[str, dict[str, Any]] = json.load(file)["tools"]
    return tools


def _strings(value: object) -> tuple[str, ...]:
    return tuple(str(item) for item in value) if isinstance(value, list) else ()


@cache
def tool_facts() -> tuple[ToolFacts, ...]:
    """Every tool id of the shipped contracts, sorted, with its versions and metadata.

    A tool the metadata file does not name still appears (input kind ``"unknown"``, no
    summary), so that no text can leave it out; the tests fail on it.
    """
    versions: dict[str, list[str]] = {}
    for tool_id, version in contract_ids():
        versions.setdefault(tool_id, []).append(version)
    metadata = tool_metadata()
    facts = []
    for tool_id in sorted(versions):
        meta = metadata.get(tool_id, {})
        facts.append(
            ToolFacts(
                id=tool_id,
                versions=tuple(sorted(versions[tool_id], key=version_key)),
                category=str(meta.get("category", "Text")),
                takes=str(meta.get("takes", "unknown")),
                task=str(meta.get("task", "")),
                metrics=_strings(meta.get("metrics")),
                summary=str(meta.get("summary", "")),
                related=_strings(meta.get("related")),
            )
        )
    return tuple(facts)


def and_list(words: list[str] | tuple[str, ...], last: str = "and") -> str:
    """``a, b and c`` (``last`` between the last two)."""
    if len(words) < 2:
        return "".join(words)
    return f"{', '.join(words[:-1])} {last} {words[-1]}"


def metric_families() -> tuple[str, ...]:
    """The metric families the catalog serves, in order of first appearance."""
    seen: dict[str, None] = {}
    for facts in tool_facts():
        seen.update(dict.fromkeys(facts.metrics))
    return tuple(seen)


def tool_groups() -> tuple[tuple[str, tuple[ToolFacts, ...]], ...]:
    """(input kind, its tools) for each kind some tool takes, known kinds first."""
    kinds = [*INPUT_KINDS, *sorted({f.takes for f in tool_facts()} - set(INPUT_KINDS))]
    groups = ((kind, tuple(f for f in tool_facts() if f.takes == kind)) for kind in kinds)
    return tuple((kind, tools) for kind, tools in groups if tools)


def _kind_label(kind: str) -> str:
    words = INPUT_KINDS.get(kind)
    return f"{kind} ({words})" if words else kind


def group_lines(*, summaries: bool = True, labels: bool = True) -> tuple[str, ...]:
    """One line per input kind: ``raw text (sentences as strings): id@version (summary), ...``;
    without ``labels``, the kind alone (``raw text: ...``); without ``summaries``, the tool
    ids alone (``raw text: id, id``)."""
    return tuple(
        f"{_kind_label(kind) if labels else kind}: "
        + ", ".join(f.line() if summaries else f.id for f in tools)
        for kind, tools in tool_groups()
    )


def summary_sentence(*, short: bool = False) -> str:
    """What the catalog is, in one sentence: its metric families, tasks and input kinds;
    ``short``, the metric families only (for the MCP server description, which the newest
    protocol repeats in every answer)."""
    facts = tool_facts()
    tasks = [words for task, words in TASKS.items() if any(f.task == task for f in facts)]
    kinds = [kind for kind, _ in tool_groups() if kind in INPUT_KINDS]
    what = and_list(metric_families())
    if short:
        return f"Exact, versioned machine-translation metric tools: {what}."
    return (
        f"Exact, versioned machine-translation metric tools: {what}"
        + (f" ({', '.join(tasks)})" if tasks else "")
        + (f", from {and_list(kinds, 'or')}" if kinds else "")
        + "."
    )


def raw_text_advice() -> str:
    """Which tools raw sentences go to, and why the token tools are not for them."""
    facts = tool_facts()
    scorers = sorted(
        (f for f in facts if f.takes == "raw text" and f.task == "score"),
        key=lambda f: -len(f.metrics),
    )
    tokenizers = [f for f in facts if f.task == "tokenize"]
    advice = []
    if any(f.takes == "raw text" for f in facts):
        best = f", e.g. {scorers[0].id}" if scorers else ""
        advice.append(f'Raw sentences go to a "raw text" tool{best}.')
    if any(f.takes == "tokens" for f in facts):
        maker = f", from {tokenizers[0].id}" if tokenizers else ""
        advice.append(
            f'"tokens" tools need token lists{maker} (a sentence as one token scores BLEU 0).'
        )
    return " ".join(advice)
