"""What the catalog pages show, as records the Jinja2 templates print, and the rendering.

The records (:class:`ToolLink`, :class:`IndexPage`, :class:`ToolPage`, ...) are the data of a
page; :func:`render` fills a template of ``server/templates/`` with one, every printed value
escaped as :func:`~mtcompute.server.page_text.esc` writes it. The presentation metadata
(category, related tools) is read from ``server/catalog_meta.json``; what the home page says
of the catalog as a whole (:class:`CatalogAbout`) is generated from the catalog by
:mod:`mtcompute.catalog_text`, as every other describing text is.
"""

from __future__ import annotations

__all__ = [
    "DEFAULT_CATEGORY",
    "FREE",
    "FREE_WITH_KEY",
    "AboutTool",
    "Calls",
    "CatalogAbout",
    "Example",
    "IndexPage",
    "InputGroup",
    "SearchLine",
    "SearchResult",
    "ToolLink",
    "ToolMeta",
    "ToolPage",
    "call_texts",
    "catalog_about",
    "catalog_meta",
    "page_security_policy",
    "price_text",
    "render",
    "tool_link",
    "tool_meta",
]

import base64
import hashlib
import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any, Final

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape
from markupsafe import Markup

from mtcompute._version import __version__
from mtcompute.catalog import ToolPaths
from mtcompute.catalog_text import (
    INPUT_KINDS,
    raw_text_advice,
    summary_sentence,
    tool_groups,
    tool_metadata,
)
from mtcompute.core.jsjson import dumps
from mtcompute.errors import TOOL_ERRORS, LimitExceeded
from mtcompute.server.page_text import (
    SchemaTable,
    curl_command,
    esc,
    pretty_json,
    shell_quote,
    tool_title,
)


@dataclass(frozen=True, slots=True)
class ToolLink(ToolPaths):
    """A tool version as the index cards and the related-tools list show it (and where its
    page and contract are: :class:`~mtcompute.catalog.ToolPaths`)."""

    id: str
    version: str
    title: str
    description: str
    category: str


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
    alternative: bool = False
    """Not a fit: only the nearest alternative (see :class:`mtcompute.search.SearchResult`)."""
    note: str = ""


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
    supported: bool = True
    """Whether a tool does what the query asks (the search's answer); ``reason`` when not."""
    reason: str = ""
    metrics: tuple[str, ...] = ()
    """The metrics the catalog computes, as the search's answer lists them."""


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
    # Every version of the id with its status ("current", "superseded"), oldest first, this
    # one included; and the newest version's link when this one is superseded.
    versions: tuple[tuple[ToolLink, str], ...] = ()
    superseded_by: ToolLink | None = None

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


@dataclass(frozen=True, slots=True)
class AboutTool(ToolPaths):
    """A tool id as the home page's list by input names it: its newest version's page."""

    id: str
    version: str
    summary: str


@dataclass(frozen=True, slots=True)
class InputGroup:
    """The tools that take one kind of input (raw text, tokens, counts)."""

    kind: str
    words: str
    """What that input looks like, in words (empty for a kind the texts do not know)."""
    tools: tuple[AboutTool, ...]


@dataclass(frozen=True, slots=True)
class CatalogAbout:
    """What the home page says of the catalog, generated from it: the summary sentence, the
    tools by what they take, and which tools raw sentences go to."""

    sentence: str
    groups: tuple[InputGroup, ...]
    advice: str


def catalog_about() -> CatalogAbout:
    """The home page's description of the catalog (a template global)."""
    return CatalogAbout(
        sentence=summary_sentence(),
        groups=tuple(
            InputGroup(
                kind,
                INPUT_KINDS.get(kind, ""),
                tuple(AboutTool(f.id, f.version, f.summary) for f in tools),
            )
            for kind, tools in tool_groups()
        ),
        advice=raw_text_advice(),
    )


_TEMPLATES.globals["catalog_about"] = catalog_about


FREE: Final = "free, no key needed"
FREE_WITH_KEY: Final = "free, API key needed to execute"
"""What the pages say of an unpriced tool when the server requires keys (``--api-keys``)."""


def _access(key_needed: bool) -> str:
    return FREE_WITH_KEY if key_needed else FREE


def render(
    template: str, title: str, description: str, page: object, *, key_needed: bool = False
) -> str:
    return _TEMPLATES.get_template(template).render(
        title=title,
        description=description,
        version=__version__,
        with_script=template == "tool.html",
        page=page,
        access=_access(key_needed),
        key_needed=key_needed,
    )


_INLINE = re.compile(r"<(script|style)>(.*?)</\1>", re.DOTALL)


@cache
def page_security_policy() -> str:
    """The Content-Security-Policy of every page: the layout's inline scripts and style run by
    their SHA-256 hashes (a page stays one self-contained document), nothing else runs or
    loads; the icon is a ``data:`` image; the try-it form's request goes to this server only
    (``connect-src 'self'``), the search form's to this server (``form-action 'self'``); no
    page is framed. The hashes are taken from the layout as it renders (the included files
    are not templates: they render the same on every page)."""
    html = _TEMPLATES.get_template("layout.html").render(
        title="", description="", version="", with_script=True, access="", key_needed=False
    )
    hashes: dict[str, list[str]] = {"script": [], "style": []}
    for tag, text in _INLINE.findall(html):
        digest = base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode()
        hashes[tag].append(f"'sha256-{digest}'")
    return (
        "default-src 'none'; "
        f"script-src {' '.join(hashes['script'])}; "
        f"style-src {' '.join(hashes['style'])}; "
        "img-src data:; connect-src 'self'; form-action 'self'; base-uri 'none'; "
        "frame-ancestors 'none'"
    )


def price_text(document: Mapping[str, Any], key_needed: bool = False) -> str:
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
    return {
        tool_id: ToolMeta(str(meta["category"]), tuple(str(r) for r in meta["related"]))
        for tool_id, meta in tool_metadata().items()
    }


def tool_meta(tool_id: str) -> ToolMeta:
    return catalog_meta().get(tool_id, ToolMeta(DEFAULT_CATEGORY, ()))


def tool_link(tool_id: str, version: str, document: Mapping[str, Any]) -> ToolLink:
    return ToolLink(
        id=tool_id,
        version=version,
        title=tool_title(tool_id),
        description=str(document.get("description", "")),
        category=tool_meta(tool_id).category,
    )


def call_texts(
    base: str, tool_id: str, version: str, sample_input: object, *, key_needed: bool = False
) -> Calls:
    mcp_call: dict[str, object] = {"id": tool_id, "version": version, "input": sample_input}
    run_arguments = (
        f"{shell_quote(tool_id)} {shell_quote(version)} "
        f"--input input.json --base-url {shell_quote(base)}"
    )
    return Calls(
        mcp=pretty_json(mcp_call),
        curl=curl_command(base, tool_id, version, sample_input, key_needed=key_needed),
        node_cli=f"node cli.mjs run {run_arguments}",
        cli=f"mtcompute run {run_arguments}",
    )
