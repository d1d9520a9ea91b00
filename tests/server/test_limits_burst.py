"""429s under a burst and nothing else lost: a burst above --rate-limit over every tool's
examples (computed on the event loop and on both workers) gets exactly the over-limit
requests refused, and every other one its exact envelope (mtcompute.server.limits,
mtcompute.server.executor)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest

import mtcompute
from mtcompute._execute import INLINE_BUDGET, estimate
from mtcompute.contracts import contract
from mtcompute.server.executor import LANE_BUDGET
from mtcompute.server.limits import ApiKeys
from mtcompute.tools import list_tools
from tests.server.serving import serving

KEY = "burst-key-3c1e"
LIMIT = 12  # requests per hour for the key: no token comes back during the test
EXAMPLES = [
    (tool.id, tool.version, example["input"])
    for tool in list_tools()
    for example in contract(tool.id, tool.version)["examples"]
]


@pytest.fixture(scope="module")
def limited(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server allowing each client LIMIT requests an hour (KEY is one client)."""
    keys = tmp_path_factory.mktemp("burst") / "keys.txt"
    keys.write_text(ApiKeys.digest(KEY) + "\n")
    with serving("--rate-limit", f"{LIMIT}/hour", "--api-keys", str(keys), "--no-access-log") as (
        url,
        _proc,
    ):
        yield url


def _rate_limited(retry_after: int) -> bytes:
    message = (
        f"Too many requests: at most {LIMIT} per hour per client; retry after {retry_after} s."
    )
    return mtcompute.dumps(
        {"error": {"code": "rate_limited", "message": message, "path": ""}}
    ).encode()


def test_burst_over_the_limit_loses_nothing_else(limited: str) -> None:
    """3 x LIMIT execute requests at once (every tool's examples in turn, 16 connections):
    exactly LIMIT answered, each with its status and envelope byte for byte as the library
    computes it; the other 2 x LIMIT get 429, Retry-After and the rate_limited envelope."""
    burst = [EXAMPLES[i % len(EXAMPLES)] for i in range(3 * LIMIT)]
    headers = {"authorization": f"Bearer {KEY}", "content-type": "application/json"}

    def post(client: httpx.Client, item: tuple[str, str, object]) -> httpx.Response:
        tool_id, version, raw = item
        path = f"/v1/tools/{tool_id}/versions/{version}/execute"
        return client.post(path, content=json.dumps(raw), headers=headers)

    with httpx.Client(base_url=limited, timeout=60) as client, ThreadPoolExecutor(16) as pool:
        answers = list(pool.map(lambda item: post(client, item), burst))
    served, refused, wrong = 0, 0, []
    for (tool_id, version, raw), answer in zip(burst, answers, strict=True):
        if answer.status_code == 429:
            retry = answer.headers.get("retry-after", "")
            refused += 1
            if not (retry.isdigit() and 1 <= int(retry) <= 3600):
                wrong.append(f"{tool_id}: Retry-After {retry!r}")
            elif answer.content != _rate_limited(int(retry)):
                wrong.append(f"{tool_id}: 429 body {answer.content[:80]!r}")
            continue
        served += 1
        envelope = mtcompute.execute(tool_id, version, raw)
        if (answer.status_code, answer.content) != (envelope.http_status, envelope.json_bytes()):
            wrong.append(f"{tool_id}@{version}: {answer.status_code} {answer.content[:80]!r}")
    assert (LIMIT, 2 * LIMIT, []) == (served, refused, wrong)


def test_the_burst_covers_every_worker() -> None:
    """The burst's examples include inputs computed on the event loop, on the moderate worker
    and on the heavy one (so the test above crosses every path)."""
    assert {"inline", "moderate", "heavy"} == {
        _path(tool_id, version, raw) for tool_id, version, raw in EXAMPLES[: 3 * LIMIT]
    }


def _path(tool_id: str, version: str, raw: object) -> str:
    units = estimate(tool_id, version, raw, LANE_BUDGET)
    if units is not None and units <= INLINE_BUDGET:
        return "inline"
    return "moderate" if units is not None and units <= LANE_BUDGET else "heavy"
