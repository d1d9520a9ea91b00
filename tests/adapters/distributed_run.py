"""Two processes of torch.distributed (gloo, on 127.0.0.1) each update the adapter's metrics
with every other segment of the WMT sample; rank 0 prints the synced scores as JSON. Run as
``python -m tests.adapters.distributed_run PORT`` from the repository (by
tests/adapters/test_torchmetrics.py)."""

from __future__ import annotations

import json
import sys

from tests.adapters.wmt import FIRST, HYPOTHESES, REFERENCES

WORLD = 2


def run(rank: int, port: int) -> None:
    """One rank: its segments into each metric, then compute() (which syncs the states)."""
    # imported here: pytest's doctest pass imports this module where torch may be missing
    import torch.distributed as dist

    from mtcompute.adapters.torchmetrics import BLEU, CHRF, TER, WER

    dist.init_process_group("gloo", f"tcp://127.0.0.1:{port}", rank=rank, world_size=WORLD)
    try:
        metrics = {
            "bleu": (BLEU(), REFERENCES),
            "chrf++": (CHRF(word_order=2), REFERENCES),
            "ter": (TER(), [[ref] for ref in FIRST]),
            "wer": (WER(), FIRST),
        }
        scores = {}
        for name, (metric, refs) in metrics.items():
            metric.update(HYPOTHESES[rank::WORLD], refs[rank::WORLD])
            scores[name] = float(metric.compute())
        if rank == 0:
            print(json.dumps(scores))
    finally:
        dist.destroy_process_group()


if __name__ == "__main__":
    import torch.multiprocessing as mp

    # fork: the children have torch and the data already (spawn would import them again)
    mp.start_processes(run, args=(int(sys.argv[1]),), nprocs=WORLD, start_method="fork")
