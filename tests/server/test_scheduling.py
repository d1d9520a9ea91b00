"""Cost before work, classes and fair turns (server.executor, tools._cost): a request is
classed from its raw bytes before any work, its deadline comes from that cost, light work
never waits behind waiting heavy work, heavy work is taken a client at a time, and MCP's
execute runs on the same pool as HTTP."""

from __future__ import annotations

import contextlib
import json
import time
from typing import Any

import anyio
import httpx
import psutil
import pytest
from starlette.testclient import TestClient

from mtcompute._execute import execute
from mtcompute.server import executor
from mtcompute.server.admission import ADMISSION, MIN_DEADLINE, Admission
from mtcompute.server.app import create_app
from mtcompute.server.mcp import _body_of, _call_execute
from mtcompute.server.queueing import FairQueue, Job, Ticket
from mtcompute.server.supervisor import BodyWorker
from mtcompute.tools._cost import HEAVY_SECONDS, RequestCost, _samples, request_cost
from tests.conftest import load_script
from tests.server.serving import serving

PAIRED = "paired-significance"
SEGMENTS = ["the cat sat on a mat", "a dog ran", "it rains"] * 28


def _paired(samples: int | None) -> bytes:
    """A paired-significance body of about 4 KB asking ``samples`` resamples."""
    value: dict[str, Any] = {
        "baseline": SEGMENTS,
        "systems": [{"name": "b", "hypotheses": SEGMENTS}],
        "references": [[s] for s in SEGMENTS],
        "metrics": ["bleu"],
        "method": "bootstrap",
    }
    if samples is not None:
        value["samples"] = samples
    return json.dumps(value).encode()


def test_resamples_make_a_small_body_heavy() -> None:
    """A 4 KB paired-significance body asking 10,000 resamples is heavy; the same body with
    100 is light; with none, the method's default counts (1,000 for bootstrap)."""
    heavy, light, default = _paired(10000), _paired(100), _paired(None)
    assert len(heavy) < 4500
    assert (True, False, False) == (
        request_cost(PAIRED, heavy).heavy,
        request_cost(PAIRED, light).heavy,
        request_cost(PAIRED, default).heavy,
    )
    assert request_cost(PAIRED, heavy).seconds > 10 * request_cost(PAIRED, light).seconds


def test_an_unreadable_resample_count_counts_as_the_most() -> None:
    """A samples value out of range or not a count takes the worst allowed (20,000); the
    largest of several is taken."""
    written_oddly = _paired(10000).replace(b'"samples": 10000', b'"samples": 1e99')
    twice = _paired(5).replace(b'"samples": 5', b'"samples": 5, "samples": 7000')
    assert (20000, 20000, 20000, 7000) == (
        _samples(_paired(10**9)),
        _samples(written_oddly),
        _samples(_paired(20000)),
        _samples(twice),
    )


def test_ter_makes_a_ranking_or_a_paired_test_heavy() -> None:
    """TER's alignments cost system-ranking and paired-significance what they cost
    ter-compute: 48 KB asking TER with one resample is heavy (each computes in 0.3 to 0.4 s
    of CPU), the same body asking BLEU light."""
    words = [f"w{i % 400}" for i in range(0, 1024 * 7, 7)]
    hypothesis, references = " ".join(words), [" ".join(words[i:] + words[:i]) for i in range(8)]
    blocks = [words[i * 5 % 1024 : i * 5 % 1024 + 8] for i in range(0, 1024, 8)]
    other = " ".join(word for block in blocks for word in block)
    ranking = {
        "systems": [{"name": f"s{i}", "hypotheses": [hypothesis]} for i in range(2)],
        "references": [references],
        "metric": "ter",
        "samples": 1,
    }
    paired = {
        "baseline": [hypothesis],
        "systems": [{"name": "b", "hypotheses": [other]}],
        "references": [references],
        "metrics": ["ter"],
        "method": "bootstrap",
        "samples": 1,
    }
    classes = []
    for tool, value in (("system-ranking", ranking), (PAIRED, paired)):
        body = json.dumps(value).encode()
        assert 40_000 < len(body) < 60_000
        bleu = body.replace(b'"ter"', b'"bleu"')
        classes.append((request_cost(tool, body).heavy, request_cost(tool, bleu).heavy))
    assert [(True, False), (True, False)] == classes


def test_tokenizers_and_size_count() -> None:
    """The same bytes cost more through MeCab than through 13a, more through 13a than
    through none, and twice the bytes cost twice as much."""
    segments = ["机器翻译很有用。" * 40] * 200

    def cost(tokenizer: str, count: int = 200) -> float:
        value = {"segments": segments[:count], "tokenizer": tokenizer}
        return request_cost("bleu-tokenize", json.dumps(value).encode()).seconds

    assert cost("ja-mecab") > cost("13a") > cost("none")
    assert cost("zh", 200) == pytest.approx(2 * cost("zh", 100), rel=0.01)


def test_the_deadline_comes_from_the_cost_under_the_cap() -> None:
    """A light request gets the minimum deadline, a heavy one a multiple of its estimate,
    never more than the configured cap; a request of unknown cost gets the cap."""
    admission = Admission(max_queue=4, deadline=60.0)
    assert (MIN_DEADLINE, 32.0, 60.0, 60.0, 5.0) == (
        admission.deadline_for(RequestCost(0.01)),
        admission.deadline_for(RequestCost(8.0)),
        admission.deadline_for(RequestCost(100.0)),
        admission.deadline_for(None),
        Admission(4, 5.0).deadline_for(RequestCost(8.0)),
    )


def _job(client: str, heavy: bool, name: str) -> Job:
    seconds = HEAVY_SECONDS * 4 if heavy else 0.0
    return Job(name, "1.0.0", b"", Ticket(0.0), client, RequestCost(seconds), name)


def test_heavy_work_is_taken_a_client_at_a_time_and_light_work_first() -> None:
    """One client's 20 heavy requests do not starve another's: the queue takes light work
    first, then the heavy work of each client in turn."""
    jobs = FairQueue()
    for index in range(20):
        jobs.put(_job("greedy", True, f"g{index}"))
    jobs.put(_job("polite", True, "p0"))
    jobs.put(_job("polite", False, "light"))
    assert (1, 21) == (jobs.waiting(heavy=False), jobs.waiting(heavy=True))
    order = []
    for _ in range(5):
        job = jobs.get(0)
        assert job is not None
        order.append(job.request_id)
    assert ["light", "g0", "p0", "g1", "g2"] == order


def test_a_stopped_request_leaves_the_queue_at_once() -> None:
    """A waiting request whose client left is taken out of its class's queue (it no longer
    takes a place there), once; one already taken is not."""
    jobs = FairQueue()
    first, second, light = _job("a", True, "a0"), _job("a", True, "a1"), _job("b", False, "l")
    for job in (first, second, light):
        jobs.put(job)
    taken = jobs.get(0)
    assert (taken, True, False, True, False) == (
        light,
        jobs.discard(second),
        jobs.discard(second),
        jobs.discard(first),
        jobs.discard(light),
    )
    assert (0, 0) == (jobs.waiting(heavy=True), jobs.waiting(heavy=False))


def test_one_admission_object() -> None:
    """The body worker admits under the server's one Admission (the worker threads' too)."""
    assert BodyWorker().admission is ADMISSION


def test_a_full_heavy_queue_does_not_refuse_light_work(monkeypatch: pytest.MonkeyPatch) -> None:
    """With one heavy request computing and max_queue heavy ones waiting, another heavy one
    is refused overloaded, while a light large body is admitted and answered first."""
    app = create_app(access_log="off", max_queue=1)
    # seconds of work, so that the first is still computing when the others come
    zh = json.dumps({"segments": ["机器翻译很有用。" * 100] * 3000, "tokenizer": "zh"}).encode()
    light = json.dumps({"hypotheses": ["x" * 5000], "references": ["x"]}).encode()
    worker: BodyWorker = app.state.body_worker
    with TestClient(app) as client:
        while client.get("/readyz").status_code != 200:
            time.sleep(0.05)
        tickets = [worker.submit("bleu-tokenize", "1.0.0", zh, "a")]
        taken = time.monotonic() + 60
        while not any(worker.computing):  # a process took it: nothing waits
            assert time.monotonic() < taken, "the body worker never took the first request"
            time.sleep(0.01)
        tickets.append(worker.submit("bleu-tokenize", "1.0.0", zh, "a"))  # it waits
        with pytest.raises(executor.Overloaded, match="1 heavy requests wait"):
            worker.submit("bleu-tokenize", "1.0.0", zh, "b")
        cheap = worker.submit("chrf-compute", "1.0.0", light, "c")
        status, _ = cheap.result(timeout=60)
        heavy_done = [t.done() for t in tickets]
        for ticket in tickets:
            ticket.stop()
    assert (200, False) == (status, heavy_done[1])


def test_mcp_heavy_execute_runs_in_the_body_worker() -> None:
    """MCP's execute on the HTTP server: a heavy input goes to the body worker process (the
    same pool, classes and deadlines as HTTP) and answers the envelope execute() gives; a
    light one stays in the server."""
    app = create_app(access_log="off")
    worker: BodyWorker = app.state.body_worker
    heavy: Any = json.loads(_paired(10000))
    light = {"hypotheses": ["aa"], "references": ["ab"]}

    async def call(value: object, tool: str) -> Any:
        arguments = {"id": tool, "version": "1.0.0", "input": value}
        return await _call_execute(arguments, worker, "address:192.0.2.1")

    with TestClient(app):
        result = anyio.run(call, heavy, PAIRED)
        in_process = worker.answered
        small = anyio.run(call, light, "chrf-compute")
    expected = execute(PAIRED, "1.0.0", heavy)
    assert (expected.json_text(), False, 1) == (result.content[0].text, result.is_error, in_process)
    assert (execute("chrf-compute", "1.0.0", light).json_text(), 1) == (
        small.content[0].text,
        worker.answered,
    )


def test_mcp_sends_the_body_worker_the_numbers_as_given() -> None:
    """MCP's execute writes its input's JSON for the body worker with every number exact (a
    large integer is not rounded as JavaScript would), and keeps an input with no JSON text
    (an infinity, a lone surrogate) in this process."""
    assert (b'{"n":1152921504606846977,"s":"\xc3\xa9"}', None, None) == (
        _body_of({"n": 2**60 + 1, "s": "é"}),
        _body_of({"n": float("inf")}),
        _body_of({"s": "\ud800"}),
    )


def test_in_the_body_worker_the_cost_bounds_computing_not_waiting() -> None:
    """A body worker ticket's time to compute (from its cost) starts when its computation
    does, so waiting its turn does not use it up; the total deadline still bounds both."""
    now = time.monotonic()
    waited_long = Ticket(now + 60, 60, compute=10.0)
    near_the_cap = Ticket(now + 2, 2, compute=10.0)
    waited_long.begin()
    near_the_cap.begin()
    assert (10.0, 2) == (waited_long.seconds, near_the_cap.seconds)
    assert now + 10 <= waited_long.deadline < now + 11
    assert now + 2 == near_the_cap.deadline


def test_an_mcp_client_that_leaves_has_its_heavy_work_stopped() -> None:
    """An MCP client that disconnects while its heavy execute computes in the body worker:
    the process is killed within a second (the work stopped, as for an HTTP client)."""
    # paired-significance's slowest allowed input (scripts/cost_ceilings.py): seconds of work
    value = load_script("cost_ceilings").WORST[("paired-significance", "1.0.0")]()
    call = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {
            "name": "execute",
            "arguments": {"id": "paired-significance", "version": "1.0.0", "input": value},
        },
    }
    headers = {
        "content-type": "application/json",
        "accept": "application/json, text/event-stream",
        "mcp-protocol-version": "2025-06-18",
    }
    with serving("--no-access-log", "--compute-workers", "1") as (url, proc):  # the one process
        server = psutil.Process(proc.pid)
        deadline = time.monotonic() + 30
        workers: list[psutil.Process] = []
        while not workers and time.monotonic() < deadline:
            time.sleep(0.05)
            workers = [
                child
                for child in server.children(recursive=True)
                if "mtcompute.server._body_worker" in " ".join(child.cmdline())
            ]
        with pytest.raises(httpx.ReadTimeout):
            httpx.post(url + "/mcp", json=call, headers=headers, timeout=0.5)
        left = time.monotonic()
        with contextlib.suppress(psutil.TimeoutExpired):
            workers[0].wait(timeout=5)
        stopped = time.monotonic() - left
    assert stopped < 1.0, stopped
