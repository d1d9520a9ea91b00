"""Whole ``sacrebleu`` commands on en-ja, taking turns: wall and CPU time (``os.wait4``: the
process and the children it reaped, so the second MeCab process is counted), medians.

    python benchmarks/mecab_fork.py --rounds 7 [--data DIR] [--extra -m bleu chrf]
        [--command NAME=ENV:PROGRAM ...] [--raw]

Each ``--command`` is a label, optional ``VAR=value,...`` settings before a colon, and the
program (``mtcompute sacrebleu`` or ``sacrebleu``) run with the same arguments; stdout is
compared with the first command's. Every other round runs the commands in the reverse order.
Besides the ratio of the medians, the median of each round's ratio ("paired"), which the
machine's drift from round to round moves less. Issue 28 item 7: MeCab in a second
process."""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

DATA = Path(__file__).resolve().parents[1] / "tests" / "data"


def run(command: list[str], env: dict[str, str]) -> tuple[float, float, bytes]:
    """Wall seconds, CPU seconds (user and system, with reaped children) and stdout."""
    with tempfile.TemporaryFile() as out:
        start = time.perf_counter()
        proc = subprocess.Popen(command, stdout=out, stderr=subprocess.DEVNULL, env=env)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        if os.waitstatus_to_exitcode(status) != 0:
            raise SystemExit(f"{command[0]} exited {os.waitstatus_to_exitcode(status)}")
        out.seek(0)
        return wall, usage.ru_utime + usage.ru_stime, out.read()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--data", type=Path, required=True, help="the en-ja folder")
    parser.add_argument("--command", action="append", required=True, metavar="LABEL=SPEC")
    parser.add_argument("--raw", action="store_true", help="also every run's wall and CPU")
    parser.add_argument("extra", nargs="*", help="after --: arguments after -i SYSTEMS")
    args = parser.parse_args()
    systems = [str(p) for p in sorted(args.data.glob("sys.*.txt"))]
    arguments = [str(args.data / "ref.A.txt"), "-i", *systems, *args.extra]
    commands = []
    for spec in args.command:
        label, _, rest = spec.partition("=")
        settings, _, program = rest.rpartition(":")
        env = {**os.environ}
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        for pair in filter(None, settings.split(",")):
            name, _, value = pair.partition("=")
            env[name] = value
        commands.append((label, [*program.split(), *arguments], env))
    outputs = {label: run(command, env)[2] for label, command, env in commands}  # warm caches
    first = next(iter(outputs.values()))
    for label, out in outputs.items():
        print(f"{label}: {len(out)} bytes of stdout, same as the first: {out == first}")
    times: dict[str, list[tuple[float, float]]] = {label: [] for label, _, _ in commands}
    loads = [os.getloadavg()[0]]
    for turn in range(args.rounds):  # every other round in the reverse order
        for label, command, env in commands[:: 1 if turn % 2 == 0 else -1]:
            wall, cpu, _ = run(command, env)
            times[label].append((wall, cpu))
        loads.append(os.getloadavg()[0])
    print(f"{args.rounds} rounds, load average {min(loads):.2f}-{max(loads):.2f}")
    last = commands[-1][0]
    base = statistics.median(w for w, _ in times[last])
    base_cpu = statistics.median(c for _, c in times[last])
    for label, pairs in times.items():
        wall = statistics.median(w for w, _ in pairs)
        cpu = statistics.median(c for _, c in pairs)
        # each round's ratio, then their median: the machine's drift between rounds cancels
        paired = statistics.median(b / w for (b, _), (w, _) in zip(times[last], pairs, strict=True))
        print(
            f"{label:>24}: wall {wall * 1000:6.0f} ms (min {min(w for w, _ in pairs) * 1000:.0f})"
            f"  CPU {cpu * 1000:6.0f} ms   {last}/this: wall {base / wall:5.2f}x"
            f"  CPU {base_cpu / cpu:5.2f}x  paired wall {paired:5.2f}x"
        )
        if args.raw:
            print(" " * 26 + " ".join(f"{w * 1000:.0f}/{c * 1000:.0f}" for w, c in pairs))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
