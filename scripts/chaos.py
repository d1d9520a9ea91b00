#!/usr/bin/env python3
"""Chaos test of a live ``mtcompute serve``: heavy clients that leave, a cheap client that
measures, a body worker process of the pool killed mid-run; then the promises checked.

Usage::

    python scripts/chaos.py                        # 20 clients for 20 s
    python scripts/chaos.py --clients 6 --seconds 4 --json
    python scripts/chaos.py --python /other/venv/bin/python   # serve another checkout
    python scripts/chaos.py --compute-workers 1    # a pool of one body worker process

It starts ``mtcompute serve`` on a free 127.0.0.1 port (with ``--python``: that interpreter's
``mtcompute``), its standard error (the ``mtcompute.server`` log) to a temporary file, and
runs ``--clients`` clients at once for ``--seconds``, over raw asyncio sockets (HTTP/1.1, one
connection per request; the server trusts loopback as a proxy and each client sends its own
``X-Forwarded-For``, so that each counts as its own client, as from the internet):

- one cheap client: a small chrF request every 50 ms, each one's latency measured;
- a third of the rest: heavy requests (1.4 MB of Chinese through bleu-tokenize's zh tokenizer,
  or paired-significance of a 3.9 KB body asking 20,000 resamples) that they leave after
  0.2 to 0.6 s (the connection closed: the server must stop that work);
- a third: heavy requests they wait for;
- the rest: light ones (a large chrF body, a small body that needs a worker thread); the
  large one's latency is measured too (``light_large_p50``/``p99``: in a pool of two
  processes or more one is kept for light work, with one it waits behind the heavy work).

Halfway, the busiest body worker process (the most CPU over 0.2 s) is killed (SIGKILL); the
leaving clients hold their leave from the measure until 0.5 s after the kill (else the
server, stopping the process for a client that just left, could log that stop for the
death it has not seen yet). At the end it prints, and checks (exit status 1 when a promise
is broken):

- the cheap client's latency p50 and p99: p99 under 1 s;
- the abandoned work's overrun past its client: the server's log (work stopped in the body
  worker, or dropped on a worker thread, says how long after its client left), and how long
  the server and its body worker kept computing once every client had its answer or had
  left (CPU time, measured from outside, so that a server that does not log it is measured
  too): at most 1 s;
- the killed worker replaced (a body worker process that was not there before the kill
  runs) and the death logged with its pid (and the request id when it was computing one);
- every answer received a JSON envelope (``{"result"}`` or ``{"error"}`` with a code);
- the server's resident memory before (after a warm-up) and after (once the load is over):
  at most ``--rss-margin`` MB more (default 64: the heavy bodies are 1.4 MB each and Python
  keeps some of the memory it freed); the pool's processes' resident memory is reported
  too (``pool_rss_before_mb``, ``pool_rss_after_mb``: their sum), not checked (a replaced
  process starts afresh).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psutil

CHRF = "/v1/tools/chrf-compute/versions/1.0.0/execute"
TOKENIZE = "/v1/tools/bleu-tokenize/versions/1.0.0/execute"
PAIRED = "/v1/tools/paired-significance/versions/1.0.0/execute"

CHEAP = json.dumps({"hypotheses": ["a cat sat"], "references": ["the cat sat"]}).encode()
HEAVY_ZH = json.dumps(
    {"segments": ["机器翻译很有用。" * 100] * 600, "tokenizer": "zh"}, ensure_ascii=False
).encode()
HEAVY_PAIRED = json.dumps(  # 3.9 KB asking 20,000 resamples: small, but heavy
    {
        "baseline": ["a"] * 120,
        "systems": [{"name": f"s{i}", "hypotheses": ["b"] * 120} for i in range(5)],
        "references": [["a"]] * 120,
        "metrics": ["bleu", "chrf", "ter"],
        "bleu": {"max_ngram_order": 8},
        "chrf": {"char_order": 10, "word_order": 4},
        "method": "approximate_randomization",
        "samples": 20000,
    },
    separators=(",", ":"),
).encode()
LIGHT_LARGE = json.dumps({"hypotheses": ["x y " * 3000], "references": ["x"]}).encode()
LIGHT_SMALL = json.dumps({"hypotheses": ["a b c d " * 100], "references": ["a b"]}).encode()

_OVERRUN = re.compile(r"cancelled .*?([0-9.]+) s before|ran ([0-9.]+) s past its client")


@dataclass
class Tally:
    """What the clients saw."""

    cheap_latencies: list[float] = field(default_factory=list)
    light_large_latencies: list[float] = field(default_factory=list)
    answers: int = 0
    not_envelopes: list[str] = field(default_factory=list)
    statuses: dict[int, int] = field(default_factory=dict)
    refusals: dict[str, int] = field(default_factory=dict)
    left: int = 0
    # Cleared while a body worker is being killed: a leaving client then holds its leave
    # (its connection open) until the death is seen, so that the server's own stop of a
    # process whose client left cannot coincide with the kill and be taken for it.
    may_leave: asyncio.Event = field(default_factory=asyncio.Event)


# How long after the kill the leaving clients hold their leave: the server sees a death
# within its poll (50 ms) once the process has ended.
KILL_SETTLE_SECONDS = 0.5


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def post(
    port: int,
    path: str,
    body: bytes,
    tally: Tally,
    leave_after: float | None = None,
    client: int = 0,
) -> float | None:
    """POST ``body`` as client number ``client`` (its forwarded address: the server trusts
    loopback as a proxy, so each client counts on its own); check the answer is an envelope;
    its seconds (None if left)."""
    start = time.monotonic()
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    head = (
        f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
        f"X-Forwarded-For: 10.0.0.{client}\r\n"
        f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
    ).encode()
    try:
        writer.write(head + body)
        await writer.drain()
        try:
            raw = await asyncio.wait_for(reader.read(-1), leave_after)
        except TimeoutError:
            tally.left += 1
            await tally.may_leave.wait()
            return None
    finally:
        writer.close()
        with contextlib.suppress(OSError):
            await writer.wait_closed()
    seconds = time.monotonic() - start
    _check(raw, tally)
    return seconds


def _check(raw: bytes, tally: Tally) -> None:
    tally.answers += 1
    header, _, payload = raw.partition(b"\r\n\r\n")
    lines = header.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1]) if lines and len(lines[0].split()) > 1 else 0
    tally.statuses[status] = tally.statuses.get(status, 0) + 1
    typed = any(line.lower().startswith("content-type: application/json") for line in lines)
    try:
        data = json.loads(payload)
        shaped = isinstance(data, dict) and (
            list(data) == ["result"]
            or (list(data) == ["error"] and isinstance(data["error"].get("code"), str))
        )
    except ValueError:
        shaped = False
    if shaped and "error" in data:
        reason = f"{status} {data['error']['code']}: {data['error'].get('message', '')[:60]}"
        tally.refusals[reason] = tally.refusals.get(reason, 0) + 1
    if not (typed and shaped and (status == 200) == ("result" in data)):
        tally.not_envelopes.append(f"{status}: {payload[:120]!r}")


async def cheap_client(port: int, until: float, tally: Tally) -> None:
    while time.monotonic() < until:
        seconds = await post(port, CHRF, CHEAP, tally)
        if seconds is not None:
            tally.cheap_latencies.append(seconds)
        await asyncio.sleep(0.05)


async def heavy_client(
    port: int, until: float, tally: Tally, leave: bool, rng: random.Random, client: int
) -> None:
    while time.monotonic() < until:
        path, body = rng.choice([(TOKENIZE, HEAVY_ZH), (PAIRED, HEAVY_PAIRED)])
        await post(port, path, body, tally, rng.uniform(0.2, 0.6) if leave else 60, client)
        if not leave:
            await asyncio.sleep(0.1)


async def light_client(
    port: int, until: float, tally: Tally, rng: random.Random, client: int
) -> None:
    while time.monotonic() < until:
        body = rng.choice([LIGHT_LARGE, LIGHT_SMALL])
        seconds = await post(port, CHRF, body, tally, None, client)
        if seconds is not None and body is LIGHT_LARGE:
            tally.light_large_latencies.append(seconds)
        await asyncio.sleep(0.1)


def body_workers(server: psutil.Process) -> list[psutil.Process]:
    found = []
    for child in server.children(recursive=True):
        with contextlib.suppress(psutil.Error):
            if "mtcompute.server._body_worker" in " ".join(child.cmdline()):
                found.append(child)
    return found


def cpu_seconds(processes: list[psutil.Process]) -> float:
    total = 0.0
    for process in processes:
        with contextlib.suppress(psutil.Error):
            times = process.cpu_times()
            total += times.user + times.system
    return total


def idle_after(server: psutil.Process, workers: list[psutil.Process]) -> float:
    """Seconds until the server and the body workers it had when the clients finished burn
    under 5% of a CPU over 0.2 s: how long abandoned work ran on after its clients (a
    replacement worker's start-up is not counted). At most 60."""
    start = time.monotonic()
    watched = [server, *workers]
    before = cpu_seconds(watched)
    while time.monotonic() - start < 60:
        time.sleep(0.2)
        now = cpu_seconds(watched)
        if now - before < 0.01:
            return max(0.0, time.monotonic() - start - 0.2)
        before = now
    return 60.0


def busiest(workers: list[psutil.Process]) -> psutil.Process | None:
    """The body worker process that used the most CPU over 0.2 s (the one computing)."""
    before = [cpu_seconds([w]) for w in workers]
    time.sleep(0.2)
    used = [cpu_seconds([w]) - b for w, b in zip(workers, before, strict=True)]
    return workers[used.index(max(used))] if workers else None


def rss_mb(server: psutil.Process) -> float:
    return float(server.memory_info().rss) / 2**20


def pool_rss_mb(server: psutil.Process) -> float:
    """The resident memory of the server's body worker processes together."""
    total = 0.0
    for worker in body_workers(server):
        with contextlib.suppress(psutil.Error):
            total += rss_mb(worker)
    return total


async def run_clients(
    port: int, server: psutil.Process, clients: int, seconds: float, seed: int
) -> tuple[Tally, int | None, set[int]]:
    """Run the clients; what they saw, the killed body worker's pid and the pool's pids
    before the kill."""
    rng = random.Random(seed)
    tally = Tally()
    tally.may_leave.set()
    until = time.monotonic() + seconds
    others = clients - 1
    leaving = others // 3
    waiting = others // 3
    tasks = [asyncio.create_task(cheap_client(port, until, tally))]
    kinds = [True] * leaving + [False] * waiting
    tasks += [
        asyncio.create_task(
            heavy_client(port, until, tally, leave, random.Random(rng.random()), number + 1)
        )
        for number, leave in enumerate(kinds)
    ]
    tasks += [
        asyncio.create_task(
            light_client(port, until, tally, random.Random(rng.random()), len(kinds) + 1 + n)
        )
        for n in range(others - leaving - waiting)
    ]
    await asyncio.sleep(seconds / 2)
    killed = None
    workers = body_workers(server)
    tally.may_leave.clear()
    victim = await asyncio.to_thread(busiest, workers)
    if victim is not None:
        killed = victim.pid
        os.kill(killed, signal.SIGKILL)
        await asyncio.sleep(KILL_SETTLE_SECONDS)
    tally.may_leave.set()
    await asyncio.gather(*tasks)
    return tally, killed, {w.pid for w in workers}


def percentile(values: list[float], share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def wait_healthy(url: str, proc: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"the server exited with status {proc.returncode}")
        with (
            contextlib.suppress(OSError),
            urllib.request.urlopen(url + "/healthz", timeout=1) as answer,
        ):
            if answer.status == 200:
                return
        time.sleep(0.1)
    raise SystemExit("the server did not answer /healthz within 60 s")


def warm_up(port: int) -> None:
    """A few requests of each kind, so that the memory measured first is the serving one."""

    async def warm() -> None:
        tally = Tally()
        for path, body in ((CHRF, CHEAP), (CHRF, LIGHT_LARGE), (CHRF, LIGHT_SMALL)):
            for _ in range(3):
                await post(port, path, body, tally)
        await post(port, PAIRED, HEAVY_PAIRED, tally)

    asyncio.run(warm())


def broken_promises(figures: dict[str, Any], rss_margin: float) -> list[str]:
    """The promises the figures of a run break (none: all kept)."""
    broken = []
    if not figures["cheap_p99"] < 1.0:
        broken.append(f"cheap p99 {figures['cheap_p99']:.3f} s is not under 1 s")
    overrun = max(figures["overrun_max"], figures["idle_after_clients"])
    if overrun > 1.0:
        broken.append(f"abandoned work ran {overrun:.3f} s past its client")
    if figures["killed_worker"] is None or not figures["replaced_by"]:
        broken.append("the killed body worker was not replaced")
    if not figures["death_logged"]:
        broken.append("the killed body worker's death was not logged")
    if figures["not_envelope_count"]:
        broken.append(f"{figures['not_envelope_count']} answers were not envelopes")
    grown = figures["rss_after_mb"] - figures["rss_before_mb"]
    if grown > rss_margin:
        broken.append(f"the server grew {grown:.1f} MB (margin {rss_margin:g})")
    return broken


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--python", default=sys.executable, help="the server's interpreter")
    parser.add_argument("--rss-margin", type=float, default=64.0, help="MB")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument(
        "--compute-workers", type=int, default=None, help="the pool's processes (server default)"
    )
    args = parser.parse_args(argv)
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    log_fd, log_name = tempfile.mkstemp(prefix="mtcompute-chaos-", suffix=".log")
    log_path = Path(log_name)
    command = [args.python, "-m", "mtcompute", "serve", "--port", str(port), "--no-access-log"]
    command += ["--trusted-proxy", "127.0.0.1/32"]  # each client its X-Forwarded-For
    if args.compute_workers is not None:
        command += ["--compute-workers", str(args.compute_workers)]
    with os.fdopen(log_fd, "wb") as log:
        proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=log)
    try:
        wait_healthy(url, proc)
        server = psutil.Process(proc.pid)
        warm_up(port)
        time.sleep(0.5)
        before = rss_mb(server)
        pool_before, pool_size = pool_rss_mb(server), len(body_workers(server))
        tally, killed, first_pool = asyncio.run(
            run_clients(port, server, args.clients, args.seconds, args.seed)
        )
        idle = idle_after(server, body_workers(server))
        time.sleep(1.0)  # the worker replaced
        after, pool_after = rss_mb(server), pool_rss_mb(server)
        replacements = [w.pid for w in body_workers(server) if w.pid not in first_pool]
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    log_text = log_path.read_text(errors="replace")
    log_path.unlink()
    overruns = [float(a or b) for a, b in _OVERRUN.findall(log_text)]
    death = [
        line
        for line in log_text.splitlines()
        if killed is not None
        and f"process {killed} " in line
        and ("died" in line or "exited" in line)
    ]
    figures: dict[str, Any] = {
        "clients": args.clients,
        "seconds": args.seconds,
        "cheap_requests": len(tally.cheap_latencies),
        "cheap_p50": percentile(tally.cheap_latencies, 0.5),
        "cheap_p99": percentile(tally.cheap_latencies, 0.99),
        "cheap_max": max(tally.cheap_latencies, default=float("nan")),
        "light_large_requests": len(tally.light_large_latencies),
        "light_large_p50": percentile(tally.light_large_latencies, 0.5),
        "light_large_p99": percentile(tally.light_large_latencies, 0.99),
        "answers": tally.answers,
        "left": tally.left,
        "statuses": dict(sorted(tally.statuses.items())),
        "errors": dict(sorted(tally.refusals.items(), key=lambda item: -item[1])[:4]),
        "not_envelopes": tally.not_envelopes[:5],
        "not_envelope_count": len(tally.not_envelopes),
        "overrun_count": len(overruns),
        "overrun_max": max(overruns, default=0.0),
        "idle_after_clients": idle,
        "killed_worker": killed,
        "replaced_by": replacements,
        "death_logged": death[:1],
        "rss_before_mb": round(before, 1),
        "rss_after_mb": round(after, 1),
        "pool_processes": pool_size,
        "pool_rss_before_mb": round(pool_before, 1),
        "pool_rss_after_mb": round(pool_after, 1),
    }
    broken = broken_promises(figures, args.rss_margin)
    figures["broken"] = broken
    if args.json:
        print(json.dumps(figures, indent=1))
    else:
        for key, value in figures.items():
            shown = f"{value:.3f}" if isinstance(value, float) else value
            print(f"{key:>20}: {shown}")
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
