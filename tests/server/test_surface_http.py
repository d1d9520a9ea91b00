"""The HTTP API, through a real HTTP client against `mtcompute serve` in a subprocess."""

from __future__ import annotations

import json
from collections.abc import Iterator
from importlib import resources
from pathlib import Path

import httpx
import pytest
from openapi_spec_validator import validate as validate_openapi

import mtcompute
from mtcompute.contracts import contract, contract_ids
from mtcompute.server.app import DEFAULT_MAX_BODY_BYTES, search_body
from tests.conftest import REPO, run_cli, send_unsent_body, shared_file
from tests.server.serving import serving

EXAMPLES = [
    (f"{tid}@{ver} > example {i}", tid, ver, ex)
    for tid, ver in contract_ids()
    for i, ex in enumerate(contract(tid, ver)["examples"], 1)
]
IDS = [e[0] for e in EXAMPLES]


@pytest.fixture(scope="module")
def client(server_url: str) -> Iterator[httpx.Client]:
    """An HTTP client bound to the running server."""
    with httpx.Client(base_url=server_url, timeout=30) as c:
        yield c


def execute_url(tool_id: str, version: str) -> str:
    """The execute path of a tool version."""
    return f"/v1/tools/{tool_id}/versions/{version}/execute"


@pytest.mark.parametrize(("name", "tool_id", "version", "example"), EXAMPLES, ids=IDS)
def test_example_over_http_is_the_cli_bytes(
    client: httpx.Client, name: str, tool_id: str, version: str, example: dict[str, object]
) -> None:
    """POST execute answers 200 with the example's envelope, the same bytes as the CLI."""
    body = json.dumps(example["input"], ensure_ascii=False).encode()
    cli = run_cli("run", tool_id, version, "--input", "-", stdin=body)
    response = client.post(
        execute_url(tool_id, version), content=body, headers={"content-type": "application/json"}
    )
    expected = mtcompute.dumps({"result": example["output"]}).encode()
    assert (200, expected, expected + b"\n") == (
        response.status_code,
        response.content,
        cli.stdout,
    )


@pytest.mark.parametrize(("name", "tool_id", "version", "example"), EXAMPLES, ids=IDS)
def test_example_through_cli_base_url(
    server_url: str, name: str, tool_id: str, version: str, example: dict[str, object]
) -> None:
    """`mtcompute run --base-url` prints the same envelope as a local run."""
    body = json.dumps(example["input"]).encode()
    remote = run_cli("run", tool_id, version, "--input", "-", "--base-url", server_url, stdin=body)
    local = run_cli("run", tool_id, version, "--input", "-", stdin=body)
    assert (0, local.stdout) == (remote.returncode, remote.stdout)


def test_cli_base_url_error_envelope_and_exit_code(server_url: str) -> None:
    """A tool error through --base-url prints the error envelope and exits 1."""
    body = b'{"hypotheses":[],"references":["a"]}'
    remote = run_cli(
        "run", "chrf-compute", "1.0.0", "-i", "-", "--base-url", server_url, stdin=body
    )
    local = run_cli("run", "chrf-compute", "1.0.0", "-i", "-", stdin=body)
    assert (1, local.stdout) == (remote.returncode, remote.stdout)


def test_several_faults_are_listed_alike_over_http_and_the_cli(client: httpx.Client) -> None:
    """An input with several faults: 400 with the first fault's error listing every fault,
    the library's bytes, and the same bytes from the CLI."""
    body = b'{"hypotheses":1,"references":["a"],"beta":0,"x":1}'
    expected = mtcompute.execute("chrf-compute", "1.0.0", json.loads(body)).json_bytes()
    response = client.post(
        execute_url("chrf-compute", "1.0.0"),
        content=body,
        headers={"content-type": "application/json"},
    )
    cli = run_cli("run", "chrf-compute", "1.0.0", "--input", "-", stdin=body)
    paths = [fault["path"] for fault in response.json()["error"]["faults"]]
    assert (400, expected, expected + b"\n", ["/x", "/hypotheses", "/beta"]) == (
        response.status_code,
        response.content,
        cli.stdout,
        paths,
    )


def test_cli_base_url_unreachable_is_a_usage_error() -> None:
    """An unreachable server is reported on stderr with exit 2."""
    proc = run_cli(
        "run", "chrf-compute", "1.0.0", "-i", "-", "--base-url", "http://127.0.0.1:9", stdin=b"{}"
    )
    assert (2, b"") == (proc.returncode, proc.stdout)
    assert b"cannot reach http://127.0.0.1:9" in proc.stderr


def test_chrf_contract_is_the_seed_document(client: httpx.Client) -> None:
    """GET the chrf-compute contract returns the seed document byte for byte (skipped when the
    specification is not beside the repository)."""
    seed = shared_file("seeds/002_9b2153393840dc62.txt").read_bytes()
    response = client.get("/v1/tools/chrf-compute/versions/1.0.0")
    assert (200, "application/json", seed) == (
        response.status_code,
        response.headers["content-type"].split(";")[0],
        response.content,
    )


def test_every_contract_served_verbatim(client: httpx.Client) -> None:
    """Each shipped contract document is served exactly as shipped."""
    data = resources.files("mtcompute.contracts") / "data"
    expected = {(t, v): (data / f"{t}@{v}.json").read_bytes() for t, v in contract_ids()}
    actual = {(t, v): client.get(f"/v1/tools/{t}/versions/{v}").content for t, v in contract_ids()}
    assert expected == actual


def test_catalog_lists_every_tool_with_links(client: httpx.Client) -> None:
    """GET /v1/tools lists id, version, description and working links."""
    tools = client.get("/v1/tools").json()["tools"]
    assert [(t, v) for t, v in contract_ids()] == [(e["id"], e["version"]) for e in tools]
    for entry in tools:
        assert contract(entry["id"], entry["version"])["description"] == entry["description"]
        assert 200 == client.get(entry["links"]["contract"]).status_code
        assert 200 == client.get(entry["links"]["page"]).status_code


SEARCHES = [
    "why did my sentence get a low BLEU",
    "קנס הקיצור של BLEU",
    "chrF++ für maschinelle Übersetzung",
    "TER の編集率",
    "the of and",
]


@pytest.mark.parametrize("query", SEARCHES)
def test_catalog_search(client: httpx.Client, query: str) -> None:
    """GET /v1/tools?q= answers the search module's answer, its ranked tools with links."""
    response = client.get("/v1/tools", params={"q": query})
    expected = mtcompute.dumps(search_body(query))
    assert (200, expected) == (response.status_code, response.text)


def test_catalog_search_finds_the_seed_phrasing_first(client: httpx.Client) -> None:
    """The seed's "why did my sentence get a low BLEU" finds bleu-sentence-components first,
    with that line first among the matched lines, and a working page link."""
    first = client.get("/v1/tools", params={"q": "why did my sentence get a low BLEU"}).json()[
        "tools"
    ][0]
    assert (
        "bleu-sentence-components",
        {"field": "supported", "text": "why did my sentence get a low BLEU"},
        200,
    ) == (first["id"], first["matched"][0], client.get(first["links"]["page"]).status_code)


@pytest.mark.parametrize("query", ["", "   "])
def test_blank_search_is_the_catalog(client: httpx.Client, query: str) -> None:
    """A blank q answers the whole catalog, as no q does."""
    assert client.get("/v1/tools").content == client.get("/v1/tools", params={"q": query}).content


def test_search_too_long_is_invalid_input(client: httpx.Client) -> None:
    """A q over 500 characters is refused with the invalid_input envelope (400)."""
    response = client.get("/v1/tools", params={"q": "é" * 501})
    expected = {
        "error": {
            "code": "invalid_input",
            "message": 'Expected the query parameter "q" to have at most 500 characters, got 501.',
            "path": "",
        }
    }
    assert (400, expected) == (response.status_code, response.json())


def test_openapi_is_valid_and_covers_every_tool(client: httpx.Client) -> None:
    """/openapi.json is a valid OpenAPI 3.1 document with one execute operation per tool."""
    document = client.get("/openapi.json").json()
    validate_openapi(document)
    expected = {f"/v1/tools/{t}/versions/{v}/execute" for t, v in contract_ids()}
    assert ("3.1.0", expected) == (
        document["openapi"],
        {p for p in document["paths"] if p.endswith("/execute")},
    )


def test_healthz(client: httpx.Client) -> None:
    """GET /healthz answers ok."""
    response = client.get("/healthz")
    assert (200, {"status": "ok"}) == (response.status_code, response.json())


def error_of(response: httpx.Response) -> tuple[int, str, str]:
    """(status, code, path) of an error response, checking it is a JSON envelope."""
    assert response.headers["content-type"].startswith("application/json")
    body = response.json()
    assert ["error"] == list(body)
    assert ["code", "message", "path"] == list(body["error"])
    return response.status_code, body["error"]["code"], body["error"]["path"]


ERROR_CASES = [
    (
        "unknown tool",
        "POST",
        "/v1/tools/no-such-tool/versions/1.0.0/execute",
        b"{}",
        None,
        (404, "not_found", ""),
    ),
    (
        "unknown version",
        "POST",
        "/v1/tools/chrf-compute/versions/9.9.9/execute",
        b"{}",
        None,
        (404, "not_found", ""),
    ),
    (
        "unknown contract",
        "GET",
        "/v1/tools/chrf-compute/versions/0.1.0",
        None,
        None,
        (404, "not_found", ""),
    ),
    ("unknown path", "GET", "/nope", None, None, (404, "not_found", "")),
    (
        "wrong method",
        "GET",
        "/v1/tools/chrf-compute/versions/1.0.0/execute",
        None,
        None,
        (405, "method_not_allowed", ""),
    ),
    ("wrong method on catalog", "DELETE", "/v1/tools", None, None, (405, "method_not_allowed", "")),
    (
        "malformed JSON",
        "POST",
        "/v1/tools/chrf-compute/versions/1.0.0/execute",
        b'{"a":',
        None,
        (400, "invalid_input", ""),
    ),
    (
        "not UTF-8",
        "POST",
        "/v1/tools/chrf-compute/versions/1.0.0/execute",
        b'{"hypotheses":["\xff"]}',
        None,
        (400, "invalid_input", ""),
    ),
    (
        "NaN is not JSON",
        "POST",
        "/v1/tools/bleu-smoothing-compute/versions/1.0.0/execute",
        b'{"matches":[NaN]}',
        None,
        (400, "invalid_input", ""),
    ),
    (
        "wrong content type",
        "POST",
        "/v1/tools/chrf-compute/versions/1.0.0/execute",
        b'{"hypotheses":["a"],"references":["a"]}',
        "text/plain",
        (415, "invalid_input", ""),
    ),
    (
        "form content type",
        "POST",
        "/v1/tools/chrf-compute/versions/1.0.0/execute",
        b"hypotheses=a",
        "application/x-www-form-urlencoded",
        (415, "invalid_input", ""),
    ),
    (
        "oversized body",
        "POST",
        "/v1/tools/chrf-compute/versions/1.0.0/execute",
        b" " * (DEFAULT_MAX_BODY_BYTES + 1),
        None,
        (413, "limit_exceeded", ""),
    ),
    (
        "unsupported smoothing",
        "POST",
        "/v1/tools/bleu-smoothing-compute/versions/1.0.0/execute",
        b'{"matches":[1],"totals":[1],"candidate_length":1,"reference_length":1,'
        b'"smoothing":"method4"}',
        None,
        (422, "unsupported_input", "/smoothing"),
    ),
    (
        "limit exceeded",
        "POST",
        "/v1/tools/chrf-compute/versions/1.0.0/execute",
        json.dumps({"hypotheses": ["a"] * 257, "references": ["a"]}).encode(),
        None,
        (413, "limit_exceeded", "/hypotheses"),
    ),
    (
        "invalid input",
        "POST",
        "/v1/tools/chrf-compute/versions/1.0.0/execute",
        b'{"hypotheses":["a"],"references":["a"],"beta":0}',
        None,
        (400, "invalid_input", "/beta"),
    ),
]


@pytest.mark.parametrize(
    ("case", "method", "path", "body", "content_type", "expected"),
    ERROR_CASES,
    ids=[c[0] for c in ERROR_CASES],
)
def test_error_paths(
    client: httpx.Client,
    case: str,
    method: str,
    path: str,
    body: bytes | None,
    content_type: str | None,
    expected: tuple[int, str, str],
) -> None:
    """Each error path answers its status with a JSON envelope, never HTML."""
    headers = {"content-type": content_type or "application/json"} if body is not None else {}
    response = client.request(method, path, content=body, headers=headers)
    assert expected == error_of(response)


def test_method_not_allowed_names_the_allowed_methods(client: httpx.Client) -> None:
    """405 carries an Allow header."""
    response = client.get("/v1/tools/chrf-compute/versions/1.0.0/execute")
    assert "POST" in response.headers["allow"]


def test_body_over_cap_refused_from_content_length_alone(server_url: str) -> None:
    """A declared Content-Length over the cap is refused before the body is sent."""
    reply = send_unsent_body(
        server_url,
        b"POST /v1/tools/chrf-compute/versions/1.0.0/execute HTTP/1.1\r\n"
        b"Host: x\r\nContent-Type: application/json\r\nContent-Length: 999999999\r\n\r\n",
        b'"}}',
    )
    assert reply.startswith(b"HTTP/1.1 413")
    assert b'"code":"limit_exceeded"' in reply


@pytest.fixture(scope="module")
def small_cap_server() -> Iterator[str]:
    """A server started with --max-body-bytes 100."""
    with serving("--max-body-bytes", "100") as (url, _proc):
        yield url


def test_max_body_bytes_is_configurable(small_cap_server: str) -> None:
    """--max-body-bytes sets the cap: 100 bytes pass, 101 are refused with 413."""
    url = small_cap_server + execute_url("chrf-compute", "1.0.0")
    ok = b'{"hypotheses":["a"],"references":["a"]}'
    ok = ok[:-1] + b" " * (100 - len(ok)) + b"}"
    over = ok[:-1] + b" }"
    statuses = [
        httpx.post(url, content=b, headers={"content-type": "application/json"}).status_code
        for b in (ok, over)
    ]
    assert [200, 413] == statuses


def test_chunked_body_over_cap_is_refused(small_cap_server: str) -> None:
    """A chunked body (no Content-Length) is cut off at the cap."""

    def chunks() -> Iterator[bytes]:
        yield b'{"hypotheses":["'
        for _ in range(50):
            yield b"aaaaaaaaaa"
        yield b'"],"references":["a"]}'

    response = httpx.post(
        small_cap_server + execute_url("chrf-compute", "1.0.0"),
        content=chunks(),
        headers={"content-type": "application/json"},
    )
    assert (413, "limit_exceeded", "") == error_of(response)


def test_readme_two_commands_come_first() -> None:
    """The README opens with `make serve` and `make test`."""
    text = Path(REPO / "README.md").read_text()
    block = text.split("```sh\n", 1)[1].split("```", 1)[0]
    assert ["make serve", "make test"] == [
        line.split("#")[0].strip() for line in block.splitlines()
    ]


def test_default_cap_admits_the_largest_valid_inputs(client: httpx.Client) -> None:
    """The default body cap admits the largest valid input of every contract: the worst-case
    bleu-corpus-compute body (26,784,747 bytes, pinned in its tool tests) fits, and a maximal
    bleu-brevity-penalty input (100,000 segments of 8 references of 10^9: ~10 MB) is served."""
    assert DEFAULT_MAX_BODY_BYTES >= 26_784_747
    body = json.dumps(
        {"candidate_lengths": [10**9] * 100_000, "reference_lengths": [[10**9] * 8] * 100_000},
        separators=(",", ":"),
    ).encode()
    assert len(body) > 8 << 20
    response = client.post(
        execute_url("bleu-brevity-penalty", "1.0.0"),
        content=body,
        headers={"content-type": "application/json"},
    )
    assert (200, 1) == (response.status_code, response.json()["result"]["brevity_penalty"])
