"""Safe public limits: the per-client rate limit and the optional API keys, with a real HTTP
client bursting real ``mtcompute serve`` processes (mtcompute.server.limits)."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest

import mtcompute
from mtcompute.contracts import contract, contract_text
from mtcompute.server.limits import ApiKeys, RateLimit, TokenBuckets
from mtcompute.server.pages import FREE, FREE_WITH_KEY
from tests.conftest import run_cli
from tests.server.serving import serving

KEY_A, KEY_B = "key-a-7f3c9e", "key-b-51d0aa"
LIMIT = 10  # requests per minute per client in the rate-limited server
EXECUTE = "/v1/tools/chrf-compute/versions/1.0.0/execute"
EXAMPLE = contract("chrf-compute", "1.0.0")["examples"][0]
EXAMPLE_BODY = json.dumps(EXAMPLE["input"]).encode()
EXAMPLE_ANSWER = mtcompute.dumps({"result": EXAMPLE["output"]}).encode()
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "test", "version": "0"},
    },
}
MCP_HEADERS = {"accept": "application/json, text/event-stream", "content-type": "application/json"}


@pytest.fixture(scope="module")
def keys_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A keys file with the digests of KEY_A and KEY_B, a comment and a blank line."""
    path = tmp_path_factory.mktemp("keys") / "keys.txt"
    path.write_text(f"# accepted keys\n{ApiKeys.digest(KEY_A)}\n\n{ApiKeys.digest(KEY_B)}\n")
    return path


@pytest.fixture(scope="module")
def limited(keys_file: Path) -> Iterator[str]:
    """A server limiting each client to LIMIT requests a minute, keys required to execute."""
    with serving(
        "--rate-limit", f"{LIMIT}/min", "--api-keys", str(keys_file), "--no-access-log"
    ) as (url, _proc):
        yield url


@pytest.fixture(scope="module")
def keyed(keys_file: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """A server with keys required to execute, no rate limit, its access log in a file."""
    log = tmp_path_factory.mktemp("log") / "access.log"
    with serving("--api-keys", str(keys_file), "--access-log-file", str(log)) as (url, _proc):
        yield url, log


def _burst(
    base: str, requests: list[tuple[str, str, dict[str, str], bytes | None]]
) -> list[httpx.Response]:
    """Send every request at once (16 connections); the responses in request order."""
    with httpx.Client(base_url=base, timeout=30) as client, ThreadPoolExecutor(16) as pool:
        return list(
            pool.map(lambda r: client.request(r[0], r[1], headers=r[2], content=r[3]), requests)
        )


def _rate_limited(limit: int, retry_after: int) -> dict[str, dict[str, str]]:
    return {
        "error": {
            "code": "rate_limited",
            "message": f"Too many requests: at most {limit} per minute per client; retry "
            f"after {retry_after} s.",
            "path": "",
        }
    }


def test_token_bucket_refills_evenly() -> None:
    """A bucket allows a burst of COUNT, then one request per PERIOD/COUNT; the wait is the
    whole seconds until the next token, at least 1."""
    now = [0.0]
    buckets = TokenBuckets(RateLimit.parse("3/min"), clock=lambda: now[0])
    burst = [buckets.take("a") for _ in range(4)]
    now[0] = 19.5
    waiting = buckets.take("a")
    now[0] = 20.0
    assert ([0, 0, 0, 20], 1, 0, 0) == (burst, waiting, buckets.take("a"), buckets.take("b"))


@pytest.mark.parametrize(
    ("text", "expected"),
    [("600/min", (600, 60.0, "600 per minute")), ("10/s", (10, 1.0, "10 per second")),
     ("5 / hour", (5, 3600.0, "5 per hour"))],
)  # fmt: skip
def test_rate_limit_parses(text: str, expected: tuple[int, float, str]) -> None:
    """COUNT/UNIT with UNIT s, min or hour."""
    limit = RateLimit.parse(text)
    assert expected == (limit.count, limit.period, limit.text)


def test_burst_gets_exactly_the_limit_then_429s(limited: str) -> None:
    """A burst of 3 x LIMIT requests with one key over pages, contracts, the catalog and
    execute: exactly LIMIT answered as usual, every other one 429 with Retry-After and the
    rate_limited envelope; another key still has its own LIMIT."""
    auth = {"authorization": f"Bearer {KEY_A}"}
    routes = [
        ("GET", "/", auth, None),
        ("GET", "/v1/tools/chrf-compute/versions/1.0.0", auth, None),
        ("GET", "/v1/tools?q=chrF", auth, None),
        ("POST", EXECUTE, {**auth, "content-type": "application/json"}, EXAMPLE_BODY),
        ("GET", "/no/such/path", auth, None),
    ]
    answers = _burst(limited, routes * (3 * LIMIT // len(routes)))
    refused = [a for a in answers if a.status_code == 429]
    served = [a for a in answers if a.status_code != 429]
    wrong = [
        a.request.url.path
        for a in served
        if (a.status_code, a.request.method) not in {(200, "GET"), (200, "POST"), (404, "GET")}
        or (a.request.method == "POST" and a.content != EXAMPLE_ANSWER)
    ]
    retry = {a.headers.get("retry-after") for a in refused}
    bodies = {a.content for a in refused} - {
        mtcompute.dumps(_rate_limited(LIMIT, int(r or 0))).encode() for r in retry
    }
    # /v1/tools, not /healthz: the health checks are not counted (test_public_service.py)
    other = _burst(limited, [("GET", "/v1/tools", {"x-api-key": KEY_B}, None)] * (LIMIT + 2))
    assert (LIMIT, 2 * LIMIT, [], True, set(), [200] * LIMIT + [429, 429]) == (
        len(served),
        len(refused),
        wrong,
        all(r is not None and 1 <= int(r) <= 60 for r in retry),
        bodies,
        sorted(a.status_code for a in other),
    )


def test_mcp_over_the_limit_is_a_json_rpc_error(limited: str) -> None:
    """On /mcp, a request over the limit is 429 with Retry-After and a JSON-RPC error whose
    data is the rate_limited envelope."""
    headers = {**MCP_HEADERS, "x-api-key": KEY_A}
    body = json.dumps(INITIALIZE).encode()
    answers = _burst(limited, [("POST", "/mcp", headers, body)] * (LIMIT + 1))
    answer = next(a for a in answers if a.status_code == 429)
    reply = answer.json()
    assert (429, True, -32600, None, "rate_limited") == (
        answer.status_code,
        int(answer.headers["retry-after"]) >= 1,
        reply["error"]["code"],
        reply["id"],
        reply["error"]["data"]["error"]["code"],
    )


UNAUTHORIZED = {
    "error": {
        "code": "unauthorized",
        "message": 'An API key is required to execute on this server: send "Authorization: '
        'Bearer KEY" (or "X-API-Key: KEY").',
        "path": "",
    }
}


@pytest.mark.parametrize(
    "headers",
    [{}, {"authorization": "Bearer not-a-key"}, {"x-api-key": "not-a-key"},
     {"authorization": f"Basic {KEY_A}"}],
    ids=["no key", "unknown bearer", "unknown x-api-key", "not bearer"],
)  # fmt: skip
def test_execute_without_a_valid_key_is_401(
    keyed: tuple[str, Path], headers: dict[str, str]
) -> None:
    """With keys configured, execute without a valid key is 401, WWW-Authenticate: Bearer and
    the unauthorized envelope."""
    with httpx.Client(base_url=keyed[0]) as client:
        answer = client.post(EXECUTE, content=EXAMPLE_BODY, headers=headers)
    assert (401, "Bearer", mtcompute.dumps(UNAUTHORIZED).encode()) == (
        answer.status_code,
        answer.headers.get("www-authenticate"),
        answer.content,
    )


@pytest.mark.parametrize(
    "headers",
    [{"authorization": f"Bearer {KEY_A}"}, {"x-api-key": KEY_B}],
    ids=["bearer", "x-api-key"],
)
def test_execute_with_a_key(keyed: tuple[str, Path], headers: dict[str, str]) -> None:
    """A valid key, as a bearer token or X-API-Key, executes: the example's exact bytes."""
    with httpx.Client(base_url=keyed[0]) as client:
        answer = client.post(EXECUTE, content=EXAMPLE_BODY, headers=headers)
    assert (200, EXAMPLE_ANSWER) == (answer.status_code, answer.content)


def test_pages_contracts_and_catalog_stay_public(keyed: tuple[str, Path]) -> None:
    """Without a key: the pages, the contracts, the catalog, its search, /healthz and /readyz
    answer."""
    with httpx.Client(base_url=keyed[0]) as client:
        ready_by = time.monotonic() + 15  # the body worker processes have started
        while client.get("/readyz").status_code != 200 and time.monotonic() < ready_by:
            time.sleep(0.05)
        statuses = [
            client.get(path).status_code
            for path in ("/", "/?q=BLEU", "/tools/chrf-compute/1.0.0", "/v1/tools",
                         "/v1/tools?q=TER", "/healthz", "/readyz", "/openapi.json",
                         "/clients/mcp/")
        ]  # fmt: skip
        text = client.get("/v1/tools/chrf-compute/versions/1.0.0").text
    assert ([200] * 9, contract_text("chrf-compute", "1.0.0")) == (statuses, text)


def test_pages_say_a_key_is_needed(keyed: tuple[str, Path], server_url: str) -> None:
    """With keys configured the pages say "free, API key needed to execute" where they say
    "free, no key needed" by default (the title line, the index and every footer)."""
    paths = ("/", "/tools/chrf-compute/1.0.0", "/clients/cli/", "/clients/mcp/")
    with httpx.Client(base_url=keyed[0]) as with_keys, httpx.Client(base_url=server_url) as free:
        counts = [
            (free.get(p).text.count(FREE), with_keys.get(p).text.count(FREE_WITH_KEY))
            for p in paths
        ]
        leftover = [p for p in paths if FREE in with_keys.get(p).text]
    assert ([(2, 2), (2, 2), (1, 1), (1, 1)], []) == (counts, leftover)


def test_mcp_discovery_is_public_and_execute_needs_a_key(keyed: tuple[str, Path]) -> None:
    """With keys configured, /mcp initializes without a key (discovery is public); a
    tools/call of execute without one is a tool error carrying the unauthorized envelope;
    with a key it initializes and computes."""
    body = json.dumps(INITIALIZE).encode()
    call = {
        "jsonrpc": "2.0",
        "id": 2,
        "method": "tools/call",
        "params": {
            "name": "execute",
            "arguments": {"id": "chrf-compute", "version": "1.0.0", "input": EXAMPLE["input"]},
        },
    }
    headers = {**MCP_HEADERS, "mcp-protocol-version": "2025-06-18"}
    with httpx.Client(base_url=keyed[0]) as client:
        public = client.post("/mcp", content=body, headers=MCP_HEADERS)
        refused = client.post("/mcp", json=call, headers=headers)
        accepted = client.post("/mcp", content=body, headers={**MCP_HEADERS, "x-api-key": KEY_A})
        computed = client.post("/mcp", json=call, headers={**headers, "x-api-key": KEY_A})
    assert (200, "mtcompute", 200, True, UNAUTHORIZED, 200, "mtcompute", False) == (
        public.status_code,
        public.json()["result"]["serverInfo"]["name"],
        refused.status_code,
        refused.json()["result"]["isError"],
        refused.json()["result"]["structuredContent"],
        accepted.status_code,
        accepted.json()["result"]["serverInfo"]["name"],
        computed.json()["result"]["isError"],
    )


def test_keys_are_never_logged(keyed: tuple[str, Path]) -> None:
    """The access log holds the requests made with keys, never a key nor its digest."""
    url, log = keyed
    with httpx.Client(base_url=url) as client:
        client.post(EXECUTE, content=EXAMPLE_BODY, headers={"authorization": f"Bearer {KEY_A}"})
        client.get("/v1/tools", headers={"x-api-key": KEY_B})
    text = log.read_text()
    secrets = [KEY_A, KEY_B, ApiKeys.digest(KEY_A), ApiKeys.digest(KEY_B)]
    assert (True, []) == (EXECUTE in text, [s for s in secrets if s in text])


def test_no_limit_and_no_key_by_default(server_url: str) -> None:
    """The default server: a burst of 60 requests all answer, execute needs no key."""
    answers = _burst(
        server_url, [("POST", EXECUTE, {"content-type": "application/json"}, EXAMPLE_BODY)] * 60
    )
    assert [(200, EXAMPLE_ANSWER)] * 60 == [(a.status_code, a.content) for a in answers]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--rate-limit", "600/day"],
         "--rate-limit: expected COUNT/UNIT with COUNT at least 1 and UNIT s, min or hour "
         "(e.g. 600/min), got '600/day'"),
        (["--rate-limit", "0/min"],
         "--rate-limit: expected COUNT/UNIT with COUNT at least 1 and UNIT s, min or hour "
         "(e.g. 600/min), got '0/min'"),
    ],
)  # fmt: skip
def test_serve_rejects_a_bad_rate_limit(args: list[str], message: str) -> None:
    """A malformed --rate-limit is a usage error (exit 2) before the server starts."""
    proc = run_cli("serve", *args)
    assert (2, f"mtcompute: error: {message}\n".encode()) == (proc.returncode, proc.stderr)


def test_serve_rejects_a_bad_keys_file(tmp_path: Path) -> None:
    """A keys file line that is not a SHA-256 digest is a usage error naming file and line
    (and not echoing the line, which may be a key pasted by mistake)."""
    path = tmp_path / "keys.txt"
    path.write_text(f"{ApiKeys.digest(KEY_A)}\nmy-secret-key\n")
    proc = run_cli("serve", "--api-keys", str(path))
    expected = (
        f"mtcompute: error: --api-keys: {path}, line 2: expected a SHA-256 digest "
        "(64 hex digits), got 13 characters\n"
    )
    assert (2, expected.encode()) == (proc.returncode, proc.stderr)
