"""The single-file command-line clients of ``/clients/cli/`` (``cli.mjs`` for Node.js,
``mtcompute_client.py`` for Python), downloaded from a running ``mtcompute serve`` and run as a
person would: the seed pages' command line verbatim, an example of every tool, list, describe,
bad arguments and servers that cannot be reached, each compared with ``mtcompute``'s own
output byte for byte.

The Python client runs with ``-I -S`` (no site-packages, no environment), so that it can only
use the standard library; the Node.js client runs from an empty folder (no ``node_modules``).
"""

from __future__ import annotations

import hashlib
import http.server
import json
import os
import re
import shlex
import subprocess
import sys
import threading
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

import mtcompute
from mtcompute.contracts import contract, contract_ids
from mtcompute.server.pages import CLIENT_FILES, client_file, clients_page
from tests.conftest import free_port, require_program, run_cli, shared_file

SEED_HOST = "https://computefirst.net"
SEEDS = ["seeds/000_814aaae8f220d09e.txt", "seeds/001_a890bd794d4d6a3a.txt"]

# The first example of each tool version (the HTTP tests run every example; the clients only
# carry the bytes, and each run is a process start).
EXAMPLES = [
    pytest.param(
        tool_id, version, contract(tool_id, version)["examples"][0], id=f"{tool_id}@{version}"
    )
    for tool_id, version in contract_ids()
]


@dataclass(frozen=True)
class Client:
    """One downloaded client: its program name (in its messages) and how to start it."""

    prog: str
    command: tuple[str, ...]
    folder: Path

    def run(
        self, *args: str, stdin: bytes | None = None, env: dict[str, str] | None = None
    ) -> subprocess.CompletedProcess[bytes]:
        """Run the client in its folder with ``args``, capturing bytes."""
        base_env = {
            k: v
            for k, v in os.environ.items()
            if k not in {"MTCOMPUTE_BASE_URL", "MTCOMPUTE_API_KEY"}
        }
        return subprocess.run(
            [*self.command, *args],
            input=stdin,
            capture_output=True,
            cwd=self.folder,
            env={**base_env, **(env or {})},
            timeout=60,
            check=False,
        )


@cache
def mtcompute_cli(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    """``mtcompute ARGS`` as a subprocess, run once per arguments (both clients compare with
    the same run)."""
    return run_cli(*args, stdin=stdin)


def _download(url: str) -> tuple[str, bytes]:
    with urllib.request.urlopen(url, timeout=30) as response:
        return response.headers["Content-Type"], response.read()


@pytest.fixture(scope="module")
def downloads(server_url: str, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding the two clients as the server serves them (and nothing else)."""
    folder = tmp_path_factory.mktemp("clients")
    for name in CLIENT_FILES:
        _media, body = _download(f"{server_url}/clients/cli/{name}")
        (folder / name).write_bytes(body)
    return folder


@pytest.fixture(scope="module", params=["node", "python"])
def client(request: pytest.FixtureRequest, downloads: Path) -> Client:
    """Each client, started the way its page says."""
    if request.param == "node":
        return Client("cli.mjs", (require_program("node"), "cli.mjs"), downloads)
    return Client(
        "mtcompute_client.py", (sys.executable, "-I", "-S", "mtcompute_client.py"), downloads
    )


def _example_input(tool_id: str, version: str = "1.0.0") -> bytes:
    return json.dumps(contract(tool_id, version)["examples"][0]["input"]).encode()


# --- served verbatim ------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(CLIENT_FILES))
def test_client_is_served_verbatim(server_url: str, name: str) -> None:
    """GET /clients/cli/NAME answers the shipped file byte for byte, with its media type."""
    media, body = _download(f"{server_url}/clients/cli/{name}")
    assert (CLIENT_FILES[name][0], client_file(name)) == (media, body)


def test_unknown_client_file_is_not_found(server_url: str) -> None:
    """Any other name under /clients/cli/ is the not_found envelope (no file is read)."""
    request = urllib.request.Request(f"{server_url}/clients/cli/..%2Fpages.py")
    with pytest.raises(urllib.error.HTTPError) as raised:
        urllib.request.urlopen(request, timeout=30)
    expected = (
        b'{"error":{"code":"not_found","message":"No such path: /clients/cli/../pages.py.",'
        b'"path":""}}'
    )
    assert (404, expected) == (raised.value.code, raised.value.read())


# --- the seed's command line ------------------------------------------------------------------


@pytest.mark.parametrize("seed", SEEDS)
def test_seed_command_line_verbatim(
    seed: str, server_url: str, downloads: Path, tmp_path: Path
) -> None:
    """The seed page's `node cli.mjs run ...` line, with only the host swapped for this
    server, prints exactly what `mtcompute run` prints, and exits 0."""
    text = shared_file(seed).read_text(encoding="utf-8")
    (line,) = [ln for ln in text.splitlines() if ln.startswith("node cli.mjs run ")]
    tool_id, version = shlex.split(line)[3:5]
    (tmp_path / "cli.mjs").write_bytes((downloads / "cli.mjs").read_bytes())
    (tmp_path / "input.json").write_bytes(_example_input(tool_id, version))
    argv = shlex.split(line.replace(SEED_HOST, server_url))
    node = subprocess.run(
        [require_program("node"), *argv[1:]],
        capture_output=True,
        cwd=tmp_path,
        timeout=60,
        check=False,
    )
    local = run_cli("run", tool_id, version, "--input", str(tmp_path / "input.json"))
    assert (0, local.stdout, b"") == (node.returncode, node.stdout, node.stderr)
    assert local.stdout.startswith(b'{"result":')


def test_client_matches_mtcompute_run_base_url(client: Client, server_url: str) -> None:
    """Each client prints the bytes `mtcompute run --base-url` prints, for the seed's tool."""
    body = _example_input("bleu-smoothing-compute")
    remote = mtcompute_cli(
        "run", "bleu-smoothing-compute", "1.0.0", "-i", "-", "--base-url", server_url, stdin=body
    )
    answer = client.run(
        "run", "bleu-smoothing-compute", "1.0.0", "--input", "-", "--base-url", server_url,
        stdin=body,
    )  # fmt: skip
    assert (0, remote.stdout, b"") == (answer.returncode, answer.stdout, answer.stderr)


# --- every example, errors ---------------------------------------------------------------------


@pytest.mark.parametrize(("tool_id", "version", "example"), EXAMPLES)
def test_example(
    client: Client, server_url: str, tool_id: str, version: str, example: dict[str, object]
) -> None:
    """Each tool version's first example through the client: the library's envelope and a
    newline."""
    body = json.dumps(example["input"], ensure_ascii=False).encode()
    expected = mtcompute.dumps({"result": example["output"]}).encode() + b"\n"
    answer = client.run(
        "run", tool_id, version, "--input", "-", "--base-url", server_url, stdin=body
    )
    assert (0, expected, b"") == (answer.returncode, answer.stdout, answer.stderr)


ERRORS = [
    pytest.param("chrf-compute", "1.0.0", b'{"hypotheses":[],"references":["a"]}', id="invalid"),
    pytest.param("chrf-compute", "1.0.0", b'{"hypotheses":', id="not JSON"),
    pytest.param("no-such-tool", "1.0.0", b"{}", id="unknown tool"),
    pytest.param("chrf-compute", "9.9.9", b"{}", id="unknown version"),
]


@pytest.mark.parametrize(("tool_id", "version", "body"), ERRORS)
def test_error_envelope_exit_1(
    client: Client, server_url: str, tool_id: str, version: str, body: bytes
) -> None:
    """A tool error prints the envelope `mtcompute run` prints, on stdout, and exits 1."""
    local = mtcompute_cli("run", tool_id, version, "--input", "-", stdin=body)
    answer = client.run("run", tool_id, version, "-i", "-", "--base-url", server_url, stdin=body)
    assert (1, local.stdout, b"") == (answer.returncode, answer.stdout, answer.stderr)
    assert local.stdout.startswith(b'{"error":')


def test_input_file_and_environment_base_url(client: Client, server_url: str) -> None:
    """--input reads a file; MTCOMPUTE_BASE_URL stands in for --base-url."""
    (client.folder / "chrf.json").write_bytes(_example_input("chrf-compute"))
    answer = client.run(
        "run", "chrf-compute", "1.0.0", "--input=chrf.json", env={"MTCOMPUTE_BASE_URL": server_url}
    )
    expected = mtcompute.execute_json("chrf-compute", "1.0.0", _example_input("chrf-compute"))
    assert (0, expected.json_bytes() + b"\n") == (answer.returncode, answer.stdout)


# --- list and describe ---------------------------------------------------------------------


def test_list_is_mtcompute_list(client: Client, server_url: str) -> None:
    """`list` prints the columns `mtcompute list` prints."""
    answer = client.run("list", "--base-url", server_url)
    assert (0, mtcompute_cli("list").stdout, b"") == (
        answer.returncode,
        answer.stdout,
        answer.stderr,
    )


def test_list_json_is_the_served_catalog(client: Client, server_url: str) -> None:
    """`list --json` prints the /v1/tools document as the server sent it."""
    _media, catalog = _download(f"{server_url}/v1/tools")
    answer = client.run("list", "--json", "--base-url", server_url)
    assert (0, catalog + b"\n") == (answer.returncode, answer.stdout)


@pytest.mark.parametrize(("version", "status"), [("1.0.0", 0), ("0.0.1", 1)])
def test_describe_is_mtcompute_describe(
    client: Client, server_url: str, version: str, status: int
) -> None:
    """`describe` prints what `mtcompute describe` prints: the contract, or not_found (1)."""
    local = mtcompute_cli("describe", "chrf-compute", version)
    answer = client.run("describe", "chrf-compute", version, "--base-url", server_url)
    assert (status, status, local.stdout) == (local.returncode, answer.returncode, answer.stdout)


# --- usage errors: one line on stderr, exit 2 -------------------------------------------------

USAGE_ERRORS = [
    pytest.param([], "{prog}: error: the following arguments are required: COMMAND", id="none"),
    pytest.param(
        ["score"],
        "{prog}: error: argument COMMAND: invalid choice: 'score' "
        "(choose from 'run', 'list', 'describe')",
        id="unknown command",
    ),
    pytest.param(
        ["run"],
        "{prog} run: error: the following arguments are required: TOOL, VERSION, --input/-i",
        id="run alone",
    ),
    pytest.param(
        ["run", "chrf-compute", "1.0.0"],
        "{prog} run: error: the following arguments are required: --input/-i",
        id="no input",
    ),
    pytest.param(
        ["run", "chrf-compute", "1.0.0", "--input"],
        "{prog} run: error: argument --input/-i: expected one argument",
        id="input without file",
    ),
    pytest.param(
        ["run", "chrf-compute", "1.0.0", "-i", "-", "extra"],
        "{prog}: error: unrecognized arguments: extra",
        id="extra argument",
    ),
    pytest.param(
        ["run", "chrf-compute", "1.0.0", "-i", "-", "--pretty"],
        "{prog}: error: unrecognized arguments: --pretty",
        id="unknown option",
    ),
    pytest.param(
        ["run", "chrf-compute", "1.0.0", "-i", "-"],
        "{prog} run: error: the following arguments are required: --base-url "
        "(or set MTCOMPUTE_BASE_URL)",
        id="no base url",
    ),
    pytest.param(
        ["list", "--base-url", "ftp://example.org"],
        "{prog} list: error: --base-url must be an http(s) URL, got 'ftp://example.org'",
        id="not http",
    ),
    pytest.param(
        ["run", "chrf-compute", "1.0.0", "-i", "missing.json", "--base-url", "http://127.0.0.1"],
        "{prog}: error: cannot read --input missing.json: No such file or directory",
        id="missing input file",
    ),
    pytest.param(
        ["list", "--json=yes", "--base-url", "http://127.0.0.1"],
        "{prog} list: error: argument --json: ignored explicit argument 'yes'",
        id="flag with a value",
    ),
]


@pytest.mark.parametrize(("args", "message"), USAGE_ERRORS)
def test_usage_error(client: Client, args: list[str], message: str) -> None:
    """Bad arguments: nothing on stdout, one line on stderr naming the problem, exit 2."""
    answer = client.run(*args)
    expected = (message.format(prog=client.prog) + "\n").encode()
    assert (2, b"", expected) == (answer.returncode, answer.stdout, answer.stderr)


def test_unreachable_server(client: Client) -> None:
    """A server that is not there: one line naming the URL and the reason, exit 2."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    reason = {
        "cli.mjs": f"connect ECONNREFUSED 127.0.0.1:{port}",
        "mtcompute_client.py": "[Errno 111] Connection refused",
    }[client.prog]
    answer = client.run("run", "chrf-compute", "1.0.0", "-i", "-", "--base-url", url, stdin=b"{}")
    expected = f"{client.prog}: error: cannot reach {url}: {reason}\n".encode()
    assert (2, b"", expected) == (answer.returncode, answer.stdout, answer.stderr)


class _NotMtcompute(http.server.BaseHTTPRequestHandler):
    """A web server that is not mtcompute: every request gets 200 and a line of text."""

    def _answer(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        self.rfile.read(length)
        body = b"<p>hello</p>"
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_GET = do_POST = _answer  # noqa: N815

    def log_message(self, *_args: object) -> None:
        """Quiet."""


@pytest.fixture(scope="module")
def other_server() -> Iterator[str]:
    """The base URL of a web server that is not mtcompute."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _NotMtcompute)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


TOOL_PATH = "/v1/tools/chrf-compute/versions/1.0.0"


@pytest.mark.parametrize(
    ("args", "url_path", "what"),
    [
        (
            ["run", "chrf-compute", "1.0.0", "-i", "-"],
            f"{TOOL_PATH}/execute",
            "an mtcompute envelope",
        ),
        (["list"], "/v1/tools", "an mtcompute catalog"),
        (["describe", "chrf-compute", "1.0.0"], TOOL_PATH, "an mtcompute contract"),
    ],
    ids=["run", "list", "describe"],
)
def test_server_that_is_not_mtcompute(
    client: Client, other_server: str, args: list[str], url_path: str, what: str
) -> None:
    """A server that answers something else: one line quoting its answer, exit 2."""
    answer = client.run(*args, "--base-url", other_server, stdin=b"{}")
    expected = f"{client.prog}: error: {other_server}{url_path} did not answer with {what}: "
    expected += "'<p>hello</p>'\n"
    assert (2, b"", expected.encode()) == (answer.returncode, answer.stdout, answer.stderr)


def test_help_exits_0(client: Client) -> None:
    """--help prints the usage on stdout and exits 0, for the program and each command."""
    usages = []
    for args in ([], ["run"], ["list"], ["describe"]):
        answer = client.run(*args, "--help")
        assert (0, b"") == (answer.returncode, answer.stderr)
        # The usage paragraph, its lines joined (argparse wraps it at 80 columns).
        usage = answer.stdout.decode().split("\n\n", 1)[0]
        usages.append(" ".join(usage.split()))
    expected = [
        f"usage: {client.prog} [-h] COMMAND ...",
        f"usage: {client.prog} run [-h] --input FILE [--base-url URL] [--api-key KEY] TOOL VERSION",
        f"usage: {client.prog} list [-h] [--json] [--base-url URL] [--api-key KEY]",
        f"usage: {client.prog} describe [-h] [--base-url URL] [--api-key KEY] TOOL VERSION",
    ]
    assert expected == usages


# --- the page ----------------------------------------------------------------------------------


def test_clients_page_offers_both_files_and_the_seed_line() -> None:
    """/clients/cli/ links each file with its size and SHA-256, and shows the seed's line."""
    page = clients_page("http://127.0.0.1:8000")
    for name in CLIENT_FILES:
        data = client_file(name)
        assert f'href="/clients/cli/{name}"' in page
        assert f"{len(data)} bytes, SHA-256 " in page
        assert hashlib.sha256(data).hexdigest() in page
        assert f"curl -fsSLO http://127.0.0.1:8000/clients/cli/{name}" in page
    seed = (
        "node cli.mjs run bleu-smoothing-compute 1.0.0 --input input.json "
        "--base-url http://127.0.0.1:8000"
    )
    assert seed in page
    assert re.search(r"python3 mtcompute_client\.py run bleu-smoothing-compute 1\.0\.0", page)
