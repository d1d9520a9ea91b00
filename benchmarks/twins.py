"""The twin policy's rows: every export of the C kernel against its Python twin.

A C function stays only where it is at least 2x faster than its Python twin on a real
workload. Each row times one export through the function that calls it, once on the
kernel's path and once on the pure path (every twin switched in process by
``mtcompute.native.switch``), on a WMT file pair (generaltest2022 en-de: the
JDExploreAcademy system against reference A, the first ``--lines`` segments) or on the
contract examples in ``examples/``.
Both paths must give the same answer; the row says so. One thread (``MTCOMPUTE_THREADS=1``),
best of ``--repeat`` runs.

    .venv/bin/python benchmarks/twins.py [--wmt DIR] [--lines 500]
"""

from __future__ import annotations

import os

os.environ["MTCOMPUTE_THREADS"] = "1"  # before mtcompute is imported: one thread a path

import argparse
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from mtcompute import counting, native, streaming
from mtcompute.core import jsjson, tokenizers
from mtcompute.metrics.bleu import counts as bleu_counts
from mtcompute.metrics.chrf import sacrebleu_statistics as sacre_chrf
from mtcompute.metrics.chrf import statistics as chrf_counting
from mtcompute.metrics.ter import statistics as ter_statistics
from mtcompute.tokenizers import get_tokenizer

REPO = Path(__file__).resolve().parents[1]
PAIR = "generaltest2022/en-de"
SYSTEM, REFERENCE = "sys.JDExploreAcademy.txt", "ref.A.txt"


def best_time(func: Callable[[], object], repeat: int) -> tuple[float, object]:
    """The fastest of ``repeat`` runs of ``func`` in seconds, and its last answer."""
    best, answer = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        answer = func()
        best = min(best, time.perf_counter() - start)
    return best, answer


def on_path(kernel: bool, func: Callable[[], object]) -> Callable[[], object]:
    """``func`` run with the kernel's path on or off."""

    def run() -> object:
        saved = native.switch(kernel)
        try:
            return func()
        finally:
            native.switch(saved)

    return run


def rows(
    wmt: Path, lines: int
) -> list[tuple[str, str, Callable[[], object], Callable[[], object]]]:
    """(export, workload, kernel call, pure call) for every export of the kernel."""
    folder = wmt / PAIR
    hyp_bytes = (folder / SYSTEM).read_bytes()
    ref_bytes = (folder / REFERENCE).read_bytes()
    hyps = hyp_bytes.decode("utf-8").split("\n")[:lines]
    refs = ref_bytes.decode("utf-8").split("\n")[:lines]
    n = len(hyps)
    hyp_data = "\n".join(hyps).encode("utf-8") + b"\n"
    ref_data = "\n".join(refs).encode("utf-8") + b"\n"
    refs1 = [[r] for r in refs]
    tok_h = [h.split() for h in hyps]
    tok_r = [[r.split()] for r in refs]
    ids: dict[str, int] = {}
    id_h = [[ids.setdefault(w, len(ids)) for w in h] for h in tok_h]
    id_r = [[[ids.setdefault(w, len(ids)) for w in r[0]]] for r in tok_r]
    block = 16  # MBR: one block of 16 hypotheses against themselves
    wmt_work = f"{PAIR} {n} lines"
    examples = [
        json.loads(path.read_text(encoding="utf-8"))
        for path in sorted((REPO / "examples").glob("*.json"))
    ]
    tok13a = get_tokenizer("13a")

    def pure_wide() -> object:
        wide = [i for i, t in enumerate(hyps) if not t.isascii() and max(t) >= "\u0100"]
        return wide, [(i, 0) for i, t in enumerate(refs) if not t.isascii() and max(t) >= "\u0100"]

    def pure_plain() -> bool:
        counting._check_texts(hyps, refs1)
        return counting.first_lone_surrogate([*hyps, *refs]) is None

    def pure_line_bleu() -> object:
        hyp_lines = hyp_data.decode("utf-8").split("\n")[:n]
        ref_lines = ref_data.decode("utf-8").split("\n")[:n]
        total, buffer = bleu_counts.bleu_text_rows(
            hyp_lines, [[r] for r in ref_lines], tokenizer=tok13a
        )
        return total, buffer

    def kernel_line_bleu() -> object:
        return bleu_counts.bleu_line_rows(
            hyp_data, [ref_data], n, per_segment=True, tokenizer=tok13a
        )

    def pure_line_chrf() -> object:
        hyp_lines = hyp_data.decode("utf-8").split("\n")[:n]
        ref_lines = ref_data.decode("utf-8").split("\n")[:n]
        return sacre_chrf.sacrebleu_chrf_rows(hyp_lines, [[r] for r in ref_lines], 6, 2, 2)

    def kernel_line_chrf() -> object:
        return sacre_chrf.sacrebleu_chrf_line_rows(
            hyp_data, [ref_data], n, 6, 2, 2, per_segment=True
        )

    same = (
        ("chrf_counts", wmt_work, lambda: chrf_counting.chrf_statistics_many(hyps, refs, 6)),
        (
            "chrf_segment",
            wmt_work + ", one call a segment",
            lambda: [
                chrf_counting.chrf_segment_statistics(h, r, 6)
                for h, r in zip(hyps, refs, strict=True)
            ],
        ),
        (
            "chrf_scores",
            wmt_work + " (with chrf_counts)",
            lambda: chrf_counting.chrf_totals(hyps, refs, segment_beta=2),
        ),
        (
            "chrf_ratios",
            wmt_work + " (with chrf_counts)",
            lambda: chrf_counting.chrf_ratios(hyps, refs, 2),
        ),
        (
            "chrf_pairwise",
            f"{PAIR} MBR {block}x{block}",
            lambda: chrf_counting.chrf_pairwise_matrix(hyps[:block], hyps[:block]),
        ),
        (
            "bleu_counts",
            wmt_work + ", split tokens",
            lambda: bleu_counts.bleu_statistics_many(tok_h, tok_r, 4),
        ),
        (
            "bleu_sentence",
            wmt_work + ", one call a segment",
            lambda: [
                bleu_counts.bleu_sentence_statistics(h, r, 4)
                for h, r in zip(tok_h, tok_r, strict=True)
            ],
        ),
        (
            "bleu_counts_text",
            wmt_work + ", 13a",
            lambda: bleu_counts.bleu_text_statistics(
                hyps, refs1, 4, per_segment=True, tokenizer=tok13a
            ),
        ),
        (
            "sacrebleu_chrf_counts",
            wmt_work + ", chrF++",
            lambda: sacre_chrf.sacrebleu_chrf_statistics(hyps, refs1, 6, 2, 2),
        ),
        ("ter_edits", wmt_work + ", word ids", lambda: ter_statistics.id_statistics(id_h, id_r)),
        ("ter_statistics_text", wmt_work, lambda: ter_statistics.text_statistics(hyps, refs1)),
        (
            "first_lone_surrogate",
            wmt_work + ", both sides",
            lambda: counting.first_lone_surrogate([*hyps, *refs]),
        ),
        (
            "skip_lines",
            f"{PAIR} {SYSTEM} bytes",
            lambda: streaming.skip_lines(hyp_data, 0, n, True),
        ),
        (
            "js_dumps",
            f"the {len(examples)} contract examples",
            lambda: [jsjson.dumps(e) for e in examples],
        ),
    )
    out = [(name, work, on_path(True, f), on_path(False, f)) for name, work, f in same]
    out += [
        (
            "tokenize_13a",
            wmt_work + ", hypotheses",
            lambda: [native.ext.tokenize_13a(h) for h in hyps],
            lambda: [tokenizers.tokenize_13a(h) for h in hyps],
        ),
        (
            "plain_texts",
            wmt_work,
            lambda: native.ext.plain_texts(hyps, refs1),
            on_path(False, pure_plain),
        ),
        ("wide_texts", wmt_work, lambda: native.ext.wide_texts(hyps, refs1), pure_wide),
        (
            "bleu_counts_lines",
            wmt_work + ", 13a, bytes",
            kernel_line_bleu,
            on_path(False, pure_line_bleu),
        ),
        (
            "sacrebleu_chrf_lines",
            wmt_work + ", chrF++, bytes",
            kernel_line_chrf,
            on_path(False, pure_line_chrf),
        ),
    ]
    out += _paired_bootstrap_rows(wmt)
    return out


PAIRED_SYSTEMS = ["JDExploreAcademy", "Online-B", "Online-W", "OpenNMT", "PROMT"]


def _paired_bootstrap_rows(
    wmt: Path,
) -> list[tuple[str, str, Callable[[], object], Callable[[], object]]]:
    """``mtcompute sacrebleu -pbs``'s resampling: bootstrap_scores, bootstrap_interval and
    bootstrap_p (one row: the last two take the first's output) against
    mtcompute.significance.paired_bootstrap (numpy, sacreBLEU's arithmetic) on the statistics
    of five whole en-de systems, BLEU and chrF, 1000 resamples, each answering the p-values,
    means and half widths; and resample_draws, the draws bootstrap_scores makes, exported so
    that the tests compare them with numpy's ``choice``, against that ``choice``."""
    import numpy as np  # noqa: PLC0415  # this row only

    import mtcompute.sacrebleu as facade  # noqa: PLC0415
    from mtcompute import significance  # noqa: PLC0415
    from mtcompute.sacrebleu import _paired  # noqa: PLC0415

    folder = wmt / PAIR
    ref = (folder / REFERENCE).read_text(encoding="utf-8").splitlines()
    systems = [
        (folder / f"sys.{s}.txt").read_text(encoding="utf-8").splitlines() for s in PAIRED_SYSTEMS
    ]
    metrics = [facade.BLEU(references=[ref]), facade.CHRF(references=[ref])]
    specs, buffers, tables = [], [], []
    for metric in metrics:
        read = _paired.rows_reader(metric, None)
        assert read is not None
        specs.append(_paired._spec(metric))
        buffers.append([read(hyps)[1] for hyps in systems])
        width = 3 * 6 if isinstance(metric, facade.CHRF) else 10
        matrices = [np.frombuffer(b, np.int64).reshape(-1, width) for b in buffers[-1]]
        tables.append(significance.Table(metric._significance_metric(), matrices))
    state = _paired.pcg64_bytes(12345)
    series = [(spec, b) for spec, row in zip(specs, buffers, strict=True) for b in row]
    scores = [
        [table.metric.score(m.sum(axis=0).tolist()) for m in table.statistics] for table in tables
    ]

    def kernel() -> object:
        drawn = native.ext.bootstrap_scores(state, 1000, len(ref), series)
        out = []
        for t in range(len(tables)):
            base, base32 = drawn[t * len(systems)]
            row = [(None, *native.ext.bootstrap_interval(base, base32))]
            for s in range(1, len(systems)):
                own, own32 = drawn[t * len(systems) + s]
                difference = abs(scores[t][0] - scores[t][s])
                p = native.ext.bootstrap_p(base, own, base32 and own32, difference)
                row.append((p, *native.ext.bootstrap_interval(own, own32)))
            out.append(row)
        return out

    def pure() -> object:
        results = significance.paired_bootstrap(
            tables, samples=1000, seed=12345, arithmetic="sacrebleu"
        )
        return [[(r.p_value, r.mean, r.ci) for r in row] for row in results]

    def numpy_draws() -> object:
        rng = np.random.default_rng(12345)
        return rng.choice(len(ref), size=(1000, len(ref)), replace=True).astype(np.int64).tobytes()

    work = f"{PAIR} 5 systems x {len(ref)} lines, BLEU and chrF, 1000 resamples"
    return [
        ("bootstrap_scores + bootstrap_interval + bootstrap_p", work, kernel, pure),
        (
            "resample_draws",
            f"1000 resamples of {len(ref)} lines",
            lambda: native.ext.resample_draws(state, len(ref), 1000 * len(ref)),
            numpy_draws,
        ),
    ]


def comparable(value: Any) -> Any:
    """Answers of the two paths in one form (bytes buffers as int64 lists)."""
    if isinstance(value, bytes | bytearray):
        return memoryview(value).cast("q").tolist() if len(value) % 8 == 0 else value
    if isinstance(value, tuple | list):
        return [comparable(v) for v in value]
    return value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--wmt", type=Path, default=REPO.parent / "shared" / "data" / "wmt")
    parser.add_argument("--lines", type=int, default=500)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    if not native.AVAILABLE:
        raise SystemExit("twins.py: the C kernel is not built")
    print("| export | workload | kernel ms | pure ms | pure/kernel | same answer |")
    print("|---|---|---:|---:|---:|---|")
    for name, work, kernel, pure in rows(args.wmt, args.lines):
        k_time, k_answer = best_time(kernel, args.repeat)
        p_time, p_answer = best_time(pure, args.repeat)
        same = comparable(k_answer) == comparable(p_answer)
        print(
            f"| {name} | {work} | {k_time * 1e3:.2f} | {p_time * 1e3:.2f} | "
            f"{p_time / k_time:.1f}x | {'yes' if same else 'no'} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
