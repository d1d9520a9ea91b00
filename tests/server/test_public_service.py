"""A public service's headers, base URL, rate-limit keys and readiness (issue 27, items 5, 6
and the health checks): the security headers on every response, the pages' CSP, cache and
base URL (never the Host header), trusted proxies, the exempt health checks, and /readyz
turning red when the body worker cannot be restarted and green when it can."""

from __future__ import annotations

import base64
import hashlib
import json
import logging
import os
import re
import signal
import socket
import sys
import time
from collections.abc import Iterator
from typing import Any
from unittest import mock

import httpx
import pytest
from playwright.sync_api import ConsoleMessage, expect, sync_playwright
from starlette.testclient import TestClient

from mtcompute.contracts import contract
from mtcompute.server import app as app_module
from mtcompute.server import executor, supervisor
from mtcompute.server.app import PAGE_CACHE_CONTROL, PAGE_VARY, create_app
from mtcompute.server.executor import BodyWorker
from mtcompute.server.limits import ApiKeys
from mtcompute.server.middleware import API_CSP, SECURITY_HEADERS
from mtcompute.server.page_data import page_security_policy
from tests.conftest import chromium, read_raw_response
from tests.server.serving import serving
from tests.server.test_rate_limit import INITIALIZE, MCP_HEADERS

EXECUTE = "/v1/tools/chrf-compute/versions/1.0.0/execute"
EXAMPLE = contract("chrf-compute", "1.0.0")["examples"][0]
PAGES = ("/", "/?q=chrF", "/tools/chrf-compute/1.0.0", "/clients/cli/", "/clients/mcp/")
FORGED = "evil.example"
EXPECTED = {name.decode(): value.decode() for name, value in SECURITY_HEADERS}
# A body over the inline limit: it goes to the body worker process.
LARGE = json.dumps({**EXAMPLE["input"], "hypotheses": ["a" * 5000], "references": ["a"]})


def _has_security_headers(headers: httpx.Headers, csp: str = API_CSP) -> list[str]:
    """The security headers missing or different in ``headers`` (empty when all are there)."""
    expected = {**EXPECTED, "content-security-policy": csp}
    return [f"{k}: {headers.get(k)!r}" for k, v in expected.items() if headers.get(k) != v]


# --------------------------------------------------------------------------- security headers


def test_every_app_response_has_the_security_headers() -> None:
    """The API, the contracts, OpenAPI, the client files, the health checks, 404, 405, 415,
    413, an MCP exchange, a rate-limited 429 and a 500 all carry the four security headers,
    with the strict CSP."""
    json_type = {"content-type": "application/json"}
    app = create_app(access_log="off", max_body_bytes=1000)
    with TestClient(app, base_url="http://127.0.0.1") as client:
        _wait_for(client, 200)  # the body worker process has started
        answers = [
            client.get("/v1/tools"),
            client.get("/v1/tools/chrf-compute/versions/1.0.0"),
            client.get("/openapi.json"),
            client.get("/clients/cli/cli.mjs"),
            client.get("/healthz"),
            client.get("/readyz"),
            client.get("/no/such/path"),
            client.delete("/v1/tools"),
            client.post(EXECUTE, content=b"{}", headers={"content-type": "text/plain"}),
            client.post(EXECUTE, content=b"x" * 2000, headers=json_type),
            client.post("/mcp", json=INITIALIZE, headers=MCP_HEADERS),
        ]
    with TestClient(create_app(access_log="off", rate_limit="1/min")) as client:
        answers += [client.get("/v1/tools"), client.get("/v1/tools")]
    bug = mock.patch.object(app_module, "catalog", side_effect=RuntimeError("injected"))
    with bug, TestClient(create_app(access_log="off"), raise_server_exceptions=False) as client:
        answers.append(client.get("/v1/tools"))
    statuses = [answer.status_code for answer in answers]
    assert [200] * 6 + [404, 405, 415, 413, 200, 200, 429, 500] == statuses
    assert [[] for _ in answers] == [_has_security_headers(a.headers) for a in answers]


def test_http_layer_refusals_have_the_security_headers() -> None:
    """The refusals of the HTTP protocol itself (431 for a head over the cap, 400 for bytes
    that are not HTTP) carry the security headers too."""
    with serving("--no-access-log", "--max-header-bytes", "1024") as (url, _proc):
        host, port = url.removeprefix("http://").split(":")
        answers = []
        for data in (  # a head over the cap before its end, then bytes that are not HTTP
            b"GET / HTTP/1.1\r\nHost: a\r\nX-Big: " + b"b" * 4096,
            b"\x16\x03\x01 not http\r\n\r\n",
        ):
            with socket.create_connection((host, int(port)), timeout=10) as sock:
                sock.sendall(data)
                answers.append(read_raw_response(sock))
    assert [431, 400] == [status for status, _, _ in answers]
    for _, headers, _ in answers:
        assert [] == _has_security_headers(httpx.Headers(headers))


def test_pages_have_their_csp_cache_control_and_vary(server_url: str) -> None:
    """Every page (real server): the pages' CSP, Cache-Control and Vary, and the other
    security headers."""
    with httpx.Client(base_url=server_url, timeout=30) as client:
        for path in PAGES:
            answer = client.get(path)
            assert (200, [], PAGE_CACHE_CONTROL, PAGE_VARY) == (
                answer.status_code,
                _has_security_headers(answer.headers, page_security_policy()),
                answer.headers.get("cache-control"),
                answer.headers.get("vary"),
            ), path


def test_page_csp_hashes_every_inline_script_and_style() -> None:
    """Each page's inline scripts and styles are exactly those the CSP names by hash, and no
    page has an inline event handler, style attribute or javascript: URL (which a hash does
    not allow)."""
    directives = dict(d.strip().split(" ", 1) for d in page_security_policy().split(";"))
    allowed = {tag: set(directives[f"{tag}-src"].split()) for tag in ("script", "style")}
    with TestClient(create_app(access_log="off")) as client:
        for path in PAGES:
            html = client.get(path).text
            found: dict[str, set[str]] = {"script": set(), "style": set()}
            for tag, text in re.findall(r"<(script|style)\b[^>]*>(.*?)</\1>", html, re.DOTALL):
                digest = base64.b64encode(hashlib.sha256(text.encode()).digest()).decode()
                found[tag].add(f"'sha256-{digest}'")
            assert found["style"] == allowed["style"], path
            assert found["script"] <= allowed["script"], path
            assert found["script"], path
            assert [] == re.findall(r"\s(on[a-z]+|style)=|javascript:", html), path


def test_browser_pages_run_under_their_csp(server_url: str) -> None:
    """In Chromium, the pages raise no CSP violation: the styles apply, the copy button and
    the try-it form work (the example runs and shows its answer)."""
    violations: list[str] = []
    with sync_playwright() as driver, chromium(driver) as browser:
        context = browser.new_context(permissions=["clipboard-read", "clipboard-write"])
        page = context.new_page()
        page.set_default_timeout(15_000)

        def console(message: ConsoleMessage) -> None:
            if "Content Security Policy" in message.text:
                violations.append(message.text)

        page.on("console", console)
        for path in PAGES:
            page.goto(server_url + path)
            color = page.evaluate(
                "getComputedStyle(document.querySelector('.site-header')).backgroundColor"
            )
            assert color not in ("rgba(0, 0, 0, 0)", "transparent"), path
        page.goto(server_url + "/tools/chrf-compute/1.0.0")
        button = page.get_by_role("button", name="Copy curl command")
        button.click()
        # The label changes when the clipboard's promise resolves, after the click returns
        # (as test_surface_pages waits for it); it stays "Copied" for 2 s.
        expect(button).to_have_text("Copied")
        copied = button.inner_text()
        page.locator("#try-run").click()
        page.wait_for_selector("#try-status[data-status='200']")
        shown = json.loads(page.locator("#try-output").inner_text())
        context.close()
    assert ([], "Copied", {"result": EXAMPLE["output"]}) == (violations, copied, shown)


# --------------------------------------------------------------------------- base URL


def test_forged_host_does_not_reach_a_page(server_url: str) -> None:
    """A real server without --public-url or trusted proxies: a forged Host (and forwarded
    headers from an untrusted peer) never reach a page; its commands name the address the
    connection reached."""
    forged = {
        "host": FORGED,
        "x-forwarded-host": f"x.{FORGED}",
        "x-forwarded-proto": "https",
        "forwarded": f"host=y.{FORGED};proto=https",
    }
    with httpx.Client(base_url=server_url, timeout=30) as client:
        for path in PAGES:
            text = client.get(path, headers=forged).text
            assert (False, True) == (FORGED in text, f"{server_url}/" in text), path


def test_public_url_is_the_pages_base_url() -> None:
    """--public-url is the base of the pages' commands, whatever Host says, and the server
    the OpenAPI document names."""
    public = "https://mt.example.org"
    with (
        serving("--no-access-log", "--public-url", public + "/") as (url, _proc),
        httpx.Client(base_url=url, timeout=30) as client,
    ):
        texts = [client.get(path, headers={"host": FORGED}).text for path in PAGES]
        servers = client.get("/openapi.json", headers={"host": FORGED}).json()["servers"]
    assert [{"url": public}] == servers
    for path, text in zip(PAGES, texts, strict=True):
        assert (False, True, False) == (
            FORGED in text,
            f"{public}/" in text,
            url in text,
        ), path


@pytest.fixture(scope="module")
def proxied() -> Iterator[str]:
    """A server behind a trusted proxy (127.0.0.1, where the tests connect from), limiting
    each client to 3 requests a minute."""
    with serving(
        "--no-access-log", "--trusted-proxy", "127.0.0.1/32", "--trusted-proxy", "10.0.0.0/8",
        "--rate-limit", "3/min",
    ) as (url, _proc):  # fmt: skip
        yield url


def test_trusted_proxy_forwards_the_pages_host_and_scheme(proxied: str) -> None:
    """From a trusted proxy, X-Forwarded-Host and -Proto (or Forwarded) make the base URL; a
    forwarded host that is not a host name is ignored; Host never counts."""
    xff = {"x-forwarded-for": "198.51.100.1"}
    cases = [
        ({**xff, "x-forwarded-host": "mt.example.org", "x-forwarded-proto": "https"}, "https://mt.example.org"),
        ({"forwarded": 'for=192.0.2.9;host="mt.example.net:8443";proto=https'}, "https://mt.example.net:8443"),
        ({**xff, "x-forwarded-host": "evil.example/x?y", "host": FORGED}, proxied),
    ]  # fmt: skip
    with httpx.Client(base_url=proxied, timeout=30) as client:
        for headers, base in cases:
            answer = client.get("/clients/cli/", headers=headers)
            assert (200, True, False) == (
                answer.status_code,
                f"{base}/v1/tools/" in answer.text,
                FORGED in answer.text,
            ), headers


def _statuses(client: httpx.Client, path: str, count: int, headers: dict[str, str]) -> list[int]:
    return [client.get(path, headers=headers).status_code for _ in range(count)]


def test_trusted_proxy_rate_limit_keys_on_the_forwarded_client(proxied: str) -> None:
    """Behind a trusted proxy each forwarded client has its own bucket: the rightmost
    address that is not a trusted proxy, so a client cannot pick its bucket by writing
    addresses to the left; the health checks are never counted."""
    a = {"x-forwarded-for": "203.0.113.1"}
    a_forged = {"x-forwarded-for": "192.0.2.77, 203.0.113.1, 10.1.2.3"}  # one more proxy hop
    b = {"x-forwarded-for": "203.0.113.2"}
    with httpx.Client(base_url=proxied, timeout=30) as client:
        _wait_for(client, 200)  # the body worker processes have started (no forwarded client)
        first = _statuses(client, "/v1/tools", 3, a)
        forged = _statuses(client, "/v1/tools", 1, a_forged)
        other = _statuses(client, "/v1/tools", 3, b)
        health = _statuses(client, "/healthz", 5, a) + _statuses(client, "/readyz", 5, a)
    assert ([200] * 3, [429], [200] * 3, [200] * 10) == (first, forged, other, health)


def test_untrusted_peer_forwarded_for_is_ignored() -> None:
    """Without trusted proxies, X-Forwarded-For changes nothing: one bucket per peer."""
    app = create_app(access_log="off", rate_limit="2/min")
    with TestClient(app, client=("192.0.2.1", 4000)) as client:
        statuses = [
            client.get("/v1/tools", headers={"x-forwarded-for": f"203.0.113.{n}"}).status_code
            for n in range(3)
        ]
    assert [200, 200, 429] == statuses


def test_health_checks_are_not_rate_limited() -> None:
    """/healthz and /readyz answer past the limit; the other routes are counted."""
    app = create_app(access_log="off", rate_limit="1/min")
    with TestClient(app) as client:
        _wait_for(client, 200)  # the body worker process has started
        health = [client.get(path).status_code for path in ("/healthz", "/readyz") * 5]
        other = [client.get("/v1/tools").status_code for _ in range(2)]
    assert ([200] * 10, [200, 429]) == (health, other)


def test_keyed_mode_limits_each_key_behind_one_proxy(tmp_path: Any) -> None:
    """In keyed mode, each valid key has its own bucket even from one forwarded client; an
    unknown key counts for the forwarded address."""
    keys = tmp_path / "keys.txt"
    keys.write_text(ApiKeys.digest("key-one") + "\n" + ApiKeys.digest("key-two") + "\n")
    app = create_app(
        access_log="off", rate_limit="2/min", api_keys=str(keys), trusted_proxies=["192.0.2.1"]
    )
    via = {"x-forwarded-for": "203.0.113.5"}
    with TestClient(app, client=("192.0.2.1", 4000)) as client:

        def statuses(key: str | None, count: int) -> list[int]:
            headers = {**via, **({"x-api-key": key} if key else {})}
            return [client.get("/v1/tools", headers=headers).status_code for _ in range(count)]

        one, two, unknown, none = (
            statuses("key-one", 3),
            statuses("key-two", 2),
            statuses("not-a-key", 2),
            statuses(None, 1),
        )
    assert ([200, 200, 429], [200, 200], [200, 200], [429]) == (one, two, unknown, none)


# --------------------------------------------------------------------------- readiness


@pytest.fixture
def quick_supervision(monkeypatch: pytest.MonkeyPatch) -> None:
    """The body worker's supervision in test time: checks every 50 ms, retries after 0.1 s."""
    monkeypatch.setattr(supervisor, "WATCH_SECONDS", 0.05)
    monkeypatch.setattr(supervisor, "RESPAWN_BACKOFF", (0.1, 0.2))


def _wait_for(
    client: httpx.Client, status: int, text: str = "", seconds: float = 15
) -> httpx.Response:
    """Poll /readyz until it answers ``status`` with ``text`` in its body; its last answer."""
    deadline = time.monotonic() + seconds
    while True:
        answer = client.get("/readyz")
        if (answer.status_code == status and text in answer.text) or time.monotonic() > deadline:
            return answer
        time.sleep(0.05)


def test_readyz_goes_red_when_respawn_fails_and_comes_back(
    quick_supervision: None, caplog: pytest.LogCaptureFixture
) -> None:
    """The body worker process is killed and cannot be started again: /readyz turns 503 with
    the envelope, a large body is refused 503 with it, /healthz (liveness) stays 200 and the
    crash and the failed start are logged; once starting works again, the retry brings the
    worker and /readyz back, and the large body computes."""
    caplog.set_level(logging.INFO, logger="mtcompute.server")
    app = create_app(access_log="off", compute_workers=1)  # the one process (a pool: apart)
    worker: BodyWorker = app.state.body_worker
    headers = {"content-type": "application/json"}
    with TestClient(app) as client:
        assert 200 == _wait_for(client, 200).status_code
        assert 200 == client.post(EXECUTE, content=LARGE, headers=headers).status_code
        spawn, first = worker.spawn, worker.pid
        assert first is not None
        worker.spawn = mock.Mock(side_effect=OSError(11, "Resource temporarily unavailable"))
        os.kill(first, signal.SIGKILL)
        red = _wait_for(client, 503, "could not be started")
        refused = client.post(EXECUTE, content=LARGE, headers=headers)
        alive = client.get("/healthz").status_code
        worker.spawn = spawn
        green = _wait_for(client, 200)
        computed = client.post(EXECUTE, content=LARGE, headers=headers)
        replaced = worker.pid
    error = red.json()["error"]
    assert (503, "internal_error", True) == (
        red.status_code,
        error["code"],
        error["message"].startswith("Not ready: the body worker process could not be started"),
    )
    assert (503, "internal_error", 200) == (
        refused.status_code,
        refused.json()["error"]["code"],
        alive,
    )
    assert (200, {"status": "ready"}, 200) == (
        green.status_code,
        green.json(),
        computed.status_code,
    )
    assert replaced not in (None, first)
    messages = [record.getMessage() for record in caplog.records]
    assert any(f"process {first} exited with status -9" in m for m in messages), messages
    assert any("could not be started" in m and "retrying" in m for m in messages), messages
    assert any("started after a failure" in m for m in messages), messages


def test_worker_death_during_a_body_is_logged_and_replaced(
    quick_supervision: None, caplog: pytest.LogCaptureFixture
) -> None:
    """A body worker process that dies while it computes a body: that body is answered
    internal_error, the death is logged with the tool and the body's size, and the next
    body is computed by a new process."""
    caplog.set_level(logging.INFO, logger="mtcompute.server")
    app = create_app(access_log="off", compute_workers=1)  # the one process (a pool: apart)
    worker: BodyWorker = app.state.body_worker
    headers = {"content-type": "application/json"}

    def dying(_args: list[str], **kwargs: Any) -> Any:
        return real_spawn([sys.executable, "-c", ""], **kwargs)  # ends before it answers

    real_spawn = worker.spawn
    with TestClient(app) as client:
        _wait_for(client, 200)
        first = worker.pid
        assert first is not None
        worker.spawn = dying
        os.kill(first, signal.SIGKILL)
        while worker.pid == first:
            time.sleep(0.02)
        time.sleep(0.1)
        failed = client.post(EXECUTE, content=LARGE, headers=headers)
        worker.spawn = real_spawn
        _wait_for(client, 200)
        computed = client.post(EXECUTE, content=LARGE, headers=headers)
    assert (500, "internal_error", 200) == (
        failed.status_code,
        failed.json()["error"]["code"],
        computed.status_code,
    )
    messages = [record.getMessage() for record in caplog.records]
    assert any(
        "died computing chrf-compute@1.0.0" in m and f"{len(LARGE)}-byte body" in m
        for m in messages
    ), messages


def test_readyz_is_red_when_too_many_requests_wait(monkeypatch: pytest.MonkeyPatch) -> None:
    """More requests waiting for a worker than READY_MAX_WAITING: /readyz is 503 and says so."""
    app = create_app(access_log="off")
    with TestClient(app) as client:
        _wait_for(client, 200)  # the body worker process has started
        monkeypatch.setattr(executor, "READY_MAX_WAITING", -1)
        answer = client.get("/readyz")
    assert (503, "internal_error", True) == (
        answer.status_code,
        answer.json()["error"]["code"],
        "waiting for a worker" in answer.json()["error"]["message"],
    )
