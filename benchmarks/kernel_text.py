"""Micro-benchmark of the kernel's sacreBLEU-exact text paths (issue 11's speed rows at the
counting layer, one thread): BLEU from raw text with 13a (``bleu_counts.bleu_text_statistics``
with the 13a tokenizer, tokenizing included, then ``metrics.bleu.score.compute_bleu``) against
sacreBLEU ``BLEU().corpus_score`` with a cold tokenizer cache and bleuscore (if installed),
and chrF++ (``sacrebleu_chrf_statistics``, then ``chrf_f_score``) against
sacreBLEU ``CHRF(word_order=2).corpus_score``. Same scores are checked first.

    .venv/bin/python benchmarks/kernel_text.py [--data DIR] [--pair generaltest2022/en-de]

Times are medians of ``time.perf_counter`` over ``--repeats`` calls after one warm-up (the
cold sacreBLEU row clears its cache before each call). The machine's load inflates every time;
compare the ratios.
"""

from __future__ import annotations

import os

os.environ["MTCOMPUTE_THREADS"] = "1"  # before mtcompute reads it

import argparse
import importlib
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

from mtcompute.metrics.bleu import counts as bleu_counts
from mtcompute.metrics.bleu.score import compute_bleu
from mtcompute.metrics.chrf.sacrebleu_statistics import chrf_f_score, sacrebleu_chrf_statistics
from mtcompute.tokenizers import get_tokenizer

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "wmt"


def median_seconds(work: Callable[[], object], repeats: int, before: Callable[[], None]) -> float:
    """The median of ``repeats`` timed calls of ``work`` (``before`` untimed before each)."""
    before()
    work()
    times = []
    for _ in range(repeats):
        before()
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> int:
    """Print the rows; 1 if a score differs from sacreBLEU's."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--pair", default="generaltest2022/en-de")
    parser.add_argument("--system", default="JDExploreAcademy")
    parser.add_argument("--repeats", type=int, default=11)
    args = parser.parse_args()
    folder = args.data / args.pair
    ref = (folder / "ref.A.txt").read_text(encoding="utf-8").splitlines()
    hyp = (folder / f"sys.{args.system}.txt").read_text(encoding="utf-8").splitlines()
    refs = [[line] for line in ref]
    tok = get_tokenizer("13a")

    def bleu() -> float:
        total, _ = bleu_counts.bleu_text_statistics(hyp, refs, 4, tokenizer=tok, threads=1)
        return compute_bleu(
            total.matches, total.totals, total.candidate_length, total.reference_length, "exp"
        ).score

    def chrf() -> float:
        total, _ = sacrebleu_chrf_statistics(hyp, refs, 6, 2, 2, threads=1)
        return chrf_f_score(total, 8, 2)

    sacrebleu = importlib.import_module("sacrebleu")
    cache = importlib.import_module("sacrebleu.tokenizers.tokenizer_13a").Tokenizer13a.__call__

    def nothing() -> None:
        pass

    def sacre_bleu() -> float:
        return float(sacrebleu.BLEU().corpus_score(hyp, [ref]).score)

    def sacre_chrf() -> float:
        return float(sacrebleu.CHRF(word_order=2).corpus_score(hyp, [ref]).score)

    failures = 0
    for name, ours, theirs in (("BLEU 13a", bleu, sacre_bleu), ("chrF++", chrf, sacre_chrf)):
        same = ours() == theirs()
        failures += not same
        print(f"{'PASS' if same else 'FAIL'} {name}: mtcompute == sacreBLEU ({ours()!r})")
    rows = [
        (
            "BLEU 13a raw",
            "mtcompute counting+compute_bleu",
            median_seconds(bleu, args.repeats, nothing),
        ),
        ("BLEU 13a raw", "sacreBLEU BLEU() cold", median_seconds(sacre_bleu, 3, cache.cache_clear)),
    ]
    try:
        bleuscore = importlib.import_module("bleuscore")
    except ImportError:
        print("bleuscore not installed: its row is skipped")
    else:
        brefs = [[line] for line in ref]
        rows.append(
            (
                "BLEU 13a raw",
                "bleuscore compute",
                median_seconds(
                    lambda: bleuscore.compute(brefs, hyp, max_order=4), args.repeats, nothing
                ),
            )
        )
    rows += [
        ("chrF++", "mtcompute counting+chrf_f_score", median_seconds(chrf, args.repeats, nothing)),
        ("chrF++", "sacreBLEU CHRF(word_order=2)", median_seconds(sacre_chrf, 3, nothing)),
    ]
    print(f"load average {os.getloadavg()[0]:.2f}; {args.pair}, {len(hyp)} segments, 1 thread")
    base = {
        section: seconds for section, subject, seconds in rows if subject.startswith("mtcompute")
    }
    for section, subject, seconds in rows:
        ratio = seconds / base[section]
        print(f"{section:13} {subject:34} {seconds * 1000:9.2f} ms  {ratio:6.1f}x")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
