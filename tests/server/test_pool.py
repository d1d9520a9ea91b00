"""The body worker pool (server.supervisor.BodyWorker with N processes, issue 27 item 2): at
most N-1 processes take heavy work, so a light large body is answered while heavy bodies
compute and wait, over HTTP and MCP alike; a process killed mid-run fails only its own body,
is replaced and logged while the others answer; /readyz turns red only when no process can
compute, names each process's trouble, and comes back; `mtcompute serve --compute-workers`
starts the pool and ends it with the server."""

from __future__ import annotations

import json
import logging
import os
import queue
import resource
import signal
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from unittest import mock

import anyio
import pytest
from starlette.testclient import TestClient

from mtcompute.server import supervisor
from mtcompute.server.app import create_app
from mtcompute.server.executor import INLINE_BODY_BYTES, BodyWorker
from mtcompute.server.mcp import _call_execute
from mtcompute.server.queueing import FairQueue, Job, Ticket
from mtcompute.tools._cost import HEAVY_SECONDS, RequestCost
from tests.conftest import load_script, start_server
from tests.server.test_body_worker import _children, _process_gone
from tests.server.test_public_service import _wait_for

PAIRED = "paired-significance"
CHRF = "/v1/tools/chrf-compute/versions/1.0.0/execute"
HEADERS = {"content-type": "application/json"}
# paired-significance's slowest allowed input (scripts/cost_ceilings.py): seconds of work.
HEAVY_INPUT = load_script("cost_ceilings").WORST[(PAIRED, "1.0.0")]()
HEAVY_BODY = json.dumps(HEAVY_INPUT).encode()
# A light body over the inline limit: it goes to the pool, and computes at once.
LIGHT_VALUE = {"hypotheses": ["x y " * INLINE_BODY_BYTES], "references": ["x"]}
LIGHT_BODY = json.dumps(LIGHT_VALUE).encode()
PROMPT = 2.0  # seconds: a light body's answer (the heavy one computes for many more)


def _until(condition: Callable[[], bool], seconds: float = 30) -> bool:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def _job(request_id: str, heavy: bool) -> Job:
    cost = RequestCost(HEAVY_SECONDS * 4 if heavy else 0.0)
    return Job(PAIRED, "1.0.0", b"", Ticket(0.0), "c", cost, request_id)


def test_the_queue_gives_out_at_most_its_heavy_slots() -> None:
    """With one heavy slot, a second heavy job is not given out while the first runs (light
    ones are), and is once the first is done; free() counts what would be taken at once."""
    jobs = FairQueue(heavy_slots=1)
    first, second, light = _job("h1", True), _job("h2", True), _job("l", False)
    for job in (first, second):
        jobs.put(job)
    taken = jobs.get(0)
    free_heavy, free_light = jobs.free(True, 2), jobs.free(False, 2)
    with pytest.raises(queue.Empty):
        jobs.get(0)
    jobs.put(light)
    light_taken = jobs.get(0)
    jobs.done(light)
    jobs.done(first)
    assert (first, 0, 1, light, second) == (taken, free_heavy, free_light, light_taken, jobs.get(0))


def test_a_pool_needs_a_process() -> None:
    """A pool of no process is refused, with the number; the app's pool has two by default
    (one kept for light work), or the number it is given."""
    with pytest.raises(ValueError, match="at least 1 process, not 0"):
        BodyWorker(processes=0)
    sizes = [create_app(access_log="off", compute_workers=n).state.body_worker.size for n in (1, 5)]
    assert ([1, 5], 2) == (sizes, create_app(access_log="off").state.body_worker.size)


@pytest.fixture
def pool() -> Iterator[BodyWorker]:
    """A started pool of two processes, both ready; closed after the test."""
    started = BodyWorker(processes=2)
    started.start()
    assert _until(lambda: started.problem is None and None not in started.pids)
    assert _until(lambda: not any(started.problems))
    yield started
    started.close()


def test_light_work_is_answered_while_heavy_work_computes_and_waits(pool: BodyWorker) -> None:
    """Two processes, two heavy bodies: one computes, the other waits (one process is kept
    for light work), and a light large body, over HTTP's path and MCP's, is answered at once
    meanwhile, by the other process."""
    heavy = [pool.submit(PAIRED, "1.0.0", HEAVY_BODY, "a") for _ in range(2)]
    assert _until(lambda: any(pool.computing))
    time.sleep(0.2)  # the second heavy body would be taken by now, were it allowed
    busy = [rid for rid in pool.computing if rid is not None]
    start = time.monotonic()
    light = pool.submit("chrf-compute", "1.0.0", LIGHT_BODY, "b").result(timeout=60)
    light_seconds = time.monotonic() - start

    async def mcp_light() -> Any:
        arguments = {"id": "chrf-compute", "version": "1.0.0", "input": LIGHT_VALUE}
        return await _call_execute(arguments, pool, "address:192.0.2.1")

    start = time.monotonic()
    mcp = anyio.run(mcp_light)
    mcp_seconds = time.monotonic() - start
    running = [t.running() for t in heavy]
    for ticket in heavy:
        ticket.stop()
    assert (1, [True, False], 200, False) == (len(busy), running, light[0], mcp.is_error)
    assert light_seconds < PROMPT, light_seconds
    assert mcp_seconds < PROMPT, mcp_seconds


def test_one_process_keeps_light_work_behind_heavy_work() -> None:
    """The contrast: with a pool of one, the light body waits for the heavy one."""
    single = BodyWorker(processes=1)
    single.start()
    try:
        heavy = single.submit(PAIRED, "1.0.0", HEAVY_BODY, "a")
        assert _until(lambda: any(single.computing))
        light = single.submit("chrf-compute", "1.0.0", LIGHT_BODY, "b")
        time.sleep(0.5)  # a light body takes milliseconds, the heavy one seconds
        waited = light.done()
        heavy.stop()
        answered = light.result(timeout=60)[0]
    finally:
        single.close()
    assert (False, 200) == (waited, answered)


def test_a_killed_process_fails_its_body_only_and_is_replaced(
    pool: BodyWorker, caplog: pytest.LogCaptureFixture
) -> None:
    """SIGKILL the process computing a heavy body: that body is answered internal_error,
    the death is logged with its pid, request id and place in the pool, the other process
    answers light bodies meanwhile, and the killed one is replaced."""
    caplog.set_level(logging.INFO, logger="mtcompute.server")
    heavy = pool.submit(PAIRED, "1.0.0", HEAVY_BODY, "a")
    assert _until(lambda: any(pool.computing))
    index = next(i for i, rid in enumerate(pool.computing) if rid is not None)
    request_id = pool.computing[index]
    killed = pool.pids[index]
    assert killed is not None
    os.kill(killed, signal.SIGKILL)
    lights = [pool.submit("chrf-compute", "1.0.0", LIGHT_BODY, "b") for _ in range(3)]
    statuses = [ticket.result(timeout=60)[0] for ticket in lights]
    failed = heavy.result(timeout=60)
    replaced = _until(lambda: pool.pids[index] not in (None, killed) and pool.problem is None)
    after = pool.submit("chrf-compute", "1.0.0", LIGHT_BODY, "b").result(timeout=60)[0]
    messages = [record.getMessage() for record in caplog.records]
    logged = [
        m
        for m in messages
        if f"process {killed} died computing {PAIRED}@1.0.0" in m
        and f"request {request_id}, worker {index + 1} of 2)" in m
    ]
    assert ([200, 200, 200], 500, True, 200, 1) == (
        statuses,
        failed[0],
        replaced,
        after,
        len(logged),
    ), messages


def test_a_restarting_process_leaves_light_work_to_a_ready_one(pool: BodyWorker) -> None:
    """While one process is replaced (its new one imports the tools: most of a second), the
    light bodies go to the process that is ready and are answered in milliseconds, not after
    the import."""
    for _ in range(20):  # until both processes have computed chrF (its modules imported)
        warm = [pool.submit("chrf-compute", "1.0.0", LIGHT_BODY, "b") for _ in range(4)]
        assert [200] * 4 == [ticket.result(timeout=60)[0] for ticket in warm]
        if all(process.answered for process in pool._processes):
            break
    killed = pool.pids[0]
    os.kill(killed or 0, signal.SIGKILL)
    assert _until(lambda: pool.pids[0] != killed and pool.problems[0] is not None)
    seconds = []
    for _ in range(5):
        start = time.monotonic()
        status = pool.submit("chrf-compute", "1.0.0", LIGHT_BODY, "b").result(timeout=60)[0]
        seconds.append((status, time.monotonic() - start))
    starting = pool.problems[0] is not None  # still importing: the bodies did not wait for it
    assert all(status == 200 and s < 0.5 for status, s in seconds), (seconds, starting)


@pytest.fixture
def quick_supervision(monkeypatch: pytest.MonkeyPatch) -> None:
    """The pool's supervision in test time: checks every 50 ms, retries after 0.1 s."""
    monkeypatch.setattr(supervisor, "WATCH_SECONDS", 0.05)
    monkeypatch.setattr(supervisor, "RESPAWN_BACKOFF", (0.1, 0.2))


def test_readyz_is_red_only_when_no_process_can_compute(
    quick_supervision: None, caplog: pytest.LogCaptureFixture
) -> None:
    """Respawn fails: with one process of two down /readyz stays green, its trouble in
    ``problems`` and large bodies computed by the other; with both down it is 503 naming each
    process, and a large body is refused 503; once starting works again both come back."""
    caplog.set_level(logging.INFO, logger="mtcompute.server")
    app = create_app(access_log="off", compute_workers=2)
    pool: BodyWorker = app.state.body_worker
    with TestClient(app) as client:
        assert 200 == _wait_for(client, 200).status_code
        assert _until(lambda: None not in pool.pids and not any(pool.problems))
        spawn, first = pool.spawn, pool.pids
        pool.spawn = mock.Mock(side_effect=OSError(11, "Resource temporarily unavailable"))
        os.kill(first[0] or 0, signal.SIGKILL)
        assert _until(lambda: pool.problems[0] is not None and "started" in pool.problems[0])
        half = client.get("/readyz").status_code
        computed_by_one = client.post(CHRF, content=LIGHT_BODY, headers=HEADERS).status_code
        os.kill(first[1] or 0, signal.SIGKILL)
        red = _wait_for(client, 503, "process 2 of 2: the body worker process could not be")
        refused = client.post(CHRF, content=LIGHT_BODY, headers=HEADERS).status_code
        pool.spawn = spawn
        green = _wait_for(client, 200)
        both = _until(lambda: not any(pool.problems) and None not in pool.pids)
        computed = client.post(CHRF, content=LIGHT_BODY, headers=HEADERS).status_code
        replaced = pool.pids
    message = red.json()["error"]["message"]
    assert (200, 200, 503, 503, 200, True, 200) == (
        half,
        computed_by_one,
        red.status_code,
        refused,
        green.status_code,
        both,
        computed,
    )
    assert message.startswith(
        "Not ready: no body worker process can compute (process 1 of 2: the body worker process "
        "could not be started (BlockingIOError: [Errno 11] Resource temporarily unavailable)"
    ), message
    assert not set(first) & set(replaced), (first, replaced)
    messages = [record.getMessage() for record in caplog.records]
    for number in (1, 2):
        assert any(f"(worker {number} of 2) could not be started" in m for m in messages)
        assert any(f"(worker {number} of 2) started after a failure" in m for m in messages)


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs Linux's /proc")
def test_serve_starts_and_ends_its_pool() -> None:
    """`mtcompute serve --compute-workers 3` starts three body worker processes, and every
    one ends with the server (SIGTERM, exit 0)."""
    proc, _url = start_server("--compute-workers", "3", env={"MTCOMPUTE_ACCESS_LOG": "off"})
    try:
        started = _until(lambda: len(_children(proc.pid)) == 3)
        children = _children(proc.pid)
    finally:
        proc.terminate()
        proc.wait(30)
    assert (True, 3, True, 0) == (
        started,
        len(children),
        all(map(_process_gone, children)),
        proc.returncode,
    )


def test_pipes_numbered_over_1023_are_watched() -> None:
    """With a thousand descriptors open (as a server holding a thousand connections has),
    a process's pipes get numbers over 1023, which select() refuses: the pool still answers,
    and reports no problem."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < 1200:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(2048, hard), hard))
    held = [os.open(os.devnull, os.O_RDONLY) for _ in range(1100)]
    single = BodyWorker(processes=1)
    try:
        single.start()
        answer = single.submit("chrf-compute", "1.0.0", LIGHT_BODY, "b").result(timeout=60)
        pipe = single._processes[0]._process
        number = -1 if pipe is None or pipe.stdout is None else pipe.stdout.fileno()
        problem = single.problem
    finally:
        single.close()
        for fd in held:
            os.close(fd)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    assert (200, True, None) == (answer[0], number > 1023, problem), number


def test_a_failure_of_the_thread_answers_internal_error_and_the_thread_lives(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A job the pool's thread cannot even send (a tool id with a lone surrogate, which a
    library caller can pass) is answered internal_error and logged; the thread lives on, its
    process replaced, and answers the next body."""
    caplog.set_level(logging.INFO, logger="mtcompute.server")
    single = BodyWorker(processes=1)
    single.start()
    try:
        failed = single.submit("\ud800", "1.0.0", LIGHT_BODY, "b").result(timeout=60)
        after = single.submit("chrf-compute", "1.0.0", LIGHT_BODY, "b").result(timeout=60)
        thread = single._processes[0].thread
        alive = thread is not None and thread.is_alive()
        problem = single.problem
    finally:
        single.close()
    logged = [r for r in caplog.records if "failed sending '\\ud800'@'1.0.0'" in r.getMessage()]
    assert (500, 200, True, None, 1) == (
        failed[0],
        after[0],
        alive,
        problem,
        len(logged),
    )
    assert b'"code":"internal_error"' in failed[1]


def test_heavy_work_is_not_left_to_a_stopped_thread() -> None:
    """Should a process's thread stop all the same, it no longer counts as starting: the
    process that is ready takes the heavy bodies instead of leaving them to it."""
    pair = BodyWorker(processes=2)
    stopped = pair._processes[1]
    stopped._run = lambda: None  # type: ignore[method-assign]  # its thread ends at once
    pair.start()
    try:
        assert _until(lambda: pair.problems[0] is None and pair.pid is not None)
        heavy = pair.submit(PAIRED, "1.0.0", HEAVY_BODY, "a")
        taken = _until(lambda: pair.computing[0] is not None, 10)
        heavy.stop()
        starting, problem = stopped.starting, pair.problems[1]
    finally:
        pair.close()
    assert (True, False, "the body worker thread has stopped") == (taken, starting, problem)


def test_a_dead_process_is_seen_before_the_deadline_or_a_cancelled_request() -> None:
    """A process whose pipe has ended (it died) is seen as such first, even when its deadline
    has passed and its request was cancelled meanwhile: its death is then logged as one."""
    job = _job("a", heavy=True)  # its deadline (0.0) long passed
    job.future.stop()
    read, write = os.pipe()
    os.close(write)
    with os.fdopen(read, "rb") as answers:
        seen = BodyWorker(processes=1)._processes[0]._wait(answers, job)
    assert seen is None


def test_a_process_dead_when_its_request_is_cancelled_is_logged_as_a_death(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A process found dead as its request is stopped died by itself meanwhile (chaos: a
    SIGKILL as the client leaves): the log says it died, with its pid and status."""
    caplog.set_level(logging.INFO, logger="mtcompute.server")
    one = BodyWorker(processes=1)._processes[0]
    dead = subprocess.Popen(["sleep", "60"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    os.kill(dead.pid, signal.SIGKILL)
    assert _until(lambda: dead.poll() is not None)
    one._process = dead
    job = _job("r-1", heavy=True)
    job.future.stop()
    status, _ = one._stop_computing(dead, job, "client")
    messages = [record.getMessage() for record in caplog.records]
    died = [m for m in messages if f"process {dead.pid} died computing {PAIRED}@1.0.0" in m]
    assert (504, 1, None) == (status, len(died), one._process), messages
    assert "status -9, as its request was cancelled" in died[0]
