"""The body cap on /mcp: 413 with a JSON-RPC error that MCP clients read, never plain text.

Against ``mtcompute serve`` with ``--max-body-bytes 4096`` (the same setting as the tool
routes), through raw HTTP and through the SDK's own client in both protocol eras; and on the
default server, a declared body over the default cap is refused before any of it is sent.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx
import mcp_types as types
import pytest
from mcp import Client, MCPError

from mtcompute.server.app import DEFAULT_MAX_BODY_BYTES
from tests.conftest import send_unsent_body
from tests.server.serving import serving

CAP = 4096
ACCEPT = {"Accept": "application/json, text/event-stream"}


def refusal(message: str) -> dict[str, Any]:
    """The JSON-RPC error an over-cap body gets: Invalid Request, id null (the body is not
    read), the service's envelope as data."""
    envelope = {"error": {"code": "limit_exceeded", "message": message, "path": ""}}
    return {
        "jsonrpc": "2.0",
        "id": None,
        "error": {"code": types.INVALID_REQUEST, "message": message, "data": envelope},
    }


def padded_ping(size: int) -> bytes:
    """A JSON-RPC ping of exactly ``size`` bytes (whitespace before the closing brace)."""
    body = b'{"jsonrpc":"2.0","id":1,"method":"ping"}'
    return body[:-1] + b" " * (size - len(body)) + b"}"


@pytest.fixture(scope="module")
def small_cap_server() -> Iterator[str]:
    """A server started with --max-body-bytes 4096."""
    with serving("--max-body-bytes", str(CAP)) as (url, _proc):
        yield url


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    """The SDK client runs on asyncio."""
    return "asyncio"


def test_body_at_the_cap_is_answered_and_one_byte_more_is_refused(small_cap_server: str) -> None:
    """4096 bytes get the ping's result; 4097 get 413 and the JSON-RPC error, as JSON."""
    answers = [
        httpx.post(
            small_cap_server + "/mcp",
            content=padded_ping(size),
            headers={**ACCEPT, "content-type": "application/json"},
        )
        for size in (CAP, CAP + 1)
    ]
    message = f"Expected a request body of at most {CAP} bytes, got {CAP + 1} (Content-Length)."
    assert [
        (200, {"jsonrpc": "2.0", "id": 1, "result": {}}),
        (413, refusal(message)),
    ] == [(answer.status_code, answer.json()) for answer in answers]
    assert answers[1].headers["content-type"] == "application/json"


def test_chunked_body_is_refused_once_it_passes_the_cap(small_cap_server: str) -> None:
    """A body without Content-Length is counted as it arrives and refused past the cap."""

    def chunks() -> Iterator[bytes]:
        yield b'{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"'
        for _ in range(50):
            yield b"a" * 100
        yield b'"}}'

    answer = httpx.post(
        small_cap_server + "/mcp",
        content=chunks(),
        headers={**ACCEPT, "content-type": "application/json"},
    )
    message = (
        f"Expected a request body of at most {CAP} bytes, got more; the body was not read further."
    )
    assert (413, refusal(message)) == (answer.status_code, answer.json())


def test_declared_body_over_the_default_cap_is_refused_unread(server_url: str) -> None:
    """The default server refuses a Content-Length over its cap before any byte is sent."""
    reply = send_unsent_body(
        server_url,
        b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b"Accept: application/json\r\n"
        + f"Content-Length: {DEFAULT_MAX_BODY_BYTES + 1}\r\n\r\n".encode(),
        b"}}}",
    )
    head, _, body = reply.partition(b"\r\n\r\n")
    message = (
        f"Expected a request body of at most {DEFAULT_MAX_BODY_BYTES} bytes, "
        f"got {DEFAULT_MAX_BODY_BYTES + 1} (Content-Length)."
    )
    assert (b"HTTP/1.1 413 Request Entity Too Large", refusal(message)) == (
        head.split(b"\r\n")[0],
        json.loads(body),
    )


def test_body_over_the_sdk_default_but_under_the_cap_is_answered(server_url: str) -> None:
    """A 5 MiB request (over the SDK's own 4 MiB default, under the service's cap) is served."""
    answer = httpx.post(
        server_url + "/mcp",
        content=padded_ping(5 << 20),
        headers={**ACCEPT, "content-type": "application/json"},
        timeout=30,
    )
    assert (200, {"jsonrpc": "2.0", "id": 1, "result": {}}) == (answer.status_code, answer.json())


@pytest.mark.anyio
@pytest.mark.parametrize("mode", ["legacy", "auto"])
async def test_sdk_client_raises_the_refusal_and_keeps_working(
    small_cap_server: str, mode: str
) -> None:
    """The SDK client raises MCPError with the code, message and envelope; the next call works."""
    arguments = {
        "id": "chrf-compute",
        "version": "1.0.0",
        "input": {"hypotheses": ["a" * CAP], "references": ["a"]},
    }
    async with Client(f"{small_cap_server}/mcp", mode=mode, read_timeout_seconds=30) as client:
        with pytest.raises(MCPError) as raised:
            await client.call_tool("execute", arguments)
        after = await client.call_tool("list_catalog", {})
    error = raised.value
    assert (types.INVALID_REQUEST, "limit_exceeded", "") == (
        error.code,
        error.data["error"]["code"],
        error.data["error"]["path"],
    )
    assert error.message.startswith(f"Expected a request body of at most {CAP} bytes, got ")
    assert error.message == error.data["error"]["message"]
    assert after.is_error is False
