"""Scoring a corpus too big for comfort on one process: ``mtcompute.dask`` on one process
against a two-process ``LocalCluster`` (issue 15's target: the same result, at least 1.6x the
throughput, peak memory per worker under 500 MB).

The corpus is generated, not stored: every WMT system output with its first reference
(``--data``, default: the full data beside the repository), tiled to ``--segments`` line
pairs (default 10,000,000: about 1.4 GB per side) in a temporary folder. Both runs score the
same files by the same path, :func:`mtcompute.dask.score_files` (the workers read
line-aligned ranges, only statistics come back), each worker with one kernel thread
(``MTCOMPUTE_THREADS=1``):

* one process: Dask's synchronous scheduler in a child process (its peak RSS from the
  kernel, ``ru_maxrss``);
* the cluster: ``LocalCluster(n_workers=--workers, threads_per_worker=1, processes=True)``,
  each worker's peak RSS read from the worker itself (``client.run``); the cluster's start
  is timed apart.

The results (``to_dict()`` of every metric) must be equal; the throughput ratio is the
one-process time over the cluster's. With ``--check-command`` the plain ``mtcompute score
--format json`` (everything in memory: for small ``--segments`` only) must print the same
JSON as ``mtcompute score --scheduler local:N``. Exit status 1 when a result differs, or when
a target is missed (unless ``--no-targets``).

    python benchmarks/dask_scale.py                     # 10^7 segments, chrF
    python benchmarks/dask_scale.py --segments 100000 --metric bleu chrf ter --check-command
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import dask
from distributed import Client, LocalCluster

from mtcompute import dask as md
from mtcompute.metrics.bleu.score import BleuOptions
from mtcompute.metrics.chrf.score import ChrfOptions
from mtcompute.metrics.ter.score import TerOptions

ROOT = Path(__file__).resolve().parents[1]
SETTINGS = {
    "bleu": md.Setting("bleu", BleuOptions()),
    "chrf": md.Setting("chrf", ChrfOptions()),
    "chrf++": md.Setting("chrf++", ChrfOptions(word_order=2)),
    "ter": md.Setting("ter", TerOptions()),
}
TARGET_RATIO = 1.6
TARGET_WORKER_MB = 500


def _pairs(data: Path) -> list[tuple[bytes, bytes]]:
    """Every WMT system's lines with its first reference's (ref.A.txt, else ref.txt)."""
    pairs: list[tuple[bytes, bytes]] = []
    for system in sorted(data.glob("*/*/sys.*.txt")):
        if system.name.endswith(".tok.txt"):
            continue
        ref = next(
            (p for p in (system.with_name("ref.A.txt"), system.with_name("ref.txt")) if p.exists()),
            None,
        )
        if ref is None:
            continue
        hyps, refs = system.read_bytes().split(b"\n"), ref.read_bytes().split(b"\n")
        if hyps[-1] == b"":
            hyps.pop()
        if refs[-1] == b"":
            refs.pop()
        if len(hyps) == len(refs):
            pairs += zip(hyps, refs, strict=True)
    return pairs


def generate(data: Path, segments: int, folder: Path) -> tuple[Path, Path]:
    """``hyp.txt`` and ``ref.txt`` of ``segments`` lines, the WMT pairs tiled."""
    pairs = _pairs(data)
    hyp_block = b"".join(h + b"\n" for h, _ in pairs)
    ref_block = b"".join(r + b"\n" for _, r in pairs)
    whole, rest = divmod(segments, len(pairs))
    paths = folder / "hyp.txt", folder / "ref.txt"
    for path, block, side in zip(paths, (hyp_block, ref_block), (0, 1), strict=True):
        with path.open("wb") as out:
            for _ in range(whole):
                out.write(block)
            out.write(b"".join(pair[side] + b"\n" for pair in pairs[:rest]))
    return paths


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _one_process(hyp: str, ref: str, metrics: list[str]) -> None:
    """The child: score on Dask's synchronous scheduler; print time, peak RSS, results."""
    settings = [SETTINGS[m] for m in metrics]
    with dask.config.set(scheduler="synchronous"):
        start, cpu = time.perf_counter(), time.process_time()
        results, count = md.score_files([hyp], [ref], settings)
        seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    out = {"seconds": seconds, "cpu": cpu, "peak_mb": _peak_mb(), "count": count}
    out["results"] = [r.to_dict() for r in results[0]]
    print(json.dumps(out))


def _worker_peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _cluster(hyp: str, ref: str, metrics: list[str], workers: int) -> dict[str, Any]:
    settings = [SETTINGS[m] for m in metrics]
    start = time.perf_counter()
    with (
        LocalCluster(
            n_workers=workers,
            threads_per_worker=1,
            processes=True,
            dashboard_address=":0",
            env={"MTCOMPUTE_THREADS": "1"},
        ) as cluster,
        Client(cluster) as client,
    ):
        started = time.perf_counter() - start
        before = client.run(time.process_time)
        start = time.perf_counter()
        results, count = md.score_files([hyp], [ref], settings)
        seconds = time.perf_counter() - start
        after = client.run(time.process_time)
        peaks = client.run(_worker_peak_mb)
    return {
        "start_seconds": started,
        "seconds": seconds,
        "worker_peak_mb": sorted(peaks.values()),
        "worker_cpu": sorted(after[w] - before[w] for w in after),
        "client_peak_mb": _peak_mb(),
        "count": count,
        "results": [r.to_dict() for r in results[0]],
    }


def _command(hyp: str, ref: str, metrics: list[str], workers: int) -> bool:
    """Whether ``mtcompute score --scheduler local:N`` prints what ``mtcompute score`` does."""
    command = [sys.executable, "-m", "mtcompute", "score", "-H", hyp, "-r", ref, "-m", *metrics]
    plain = subprocess.run([*command, "--format", "json"], capture_output=True, check=True)
    on_cluster = subprocess.run(
        [*command, "--format", "json", "--scheduler", f"local:{workers}"],
        capture_output=True,
        check=True,
    )
    return plain.stdout == on_cluster.stdout


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--segments", type=int, default=10_000_000)
    parser.add_argument("--metric", nargs="+", choices=sorted(SETTINGS), default=["chrf"])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data" / "wmt")
    parser.add_argument("--check-command", action="store_true")
    parser.add_argument("--no-targets", action="store_true")
    parser.add_argument("--one-process", nargs=2, metavar=("HYP", "REF"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one_process:
        _one_process(*args.one_process, args.metric)
        return 0
    with tempfile.TemporaryDirectory(prefix="mtcompute-dask-") as folder:
        start = time.perf_counter()
        hyp, ref = (str(p) for p in generate(args.data, args.segments, Path(folder)))
        size = os.path.getsize(hyp) + os.path.getsize(ref)
        print(
            f"corpus: {args.segments:,} segments, {size / 2**30:.2f} GiB (both sides), "
            f"generated in {time.perf_counter() - start:.1f} s; metrics {' '.join(args.metric)}; "
            f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs",
            flush=True,
        )
        child = subprocess.run(
            [sys.executable, __file__, "--one-process", hyp, ref, "--metric", *args.metric],
            capture_output=True,
            check=True,
            env={**os.environ, "MTCOMPUTE_THREADS": "1"},
        )
        one = json.loads(child.stdout)
        print(
            f"one process:  {one['seconds']:8.1f} s ({one['cpu']:.1f} s CPU), "
            f"peak {one['peak_mb']:.0f} MB",
            flush=True,
        )
        many = _cluster(hyp, ref, args.metric, args.workers)
        peaks = ", ".join(f"{mb:.0f}" for mb in many["worker_peak_mb"])
        cpus = ", ".join(f"{s:.1f}" for s in many["worker_cpu"])
        print(
            f"{args.workers} processes: {many['seconds']:8.1f} s (CPU per worker {cpus} s), "
            f"peak per worker {peaks} MB, "
            f"client {many['client_peak_mb']:.0f} MB (cluster start "
            f"{many['start_seconds']:.1f} s apart)"
        )
        same = one["results"] == many["results"] and one["count"] == many["count"]
        ratio = one["seconds"] / many["seconds"]
        rate = args.segments / many["seconds"]
        print(f"identical results: {same}")
        for result in many["results"]:
            print(f"  {result['name']} = {result['score_text']} ({result['signature']})")
        print(f"throughput: {ratio:.2f}x one process ({rate:,.0f} segments/s on the cluster)")
        bound = one["cpu"] / max(many["worker_cpu"])
        print(
            f"CPU-bound ratio (one process's CPU over the busiest worker's: the wall ratio on "
            f"an idle machine, each worker on its own core): {bound:.2f}x"
        )
        failed = not same
        if args.check_command:
            agrees = _command(hyp, ref, args.metric, args.workers)
            print(f"mtcompute score --scheduler local:{args.workers} == mtcompute score: {agrees}")
            failed |= not agrees
        worst = max(many["worker_peak_mb"])
        for name, ok in [
            (f"throughput >= {TARGET_RATIO}x: {ratio:.2f}x", ratio >= TARGET_RATIO),
            (f"peak per worker < {TARGET_WORKER_MB} MB: {worst:.0f} MB", worst < TARGET_WORKER_MB),
        ]:
            print(f"[{'PASS' if ok else 'MISS'}] {name}")
            failed |= not ok and not args.no_targets
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
