#!/usr/bin/env python3
"""Streaming ``mtcompute score`` (issue 15): peak memory and wall time of whole processes on
the 200 MB pair, against the in-memory path before streaming, and their growth with the
corpus size.

The pair is generaltest2022 en-de ``sys.Online-B.txt`` against ``ref.A.txt``, both repeated
to 1,819,041 lines (893 times the 2,037 segments; about 210 MB a file), generated into a
temporary folder and deleted afterwards (never stored). Each metric (bleu, chrf, chrf++,
ter) is scored by its own ``mtcompute score`` process with ``MTCOMPUTE_THREADS=1`` and
``=2``: the wall time (``time.perf_counter`` around the process) and the peak RSS of the
process (``ru_maxrss`` from ``os.wait4``), medians of ``--repeats`` runs. ``--old COMMAND``
runs the in-memory path too (an ``mtcompute`` executable of the code before streaming, for
instance the main checkout's ``.venv/bin/mtcompute`` before the merge) on one thread, and
checks that both print the same bytes.

Targets (the issue's): peak RSS at most 300 MB for every metric; one thread within 1.1x of
the old path's time on one thread (only with ``--old``); two threads at least 1.6x faster
than one. Then the growth table: one metric (``--growth-metric``, default chrf) at
``--sizes`` segments (default 10^5, 10^6, 10^7), one thread, time and peak RSS, and the time
per segment (linear growth: a constant time per segment, a constant peak). The CPU seconds
(user and system) are printed beside the wall times: on a loaded machine they say more; so
does ``both``, the fraction of the two-thread run's wall time with both cores busy, from
``cpu / wall - 1`` (one core is always busy). First, the machine's own two-core capacity:
the time of one CPU-bound process alone over that of two run at once (2.00 on two free
cores; a shared or throttled machine gives less, and no program can be faster with two
threads than that); and ``others``, the cores the machine's other processes kept busy during
the one- or the two-thread run, whichever is more (``/proc/stat``): above 0.1 or so, that
row's ratio measures the sharing rather than the program.

    python benchmarks/streaming.py --old ../main/.venv/bin/mtcompute
    python benchmarks/streaming.py --quick            # 100,000 segments, sizes 10^4 and 10^5
    python benchmarks/streaming.py --sizes 100000 1000000 --metrics chrf bleu
    python benchmarks/streaming.py --sacrebleu --metrics chrf --sizes  # mtcompute sacrebleu too

``--quick`` checks the identity and the memory target only (at that size the start of a
process weighs on the times). Exit 0 when every target is met, 1 when one is missed (never
with ``--no-targets``), 2 on a usage error. The machine's load moves the times: run it idle,
and read the medians.
"""

from __future__ import annotations

import argparse
import compileall
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
SHARED_WMT = REPO.parent / "shared" / "data" / "wmt"
SAMPLE_WMT = REPO / "tests" / "data" / "wmt"
PAIR = ("generaltest2022", "en-de", "sys.Online-B.txt", "ref.A.txt")
FULL_SEGMENTS = 1_819_041  # 893 times en-de's 2,037: the 200 MB pair
QUICK_SEGMENTS = 100_000
METRICS = ("bleu", "chrf", "chrf++", "ter")
SIZES = (100_000, 1_000_000, 10_000_000)
QUICK_SIZES = (10_000, 100_000)
MAX_RSS_MB = 300.0
MAX_SLOWDOWN = 1.1  # one thread against the old path's one thread
MIN_SPEEDUP = 1.6  # two threads against one


@dataclass(frozen=True, slots=True)
class Run:
    """One process: wall seconds, CPU seconds (user and system), peak RSS in MB, exit
    status, standard output, and the CPU seconds the machine's other processes used
    meanwhile (NaN where ``/proc/stat`` cannot be read)."""

    seconds: float
    cpu: float
    rss_mb: float
    status: int
    stdout: bytes
    others: float


@dataclass(frozen=True, slots=True)
class Row:
    """The medians of one command's runs (and the output of its first)."""

    seconds: float
    cpu: float
    rss_mb: float
    stdout: bytes
    others: float


def wmt_folder() -> Path:
    """The WMT data: ``MTCOMPUTE_WMT_DIR``, else the full data beside the repo, else the sample."""
    env = os.environ.get("MTCOMPUTE_WMT_DIR")
    if env:
        return Path(env)
    return SHARED_WMT if SHARED_WMT.is_dir() else SAMPLE_WMT


def tiled(source: Path, target: Path, segments: int) -> Path:
    """``source``'s lines repeated (then cut) to ``segments`` lines, written to ``target``."""
    lines = source.read_bytes().splitlines(keepends=True)
    whole, rest = divmod(segments, len(lines))
    block = b"".join(lines)
    with target.open("wb") as out:
        for _ in range(whole):
            out.write(block)
        out.write(b"".join(lines[:rest]))
    return target


def make_pair(folder: Path, segments: int) -> tuple[Path, Path]:
    """The system and reference files of ``segments`` lines in ``folder``."""
    testset, pair, system, reference = PAIR
    source = wmt_folder() / testset / pair
    return (
        tiled(source / system, folder / f"hyp.{segments}.txt", segments),
        tiled(source / reference, folder / f"ref.{segments}.txt", segments),
    )


def busy_seconds() -> float:
    """The CPU seconds the whole machine has been busy (``/proc/stat``: user, nice, system,
    irq, softirq), NaN where it cannot be read."""
    try:
        with open("/proc/stat") as stat:
            fields = [int(x) for x in stat.readline().split()[1:8]]
    except (OSError, ValueError):
        return float("nan")
    user, nice, system, _, _, irq, softirq = fields
    return (user + nice + system + irq + softirq) / os.sysconf("SC_CLK_TCK")


def run_once(command: Sequence[str], threads: int) -> Run:
    """One process with ``MTCOMPUTE_THREADS=threads``: its time, peak RSS and output, and
    the CPU the other processes used meanwhile."""
    env = dict(os.environ, MTCOMPUTE_THREADS=str(threads))
    with tempfile.TemporaryFile() as out:
        busy = busy_seconds()
        start = time.perf_counter()
        proc = subprocess.Popen(command, stdout=out, stderr=subprocess.DEVNULL, env=env)
        _, status, usage = os.wait4(proc.pid, 0)
        seconds = time.perf_counter() - start
        busy = busy_seconds() - busy
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        stdout = out.read()
    cpu = usage.ru_utime + usage.ru_stime
    return Run(seconds, cpu, usage.ru_maxrss / 1024, proc.returncode, stdout, busy - cpu)


def measure(command: Sequence[str], threads: int, repeats: int) -> Row:
    """The medians of ``repeats`` runs; exit 2 when one fails."""
    runs = [run_once(command, threads) for _ in range(repeats)]
    for found in runs:
        if found.status != 0:
            sys.stderr.write(f"streaming.py: {' '.join(command)} exited {found.status}\n")
            raise SystemExit(2)
    return Row(
        statistics.median(r.seconds for r in runs),
        statistics.median(r.cpu for r in runs),
        statistics.median(r.rss_mb for r in runs),
        runs[0].stdout,
        statistics.median(r.others for r in runs),
    )


SPIN = "x = 0\nfor i in range(30_000_000): x += i"  # about 2 s of one core


def capacity() -> float:
    """Two CPU-bound processes at once against one alone: 2 * alone / together."""
    command = [sys.executable, "-c", SPIN]
    start = time.perf_counter()
    subprocess.run(command, check=True)
    alone = time.perf_counter() - start
    start = time.perf_counter()
    procs = [subprocess.Popen(command) for _ in range(2)]
    for proc in procs:
        proc.wait()
    return 2 * alone / (time.perf_counter() - start)


def score_command(executable: Sequence[str], hyp: Path, ref: Path, metric: str) -> list[str]:
    return [*executable, "score", "-H", str(hyp), "-r", str(ref), "-m", metric]


def sacrebleu_rows(
    new: Sequence[str],
    old: Sequence[str] | None,
    hyp: Path,
    ref: Path,
    repeats: int,
    missed: list[str],
) -> None:
    """``mtcompute sacrebleu REF -i SYS -m METRIC`` on one thread: the chunked path against
    the whole-file one (with ``--old``), the same bytes out, peak RSS under the target."""
    print(f"\nmtcompute sacrebleu, one thread\n{'metric':<8}{'old s':>8}{'old MB':>9}", end="")
    print(f"{'new s':>8}{'new MB':>9}{'old cpu':>9}{'new cpu':>9}  same")
    for metric in ("bleu", "chrf", "ter"):
        tail = ["sacrebleu", str(ref), "-i", str(hyp), "-m", metric]
        now = measure([*new, *tail], 1, repeats)
        before = measure([*old, *tail], 1, repeats) if old else None
        same = "-" if before is None else "yes" if before.stdout == now.stdout else "NO"
        nan = float("nan")
        print(
            f"{metric:<8}{before.seconds if before else nan:>8.2f}"
            f"{before.rss_mb if before else nan:>9.0f}{now.seconds:>8.2f}{now.rss_mb:>9.0f}"
            f"{before.cpu if before else nan:>9.1f}{now.cpu:>9.1f}  {same}"
        )
        if same == "NO":
            missed.append(f"sacrebleu {metric}: output differs")
        if now.rss_mb > MAX_RSS_MB:
            missed.append(f"sacrebleu {metric}: peak RSS {now.rss_mb:.0f} MB > {MAX_RSS_MB:.0f} MB")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a small pair and small sizes")
    parser.add_argument("--segments", type=int, default=None, help="the pair's lines")
    parser.add_argument("--metrics", nargs="+", choices=METRICS, default=list(METRICS))
    parser.add_argument("--old", default=None, metavar="COMMAND", help="the in-memory mtcompute")
    parser.add_argument("--sizes", nargs="*", type=int, default=None, help="growth sizes")
    parser.add_argument("--growth-metric", choices=METRICS, default="chrf")
    parser.add_argument("--repeats", type=int, default=None, help="runs per row (median)")
    parser.add_argument("--no-targets", action="store_true", help="report, never exit 1")
    parser.add_argument(
        "--sacrebleu", action="store_true", help="rows of mtcompute sacrebleu too (one thread)"
    )
    args = parser.parse_args(argv)
    segments = args.segments or (QUICK_SEGMENTS if args.quick else FULL_SEGMENTS)
    sizes = args.sizes if args.sizes is not None else (QUICK_SIZES if args.quick else SIZES)
    repeats = args.repeats or (1 if args.quick else 3)
    new = [sys.executable, "-m", "mtcompute"]
    old = args.old.split() if args.old else None
    if old is not None and shutil.which(old[0]) is None:
        sys.stderr.write(f"streaming.py: --old {args.old}: not an executable\n")
        return 2
    # bytecode first, as an installed package has it (PYTHONDONTWRITEBYTECODE would otherwise
    # leave every process compiling the sources again)
    compileall.compile_dir(REPO / "src" / "mtcompute", quiet=1)
    missed: list[str] = []
    folder = Path(tempfile.mkdtemp(prefix="mtcompute-streaming-"))
    try:
        hyp, ref = make_pair(folder, segments)
        size_mb = hyp.stat().st_size / 1e6
        print(
            f"mtcompute score, {segments:,} segments ({size_mb:.0f} MB system file), medians of "
            f"{repeats} run(s), load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs"
        )
        print(f"two-core capacity of the machine now: {capacity():.2f}x")
        head = f"{'metric':<8}{'old 1t s':>10}{'old MB':>9}{'new 1t s':>10}{'new 2t s':>10}"
        head += f"{'new 1t MB':>11}{'new 2t MB':>11}{'1t/old':>8}{'1t/2t':>7}"
        print(f"{head}{'old cpu':>9}{'1t cpu':>8}{'2t cpu':>8}{'both':>6}{'others':>8}  same")
        for metric in args.metrics:
            command = score_command(new, hyp, ref, metric)
            one = measure(command, 1, repeats)
            two = measure(command, 2, repeats)
            before = measure(score_command(old, hyp, ref, metric), 1, repeats) if old else None
            speedup = one.seconds / two.seconds
            same = "-" if before is None else "yes" if before.stdout == one.stdout else "NO"
            if two.stdout != one.stdout:
                same = "NO (threads)"
            slowdown = one.seconds / before.seconds if before else None
            print(
                f"{metric:<8}"
                f"{before.seconds if before else float('nan'):>10.2f}"
                f"{before.rss_mb if before else float('nan'):>9.0f}"
                f"{one.seconds:>10.2f}{two.seconds:>10.2f}{one.rss_mb:>11.0f}{two.rss_mb:>11.0f}"
                f"{slowdown if slowdown else float('nan'):>8.2f}{speedup:>7.2f}"
                f"{before.cpu if before else float('nan'):>9.1f}{one.cpu:>8.1f}{two.cpu:>8.1f}"
                f"{min(1.0, max(0.0, two.cpu / two.seconds - 1)):>6.2f}"
                f"{max(one.others / one.seconds, two.others / two.seconds):>8.2f}  {same}"
            )
            if same.startswith("NO"):
                missed.append(f"{metric}: output differs ({same})")
            for rss in (one.rss_mb, two.rss_mb):
                if rss > MAX_RSS_MB:
                    missed.append(f"{metric}: peak RSS {rss:.0f} MB > {MAX_RSS_MB:.0f} MB")
            if not args.quick:
                if slowdown is not None and slowdown > MAX_SLOWDOWN:
                    missed.append(f"{metric}: one thread {slowdown:.2f}x the old path's time")
                if speedup < MIN_SPEEDUP:
                    missed.append(f"{metric}: two threads {speedup:.2f}x faster than one")
        if args.sacrebleu:
            sacrebleu_rows(new, old, hyp, ref, repeats, missed)
        for path in (hyp, ref):
            path.unlink()
        if sizes:
            print(f"\ngrowth: mtcompute score -m {args.growth_metric}, one thread")
            print(f"{'segments':>11}{'seconds':>10}{'cpu s':>8}{'peak MB':>9}{'us/segment':>12}")
            for size in sizes:
                hyp, ref = make_pair(folder, size)
                row = measure(score_command(new, hyp, ref, args.growth_metric), 1, repeats)
                per = row.seconds / size * 1e6
                print(
                    f"{size:>11,}{row.seconds:>10.2f}{row.cpu:>8.1f}{row.rss_mb:>9.0f}{per:>12.2f}"
                )
                if row.rss_mb > MAX_RSS_MB:
                    missed.append(f"growth {size:,}: peak RSS {row.rss_mb:.0f} MB")
                hyp.unlink()
                ref.unlink()
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    if missed:
        print("\nmissed targets:\n  " + "\n  ".join(missed))
        return 0 if args.no_targets else 1
    print("\nevery target met")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
