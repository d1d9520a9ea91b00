"""The body worker (mtcompute.server.executor.BodyWorker): the process that computes request
bodies over INLINE_BODY_BYTES answers exactly what execute_json answers, is replaced when it
dies, fails only the body it was computing, and ends with the server."""

from __future__ import annotations

import json
import os
import signal
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from mtcompute._execute import execute_json
from mtcompute.server.executor import INLINE_BODY_BYTES, BodyWorker
from tests.conftest import start_server

LONG = "the cat sat on the mat " * (INLINE_BODY_BYTES // 20)
BODIES = [
    ("chrf-compute", "1.0.0", json.dumps({"hypotheses": [LONG], "references": [LONG[2:]]})),
    ("ter-compute", "1.0.0", json.dumps({"hypotheses": [LONG], "references": [[LONG[4:]]]})),
    ("chrf-compute", "1.0.0", json.dumps({"hypotheses": [LONG], "references": 7})),
    ("chrf-compute", "1.0.0", "[" * (INLINE_BODY_BYTES + 1)),
    ("chrf-compute", "9.9.9", json.dumps({"hypotheses": [LONG]})),
    ("no-such-tool", "1.0.0", json.dumps({"hypotheses": [LONG]})),
]
INTERNAL_ERROR = (
    500,
    b'{"error":{"code":"internal_error","message":"Internal error; please report this '
    b'request.","path":""}}',
)


@pytest.fixture
def worker() -> Iterator[BodyWorker]:
    """A started body worker of one process (whose pid the tests follow), closed after."""
    started = BodyWorker(processes=1)
    started.start()
    yield started
    started.close()


def _answer(worker: BodyWorker, tool: str, version: str, body: str | bytes) -> tuple[int, bytes]:
    data = body.encode() if isinstance(body, str) else body
    return worker.submit(tool, version, data).result(timeout=60)


def _expected(tool: str, version: str, body: str | bytes) -> tuple[int, bytes]:
    envelope = execute_json(tool, version, body)
    return envelope.http_status, envelope.json_bytes()


def test_answers_are_execute_json_s(worker: BodyWorker) -> None:
    """Results and every kind of error (invalid input, bad JSON, unknown version and tool,
    bytes that are not UTF-8): the status and bytes execute_json gives, in order."""
    bodies = [*BODIES, ("chrf-compute", "1.0.0", b'{"hypotheses": ["\xff"]}')]
    assert [_expected(*b) for b in bodies] == [_answer(worker, *b) for b in bodies]
    assert len(bodies) == worker.answered


def test_a_dead_process_is_replaced_before_the_next_body(worker: BodyWorker) -> None:
    """Killed while idle, the process is started anew for the next body, which is answered."""
    first = _answer(worker, *BODIES[0])
    pid = worker.pid
    assert pid is not None
    os.kill(pid, signal.SIGKILL)
    _wait_dead(pid)
    assert (first, True) == (_answer(worker, *BODIES[0]), worker.pid not in (None, pid))


def test_a_process_dying_mid_body_fails_that_body_only(worker: BodyWorker) -> None:
    """The body the process had when it died is answered internal_error; the next one gets a
    new process and its answer. (The process is stopped first, so that it is certainly still
    holding the body when it is killed.)"""
    _answer(worker, *BODIES[0])
    pid = worker.pid
    assert pid is not None
    os.kill(pid, signal.SIGSTOP)
    lost = worker.submit(*BODIES[0][:2], BODIES[0][2].encode())
    time.sleep(0.5)  # the worker's thread has sent it (or is blocked sending it)
    os.kill(pid, signal.SIGKILL)
    assert (INTERNAL_ERROR, _expected(*BODIES[1])) == (
        lost.result(timeout=60),
        _answer(worker, *BODIES[1]),
    )


def test_close_ends_the_process() -> None:
    """close() answers what was submitted, then the process ends at the end of its input
    (status 0); a body after that starts a new one."""
    worker = BodyWorker()
    pending = worker.submit(*BODIES[0][:2], BODIES[0][2].encode())
    pid = worker.pid
    worker.close()
    ended = _process_gone(pid)
    again = _answer(worker, *BODIES[2])
    worker.close()
    assert (_expected(*BODIES[0]), True, _expected(*BODIES[2])) == (
        pending.result(timeout=1),
        ended,
        again,
    )


def _wait_dead(pid: int) -> None:
    """Until the process (a child of this one) has ended and can be reaped, leaving it to be
    reaped by its Popen."""
    deadline = time.monotonic() + 30
    while os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is None:
        if time.monotonic() > deadline:
            raise AssertionError(f"process {pid} still alive after SIGKILL")
        time.sleep(0.01)


def _process_gone(pid: int | None) -> bool:
    return pid is None or not Path(f"/proc/{pid}").exists()


def _children(pid: int) -> list[int]:
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        found += [int(c) for c in (task / "children").read_text().split()]
    return found


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs Linux's /proc")
def test_the_server_ends_its_body_worker() -> None:
    """`mtcompute serve` starts its body worker with it, answers a large body through it
    (the library's bytes), and the worker ends when the server is stopped (SIGTERM)."""
    env = {"MTCOMPUTE_ACCESS_LOG": "off", "MTCOMPUTE_COMPUTE_WORKERS": "1"}  # one process
    proc, url = start_server(env=env)
    try:
        tool, version, body = BODIES[0]
        request = urllib.request.Request(
            f"{url}/v1/tools/{tool}/versions/{version}/execute",
            data=body.encode(),
            headers={"content-type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=60) as response:
            answer = (response.status, response.read())
        children = _children(proc.pid)
    finally:
        proc.terminate()
        proc.wait(30)
    assert (_expected(tool, version, body), 1, True, 0) == (
        answer,
        len(children),
        all(_process_gone(c) for c in children),
        proc.returncode,
    )
