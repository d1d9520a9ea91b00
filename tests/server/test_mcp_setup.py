"""The MCP setup page's snippets (``/clients/mcp/``), each tried as its client would use it:
the configuration parses as JSON with the keys that client reads (or the command line has the
shape its client takes), and the server it names, a URL or a command, starts and answers
``tools/list`` with the four tools, through the official MCP SDK's client."""

from __future__ import annotations

import html
import json
import os
import shlex
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from mcp import Client, StdioServerParameters

from mtcompute.server.pages import McpSnippet, mcp_snippets
from tests.conftest import cli_command

pytestmark = pytest.mark.anyio

TOOL_NAMES = ["execute", "list_catalog", "get_contract", "search_catalog"]

# What each client reads, as its documentation says: the top-level key holding the servers,
# the key of the server's URL (None: a stdio command) and the other keys the entry must have.
CLIENTS: dict[str, tuple[str, str | None, dict[str, str]]] = {
    "Claude Desktop": ("mcpServers", None, {}),
    "Claude Code, project file": ("mcpServers", "url", {"type": "http"}),
    "Cursor": ("mcpServers", "url", {}),
    "VS Code": ("servers", "url", {"type": "http"}),
    "Windsurf": ("mcpServers", "serverUrl", {}),
    "Gemini CLI": ("mcpServers", "httpUrl", {}),
}
COMMANDS = {"Claude Code": ["claude", "mcp", "add", "--transport", "http", "mtcompute"]}


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    """asyncio, the SDK client's loop."""
    return "asyncio"


def _snippets() -> list[Any]:
    return [pytest.param(s.client, id=s.client) for s in mcp_snippets("http://127.0.0.1:8000")]


def test_every_snippet_is_checked() -> None:
    """The setup page has a snippet for each client this module knows how to check, and no
    other."""
    assert sorted([*CLIENTS, *COMMANDS]) == sorted(s.client for s in mcp_snippets("http://h"))


def _snippet(server_url: str, client: str) -> McpSnippet:
    (found,) = [s for s in mcp_snippets(server_url) if s.client == client]
    return found


def _server(snippet: McpSnippet) -> tuple[str | None, dict[str, Any]]:
    """(URL, stdio entry) that the snippet configures, read as its client reads it."""
    if snippet.client in COMMANDS:
        words = shlex.split(snippet.text)
        assert COMMANDS[snippet.client] == words[:-1]
        return words[-1], {}
    servers_key, url_key, fixed = CLIENTS[snippet.client]
    config = json.loads(snippet.text)
    assert [servers_key] == list(config)
    entry = config[servers_key]["mtcompute"]
    assert fixed == {key: entry[key] for key in fixed}
    if url_key is None:
        return None, entry
    assert sorted([url_key, *fixed]) == sorted(entry)
    return entry[url_key], {}


@pytest.mark.parametrize("client", _snippets())
async def test_snippet_starts_a_server_that_lists_the_tools(server_url: str, client: str) -> None:
    """The snippet, as served on the setup page, names a server that answers tools/list."""
    snippet = _snippet(server_url, client)
    with urllib.request.urlopen(f"{server_url}/clients/mcp/", timeout=30) as response:
        page = response.read().decode()
    assert html.escape(snippet.text) in page
    url, entry = _server(snippet)
    server: str | StdioServerParameters
    if url is not None:
        assert f"{server_url}/mcp" == url
        server = url
    else:
        assert {"command": "mtcompute", "args": ["mcp"]} == entry
        # The client finds `mtcompute` on PATH: this test run's console script is put first.
        bin_dir = str(Path(cli_command()[0]).parent)
        env = {"PATH": bin_dir + os.pathsep + os.environ.get("PATH", "")}
        if "PYTHONPATH" in os.environ:
            env["PYTHONPATH"] = os.environ["PYTHONPATH"]
        server = StdioServerParameters(command=entry["command"], args=entry["args"], env=env)
    async with Client(server, read_timeout_seconds=30) as connected:
        listed = (await connected.list_tools()).tools
    assert TOOL_NAMES == [tool.name for tool in listed]
