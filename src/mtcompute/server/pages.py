"""The human catalog pages: server-rendered HTML generated from the versioned contracts.

:func:`index_page` lists every tool version; :func:`tool_page` renders one contract the way the
seed pages read (summary, use when, decide before calling, supported and not supported,
behavior, input and output tables from the JSON Schemas, limits, examples, how to call it over
MCP, HTTP and the CLI, related tools) plus a "Try it" form that POSTs to the execute endpoint.

Pages are self-contained HTML5: UTF-8, inline CSS and JavaScript, no external resource of any
kind. Every piece of contract text goes through :func:`esc` (``html.escape``); JSON shown on a
page is written as ``JSON.stringify`` writes it (:func:`pretty_json` for the indented form, the
compact form through :func:`mtcompute.core.jsjson.dumps`). Pure functions: no I/O besides
reading the shipped contracts.
"""

from __future__ import annotations

import html
import shlex
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from mtcompute.contracts import contract
from mtcompute.core.jsjson import dumps
from mtcompute.tools import get_tool, list_tools

__all__ = [
    "SchemaRow",
    "curl_command",
    "esc",
    "index_page",
    "pretty_json",
    "schema_rows",
    "shell_quote",
    "tool_page",
    "tool_title",
]


# --------------------------------------------------------------------------- text helpers


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


def tool_title(tool_id: str) -> str:
    """The human title of a tool id, as the seed pages write it.

    >>> tool_title("bleu-smoothing-compute")
    'Bleu smoothing compute'
    """
    return tool_id.replace("-", " ").replace("_", " ").capitalize()


def curl_command(base_url: str, tool_id: str, version: str, example_input: object) -> str:
    """The shell command that POSTs ``example_input`` (compact JSON) to the tool's execute URL.

    >>> print(curl_command("http://h", "t", "1.0.0", {"a": "it's"}))
    curl -X POST http://h/v1/tools/t/versions/1.0.0/execute \\
      -H "Content-Type: application/json" \\
      -d '{"a":"it'"'"'s"}'
    """
    url = f"{base_url.rstrip('/')}/v1/tools/{tool_id}/versions/{version}/execute"
    return (
        f"curl -X POST {shell_quote(url)} \\\n"
        '  -H "Content-Type: application/json" \\\n'
        f"  -d {_single_quoted(dumps(example_input))}"
    )


def _single_quoted(text: str) -> str:
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


def _schema_table(schema: Mapping[str, Any], caption: str) -> str:
    rows = schema_rows(schema)
    if not rows:
        return "<p>Any JSON value.</p>"
    with_description = any(row.description for row in rows)
    head = ["Field", "Type", "Required", "Constraints"] + (
        ["Description"] if with_description else []
    )
    lines = [
        '<div class="table-wrap"><table class="fields">',
        f'<caption class="visually-hidden">{esc(caption)}</caption>',
        "<thead><tr>" + "".join(f'<th scope="col">{h}</th>' for h in head) + "</tr></thead>",
        "<tbody>",
    ]
    for row in rows:
        constraints = "; ".join(esc(text) for text in row.constraints) or "&mdash;"
        cells = [
            f'<th scope="row" data-label="Field"><code>{esc(row.field)}</code></th>',
            f'<td data-label="Type">{esc(row.type)}</td>',
            f'<td data-label="Required"><span class="tag tag-{esc(row.required.split()[0])}">'
            f"{esc(row.required)}</span></td>",
            f'<td data-label="Constraints">{constraints}</td>',
        ]
        if with_description:
            cells.append(f'<td data-label="Description">{esc(row.description) or "&mdash;"}</td>')
        lines.append("<tr>" + "".join(cells) + "</tr>")
    lines.append("</tbody></table></div>")
    return "\n".join(lines)


# --------------------------------------------------------------------------- page frame

_CSS = """
:root {
  color-scheme: light dark;
  --fg: #1f2328; --muted: #59636e; --bg: #ffffff; --panel: #f6f8fa; --border: #d1d9e0;
  --accent: #0a5bb5; --accent-fg: #ffffff; --ok: #1a7f37; --ok-bg: #dafbe1;
  --err: #cf222e; --err-bg: #ffebe9; --warn-bg: #fff8c5; --header: #0f2a4a;
}
@media (prefers-color-scheme: dark) {
  :root {
    --fg: #e6edf3; --muted: #9198a1; --bg: #0d1117; --panel: #161b22; --border: #30363d;
    --accent: #4493f8; --accent-fg: #0d1117; --ok: #3fb950; --ok-bg: #12261e;
    --err: #f85149; --err-bg: #2d1215; --warn-bg: #2e2a14; --header: #010409;
  }
}
*, *::before, *::after { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; text-size-adjust: 100%; }
body {
  margin: 0; color: var(--fg); background: var(--bg);
  font: 16px/1.6 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Helvetica Neue",
    Arial, sans-serif;
}
a { color: var(--accent); text-underline-offset: 2px; }
code, pre, textarea, .mono {
  font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace;
}
code { font-size: 0.9em; }
:not(pre) > code {
  background: var(--panel); border: 1px solid var(--border); border-radius: 4px;
  padding: 0.05em 0.3em; overflow-wrap: anywhere;
}
.wrap { max-width: 58rem; margin: 0 auto; padding: 0 1rem; }
.site-header { background: var(--header); color: #fff; }
.site-header .wrap {
  display: flex; flex-wrap: wrap; align-items: center; gap: 0.25rem 1.25rem;
  padding-top: 0.7rem; padding-bottom: 0.7rem;
}
.site-header a { color: #fff; text-decoration: none; }
.site-header a:hover { text-decoration: underline; }
.brand { font-weight: 700; font-size: 1.1rem; letter-spacing: 0.01em; margin-right: auto; }
.site-header nav { display: flex; flex-wrap: wrap; gap: 0.25rem 1rem; font-size: 0.95rem; }
main { padding: 1.25rem 0 3rem; }
h1 { font-size: 2rem; line-height: 1.2; margin: 0.75rem 0 0.4rem; overflow-wrap: anywhere; }
h2 {
  font-size: 1.35rem; line-height: 1.3; margin: 2.4rem 0 0.75rem; padding-bottom: 0.35rem;
  border-bottom: 1px solid var(--border);
}
h3 { font-size: 1.08rem; margin: 1.5rem 0 0.5rem; }
p, li, td, th, dd, dt { overflow-wrap: break-word; }
.meta { color: var(--muted); margin: 0 0 1rem; }
.meta code { color: var(--fg); }
.lead { font-size: 1.15rem; margin: 0.5rem 0 1rem; }
.use-when { background: var(--panel); border-left: 4px solid var(--accent); padding: 0.6rem 0.9rem;
  border-radius: 0 6px 6px 0; }
.toc { display: flex; flex-wrap: wrap; gap: 0.35rem 0.5rem; padding: 0; margin: 1rem 0 0;
  list-style: none; font-size: 0.9rem; }
.toc a { display: inline-block; padding: 0.15rem 0.6rem; border: 1px solid var(--border);
  border-radius: 999px; text-decoration: none; background: var(--bg); }
.toc a:hover { border-color: var(--accent); }
ul.plain { padding: 0; }
ul.plain li { margin-block: 0.2rem; margin-inline-start: 1.3rem; }
ul.yes li::marker { color: var(--ok); }
ul.no li::marker { color: var(--err); }
ul.behavior li { margin-block: 0.45rem; }
blockquote { margin: 0.75rem 0; padding: 0.5rem 1rem; border-left: 4px solid var(--border);
  color: var(--muted); font-style: italic; }
pre {
  background: var(--panel); border: 1px solid var(--border); border-radius: 6px;
  padding: 0.75rem 1rem; margin: 0.5rem 0 1rem; overflow: auto; max-height: 30rem;
  line-height: 1.45; font-size: 0.875rem; tab-size: 2;
}
pre code { font-size: inherit; }
.label { font-weight: 600; margin: 0.75rem 0 0.25rem; }
.pair > div { min-width: 0; }
@media (min-width: 52rem) {
  .pair { display: grid; grid-template-columns: 1fr 1fr; gap: 0 1.25rem; }
}
.table-wrap { overflow-x: auto; border: 1px solid var(--border); border-radius: 6px;
  margin: 0.5rem 0 1rem; }
table { border-collapse: collapse; width: 100%; font-size: 0.92rem; }
th, td { text-align: left; vertical-align: top; padding: 0.5rem 0.7rem;
  border-bottom: 1px solid var(--border); }
thead th { background: var(--panel); font-weight: 600; white-space: nowrap; }
tbody th { font-weight: 400; white-space: nowrap; }
tbody tr:last-child > * { border-bottom: 0; }
.tag { display: inline-block; font-size: 0.8rem; padding: 0 0.45rem; border-radius: 999px;
  border: 1px solid var(--border); white-space: nowrap; }
.tag-required { background: var(--warn-bg); }
.nowrap { white-space: nowrap; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden;
  clip: rect(0 0 0 0); white-space: nowrap; }
.cards { list-style: none; padding: 0; margin: 0; display: grid; gap: 0.9rem;
  grid-template-columns: repeat(auto-fill, minmax(min(100%, 16rem), 1fr)); }
.card { border: 1px solid var(--border); border-radius: 8px; padding: 0.9rem 1rem;
  display: flex; flex-direction: column; background: var(--bg); }
.card h3 { margin: 0 0 0.2rem; font-size: 1.1rem; }
.card p { margin: 0.4rem 0; }
.card .meta { font-size: 0.85rem; margin: 0.1rem 0 0; }
.card .links { margin-top: auto; padding-top: 0.4rem; display: flex; flex-wrap: wrap;
  gap: 0.3rem 1rem; font-size: 0.92rem; }
.try { border: 1px solid var(--border); border-radius: 8px; padding: 1rem;
  background: var(--panel); }
.try label { display: block; font-weight: 600; margin-bottom: 0.35rem; }
.try select { font: inherit; padding: 0.3rem 0.4rem; margin-bottom: 0.8rem; max-width: 100%;
  border: 1px solid var(--border); border-radius: 6px; background: var(--bg); color: var(--fg); }
.try textarea {
  display: block; width: 100%; min-height: 8rem; padding: 0.6rem 0.75rem; font-size: 0.875rem;
  line-height: 1.45; border: 1px solid var(--border); border-radius: 6px; resize: vertical;
  background: var(--bg); color: var(--fg);
}
.try textarea:focus, .try select:focus, .button:focus-visible {
  outline: 2px solid var(--accent); outline-offset: 1px; }
.try-bar { display: flex; flex-wrap: wrap; align-items: center; gap: 0.6rem 1rem;
  margin: 0.8rem 0; }
.button { font: inherit; font-weight: 600; padding: 0.45rem 1.4rem; border-radius: 6px;
  border: 1px solid transparent; background: var(--accent); color: var(--accent-fg);
  cursor: pointer; }
.button:disabled { opacity: 0.6; cursor: progress; }
.hint { color: var(--muted); font-size: 0.875rem; }
.status { font-weight: 600; padding: 0.15rem 0.6rem; border-radius: 999px; font-size: 0.9rem; }
.status:empty { display: none; }
.status-ok { color: var(--ok); background: var(--ok-bg); }
.status-error { color: var(--err); background: var(--err-bg); }
.status-pending { color: var(--muted); }
.try pre { background: var(--bg); margin-bottom: 0; min-height: 3rem; }
.try pre#try-output { white-space: pre-wrap; overflow-wrap: anywhere; }
.try pre.empty { color: var(--muted); font-family: inherit; }
.site-footer { border-top: 1px solid var(--border); color: var(--muted); font-size: 0.875rem;
  padding: 1rem 0 2rem; }
@media (max-width: 40rem) {
  h1 { font-size: 1.6rem; }
  .lead { font-size: 1.05rem; }
  table.fields thead { position: absolute; width: 1px; height: 1px; overflow: hidden;
    clip: rect(0 0 0 0); }
  table.fields, table.fields tbody, table.fields tr, table.fields th, table.fields td {
    display: block; width: 100%; }
  table.fields tr { padding: 0.55rem 0.75rem; border-bottom: 1px solid var(--border); }
  table.fields tbody tr:last-child { border-bottom: 0; }
  table.fields th, table.fields td { border: 0; padding: 0.1rem 0; white-space: normal; }
  table.fields tbody th code { font-weight: 600; }
  table.fields td::before { content: attr(data-label) ": "; color: var(--muted);
    font-size: 0.85rem; }
  table.fields td[data-label="Type"], table.fields td[data-label="Required"] {
    display: inline-block; width: auto; margin-right: 0.6rem; }
  table.fields td[data-label="Required"]::before { content: none; }
  .try { padding: 0.75rem; }
}
"""

_SCRIPT = """
(function () {
  "use strict";
  var form = document.getElementById("try-form");
  if (!form) { return; }
  var input = document.getElementById("try-input");
  var run = document.getElementById("try-run");
  var output = document.getElementById("try-output");
  var status = document.getElementById("try-status");
  var select = document.getElementById("try-example");
  var url = form.getAttribute("data-execute-url");

  function show(kind, code, statusText, body) {
    status.className = "status status-" + kind;
    status.setAttribute("data-status", code);
    status.textContent = statusText;
    output.textContent = body;
    output.classList.remove("empty");
  }

  if (select) {
    select.addEventListener("change", function () {
      input.value = select.options[select.selectedIndex].getAttribute("data-input");
    });
  }
  input.addEventListener("keydown", function (event) {
    if ((event.ctrlKey || event.metaKey) && event.key === "Enter") {
      event.preventDefault();
      run.click();
    }
  });
  form.addEventListener("submit", function (event) {
    event.preventDefault();
    run.disabled = true;
    show("pending", "pending", "Running\\u2026", "");
    fetch(url, {
      method: "POST",
      headers: {"Content-Type": "application/json", "Accept": "application/json"},
      body: input.value
    }).then(function (response) {
      return response.text().then(function (text) {
        var shown = text;
        try { shown = JSON.stringify(JSON.parse(text), null, 2); } catch (ignored) {}
        var label = "HTTP " + response.status +
          (response.statusText ? " " + response.statusText : "");
        show(response.ok ? "ok" : "error", String(response.status), label, shown);
      });
    }).catch(function (error) {
      show("error", "network-error", "Network error",
        "The request did not reach the server (" +
        (error && error.message ? error.message : String(error)) +
        "). Check your connection and try again.");
    }).then(function () {
      run.disabled = false;
    });
  });
})();
"""


def _layout(title: str, description: str, body: str, with_script: bool = False) -> str:
    from mtcompute import __version__  # noqa: PLC0415 - the package imports this module lazily

    script = f"<script>{_SCRIPT}</script>\n" if with_script else ""
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en">\n<head>\n'
        '<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{esc(title)}</title>\n"
        f'<meta name="description" content="{esc(description)}">\n'
        f"<style>{_CSS}</style>\n"
        "</head>\n<body>\n"
        '<header class="site-header"><div class="wrap">'
        '<a class="brand" href="/">mtcompute</a>'
        '<nav aria-label="Site"><a href="/">Catalog</a>'
        '<a href="/v1/tools">Catalog JSON</a></nav>'
        "</div></header>\n"
        f'<main class="wrap">\n{body}\n</main>\n'
        '<footer class="site-footer"><div class="wrap">'
        f"mtcompute {esc(__version__)} &middot; exact, versioned machine-translation metric tools"
        " &middot; free, no key needed"
        "</div></footer>\n"
        f"{script}"
        "</body>\n</html>\n"
    )


def _code_block(text: str, label: str = "") -> str:
    aria = f' aria-label="{esc(label)}"' if label else ""
    return f'<pre tabindex="0"{aria}><code>{esc(text)}</code></pre>'


def _bullets(lines: Sequence[object], css: str) -> str:
    items = "".join(f'<li dir="auto">{esc(line)}</li>' for line in lines)
    return f'<ul class="plain {css}">{items}</ul>'


def _price(document: Mapping[str, Any]) -> str:
    pricing = document.get("pricing")
    charge = pricing.get("charge_usd") if isinstance(pricing, Mapping) else None
    if not charge:
        return "free, no key needed"
    return f"US${dumps(charge)} per call"


def _contract_url(tool_id: str, version: str) -> str:
    return f"/v1/tools/{tool_id}/versions/{version}"


def _page_url(tool_id: str, version: str) -> str:
    return f"/tools/{tool_id}/{version}"


# --------------------------------------------------------------------------- index page


def index_page(base_url: str) -> str:
    """The catalog page: what mtcompute is, how to call a tool, and every tool version."""
    base = base_url.rstrip("/")
    tools = [contract(tool.id, tool.version) for tool in list_tools()]
    cards = []
    for document in tools:
        tool_id, version = str(document["id"]), str(document["version"])
        cards.append(
            '<li class="card">'
            f'<h3><a href="{esc(_page_url(tool_id, version))}">{esc(tool_title(tool_id))}</a></h3>'
            f'<div class="meta"><code>{esc(tool_id)}</code> &middot; '
            f'<span class="nowrap">version <code>{esc(version)}</code></span></div>'
            f"<p>{esc(document.get('description', ''))}</p>"
            '<div class="links">'
            f'<a href="{esc(_page_url(tool_id, version))}">Tool page</a>'
            f'<a href="{esc(_contract_url(tool_id, version))}">Contract JSON</a>'
            "</div></li>"
        )
    # The shortest example of the catalog makes the most readable sample call.
    samples: list[tuple[int, str, str, object]] = [
        (len(dumps(example["input"])), str(d["id"]), str(d["version"]), example["input"])
        for d in tools
        for example in d.get("examples", [])
    ]
    _, sample_id, sample_version, sample_input = min(
        samples, key=lambda s: s[0], default=(0, "TOOL", "VERSION", {})
    )
    mcp_call: dict[str, object] = {
        "id": sample_id,
        "version": sample_version,
        "input": sample_input,
    }
    body = f"""
<h1>mtcompute</h1>
<p class="lead">A catalog of exact, versioned machine-translation metric tools (BLEU and chrF).
Each tool version has a contract: what it supports and what it does not, its exact behavior,
its input and output schemas, its limits and worked examples. Every surface (HTTP, MCP, the
CLI and the Python library) returns the same answer.</p>
<p class="meta">{len(tools)} tool versions &middot; free, no key needed &middot;
machine-readable catalog at <a href="/v1/tools">/v1/tools</a></p>

<h2 id="tools">Tools</h2>
<ul class="cards">
{"".join(cards)}
</ul>

<h2 id="how-to-call">How to call a tool</h2>
<p>Send the tool's input as JSON; the answer is an envelope: <code>{{"result": {{...}}}}</code>
on success or <code>{{"error": {{"code", "message", "path"}}}}</code> with a code
(<code>invalid_input</code>, <code>limit_exceeded</code>, <code>unsupported_input</code>,
<code>not_found</code>) and a JSON Pointer to the field at fault. Pin the version: a version's
behavior never changes.</p>
<h3>HTTP</h3>
<p><code>POST {esc(base)}/v1/tools/{{id}}/versions/{{version}}/execute</code> with the input as
the JSON body. Status 200 with a result; 400, 413, 422 or 404 with an error envelope.</p>
{_code_block(curl_command(base, sample_id, sample_version, sample_input), "curl example")}
<h3>MCP</h3>
<p>Connect an MCP client to <code>{esc(base)}/mcp</code> (streamable HTTP) and call the tool
<code>execute</code> with the tool id, version and input:</p>
{_code_block(pretty_json(mcp_call), "MCP execute arguments")}
<p>Desktop agents can run the same server over stdio with <code>mtcompute mcp</code>.</p>
<h3>CLI</h3>
{_code_block(_cli_command(base, sample_id, sample_version), "CLI example")}
<p>With <code>input.json</code> holding the input. Omit <code>--base-url</code> to compute
locally; <code>mtcompute list</code> and <code>mtcompute describe ID VERSION</code> show the
catalog and a contract.</p>
"""
    return _layout(
        "mtcompute · MT metric tools catalog",
        "Exact, versioned machine-translation metric tools (BLEU, chrF) for people and agents.",
        body,
    )


def _cli_command(base: str, tool_id: str, version: str) -> str:
    return (
        f"mtcompute run {shell_quote(tool_id)} {shell_quote(version)} "
        f"--input input.json --base-url {shell_quote(base)}"
    )


# --------------------------------------------------------------------------- tool page


def tool_page(tool_id: str, version: str, base_url: str) -> str:
    """The page of one tool version, generated from its contract; :class:`NotFound` if none."""
    get_tool(tool_id, version)
    document = contract(tool_id, version)
    base = base_url.rstrip("/")
    title = tool_title(tool_id)
    ref = f"{tool_id}@{version}"
    supported: list[str] = [str(s) for s in document.get("supported_operations", [])]
    unsupported: list[str] = [str(s) for s in document.get("unsupported_operations", [])]
    semantics: list[str] = [str(s) for s in document.get("semantics", [])]
    examples: list[Mapping[str, Any]] = [
        e for e in document.get("examples", []) if isinstance(e, Mapping)
    ]
    price = _price(document)
    contract_url = _contract_url(tool_id, version)
    execute_url = str(document.get("execute_url") or f"{contract_url}/execute")

    sections: list[str] = []
    toc: list[tuple[str, str]] = []

    def section(anchor: str, heading: str, content: str) -> None:
        toc.append((anchor, heading))
        sections.append(f'<h2 id="{anchor}">{esc(heading)}</h2>\n{content}')

    use_when = " &middot; ".join(f'<span dir="auto">{esc(s)}</span>' for s in supported[:3])
    free = "The service is free" if price.startswith("free") else "The service is priced"
    first_use = supported[0] if supported else "this task"
    section(
        "decide",
        "Decide before calling",
        f"<p>Read the versioned contract and the supported scope below. Reuse "
        f"<code>{esc(ref)}</code> when your input, required output and limits match it. "
        "Choose another approach for an unsupported operation.</p>"
        "<h3>Explain the choice</h3>"
        f"<blockquote>&ldquo;I can use {esc(ref)} for {esc(first_use)}. I will check its "
        "documented scope and the result against the task&rsquo;s requirements. "
        f"{free}; token and money savings for this task are unmeasured.&rdquo;</blockquote>",
    )
    section("supported", "Supported", _bullets(supported, "yes"))
    section("not-supported", "Not supported", _bullets(unsupported, "no"))
    section("behavior", "Behavior", _bullets(semantics, "behavior"))
    input_schema = document.get("input_schema", {})
    closed = isinstance(input_schema, Mapping) and input_schema.get("additionalProperties") is False
    section(
        "input",
        "Input",
        ("<p>A JSON object; unknown keys are refused.</p>" if closed else "")
        + _schema_table(input_schema, f"Input fields of {ref}"),
    )
    section(
        "output",
        "Output",
        "<p>The <code>result</code> object of a successful response.</p>"
        + _schema_table(document.get("output_schema", {}), f"Output fields of {ref}"),
    )
    limits = document.get("limits")
    limit_items = (
        [
            f"<li>{esc(str(k).replace('_', ' '))}: <code>{esc(dumps(v))}</code></li>"
            for k, v in limits.items()
        ]
        if isinstance(limits, Mapping)
        else []
    )
    section(
        "limits",
        "Limits",
        (
            f'<ul class="plain">{"".join(limit_items)}</ul>'
            "<p>An input over a limit gets the error <code>limit_exceeded</code> "
            "(HTTP 413).</p>"
        )
        if limit_items
        else "<p>No limits beyond the input schema.</p>",
    )
    section("example", "Examples" if len(examples) > 1 else "Example", _examples(examples))
    section("try", "Try it", _try_form(examples, execute_url))
    section(
        "call",
        "How to call it",
        _how_to_call(base, tool_id, version, examples, contract_url),
    )
    related = [t for t in list_tools() if (t.id, t.version) != (tool_id, version)]
    if related:
        items = "".join(
            f'<li><a href="{esc(_page_url(t.id, t.version))}">{esc(tool_title(t.id))}</a>'
            f' <span class="meta">({esc(t.id)} {esc(t.version)})</span>: '
            f"{esc(contract(t.id, t.version).get('description', ''))}</li>"
            for t in related
        )
        section("related", "Related tools", f'<ul class="plain">{items}</ul>')

    toc_html = "".join(f'<li><a href="#{a}">{esc(h)}</a></li>' for a, h in toc)
    body = (
        f"<h1>{esc(title)}</h1>\n"
        f'<p class="meta"><code>{esc(tool_id)}</code> &middot; version <code>{esc(version)}</code>'
        f' &middot; {esc(price)} &middot; <a href="{esc(contract_url)}">contract JSON</a></p>\n'
        f'<p class="lead">{esc(document.get("description", ""))}</p>\n'
        f'<p class="use-when"><strong>Use when you need to:</strong> {use_when}.</p>\n'
        f'<nav aria-label="On this page"><ul class="toc">{toc_html}</ul></nav>\n'
        + "\n".join(sections)
    )
    return _layout(
        f"{title} ({tool_id} {version}) · mtcompute",
        str(document.get("description", "")),
        body,
        with_script=True,
    )


def _examples(examples: Sequence[Mapping[str, Any]]) -> str:
    if not examples:
        return "<p>This contract has no worked example.</p>"
    parts = []
    for number, example in enumerate(examples, start=1):
        if len(examples) > 1:
            parts.append(f"<h3>Example {number}</h3>")
        request = _code_block(pretty_json(example.get("input")), f"Example {number} input")
        response = _code_block(
            pretty_json({"result": example.get("output")}), f"Example {number} response"
        )
        parts.append(
            '<div class="pair">'
            f'<div><p class="label">Request input:</p>{request}</div>'
            f'<div><p class="label">Response:</p>{response}</div>'
            "</div>"
        )
    return "\n".join(parts)


def _try_form(examples: Sequence[Mapping[str, Any]], execute_url: str) -> str:
    first = pretty_json(examples[0].get("input")) if examples else "{}"
    rows = min(max(first.count("\n") + 2, 6), 22)
    chooser = ""
    if len(examples) > 1:
        options = "".join(
            f'<option value="{i}" data-input="{esc(pretty_json(e.get("input")))}">'
            f"Example {i + 1}</option>"
            for i, e in enumerate(examples)
        )
        chooser = (
            '<label for="try-example">Start from</label>'
            f'<select id="try-example">{options}</select>'
        )
    return (
        "<p>Edit the input and run the tool on this server. The request is a plain "
        f"<code>POST {esc(execute_url)}</code>; nothing is stored.</p>"
        f'<form class="try" id="try-form" data-execute-url="{esc(execute_url)}">'
        f"{chooser}"
        '<label for="try-input">Input (JSON)</label>'
        '<textarea id="try-input" name="input" spellcheck="false" autocomplete="off" '
        f'autocapitalize="off" rows="{rows}">{esc(first)}</textarea>'
        '<div class="try-bar">'
        '<button class="button" type="submit" id="try-run">Run</button>'
        '<span id="try-status" class="status" role="status" aria-live="polite"></span>'
        '<span class="hint">Ctrl+Enter runs</span>'
        "</div>"
        '<p class="label" id="try-output-label">Response</p>'
        '<pre id="try-output" class="empty" tabindex="0" aria-labelledby="try-output-label" '
        'aria-live="polite">Press Run to see the status and the response envelope.</pre>'
        "<noscript><p>The Run button needs JavaScript; use the curl command below.</p></noscript>"
        "</form>"
    )


def _how_to_call(
    base: str,
    tool_id: str,
    version: str,
    examples: Sequence[Mapping[str, Any]],
    contract_url: str,
) -> str:
    sample_input = examples[0].get("input") if examples else {}
    mcp_call = {"id": tool_id, "version": version, "input": sample_input}
    return (
        "<h3>MCP</h3>"
        f"<p>Connect <code>{esc(base)}/mcp</code> (streamable HTTP; or <code>mtcompute mcp</code>"
        " over stdio), then call the tool <code>execute</code> with:</p>"
        + _code_block(pretty_json(mcp_call), "MCP execute arguments")
        + "<h3>HTTP (no key)</h3>"
        + _code_block(curl_command(base, tool_id, version, sample_input), "curl command")
        + "<p>The response body is the envelope; the status is 200 with a result, 400, 413, "
        "422 or 404 with an error. The machine-readable contract is at "
        f'<a href="{esc(contract_url)}">{esc(contract_url)}</a>.</p>'
        "<h3>CLI</h3>"
        + _code_block(_cli_command(base, tool_id, version), "CLI command")
        + "<p>With <code>input.json</code> holding the request input. Omit "
        "<code>--base-url</code> to compute locally; the envelope is the same.</p>"
    )
