"""The text of the catalog pages: HTML escaping, shell words, indented JSON, tool titles, the
curl command of an example, and the input and output tables read from a contract's JSON
Schemas. Pure functions over strings and schemas.
"""

from __future__ import annotations

__all__ = [
    "SchemaRow",
    "SchemaTable",
    "curl_command",
    "esc",
    "pretty_json",
    "schema_rows",
    "schema_table",
    "shell_quote",
    "single_quoted",
    "tool_title",
]

import html
import shlex
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from mtcompute.core.jsjson import dumps


def esc(text: object) -> str:
    """``text`` as HTML text or attribute value: ``& < > " '`` escaped."""
    return html.escape(str(text), quote=True)


def shell_quote(text: str) -> str:
    """One POSIX shell word for ``text`` (single quotes; an inner ``'`` becomes ``'"'"'``)."""
    return shlex.quote(text)


def pretty_json(value: object, indent: str = "") -> str:
    """JSON text indented by two spaces, as ``JSON.stringify(value, null, 2)`` writes it.

    >>> print(pretty_json({"a": [1, 2.5], "b": {}}))
    {
      "a": [
        1,
        2.5
      ],
      "b": {}
    }
    """
    inner = indent + "  "
    if isinstance(value, Mapping):
        if not value:
            return "{}"
        members = [f"{inner}{dumps(str(k))}: {pretty_json(v, inner)}" for k, v in value.items()]
        return "{\n" + ",\n".join(members) + "\n" + indent + "}"
    if isinstance(value, Sequence) and not isinstance(value, str | bytes | bytearray):
        if not value:
            return "[]"
        items = [inner + pretty_json(item, inner) for item in value]
        return "[\n" + ",\n".join(items) + "\n" + indent + "]"
    return dumps(value)


# Words of tool ids written as their proper names (Papineni's BLEU, Popović's chrF, Snover's
# TER, Post's sacreBLEU); "plus plus" is chrF++.
_PROPER_NAMES: Final = {"bleu": "BLEU", "chrf": "chrF", "ter": "TER", "sacrebleu": "sacreBLEU"}


def tool_title(tool_id: str) -> str:
    """The human title of a tool id: the seed pages' words, with the metrics' proper names.

    >>> tool_title("bleu-smoothing-compute")
    'BLEU smoothing compute'
    >>> tool_title("chrf-plus-plus-compute")
    'chrF++ compute'
    >>> tool_title("paired-significance")
    'Paired significance'
    """
    words = tool_id.replace("_", "-").split("-")
    text = " ".join(_PROPER_NAMES.get(word, word) for word in words).replace(" plus plus", "++")
    return text[:1].upper() + text[1:] if words[0] not in _PROPER_NAMES else text


def curl_command(
    base_url: str, tool_id: str, version: str, example_input: object, *, key_needed: bool = False
) -> str:
    """The shell command that POSTs ``example_input`` (compact JSON) to the tool's execute URL;
    with ``key_needed``, it sends ``$MTCOMPUTE_API_KEY`` as a bearer token.

    >>> print(curl_command("http://h", "t", "1.0.0", {"a": "it's"}))
    curl -X POST http://h/v1/tools/t/versions/1.0.0/execute \\
      -H "Content-Type: application/json" \\
      -d '{"a":"it'"'"'s"}'
    """
    url = f"{base_url.rstrip('/')}/v1/tools/{tool_id}/versions/{version}/execute"
    return (
        f"curl -X POST {shell_quote(url)} \\\n"
        '  -H "Content-Type: application/json" \\\n'
        + ('  -H "Authorization: Bearer $MTCOMPUTE_API_KEY" \\\n' if key_needed else "")
        + f"  -d {single_quoted(dumps(example_input))}"
    )


def single_quoted(text: str) -> str:
    # Always single quotes (shlex.quote leaves a "safe" word bare), so the command reads the
    # same for every example.
    return "'" + text.replace("'", "'\"'\"'") + "'"


# --------------------------------------------------------------------------- JSON Schema tables


@dataclass(frozen=True, slots=True)
class SchemaRow:
    """One line of an input or output table: a field (or the items of an array field)."""

    field: str
    type: str
    required: str
    constraints: tuple[str, ...]
    description: str


def _type_text(schema: Mapping[str, Any]) -> str:
    kind = schema.get("type")
    if isinstance(kind, list):
        return " or ".join(str(k) for k in kind)
    if kind == "array":
        items = schema.get("items")
        return "array of " + (_type_text(items) if isinstance(items, Mapping) else "any")
    if isinstance(kind, str):
        return kind
    if "enum" in schema:
        return "enum"
    return "any"


def _constraints(schema: Mapping[str, Any]) -> list[str]:
    """The schema's own bounds, then (for an array of scalars) each item's, prefixed "each"."""
    words = (
        ("minimum", "min"),
        ("exclusiveMinimum", "greater than"),
        ("maximum", "max"),
        ("exclusiveMaximum", "less than"),
        ("minLength", "min length"),
        ("maxLength", "max length"),
        ("minItems", "min items"),
        ("maxItems", "max items"),
        ("minProperties", "min properties"),
        ("maxProperties", "max properties"),
        ("multipleOf", "multiple of"),
    )
    found: list[str] = []
    if "const" in schema:
        found.append(f"always {dumps(schema['const'])}")
    if isinstance(schema.get("enum"), list):
        found.append("one of " + ", ".join(dumps(value) for value in schema["enum"]))
    found.extend(f"{word} {dumps(schema[key])}" for key, word in words if key in schema)
    if schema.get("uniqueItems") is True:
        found.append("items unique")
    if isinstance(schema.get("pattern"), str):
        found.append(f"pattern {schema['pattern']}")
    items = schema.get("items")
    if schema.get("type") == "array" and isinstance(items, Mapping) and not _is_nested(items):
        found.extend(f"each {text}" for text in _constraints(items))
    return found


def _is_nested(schema: Mapping[str, Any]) -> bool:
    return schema.get("type") in ("array", "object")


def schema_rows(schema: Mapping[str, Any], prefix: str = "") -> list[SchemaRow]:
    """Table rows for an object schema: one per property, in schema order, then its inner
    fields (``ngrams[].order``) and, for arrays of arrays, the inner arrays (``references[]``).
    """
    rows: list[SchemaRow] = []
    properties = schema.get("properties")
    if not isinstance(properties, Mapping):
        return rows
    required = schema.get("required")
    required_names = set(required) if isinstance(required, list) else set()
    for name, sub in properties.items():
        if not isinstance(sub, Mapping):
            continue
        path = f"{prefix}{name}"
        status = "required" if name in required_names else "optional"
        rows.append(_row(path, sub, status))
        rows.extend(_inner_rows(path, sub))
    return rows


def _row(path: str, schema: Mapping[str, Any], status: str) -> SchemaRow:
    description = schema.get("description")
    return SchemaRow(
        field=path,
        type=_type_text(schema),
        required=status,
        constraints=tuple(_constraints(schema)),
        description=description if isinstance(description, str) else "",
    )


def _inner_rows(path: str, schema: Mapping[str, Any]) -> list[SchemaRow]:
    if schema.get("type") == "object":
        return schema_rows(schema, prefix=f"{path}.")
    items = schema.get("items")
    if schema.get("type") != "array" or not isinstance(items, Mapping) or not _is_nested(items):
        return []
    if items.get("type") == "object":
        return schema_rows(items, prefix=f"{path}[].")
    return [_row(f"{path}[]", items, "each item"), *_inner_rows(f"{path}[]", items)]


@dataclass(frozen=True, slots=True)
class SchemaTable:
    """The input or output table of a tool page (``schema_table`` in ``macros.html``)."""

    caption: str
    rows: tuple[SchemaRow, ...]

    @property
    def with_description(self) -> bool:
        """Whether the table has a Description column (some row has a description)."""
        return any(row.description for row in self.rows)


def schema_table(schema: Mapping[str, Any], caption: str) -> SchemaTable:
    """The table of an object schema: its :func:`schema_rows` (none: "Any JSON value")."""
    return SchemaTable(caption=caption, rows=tuple(schema_rows(schema)))
