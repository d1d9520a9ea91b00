"""The MCP surface through the SDK's own client, over streamable HTTP and over stdio.

Each transport is driven in both protocol eras the SDK speaks: ``legacy`` (the initialize
handshake, 2025-11-25) and ``auto`` (``server/discover``, 2026-07-28). Every contract example
goes through ``execute`` and must come back as exactly the envelope the library returns: the
structured content equal to it, the text content equal to its :func:`mtcompute.dumps` text.
"""

from __future__ import annotations

from typing import Any

import httpx
import jsonschema
import mcp_types as types
import pytest
from mcp import Client, MCPError
from mcp_types.version import LATEST_HANDSHAKE_VERSION, LATEST_MODERN_VERSION

import mtcompute
from mtcompute.catalog_text import tool_facts
from mtcompute.contracts import contract, contract_ids, contract_text
from mtcompute.errors import NotFound
from mtcompute.search import search_answer
from mtcompute.tools import get_tool, list_tools
from tests.server.catalog_reading import version_status
from tests.server.mcp_client import client_fixture

pytestmark = pytest.mark.anyio

TOOL_NAMES = ["execute", "list_catalog", "get_contract", "search_catalog"]

CONNECTIONS = [
    pytest.param(("http", "legacy"), id="http-legacy"),
    pytest.param(("http", "auto"), id="http-auto"),
    pytest.param(("stdio", "legacy"), id="stdio-legacy"),
    pytest.param(("stdio", "auto"), id="stdio-auto"),
]

EXAMPLES = [
    pytest.param(tool_id, version, example, id=f"{tool_id}@{version} > example {number}")
    for tool_id, version in contract_ids()
    for number, example in enumerate(contract(tool_id, version)["examples"], start=1)
]

ERROR_CASES = [
    pytest.param("chrf-compute", "1.0.0", {"hypotheses": 1}, id="invalid_input"),
    pytest.param(
        "chrf-compute", "1.0.0", {"hypotheses": 1, "references": 2, "beta": 0}, id="faults"
    ),
    pytest.param(
        "chrf-compute", "1.0.0", {"hypotheses": ["a"] * 257, "references": ["a"]}, id="limit"
    ),
    pytest.param(
        "bleu-smoothing-compute",
        "1.0.0",
        {
            "matches": [1, 0],
            "totals": [2, 1],
            "candidate_length": 2,
            "reference_length": 2,
            "smoothing": "method4",
        },
        id="unsupported_input",
    ),
    pytest.param("no-such-tool", "1.0.0", {}, id="unknown tool id"),
    pytest.param("chrf-compute", "9.9.9", {}, id="unknown version"),
    pytest.param("chrf-compute", "1.0.0", [], id="input not an object"),
]


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    """One asyncio loop for the module, so each connection is opened once and shared."""
    return "asyncio"


client = client_fixture(CONNECTIONS)


def _text(result: types.CallToolResult) -> str:
    assert 1 == len(result.content)
    block = result.content[0]
    assert isinstance(block, types.TextContent)
    return block.text


def _catalog() -> list[dict[str, Any]]:
    return [
        {
            "id": tool.id,
            "version": tool.version,
            "description": contract(tool.id, tool.version)["description"],
            **version_status(tool.id, tool.version),
            "supported_operations": contract(tool.id, tool.version)["supported_operations"],
            "unsupported_operations": contract(tool.id, tool.version)["unsupported_operations"],
        }
        for tool in list_tools()
    ]


async def test_protocol_era(client: Client) -> None:
    """legacy mode negotiates the newest handshake version, auto the newest modern one."""
    expected = {"legacy": LATEST_HANDSHAKE_VERSION, "auto": LATEST_MODERN_VERSION}[client.mode]
    assert expected == client.protocol_version
    assert client.server_info is not None
    assert ("mtcompute", mtcompute.__version__) == (
        client.server_info.name,
        client.server_info.version,
    )


async def test_lists_the_four_tools(client: Client) -> None:
    """tools/list names execute, list_catalog, get_contract and search_catalog, each
    described, with schemas."""
    listed = (await client.list_tools()).tools
    assert TOOL_NAMES == [tool.name for tool in listed]
    by_name = {tool.name: tool for tool in listed}
    assert ["id", "version", "input"] == by_name["execute"].input_schema["required"]
    assert ["id", "version"] == by_name["get_contract"].input_schema["required"]
    assert "object" == by_name["list_catalog"].input_schema["type"]
    assert ["query"] == by_name["search_catalog"].input_schema["required"]
    for tool in listed:
        assert tool.description
        assert tool.annotations is not None
        assert tool.annotations.read_only_hint is True


async def test_execute_description_lists_the_catalog(client: Client) -> None:
    """execute's description names every tool as id@version (its newest version, older ones
    after it) with its short summary from the catalog metadata; the error codes an envelope
    can carry are in its output schema."""
    listed = {tool.name: tool for tool in (await client.list_tools()).tools}
    description = listed["execute"].description or ""
    missing = [facts.line() for facts in tool_facts() if facts.line() not in description]
    envelope = listed["execute"].output_schema or {}
    codes = envelope["properties"]["error"]["properties"]["code"]["enum"]
    tool_codes = ["invalid_input", "limit_exceeded", "unsupported_input", "not_found"]
    assert ([], [*tool_codes, "overloaded", "timeout"]) == (
        missing,
        [code for code in codes if code != "internal_error"],
    )
    assert sorted({tool.id for tool in list_tools()}) == [facts.id for facts in tool_facts()]


async def test_execute_description_lets_an_agent_choose(client: Client) -> None:
    """Each tool's entry in execute's description is on the line of the input it takes (raw
    text, tokens or counts, as the catalog metadata says), the description says which tools
    raw sentences go to, and that the full contract (input fields, examples) is one
    get_contract call away."""
    listed = {tool.name: tool for tool in (await client.list_tools()).tools}
    description = listed["execute"].description or ""
    lines = {line[2:].split(":")[0]: line for line in description.splitlines() if line[:2] == "- "}
    misplaced = [f.id for f in tool_facts() if f" {f.ref} (" not in lines.get(f.takes, "")]
    assert ([], True, True) == (
        misplaced,
        'Raw sentences go to a "raw text" tool' in description,
        "get_contract" in description,
    )


ERROR_CALLS = [
    pytest.param("get_contract", {"id": "chrf-compute", "version": "0.0.1"}, id="get_contract"),
    pytest.param("get_contract", {"id": "chrf-compute"}, id="get_contract missing argument"),
    pytest.param("list_catalog", {"verbose": True}, id="list_catalog"),
    pytest.param("search_catalog", {"query": ""}, id="search_catalog"),
    pytest.param("execute", {"id": "chrf-compute", "version": "1.0.0"}, id="execute"),
    pytest.param(
        "execute",
        {"id": "chrf-compute", "version": "1.0.0", "input": {"hypotheses": 1, "beta": 0}},
        id="execute with several faults",
    ),
]


@pytest.mark.parametrize(("name", "arguments"), ERROR_CALLS)
async def test_error_result_is_valid_against_the_output_schema(
    client: Client, name: str, arguments: dict[str, Any]
) -> None:
    """An error answer's structured content (the envelope) is valid against the tool's
    outputSchema, as clients that check errors too (the TypeScript SDK's) require; and the
    schema still rejects an answer that is neither the tool's result nor an envelope."""
    schemas = {tool.name: tool.output_schema for tool in (await client.list_tools()).tools}
    result = await client.call_tool(name, arguments)
    assert result.is_error is True
    validator = jsonschema.Draft202012Validator(schemas[name])
    assert [] == [error.message for error in validator.iter_errors(result.structured_content)]
    assert not validator.is_valid({"message": "neither"})


async def test_instructions_describe_the_workflow(client: Client) -> None:
    """The server instructions walk through list_catalog, get_contract, then execute."""
    instructions = client.instructions or ""
    assert (
        instructions.index("list_catalog")
        < instructions.index("get_contract")
        < instructions.index("execute {")
    )


@pytest.mark.parametrize(("tool_id", "version", "example"), EXAMPLES)
async def test_execute_example(
    client: Client, tool_id: str, version: str, example: dict[str, Any]
) -> None:
    """execute on a contract example returns exactly the example's output envelope."""
    expected = {"result": example["output"]}
    result = await client.call_tool(
        "execute", {"id": tool_id, "version": version, "input": example["input"]}
    )
    assert mtcompute.dumps(expected) == _text(result)
    assert expected == result.structured_content
    assert result.is_error is False


@pytest.mark.parametrize(("tool_id", "version", "value"), ERROR_CASES)
async def test_execute_error(client: Client, tool_id: str, version: str, value: object) -> None:
    """A failing input gives the library's error envelope, byte for byte, with isError true."""
    expected = mtcompute.execute(tool_id, version, value)
    assert "error" in expected
    result = await client.call_tool("execute", {"id": tool_id, "version": version, "input": value})
    assert mtcompute.dumps(expected) == _text(result)
    assert expected == result.structured_content
    assert result.is_error is True


@pytest.mark.parametrize(
    ("arguments", "message", "path"),
    [
        pytest.param(
            {"id": "chrf-compute", "version": "1.0.0"},
            'Missing required argument "input" of execute.',
            "/input",
            id="without input",
        ),
        pytest.param(
            {"tool": "chrf-compute", "id": "chrf-compute", "version": "1.0.0", "input": {}},
            'Unknown argument "tool" of execute; expected only id, version, input.',
            "/tool",
            id="unknown argument",
        ),
    ],
)
async def test_execute_bad_arguments(
    client: Client, arguments: dict[str, object], message: str, path: str
) -> None:
    """execute without its input argument, or with one it does not take, is an invalid_input
    envelope pointing at it, with isError true."""
    expected = {"error": {"code": "invalid_input", "message": message, "path": path}}
    result = await client.call_tool("execute", arguments)
    assert mtcompute.dumps(expected) == _text(result)
    assert expected == result.structured_content
    assert result.is_error is True


@pytest.mark.parametrize(("tool_id", "version"), contract_ids())
async def test_get_contract(client: Client, tool_id: str, version: str) -> None:
    """get_contract returns the contract verbatim as text and parsed as structured content."""
    result = await client.call_tool("get_contract", {"id": tool_id, "version": version})
    assert contract_text(tool_id, version) == _text(result)
    assert contract(tool_id, version) == result.structured_content
    assert result.is_error is False


async def test_get_contract_unknown_version(client: Client) -> None:
    """get_contract for a version that does not exist is the not_found envelope."""
    with pytest.raises(NotFound) as raised:
        get_tool("chrf-compute", "0.0.1")
    expected = {"error": raised.value.to_dict()}
    result = await client.call_tool("get_contract", {"id": "chrf-compute", "version": "0.0.1"})
    assert mtcompute.dumps(expected) == _text(result)
    assert expected == result.structured_content
    assert result.is_error is True


async def test_list_catalog(client: Client) -> None:
    """list_catalog lists every tool with its description and (un)supported operations."""
    expected = {"tools": _catalog()}
    result = await client.call_tool("list_catalog", {})
    assert expected == result.structured_content
    assert mtcompute.dumps(expected) == _text(result)
    assert result.is_error is False
    assert [(t.id, t.version) for t in list_tools()] == [
        (entry["id"], entry["version"]) for entry in expected["tools"]
    ]


SEARCHES = [
    pytest.param("why did my sentence get a low BLEU", {}, id="seed phrasing"),
    pytest.param("חישוב TER לתרגום מכונה", {"limit": 2}, id="Hebrew, limit 2"),
    pytest.param("chrF++ für maschinelle Übersetzung", {"limit": 50.0}, id="German, limit 50.0"),
    pytest.param("the of and", {}, id="no terms"),
]


@pytest.mark.parametrize(("query", "options"), SEARCHES)
async def test_search_catalog(client: Client, query: str, options: dict[str, Any]) -> None:
    """search_catalog answers the search module's ranked tools (5 unless limit says), the
    same as structured content and as text, valid against its output schema."""
    expected = search_answer(query, int(options.get("limit", 5))).as_json()
    result = await client.call_tool("search_catalog", {"query": query, **options})
    schemas = {tool.name: tool.output_schema for tool in (await client.list_tools()).tools}
    validator = jsonschema.Draft202012Validator(schemas["search_catalog"])
    assert (expected, mtcompute.dumps(expected), False, []) == (
        result.structured_content,
        _text(result),
        result.is_error,
        [error.message for error in validator.iter_errors(result.structured_content)],
    )


SEARCH_ERRORS = [
    pytest.param(
        {},
        'Missing required argument "query" of search_catalog.',
        "/query",
        id="no query",
    ),
    pytest.param(
        {"query": "bleu", "top": 3},
        'Unknown argument "top" of search_catalog; expected only query, limit.',
        "/top",
        id="unknown argument",
    ),
    pytest.param(
        {"query": 7},
        'Expected the argument "query" of search_catalog to be a string, got 7.',
        "/query",
        id="query not a string",
    ),
    pytest.param(
        {"query": ""},
        'Expected the argument "query" of search_catalog to have 1 to 500 characters, got 0.',
        "/query",
        id="empty query",
    ),
    pytest.param(
        {"query": "x" * 501},
        'Expected the argument "query" of search_catalog to have 1 to 500 characters, got 501.',
        "/query",
        id="query too long",
    ),
    pytest.param(
        {"query": "bleu", "limit": 0},
        'Expected the argument "limit" of search_catalog to be 1 to 50, got 0.',
        "/limit",
        id="limit 0",
    ),
    pytest.param(
        {"query": "bleu", "limit": "3"},
        'Expected the argument "limit" of search_catalog to be an integer, got the string "3".',
        "/limit",
        id="limit a string",
    ),
]


@pytest.mark.parametrize(("arguments", "message", "path"), SEARCH_ERRORS)
async def test_search_catalog_bad_argument(
    client: Client, arguments: dict[str, Any], message: str, path: str
) -> None:
    """A bad search_catalog argument is the invalid_input envelope naming it."""
    expected = {"error": {"code": "invalid_input", "message": message, "path": path}}
    result = await client.call_tool("search_catalog", arguments)
    assert (expected, mtcompute.dumps(expected), True) == (
        result.structured_content,
        _text(result),
        result.is_error,
    )


async def test_unknown_tool_name_is_a_protocol_error(client: Client) -> None:
    """Calling a tool the server does not have is a JSON-RPC invalid-params error."""
    with pytest.raises(MCPError) as raised:
        await client.call_tool("chrf-compute", {})
    assert types.INVALID_PARAMS == raised.value.code


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost"])
async def test_http_loopback_hosts(server_url: str, host: str) -> None:
    """Both loopback names pass the DNS-rebinding check at exactly /mcp."""
    port = server_url.rsplit(":", 1)[1]
    async with Client(f"http://{host}:{port}/mcp", mode="legacy") as connected:
        result = await connected.call_tool("list_catalog", {})
    assert result.is_error is False


async def test_http_foreign_host_refused(server_url: str) -> None:
    """A Host header that is not a loopback name is refused (421), as DNS rebinding would be."""
    async with httpx.AsyncClient() as http:
        response = await http.post(
            f"{server_url}/mcp",
            headers={"Host": "evil.example", "Accept": "application/json, text/event-stream"},
            json={"jsonrpc": "2.0", "id": 1, "method": "ping"},
        )
    assert 421 == response.status_code


@pytest.mark.parametrize("method", ["GET", "DELETE"])
async def test_http_only_post(server_url: str, method: str) -> None:
    """The stateless endpoint keeps no stream or session: GET and DELETE get 405, Allow: POST."""
    async with httpx.AsyncClient() as http:
        response = await http.request(
            method, f"{server_url}/mcp", headers={"Accept": "text/event-stream"}
        )
    assert (405, "POST") == (response.status_code, response.headers.get("allow"))
