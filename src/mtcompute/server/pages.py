"""The human catalog pages: server-rendered HTML generated from the versioned contracts.

:func:`index_page` lists every tool version; :func:`tool_page` renders one contract the way the
seed pages read (summary, use when, decide before calling, supported and not supported,
behavior, input and output tables from the JSON Schemas, limits, examples, how to call it over
MCP, HTTP and the CLI, related tools) plus a "Try it" form that POSTs to the execute endpoint.

This module builds the index and tool pages and re-exports the pages' public names; the text
helpers and schema tables are :mod:`~mtcompute.server.page_text`, the page records and the
rendering :mod:`~mtcompute.server.page_data`, the clients and MCP setup pages
:mod:`~mtcompute.server.setup_pages`. The data of a page is a record (:class:`IndexPage`,
:class:`ToolPage`); the markup is in the Jinja2 templates of ``server/templates/``
(``layout.html``, ``index.html``, ``tool.html``, ``macros.html``), with the CSS and the try-it
script as files the layout includes, so that a page is one self-contained HTML5 document:
UTF-8, no external resource of any kind. Every value a template prints is escaped
(autoescaping, written as :func:`esc` writes it); JSON shown on a page is written as
``JSON.stringify`` writes it (:func:`pretty_json` for the indented form, the compact form
through :func:`mtcompute.core.jsjson.dumps`). Pure functions: no I/O besides reading the
shipped contracts and the templates.
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

from collections.abc import Mapping
from typing import Final

from mtcompute.catalog import catalog_entries, catalog_entry, tool_entries
from mtcompute.catalog_text import summary_sentence
from mtcompute.core.jsjson import dumps
from mtcompute.search import MAX_QUERY_LENGTH, MatchedLine, SearchAnswer, search_answer
from mtcompute.server.page_data import (
    DEFAULT_CATEGORY,
    FREE,
    FREE_WITH_KEY,
    Calls,
    Example,
    IndexPage,
    SearchLine,
    SearchResult,
    ToolLink,
    ToolMeta,
    ToolPage,
    call_texts,
    catalog_meta,
    price_text,
    render,
    tool_link,
    tool_meta,
)
from mtcompute.server.page_text import (
    SchemaRow,
    SchemaTable,
    curl_command,
    esc,
    pretty_json,
    schema_rows,
    schema_table,
    shell_quote,
    tool_title,
)
from mtcompute.server.setup_pages import (
    CLIENT_FILES,
    CLIENTS_PATH,
    MCP_SETUP_PATH,
    ClientDownload,
    ClientsPage,
    McpSetupPage,
    McpSnippet,
    client_file,
    clients_page,
    mcp_setup_page,
    mcp_snippets,
)


def _latest_links() -> dict[str, ToolLink]:
    """The link of each tool id's newest version (its current one)."""
    return {
        entry.id: tool_link(entry.id, entry.version, entry.document)
        for entry in catalog_entries()
        if entry.superseded_by is None
    }


# --------------------------------------------------------------------------- index page


_LINE_LABELS: Final = {
    "id": "Id",
    "description": "Description",
    "use_when": "Use when",
    "supported": "Supported",
    "unsupported": "Not supported",
    "concepts": "Term",
}


def _search_line(line: MatchedLine) -> SearchLine:
    if line.field == "referred_by":
        return SearchLine(f"Not supported by {line.source}, which points here", line.text)
    return SearchLine(_LINE_LABELS.get(line.field, line.field), line.text)


SEARCH_CARDS: Final = 5  # results shown as cards; the others as a line of links
SEARCH_CARD_LINES: Final = 3  # matched lines per card
_SHOWN: Final = ("id", "description")  # on the card already: not repeated as matched lines


def _search_results(
    answer: SearchAnswer,
) -> tuple[tuple[SearchResult, ...], tuple[ToolLink, ...]]:
    """The first results as cards (their best matched lines), the others as links."""
    results = answer.results
    cards = tuple(
        SearchResult(
            tool_link(r.hit.entry.id, r.hit.entry.version, r.hit.entry.document),
            tuple(_search_line(line) for line in r.hit.lines if line.field not in _SHOWN)[
                :SEARCH_CARD_LINES
            ],
            r.alternative,
            r.note or "",
        )
        for r in results[:SEARCH_CARDS]
    )
    more = tuple(
        tool_link(r.hit.entry.id, r.hit.entry.version, r.hit.entry.document)
        for r in results[SEARCH_CARDS:]
    )
    return cards, more


def index_page(base_url: str, query: str = "", *, key_needed: bool = False) -> str:
    """The catalog page: what mtcompute is, how to call a tool, and every tool version; with
    a search ``query`` (not blank), the tools that match it, ranked, with the matched lines."""
    base = base_url.rstrip("/")
    results: tuple[SearchResult, ...] | None = None
    more: tuple[ToolLink, ...] = ()
    query_error = ""
    supported, reason = True, ""
    metrics: tuple[str, ...] = ()
    if query.strip():
        if len(query) > MAX_QUERY_LENGTH:
            query_error = (
                f"The search is too long: {len(query)} characters, at most {MAX_QUERY_LENGTH}."
            )
            results = ()
        else:
            answer = search_answer(query)
            results, more = _search_results(answer)
            supported, reason, metrics = answer.supported, answer.reason or "", answer.metrics
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
        tools=tuple(tool_link(str(d["id"]), str(d["version"]), d) for d in tools),
        calls=call_texts(base, sample_id, sample_version, sample_input, key_needed=key_needed),
        query=query if results is not None else "",
        results=results,
        query_error=query_error,
        more=more,
        supported=supported,
        reason=reason,
        metrics=metrics,
    )
    return render(
        "index.html",
        f"{query} · search · mtcompute"
        if results is not None
        else "mtcompute · MT metric tools catalog",
        summary_sentence(),
        page,
        key_needed=key_needed,
    )


# --------------------------------------------------------------------------- tool page


def tool_page(tool_id: str, version: str, base_url: str, *, key_needed: bool = False) -> str:
    """The page of one tool version, generated from its contract (``latest``: the newest
    version's page); :class:`NotFound` if none. A superseded version's page says so and
    links the newest."""
    entry = catalog_entry(tool_id, version)
    tool_id, version = entry.id, entry.version
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
    related = tuple(latest[other] for other in tool_meta(tool_id).related if other in latest)
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
    price = price_text(document, key_needed)
    page = ToolPage(
        id=tool_id,
        version=version,
        title=title,
        description=str(document.get("description", "")),
        base=base,
        price=price,
        free=price.startswith("free"),
        contract_url=contract_url,
        execute_url=str(document.get("execute_url") or entry.execute_path),
        sections=sections,
        category=tool_meta(tool_id).category,
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
        calls=call_texts(base, tool_id, version, first_input, key_needed=key_needed),
        related=related,
        tokenizer=latest.get("bleu-tokenize") if tool_id != "bleu-tokenize" else None,
        versions=tuple(
            (tool_link(other.id, other.version, other.document), other.status)
            for other in tool_entries(tool_id)
        ),
        superseded_by=latest[tool_id] if entry.superseded_by is not None else None,
    )
    return render(
        "tool.html",
        f"{title} ({tool_id} {version}) · mtcompute",
        page.description,
        page,
        key_needed=key_needed,
    )
