"""The execute route ahead of the router (server.app.ExecuteRoute): the same answers as the
routed endpoint, without the router, and nothing sent to a client that left."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable

import anyio
import pytest
from starlette.applications import Starlette
from starlette.routing import Router
from starlette.testclient import TestClient
from starlette.types import Message, Receive, Scope, Send

from mtcompute.contracts import contract, contract_ids
from mtcompute.server.app import ExecuteEndpoint, ExecuteRoute, create_app
from mtcompute.server.executor import BodyWorker
from mtcompute.server.responses import json_response, send_answer

JSON = {"content-type": "application/json"}
EXAMPLE = "/v1/tools/chrf-compute/versions/1.0.0/execute"

# (path, body, headers): every contract example, and each way a request can fail
REQUESTS = [
    (
        f"/v1/tools/{tid}/versions/{ver}/execute",
        json.dumps(ex["input"], ensure_ascii=False).encode(),
        JSON,
    )
    for tid, ver in contract_ids()
    for ex in contract(tid, ver)["examples"]
] + [
    (EXAMPLE, b'{"hypotheses": ["a"]', JSON),  # not JSON
    (EXAMPLE, b'{"hypotheses": ["a"]}', JSON),  # a missing key
    (EXAMPLE, b"\xff", JSON),  # not UTF-8
    (EXAMPLE, b'{"hypotheses":["a"],"references":["a"]}', {"content-type": "text/plain"}),
    (EXAMPLE, b'{"hypotheses":["a"],"references":["a"]}', {}),  # no Content-Type at all
    ("/v1/tools/no-such-tool/versions/1.0.0/execute", b"{}", JSON),
    ("/v1/tools/chrf-compute/versions/9.9.9/execute", b"{}", JSON),
    (EXAMPLE, json.dumps({"hypotheses": ["a" * 5000], "references": ["b"]}).encode(), JSON),
    (EXAMPLE + "/", b"{}", JSON),  # not an execute path: the router's answer
]


def _routed_only() -> Starlette:
    """The application without the route ahead of the router (the router's endpoint only)."""
    app = create_app()
    app.user_middleware = [m for m in app.user_middleware if m.cls is not ExecuteRoute]
    return app


def _answers(app: Starlette) -> list[tuple[int, list[tuple[str, str]], bytes]]:
    with TestClient(app, follow_redirects=False) as client:
        answers = []
        for path, body, headers in REQUESTS:
            response = client.post(path, content=body, headers=headers)
            answers.append((response.status_code, response.headers.items(), response.content))
        return answers


def test_route_ahead_of_the_router_answers_as_the_routed_endpoint() -> None:
    """Every example and every refusal: the same status, headers and bytes either way."""
    assert _answers(_routed_only()) == _answers(create_app())


def test_execute_request_skips_the_router(monkeypatch: pytest.MonkeyPatch) -> None:
    """A POST to an execute path never reaches the router; other requests do."""
    routed: list[str] = []
    original = Router.__call__

    async def recording(self: Router, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            routed.append(f"{scope['method']} {scope['path']}")
        await original(self, scope, receive, send)

    monkeypatch.setattr(Router, "__call__", recording)
    with TestClient(create_app()) as client:
        body = {"hypotheses": ["aa"], "references": ["ab"], "beta": 3}
        executed = client.post(EXAMPLE, json=body)
        refused = client.get(EXAMPLE)
        health = client.get("/healthz")
    assert (200, 405, 200, [f"GET {EXAMPLE}", "GET /healthz"]) == (
        executed.status_code,
        refused.status_code,
        health.status_code,
        routed,
    )


def test_client_that_leaves_before_its_body_gets_no_answer() -> None:
    """A disconnect while the body is read: nothing is sent, nothing raised."""
    sent: list[Message] = []
    messages: list[Message] = [
        {"type": "http.request", "body": b'{"hypo', "more_body": True},
        {"type": "http.disconnect"},
    ]

    async def receive() -> Message:
        return messages.pop(0)

    async def send(message: Message) -> None:
        sent.append(message)

    scope: Scope = {
        "type": "http",
        "method": "POST",
        "path": EXAMPLE,
        "root_path": "",
        "headers": [(b"content-type", b"application/json")],
    }
    worker = BodyWorker()
    try:
        anyio.run(ExecuteEndpoint(worker), scope, receive, send)
    finally:
        worker.close()
    assert ([], []) == (sent, messages)


@pytest.mark.parametrize("status", [200, 400, 404, 413, 415, 422, 500])
def test_send_answer_sends_what_json_response_sends(status: int) -> None:
    """The execute route's answers: the messages (status, headers, body) of json_response."""
    body = '{"result":{"score":"25.000000","é":1}}'.encode()

    async def messages(answer: Callable[[Send], Awaitable[None]]) -> list[Message]:
        sent: list[Message] = []

        async def send(message: Message) -> None:
            sent.append(message)

        await answer(send)
        return sent

    async def receive() -> Message:
        return {"type": "http.request", "body": b""}

    scope: Scope = {"type": "http", "method": "POST", "path": "/", "headers": []}
    expected = anyio.run(messages, lambda send: json_response(body, status)(scope, receive, send))
    assert expected == anyio.run(messages, lambda send: send_answer(send, (status, body)))
