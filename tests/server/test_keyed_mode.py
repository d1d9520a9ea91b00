"""Keyed mode end to end: a ``mtcompute serve --api-keys`` driven through every surface, with
and without the key, beside the default (unkeyed) server.

Discovery is public (pages, the catalog and its search, contracts, OpenAPI, the clients, MCP
``initialize``, ``tools/list`` and the catalog tools); only executing a tool needs a key. The
surfaces: raw HTTP, the served clients (``cli.mjs`` under Node.js, ``mtcompute_client.py``),
``mtcompute run --base-url`` and :func:`mtcompute.client.execute_remote`, the official MCP
SDK client in both protocol eras, a tool page's try-it form in headless Chromium, and a CORS
preflight carrying the key headers.
"""

from __future__ import annotations

import html
import json
import os
import re
import subprocess
import sys
import urllib.request
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
import mcp_types as types
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from openapi_spec_validator import validate
from playwright.sync_api import Browser, Page, expect

import mtcompute
from mtcompute.client import execute_remote
from mtcompute.contracts import contract, contract_ids, contract_text
from mtcompute.search import search_catalog
from mtcompute.server.limits import KEY_REQUIRED_MESSAGE, ApiKeys
from mtcompute.server.openapi import openapi_document as mtcompute_openapi
from mtcompute.server.page_text import curl_command
from mtcompute.server.pages import CLIENT_FILES, FREE, FREE_WITH_KEY
from tests.conftest import fresh_page, require_program, run_cli
from tests.server.serving import serving

KEY = "keyed-mode-3b9f1c"
OTHER_KEY = "keyed-mode-not-listed"
ORIGIN = "https://app.example.org"
TOOL, VERSION = "chrf-compute", "1.0.0"
EXECUTE = f"/v1/tools/{TOOL}/versions/{VERSION}/execute"
EXAMPLE = contract(TOOL, VERSION)["examples"][0]
EXAMPLE_BODY = json.dumps(EXAMPLE["input"]).encode()
EXAMPLE_ANSWER = mtcompute.dumps({"result": EXAMPLE["output"]}).encode()
UNAUTHORIZED = {"error": {"code": "unauthorized", "message": KEY_REQUIRED_MESSAGE, "path": ""}}
UNAUTHORIZED_TEXT = mtcompute.dumps(UNAUTHORIZED).encode()
NEEDS_KEY = "{prog} run: the server needs an API key to run a tool: pass --api-key KEY or set "
REFUSED_KEY = "{prog} run: the server refused the API key given: pass --api-key KEY or set "
HINT_END = "MTCOMPUTE_API_KEY\n"
PAGES = ("/", f"/tools/{TOOL}/{VERSION}", "/clients/cli/", "/clients/mcp/")
# Environment variables of a client run: none of the runner's own MTCOMPUTE_* settings.
CLEAN_ENV = {
    k: v for k, v in os.environ.items() if k not in {"MTCOMPUTE_API_KEY", "MTCOMPUTE_BASE_URL"}
}


@pytest.fixture(scope="module")
def keyed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server that needs KEY to execute, CORS open to ORIGIN."""
    keys = tmp_path_factory.mktemp("keys") / "keys.txt"
    keys.write_text(f"# the keyed-mode test's key\n{ApiKeys.digest(KEY)}\n")
    flags = ("--api-keys", str(keys), "--cors-origin", ORIGIN, "--no-access-log")
    with serving(*flags) as (url, _proc):
        yield url


# --------------------------------------------------------------------------- raw HTTP


def test_http_discovery_is_public_and_execute_needs_the_key(keyed: str) -> None:
    """Without a key every discovery route answers 200 (the contract byte for byte); execute
    is 401 with the unauthorized envelope; with the key (either header) it computes."""
    with httpx.Client(base_url=keyed, timeout=30) as client:
        statuses = [
            client.get(path).status_code
            for path in (*PAGES, "/?q=TER", "/v1/tools", "/v1/tools?q=BLEU", "/openapi.json",
                         "/healthz", *(f"/clients/cli/{name}" for name in CLIENT_FILES))
        ]  # fmt: skip
        text = client.get(f"/v1/tools/{TOOL}/versions/{VERSION}").text
        answers = [
            client.post(EXECUTE, content=EXAMPLE_BODY, headers=headers)
            for headers in ({}, {"authorization": f"Bearer {KEY}"}, {"x-api-key": KEY})
        ]
    assert ([200] * len(statuses), contract_text(TOOL, VERSION)) == (statuses, text)
    assert [
        (401, "Bearer", UNAUTHORIZED_TEXT),
        (200, None, EXAMPLE_ANSWER),
        (200, None, EXAMPLE_ANSWER),
    ] == [(a.status_code, a.headers.get("www-authenticate"), a.content) for a in answers]


def test_openapi_declares_the_key_on_execute_only(keyed: str) -> None:
    """The keyed server's OpenAPI document declares the key's two schemes (bearer and
    X-API-Key) and requires one on every execute operation and on nothing else; it is a
    valid OpenAPI 3.1 document; an open server's declares none."""
    document = httpx.get(f"{keyed}/openapi.json", timeout=30).json()
    validate(document)
    secured = sorted(
        path
        for path, operations in document["paths"].items()
        for operation in operations.values()
        if "security" in operation
    )
    executes = sorted(p for p in document["paths"] if p.endswith("/execute"))
    schemes = document["components"]["securitySchemes"]
    assert (executes, {"bearer", "apiKey"}) == (secured, set(schemes))
    assert {"type": "apiKey", "in": "header", "name": "X-API-Key"} == schemes["apiKey"]
    assert [{"url": "/"}] == document["servers"]
    assert "securitySchemes" not in mtcompute_openapi()["components"]


# --------------------------------------------------------------------------- CORS


def _preflight(url: str, requested: str) -> httpx.Response:
    """The answer to a CORS preflight of a POST to ``url`` from the allowed origin, asking
    for the ``requested`` headers."""
    return httpx.options(
        url,
        timeout=30,
        headers={
            "origin": ORIGIN,
            "access-control-request-method": "POST",
            "access-control-request-headers": requested,
        },
    )


@pytest.mark.parametrize(
    ("path", "requested"),
    [(EXECUTE, "content-type, authorization"), (EXECUTE, "content-type, x-api-key"),
     ("/mcp", "authorization, content-type, mcp-protocol-version")],
    ids=["execute bearer", "execute x-api-key", "mcp bearer"],
)  # fmt: skip
def test_cors_preflight_allows_the_key_headers(keyed: str, path: str, requested: str) -> None:
    """A preflight from the allowed origin asking for the key headers is allowed (200) and
    names each of them back."""
    answer = _preflight(keyed + path, requested)
    allowed = {h.strip() for h in answer.headers["access-control-allow-headers"].lower().split(",")}
    wanted = {h.strip() for h in requested.split(",")}
    assert (200, ORIGIN, set()) == (
        answer.status_code,
        answer.headers.get("access-control-allow-origin"),
        wanted - allowed,
    )


def test_cross_origin_execute_with_and_without_the_key(keyed: str) -> None:
    """The request after the preflight: with the key, the result; without, the 401 envelope;
    both readable by the page (the origin allowed, WWW-Authenticate exposed)."""
    headers = {"origin": ORIGIN, "content-type": "application/json"}
    with httpx.Client(base_url=keyed, timeout=30) as client:
        refused = client.post(EXECUTE, content=EXAMPLE_BODY, headers=headers)
        served = client.post(
            EXECUTE, content=EXAMPLE_BODY, headers={**headers, "authorization": f"Bearer {KEY}"}
        )
    exposed = refused.headers.get("access-control-expose-headers", "").lower()
    assert (401, ORIGIN, True, 200, ORIGIN, EXAMPLE_ANSWER) == (
        refused.status_code,
        refused.headers.get("access-control-allow-origin"),
        "www-authenticate" in exposed,
        served.status_code,
        served.headers.get("access-control-allow-origin"),
        served.content,
    )


def test_preflight_still_refuses_other_headers(keyed: str) -> None:
    """The list is exact: a header outside it is still refused with the envelope (400)."""
    answer = _preflight(keyed + EXECUTE, "authorization, x-secret")
    assert (400, "invalid_input") == (answer.status_code, answer.json()["error"]["code"])


# --------------------------------------------------------------------------- served clients


def _download(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=30) as response:
        body: bytes = response.read()
        return body


@pytest.fixture(scope="module")
def client_folder(keyed: str, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The two single-file clients, downloaded from the keyed server."""
    folder = tmp_path_factory.mktemp("keyed-clients")
    for name in CLIENT_FILES:
        (folder / name).write_bytes(_download(f"{keyed}/clients/cli/{name}"))
    return folder


@pytest.fixture(scope="module", params=["node", "python", "mtcompute"])
def command(request: pytest.FixtureRequest, client_folder: Path) -> tuple[str, list[str]]:
    """(program name in messages, argv prefix) of each command-line surface: the served
    clients and ``mtcompute run`` (the command takes ``run`` itself)."""
    if request.param == "node":
        return "cli.mjs", [require_program("node"), str(client_folder / "cli.mjs")]
    if request.param == "python":
        return "mtcompute_client.py", [
            sys.executable, "-I", "-S", str(client_folder / "mtcompute_client.py")
        ]  # fmt: skip
    return "mtcompute", [sys.executable, "-m", "mtcompute"]


def _run(
    argv: list[str], *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [*argv, *args],
        input=EXAMPLE_BODY,
        capture_output=True,
        env={**CLEAN_ENV, **(env or {})},
        timeout=60,
        check=False,
    )


KEY_CASES = [
    pytest.param([], {}, 1, NEEDS_KEY, id="no key"),
    pytest.param(["--api-key", KEY], {}, 0, "", id="--api-key"),
    pytest.param([f"--api-key={KEY}"], {}, 0, "", id="--api-key=KEY"),
    pytest.param([], {"MTCOMPUTE_API_KEY": KEY}, 0, "", id="MTCOMPUTE_API_KEY"),
    pytest.param(["--api-key", KEY], {"MTCOMPUTE_API_KEY": OTHER_KEY}, 0, "", id="flag wins"),
    pytest.param(["--api-key", OTHER_KEY], {}, 1, REFUSED_KEY, id="unknown key"),
    pytest.param([], {"MTCOMPUTE_API_KEY": OTHER_KEY}, 1, REFUSED_KEY, id="unknown key in env"),
]


@pytest.mark.parametrize(("args", "env", "status", "hint"), KEY_CASES)
def test_run_against_the_keyed_server(
    keyed: str,
    command: tuple[str, list[str]],
    args: list[str],
    env: dict[str, str],
    status: int,
    hint: str,
) -> None:
    """``run`` with the key (flag or environment) prints the result and exits 0; without a
    valid key, the unauthorized envelope on stdout, exit 1, and one line on stderr saying
    how to give a key."""
    prog, argv = command
    answer = _run(argv, "run", TOOL, VERSION, "-i", "-", "--base-url", keyed, *args, env=env)
    expected = EXAMPLE_ANSWER if status == 0 else UNAUTHORIZED_TEXT
    stderr = (hint.format(prog=prog) + HINT_END).encode() if hint else b""
    assert (status, expected + b"\n", stderr) == (answer.returncode, answer.stdout, answer.stderr)


def test_run_with_a_key_against_the_unkeyed_server(
    server_url: str, command: tuple[str, list[str]]
) -> None:
    """A key sent to a server that needs none changes nothing: the result, exit 0."""
    _prog, argv = command
    answer = _run(argv, "run", TOOL, VERSION, "-i", "-", "--base-url", server_url,
                  env={"MTCOMPUTE_API_KEY": KEY})  # fmt: skip
    assert (0, EXAMPLE_ANSWER + b"\n", b"") == (answer.returncode, answer.stdout, answer.stderr)


@pytest.mark.parametrize("prog", ["cli.mjs", "mtcompute_client.py"])
@pytest.mark.parametrize("key", [None, KEY])
def test_client_discovery_needs_no_key(
    keyed: str, client_folder: Path, prog: str, key: str | None
) -> None:
    """``list`` and ``describe`` of the served clients answer without a key (and with one)."""
    argv = (
        [require_program("node"), str(client_folder / prog)]
        if prog == "cli.mjs"
        else [sys.executable, "-I", "-S", str(client_folder / prog)]
    )
    extra = [] if key is None else ["--api-key", key]
    listing = _run(argv, "list", "--json", "--base-url", keyed, *extra)
    described = _run(argv, "describe", TOOL, VERSION, "--base-url", keyed, *extra)
    assert (0, 0, contract_text(TOOL, VERSION).encode() + b"\n") == (
        listing.returncode,
        described.returncode,
        described.stdout,
    )
    assert len(json.loads(listing.stdout)["tools"]) == len(contract_ids())


@pytest.mark.parametrize("key", ["two words", "caf\u00e9", "line\nbreak"])
def test_a_key_that_cannot_be_a_header_is_a_usage_error(
    keyed: str, command: tuple[str, list[str]], key: str
) -> None:
    """A key that no HTTP header can carry: exit 2, one line on stderr, the key not shown."""
    prog, argv = command
    answer = _run(argv, "run", TOOL, VERSION, "-i", "-", "--base-url", keyed, "--api-key", key)
    prefix = "mtcompute: error:" if prog == "mtcompute" else f"{prog} run: error:"
    expected = (
        f"{prefix} --api-key (or MTCOMPUTE_API_KEY) must be printable ASCII without spaces "
        f"(got {len(key)} characters, not shown)\n"
    )
    assert (2, b"", expected.encode()) == (answer.returncode, answer.stdout, answer.stderr)


def test_mtcompute_run_key_without_base_url_is_a_usage_error() -> None:
    """A local run needs no key: ``--api-key`` without ``--base-url`` is a usage error (the
    variable alone is ignored, so that it can stay set)."""
    flag = run_cli("run", TOOL, VERSION, "-i", "-", "--api-key", KEY, stdin=EXAMPLE_BODY)
    local = subprocess.run(
        [sys.executable, "-m", "mtcompute", "run", TOOL, VERSION, "-i", "-"],
        input=EXAMPLE_BODY,
        capture_output=True,
        env={**CLEAN_ENV, "MTCOMPUTE_API_KEY": KEY},
        timeout=60,
        check=False,
    )
    assert (
        2,
        b"mtcompute: error: --api-key needs --base-url: a local run needs no key\n",
        0,
        EXAMPLE_ANSWER + b"\n",
    ) == (flag.returncode, flag.stderr, local.returncode, local.stdout)


def test_execute_remote_sends_the_key(keyed: str) -> None:
    """The library's HTTP client: (401, the envelope) without the key, (200, the result) with."""
    assert [(401, UNAUTHORIZED_TEXT.decode()), (200, EXAMPLE_ANSWER.decode())] == [
        execute_remote(keyed, TOOL, VERSION, EXAMPLE_BODY, api_key=key) for key in ("", KEY)
    ]


# --------------------------------------------------------------------------- MCP SDK client


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    """The SDK client runs on asyncio."""
    return "asyncio"


@asynccontextmanager
async def _mcp(url: str, mode: str, key: str | None) -> AsyncIterator[Client]:
    """An initialized SDK client on ``url/mcp``, sending ``key`` as a bearer token if any."""
    headers = {} if key is None else {"Authorization": f"Bearer {key}"}
    async with create_mcp_http_client(headers=headers) as http:
        transport = streamable_http_client(f"{url}/mcp", http_client=http)
        async with Client(transport, mode=mode, read_timeout_seconds=30) as client:
            yield client


def _structured(result: types.CallToolResult) -> Any:
    return result.structured_content


MODES = ["legacy", "auto"]
QUERY = "character n-gram F-score"


@pytest.mark.anyio
@pytest.mark.parametrize("mode", MODES)
async def test_mcp_discovery_without_a_key(keyed: str, mode: str) -> None:
    """Without a key: the client connects, lists the four tools, and list_catalog,
    search_catalog and get_contract answer; execute answers the unauthorized envelope as a
    tool error (isError, the envelope's exact text)."""
    async with _mcp(keyed, mode, None) as client:
        tools = [tool.name for tool in (await client.list_tools()).tools]
        listing = await client.call_tool("list_catalog", {})
        search = await client.call_tool("search_catalog", {"query": QUERY})
        got = await client.call_tool("get_contract", {"id": TOOL, "version": VERSION})
        run = await client.call_tool(
            "execute", {"id": TOOL, "version": VERSION, "input": EXAMPLE["input"]}
        )
    text = run.content[0]
    assert isinstance(text, types.TextContent)
    assert (
        ["execute", "list_catalog", "get_contract", "search_catalog"],
        [False, False, False],
        len(contract_ids()),
        search_catalog(QUERY)[0].entry.id,
        json.loads(contract_text(TOOL, VERSION)),
        (True, UNAUTHORIZED, UNAUTHORIZED_TEXT.decode()),
    ) == (
        tools,
        [listing.is_error, search.is_error, got.is_error],
        len(_structured(listing)["tools"]),
        _structured(search)["results"][0]["id"],
        _structured(got),
        (run.is_error, _structured(run), text.text),
    )


@pytest.mark.anyio
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(
    ("key", "refused"), [(KEY, False), (OTHER_KEY, True)], ids=["key", "unknown key"]
)
async def test_mcp_execute_with_a_key(keyed: str, mode: str, key: str, refused: bool) -> None:
    """With the key, execute answers the example's envelope; with an unknown key, the
    unauthorized envelope (discovery still answers)."""
    async with _mcp(keyed, mode, key) as client:
        tools = await client.list_tools()
        run = await client.call_tool(
            "execute", {"id": TOOL, "version": VERSION, "input": EXAMPLE["input"]}
        )
    expected = UNAUTHORIZED if refused else {"result": EXAMPLE["output"]}
    assert (4, refused, expected) == (len(tools.tools), run.is_error, _structured(run))


@pytest.mark.anyio
async def test_mcp_execute_needs_no_key_on_the_unkeyed_server(server_url: str) -> None:
    """The default server: execute over MCP without a key computes, as before."""
    async with _mcp(server_url, "legacy", None) as client:
        run = await client.call_tool(
            "execute", {"id": TOOL, "version": VERSION, "input": EXAMPLE["input"]}
        )
    assert (False, {"result": EXAMPLE["output"]}) == (run.is_error, _structured(run))


MCP_HEADERS = {"accept": "application/json, text/event-stream", "content-type": "application/json"}


def test_mcp_raw_discovery_is_200_and_execute_is_a_tool_error(keyed: str) -> None:
    """Over raw HTTP without a key: initialize and tools/list are 200 with their results; a
    tools/call of execute is 200 with an isError result carrying the unauthorized envelope
    (a tool error an agent reads, not an HTTP 401 that MCP clients take for OAuth)."""
    initialize = {
        "jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                   "clientInfo": {"name": "test", "version": "0"}},
    }  # fmt: skip
    listing = {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}
    call = {
        "jsonrpc": "2.0", "id": 3, "method": "tools/call",
        "params": {"name": "execute",
                   "arguments": {"id": TOOL, "version": VERSION, "input": EXAMPLE["input"]}},
    }  # fmt: skip
    headers = {**MCP_HEADERS, "mcp-protocol-version": "2025-06-18"}
    with httpx.Client(base_url=keyed, timeout=30) as client:
        answers = [client.post("/mcp", json=body, headers=headers) for body in
                   (initialize, listing, call)]  # fmt: skip
    replies = [a.json() for a in answers]
    assert ([200, 200, 200], "mtcompute", 4, True, UNAUTHORIZED) == (
        [a.status_code for a in answers],
        replies[0]["result"]["serverInfo"]["name"],
        len(replies[1]["result"]["tools"]),
        replies[2]["result"]["isError"],
        replies[2]["result"]["structuredContent"],
    )


# --------------------------------------------------------------------------- pages


def test_pages_say_a_key_is_needed_and_never_that_none_is(keyed: str, server_url: str) -> None:
    """The keyed server's pages say a key is needed and never "no key"; the tool page's curl
    command sends $MTCOMPUTE_API_KEY, its try-it has a key field, the setup pages say how to
    send the key. The default server's pages say no key is needed and have no key field."""
    with (
        httpx.Client(base_url=keyed, timeout=30) as with_keys,
        httpx.Client(base_url=server_url, timeout=30) as free,
    ):
        keyed_pages = {p: with_keys.get(p).text for p in PAGES}
        free_pages = {p: free.get(p).text for p in PAGES}
    no_key = re.compile(r"no key needed|\(no key\)", re.IGNORECASE)
    tool_page = keyed_pages[f"/tools/{TOOL}/{VERSION}"]
    curls = [
        html.unescape(block)
        for text in keyed_pages.values()
        for block in re.findall(r"<code>(curl -X POST .*?)</code>", text, re.S)
    ]
    assert (2, [], [], [], []) == (
        len(curls),
        [c for c in curls if '-H "Authorization: Bearer $MTCOMPUTE_API_KEY"' not in c],
        [p for p, text in keyed_pages.items() if no_key.search(text)],
        [p for p, text in keyed_pages.items() if FREE_WITH_KEY not in text],
        [p for p, text in free_pages.items() if FREE not in text or FREE_WITH_KEY in text],
    )
    assert (True, True, True, False, True, True) == (
        curl_command(keyed, TOOL, VERSION, EXAMPLE["input"], key_needed=True)
        in html.unescape(tool_page),
        'id="try-key"' in tool_page,
        "HTTP (API key needed)" in tool_page,
        'id="try-key"' in free_pages[f"/tools/{TOOL}/{VERSION}"],
        "Authorization: Bearer YOUR_KEY" in keyed_pages["/clients/mcp/"],
        "This server needs an API key to run a tool." in keyed_pages["/clients/cli/"],
    )


def test_the_pages_curl_command_runs_with_the_key(keyed: str) -> None:
    """The keyed tool page's curl command, copied and run by bash: with MTCOMPUTE_API_KEY set,
    the example's result; unset, the unauthorized envelope."""
    with httpx.Client(base_url=keyed, timeout=30) as client:
        page = client.get(f"/tools/{TOOL}/{VERSION}").text
    (command,) = [
        html.unescape(block)
        for block in re.findall(r'aria-label="curl command"><code>(.*?)</code>', page, re.S)
    ]
    shell, curl = require_program("bash"), require_program("curl")
    outputs = [
        subprocess.run(
            [shell, "-c", command.replace("curl ", f"{curl} -s ", 1)],
            capture_output=True,
            env={**CLEAN_ENV, **env},
            timeout=60,
            check=False,
        ).stdout
        for env in ({"MTCOMPUTE_API_KEY": KEY}, {})
    ]
    assert [EXAMPLE_ANSWER, UNAUTHORIZED_TEXT] == outputs


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    """A fresh page in its own browser context, of the module-scoped ``browser``."""
    with fresh_page(browser, 15_000) as opened:
        yield opened


def _try(page: Page) -> tuple[str, str, Any]:
    """Click Run and wait for the answer: (status code, status text, output as JSON)."""
    page.locator("#try-run").click()
    expect(page.locator("#try-status")).to_have_attribute("data-status", re.compile(r"^\d{3}$"))
    expect(page.locator("#try-run")).to_be_enabled()
    status = page.locator("#try-status")
    return (
        status.get_attribute("data-status") or "",
        status.inner_text(),
        json.loads(page.locator("#try-output").inner_text()),
    )


def test_browser_try_it_without_then_with_the_key(page: Page, keyed: str) -> None:
    """On the keyed server's tool page: Run without a key shows 401, a line saying the
    server needs a key, and the unauthorized envelope; with an unknown key, that the key was
    refused; with the key typed in, the example's result. The key goes out as a bearer token
    and is kept nowhere: not in storage, not in a cookie, not after a reload."""
    sent: list[str | None] = []
    page.on(
        "request",
        lambda r: sent.append(r.headers.get("authorization")) if r.method == "POST" else None,
    )
    page.goto(f"{keyed}/tools/{TOOL}/{VERSION}")
    expect(page.get_by_label("API key")).to_be_visible()
    without = _try(page)
    page.get_by_label("API key").fill(OTHER_KEY)
    wrong = _try(page)
    page.get_by_label("API key").fill(f"  {KEY} ")
    served = _try(page)
    kept = page.evaluate("[localStorage.length, sessionStorage.length, document.cookie]")
    page.reload()
    after_reload = page.get_by_label("API key").input_value()
    assert (
        ("401", UNAUTHORIZED),
        True,
        ("401", UNAUTHORIZED),
        True,
        ("200", {"result": EXAMPLE["output"]}),
        [None, f"Bearer {OTHER_KEY}", f"Bearer {KEY}"],
        [0, 0, ""],
        "",
    ) == (
        (without[0], without[2]),
        without[1].endswith("this server needs an API key, type it in the API key field"),
        (wrong[0], wrong[2]),
        wrong[1].endswith("the server refused this API key"),
        (served[0], served[2]),
        sent,
        kept,
        after_reload,
    )


def test_browser_try_it_refuses_a_key_no_header_can_carry(page: Page, keyed: str) -> None:
    """A key with a space is refused in the page, before any request, with a clear line."""
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url) if r.method == "POST" else None)
    page.goto(f"{keyed}/tools/{TOOL}/{VERSION}")
    page.get_by_label("API key").fill("two words")
    page.locator("#try-run").click()
    expect(page.locator("#try-status")).to_have_attribute("data-status", "bad-key")
    expect(page.locator("#try-output")).to_contain_text("printable ASCII")
    assert [] == requests


def test_browser_try_it_on_the_unkeyed_server(page: Page, server_url: str) -> None:
    """The default server's page has no key field and runs the example as before."""
    page.goto(f"{server_url}/tools/{TOOL}/{VERSION}")
    expect(page.locator("#try-key")).to_have_count(0)
    status, _text, shown = _try(page)
    assert ("200", {"result": EXAMPLE["output"]}) == (status, shown)
