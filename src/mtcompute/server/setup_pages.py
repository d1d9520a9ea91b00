"""The pages that set a client up: the command-line clients (``/clients/cli/``, with the
shipped single-file clients) and the MCP setup page (``/clients/mcp/``, ready-to-paste
configuration per MCP client).
"""

from __future__ import annotations

__all__ = [
    "CLIENTS_PATH",
    "CLIENT_FILES",
    "MCP_SETUP_PATH",
    "ClientDownload",
    "ClientsPage",
    "McpSetupPage",
    "McpSnippet",
    "client_file",
    "clients_page",
    "mcp_setup_page",
    "mcp_snippets",
]

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any, Final

from mtcompute.catalog import catalog_entries
from mtcompute.core.jsjson import dumps
from mtcompute.server.page_data import render
from mtcompute.server.page_text import pretty_json, shell_quote, single_quoted

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
    return render(
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
            f"  -d {single_quoted(request)}"
        ),
    )
    return render(
        "mcp-setup.html",
        "MCP setup · mtcompute",
        "Connect an MCP client to mtcompute: the endpoint, the transports and ready-to-paste "
        "configuration for desktop, editor and command-line agents.",
        page,
        key_needed=key_needed,
    )
