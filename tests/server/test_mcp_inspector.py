"""The MCP surface through the official MCP Inspector's command line (``@modelcontextprotocol/
inspector`` from npm, pinned), over streamable HTTP and over stdio: every tool call, the error
cases included, must come back as the library's envelope, accepted by the Inspector's client
(the TypeScript SDK's, which checks structured content against the tool's output schema even
when ``isError`` is true).

The Inspector is installed with npm into ``.venv/npm/inspector-VERSION`` (ignored, beside the
virtual environment) the first time this module runs. Each call is a process start (for stdio,
two), so the suite runs every call over HTTP with the newest pinned version and the calls
whose answers once failed over stdio; ``MTCOMPUTE_INSPECTOR_GRID=full`` runs every call with
both pinned versions over both transports (52 calls).
"""

from __future__ import annotations

import json
import os
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

import mtcompute
from mtcompute.contracts import contract, contract_ids, contract_text
from mtcompute.search import search_answer
from mtcompute.server.mcp import EXECUTE, GET_CONTRACT, LIST_CATALOG, SEARCH_CATALOG
from tests.conftest import REPO, cli_command, require_program
from tests.server.catalog_reading import version_status

NEWEST, OLDEST = "2.12.0", "0.15.0"
TOOL_IS_ERROR_EXIT = {NEWEST: 5, OLDEST: 0}  # 2.x exits 5 on an isError result; 0.15 exits 0
FULL = os.environ.get("MTCOMPUTE_INSPECTOR_GRID") == "full"

CHRF_EXAMPLE = contract("chrf-compute", "1.0.0")["examples"][1]["input"]


@dataclass(frozen=True)
class Call:
    """One tools/call: the tool, its arguments, and the structured content expected."""

    name: str
    tool: str
    arguments: dict[str, Any]
    expected: dict[str, Any]
    text: str
    is_error: bool
    failed_before: bool = False  # one of the calls the Inspector rejected before the fix


def _envelope_call(name: str, arguments: dict[str, Any]) -> Call:
    envelope = mtcompute.execute(arguments["id"], arguments["version"], arguments["input"])
    return Call(
        name, EXECUTE, arguments, dict(envelope), mtcompute.dumps(envelope), "error" in envelope
    )


def _error(code: str, message: str, path: str) -> dict[str, Any]:
    return {"error": {"code": code, "message": message, "path": path}}


def _error_call(
    name: str, tool: str, arguments: dict[str, Any], error: dict[str, Any], *, before: bool
) -> Call:
    return Call(name, tool, arguments, error, mtcompute.dumps(error), True, before)


CATALOG = {
    "tools": [
        {
            "id": tool_id,
            "version": version,
            "description": contract(tool_id, version)["description"],
            **version_status(tool_id, version),
            "supported_operations": contract(tool_id, version)["supported_operations"],
            "unsupported_operations": contract(tool_id, version)["unsupported_operations"],
        }
        for tool_id, version in contract_ids()
    ]
}

SEARCH_QUERY = "why did my sentence get a low BLEU"
SEARCH = search_answer(SEARCH_QUERY, 2).as_json()

CALLS = [
    Call("list_catalog", LIST_CATALOG, {}, CATALOG, mtcompute.dumps(CATALOG), False),
    Call(
        "search_catalog",
        SEARCH_CATALOG,
        {"query": SEARCH_QUERY, "limit": 2},
        SEARCH,
        mtcompute.dumps(SEARCH),
        False,
    ),
    _error_call(
        "search_catalog limit 0",
        SEARCH_CATALOG,
        {"query": "BLEU", "limit": 0},
        _error(
            "invalid_input",
            'Expected the argument "limit" of search_catalog to be 1 to 50, got 0.',
            "/limit",
        ),
        before=False,
    ),
    Call(
        "get_contract",
        GET_CONTRACT,
        {"id": "chrf-compute", "version": "1.0.0"},
        contract("chrf-compute", "1.0.0"),
        contract_text("chrf-compute", "1.0.0"),
        False,
    ),
    _envelope_call(
        "execute example", {"id": "chrf-compute", "version": "1.0.0", "input": CHRF_EXAMPLE}
    ),
    _envelope_call(
        "execute invalid_input",
        {"id": "chrf-compute", "version": "1.0.0", "input": {"hypotheses": []}},
    ),
    _envelope_call("execute unknown tool", {"id": "no-such-tool", "version": "1.0.0", "input": {}}),
    _error_call(
        "get_contract unknown version",
        GET_CONTRACT,
        {"id": "chrf-compute", "version": "0.0.1"},
        _error("not_found", 'Expected a version of chrf-compute (1.0.0), got "0.0.1".', ""),
        before=True,
    ),
    _error_call(
        "get_contract unknown tool",
        GET_CONTRACT,
        {"id": "no-such-tool", "version": "1.0.0"},
        dict(mtcompute.execute("no-such-tool", "1.0.0", {})),
        before=True,
    ),
    _error_call(
        "get_contract missing version",
        GET_CONTRACT,
        {"id": "chrf-compute"},
        _error("invalid_input", 'Missing required argument "version" of get_contract.', "/version"),
        before=True,
    ),
    _error_call(
        "list_catalog unknown argument",
        LIST_CATALOG,
        {"verbose": "yes"},
        _error(
            "invalid_input",
            'Unknown argument "verbose" of list_catalog; expected no arguments.',
            "/verbose",
        ),
        before=True,
    ),
    _error_call(
        "execute missing input",
        EXECUTE,
        {"id": "chrf-compute", "version": "1.0.0"},
        _error("invalid_input", 'Missing required argument "input" of execute.', "/input"),
        before=False,
    ),
]


def _grid() -> list[Any]:
    """(version, transport, call or None for tools/list) of the run: all of them with
    MTCOMPUTE_INSPECTOR_GRID=full, else every call over HTTP with the newest version and, over
    stdio, tools/list and the calls that once failed."""
    cases = []
    for version in (NEWEST, OLDEST):
        for transport in ("http", "stdio"):
            for call in [None, *CALLS]:
                wanted = FULL or (
                    version == NEWEST
                    and (transport == "http" or call is None or call.failed_before)
                )
                name = "tools/list" if call is None else call.name
                if wanted:
                    cases.append(
                        pytest.param(version, transport, call, id=f"{version}-{transport}-{name}")
                    )
    return cases


def _install(version: str) -> Path:
    """The Inspector's launcher, installed with npm on first use."""
    folder = REPO / ".venv" / "npm" / f"inspector-{version}"
    launcher = folder / "node_modules" / ".bin" / "mcp-inspector"
    if not launcher.exists():
        npm = require_program("npm")
        folder.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            [npm, "install", "--no-save", "--no-audit", "--no-fund", "--loglevel=error",
             "--prefix", str(folder), f"@modelcontextprotocol/inspector@{version}"],
            check=True, capture_output=True, timeout=600,
        )  # fmt: skip
    return launcher


@pytest.fixture(scope="module")
def inspectors() -> dict[str, Path]:
    """Each pinned Inspector version the grid uses, installed."""
    require_program("node")
    return {version: _install(version) for version in sorted({NEWEST, *([OLDEST] if FULL else [])})}


def _target(transport: str, server_url: str) -> list[str]:
    if transport == "http":
        return [f"{server_url}/mcp", "--transport", "http"]
    env = ["-e", f"PYTHONPATH={os.environ['PYTHONPATH']}"] if "PYTHONPATH" in os.environ else []
    return [*env, *cli_command(), "mcp"]


def _argument(name: str, value: object) -> str:
    return f"{name}={value if isinstance(value, str) else json.dumps(value)}"


UNREACHABLE_EXIT = 4  # 2.x: the server could not be reached (or started) in time


def _inspect(launcher: Path, target: list[str], *args: str) -> subprocess.CompletedProcess[str]:
    """One Inspector CLI run. On a busy machine the stdio server can start too late for the
    Inspector, which then exits 4 ("unreachable"): that run is tried once more."""
    for _attempt in range(2):
        answer = subprocess.run(
            [str(launcher), "--cli", *target, *args],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
            cwd=launcher.parents[2],
        )
        if answer.returncode != UNREACHABLE_EXIT:
            break
    return answer


@pytest.mark.parametrize(("version", "transport", "call"), _grid())
def test_inspector(
    inspectors: dict[str, Path], server_url: str, version: str, transport: str, call: Call | None
) -> None:
    """The Inspector lists the four tools, and every call answers the library's envelope
    (text verbatim, structured content equal, isError as the envelope says)."""
    target = _target(transport, server_url)
    if call is None:
        answer = _inspect(inspectors[version], target, "--method", "tools/list")
        listed = json.loads(answer.stdout)["tools"]
        assert (0, [EXECUTE, LIST_CATALOG, GET_CONTRACT, SEARCH_CATALOG]) == (
            answer.returncode,
            [tool["name"] for tool in listed],
        )
        assert all("outputSchema" in tool for tool in listed)
        return
    tool_args = [_argument(k, v) for k, v in call.arguments.items()]
    answer = _inspect(
        inspectors[version], target, "--method", "tools/call", "--tool-name", call.tool,
        *(["--tool-arg", *tool_args] if tool_args else []),
    )  # fmt: skip
    expected = {
        "content": [{"type": "text", "text": call.text}],
        "structuredContent": call.expected,
        "isError": call.is_error,
    }
    status = TOOL_IS_ERROR_EXIT[version] if call.is_error else 0
    assert (status, expected) == (answer.returncode, json.loads(answer.stdout or "null")), (
        answer.stderr
    )


def test_inspector_strict_schema_check(inspectors: dict[str, Path], server_url: str) -> None:
    """The newest Inspector's --strict portability check of the tool schemas finds nothing."""
    answer = _inspect(
        inspectors[NEWEST], _target("http", server_url), "--method", "tools/list", "--strict"
    )
    assert (0, "") == (answer.returncode, answer.stderr)
