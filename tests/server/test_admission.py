"""Admission: bounded queues (503 ``overloaded`` with ``Retry-After``), per-request deadlines
(504 ``timeout``) and the work of a client that left stopped (server.executor)."""

from __future__ import annotations

import contextlib
import json
import signal
import threading
import time
from collections.abc import Iterator
from typing import Any

import anyio
import httpx
import psutil
import pytest
from starlette.testclient import TestClient

from mtcompute.contracts import contract
from mtcompute.server import executor
from mtcompute.server.app import create_app
from mtcompute.server.executor import INLINE_BODY_BYTES, BodyWorker
from tests.conftest import load_script
from tests.server.mcp_client import mcp_client
from tests.server.serving import serving

PAIRED = HEAVY = "/v1/tools/paired-significance/versions/1.0.0/execute"
CHRF = "/v1/tools/chrf-compute/versions/1.0.0/execute"
HEADERS = {"content-type": "application/json"}

# The slowest input paired-significance's limits allow (scripts/cost_ceilings.py: 16 systems,
# 700 segments, 20,000 AR trials of BLEU, chrF and TER; 0.7 MB): seconds of the body worker.
HEAVY_INPUT = load_script("cost_ceilings").WORST[("paired-significance", "1.0.0")]()
HEAVY_BODY = json.dumps(HEAVY_INPUT).encode()
# A large body that computes at once (chrF of one long pair).
CHEAP_BODY = json.dumps({"hypotheses": ["x" * INLINE_BODY_BYTES], "references": ["x"]}).encode()
SMALL = json.dumps({"hypotheses": ["aa"], "references": ["ab"]}).encode()


PAIRED_INPUT = json.dumps(
    contract("paired-significance", "1.0.0")["examples"][2]["input"], ensure_ascii=False
).encode()  # no cost estimate: the heavy worker thread


@pytest.fixture
def slow_threads(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every computation on a worker thread takes a second longer (a heavy input)."""
    real = executor.execute

    def slow(*args: Any) -> Any:
        time.sleep(1.0)
        return real(*args)

    monkeypatch.setattr(executor, "execute", slow)


def _post(url: str, path: str, body: bytes, answers: list[httpx.Response]) -> threading.Thread:
    """POST in a thread, its response appended to ``answers``."""

    def send() -> None:
        answers.append(httpx.post(url + path, content=body, headers=HEADERS, timeout=60))

    thread = threading.Thread(target=send)
    thread.start()
    return thread


def _timed(url: str, path: str, body: bytes) -> tuple[float, httpx.Response]:
    start = time.monotonic()
    answer = httpx.post(url + path, content=body, headers=HEADERS, timeout=60)
    return time.monotonic() - start, answer


@pytest.fixture(scope="module")
def no_queue() -> Iterator[str]:
    """A server whose workers have no queue: one request each, the next refused (one body
    worker process: the pool's rule, a process left for light work, is tested apart)."""
    with serving("--max-queue", "0", "--compute-workers", "1", "--no-access-log") as (url, _):
        yield url


def test_a_full_body_queue_is_refused_overloaded_at_once(no_queue: str) -> None:
    """While the body worker computes a large body, one more large body (no queue) is
    answered 503 overloaded with Retry-After at once; the one computing is answered; a cheap
    request (on the event loop) is answered meanwhile."""
    answers: list[httpx.Response] = []
    thread = _post(no_queue, HEAVY, HEAVY_BODY, answers)
    time.sleep(0.5)  # the heavy body is in the worker (it computes for seconds)
    seconds, refused = _timed(no_queue, CHRF, CHEAP_BODY)
    cheap_seconds, cheap = _timed(no_queue, CHRF, SMALL)
    thread.join()
    error = refused.json()["error"]
    assert (503, "overloaded", "2", True, 200, 200) == (
        refused.status_code,
        error["code"],
        refused.headers.get("retry-after"),
        error["message"].startswith("Overloaded: 0 large request bodies wait"),
        cheap.status_code,
        answers[0].status_code,
    )
    assert seconds < 1.0, seconds  # not queued behind the heavy body's seconds
    assert cheap_seconds < 1.0, cheap_seconds


def test_a_full_thread_queue_is_refused_overloaded_at_once(slow_threads: None) -> None:
    """While the heavy worker thread computes, one more input for it (no queue) is answered
    503 overloaded with Retry-After at once; a cheap input is answered meanwhile."""
    app = create_app(access_log="off", max_queue=0)
    answers: list[httpx.Response] = []
    with TestClient(app) as client:

        def send() -> None:
            answers.append(client.post(PAIRED, content=PAIRED_INPUT, headers=HEADERS))

        thread = threading.Thread(target=send)
        thread.start()
        time.sleep(0.3)
        start = time.monotonic()
        refused = client.post(PAIRED, content=PAIRED_INPUT, headers=HEADERS)
        seconds = time.monotonic() - start
        cheap = client.post(CHRF, content=SMALL, headers=HEADERS)
        thread.join()
    assert (503, "overloaded", "2", 200, 200) == (
        refused.status_code,
        refused.json()["error"]["code"],
        refused.headers.get("retry-after"),
        cheap.status_code,
        answers[0].status_code,
    )
    assert seconds < 0.5, seconds


def test_past_its_deadline_a_body_is_stopped_and_answered_timeout() -> None:
    """A large body still computing at its deadline: 504 timeout at the deadline, its worker
    process killed and replaced; the next body computes."""
    app = create_app(access_log="off", deadline=1.0, compute_workers=1)  # the one process
    worker: BodyWorker = app.state.body_worker
    with TestClient(app) as client:
        while client.get("/readyz").status_code != 200:  # the process has started
            time.sleep(0.05)
        assert 200 == client.post(CHRF, content=CHEAP_BODY, headers=HEADERS).status_code
        first = worker.pid
        start = time.monotonic()
        late = client.post(HEAVY, content=HEAVY_BODY, headers=HEADERS)
        seconds = time.monotonic() - start
        gone = not psutil.pid_exists(first or 0) or psutil.Process(first).status() == "zombie"
        # The replacement imports the tools before it says READY: a body sent earlier waits
        # for it within its own 1 s deadline, which a loaded machine can pass.
        ready_by = time.monotonic() + 30
        while client.get("/readyz").status_code != 200 and time.monotonic() < ready_by:
            time.sleep(0.05)
        after = client.post(CHRF, content=CHEAP_BODY, headers=HEADERS)
        replaced = worker.pid
    assert (504, "timeout", True, 200) == (
        late.status_code,
        late.json()["error"]["code"],
        gone,
        after.status_code,
    )
    assert replaced not in (None, first)
    assert seconds < 2.0, seconds


def test_past_its_deadline_a_worker_thread_answer_is_timeout(slow_threads: None) -> None:
    """A parsed input still computing on a worker thread at its deadline: 504 timeout at
    the deadline (the computation ends in the background); a cheap request is answered."""
    app = create_app(access_log="off", deadline=0.3)
    with TestClient(app) as client:
        start = time.monotonic()
        late = client.post(PAIRED, content=PAIRED_INPUT, headers=HEADERS)
        seconds = time.monotonic() - start
        cheap = client.post(CHRF, content=SMALL, headers=HEADERS)
    assert (504, "timeout", 200) == (
        late.status_code,
        late.json()["error"]["code"],
        cheap.status_code,
    )
    assert seconds < 0.8, seconds


def _body_worker(server: psutil.Process) -> psutil.Process:
    """The server's body worker process (waits for it to start)."""
    deadline = time.monotonic() + 30
    while True:
        for child in server.children(recursive=True):
            try:
                if "mtcompute.server._body_worker" in child.cmdline():
                    return child
            except psutil.NoSuchProcess:
                continue
        assert time.monotonic() < deadline, "no body worker process"
        time.sleep(0.05)


def test_a_client_that_leaves_has_its_body_stopped() -> None:
    """A client that disconnects while its large body computes: the body worker process is
    killed within a second (and replaced), and the next requests are answered at once."""
    with serving("--no-access-log", "--compute-workers", "1") as (url, proc):  # the one process
        server = psutil.Process(proc.pid)
        httpx.post(url + CHRF, content=CHEAP_BODY, headers=HEADERS, timeout=60)
        worker = _body_worker(server)
        with pytest.raises(httpx.ReadTimeout):
            httpx.post(url + HEAVY, content=HEAVY_BODY, headers=HEADERS, timeout=0.5)
        left = time.monotonic()
        with contextlib.suppress(psutil.TimeoutExpired):
            worker.wait(timeout=5)
        stopped = time.monotonic() - left
        small_seconds, small = _timed(url, CHRF, SMALL)
        large_seconds, large = _timed(url, CHRF, CHEAP_BODY)
        replaced = _body_worker(server).pid
    assert (200, 200, True) == (small.status_code, large.status_code, replaced != worker.pid)
    assert stopped < 1.0, stopped
    assert small_seconds < 0.5, small_seconds
    assert large_seconds < 5, large_seconds


def test_sigterm_answers_what_outlasts_the_grace_with_the_envelope() -> None:
    """SIGTERM while large bodies compute and wait, with a 1 s grace period: every request
    gets a JSON envelope (503 overloaded, "shutting down", with Retry-After, for those that
    outlast the grace; never uvicorn's plain-text 500), soon after the grace, and the server
    exits 0."""
    with serving("--shutdown-grace", "1", "--no-access-log") as (url, proc):
        answers: list[httpx.Response] = []
        threads = [_post(url, HEAVY, HEAVY_BODY, answers) for _ in range(4)]
        time.sleep(0.7)  # one computes, three wait
        stopped = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        for thread in threads:
            thread.join()
        seconds = time.monotonic() - stopped
        status = proc.wait(15)
    outcomes = sorted(
        (a.status_code, a.headers["content-type"], a.json().get("error", {}).get("code"))
        for a in answers
    )
    refused = [a for a in answers if a.status_code == 503]
    assert 4 == len(outcomes)
    assert all(o[1] == "application/json" for o in outcomes)
    assert {(503, "application/json", "overloaded")} >= {o for o in outcomes if o[0] != 200}
    assert all(a.headers.get("retry-after") == "2" for a in refused)
    assert all("shutting down" in a.json()["error"]["message"] for a in refused)
    assert (0, True) == (status, seconds < 5), seconds


def test_mcp_execute_past_its_deadline_is_the_timeout_envelope() -> None:
    """MCP execute shares the worker threads' deadline: an input that computes longer than
    it is the timeout envelope with isError true."""
    value: dict[str, Any] = json.loads(PAIRED_INPUT)
    segments = ["the cat sat on a mat"] * 22
    value.update(  # 20,000 resamples of two metrics for four systems: a tenth of a second or more
        samples=20000,
        metrics=["bleu", "chrf"],
        baseline=segments,
        systems=[{"name": f"s{i}", "hypotheses": segments} for i in range(4)],
        references=[[s] for s in segments],
    )

    async def call(url: str) -> Any:
        async with mcp_client(url, "http", "auto") as client:
            arguments = {"id": "paired-significance", "version": "1.0.0", "input": value}
            return await client.call_tool("execute", arguments)

    with serving("--deadline", "0.05", "--no-access-log") as (url, _proc):
        result = anyio.run(call, url)
    error = (result.structured_content or {}).get("error", {})
    assert (True, "timeout") == (result.is_error, error.get("code"))
