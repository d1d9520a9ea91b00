#!/usr/bin/env python3
"""Load-test the HTTP execute endpoints on loopback: throughput, latency, wrong answers, memory.

Usage::

    python scripts/load.py --requests 100000 --concurrency 32      # starts its own server
    python scripts/load.py --seconds 60 --workers 2
    python scripts/load.py --url http://127.0.0.1:8000 --server-pid 4242 --requests 5000
    python scripts/load.py --requests 2000 --json                  # the report as JSON

Without ``--url`` it starts ``mtcompute serve`` on a free 127.0.0.1 port (``--workers N``,
access log to a temporary file), warms it up, and stops it with SIGTERM at the end. With
``--url`` it drives a running server, which must be on loopback (127.0.0.1, ::1, localhost):
any other host is refused.

The client is raw asyncio streams (one kept-alive HTTP/1.1 connection per concurrent
worker), so that the client costs little of the machine next to the server. The requests
cycle through a fixed mix: every contract example of every tool (each three times; the
answer must be the example's output, byte for byte, with 200) and invalid requests with a
known answer (status and error code): malformed JSON, non-UTF-8, empty, ``null``, deep
nesting, 1e400, ``{}`` for every tool, an unknown key, a wrong content type, an unknown tool
and version, a wrong method, an unsupported smoothing, a limit exceeded, 1e308 as a count,
and a Content-Length over the body cap (headers only; the connection is then dropped).

Every response is checked; a mismatch is counted by kind (``status`` for a wrong status,
``body`` for a right status with a wrong body or error code, ``transport`` for a connection
error or timeout). Reported: requests, seconds, requests per second, latency p50/p90/p99/max,
mismatches by kind (with a few samples), responses by status, and the server's resident
memory (VmRSS from /proc, the server process plus its worker processes) after warm-up,
during the run (at each quarter of it, and the peak) and after the run. Exit status 1 on
any mismatch.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import ipaddress
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from collections import Counter
from pathlib import Path
from typing import Any

import mtcompute
from mtcompute.contracts import contract, contract_ids
from mtcompute.server.app import DEFAULT_MAX_BODY_BYTES

CODE_OF_STATUS = {
    400: "invalid_input",
    404: "not_found",
    405: "method_not_allowed",
    413: "limit_exceeded",
    415: "invalid_input",
    422: "unsupported_input",
}
DEFAULT_CAP = DEFAULT_MAX_BODY_BYTES  # the server's default body cap


@dataclasses.dataclass(frozen=True)
class Case:
    """One request of the mix and the answer it must get."""

    name: str
    raw: bytes  # the whole request, head and body
    status: int
    body: bytes | None = None  # exact expected body (examples), else an envelope is checked
    close_after: bool = False  # the server still expects body bytes: drop the connection


def _request(
    method: str,
    path: str,
    body: bytes | None,
    host: str,
    content_type: str | None = "application/json",
    content_length: int | None = None,
) -> bytes:
    head = [f"{method} {path} HTTP/1.1", f"Host: {host}"]
    if content_type is not None and body is not None:
        head.append(f"Content-Type: {content_type}")
    if body is not None or content_length is not None:
        head.append(
            f"Content-Length: {len(body or b'') if content_length is None else content_length}"
        )
    return ("\r\n".join(head) + "\r\n\r\n").encode("latin-1") + (body or b"")


def build_cases(host: str, cap: int = DEFAULT_CAP) -> list[Case]:
    """The request mix: contract examples (x3) and invalid requests with known answers."""

    def execute(tool: str, version: str = "1.0.0") -> str:
        return f"/v1/tools/{tool}/versions/{version}/execute"

    cases: list[Case] = []
    for tool_id, version in contract_ids():
        for i, example in enumerate(contract(tool_id, version)["examples"], 1):
            body = json.dumps(example["input"], ensure_ascii=False).encode()
            expected = mtcompute.dumps({"result": example["output"]}).encode()
            raw = _request("POST", execute(tool_id, version), body, host)
            cases += [Case(f"{tool_id} example {i}", raw, 200, expected)] * 3
        cases.append(
            Case(f"{tool_id} {{}}", _request("POST", execute(tool_id, version), b"{}", host), 400)
        )
    chrf = execute("chrf-compute")
    smoothing = execute("bleu-smoothing-compute")

    def counts(value: str) -> bytes:
        return (
            f'{{"matches":[{value}],"totals":[1],"candidate_length":1,"reference_length":1,'
            f'"smoothing":"none"}}'
        ).encode()

    invalid: list[tuple[str, str, str, bytes | None, str | None, int]] = [
        ("malformed JSON", "POST", chrf, b'{"hypotheses":', "application/json", 400),
        ("not UTF-8", "POST", chrf, b'{"hypotheses":["\xff"]}', "application/json", 400),
        ("empty body", "POST", chrf, b"", "application/json", 400),
        ("null body", "POST", chrf, b"null", "application/json", 400),
        ("deep nesting", "POST", chrf, b"[" * 10_000 + b"]" * 10_000, "application/json", 400),
        ("1e400", "POST", smoothing, counts("1e400"), "application/json", 400),
        ("1e308 count", "POST", smoothing, counts("1e308"), "application/json", 413),
        (
            "unknown key",
            "POST",
            chrf,
            b'{"hypotheses":["a"],"references":["a"],"x":1}',
            "application/json",
            400,
        ),
        ("wrong content type", "POST", chrf, b'{"hypotheses":["a"]}', "text/plain", 415),
        ("unknown tool", "POST", execute("no-such-tool"), b"{}", "application/json", 404),
        ("unknown version", "POST", execute("chrf-compute", "9.9.9"), b"{}", None, 404),
        ("wrong method", "GET", chrf, None, None, 405),
        (
            "unsupported smoothing",
            "POST",
            smoothing,
            counts("1").replace(b'"none"', b'"method4"'),
            "application/json",
            422,
        ),
        (
            "limit exceeded",
            "POST",
            chrf,
            json.dumps({"hypotheses": ["a"] * 257, "references": ["a"]}).encode(),
            "application/json",
            413,
        ),
    ]
    for name, method, path, payload, content_type, status in invalid:
        cases.append(Case(name, _request(method, path, payload, host, content_type), status))
    refused = _request("POST", chrf, None, host, content_length=cap + 1)
    cases.append(Case("Content-Length over the cap", refused, 413, close_after=True))
    return cases


@dataclasses.dataclass
class Stats:
    """What the run saw."""

    latencies: list[float] = dataclasses.field(default_factory=list)
    statuses: Counter[int] = dataclasses.field(default_factory=Counter)
    mismatches: Counter[str] = dataclasses.field(default_factory=Counter)
    samples: list[str] = dataclasses.field(default_factory=list)
    sent: int = 0

    def mismatch(self, kind: str, case: Case, detail: str) -> None:
        self.mismatches[kind] += 1
        if len(self.samples) < 10:
            self.samples.append(f"{kind}: {case.name}: {detail[:300]}")


async def _read_response(reader: asyncio.StreamReader) -> tuple[int, dict[str, str], bytes]:
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split(" ", 2)[1])
    headers = {}
    for line in lines[1:]:
        if ":" in line:
            name, value = line.split(":", 1)
            headers[name.strip().lower()] = value.strip()
    if "content-length" in headers:
        body = await reader.readexactly(int(headers["content-length"]))
    elif headers.get("transfer-encoding", "").lower() == "chunked":
        parts = []
        while True:
            size = int((await reader.readuntil(b"\r\n")).split(b";")[0], 16)
            parts.append(await reader.readexactly(size + 2))
            if size == 0:
                break
        body = b"".join(p[:-2] for p in parts)
    else:
        body = await reader.read()
    return status, headers, body


def _check(case: Case, status: int, body: bytes, stats: Stats) -> None:
    stats.statuses[status] += 1
    if status != case.status:
        stats.mismatch("status", case, f"expected {case.status}, got {status}: {body[:200]!r}")
        return
    if case.body is not None:
        if body != case.body:
            stats.mismatch("body", case, f"got {body[:200]!r}")
        return
    try:
        error = json.loads(body)["error"]
        ok = error["code"] == CODE_OF_STATUS[status] and isinstance(error["message"], str)
    except (ValueError, KeyError, TypeError):
        ok = False
    if not ok:
        stats.mismatch(
            "body", case, f"not the {CODE_OF_STATUS.get(status)} envelope: {body[:200]!r}"
        )


async def _worker(
    host: str,
    port: int,
    cases: list[Case],
    counter: list[int],
    limit: int,
    deadline: float,
    stats: Stats,
    timeout: float,
) -> None:
    reader: asyncio.StreamReader | None = None
    writer: asyncio.StreamWriter | None = None
    try:
        while counter[0] < limit and time.monotonic() < deadline:
            index = counter[0]
            counter[0] += 1
            case = cases[index % len(cases)]
            try:
                if writer is None:
                    reader, writer = await asyncio.wait_for(
                        asyncio.open_connection(host, port), timeout
                    )
                assert reader is not None
                assert writer is not None
                start = time.perf_counter()
                writer.write(case.raw)
                stats.sent += 1
                status, headers, body = await asyncio.wait_for(_read_response(reader), timeout)
                stats.latencies.append(time.perf_counter() - start)
                _check(case, status, body, stats)
                if case.close_after or headers.get("connection", "").lower() == "close":
                    writer.close()
                    reader = writer = None
            except (OSError, asyncio.IncompleteReadError, TimeoutError, ValueError) as exc:
                stats.mismatch("transport", case, f"{type(exc).__name__}: {exc}")
                if writer is not None:
                    writer.close()
                reader = writer = None
    finally:
        if writer is not None:
            writer.close()


async def drive(
    host: str,
    port: int,
    cases: list[Case],
    requests: int,
    seconds: float,
    concurrency: int,
    pids: list[int] | None = None,
    timeout: float = 30.0,
) -> tuple[Stats, float, list[int]]:
    """Send up to ``requests`` requests for up to ``seconds``; (stats, elapsed, RSS samples):
    the server's RSS in kB every quarter second (empty without ``pids``)."""
    stats = Stats()
    counter = [0]
    samples: list[int] = []
    start = time.monotonic()
    deadline = start + seconds

    async def sample() -> None:
        while True:
            if pids:
                samples.append(await asyncio.to_thread(rss_sum, pids))
            await asyncio.sleep(0.25)

    sampler = asyncio.create_task(sample())
    await asyncio.gather(
        *(
            _worker(host, port, cases, counter, requests, deadline, stats, timeout)
            for _ in range(concurrency)
        )
    )
    sampler.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await sampler
    return stats, time.monotonic() - start, samples


def _descendants(pid: int) -> list[int]:
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        children.setdefault(ppid, []).append(int(entry.name))
    out, todo = [], [pid]
    while todo:
        current = todo.pop()
        for child in children.get(current, []):
            out.append(child)
            todo.append(child)
    return out


def server_pids(pid: int) -> list[int]:
    """``pid`` and all its descendants (the uvicorn workers, when there are several)."""
    return [pid, *_descendants(pid)]


def rss_sum(pids: list[int]) -> int:
    """The sum of VmRSS in kB over ``pids`` (those gone count 0)."""
    total = 0
    for p in pids:
        try:
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            continue
    return total


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _mtcompute_command() -> list[str]:
    script = Path(sys.executable).with_name("mtcompute")
    return [str(script)] if script.exists() else [sys.executable, "-m", "mtcompute.cli"]


def start_server(workers: int, access_log: str | None) -> tuple[subprocess.Popen[bytes], str, int]:
    """`mtcompute serve` on a free loopback port; (process, host, port) once /healthz answers."""
    port = _free_port()
    log_args = ["--access-log-file", access_log] if access_log else ["--no-access-log"]
    proc = subprocess.Popen(
        [
            *_mtcompute_command(),
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--workers",
            str(workers),
            "--log-level",
            "warning",
            *log_args,
        ],
        stdout=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"load.py: the server exited with status {proc.returncode}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2) as r:
                if r.status == 200:
                    return proc, "127.0.0.1", port
        except OSError:
            time.sleep(0.2)
    proc.kill()
    raise SystemExit("load.py: the server did not answer /healthz within 60 s")


def loopback_target(url: str) -> tuple[str, int]:
    """(host, port) of ``url`` if it is http:// on loopback; SystemExit otherwise."""
    parts = urllib.parse.urlsplit(url)
    host = parts.hostname or ""
    if parts.scheme != "http":
        raise SystemExit(f"load.py: only http:// URLs are supported, got {url!r}")
    try:
        loopback = host == "localhost" or ipaddress.ip_address(host).is_loopback
    except ValueError:
        loopback = False
    if not loopback:
        raise SystemExit(f"load.py: refusing a non-loopback target {host!r}; use 127.0.0.1")
    return ("127.0.0.1" if host == "localhost" else host), parts.port or 80


def _percentile(sorted_values: list[float], q: float) -> float:
    if not sorted_values:
        return float("nan")
    index = min(len(sorted_values) - 1, max(0, round(q * len(sorted_values)) - 1))
    return sorted_values[index]


def run(args: argparse.Namespace) -> dict[str, Any]:
    """Start (or reach) the server, warm up, drive the load, stop; the report."""
    proc: subprocess.Popen[bytes] | None = None
    log_path: str | None = None
    pids: list[int] = []
    if args.url:
        host, port = loopback_target(args.url)
        if args.server_pid:
            pids = [args.server_pid]
    else:
        if args.access_log:
            fd, log_path = tempfile.mkstemp(prefix="mtcompute-load-", suffix=".log")
            os.close(fd)
        proc, host, port = start_server(args.workers, log_path)
        pids = [proc.pid]
    host_header = f"{host}:{port}" if ":" not in host else f"[{host}]:{port}"
    cases = build_cases(host_header, args.cap)
    try:
        warm, _, _ = asyncio.run(
            drive(host, port, cases, args.warmup, 600, min(args.concurrency, 8))
        )
        time.sleep(0.5)
        if pids:
            pids = server_pids(pids[0])
        rss_before = rss_sum(pids) if pids else None
        stats, elapsed, samples = asyncio.run(
            drive(host, port, cases, args.requests, args.seconds, args.concurrency, pids)
        )
        time.sleep(0.5)
        rss_after = rss_sum(pids) if pids else None
    finally:
        exit_status = None
        if proc is not None:
            proc.send_signal(signal.SIGTERM)
            try:
                exit_status = proc.wait(60)
            except subprocess.TimeoutExpired:
                proc.kill()
                exit_status = proc.wait()
    latencies = sorted(stats.latencies)
    done = len(latencies)
    report: dict[str, Any] = {
        "target": f"http://{host_header}",
        "server_pids": pids,
        "workers": None if args.url else args.workers,
        "concurrency": args.concurrency,
        "case_count": len(cases),
        "warmup_requests": warm.sent,
        "warmup_mismatches": sum(warm.mismatches.values()),
        "requests": stats.sent,
        "responses": done,
        "seconds": round(elapsed, 3),
        "requests_per_second": round(done / elapsed, 1) if elapsed else None,
        "latency_ms": {
            "p50": round(_percentile(latencies, 0.50) * 1000, 3),
            "p90": round(_percentile(latencies, 0.90) * 1000, 3),
            "p99": round(_percentile(latencies, 0.99) * 1000, 3),
            "max": round(latencies[-1] * 1000, 3) if latencies else None,
            "mean": round(statistics.fmean(latencies) * 1000, 3) if latencies else None,
        },
        "statuses": {str(k): v for k, v in sorted(stats.statuses.items())},
        "mismatches": dict(stats.mismatches),
        "mismatch_total": sum(stats.mismatches.values()),
        "mismatch_samples": stats.samples,
        "rss_kb": {
            "after_warmup": rss_before,
            "peak": max(samples) if samples else None,
            "after_run": rss_after,
            # during the run, at 0%, 25%, 50%, 75% and 100% of it: a leak climbs, noise does not
            "timeline": [samples[min(len(samples) - 1, len(samples) * q // 4)] for q in range(5)]
            if samples
            else [],
        },
        "rss_growth_kb": (rss_after - rss_before)
        if rss_after is not None and rss_before is not None
        else None,
        "server_exit_status": exit_status,
    }
    if log_path is not None:
        lines = Path(log_path).read_bytes().splitlines()
        report["access_log_lines"] = len(lines)
        report["access_log_bad_lines"] = sum(1 for line in lines if not _is_log_line(line))
        if not args.keep_log:
            os.unlink(log_path)
        else:
            report["access_log_path"] = log_path
    return report


def _is_log_line(line: bytes) -> bool:
    try:
        entry = json.loads(line)
    except ValueError:
        return False
    return isinstance(entry, dict) and {"ts", "method", "path", "status", "duration_ms"} <= set(
        entry
    )


def _print_report(report: dict[str, Any]) -> None:
    lat = report["latency_ms"]
    rss = report["rss_kb"]
    print(f"target              {report['target']} (workers {report['workers']})")
    print(
        f"requests            {report['responses']} answered of {report['requests']} sent, "
        f"{report['seconds']} s, concurrency {report['concurrency']}, {report['case_count']} cases"
    )
    print(f"throughput          {report['requests_per_second']} requests/s")
    print(
        f"latency ms          p50 {lat['p50']}  p90 {lat['p90']}  p99 {lat['p99']}  "
        f"max {lat['max']}  mean {lat['mean']}"
    )
    print(f"statuses            {report['statuses']}")
    print(f"mismatches          {report['mismatch_total']} {report['mismatches']}")
    for sample in report["mismatch_samples"]:
        print(f"  {sample}")
    print(
        f"server RSS kB       after warm-up {rss['after_warmup']}, during {rss['timeline']}, "
        f"peak {rss['peak']}, "
        f"after run {rss['after_run']} (growth {report['rss_growth_kb']})"
    )
    if "access_log_lines" in report:
        print(
            f"access log          {report['access_log_lines']} lines, "
            f"{report['access_log_bad_lines']} not JSON access lines"
        )
    print(f"server exit status  {report['server_exit_status']}")


def main(argv: list[str] | None = None) -> int:
    """Entry point; exit 1 on any mismatch."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", help="drive a running server (loopback only) instead")
    parser.add_argument("--server-pid", type=int, help="with --url: the server's pid, for RSS")
    parser.add_argument("--workers", type=int, default=1, help="server workers (default 1)")
    parser.add_argument("--requests", type=int, default=None, help="requests to send")
    parser.add_argument("--seconds", type=float, default=None, help="time bound of the run")
    parser.add_argument("--concurrency", type=int, default=32, help="connections (default 32)")
    parser.add_argument("--warmup", type=int, default=1000, help="warm-up requests (default 1000)")
    parser.add_argument("--cap", type=int, default=DEFAULT_CAP, help="the server's body cap")
    parser.add_argument(
        "--access-log",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="started server: JSON access log to a temporary file, counted (default on)",
    )
    parser.add_argument("--keep-log", action="store_true", help="keep the access log file")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    args = parser.parse_args(argv)
    if args.requests is None and args.seconds is None:
        args.requests = 10_000
    if args.requests is None:
        args.requests = 1 << 62
    if args.seconds is None:
        args.seconds = 24 * 3600.0
    if args.concurrency < 1 or args.workers < 1:
        parser.error("--concurrency and --workers must be at least 1")
    report = run(args)
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        _print_report(report)
    return 1 if report["mismatch_total"] or report["warmup_mismatches"] else 0


if __name__ == "__main__":
    sys.exit(main())
