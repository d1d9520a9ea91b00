"""The body deadline is a minimum upload rate, not a whole-body deadline
(server.middleware.BodyDeadlineMiddleware): a body that keeps arriving at the rate is read
whole however long it takes; one that trickles is cut with 408 after the timeout. A body in a
compressed transfer coding is refused clearly."""

from __future__ import annotations

import gzip
import json
from typing import Any

import anyio
import pytest
from starlette.testclient import TestClient
from starlette.types import Message, Receive, Scope, Send

from mtcompute.server.app import create_app
from mtcompute.server.middleware import BodyDeadlineMiddleware

CHRF = "/v1/tools/chrf-compute/versions/1.0.0/execute"


async def _upload(chunk: int, count: int, every: float, min_rate: float) -> tuple[int, Any]:
    """Send ``count`` chunks of ``chunk`` bytes, one every ``every`` seconds, through the
    middleware (timeout 0.3 s) to an app that reads the body and answers 200 with its size:
    (status, answer)."""
    total = chunk * count
    sent: list[Message] = []

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        size = 0
        while True:
            message = await receive()
            size += len(message.get("body", b""))
            if not message.get("more_body", False):
                break
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": json.dumps(size).encode()})

    chunks = iter(range(count))

    async def receive() -> Message:
        index = next(chunks, None)
        if index is None:
            await anyio.sleep(60)
            return {"type": "http.disconnect"}
        await anyio.sleep(every)
        return {"type": "http.request", "body": b"x" * chunk, "more_body": index < count - 1}

    async def send(message: Message) -> None:
        sent.append(message)

    scope: Scope = {
        "type": "http",
        "method": "POST",
        "path": "/v1/tools",
        "headers": [(b"content-length", str(total).encode())],
    }
    middleware = BodyDeadlineMiddleware(app, timeout=0.3, min_rate=min_rate)
    await middleware(scope, receive, send)
    status = sent[0]["status"]
    body = b"".join(m.get("body", b"") for m in sent[1:])
    return status, json.loads(body)


def test_a_body_at_the_minimum_rate_arrives_however_long_it_takes() -> None:
    """6 chunks of 500 bytes over 1.2 s (2,500 B/s, the minimum 1,000 B/s): read whole,
    though the 0.3 s timeout passed long before."""
    assert (200, 3000) == anyio.run(_upload, 500, 6, 0.2, 1000.0)


def test_a_trickling_body_is_cut_after_the_timeout() -> None:
    """10 bytes every 0.2 s (50 B/s, under the minimum): 408 invalid_input, the message
    naming the time the body had."""
    status, answer = anyio.run(_upload, 10, 20, 0.2, 1000.0)
    assert (408, "invalid_input") == (status, answer["error"]["code"])
    assert answer["error"]["message"].startswith("Expected the request body within 0.3 s")


def test_no_minimum_rate_is_a_whole_body_deadline() -> None:
    """With a minimum rate of 0, the body at 2,500 B/s is cut after the 0.3 s timeout."""
    assert 408 == anyio.run(_upload, 500, 6, 0.2, 0.0)[0]


@pytest.mark.parametrize("coding", ["gzip, chunked", "deflate, chunked", "chunked, gzip"])
def test_a_compressed_transfer_coding_is_refused_clearly(coding: str) -> None:
    """A body in a transfer coding other than chunked is refused before it is read: 400
    invalid_input naming the coding and saying what to send instead; on /mcp the same inside
    a JSON-RPC error."""
    app = create_app(access_log="off")
    headers = {"content-type": "application/json", "transfer-encoding": coding}
    message = (
        f'Expected no Transfer-Encoding but "chunked", got "{coding}": compressed transfer '
        "codings are not supported; send the body uncompressed, chunked or with a "
        "Content-Length."
    )
    body = gzip.compress(b'{"hypotheses": ["a"], "references": ["a"]}')
    with TestClient(app) as client:
        tool = client.post(
            "/v1/tools/chrf-compute/versions/1.0.0/execute", content=body, headers=headers
        )
        mcp = client.post("/mcp", content=body, headers={**headers, "accept": "application/json"})
    assert (400, {"error": {"code": "invalid_input", "message": message, "path": ""}}) == (
        tool.status_code,
        tool.json(),
    )
    assert (400, message) == (mcp.status_code, mcp.json()["error"]["data"]["error"]["message"])
