"""/openapi.json lists exactly the statuses each operation answers, each as the server sends it.

Every operation gets the same probes over raw sockets (a valid request, another method, an
invalid input, a wrong Content-Type, a body over the cap, an unsupported variant, a body and
headers that do not arrive in time, headers over the cap) against a running server with 1 s
deadlines, and a bug injected into the same application in-process (a healthy server cannot
be made to fail). The statuses seen per operation must be exactly the documented ones, and
every answer must have the documented content type, schema and headers.
"""

from __future__ import annotations

import json
import socket
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractContextManager, ExitStack, suppress
from dataclasses import dataclass
from typing import Any
from unittest import mock

import pytest
from jsonschema import Draft202012Validator
from starlette.testclient import TestClient

import mtcompute.server.app as app_module
from mtcompute import dumps
from mtcompute.contracts import contract
from mtcompute.envelope import Envelope
from mtcompute.errors import MtcomputeError, Overloaded, Timeout
from mtcompute.server.app import DEFAULT_MAX_BODY_BYTES, create_app
from mtcompute.server.openapi import openapi_document
from mtcompute.server.protocol import DEFAULT_MAX_HEADER_BYTES
from tests.conftest import read_raw_response
from tests.server.serving import serving

DOCUMENT = openapi_document()
OPERATIONS = [
    (method.upper(), path, operation)
    for path, item in DOCUMENT["paths"].items()
    for method, operation in item.items()
]
JSON = "application/json"
DEADLINE = 1.0  # the body and header deadlines of the probed server, in seconds


@dataclass(frozen=True)
class Answer:
    """One HTTP response: status, headers (names lower-cased) and body."""

    status: int
    headers: dict[str, str]
    body: bytes


def _example_input(path: str) -> dict[str, Any]:
    tool_id, version = path.split("/")[3], path.split("/")[5]
    value: dict[str, Any] = contract(tool_id, version)["examples"][0]["input"]
    return value


def _request(
    method: str, path: str, body: bytes = b"", extra: str = "", content_type: str = ""
) -> bytes:
    head = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
    if body or content_type:
        head += f"Content-Type: {content_type or JSON}\r\n"
    if body and "Content-Length" not in extra:
        head += f"Content-Length: {len(body)}\r\n"
    return (head + extra + "\r\n").encode() + body


def _body(path: str, **changes: object) -> bytes:
    """The first example input of the tool at an execute ``path``, with ``changes`` (``None``
    drops a key); ``{}`` for any other path."""
    if not path.endswith("/execute"):
        return b"{}"
    value = {**_example_input(path), **changes}
    return json.dumps({k: v for k, v in value.items() if v is not None}).encode()


def _valid(method: str, path: str) -> bytes:
    return _request(method, path, _body(path) if method == "POST" else b"")


def _another_method(_method: str, path: str) -> bytes:
    return _request("DELETE", path)  # no documented path has DELETE


def _invalid_input(method: str, path: str) -> bytes:
    if (method, path) == ("GET", "/v1/tools"):  # the search's query over its 500 characters
        return _request(method, f"{path}?q={'a' * 501}")
    return _request(method, path, b'{"no_such_field":1}')


def _wrong_content_type(method: str, path: str) -> bytes:
    return _request(method, path, _body(path), content_type="text/plain")


def _body_over_the_cap(method: str, path: str) -> bytes:
    length = DEFAULT_MAX_BODY_BYTES + 1  # declared; not one byte of it is sent
    return _request(method, path, extra=f"Content-Length: {length}\r\n", content_type=JSON)


# An input each tool refuses as unsupported_input: a model-downloading tokenizer for the
# sacreBLEU-rules tools, Chen & Cherry method4 for the others.
UNSUPPORTED = {
    "bleu-tokenize": {"tokenizer": "spm"},
    "sacrebleu-score": {"bleu": {"tokenize": "spm"}},
    "paired-significance": {"bleu": {"tokenize": "spm"}},
    "system-ranking": {"bleu": {"tokenize": "spm"}},
}


def _unsupported_variant(method: str, path: str) -> bytes:
    parts = path.split("/")  # /v1/tools/{id}/versions/{version}/execute
    tool = parts[3] if len(parts) > 3 else ""
    variant = UNSUPPORTED.get(tool, {"smoothing": "method4", "epsilon": None})
    return _request(method, path, _body(path, **variant))


def _body_too_slow(method: str, path: str) -> bytes:
    return _request(method, path, b'{"hypothes', extra="Content-Length: 100\r\n")


def _headers_too_slow(method: str, path: str) -> bytes:
    return f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n".encode()


def _headers_too_large(method: str, path: str) -> bytes:
    return _headers_too_slow(method, path) + b"X-Big: " + b"a" * (DEFAULT_MAX_HEADER_BYTES + 1024)


# Each probe: the bytes to send for (method, path); the server answers without more bytes.
SOCKET_PROBES: dict[str, Callable[[str, str], bytes]] = {
    "valid request": _valid,
    "another method": _another_method,
    "invalid input": _invalid_input,
    "wrong content type": _wrong_content_type,
    "body over the cap": _body_over_the_cap,
    "unsupported variant": _unsupported_variant,
    "body too slow": _body_too_slow,
    "headers too slow": _headers_too_slow,
    "headers too large": _headers_too_large,
}


def _read_answer(sock: socket.socket) -> Answer:
    return Answer(*read_raw_response(sock, DEADLINE + 10))


def _exchange(base_url: str, data: bytes) -> Answer:
    host, port = base_url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=DEADLINE + 10) as sock:
        # A refusal can close the connection before all of it is sent; the answer is there.
        with suppress(BrokenPipeError, ConnectionResetError):
            sock.sendall(data)
        return _read_answer(sock)


def _bug_in_the_route(_method: str, path: str) -> list[AbstractContextManager[Any]] | None:
    """Patches that put a bug in the route serving ``path``."""
    name = {"/healthz": "execute", "/readyz": "readiness", "/v1/tools": "catalog"}.get(
        path, "_entry"
    )
    if path.count("/") == 3:  # /v1/tools/{id}: the versions of an id
        name = "tool_listing"
    if path.endswith("/execute"):
        name = "loads"
    return [mock.patch.object(app_module, name, side_effect=RuntimeError("injected bug"))]


def _failing_health_check(_method: str, path: str) -> list[AbstractContextManager[Any]] | None:
    """Patches that make the health check's chrF an error envelope (``/healthz`` only)."""
    if path != "/healthz":
        return None
    envelope = Envelope.of_error(MtcomputeError("injected"))  # internal_error
    return [mock.patch.object(app_module, "execute", return_value=envelope)]


def _worker_down(_method: str, path: str) -> list[AbstractContextManager[Any]] | None:
    """Patches that make the readiness check find the body worker down (``/readyz`` only)."""
    if path != "/readyz":
        return None
    return [mock.patch.object(app_module, "readiness", return_value="injected worker failure")]


def _queue_full(_method: str, path: str) -> list[AbstractContextManager[Any]] | None:
    """Patches that make the execute route find its worker's queue full (execute only)."""
    if not path.endswith("/execute"):
        return None
    refusal = Overloaded("64 requests wait for the heavy worker", 2)
    return [mock.patch.object(app_module, "execute_value", side_effect=refusal)]


def _deadline_passed(_method: str, path: str) -> list[AbstractContextManager[Any]] | None:
    """Patches that make the execute route's work outlast its deadline (execute only)."""
    if not path.endswith("/execute"):
        return None
    return [mock.patch.object(app_module, "execute_value", side_effect=Timeout(60.0))]


# Each in-process probe: the patches to apply, or None where the probe does not apply.
IN_PROCESS_PROBES: dict[str, Callable[[str, str], list[AbstractContextManager[Any]] | None]] = {
    "a bug in the route": _bug_in_the_route,
    "failing health check": _failing_health_check,
    "worker down": _worker_down,
    "queue full": _queue_full,
    "deadline passed": _deadline_passed,
}


def _in_process(method: str, path: str, patches: list[AbstractContextManager[Any]]) -> Answer:
    """The answer of the application itself, in-process, with ``patches`` applied."""
    client = TestClient(create_app(access_log="off"), raise_server_exceptions=False)
    content = json.dumps(_example_input(path)).encode() if method == "POST" else None
    headers = {"content-type": "application/json"} if content else {}
    with ExitStack() as stack:
        for patch in patches:
            stack.enter_context(patch)
        response = client.request(method, path, content=content, headers=headers)
    return Answer(response.status_code, dict(response.headers), response.content)


@pytest.fixture(scope="module")
def deadline_server() -> Iterator[str]:
    """A server with 1 s body and header deadlines and the default body cap."""
    with serving(
        "--body-timeout", str(DEADLINE), "--header-timeout", str(DEADLINE), "--no-access-log"
    ) as (url, _proc):
        yield url


@pytest.fixture(scope="module")
def answers(deadline_server: str) -> dict[tuple[str, str, str], Answer]:
    """Every probe's answer, per (method, path, probe); socket probes run concurrently."""
    jobs = {
        (method, path, name): probe(method, path)
        for method, path, _ in OPERATIONS
        for name, probe in SOCKET_PROBES.items()
    }
    with ThreadPoolExecutor(max_workers=32) as pool:
        futures = {key: pool.submit(_exchange, deadline_server, data) for key, data in jobs.items()}
        found = {key: future.result() for key, future in futures.items()}
    for method, path, _ in OPERATIONS:
        for name, patches_for in IN_PROCESS_PROBES.items():
            patches = patches_for(method, path)
            if patches is not None:
                found[method, path, name] = _in_process(method, path, patches)
    return found


def _schema_at(response: dict[str, Any]) -> Draft202012Validator:
    schema = response["content"]["application/json"]["schema"]
    return Draft202012Validator({**schema, "components": DOCUMENT["components"]})


def test_served_document_is_the_one_tested(deadline_server: str) -> None:
    """The server sends exactly the document these tests read."""
    request = _request("GET", "/openapi.json")
    assert dumps(DOCUMENT).encode() == _exchange(deadline_server, request).body


@pytest.mark.parametrize(
    ("method", "path", "operation"),
    OPERATIONS,
    ids=[f"{method} {path}" for method, path, _ in OPERATIONS],
)
def test_documented_statuses_are_exactly_those_answered(
    answers: dict[tuple[str, str, str], Answer],
    method: str,
    path: str,
    operation: dict[str, Any],
) -> None:
    """Each documented status is answered by some probe, and each answer is documented."""
    seen = {
        str(answer.status): probe
        for (m, p, probe), answer in answers.items()
        if (m, p) == (method, path)
    }
    assert sorted(operation["responses"]) == sorted(seen), seen


PROBE_CASES = [
    pytest.param(method, path, operation, probe, id=f"{method} {path} > {probe}")
    for method, path, operation in OPERATIONS
    for probe in [*SOCKET_PROBES, *IN_PROCESS_PROBES]
    if probe in SOCKET_PROBES or IN_PROCESS_PROBES[probe](method, path) is not None
]


@pytest.mark.parametrize(("method", "path", "operation", "probe"), PROBE_CASES)
def test_answer_is_as_documented(
    answers: dict[tuple[str, str, str], Answer],
    method: str,
    path: str,
    operation: dict[str, Any],
    probe: str,
) -> None:
    """The answer's status is documented, with its content type, schema and headers."""
    answer = answers[method, path, probe]
    response = operation["responses"].get(str(answer.status))
    assert response is not None, (answer.status, answer.body[:300])
    assert answer.headers["content-type"].startswith("application/json")
    errors = [e.message for e in _schema_at(response).iter_errors(json.loads(answer.body))]
    assert [] == errors
    for name, header in response.get("headers", {}).items():
        assert not header["required"] or name.lower() in answer.headers
    if answer.status == 405:
        allowed = {m.strip() for m in answer.headers["allow"].split(",")}
        assert {m.upper() for m in DOCUMENT["paths"][path]} <= allowed


def test_error_schemas_pin_the_code_of_each_status() -> None:
    """Every documented error status accepts its one code and refuses the others."""
    expected = {
        "400": "invalid_input",
        "405": "method_not_allowed",
        "408": "invalid_input",
        "413": "limit_exceeded",
        "415": "invalid_input",
        "422": "unsupported_input",
        "431": "limit_exceeded",
        "500": "internal_error",
        "503": "internal_error",
    }
    codes = DOCUMENT["components"]["schemas"]["ErrorEnvelope"]["properties"]["error"]["properties"][
        "code"
    ]["enum"]
    also = {("503", "overloaded"), ("504", "timeout")}  # the execute operations'
    accepted = {
        (status, code)
        for _, _, operation in OPERATIONS
        for status, response in operation["responses"].items()
        if status in expected or status in dict(also)
        for code in codes
        if _schema_at(response).is_valid({"error": {"code": code, "message": "m", "path": ""}})
    }
    assert set(expected.items()) | also == accepted
