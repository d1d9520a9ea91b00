"""Time and peak memory of the paired tests (``mtcompute.significance``) against sacreBLEU
2.6.0's ``PairedTest``, each case in its own process (peak RSS of that process).

On generaltest2022 en-de (ref.A; JDExploreAcademy against Online-B, Online-W, OpenNMT,
PROMT), BLEU and chrF: the paired bootstrap (1000 resamples) and approximate randomization
(10,000 trials), ours in both arithmetic modes, sacreBLEU's from text and over statistics
given to it (its significance work alone); and the native bootstrap at 100,000 segments (the
en-de set tiled) for the five systems. ``--data`` points at the WMT folder (default
the full data beside the repository, ``shared/data/wmt``).

    python benchmarks/significance.py            # every case, a table
    python benchmarks/significance.py --case X   # one case, one JSON line
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from mtcompute import significance as sg
from mtcompute.metrics.chrf.resample import ChrfMetric

ROOT = Path(__file__).resolve().parents[1]
SYSTEMS = ["JDExploreAcademy", "Online-B", "Online-W", "OpenNMT", "PROMT"]
CASES = [
    "ours-bs-sacrebleu",
    "ours-bs-native",
    "ours-ar-sacrebleu",
    "ours-ar-native",
    "ours-ar-sacrebleu-ter",
    "sacrebleu-bs-text",
    "sacrebleu-bs-given",
    "sacrebleu-ar-given",
    "ours-bs-native-100k",
]


def read_en_de(data: Path, tile: int) -> tuple[list[list[str]], list[str]]:
    """The SYSTEMS' en-de segments and ref.A's, tiled (repeated, then cut) to ``tile``
    segments when ``tile`` is not 0 (benchmarks/run.py's native bootstrap row reads them
    here too)."""
    pair = data / "generaltest2022" / "en-de"
    hyps = [(pair / f"sys.{s}.txt").read_text(encoding="utf-8").splitlines() for s in SYSTEMS]
    ref = (pair / "ref.A.txt").read_text(encoding="utf-8").splitlines()
    if tile:
        hyps = [(h * -(-tile // len(h)))[:tile] for h in hyps]
        ref = (ref * -(-tile // len(ref)))[:tile]
    return hyps, ref


def _given(cls: Any) -> Any:
    class Given(cls):  # type: ignore[misc, valid-type]
        def _extract_corpus_statistics(self, hypotheses: Any, _references: Any) -> Any:
            self.num_refs = 1
            return hypotheses

    return Given()


def run_case(case: str, data: Path) -> dict[str, Any]:
    """One case: seconds for the statistics and for the test, peak RSS, the p-values."""
    hyps, ref = read_en_de(data, 100_000 if case.endswith("100k") else 0)
    refs = [[line] for line in ref]
    metrics: list[Any] = [sg.BleuMetric(), ChrfMetric()]
    if case.endswith("-ter"):
        metrics.append(sg.TerMetric())
    bootstrap = "-bs-" in case
    if case.startswith("sacrebleu"):
        # imported here, not at the top: our cases' processes do not load sacreBLEU
        from sacrebleu.metrics import BLEU, CHRF  # noqa: PLC0415
        from sacrebleu.significance import PairedTest  # noqa: PLC0415
    start = time.perf_counter()
    statistics = 0.0
    if case == "sacrebleu-bs-text":  # sacreBLEU from text: its statistics and its test
        sacre = {"BLEU": BLEU(), "chrF2": CHRF()}
        _, scores = PairedTest(list(zip(SYSTEMS, hyps, strict=True)), sacre, [ref], "bs")()
        p_values = [[r.p_value for r in scores[name][1:]] for name in sacre]
    else:
        tables = [sg.Table(m, [np.array(m.statistics(h, refs)) for h in hyps]) for m in metrics]
        statistics = time.perf_counter() - start
        start = time.perf_counter()
        if case.startswith("sacrebleu"):  # its test over the same statistics
            p_values = []
            for table, cls in zip(tables, (BLEU, CHRF), strict=False):
                named = [
                    (n, np.asarray(st).tolist())
                    for n, st in zip(SYSTEMS, table.statistics, strict=True)
                ]
                _, scores = PairedTest(
                    named, {"m": _given(cls)}, None, "bs" if bootstrap else "ar"
                )()
                (name,) = (key for key in scores if key != "System")
                p_values.append([r.p_value for r in scores[name][1:]])
        else:
            arithmetic: sg.Arithmetic = "native" if "native" in case else "sacrebleu"
            if bootstrap:
                results = sg.paired_bootstrap(tables, arithmetic=arithmetic)
            else:
                results = sg.paired_approximate_randomization(tables, arithmetic=arithmetic)
            p_values = [[r.p_value for r in row[1:]] for row in results]
    return {
        "case": case,
        "statistics_s": statistics,
        "test_s": time.perf_counter() - start,
        "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "p_values": p_values,
    }


def main() -> None:
    """Run one case, or every case in a child process each, printing a table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--case", choices=CASES)
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data" / "wmt")
    args = parser.parse_args()
    if args.case:
        print(json.dumps(run_case(args.case, args.data)))
        return
    print(f"{'case':24} {'statistics s':>12} {'test s':>8} {'peak MB':>8}  p-values")
    for case in CASES:
        wall = time.perf_counter()
        out = subprocess.run(
            [sys.executable, __file__, "--case", case, "--data", str(args.data)],
            capture_output=True,
            text=True,
            check=True,
        )
        row = json.loads(out.stdout)
        wall = time.perf_counter() - wall
        p = "; ".join(" ".join(f"{v:.6f}" for v in m) for m in row["p_values"])
        print(
            f"{case:24} {row['statistics_s']:12.2f} {row['test_s']:8.2f} {row['peak_mb']:8.0f}"
            f"  {p}  (process {wall:.1f} s)",
            flush=True,
        )


if __name__ == "__main__":
    main()
