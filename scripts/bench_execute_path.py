"""Microseconds per call of the HTTP execute route's in-process work, per contract example.

For every tool version's contract examples (the seed examples among them), times what the
route does with a small body once it has it: ``loads`` of the body, the cost estimate
(``estimate``), ``execute`` (validation, computing, the envelope) and the envelope's JSON bytes.
Also times each stage alone. Prints the median of several rounds, in microseconds.

    .venv/bin/python scripts/bench_execute_path.py [--rounds 7] [--calls 400] [--profile]
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import statistics
import time
from collections.abc import Callable
from functools import partial

from mtcompute import dumps
from mtcompute._execute import execute
from mtcompute.contracts import contract
from mtcompute.core.jsjson import loads
from mtcompute.server.executor import LANE_BUDGET, estimate
from mtcompute.tools import list_tools


def median_us(fn: Callable[[], object], rounds: int, calls: int) -> float:
    """The median over ``rounds`` of the mean microseconds of ``calls`` calls of ``fn``."""
    fn()
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        for _ in range(calls):
            fn()
        times.append((time.perf_counter() - start) / calls * 1e6)
    return statistics.median(times)


def route(tool_id: str, version: str, body: bytes) -> bytes:
    """What the HTTP execute route computes for a small body (not the ASGI plumbing)."""
    value = loads(body)
    estimate(tool_id, version, value, LANE_BUDGET)
    return execute(tool_id, version, value).json_bytes()


def cases() -> list[tuple[str, str, str, bytes]]:
    """(name, tool id, version, body) of every contract example."""
    out = []
    for tool in list_tools():
        for number, example in enumerate(contract(tool.id, tool.version)["examples"]):
            body = dumps(example["input"]).encode("utf-8")
            out.append((f"{tool.id}@{tool.version} #{number + 1}", tool.id, tool.version, body))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--calls", type=int, default=300)
    parser.add_argument("--profile", action="store_true", help="cProfile every case, top 30")
    args = parser.parse_args()
    rows = cases()
    if args.profile:
        profiler = cProfile.Profile()
        profiler.enable()
        for _ in range(args.calls):
            for _, tool_id, version, body in rows:
                route(tool_id, version, body)
        profiler.disable()
        pstats.Stats(profiler).sort_stats("tottime").print_stats(30)
        return
    print(f"{'example':44} {'route':>8} {'parse':>8} {'execute':>8} {'dumps':>8}  (µs, median)")
    totals = []
    for name, tool_id, version, body in rows:
        value = loads(body)
        envelope = execute(tool_id, version, value)
        whole = median_us(partial(route, tool_id, version, body), args.rounds, args.calls)
        parse = median_us(partial(loads, body), args.rounds, args.calls)
        run = median_us(partial(execute, tool_id, version, value), args.rounds, args.calls)
        write = median_us(envelope.json_bytes, args.rounds, args.calls)
        totals.append(whole)
        print(f"{name:44} {whole:8.1f} {parse:8.1f} {run:8.1f} {write:8.1f}")
    print(f"{'median over examples':44} {statistics.median(totals):8.1f}")


if __name__ == "__main__":
    main()
