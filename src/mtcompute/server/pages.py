"""The human catalog pages: server-rendered HTML generated from the versioned contracts.

:func:`index_page` lists every tool version; :func:`tool_page` renders one contract the way the
seed pages read (summary, use when, decide before calling, supported and not supported,
behavior, input and output tables from the JSON Schemas, limits, examples, how to call it over
MCP, HTTP and the CLI, related tools) plus a "Try it" form that POSTs to the execute endpoint.

This module builds the data of a page (:class:`IndexPage`, :class:`ToolPage`); the markup is in
the Jinja2 templates of ``server/templates/`` (``layout.html``, ``index.html``, ``tool.html``,
``macros.html``), with the CSS and the try-it script as files the layout includes, so that a
page is one self-contained HTML5 document: UTF-8, no external resource of any kind. Every
value a template prints is escaped (autoescaping, written as :func:`esc` writes it); JSON shown
on a page is written as ``JSON.stringify`` writes it (:func:`pretty_json` for the indented form,
the compact form through :func:`mtcompute.core.jsjson.dumps`). Pure functions: no I/O besides
reading the shipped contracts and the templates.
"""

from __future__ import annotations

__all__ = [
    "CLIENTS_PATH",
    "CLIENT_FILES",
    "DEFAULT_CATEGORY",
    "FREE",
    "FREE_WITH_KEY",
    "MCP_SETUP_PATH",
    "SEARCH_CARDS",
    "SEARCH_CARD_LINES",
    "Calls",
    "ClientDownload",
    "ClientsPage",
    "Example",
    "IndexPage",
    "McpSetupPage",
    "McpSnippet",
    "SchemaRow",
    "SchemaTable",
    "SearchLine",
    "SearchResult",
    "ToolLink",
    "ToolMeta",
    "ToolPage",
    "catalog_meta",
    "client_file",
    "clients_page",
    "curl_command",
    "esc",
    "index_page",
    "mcp_setup_page",
    "mcp_snippets",
    "pretty_json",
    "schema_rows",
    "schema_table",
    "shell_quote",
    "tool_page",
    "tool_title",
]

import hashlib
import html
import shlex
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any, Final, cast

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape
from markupsafe import Markup

from mtcompute._version import __version__
from mtcompute.catalog import catalog_entries, catalog_entry
from mtcompute.core.jsjson import dumps, loads
from mtcompute.errors import TOOL_ERRORS, LimitExceeded
from mtcompute.search import MAX_QUERY_LENGTH, MatchedLine, search_catalog

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


# --------------------------------------------------------------------------- page data


@dataclass(frozen=True, slots=True)
class ToolLink:
    """A tool version as the index cards and the related-tools list show it."""

    id: str
    version: str
    title: str
    description: str
    category: str

    @property
    def page_url(self) -> str:
        return f"/tools/{self.id}/{self.version}"

    @property
    def contract_url(self) -> str:
        return f"/v1/tools/{self.id}/versions/{self.version}"


@dataclass(frozen=True, slots=True)
class Calls:
    """The ways to call a tool, as the texts a page shows: MCP arguments, curl, the Node.js
    client of ``/clients/cli/`` (the seed's line) and the ``mtcompute`` command."""

    mcp: str
    curl: str
    node_cli: str
    cli: str


@dataclass(frozen=True, slots=True)
class Example:
    """One worked example: its number (from 1), the input and the response as indented JSON."""

    number: int
    input: str
    response: str


@dataclass(frozen=True, slots=True)
class SearchLine:
    """A contract line a search matched, as the results show it: a label and the text."""

    label: str
    text: str


@dataclass(frozen=True, slots=True)
class SearchResult:
    """One ranked tool of a search on ``/``: its card and the lines that matched."""

    tool: ToolLink
    lines: tuple[SearchLine, ...]


@dataclass(frozen=True, slots=True)
class IndexPage:
    """What ``index.html`` shows: every tool version, and the sample calls; with a search
    query, the ranked results instead of the list (``results`` is ``None`` without one)."""

    base: str
    tools: tuple[ToolLink, ...]
    calls: Calls
    query: str = ""
    results: tuple[SearchResult, ...] | None = None
    query_error: str = ""
    more: tuple[ToolLink, ...] = ()
    """The tools that also match, after the first :data:`SEARCH_CARDS` (names only)."""


@dataclass(frozen=True, slots=True)
class ToolPage:
    """What ``tool.html`` shows for one tool version."""

    id: str
    version: str
    title: str
    description: str
    base: str
    price: str
    free: bool
    contract_url: str
    execute_url: str
    # The headings by anchor, in page order ("related" only when the catalog has other tools).
    sections: dict[str, str]
    category: str
    supported: tuple[str, ...]
    unsupported: tuple[str, ...]
    semantics: tuple[str, ...]
    closed_input: bool
    input_table: SchemaTable
    output_table: SchemaTable
    limits: tuple[tuple[str, str], ...]  # (name in words, value as compact JSON)
    examples: tuple[Example, ...]
    calls: Calls
    related: tuple[ToolLink, ...]
    tokenizer: ToolLink | None  # the catalog's tokenizer for raw text (bleu-tokenize), if any

    @property
    def ref(self) -> str:
        return f"{self.id}@{self.version}"

    @property
    def use_when(self) -> tuple[str, ...]:
        return self.supported[:3]

    @property
    def first_use(self) -> str:
        return self.supported[0] if self.supported else "this task"

    @property
    def try_input(self) -> str:
        """The input the try-it form starts from: the first example's, else ``{}``."""
        return self.examples[0].input if self.examples else "{}"

    @property
    def try_rows(self) -> int:
        return min(max(self.try_input.count("\n") + 2, 6), 22)


# --------------------------------------------------------------------------- templates


def _escaped(value: object) -> Markup:
    # Every printed value passes here before autoescaping: escaped as esc() writes it (&quot;
    # and &#x27;, where markupsafe would write &#34; and &#39;), so autoescaping sees safe text;
    # markup (a macro's output) passes unchanged.
    return value if isinstance(value, Markup) else Markup(esc(value))


_TEMPLATES = Environment(
    loader=PackageLoader("mtcompute.server", "templates"),
    autoescape=select_autoescape(["html"]),
    undefined=StrictUndefined,
    finalize=_escaped,
    trim_blocks=True,
    lstrip_blocks=True,
    keep_trailing_newline=True,
)
# The codes a tool answers and their HTTP statuses, from the errors module.
_TEMPLATES.globals.update(
    tool_errors=TOOL_ERRORS,
    error_statuses=", ".join(str(e.http_status) for e in TOOL_ERRORS[:-1])
    + f" or {TOOL_ERRORS[-1].http_status}",
    limit_error=LimitExceeded,
)


FREE: Final = "free, no key needed"
FREE_WITH_KEY: Final = "free, API key needed to execute"
"""What the pages say of an unpriced tool when the server requires keys (``--api-keys``)."""


def _access(key_needed: bool) -> str:
    return FREE_WITH_KEY if key_needed else FREE


def _render(
    template: str, title: str, description: str, page: object, *, key_needed: bool = False
) -> str:
    return _TEMPLATES.get_template(template).render(
        title=title,
        description=description,
        version=__version__,
        with_script=template == "tool.html",
        page=page,
        access=_access(key_needed),
    )


def _price(document: Mapping[str, Any], key_needed: bool = False) -> str:
    pricing = document.get("pricing")
    charge = pricing.get("charge_usd") if isinstance(pricing, Mapping) else None
    if not charge:
        return _access(key_needed)
    return f"US${dumps(charge)} per call"


@dataclass(frozen=True, slots=True)
class ToolMeta:
    """How the pages present a tool id (every version): its category and related tools."""

    category: str
    related: tuple[str, ...]


DEFAULT_CATEGORY: Final = "Text"


@cache
def catalog_meta() -> dict[str, ToolMeta]:
    """The presentation metadata of ``server/catalog_meta.json``, by tool id.

    Category and related tools are presentation, not behaviour: they change without a new
    contract version (and the seed's chrf-compute@1.0.0 contract is served byte for byte), so
    they live in this catalog file, not in the versioned contracts. A tool id the file does not
    name gets the category "Text" and no related tools.
    """
    data = (resources.files("mtcompute.server") / "catalog_meta.json").read_bytes()
    tools = cast("dict[str, dict[str, Any]]", loads(data))["tools"]
    return {
        tool_id: ToolMeta(str(meta["category"]), tuple(str(r) for r in meta["related"]))
        for tool_id, meta in tools.items()
    }


def _meta(tool_id: str) -> ToolMeta:
    return catalog_meta().get(tool_id, ToolMeta(DEFAULT_CATEGORY, ()))


def _link(tool_id: str, version: str, document: Mapping[str, Any]) -> ToolLink:
    return ToolLink(
        id=tool_id,
        version=version,
        title=tool_title(tool_id),
        description=str(document.get("description", "")),
        category=_meta(tool_id).category,
    )


def _latest_links() -> dict[str, ToolLink]:
    """The link of each tool id's newest version (the catalog is ordered by id, then
    version, so the last entry of an id is its newest)."""
    return {entry.id: _link(entry.id, entry.version, entry.document) for entry in catalog_entries()}


def _calls(base: str, tool_id: str, version: str, sample_input: object) -> Calls:
    mcp_call: dict[str, object] = {"id": tool_id, "version": version, "input": sample_input}
    return Calls(
        mcp=pretty_json(mcp_call),
        curl=curl_command(base, tool_id, version, sample_input),
        node_cli=(
            f"node cli.mjs run {shell_quote(tool_id)} {shell_quote(version)} "
            f"--input input.json --base-url {shell_quote(base)}"
        ),
        cli=(
            f"mtcompute run {shell_quote(tool_id)} {shell_quote(version)} "
            f"--input input.json --base-url {shell_quote(base)}"
        ),
    )


# --------------------------------------------------------------------------- index page


_LINE_LABELS: Final = {
    "id": "Id",
    "description": "Description",
    "use_when": "Use when",
    "supported": "Supported",
    "unsupported": "Not supported",
}


def _search_line(line: MatchedLine) -> SearchLine:
    if line.field == "referred_by":
        return SearchLine(f"Not supported by {line.source}, which points here", line.text)
    return SearchLine(_LINE_LABELS.get(line.field, line.field), line.text)


SEARCH_CARDS: Final = 5  # results shown as cards; the others as a line of links
SEARCH_CARD_LINES: Final = 3  # matched lines per card
_SHOWN: Final = ("id", "description")  # on the card already: not repeated as matched lines


def _search_results(query: str) -> tuple[tuple[SearchResult, ...], tuple[ToolLink, ...]]:
    """The first results as cards (their best matched lines), the others as links."""
    hits = search_catalog(query)
    cards = tuple(
        SearchResult(
            _link(hit.entry.id, hit.entry.version, hit.entry.document),
            tuple(_search_line(line) for line in hit.lines if line.field not in _SHOWN)[
                :SEARCH_CARD_LINES
            ],
        )
        for hit in hits[:SEARCH_CARDS]
    )
    more = tuple(_link(h.entry.id, h.entry.version, h.entry.document) for h in hits[SEARCH_CARDS:])
    return cards, more


def index_page(base_url: str, query: str = "", *, key_needed: bool = False) -> str:
    """The catalog page: what mtcompute is, how to call a tool, and every tool version; with
    a search ``query`` (not blank), the tools that match it, ranked, with the matched lines."""
    base = base_url.rstrip("/")
    results: tuple[SearchResult, ...] | None = None
    more: tuple[ToolLink, ...] = ()
    query_error = ""
    if query.strip():
        if len(query) > MAX_QUERY_LENGTH:
            query_error = (
                f"The search is too long: {len(query)} characters, at most {MAX_QUERY_LENGTH}."
            )
            results = ()
        else:
            results, more = _search_results(query)
    tools = [entry.document for entry in catalog_entries()]
    # The shortest example of the catalog makes the most readable sample call.
    samples: list[tuple[int, str, str, object]] = [
        (len(dumps(example["input"])), str(d["id"]), str(d["version"]), example["input"])
        for d in tools
        for example in d.get("examples", [])
    ]
    _, sample_id, sample_version, sample_input = min(
        samples, key=lambda s: s[0], default=(0, "TOOL", "VERSION", {})
    )
    page = IndexPage(
        base=base,
        tools=tuple(_link(str(d["id"]), str(d["version"]), d) for d in tools),
        calls=_calls(base, sample_id, sample_version, sample_input),
        query=query if results is not None else "",
        results=results,
        query_error=query_error,
        more=more,
    )
    return _render(
        "index.html",
        f"{query} · search · mtcompute"
        if results is not None
        else "mtcompute · MT metric tools catalog",
        "Exact, versioned machine-translation metric tools (BLEU, chrF) for people and agents.",
        page,
        key_needed=key_needed,
    )


# --------------------------------------------------------------------------- tool page


def tool_page(tool_id: str, version: str, base_url: str, *, key_needed: bool = False) -> str:
    """The page of one tool version, generated from its contract; :class:`NotFound` if none."""
    entry = catalog_entry(tool_id, version)
    document = entry.document
    base = base_url.rstrip("/")
    title = tool_title(tool_id)
    ref = f"{tool_id}@{version}"
    documented = [e for e in document.get("examples", []) if isinstance(e, Mapping)]
    examples = tuple(
        Example(
            number=number,
            input=pretty_json(example.get("input")),
            response=pretty_json({"result": example.get("output")}),
        )
        for number, example in enumerate(documented, start=1)
    )
    first_input: object = documented[0].get("input") if documented else {}
    contract_url = entry.contract_path
    input_schema = document.get("input_schema", {})
    limits = document.get("limits")
    latest = _latest_links()
    # The related tools the catalog metadata names, in its order, those the catalog has.
    related = tuple(latest[other] for other in _meta(tool_id).related if other in latest)
    sections = {
        "decide": "Decide before calling",
        "supported": "Supported",
        "not-supported": "Not supported",
        "behavior": "Behavior",
        "input": "Input",
        "output": "Output",
        "limits": "Limits",
        "example": "Examples" if len(examples) > 1 else "Example",
        "try": "Try it",
        "call": "How to call it",
    }
    if related:
        sections["related"] = "Related tools"
    price = _price(document, key_needed)
    page = ToolPage(
        id=tool_id,
        version=version,
        title=title,
        description=str(document.get("description", "")),
        base=base,
        price=price,
        free=price.startswith("free"),
        contract_url=contract_url,
        execute_url=str(document.get("execute_url") or f"{contract_url}/execute"),
        sections=sections,
        category=_meta(tool_id).category,
        supported=tuple(str(s) for s in document.get("supported_operations", [])),
        unsupported=tuple(str(s) for s in document.get("unsupported_operations", [])),
        semantics=tuple(str(s) for s in document.get("semantics", [])),
        closed_input=(
            isinstance(input_schema, Mapping) and input_schema.get("additionalProperties") is False
        ),
        input_table=schema_table(input_schema, f"Input fields of {ref}"),
        output_table=schema_table(document.get("output_schema", {}), f"Output fields of {ref}"),
        limits=tuple((str(k).replace("_", " "), dumps(v)) for k, v in limits.items())
        if isinstance(limits, Mapping)
        else (),
        examples=examples,
        calls=_calls(base, tool_id, version, first_input),
        related=related,
        tokenizer=latest.get("bleu-tokenize") if tool_id != "bleu-tokenize" else None,
    )
    return _render(
        "tool.html",
        f"{title} ({tool_id} {version}) · mtcompute",
        page.description,
        page,
        key_needed=key_needed,
    )


# --------------------------------------------------------------------------- CLI clients

CLIENTS_PATH: Final = "/clients/cli/"
MCP_SETUP_PATH: Final = "/clients/mcp/"

# The single-file clients served under /clients/cli/, by file name: (media type, title,
# requirement, how to start it). The files are shipped in server/clients/ and served verbatim.
CLIENT_FILES: Final = {
    "cli.mjs": (
        "text/javascript; charset=utf-8",
        "Node.js client",
        "Node.js 18 or newer (the global fetch); no npm packages",
        "node cli.mjs",
    ),
    "mtcompute_client.py": (
        "text/x-python; charset=utf-8",
        "Python client",
        "Python 3.8 or newer, standard library only",
        "python3 mtcompute_client.py",
    ),
}


@cache
def client_file(name: str) -> bytes:
    """The bytes of the shipped client ``name`` (a key of :data:`CLIENT_FILES`); KeyError for
    any other name, so that no request names a file to read."""
    if name not in CLIENT_FILES:
        raise KeyError(name)
    return (resources.files("mtcompute.server") / "clients" / name).read_bytes()


@dataclass(frozen=True, slots=True)
class ClientDownload:
    """One client file as the clients page offers it."""

    name: str
    title: str
    requirement: str
    runner: str
    size: int
    sha256: str
    download: str  # the curl command that saves it in the current folder
    example: str  # the seed's run line with this client

    @property
    def url(self) -> str:
        return CLIENTS_PATH + self.name


@dataclass(frozen=True, slots=True)
class ClientsPage:
    """What ``clients.html`` shows: the downloads and one worked call."""

    base: str
    downloads: tuple[ClientDownload, ...]
    sample_ref: str
    sample_input: str  # the example input (what input.json holds), indented
    sample_response: str  # the envelope the run prints
    list_command: str
    describe_command: str
    package_command: str


def _sample() -> tuple[str, str, Mapping[str, Any]]:
    """The tool version and example the clients page runs: the seed's bleu-smoothing-compute
    when the catalog has it, else the catalog's shortest example."""
    examples = [
        (entry.id, entry.version, example)
        for entry in catalog_entries()
        for example in entry.document.get("examples", [])
        if isinstance(example, Mapping)
    ]
    preferred = [e for e in examples if (e[0], e[1]) == ("bleu-smoothing-compute", "1.0.0")]
    if preferred:
        return preferred[0]
    return min(examples, key=lambda e: len(dumps(e[2].get("input"))))


def clients_page(base_url: str, *, key_needed: bool = False) -> str:
    """The page of the command-line clients: what they do, the downloads, a worked call."""
    base = base_url.rstrip("/")
    tool_id, version, example = _sample()
    args = f"{shell_quote(tool_id)} {shell_quote(version)}"
    where = f"--base-url {shell_quote(base)}"
    downloads = tuple(
        ClientDownload(
            name=name,
            title=title,
            requirement=requirement,
            runner=runner,
            size=len(client_file(name)),
            sha256=hashlib.sha256(client_file(name)).hexdigest(),
            download=f"curl -fsSLO {shell_quote(base + CLIENTS_PATH + name)}",
            example=f"{runner} run {args} --input input.json {where}",
        )
        for name, (_media, title, requirement, runner) in CLIENT_FILES.items()
    )
    page = ClientsPage(
        base=base,
        downloads=downloads,
        sample_ref=f"{tool_id}@{version}",
        sample_input=pretty_json(example.get("input")),
        sample_response=dumps({"result": example.get("output")}),
        list_command=f"node cli.mjs list {where}",
        describe_command=f"node cli.mjs describe {args} {where}",
        package_command=f"mtcompute run {args} --input input.json {where}",
    )
    return _render(
        "clients.html",
        "Command-line clients · mtcompute",
        "Single-file command-line clients for mtcompute: Node.js 18+ and Python, no packages.",
        page,
        key_needed=key_needed,
    )


# --------------------------------------------------------------------------- MCP setup


@dataclass(frozen=True, slots=True)
class McpSnippet:
    """Ready-to-paste configuration of one MCP client."""

    client: str
    transport: str  # "stdio" or "http" (streamable HTTP)
    file: str  # the file it goes in ("" for a command to run in a terminal)
    text: str  # the configuration (JSON), or the command line
    note: str = ""

    @property
    def is_json(self) -> bool:
        return bool(self.file)


def mcp_snippets(base_url: str) -> tuple[McpSnippet, ...]:
    """The configuration snippets of the setup page, for the server at ``base_url``."""
    url = base_url.rstrip("/") + "/mcp"
    return (
        McpSnippet(
            "Claude Desktop",
            "stdio",
            "claude_desktop_config.json",
            pretty_json({"mcpServers": {"mtcompute": {"command": "mtcompute", "args": ["mcp"]}}}),
            "Open it from Settings, Developer, Edit Config. The same entry works in any client "
            "that starts its servers over stdio. If the app does not find mtcompute, put the "
            'full path that command -v mtcompute prints in "command".',
        ),
        McpSnippet(
            "Claude Code",
            "http",
            "",
            f"claude mcp add --transport http mtcompute {shell_quote(url)}",
        ),
        McpSnippet(
            "Claude Code, project file",
            "http",
            ".mcp.json",
            pretty_json({"mcpServers": {"mtcompute": {"type": "http", "url": url}}}),
            "At the project root, shared with everyone who works on the project.",
        ),
        McpSnippet(
            "Cursor",
            "http",
            "~/.cursor/mcp.json",
            pretty_json({"mcpServers": {"mtcompute": {"url": url}}}),
            "Or .cursor/mcp.json in a project.",
        ),
        McpSnippet(
            "VS Code",
            "http",
            ".vscode/mcp.json",
            pretty_json({"servers": {"mtcompute": {"type": "http", "url": url}}}),
        ),
        McpSnippet(
            "Windsurf",
            "http",
            "~/.codeium/windsurf/mcp_config.json",
            pretty_json({"mcpServers": {"mtcompute": {"serverUrl": url}}}),
        ),
        McpSnippet(
            "Gemini CLI",
            "http",
            "~/.gemini/settings.json",
            pretty_json({"mcpServers": {"mtcompute": {"httpUrl": url}}}),
            "Or .gemini/settings.json in a project.",
        ),
    )


@dataclass(frozen=True, slots=True)
class McpSetupPage:
    """What ``mcp-setup.html`` shows: the endpoint, the transports, the snippets."""

    base: str
    endpoint: str
    tools: tuple[tuple[str, str], ...]  # (MCP tool name, title)
    protocol_versions: tuple[str, ...]
    desktop: tuple[McpSnippet, ...]
    agents: tuple[McpSnippet, ...]
    list_request: str  # a curl command that sends tools/list


def mcp_setup_page(
    base_url: str,
    tools: Sequence[tuple[str, str]],
    protocol_versions: Sequence[str],
    *,
    key_needed: bool = False,
) -> str:
    """The MCP setup page for the server at ``base_url``: ``tools`` are the MCP tools'
    (name, title), ``protocol_versions`` the versions the endpoint negotiates."""
    base = base_url.rstrip("/")
    endpoint = base + "/mcp"
    snippets = mcp_snippets(base)
    request = '{"jsonrpc":"2.0","id":1,"method":"tools/list"}'
    page = McpSetupPage(
        base=base,
        endpoint=endpoint,
        tools=tuple(tools),
        protocol_versions=tuple(protocol_versions),
        desktop=tuple(s for s in snippets if s.transport == "stdio"),
        agents=tuple(s for s in snippets if s.transport == "http"),
        list_request=(
            f"curl -s {shell_quote(endpoint)} \\\n"
            '  -H "Content-Type: application/json" \\\n'
            '  -H "Accept: application/json, text/event-stream" \\\n'
            f"  -d {_single_quoted(request)}"
        ),
    )
    return _render(
        "mcp-setup.html",
        "MCP setup · mtcompute",
        "Connect an MCP client to mtcompute: the endpoint, the transports and ready-to-paste "
        "configuration for desktop, editor and command-line agents.",
        page,
        key_needed=key_needed,
    )
