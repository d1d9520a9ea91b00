"""Versions on every surface: ``GET /v1/tools/{id}``, ``latest`` on the contract, execute and
page routes and in the CLI, and a superseded version saying so (listing, page, CLI), through
a running server, the CLI as a subprocess and headless Chromium."""

from __future__ import annotations

import json
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from importlib import resources

import anyio
import httpx
import mcp_types as types
import pytest
from mcp import Client
from playwright.sync_api import Browser, Page, expect

import mtcompute
from mtcompute.contracts import contract, contract_ids, contract_text
from mtcompute.server.executor import INLINE_BODY_BYTES
from tests.conftest import fresh_page, run_cli
from tests.server.serving import serving

IDS = sorted({tool_id for tool_id, _ in contract_ids()})
KNOWN = ", ".join(IDS)
JSON = {"content-type": "application/json"}
# sacrebleu-score 1.1.0's TER example: 1.0.0 refuses it, so its result shows 1.1.0 ran.
TER_EXAMPLE = contract("sacrebleu-score", "1.1.0")["examples"][-1]
# The superseded versions and their successors (system-ranking 1.1.0 added WER and CER).
SUPERSEDED = {("sacrebleu-score", "1.0.0"): "1.1.0", ("system-ranking", "1.0.0"): "1.1.0"}


@pytest.fixture(scope="module")
def client(server_url: str) -> Iterator[httpx.Client]:
    """An HTTP client bound to the running server."""
    with httpx.Client(base_url=server_url, timeout=30) as c:
        yield c


def _listed(tool_id: str, version: str, status: str, newer: str | None = None) -> dict[str, object]:
    """A tool version as /v1/tools lists it, written out."""
    base = f"/v1/tools/{tool_id}/versions/{version}"
    return {
        "id": tool_id,
        "version": version,
        "description": contract(tool_id, version)["description"],
        "status": status,
        **({"superseded_by": newer} if newer else {}),
        "links": {
            "contract": base,
            "execute": base + "/execute",
            "page": f"/tools/{tool_id}/{version}",
        },
    }


# ------------------------------------------------------------------ GET /v1/tools/{id}


def test_versions_of_a_tool_with_two(client: httpx.Client) -> None:
    """GET /v1/tools/sacrebleu-score lists 1.0.0 (superseded by 1.1.0) and 1.1.0 (current),
    oldest first, with latest 1.1.0."""
    response = client.get("/v1/tools/sacrebleu-score")
    assert (200, "application/json") == (
        response.status_code,
        response.headers["content-type"],
    )
    assert {
        "id": "sacrebleu-score",
        "latest": "1.1.0",
        "versions": [
            _listed("sacrebleu-score", "1.0.0", "superseded", "1.1.0"),
            _listed("sacrebleu-score", "1.1.0", "current"),
        ],
    } == response.json()


def test_versions_of_every_tool_are_its_catalog_entries(client: httpx.Client) -> None:
    """Each id's versions are exactly its /v1/tools entries, in order; latest is the last,
    and every link answers 200 (execute with the version's first example)."""
    catalog = client.get("/v1/tools").json()["tools"]
    for tool_id in IDS:
        listing = client.get(f"/v1/tools/{tool_id}").json()
        assert [e for e in catalog if e["id"] == tool_id] == listing["versions"]
        assert (tool_id, listing["versions"][-1]["version"]) == (listing["id"], listing["latest"])
        for item in listing["versions"]:
            example = contract(tool_id, item["version"])["examples"][0]["input"]
            assert [200, 200, 200] == [
                client.get(item["links"]["contract"]).status_code,
                client.get(item["links"]["page"]).status_code,
                client.post(item["links"]["execute"], json=example).status_code,
            ]


def test_versions_of_an_unknown_id_is_not_found(client: httpx.Client) -> None:
    """An unknown id gets 404 and the not_found envelope naming the known ids, as the
    contract route answers it."""
    response = client.get("/v1/tools/comet")
    expected = {
        "error": {
            "code": "not_found",
            "message": f'Expected a tool id from the catalog, got "comet"; known tools: {KNOWN}.',
            "path": "",
        }
    }
    assert (404, expected) == (response.status_code, response.json())
    assert expected == client.get("/v1/tools/comet/versions/latest").json()


def test_catalog_lists_each_version_status(client: httpx.Client) -> None:
    """GET /v1/tools gives each version its status: sacrebleu-score 1.0.0 and system-ranking
    1.0.0 superseded by 1.1.0, every other current with no superseded_by."""
    tools = client.get("/v1/tools").json()["tools"]
    assert [
        (t, v, "superseded" if (t, v) in SUPERSEDED else "current") for t, v in contract_ids()
    ] == [(e["id"], e["version"], e["status"]) for e in tools]
    assert [(t, v, newer) for (t, v), newer in SUPERSEDED.items()] == [
        (e["id"], e["version"], e["superseded_by"]) for e in tools if "superseded_by" in e
    ]
    assert [
        [
            "id",
            "version",
            "description",
            "status",
            *(["superseded_by"] * ("superseded_by" in e)),
            "links",
        ]
        for e in tools
    ] == [list(e) for e in tools]


# ------------------------------------------------------------------ latest on the routes


def test_contract_of_latest_is_the_newest_byte_for_byte(client: httpx.Client) -> None:
    """GET .../versions/latest serves the newest contract's shipped bytes, and names the
    version in Mtcompute-Tool; a concrete version's answer names itself."""
    data = resources.files("mtcompute.contracts") / "data"
    latest = client.get("/v1/tools/sacrebleu-score/versions/latest")
    old = client.get("/v1/tools/sacrebleu-score/versions/1.0.0")
    assert (200, (data / "sacrebleu-score@1.1.0.json").read_bytes(), "sacrebleu-score@1.1.0") == (
        latest.status_code,
        latest.content,
        latest.headers["mtcompute-tool"],
    )
    assert "sacrebleu-score@1.0.0" == old.headers["mtcompute-tool"]
    one = client.get("/v1/tools/chrf-compute/versions/latest")
    assert (contract_text("chrf-compute", "1.0.0").encode(), "chrf-compute@1.0.0") == (
        one.content,
        one.headers["mtcompute-tool"],
    )


def test_execute_latest_runs_the_newest(client: httpx.Client) -> None:
    """POST .../versions/latest/execute runs 1.1.0: its TER example gets the same bytes as
    1.1.0's route, 1.0.0 refuses it, and the header names the version that ran."""
    body = json.dumps(TER_EXAMPLE["input"]).encode()
    latest = client.post(
        "/v1/tools/sacrebleu-score/versions/latest/execute", content=body, headers=JSON
    )
    concrete = client.post(
        "/v1/tools/sacrebleu-score/versions/1.1.0/execute", content=body, headers=JSON
    )
    old = client.post(
        "/v1/tools/sacrebleu-score/versions/1.0.0/execute", content=body, headers=JSON
    )
    expected = mtcompute.dumps({"result": TER_EXAMPLE["output"]}).encode()
    assert (200, expected, "sacrebleu-score@1.1.0") == (
        latest.status_code,
        latest.content,
        latest.headers["mtcompute-tool"],
    )
    assert (expected, "sacrebleu-score@1.1.0") == (
        concrete.content,
        concrete.headers["mtcompute-tool"],
    )
    assert (400, "sacrebleu-score@1.0.0") == (old.status_code, old.headers["mtcompute-tool"])


def test_execute_latest_of_a_large_body_runs_the_newest(client: httpx.Client) -> None:
    """A body over the inline size goes to the body worker, with the resolved version."""
    value = {**TER_EXAMPLE["input"], "hypotheses": list(TER_EXAMPLE["input"]["hypotheses"])}
    padding = " " * (INLINE_BODY_BYTES + 100)  # JSON whitespace: the same input, a larger body
    body = json.dumps(value).encode()[:-1] + padding.encode() + b"}"
    assert len(body) > INLINE_BODY_BYTES
    response = client.post(
        "/v1/tools/sacrebleu-score/versions/latest/execute", content=body, headers=JSON
    )
    assert (200, mtcompute.dumps({"result": TER_EXAMPLE["output"]}).encode()) == (
        response.status_code,
        response.content,
    )
    assert "sacrebleu-score@1.1.0" == response.headers["mtcompute-tool"]


def test_a_cross_origin_page_can_read_the_version_header() -> None:
    """With CORS on, the Mtcompute-Tool header of a latest execute is exposed to the page."""
    origin = "https://app.example.org"
    with serving("--cors-origin", origin, "--no-access-log") as (url, _proc):
        response = httpx.post(
            url + "/v1/tools/sacrebleu-score/versions/latest/execute",
            json=TER_EXAMPLE["input"],
            headers={"origin": origin},
            timeout=30,
        )
    exposed = {
        h.strip() for h in response.headers["access-control-expose-headers"].lower().split(",")
    }
    assert (200, origin, True, "sacrebleu-score@1.1.0") == (
        response.status_code,
        response.headers.get("access-control-allow-origin"),
        "mtcompute-tool" in exposed,
        response.headers["mtcompute-tool"],
    )


def test_execute_of_an_unknown_id_or_version_has_no_tool_header(client: httpx.Client) -> None:
    """not_found names what exists and no version (none ran)."""
    for path in ("/v1/tools/comet/versions/latest", "/v1/tools/chrf-compute/versions/9.0.0"):
        response = client.post(path + "/execute", content=b"{}", headers=JSON)
        assert (404, "not_found", None) == (
            response.status_code,
            response.json()["error"]["code"],
            response.headers.get("mtcompute-tool"),
        )


def test_page_of_latest_is_the_newest_page(client: httpx.Client) -> None:
    """GET /tools/{id}/latest is the newest version's page, the same HTML, named in the
    header."""
    latest = client.get("/tools/sacrebleu-score/latest")
    concrete = client.get("/tools/sacrebleu-score/1.1.0")
    assert (200, concrete.text, "sacrebleu-score@1.1.0") == (
        latest.status_code,
        latest.text,
        latest.headers["mtcompute-tool"],
    )
    assert 404 == client.get("/tools/comet/latest").status_code


# ------------------------------------------------------------------ the pages


SUPERSEDED_NOTE = (
    '<p class="superseded" id="superseded" role="note"><strong>Superseded.</strong> '
    '<a href="/tools/sacrebleu-score/1.1.0">sacreBLEU score 1.1.0</a> '
    "(<code>sacrebleu-score@1.1.0</code>) is the current version: use it for new work. "
    "This version, 1.0.0, still answers exactly as its contract says.</p>"
)


def test_superseded_page_says_so_and_links_the_newer(client: httpx.Client) -> None:
    """The 1.0.0 page has the superseded note linking 1.1.0 and the versions line; the
    1.1.0 page has the versions line only; a one-version tool has neither."""
    old = client.get("/tools/sacrebleu-score/1.0.0").text
    new = client.get("/tools/sacrebleu-score/1.1.0").text
    single = client.get("/tools/chrf-compute/1.0.0").text
    versions_old = (
        '<p class="versions" id="versions">Versions: <strong>1.0.0</strong> (superseded, this '
        'page) &middot; <a href="/tools/sacrebleu-score/1.1.0">1.1.0</a> (current). '
        "<code>latest</code> in place of a version names 1.1.0.</p>"
    )
    versions_new = (
        '<p class="versions" id="versions">Versions: <a href="/tools/sacrebleu-score/1.0.0">'
        "1.0.0</a> (superseded) &middot; <strong>1.1.0</strong> (current, this page). "
        "<code>latest</code> in place of a version names 1.1.0.</p>"
    )
    assert [True, True, False, True] == [
        SUPERSEDED_NOTE in old,
        versions_old in old,
        'id="superseded"' in new,
        versions_new in new,
    ]
    assert [False, False] == ['id="superseded"' in single, 'id="versions"' in single]


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    """A fresh page in its own browser context, of the module-scoped ``browser``."""
    with fresh_page(browser, 10_000) as opened:
        yield opened


def test_browser_superseded_note_leads_to_the_current_version(page: Page, server_url: str) -> None:
    """In Chromium the 1.0.0 page shows the note; its link opens the 1.1.0 page, which shows
    none; /tools/sacrebleu-score/latest opens the 1.1.0 page too."""
    page.goto(f"{server_url}/tools/sacrebleu-score/1.0.0")
    note = page.get_by_role("note")
    expect(note).to_be_visible()
    expect(note).to_contain_text("Superseded.")
    note.get_by_role("link", name="sacreBLEU score 1.1.0").click()
    expect(page).to_have_url(f"{server_url}/tools/sacrebleu-score/1.1.0")
    expect(page).to_have_title("sacreBLEU score (sacrebleu-score 1.1.0) · mtcompute")
    expect(page.locator("#superseded")).to_have_count(0)
    expect(page.locator("#versions")).to_be_visible()
    page.goto(f"{server_url}/tools/sacrebleu-score/latest")
    expect(page).to_have_title("sacreBLEU score (sacrebleu-score 1.1.0) · mtcompute")


def test_browser_try_it_on_the_latest_page_runs_the_newest(page: Page, server_url: str) -> None:
    """The latest page's try-it posts to 1.1.0's execute route and shows its result."""
    page.goto(f"{server_url}/tools/sacrebleu-score/latest")
    page.locator("#try-input").fill(json.dumps(TER_EXAMPLE["input"]))
    with page.expect_response(lambda r: r.request.method == "POST") as answer:
        page.locator("#try-run").click()
    assert (
        f"{server_url}/v1/tools/sacrebleu-score/versions/1.1.0/execute",
        200,
    ) == (answer.value.url, answer.value.status)
    expect(page.locator("#try-output")).to_contain_text('"ter"')


# ------------------------------------------------------------------ the CLI


def test_cli_describe_latest_prints_the_newest_contract() -> None:
    """`mtcompute describe sacrebleu-score latest` prints 1.1.0's contract as shipped."""
    proc = run_cli("describe", "sacrebleu-score", "latest")
    assert (0, contract_text("sacrebleu-score", "1.1.0") + "\n") == (
        proc.returncode,
        proc.stdout.decode(),
    )
    unknown = run_cli("describe", "comet", "latest")
    assert (1, "not_found") == (unknown.returncode, json.loads(unknown.stdout)["error"]["code"])


def test_cli_run_latest_locally_and_on_the_server(server_url: str) -> None:
    """`mtcompute run sacrebleu-score latest` runs 1.1.0 (the TER example), here and on
    --base-url, the same bytes; the local run names the version on stderr."""
    body = json.dumps(TER_EXAMPLE["input"]).encode()
    local = run_cli("run", "sacrebleu-score", "latest", "--input", "-", stdin=body)
    remote = run_cli(
        "run", "sacrebleu-score", "latest", "--input", "-", "--base-url", server_url, stdin=body
    )
    expected = mtcompute.dumps({"result": TER_EXAMPLE["output"]}).encode() + b"\n"
    assert (0, expected, b"mtcompute run: latest is sacrebleu-score@1.1.0\n") == (
        local.returncode,
        local.stdout,
        local.stderr,
    )
    assert (0, expected) == (remote.returncode, remote.stdout)


def test_cli_list_says_which_version_is_superseded() -> None:
    """`mtcompute list` ends the lines of sacrebleu-score 1.0.0 and system-ranking 1.0.0 with
    (superseded by 1.1.0), and only those; --json gives each version its status as /v1/tools
    does."""
    lines = run_cli("list").stdout.decode().splitlines()
    assert list(SUPERSEDED) == [
        tuple(line.split()[:2]) for line in lines if line.endswith(" (superseded by 1.1.0)")
    ]
    assert [] == [line for line in lines if "superseded" in line and "1.0.0" not in line]
    listed = json.loads(run_cli("list", "--json").stdout)
    assert [
        {k: v for k, v in _listed(t, v, s, n).items() if k != "links"}
        for t, v, s, n in [
            (t, v, "superseded", SUPERSEDED[t, v])
            if (t, v) in SUPERSEDED
            else (t, v, "current", None)
            for t, v in contract_ids()
        ]
    ] == listed


# ------------------------------------------------------------------ MCP


def test_mcp_latest_through_the_sdk_client(server_url: str) -> None:
    """Through the official MCP SDK client on /mcp: get_contract of latest is 1.1.0's
    contract text, and execute with latest runs 1.1.0 (the TER example's result)."""

    async def calls() -> tuple[str, str]:
        async with Client(f"{server_url}/mcp", read_timeout_seconds=30) as client:
            got = await client.call_tool(
                "get_contract", {"id": "sacrebleu-score", "version": "latest"}
            )
            ran = await client.call_tool(
                "execute",
                {"id": "sacrebleu-score", "version": "latest", "input": TER_EXAMPLE["input"]},
            )
        texts = []
        for result in (got, ran):
            assert not result.is_error
            block = result.content[0]
            assert isinstance(block, types.TextContent)
            texts.append(block.text)
        return texts[0], texts[1]

    # A thread of its own: another module's anyio runner may hold this thread's event loop.
    with ThreadPoolExecutor(1) as pool:
        contract_got, envelope = pool.submit(anyio.run, calls).result()
    assert (
        contract_text("sacrebleu-score", "1.1.0"),
        mtcompute.dumps({"result": TER_EXAMPLE["output"]}),
    ) == (contract_got, envelope)
