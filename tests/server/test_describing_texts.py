"""Every text that describes the catalog is generated from the catalog.

The texts: the MCP instructions, the MCP ``execute`` description (what ``tools/list`` says of
the catalog), the MCP server description, the CLI's description (``mtcompute --help``), the
home page and the OpenAPI description. Each must name every tool and every metric family;
a tool added to the catalog must appear in all of them without anyone editing one; and the
per-tool metadata they are made from (``server/catalog_meta.json``) must exist for every tool
and agree with the contracts.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import httpx
import pytest

from mtcompute import catalog_text
from mtcompute.catalog_text import (
    INPUT_KINDS,
    TASKS,
    ToolFacts,
    metric_families,
    tool_facts,
    tool_metadata,
)
from mtcompute.cli import description
from mtcompute.contracts import contract, contract_ids
from mtcompute.server.mcp import build_server
from mtcompute.server.mcp_tools import instructions, tool_definitions
from mtcompute.server.openapi import openapi_document
from mtcompute.server.pages import index_page
from mtcompute.tools import list_tools
from tests.conftest import run_cli
from tests.server.catalog_reading import newest, schema_kind

BASE = "https://mtcompute.example"
TOOL_IDS = sorted({tool.id for tool in list_tools()})
# What the texts once said and must never say again: they sent raw sentences to token tools.
STALE = ("nothing here tokenizes", "(BLEU, chrF)", "(BLEU and chrF)", "take tokenized text")


# -- the metadata ------------------------------------------------------------------------


def test_every_tool_has_its_metadata() -> None:
    """Every tool of the registry has an entry with every field, of the known kinds and
    tasks, with metric families and a short summary; no entry names a tool that is not."""
    metadata = tool_metadata()
    problems = []
    for tool_id in TOOL_IDS:
        meta = metadata.get(tool_id)
        if meta is None:
            problems.append((tool_id, "no entry"))
            continue
        fields = {"category", "takes", "task", "metrics", "summary", "related"}
        if set(meta) != fields:
            problems.append((tool_id, f"fields {sorted(set(meta) ^ fields)}"))
        if meta.get("takes") not in INPUT_KINDS:
            problems.append((tool_id, f"takes {meta.get('takes')!r}"))
        if meta.get("task") not in TASKS:
            problems.append((tool_id, f"task {meta.get('task')!r}"))
        if not meta.get("metrics") or not all(isinstance(m, str) for m in meta["metrics"]):
            problems.append((tool_id, "metrics"))
        if not 1 <= len(str(meta.get("summary", ""))) <= 45:
            problems.append((tool_id, "summary: 1 to 45 characters"))
    assert ([], []) == (problems, sorted(set(metadata) - set(TOOL_IDS)))


@pytest.mark.parametrize(("tool_id", "version"), contract_ids())
def test_input_kind_agrees_with_the_contract(tool_id: str, version: str) -> None:
    """The metadata's input kind is what the contract's input schema says (every version)."""
    assert tool_metadata()[tool_id]["takes"] == schema_kind(
        contract(tool_id, version)["input_schema"]
    )


def test_the_schema_reading_tells_the_kinds_apart() -> None:
    """The reading above is not a constant: it finds all three kinds in the catalog."""
    kinds = {schema_kind(contract(t, v)["input_schema"]) for t, v in contract_ids()}
    assert set(INPUT_KINDS) == kinds


@pytest.mark.parametrize("tool_id", TOOL_IDS)
def test_metric_families_are_the_contracts(tool_id: str) -> None:
    """Each metric family the metadata gives a tool is named in its newest contract's
    description or operations, and every metric its input can choose is among them."""
    document = contract(tool_id, newest(tool_id))
    words = " ".join([document["description"], *document["supported_operations"]])
    families = tool_metadata()[tool_id]["metrics"]
    choosable = document["input_schema"]["properties"].get("metrics", {}).get("items", {})
    assert ([], []) == (
        [family for family in families if family not in words],
        [m for m in choosable.get("enum", []) if m not in {f.lower() for f in families}],
    )


# -- the texts ---------------------------------------------------------------------------


def _texts() -> dict[str, str]:
    """Every describing text, made now from what the catalog says now."""
    tool_definitions.cache_clear()
    execute = next(tool for tool in tool_definitions() if tool.name == "execute")
    return {
        "MCP instructions": instructions(),
        "MCP execute description": execute.description or "",
        "MCP server description": build_server().description or "",
        "CLI description": description(),
        "home page": index_page(BASE),
        "OpenAPI description": openapi_document()["info"]["description"],
    }


@pytest.fixture
def fresh_texts() -> Iterator[None]:
    """The texts' caches cleared after the test, so that a patched catalog does not stay."""
    yield
    tool_definitions.cache_clear()


# Texts that name every tool (the others, one line long, name every metric family).
NAMING_EVERY_TOOL = (
    "MCP instructions",
    "MCP execute description",
    "CLI description",
    "home page",
    "OpenAPI description",
)


def test_every_text_names_every_tool_and_metric_family(fresh_texts: None) -> None:
    """Each text names every metric family; each but the one-line server description names
    every tool; none repeats the stale claims."""
    texts = _texts()
    missing = [
        (name, word)
        for name, text in texts.items()
        for word in [*metric_families(), *(TOOL_IDS if name in NAMING_EVERY_TOOL else ())]
        if word not in text
    ]
    stale = [(name, claim) for name, text in texts.items() for claim in STALE if claim in text]
    assert ([], [], ("BLEU", "chrF", "chrF++", "TER", "WER", "CER")) == (
        missing,
        stale,
        metric_families(),
    )


COMET = ToolFacts(
    id="comet-score",
    versions=("1.0.0", "2.0.0"),
    category="Text",
    takes="raw text",
    task="score",
    metrics=("COMET",),
    summary="COMET of raw text",
    related=(),
)


def test_a_new_tool_appears_in_every_text(
    monkeypatch: pytest.MonkeyPatch, fresh_texts: None
) -> None:
    """A tool added to the catalog (here a made-up COMET tool) appears in every text, with
    its metric family, and in the MCP texts with its newest version; before, in none."""
    before = _texts()
    real = tool_facts()
    monkeypatch.setattr(catalog_text, "tool_facts", lambda: (*real, COMET))
    after = _texts()
    words = {
        name: ["COMET", *(["comet-score"] if name in NAMING_EVERY_TOOL else [])] for name in after
    }
    words["MCP execute description"].append("comet-score@2.0.0 (COMET of raw text; older: 1.0.0)")
    assert ([], []) == (
        [(name, w) for name, text in before.items() for w in words[name] if w in text],
        [(name, w) for name, text in after.items() for w in words[name] if w not in text],
    )


def test_a_tool_without_metadata_is_still_named(
    monkeypatch: pytest.MonkeyPatch, fresh_texts: None
) -> None:
    """A tool the metadata file leaves out still appears in every text that names the tools
    (under its own heading), so that no text goes stale while the metadata test fails."""
    entries = {k: v for k, v in tool_metadata().items() if k != "ter-compute"}
    monkeypatch.setattr(catalog_text, "tool_metadata", lambda: entries)
    catalog_text.tool_facts.cache_clear()
    try:
        texts = _texts()
        facts = {f.id: f for f in catalog_text.tool_facts()}["ter-compute"]
    finally:
        catalog_text.tool_facts.cache_clear()
    assert ("unknown", []) == (
        facts.takes,
        [name for name in NAMING_EVERY_TOOL if "ter-compute" not in texts[name]],
    )


def test_mcp_execute_description_groups_the_tools_by_input() -> None:
    """In execute's description each tool's entry is on the line of the input its contract
    takes, as id@newest-version, older versions named."""
    tool_definitions.cache_clear()
    description = next(t for t in tool_definitions() if t.name == "execute").description or ""
    lines = {
        line[2:].split(":", 1)[0]: line for line in description.splitlines() if line[:2] == "- "
    }
    wrong = []
    for tool_id in TOOL_IDS:
        kind = schema_kind(contract(tool_id, newest(tool_id))["input_schema"])
        older = sorted({v for t, v in contract_ids() if t == tool_id} - {newest(tool_id)})
        entry = re.search(rf"\b{re.escape(tool_id)}@([0-9.]+) \(([^)]*)\)", lines.get(kind, ""))
        if entry is None or entry[1] != newest(tool_id) or not all(v in entry[2] for v in older):
            wrong.append(tool_id)
    assert [] == wrong


# -- the served texts --------------------------------------------------------------------


def test_cli_help_names_every_tool_and_metric_family() -> None:
    """``mtcompute --help`` (a subprocess) names every tool and metric family."""
    done = run_cli("--help")
    text = done.stdout.decode()
    words = [*metric_families(), *TOOL_IDS, 'Raw sentences go to a "raw text" tool']
    assert (0, []) == (done.returncode, [word for word in words if word not in text])


def test_served_home_page_and_openapi_name_every_tool(server_url: str) -> None:
    """The served home page lists every tool under the input it takes, each linking to its
    newest version's page; the served OpenAPI description names every tool and family."""
    page = httpx.get(server_url + "/", timeout=30).text
    listing = page[page.index('<ul class="plain by-input">') :]
    listing = listing[: listing.index("</ul>")]
    by_kind = {
        kind: re.findall(r'<a class="nowrap" href="/tools/([^/]+)/([^"]+)"', items)
        for kind, items in re.findall(r"<li><strong>([^<]+)</strong>(.*?)</li>", listing)
    }
    expected: dict[str, list[tuple[str, str]]] = {kind: [] for kind in INPUT_KINDS}
    for tool_id in TOOL_IDS:
        kind = schema_kind(contract(tool_id, newest(tool_id))["input_schema"])
        expected[kind].append((tool_id, newest(tool_id)))
    lead = page[page.index('<p class="lead">') :]
    description = httpx.get(server_url + "/openapi.json", timeout=30).json()["info"]["description"]
    assert (expected, [], []) == (
        by_kind,
        [family for family in metric_families() if family not in lead[: lead.index("</p>")]],
        [word for word in [*metric_families(), *TOOL_IDS] if word not in description],
    )
