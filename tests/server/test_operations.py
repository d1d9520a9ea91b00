"""Operating `mtcompute serve`: graceful shutdown, access logs, workers, CORS, security, load."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

import mtcompute
from mtcompute import cli
from mtcompute.server import protocol, settings
from mtcompute.server.app import create_app
from tests.conftest import (
    REPO,
    cli_command,
    read_raw_response,
    start_server,
    stop_server,
)

CHRF = "/v1/tools/chrf-compute/versions/1.0.0/execute"
JSON = {"content-type": "application/json"}
ORIGIN_A = "https://a.example"
ORIGIN_B = "http://b.example:8080"
LOG_FIELDS = [
    "ts",
    "pid",
    "client",
    "method",
    "path",
    "tool",
    "version",
    "status",
    "duration_ms",
    "request_bytes",
    "response_bytes",
]


def address(url: str) -> tuple[str, int]:
    """(host, port) of a base URL."""
    host, port = url.removeprefix("http://").split(":")
    return host, int(port)


def read_response(sock: socket.socket, timeout: float = 30) -> tuple[int, bytes]:
    """(status, body) of one HTTP/1.1 response with a Content-Length, from a raw socket."""
    status, _, body = read_raw_response(sock, timeout)
    return status, body


def log_lines(path: Path, at_least: int, timeout: float = 10) -> list[dict[str, Any]]:
    """The JSON lines of an access log once it has ``at_least`` of them (the writer is a
    thread: lines land a moment after the response)."""
    deadline = time.monotonic() + timeout
    while True:
        text = path.read_text() if path.exists() else ""
        lines = [json.loads(line) for line in text.splitlines() if line.startswith("{")]
        if len(lines) >= at_least or time.monotonic() > deadline:
            return lines
        time.sleep(0.05)


# Graceful shutdown


def test_sigterm_lets_the_in_flight_request_finish_then_exits_0(tmp_path: Path) -> None:
    """SIGTERM while a request's body is still arriving: the server stops accepting, the
    request completes with 200 and the right bytes, the log line is written, exit status 0."""
    stderr = tmp_path / "stderr.log"
    proc, url = start_server(stderr_path=stderr)  # the access log on stderr: the default
    try:
        body = json.dumps({"hypotheses": ["the cat sat"] * 50, "references": ["a cat sat"] * 50})
        raw = body.encode()
        with socket.create_connection(address(url)) as sock:
            sock.sendall(
                f"POST {CHRF} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                f"Content-Length: {len(raw)}\r\n\r\n".encode()
                + raw[:100]
            )
            time.sleep(0.3)  # the server has the request head and is reading the body
            proc.send_signal(signal.SIGTERM)
            time.sleep(0.5)
            assert proc.poll() is None, "exited with a request in flight"
            with pytest.raises(ConnectionRefusedError):  # no longer accepting
                socket.create_connection(address(url), timeout=2).close()
            sock.sendall(raw[100:])
            status, answer = read_response(sock)
        assert (200, mtcompute.dumps(mtcompute.execute_json("chrf-compute", "1.0.0", raw))) == (
            status,
            answer.decode(),
        )
        assert 0 == proc.wait(15)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    lines = [json.loads(x) for x in stderr.read_text().splitlines() if x.startswith("{")]
    assert (CHRF, 200, len(raw)) == (
        lines[-1]["path"],
        lines[-1]["status"],
        lines[-1]["request_bytes"],
    )


# Access log (and CORS, on one configured server)


@pytest.fixture(scope="module")
def configured(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path, int]]:
    """A server with an access log file and two CORS origins: (URL, log path, pid)."""
    log = tmp_path_factory.mktemp("access") / "access.log"
    proc, url = start_server(
        "--access-log-file", str(log), "--cors-origin", ORIGIN_A, "--cors-origin", ORIGIN_B
    )
    try:
        log_lines(log, 1)  # start_server's /healthz, logged before any test's request
        time.sleep(0.2)
        yield url, log, proc.pid
    finally:
        stop_server(proc)


def test_access_log_one_json_line_per_request(configured: tuple[str, Path, int]) -> None:
    """Each request gets one JSON line: time, pid, client, method, path, tool and version on
    tool routes, status, duration, request and response bytes; bodies are never logged."""
    url, log, pid = configured
    secret = "SECRET-MARKER-1f3a"
    requests = [
        ("POST", CHRF, json.dumps({"hypotheses": [secret], "references": ["a"]}).encode()),
        ("POST", CHRF, b"null"),
        ("GET", "/v1/tools/chrf-compute/versions/1.0.0", None),
        ("POST", "/v1/tools/no-such-tool/versions/1.0.0/execute", b"{}"),
        ("GET", "/healthz", None),
        ("GET", "/nope?q=" + secret, None),
    ]
    before = len(log_lines(log, 0))
    sent = []
    with httpx.Client(base_url=url, timeout=30) as client:
        for method, path, body in requests:
            response = client.request(method, path, content=body, headers=JSON if body else {})
            # request_bytes: the body bytes the app read (an unknown tool's body is not read)
            read = 0 if body is None or "no-such-tool" in path else len(body)
            sent.append(
                (method, path.split("?")[0], response.status_code, read, len(response.content))
            )
    lines = log_lines(log, before + len(requests))[before:]
    assert [list(line) for line in lines] == [LOG_FIELDS] * len(requests)
    assert sent == [
        (x["method"], x["path"], x["status"], x["request_bytes"], x["response_bytes"])
        for x in lines
    ]
    assert [("chrf-compute", "1.0.0")] * 3 + [("no-such-tool", "1.0.0")] + [(None, None)] * 2 == [
        (x["tool"], x["version"]) for x in lines
    ]
    for line in lines:
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", line["ts"])
        assert re.fullmatch(r"127\.0\.0\.1:\d+", line["client"])
        assert (pid, True) == (line["pid"], 0 <= line["duration_ms"] < 30_000)
    assert secret not in log.read_text()


def test_cors_is_off_by_default(server_url: str) -> None:
    """Without --cors-origin, a preflight gets the 405 envelope and no CORS header, and a
    cross-origin POST is answered without Access-Control-Allow-Origin."""
    preflight = httpx.options(
        server_url + CHRF,
        headers={
            "origin": ORIGIN_A,
            "access-control-request-method": "POST",
            "access-control-request-headers": "content-type",
        },
    )
    post = httpx.post(
        server_url + CHRF,
        content=b'{"hypotheses":["a"],"references":["a"]}',
        headers={**JSON, "origin": ORIGIN_A},
    )
    assert (405, "method_not_allowed") == (
        preflight.status_code,
        preflight.json()["error"]["code"],
    )
    assert 200 == post.status_code
    assert [] == [h for r in (preflight, post) for h in r.headers if h.startswith("access-control")]


def test_cors_origins_when_configured(configured: tuple[str, Path, int]) -> None:
    """With --cors-origin A --cors-origin B: A and B get CORS headers on preflight and POST;
    any other origin gets none (its preflight is the 400 envelope)."""
    url, _, _ = configured

    def preflight(origin: str) -> httpx.Response:
        return httpx.options(
            url + CHRF,
            headers={
                "origin": origin,
                "access-control-request-method": "POST",
                "access-control-request-headers": "content-type",
            },
        )

    def post(origin: str) -> httpx.Response:
        return httpx.post(
            url + CHRF,
            content=b'{"hypotheses":["a"],"references":["a"]}',
            headers={**JSON, "origin": origin},
        )

    for origin in (ORIGIN_A, ORIGIN_B):
        allowed = preflight(origin)
        assert (200, origin) == (
            allowed.status_code,
            allowed.headers.get("access-control-allow-origin"),
        )
        assert "POST" in allowed.headers["access-control-allow-methods"]
        assert "content-type" in allowed.headers["access-control-allow-headers"].lower()
        simple = post(origin)
        assert (200, origin) == (
            simple.status_code,
            simple.headers.get("access-control-allow-origin"),
        )
    refused, other = preflight("https://evil.example"), post("https://evil.example")
    assert (400, "invalid_input", None) == (
        refused.status_code,
        refused.json()["error"]["code"],
        refused.headers.get("access-control-allow-origin"),
    )
    assert (200, None) == (other.status_code, other.headers.get("access-control-allow-origin"))


def test_cors_origins_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """MTCOMPUTE_CORS_ORIGINS (comma-separated) enables CORS for those origins only."""
    from starlette.testclient import TestClient

    monkeypatch.setenv("MTCOMPUTE_CORS_ORIGINS", f"{ORIGIN_A}, {ORIGIN_B}")
    monkeypatch.delenv("MTCOMPUTE_ACCESS_LOG", raising=False)
    with TestClient(create_app(), base_url="http://127.0.0.1") as client:
        allowed = client.get("/v1/tools", headers={"origin": ORIGIN_B})
        other = client.get("/v1/tools", headers={"origin": "https://evil.example"})
    assert (ORIGIN_B, None) == (
        allowed.headers.get("access-control-allow-origin"),
        other.headers.get("access-control-allow-origin"),
    )


# Workers


def test_two_workers_both_answer(tmp_path: Path) -> None:
    """--workers 2: requests on fresh connections (batches of 200, until both workers have
    answered some: two pids in the access log) all succeed; SIGTERM ends all with status 0."""
    log = tmp_path / "access.log"
    proc, url = start_server("--workers", "2", "--access-log-file", str(log))
    host, port = address(url)
    body = b'{"hypotheses":["a b c"],"references":["a b d"]}'
    expected = mtcompute.dumps(mtcompute.execute_json("chrf-compute", "1.0.0", body)).encode()

    async def one(gate: asyncio.Semaphore) -> tuple[int, bytes]:
        async with gate:
            reader, writer = await asyncio.open_connection(host, port)
            writer.write(
                f"POST {CHRF} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n".encode()
                + body
            )
            data = await reader.read()
            writer.close()
            head, _, answer = data.partition(b"\r\n\r\n")
            return int(head.split()[1]), answer

    async def batch() -> list[tuple[int, bytes]]:
        gate = asyncio.Semaphore(30)
        return await asyncio.gather(*(one(gate) for _ in range(200)))

    answers: list[tuple[int, bytes]] = []
    pids: set[int] = set()
    try:
        deadline = time.monotonic() + 30  # the second worker may still be starting
        while len(pids) < 2 and time.monotonic() < deadline:
            answers += asyncio.run(batch())
            lines = log_lines(log, len(answers))
            pids = {line["pid"] for line in lines if line["path"] == CHRF}
    finally:
        proc.send_signal(signal.SIGTERM)
        status = proc.wait(30)
    assert [(200, expected)] * len(answers) == answers
    assert (2, 0) == (len(pids), status)
    assert proc.pid not in pids  # the workers answer, not the supervisor


# The serve command's wiring


SERVE_ENV = [
    f"MTCOMPUTE_{name}"
    for name in (
        "ACCESS_LOG",
        "CORS_ORIGINS",
        "BODY_TIMEOUT",
        "HEADER_TIMEOUT",
        "MAX_HEADER_BYTES",
        "MAX_BODY_BYTES",
        "PUBLIC_URL",
        "TRUSTED_PROXIES",
        "COMPUTE_WORKERS",
    )
]


@pytest.fixture
def fake_uvicorn(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, Any]]:
    """Replace uvicorn.run (record its arguments and the environment it would see); put the
    environment and the SIGTERM handler back afterwards."""
    import uvicorn

    calls: dict[str, Any] = {}

    def run(app: str, **kwargs: Any) -> None:
        calls.update(kwargs, app=app, env=dict(os.environ))

    monkeypatch.setattr(uvicorn, "run", run)
    for name in SERVE_ENV:  # unset now, and unset again (whatever serve sets) afterwards
        monkeypatch.setenv(name, "")
        monkeypatch.delenv(name)
    previous = signal.getsignal(signal.SIGTERM)
    yield calls
    signal.signal(signal.SIGTERM, previous)


def test_serve_defaults(fake_uvicorn: dict[str, Any]) -> None:
    """`mtcompute serve`: loopback, JSON access log on stderr (uvicorn's own off), the guarded
    protocol, 30 s graceful shutdown, no CORS."""
    assert 0 == cli.main(["serve"])
    env = fake_uvicorn["env"]
    assert (
        "127.0.0.1",
        False,
        "mtcompute.server.protocol:GuardedHttpToolsProtocol",
        30,
        "stderr",
        None,
    ) == (
        fake_uvicorn["host"],
        fake_uvicorn["access_log"],
        fake_uvicorn["http"],
        fake_uvicorn["timeout_graceful_shutdown"],
        env.get("MTCOMPUTE_ACCESS_LOG"),
        env.get("MTCOMPUTE_CORS_ORIGINS"),
    )


def test_serve_options_reach_the_app(fake_uvicorn: dict[str, Any], tmp_path: Path) -> None:
    """--no-access-log, --access-log-file, --cors-origin, --body-timeout, --header-timeout
    and --max-header-bytes become the app's settings."""
    assert 0 == cli.main(["serve", "--no-access-log"])
    assert "off" == fake_uvicorn["env"]["MTCOMPUTE_ACCESS_LOG"]
    args = ["--access-log-file", str(tmp_path / "a.log"), "--cors-origin", ORIGIN_A]
    args += ["--cors-origin", ORIGIN_B, "--body-timeout", "2.5", "--header-timeout", "3"]
    assert 0 == cli.main(["serve", *args, "--max-header-bytes", "8192"])
    env = fake_uvicorn["env"]
    assert (str(tmp_path / "a.log"), f"{ORIGIN_A},{ORIGIN_B}", "2.5", "3.0", "8192") == (
        env["MTCOMPUTE_ACCESS_LOG"],
        env["MTCOMPUTE_CORS_ORIGINS"],
        env["MTCOMPUTE_BODY_TIMEOUT"],
        env["MTCOMPUTE_HEADER_TIMEOUT"],
        env["MTCOMPUTE_MAX_HEADER_BYTES"],
    )


def test_serve_public_url_and_trusted_proxies_reach_the_app(
    fake_uvicorn: dict[str, Any],
) -> None:
    """--public-url (its trailing slash dropped) and each --trusted-proxy become the app's
    settings; uvicorn's own proxy headers are off (the app reads them from trusted proxies
    only), by default too."""
    assert 0 == cli.main(["serve"])
    assert (False, None, None) == (
        fake_uvicorn["proxy_headers"],
        fake_uvicorn["env"].get("MTCOMPUTE_PUBLIC_URL"),
        fake_uvicorn["env"].get("MTCOMPUTE_TRUSTED_PROXIES"),
    )
    args = ["--public-url", "https://mt.example.org/", "--trusted-proxy", "10.0.0.0/8"]
    assert 0 == cli.main(["serve", *args, "--trusted-proxy", "2001:db8::1"])
    env = fake_uvicorn["env"]
    assert ("https://mt.example.org", "10.0.0.0/8,2001:db8::1", False) == (
        env["MTCOMPUTE_PUBLIC_URL"],
        env["MTCOMPUTE_TRUSTED_PROXIES"],
        fake_uvicorn["proxy_headers"],
    )


def test_serve_compute_workers_reach_the_app(fake_uvicorn: dict[str, Any]) -> None:
    """--compute-workers sizes each server process's body worker pool (not uvicorn's
    --workers), through MTCOMPUTE_COMPUTE_WORKERS; unset, it is not set."""
    assert 0 == cli.main(["serve"])
    unset = fake_uvicorn["env"].get("MTCOMPUTE_COMPUTE_WORKERS")
    assert 0 == cli.main(["serve", "--compute-workers", "3"])
    assert (None, "3", 1) == (
        unset,
        fake_uvicorn["env"]["MTCOMPUTE_COMPUTE_WORKERS"],
        fake_uvicorn["workers"],
    )
    from mtcompute.server import app as app_module

    assert 3 == app_module.create_app(access_log="off").state.body_worker.size  # from the env


@pytest.mark.parametrize(
    "args",
    [["--compute-workers", "0"], ["--compute-workers", "-1"]],
    ids=["zero", "negative"],
)
def test_serve_refuses_no_compute_workers(
    fake_uvicorn: dict[str, Any], args: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    """--compute-workers below 1 is a usage error naming the option; nothing is started."""
    assert (2, {}) == (cli.main(["serve", *args]), fake_uvicorn)
    assert "--compute-workers must be at least 1" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("variable", "value", "rule"),
    [
        ("MTCOMPUTE_COMPUTE_WORKERS", "abc", "must be at least 1"),
        ("MTCOMPUTE_COMPUTE_WORKERS", "0", "must be at least 1"),
        ("MTCOMPUTE_MIN_UPLOAD_RATE", "-1", "must be a finite number of bytes per second"),
        ("MTCOMPUTE_MIN_UPLOAD_RATE", "nan", "must be a finite number of bytes per second"),
        ("MTCOMPUTE_BODY_TIMEOUT", "inf", "must be a finite number of seconds above 0"),
    ],
)
def test_serve_refuses_a_bad_variable_as_it_refuses_the_option(
    variable: str, value: str, rule: str
) -> None:
    """A numeric MTCOMPUTE_* variable set without its option is checked as the option is:
    a one-line usage error naming the variable and its value, exit 2, no traceback, no
    server."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("MTCOMPUTE_")}
    done = subprocess.run(
        [sys.executable, "-m", "mtcompute", "serve", "--port", "0"],
        env={**env, variable: value},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    expected = f"mtcompute: error: {variable} {rule}"
    assert (2, True, 1) == (
        done.returncode,
        done.stderr.startswith(expected) and done.stderr.rstrip().endswith(f", got {value!r}"),
        len(done.stderr.splitlines()),
    ), done.stderr


_BAD_VALUES = {"nan", "-1", "abc", "0", "inf", "1e400", ""}


@pytest.mark.parametrize(
    "number",
    [n for n in settings.NUMBERS if n.env is not None],
    ids=lambda n: str(n.env),
)
def test_the_app_refuses_a_bad_variable_as_serve_does(
    number: settings.Number, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The app built by another ASGI server (``create_app()`` with no arguments) reads the
    numeric variables through the rules ``mtcompute serve`` checks: each value that breaks
    its variable's rule is a ValueError with serve's one-line message, never ``int()``'s, and
    a good value is taken."""
    assert number.env is not None
    build = protocol.head_limits if "HEADER" in number.env else create_app
    protocol.head_limits.cache_clear()
    refused = []
    for value in sorted(_BAD_VALUES):
        monkeypatch.setenv(number.env, value)
        with contextlib.suppress(settings.SettingError):
            number.parse(value)
            continue  # a good value for this variable (0 queued requests, say)
        with pytest.raises(settings.SettingError) as caught:
            build()
        protocol.head_limits.cache_clear()
        assert str(caught.value) == f"{number.env} {number.rule}, got {value!r}"
        refused.append(value)
    assert {"abc", "nan", ""} <= set(refused)
    monkeypatch.setenv(number.env, "2048")
    build()
    protocol.head_limits.cache_clear()


@pytest.mark.parametrize(
    "args",
    [
        ["--cors-origin", "*"],
        ["--cors-origin", "https://a.example/"],
        ["--cors-origin", "a.example"],
        ["--body-timeout", "0"],
        ["--header-timeout", "-1"],
        ["--body-timeout", "inf"],
        ["--max-header-bytes", "10"],
        ["--public-url", "mt.example.org"],
        ["--public-url", "ftp://mt.example.org"],
        ["--public-url", "https://mt.example.org/?q=1"],
        ["--public-url", "https://user@mt.example.org"],
        ["--trusted-proxy", "10.0.0.0/33"],
        ["--trusted-proxy", "proxy.example"],
    ],
    ids=[
        "wildcard",
        "path",
        "no scheme",
        "zero body timeout",
        "negative",
        "infinite",
        "tiny head",
        "public url without scheme",
        "public url ftp",
        "public url query",
        "public url credentials",
        "trusted proxy bad prefix",
        "trusted proxy name",
    ],
)
def test_serve_refuses_bad_settings(
    fake_uvicorn: dict[str, Any], args: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    """Bad serve settings are usage errors (exit 2) and nothing is started."""
    assert (2, {}) == (cli.main(["serve", *args]), fake_uvicorn)
    assert "mtcompute: error:" in capsys.readouterr().err


# Security basics


def test_listens_on_loopback_by_default(server_url: str) -> None:
    """The default host is 127.0.0.1 (parsed args and --help), and the running server's
    listening socket is bound to 127.0.0.1 only."""
    assert "127.0.0.1" == cli.build_parser().parse_args(["serve"]).host
    help_text = subprocess.run(
        [*cli_command(), "serve", "--help"], capture_output=True, text=True, check=True
    ).stdout
    assert "default 127.0.0.1" in " ".join(help_text.split())
    _, port = address(server_url)
    listening = [
        fields[1]
        for fields in (line.split() for line in Path("/proc/net/tcp").read_text().splitlines()[1:])
        if fields[3] == "0A" and fields[1].endswith(f":{port:04X}")
    ]
    assert [f"0100007F:{port:04X}"] == listening


def bounded(response: httpx.Response) -> tuple[int, str, bool]:
    """(status, code, message under 500 characters) of an envelope."""
    error = response.json()["error"]
    return response.status_code, error["code"], len(error["message"]) < 500


def test_error_messages_echo_a_bounded_slice_of_the_input(server_url: str) -> None:
    """A string of about 1 MiB as an unknown key, as a bad value, and as a path segment:
    every error message stays under 500 characters."""
    big = "k" * ((1 << 20) - 200)  # with its JSON around it, just under the 1 MiB body cap
    smoothing = "/v1/tools/bleu-smoothing-compute/versions/1.0.0/execute"
    counts = {"matches": [1], "totals": [1], "candidate_length": 1, "reference_length": 1}
    with httpx.Client(base_url=server_url, timeout=30) as client:
        key = client.post(CHRF, content=json.dumps({big: 1}).encode(), headers=JSON)
        value = client.post(
            smoothing, content=json.dumps({**counts, "smoothing": big}).encode(), headers=JSON
        )
        item = client.post(
            CHRF,
            content=json.dumps({"hypotheses": [1], "references": [big]}).encode(),
            headers=JSON,
        )
        segment = client.post(
            f"/v1/tools/{'t' * 60_000}/versions/1.0.0/execute", content=b"{}", headers=JSON
        )
        version = client.get(f"/v1/tools/chrf-compute/versions/{'v' * 60_000}")
        page = client.get(f"/tools/chrf-compute/{'v' * 60_000}")
        method = client.put("/" + "p" * 60_000)
    with socket.create_connection(address(server_url)) as sock:  # too long for httpx
        request = f"GET /{'p' * (1 << 20)} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode()
        with contextlib.suppress(ConnectionResetError, BrokenPipeError):
            sock.sendall(request)  # the server answers and closes once 64 KiB are in
        status, answer = read_response(sock)
    whole = httpx.Response(status, content=answer)
    assert [
        (400, "invalid_input", True),
        (400, "invalid_input", True),
        (400, "invalid_input", True),
        (404, "not_found", True),
        (404, "not_found", True),
        (404, "not_found", True),
        (404, "not_found", True),
        (431, "limit_exceeded", True),
    ] == [bounded(r) for r in (key, value, item, segment, version, page, method, whole)]


# Load and memory


def run_load(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """``scripts/load.py ARGS`` as a subprocess, its output captured as text."""
    return subprocess.run(
        [sys.executable, str(REPO / "scripts" / "load.py"), *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def test_load_short_pass() -> None:
    """scripts/load.py, 2,000 requests of the mix on its own server: no wrong answer, the
    access log has one JSON line per request, memory does not grow beyond a generous bound."""
    proc = run_load("--requests", "2000", "--concurrency", "16", "--warmup", "500", "--json")
    assert 0 == proc.returncode, proc.stdout + proc.stderr
    report = json.loads(proc.stdout)
    assert (2000, 0, 0, 0, 0) == (
        report["responses"],
        report["mismatch_total"],
        report["warmup_mismatches"],
        report["server_exit_status"],
        report["access_log_bad_lines"],
    )
    assert report["access_log_lines"] >= 2500
    assert report["rss_growth_kb"] < 32 * 1024


def test_load_refuses_a_non_loopback_url() -> None:
    """scripts/load.py --url with a host other than loopback is refused before any request."""
    proc = run_load("--url", "http://192.0.2.1:80", "--requests", "1", timeout=60)
    assert (1, "non-loopback") == (
        proc.returncode,
        "non-loopback" if "non-loopback" in proc.stderr else proc.stderr,
    )


@pytest.mark.parametrize("body_bytes", [100, 1024, 20_000])
def test_each_input_is_computed_where_its_cost_says(
    monkeypatch: pytest.MonkeyPatch, body_bytes: int
) -> None:
    """execute() runs on the event loop only for a body of at most INLINE_BODY_BYTES whose
    tool's cost estimate is within INLINE_BUDGET (the 100-byte chrF input), on a worker
    thread for a small body that is not cheap (size alone does not bound the work, the
    estimate does: tests/server/test_server_inline.py), in the body worker's process for a body over
    INLINE_BODY_BYTES (the 20,000-byte one). The envelope is execute()'s."""
    import threading

    from starlette.testclient import TestClient

    from mtcompute import _execute
    from mtcompute.server import app as app_module
    from mtcompute.server import executor

    seen: list[bool] = []
    real = _execute.execute

    def recording_execute(tool: str, version: str, value: object) -> object:
        seen.append(threading.current_thread().name.startswith("AnyIO worker thread"))
        return real(tool, version, value)

    monkeypatch.setattr(_execute, "execute", recording_execute)  # execute_json's
    monkeypatch.setattr(executor, "execute", recording_execute)  # the route's
    empty = len(json.dumps({"hypotheses": [""], "references": ["a cat"]}))
    body = {"hypotheses": ["a" * (body_bytes - empty)], "references": ["a cat"]}
    raw = json.dumps(body).encode()
    assert body_bytes == len(raw)
    cheap = body_bytes <= executor.INLINE_BODY_BYTES and _execute.is_cheap(
        "chrf-compute", "1.0.0", body
    )
    where = {100: "loop", 20_000: "process"}.get(body_bytes, "loop" if cheap else "thread")
    app = app_module.create_app(access_log="off")
    with TestClient(app) as client:
        answer = client.post(CHRF, content=raw, headers=JSON)
        answered = app.state.body_worker.answered
    found = {(): "process", (False,): "loop", (True,): "thread"}[tuple(seen)]
    assert (200, mtcompute.execute("chrf-compute", "1.0.0", body), where, where) == (
        answer.status_code,
        answer.json(),
        found,
        "process" if answered else "loop" if cheap else "thread",
    )
