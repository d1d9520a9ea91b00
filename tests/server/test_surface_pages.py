"""The catalog pages: HTML generated from the contracts, and the same pages in a real browser.

The unit tests render the pages in-process. The browser tests open them on a real
``mtcompute serve`` (the ``server_url`` fixture) in Debian's Chromium driven by Playwright
(skipped, with the reason, on a machine without Chromium; ``.ci/run`` installs it),
take desktop and phone screenshots into ``tests/artifacts/pages/``, check the phone layout has
no horizontal scroll, and run each contract example through the page's "Try it" form.
"""

from __future__ import annotations

import html
import json
import re
import shlex
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from mtcompute import dumps, execute
from mtcompute.contracts import contract
from mtcompute.errors import NotFound
from mtcompute.search import search_catalog
from mtcompute.server.mcp import protocol_versions, tool_titles
from mtcompute.server.pages import (
    SEARCH_CARD_LINES,
    SEARCH_CARDS,
    catalog_meta,
    clients_page,
    curl_command,
    esc,
    index_page,
    mcp_setup_page,
    mcp_snippets,
    pretty_json,
    schema_rows,
    shell_quote,
    tool_page,
    tool_title,
)
from mtcompute.tools import list_tools
from tests.conftest import fresh_page, shared_file

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts" / "pages"
BASE = "http://127.0.0.1:8000"
DESKTOP = ViewportSize(width=1280, height=800)
PHONE = ViewportSize(width=375, height=812)
# The favicon: an SVG written into the page as a data: URL (no request, nothing external).
FAVICON = re.compile(r"^data:image/svg\+xml,%3Csvg xmlns='http://www\.w3\.org/2000/svg' [^\"<>#]*$")
ANSWERED = re.compile(r"^([0-9]{3}|network-error)$")

SEARCH_QUERY = "chrF++ für maschinelle Übersetzung"
TOOLS = [(tool.id, tool.version) for tool in list_tools()]
TOOL_IDS = [f"{tool_id}@{version}" for tool_id, version in TOOLS]
EXAMPLES = [
    (tool_id, version, number, example)
    for tool_id, version in TOOLS
    for number, example in enumerate(contract(tool_id, version)["examples"], start=1)
]
EXAMPLE_IDS = [
    f"{tool_id}@{version} > example {number}" for tool_id, version, number, _ in EXAMPLES
]


class _Outline(HTMLParser):
    """Collects headings, the attributes of every tag, and the text of <title>."""

    def __init__(self) -> None:
        super().__init__()
        self.headings: list[int] = []
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.title = ""
        self._in_title = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        if len(tag) == 2 and tag[0] == "h" and tag[1].isdigit():
            self.headings.append(int(tag[1]))
        self._in_title = tag == "title"

    def handle_endtag(self, tag: str) -> None:  # noqa: ARG002 - HTMLParser signature
        self._in_title = False

    def handle_data(self, data: str) -> None:
        if self._in_title:
            self.title += data


def _outline(page_html: str) -> _Outline:
    parser = _Outline()
    parser.feed(page_html)
    parser.close()
    return parser


def _all_pages() -> list[tuple[str, str]]:
    pages = [("index", index_page(BASE)), ("search", index_page(BASE, SEARCH_QUERY))]
    pages += [(f"{t}@{v}", tool_page(t, v, BASE)) for t, v in TOOLS]
    pages += [("clients", clients_page(BASE)), ("mcp-setup", _setup_page())]
    return pages


def _setup_page() -> str:
    return mcp_setup_page(BASE, tool_titles(), protocol_versions())


# --------------------------------------------------------------------------- unit: helpers


def test_esc_escapes_markup_and_quotes() -> None:
    """esc turns & < > " ' into entities."""
    assert "&lt;script&gt;alert(&quot;x&quot;) &amp; &#x27;y&#x27;&lt;/script&gt;" == esc(
        "<script>alert(\"x\") & 'y'</script>"
    )


def test_shell_quote_survives_a_single_quote() -> None:
    """A word with a single quote comes back intact from a POSIX shell parse."""
    assert ['it\'s {"a":1}'] == shlex.split(shell_quote('it\'s {"a":1}'))


def test_curl_command_quotes_a_single_quote_in_the_body() -> None:
    """The curl -d argument is the compact JSON, even when it holds a single quote."""
    body = {"hypotheses": ["it's"], "references": ["l'a"]}
    words = shlex.split(curl_command(BASE, "chrf-compute", "1.0.0", body).replace("\\\n", " "))
    expected = [
        "curl",
        "-X",
        "POST",
        f"{BASE}/v1/tools/chrf-compute/versions/1.0.0/execute",
        "-H",
        "Content-Type: application/json",
        "-d",
        dumps(body),
    ]
    assert expected == words


def test_pretty_json_parses_back_to_the_value() -> None:
    """pretty_json writes two-space JSON that parses back to the same value, non-ASCII kept."""
    value = {"a": [1, 2.5, {"b": []}], "c": "\u05d0<&>", "d": {}}
    text = pretty_json(value)
    assert (value, True) == (json.loads(text), "\u05d0" in text)


def test_schema_rows_list_nested_fields() -> None:
    """Arrays of arrays and arrays of objects get rows for their inner fields."""
    rows = schema_rows(contract("bleu-sentence-components", "1.0.0")["output_schema"])
    fields = [row.field for row in rows]
    assert [
        "candidate_length",
        "reference_length",
        "max_order",
        "matches",
        "totals",
        "ngrams",
        "ngrams[].order",
        "ngrams[].ngram",
        "ngrams[].count",
        "ngrams[].max_reference_count",
        "ngrams[].clipped_count",
    ] == fields


def test_schema_rows_show_bounds_like_the_seed_page() -> None:
    """The matches row reads as the seed page: type, required, bounds, description."""
    rows = schema_rows(contract("bleu-smoothing-compute", "1.0.0")["input_schema"])
    matches = rows[0]
    assert (
        "matches",
        "array of integer",
        "required",
        ("min items 1", "max items 8", "each min 0", "each max 1000000000000"),
        "Clipped n-gram match counts m_1..m_N, one per order (N = 1-8).",
    ) == (matches.field, matches.type, matches.required, matches.constraints, matches.description)


# --------------------------------------------------------------------------- unit: pages


@pytest.mark.parametrize(("tool_id", "version"), TOOLS, ids=TOOL_IDS)
def test_tool_page_shows_every_contract_line(tool_id: str, version: str) -> None:
    """Description, every supported, unsupported and behavior line, and each limit appear."""
    document = contract(tool_id, version)
    page = tool_page(tool_id, version, BASE)
    lines = [
        document["description"],
        *document["supported_operations"],
        *document["unsupported_operations"],
        *document["semantics"],
        *(key.replace("_", " ") for key in document["limits"]),
    ]
    assert [] == [line for line in lines if html.escape(line) not in page]


@pytest.mark.parametrize(("tool_id", "version"), TOOLS, ids=TOOL_IDS)
def test_tool_page_shows_every_schema_field(tool_id: str, version: str) -> None:
    """Every input and output property name appears in a table cell."""
    document = contract(tool_id, version)
    page = tool_page(tool_id, version, BASE)
    names = [*document["input_schema"]["properties"], *document["output_schema"]["properties"]]
    assert [] == [name for name in names if f"<code>{name}</code></th>" not in page]


@pytest.mark.parametrize(("tool_id", "version"), TOOLS, ids=TOOL_IDS)
def test_tool_page_shows_examples_and_calls(tool_id: str, version: str) -> None:
    """Examples pretty-printed, curl with the compact example, MCP and CLI lines with base URL."""
    document = contract(tool_id, version)
    page = tool_page(tool_id, version, BASE)
    first = document["examples"][0]["input"]
    wanted = [
        *(html.escape(pretty_json(e["input"])) for e in document["examples"]),
        *(html.escape(pretty_json({"result": e["output"]})) for e in document["examples"]),
        html.escape(curl_command(BASE, tool_id, version, first)),
        html.escape(f"-d '{dumps(first)}'"),
        html.escape(pretty_json({"id": tool_id, "version": version, "input": first})),
        f"<code>{BASE}/mcp</code>",
        f"mtcompute run {tool_id} {version} --input input.json --base-url {BASE}",
        f"node cli.mjs run {tool_id} {version} --input input.json --base-url {BASE}",
        f'href="/v1/tools/{tool_id}/versions/{version}"',
        f'data-execute-url="{document["execute_url"]}"',
    ]
    assert [] == [text for text in wanted if text not in page]


@pytest.mark.parametrize(("tool_id", "version"), TOOLS, ids=TOOL_IDS)
def test_tool_page_links_the_setup_page_and_the_clients(tool_id: str, version: str) -> None:
    """The MCP section says "(setup)" with a link to /clients/mcp/, as the seed's page does;
    the CLI section says where to get the client."""
    page = tool_page(tool_id, version, BASE)
    wanted = [
        f'<code>{BASE}/mcp</code> (<a href="/clients/mcp/">setup</a>;',
        'Get the client at <a href="/clients/cli/">/clients/cli/</a>',
    ]
    assert [] == [text for text in wanted if text not in page]


def test_index_links_the_setup_page_and_the_clients() -> None:
    """The index's MCP and CLI paragraphs link /clients/mcp/ and /clients/cli/; so does every
    page's header."""
    wanted = ['<a href="/clients/mcp/">MCP setup</a>.', '<a href="/clients/cli/">/clients/cli/</a>']
    assert [] == [text for text in wanted if text not in index_page(BASE)]
    headers = [
        page_html.count('<nav aria-label="Site"><a href="/">Catalog</a><a href="/clients/mcp/">')
        for _name, page_html in _all_pages()
    ]
    assert [1] * len(headers) == headers


def test_setup_page_shows_every_snippet_and_the_endpoint() -> None:
    """The setup page shows each client's configuration (escaped) and the endpoint URL."""
    page = _setup_page()
    wanted = [html.escape(snippet.text) for snippet in mcp_snippets(BASE)]
    wanted += [f"<code>{BASE}/mcp</code>", "<code>mtcompute mcp</code>", "<code>2025-11-25</code>"]
    wanted += [f"<code>{name}</code>" for name, _title in tool_titles()]
    assert [] == [text for text in wanted if text not in page]


def test_tool_page_escapes_contract_text() -> None:
    """A '<' in contract text is written as &lt; (m_n <= l_n in bleu-smoothing-compute)."""
    page = tool_page("bleu-smoothing-compute", "1.0.0", BASE)
    assert ("m_n &lt;= l_n" in page, "m_n <= l_n" in page) == (True, False)


def test_tool_page_marks_operation_lines_dir_auto() -> None:
    """The Hebrew supported-operation line is in an element with dir="auto"."""
    page = tool_page("chrf-compute", "1.0.0", BASE)
    hebrew = contract("chrf-compute", "1.0.0")["supported_operations"][-1]
    assert f'<li dir="auto">{html.escape(hebrew)}</li>' in page


def test_tool_page_offers_every_example_in_the_try_form() -> None:
    """With several examples, the try-it chooser holds each example's pretty input."""
    page = tool_page("chrf-compute", "1.0.0", BASE)
    examples = contract("chrf-compute", "1.0.0")["examples"]
    options = [attrs for tag, attrs in _outline(page).tags if tag == "option"]
    assert [pretty_json(e["input"]) for e in examples] == [o["data-input"] for o in options]


@pytest.mark.parametrize(
    ("tool_id", "version"),
    [("no-such-tool", "1.0.0"), ("chrf-compute", "9.9.9"), ("chrf-compute", "")],
)
def test_tool_page_unknown_tool_is_not_found(tool_id: str, version: str) -> None:
    """An unknown tool id or version raises NotFound."""
    with pytest.raises(NotFound):
        tool_page(tool_id, version, BASE)


def test_index_lists_every_tool() -> None:
    """The index links each tool's page and contract and shows its description."""
    page = index_page(BASE)
    wanted = []
    for tool_id, version in TOOLS:
        wanted += [
            f'href="/tools/{tool_id}/{version}"',
            f'href="/v1/tools/{tool_id}/versions/{version}"',
            html.escape(contract(tool_id, version)["description"]),
        ]
    wanted += [f"<code>{BASE}/mcp</code>", "mtcompute run "]
    assert [] == [text for text in wanted if text not in page]


def _card_ids(page_html: str) -> list[str]:
    """The tool ids of a page's cards, in order."""
    return re.findall(r'<li class="card"><h3><a href="/tools/([^/"]+)/', page_html)


def test_index_search_lists_the_ranked_tools_with_their_lines() -> None:
    """/?q= shows the search's first SEARCH_CARDS tools in its order as cards, each with its
    best SEARCH_CARD_LINES matched lines, the other matches as links, and the query kept in
    the search box; the whole list and its heading are gone."""
    page = index_page(BASE, SEARCH_QUERY)
    hits = search_catalog(SEARCH_QUERY)
    lines = [
        esc(line.text)
        for hit in hits[:SEARCH_CARDS]
        for line in [line for line in hit.lines if line.field not in ("id", "description")][
            :SEARCH_CARD_LINES
        ]
    ]
    more = page[page.index('<p class="more">') :].split("</p>")[0]
    assert (
        [hit.entry.id for hit in hits[:SEARCH_CARDS]],
        [],
        [hit.entry.page_path for hit in hits[SEARCH_CARDS:]],
        True,
        False,
    ) == (
        _card_ids(page),
        [line for line in lines if line not in page],
        re.findall(r'<a href="([^"]+)">', more),
        f'name="q" value="{esc(SEARCH_QUERY)}"' in page,
        '<h2 id="tools">' in page,
    )


def test_index_search_escapes_the_query() -> None:
    """Markup in a query is shown as text in the title, the heading and the search box."""
    page = index_page(BASE, "<b>chrF</b>")
    assert (False, 3) == ("<b>chrF" in page, page.count("&lt;b&gt;chrF&lt;/b&gt;"))


def test_index_search_without_a_match_or_too_long() -> None:
    """A query nothing matches says so; one over 500 characters says it is too long."""
    assert (
        True,
        True,
        [],
    ) == (
        "No tool matches." in index_page(BASE, "zzxq"),
        "The search is too long: 501 characters, at most 500." in index_page(BASE, "b" * 501),
        _card_ids(index_page(BASE, "b" * 501)),
    )


def test_index_without_a_query_has_the_search_box_and_every_card() -> None:
    """/ has the GET search form and one card per tool version, in catalog order."""
    page = index_page(BASE)
    assert (True, [t for t, _ in TOOLS]) == (
        '<form class="search" action="/" method="get" role="search">' in page,
        _card_ids(page),
    )


@pytest.mark.parametrize(("tool_id", "version"), TOOLS, ids=TOOL_IDS)
def test_tool_page_title_line_has_the_category(tool_id: str, version: str) -> None:
    """The line under the title reads as the seed's: id · version · Text · free, no key
    needed (the category from the catalog metadata)."""
    expected = (
        f'<p class="meta"><code>{tool_id}</code> &middot; version <code>{version}</code> '
        "&middot; Text &middot; free, no key needed &middot; "
    )
    assert expected in tool_page(tool_id, version, BASE)


def _related_ids(page_html: str) -> list[str]:
    """The tool ids of the page's related-tools list, in its order."""
    section = page_html[page_html.index('<h2 id="related">') :]
    return re.findall(r'<li><a href="/tools/([^/"]+)/[^"]+">', section)


@pytest.mark.parametrize(
    ("seed", "tool_id"),
    [
        ("seeds/000_814aaae8f220d09e.txt", "bleu-smoothing-compute"),
        ("seeds/001_a890bd794d4d6a3a.txt", "bleu-sentence-components"),
    ],
)
def test_related_tools_are_the_seed_selection(seed: str, tool_id: str) -> None:
    """A seed tool's page names the seed page's related tools, in the seed's order."""
    text = shared_file(seed).read_text(encoding="utf-8")
    bullets = text[text.index("\nRelated tools\n") :].splitlines()[2:]
    expected = [line[2:].split(":")[0].lower().replace(" ", "-") for line in bullets if line]
    assert expected == _related_ids(tool_page(tool_id, "1.0.0", BASE))


def test_every_tool_has_its_category_and_chosen_related_tools() -> None:
    """The catalog metadata names every tool of the catalog, category "Text", each related
    tool a catalog tool (not itself, no repeats), and each page lists them in that order."""
    meta = catalog_meta()
    ids = {tool_id for tool_id, _ in TOOLS}
    assert [] == sorted(ids - set(meta))
    problems = [
        (tool_id, entry)
        for tool_id, entry in meta.items()
        if entry.category != "Text"
        or tool_id in entry.related
        or len(set(entry.related)) != len(entry.related)
        or not set(entry.related) <= ids
        or not 3 <= len(entry.related) <= 6
    ]
    assert [] == problems
    pages = {(t, v): _related_ids(tool_page(t, v, BASE)) for t, v in TOOLS}
    assert {(t, v): list(meta[t].related) for t, v in TOOLS} == pages


@pytest.mark.parametrize(("name", "page_html"), _all_pages(), ids=[n for n, _ in _all_pages()])
def test_titles_use_the_proper_names(name: str, page_html: str) -> None:
    """BLEU, chrF, TER and sacreBLEU are spelled so in every heading and title (no "Bleu",
    "Chrf", "Ter " or "Sacrebleu")."""
    headings = re.findall(r"<(?:title|h[1-3])[^>]*>(.*?)</", page_html)
    headings += re.findall(r'<a href="/tools/[^"]+">([^<]*)</a>', page_html)
    wrong = [text for text in headings if re.search(r"\b(Bleu|Chrf|Ter|Sacrebleu)\b", text)]
    assert [] == wrong


def test_code_blocks_have_a_copy_button_and_commands_wrap() -> None:
    """Every code block (every pre but the try-it output, which wraps) has a Copy button
    (hidden until the script shows it); the curl and CLI commands wrap their long lines."""
    page = tool_page("bleu-smoothing-compute", "1.0.0", BASE)
    blocks = page.count('<div class="code"><pre')
    buttons = page.count('<button type="button" class="copy" hidden')
    assert (blocks, blocks) == (page.count("<pre") - page.count('<pre id="try-output"'), buttons)
    for label in ("curl command", "CLI command", "mtcompute command"):
        assert f'<pre tabindex="0" class="wraps" aria-label="{label}">' in page


@pytest.mark.parametrize(("name", "page_html"), _all_pages(), ids=[n for n, _ in _all_pages()])
def test_page_is_self_contained_html5(name: str, page_html: str) -> None:
    """lang, charset, viewport and title set; headings in order; no external resource (the
    one link is the favicon, an SVG written into the page as a data: URL)."""
    outline = _outline(page_html)
    metas = [attrs for tag, attrs in outline.tags if tag == "meta"]
    links = [attrs for tag, attrs in outline.tags if tag == "link"]
    icons = [a for a in links if a.get("rel") == "icon" and FAVICON.match(a.get("href") or "")]
    external = [
        (tag, attrs)
        for tag, attrs in outline.tags
        if attrs not in icons
        and (
            "src" in attrs
            or tag == "link"
            or not str(attrs.get("href", "/")).startswith(("/", "#"))
            or str(attrs.get("href", "/")).startswith("//")
        )
    ]
    assert (1, links) == (len(icons), icons)
    skips = [
        (a, b) for a, b in zip(outline.headings, outline.headings[1:], strict=False) if b > a + 1
    ]
    assert (
        True,
        {"lang": "en"},
        True,
        True,
        True,
        1,
        [],
        [],
    ) == (
        page_html.startswith("<!DOCTYPE html>\n"),
        {"lang": outline.tags[0][1].get("lang")},
        {"charset": "utf-8"} in metas,
        {"name": "viewport", "content": "width=device-width, initial-scale=1"} in metas,
        bool(outline.title.strip()),
        outline.headings[:1].count(1) + outline.headings[1:].count(1),
        skips,
        external,
    )


# --------------------------------------------------------------------------- browser


@pytest.fixture
def page(browser: Browser, server_url: str) -> Iterator[Page]:
    """A fresh desktop-sized page, of the module-scoped ``browser`` (Debian's Chromium,
    headless; the CI script installs it), that fails the test on any request off the server."""
    foreign: list[str] = []
    with fresh_page(browser, 10_000, viewport=DESKTOP) as opened:
        opened.on(
            "request",
            lambda request: (
                None if request.url.startswith(server_url) else foreign.append(request.url)
            ),
        )
        yield opened
    assert [] == foreign


# A full-page screenshot of the longest pages (paired-significance) took over 10 s on a
# loaded two-core machine; the picture is an artifact, not a timing check.
SCREENSHOT_TIMEOUT_MS = 60_000


def _screenshots_and_overflow(page: Page, name: str) -> tuple[int, int]:
    """Desktop then phone screenshots; the phone's (scrollWidth, innerWidth)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for label, size in (("desktop", DESKTOP), ("phone", PHONE)):
        page.set_viewport_size(size)
        page.screenshot(
            path=str(ARTIFACTS / f"{name}-{label}.png"),
            full_page=True,
            timeout=SCREENSHOT_TIMEOUT_MS,
        )
    widths: list[int] = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    return widths[0], widths[1]


def test_browser_index_page(page: Page, server_url: str) -> None:
    """The index shows the catalog with a link per tool and fits a phone screen."""
    page.goto(server_url + "/")
    expect(page).to_have_title("mtcompute · MT metric tools catalog")
    expect(page.get_by_role("heading", name="Tools", exact=True)).to_be_visible()
    expect(page.get_by_role("heading", name="How to call a tool")).to_be_visible()
    for tool_id, version in TOOLS:
        expect(page.locator(f'.card a[href="/tools/{tool_id}/{version}"]').first).to_be_visible()
    scroll_width, inner_width = _screenshots_and_overflow(page, "index")
    assert scroll_width <= inner_width, f"phone page scrolls sideways: {scroll_width}px"


def test_browser_search_box(browser: Browser, server_url: str) -> None:
    """With JavaScript off, typing a task in the search box of / and pressing Enter lists
    the search's tools in its order, the seed phrasing's tool first; fits a phone."""
    with fresh_page(browser, 10_000, viewport=DESKTOP, java_script_enabled=False) as page:
        page.goto(server_url + "/")
        page.get_by_label("Search the catalog").fill("why did my sentence get a low BLEU")
        page.get_by_label("Search the catalog").press("Enter")
        page.wait_for_url("**/?q=why+did+my+sentence+get+a+low+BLEU")
        expect(
            page.get_by_role("heading", name="Tools for “why did my sentence get a low BLEU”")
        ).to_be_visible()
        ids = page.locator(".results .card code").all_inner_texts()
        hits = search_catalog("why did my sentence get a low BLEU")
        first_line = page.locator(".results .card").first.locator(".matched li").first.inner_text()
        scroll_width, inner_width = _screenshots_and_overflow(page, "search")
    assert (
        [hit.entry.id for hit in hits][:3],
        "Supported: why did my sentence get a low BLEU",
        True,
    ) == (
        [text for text in ids if "-" in text][:3],
        first_line,
        scroll_width <= inner_width,
    )


@pytest.mark.parametrize(("tool_id", "version"), TOOLS, ids=TOOL_IDS)
def test_browser_tool_page(page: Page, server_url: str, tool_id: str, version: str) -> None:
    """A tool page shows its sections and fits a phone screen without sideways scroll."""
    page.goto(f"{server_url}/tools/{tool_id}/{version}")
    expect(page).to_have_title(f"{tool_title(tool_id)} ({tool_id} {version}) · mtcompute")
    for heading in (
        "Supported",
        "Not supported",
        "Behavior",
        "Input",
        "Output",
        "Limits",
        "Try it",
        "How to call it",
    ):
        expect(page.get_by_role("heading", name=heading, exact=True)).to_be_visible()
    expect(page.locator("#try-input")).to_be_visible()
    scroll_width, inner_width = _screenshots_and_overflow(page, f"{tool_id}@{version}")
    assert scroll_width <= inner_width, f"phone page scrolls sideways: {scroll_width}px"


@pytest.mark.parametrize(
    ("path", "name", "title", "headings"),
    [
        (
            "/clients/cli/",
            "clients",
            "Command-line clients · mtcompute",
            ("Download", "Run a tool", "Commands", "Exit status", "Without a client"),
        ),
        (
            "/clients/mcp/",
            "mcp-setup",
            "MCP setup · mtcompute",
            (
                "Endpoint and transports",
                "Desktop clients (stdio)",
                "Editors and command-line agents (streamable HTTP)",
                "Check the connection",
            ),
        ),
    ],
    ids=["clients", "mcp-setup"],
)
def test_browser_setup_pages(
    page: Page, server_url: str, path: str, name: str, title: str, headings: tuple[str, ...]
) -> None:
    """The clients and MCP setup pages show their sections and fit a phone screen."""
    page.goto(server_url + path)
    expect(page).to_have_title(title)
    for heading in headings:
        expect(page.get_by_role("heading", name=heading, exact=True)).to_be_visible()
    scroll_width, inner_width = _screenshots_and_overflow(page, name)
    assert scroll_width <= inner_width, f"phone page scrolls sideways: {scroll_width}px"


def _run(page: Page) -> tuple[str, Any]:
    """Click Run, wait for an answer; the status code shown and the output parsed as JSON."""
    page.locator("#try-run").click()
    expect(page.locator("#try-status")).to_have_attribute("data-status", ANSWERED)
    expect(page.locator("#try-run")).to_be_enabled()
    status = page.locator("#try-status").get_attribute("data-status") or ""
    return status, json.loads(page.locator("#try-output").inner_text())


def test_browser_copy_button_copies_the_command(browser: Browser, server_url: str) -> None:
    """The Copy button of the curl command puts the command's text on the clipboard."""
    context = browser.new_context(
        viewport=DESKTOP, permissions=["clipboard-read", "clipboard-write"]
    )
    try:
        opened = context.new_page()
        opened.goto(f"{server_url}/tools/bleu-smoothing-compute/1.0.0")
        button = opened.get_by_role("button", name="Copy curl command")
        button.click()
        expect(button).to_have_text("Copied")
        copied = opened.evaluate("navigator.clipboard.readText()")
    finally:
        context.close()
    example = contract("bleu-smoothing-compute", "1.0.0")["examples"][0]["input"]
    assert curl_command(server_url, "bleu-smoothing-compute", "1.0.0", example) == copied


@pytest.mark.parametrize(("tool_id", "version", "number", "example"), EXAMPLES, ids=EXAMPLE_IDS)
def test_browser_try_it_runs_the_example(
    page: Page, server_url: str, tool_id: str, version: str, number: int, example: dict[str, Any]
) -> None:
    """Run on the example's input shows HTTP 200 and the example's response envelope."""
    page.goto(f"{server_url}/tools/{tool_id}/{version}")
    if number > 1:
        page.locator("#try-example").select_option(str(number - 1))
    expect(page.locator("#try-input")).to_have_value(pretty_json(example["input"]))
    status, shown = _run(page)
    expect(page.locator("#try-status")).to_contain_text("HTTP 200")
    assert ("200", {"result": example["output"]}) == (status, shown)


@pytest.mark.parametrize(("tool_id", "version"), TOOLS, ids=TOOL_IDS)
def test_browser_try_it_shows_the_error_envelope(
    page: Page, server_url: str, tool_id: str, version: str
) -> None:
    """Run on {} shows HTTP 400 and the invalid_input envelope execute() gives."""
    page.goto(f"{server_url}/tools/{tool_id}/{version}")
    page.locator("#try-input").fill("{}")
    status, shown = _run(page)
    expect(page.locator("#try-status")).to_contain_text("HTTP 400")
    assert ("400", execute(tool_id, version, {})) == (status, shown)


def test_browser_try_it_shows_a_network_error(page: Page, server_url: str) -> None:
    """When the request cannot reach the server, the form says so instead of hanging."""
    page.route("**/execute", lambda route: route.abort("connectionrefused"))
    page.goto(f"{server_url}/tools/chrf-compute/1.0.0")
    page.locator("#try-run").click()
    expect(page.locator("#try-status")).to_have_attribute("data-status", "network-error")
    expect(page.locator("#try-status")).to_have_text("Network error")
    expect(page.locator("#try-output")).to_contain_text("did not reach the server")
    expect(page.locator("#try-run")).to_be_enabled()
