#!/usr/bin/env python3
"""Measure each tool's cost ceiling: CPU seconds and peak memory at the worst input its
limits allow (the costliest input we know how to build for it), each in a fresh process.

Usage::

    python scripts/cost_ceilings.py                 # every tool, a Markdown table
    python scripts/cost_ceilings.py --tool bleu-tokenize --json

Each input is written as JSON to a temporary file; a child process (``python -c``, with
``OPENBLAS_NUM_THREADS=1``, as a body worker runs) reads it and runs
:func:`mtcompute._execute.execute_json` on the bytes, exactly what the body worker process
does for a large request (after running the tool's contract examples once, so that lazy
imports are not counted), and reports its CPU seconds (``resource.getrusage``, user plus
system, around the call) and its peak resident memory (``ru_maxrss``, the whole process:
the interpreter, the tools, the body and its parse). The child has ``--cpu-limit`` seconds
of CPU (RLIMIT_CPU). Also printed: the body's size, the answer's status and the estimate
the server classifies the request by (:func:`mtcompute.tools._cost.request_cost`), so that
an estimate under a measured cost shows.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from mtcompute.tools._cost import request_cost

_CHILD = r"""
import resource, sys, json
limit = int(sys.argv[3])
resource.setrlimit(resource.RLIMIT_CPU, (limit, limit))
from mtcompute._execute import execute
from mtcompute._execute import execute_json
from mtcompute.contracts import contract
for example in contract(sys.argv[1], sys.argv[4])["examples"]:  # lazy imports, caches
    execute(sys.argv[1], sys.argv[4], example["input"])
body = open(sys.argv[2], "rb").read()
before = resource.getrusage(resource.RUSAGE_SELF)
envelope = execute_json(sys.argv[1], sys.argv[4], body)
after = resource.getrusage(resource.RUSAGE_SELF)
cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
error = envelope.get("error")
print(json.dumps({"cpu": cpu, "peak_mb": after.ru_maxrss / 1024, "status": envelope.http_status,
                  "error": None if error is None else str(error.get("message"))[:200]}))
"""

ZH = "机器翻译很有用。"  # 8 characters, 24 bytes of UTF-8


def _words(count: int, salt: int = 0) -> str:
    """``count`` words drawn from 5,000, seeded by ``salt`` (no repeats for a cache to use)."""
    draw = random.Random(salt)
    return " ".join(f"w{draw.randrange(5000)}" for _ in range(count))


def _chars(size: int, salt: int = 0) -> str:
    """About ``size`` characters of words drawn from 5,000 (:func:`_words`)."""
    return _words(size // 6 + 1, salt)[:size]


def _paired(method: str) -> dict[str, Any]:
    """The contract's slowest case: 16 systems over 700 segments with three references each,
    20,000 samples, bleu (order 8, add-k), chrF (char order 10, word order 4) and TER."""
    segments = 700
    texts = [_words(3, i) for i in range(segments)]  # 17 x 700 x 3 x 3 words: aligned words
    return {
        "baseline": texts,
        "systems": [
            {"name": f"s{k}", "hypotheses": [_words(3, i * 17 + k) for i in range(segments)]}
            for k in range(16)
        ],
        "references": [[_words(40, i + n * 9999) for n in range(1, 4)] for i in range(segments)],
        "metrics": ["bleu", "chrf", "ter"],
        "bleu": {"max_ngram_order": 8, "smooth_method": "add-k"},
        "chrf": {"char_order": 10, "word_order": 4},
        "method": method,
        "samples": 20000,
    }


def _ranking() -> dict[str, Any]:
    """system-ranking's slowest case: approximate randomization of 16 systems (120 pairs) at
    its limits, 10,000 trials (max pair tests) of 223 segments (max work), BLEU of order 8 with
    add-k (the costliest scores of the pairs' sides)."""
    segments = 223
    return {
        "systems": [
            {"name": f"s{k}", "hypotheses": [_words(3, i * 17 + k) for i in range(segments)]}
            for k in range(16)
        ],
        "references": [[_words(3, i + 9999)] for i in range(segments)],
        "metric": "bleu",
        "bleu": {"max_ngram_order": 8, "smooth_method": "add-k"},
        "method": "approximate_randomization",
        "samples": 10000,
    }


def _ranking_wer() -> dict[str, Any]:
    """system-ranking@1.1.0's slowest case measured: WER of 16 systems over 4096 segments of
    16 words (every normalisation on), at max aligned units (16 x 4096 x 32 = 2,097,152), with
    the bootstrap's 4096 resamples at max work (alignments of one long pair at max unit pairs,
    or references far longer than their hypotheses, cost less)."""
    segments, words = 4096, 2_097_152 // (16 * 4096 * 2)

    def text(salt: int) -> str:  # words of two letters (3.3 MB of text in all)
        draw = random.Random(salt)
        return " ".join(draw.choice("abcdefghij") + draw.choice("klmnopqrst") for _ in range(words))

    return {
        "systems": [
            {"name": f"s{k}", "hypotheses": [text(i * 17 + k) for i in range(segments)]}
            for k in range(16)
        ],
        "references": [[text(i + 99999)] for i in range(segments)],
        "metric": "wer",
        "wer": {"lowercase": True, "remove_punctuation": True, "collapse_whitespace": True},
        "samples": 4096,
    }


def _tokens(count: int, salt: int = 0) -> list[str]:
    return [f"t{(i * 13 + salt) % 4099:05d}" for i in range(count)]


WORST: dict[tuple[str, str], Callable[[], dict[str, Any]]] = {
    ("bleu-brevity-penalty", "1.0.0"): lambda: {
        "candidate_lengths": [999_999_999] * 100_000,
        "reference_lengths": [[1_000_000_000 - k for k in range(8)]] * 100_000,
    },
    ("bleu-corpus-compute", "1.0.0"): lambda: {
        "hypotheses": [_tokens(61, i) for i in range(4096)],
        "references": [[_tokens(61, i + 1)] for i in range(4096)],
        "max_order": 8,
    },
    ("bleu-ngrams-count", "1.0.0"): lambda: {
        "hypotheses": [_tokens(61, i) for i in range(4096)],
        "references": [[_tokens(61, i + 1)] for i in range(4096)],
        "max_order": 8,
    },
    ("bleu-sentence-components", "1.0.0"): lambda: {
        "hypothesis": _tokens(1250),
        "references": [_tokens(1250, k) for k in range(1, 8)],
        "max_order": 8,
    },
    ("bleu-sentence-compute", "1.0.0"): lambda: {
        "hypothesis": _tokens(1250),
        "references": [_tokens(1250, k) for k in range(1, 8)],
        "max_order": 8,
        "smoothing": "method3",
    },
    ("bleu-smoothing-compute", "1.0.0"): lambda: {
        "matches": [10**12 - k for k in range(8)],
        "totals": [10**12] * 8,
        "candidate_length": 10**12,
        "reference_length": 10**12,
        "smoothing": "method3",
    },
    ("bleu-tokenize", "1.0.0"): lambda: {
        "segments": [ZH * 42] * 4096,  # 4,128,768 bytes of Chinese
        "tokenizer": "zh",
    },
    ("chrf-components", "1.0.0"): lambda: {
        "hypotheses": [_chars(100, i) for i in range(256)],
        "references": [_chars(150, i + 999) for i in range(256)],
        "char_order": 10,
        "word_order": 4,
    },
    ("chrf-compute", "1.0.0"): lambda: {
        "hypotheses": [_chars(100, i) for i in range(256)],
        "references": [_chars(150, i + 999) for i in range(256)],
    },
    ("chrf-plus-plus-compute", "1.0.0"): lambda: {
        "hypotheses": [_chars(100, i) for i in range(256)],
        "references": [_chars(150, i + 999) for i in range(256)],
    },
    ("paired-significance", "1.0.0"): lambda: _paired("approximate_randomization"),
    ("sacrebleu-score", "1.0.0"): lambda: {
        "hypotheses": [_chars(480, i) for i in range(4096)],
        "references": [[_chars(480, i + 9999)] for i in range(4096)],
        "metrics": ["bleu", "chrf"],
        "bleu": {"max_ngram_order": 8},
        "chrf": {"char_order": 10, "word_order": 4},
    },
    ("sacrebleu-score", "1.1.0"): lambda: {
        "hypotheses": [_words(1024, i) for i in range(128)],
        "references": [[_words(1024, i + 1)] for i in range(128)],
        "metrics": ["bleu", "chrf", "ter"],
        "bleu": {"max_ngram_order": 8},
        "chrf": {"char_order": 10, "word_order": 4},
    },
    ("system-ranking", "1.0.0"): _ranking,
    ("system-ranking", "1.1.0"): _ranking_wer,
    ("ter-compute", "1.0.0"): lambda: {
        "hypotheses": [_words(1024, i) for i in range(128)],
        "references": [[_words(1024, i + 1)] for i in range(128)],
    },
    ("wer-compute", "1.0.0"): lambda: {
        "hypotheses": [_words(4096, i) for i in range(64)],
        "references": [_words(4096, i + 1) for i in range(64)],
    },
}


def measure(tool_id: str, version: str, value: dict[str, Any], cpu_limit: int) -> dict[str, Any]:
    """The child's report on one input, with the body's size and the server's estimate."""
    body = json.dumps(value, ensure_ascii=False).encode()
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as handle:
        handle.write(body)
    try:
        env = {**os.environ, "OPENBLAS_NUM_THREADS": "1"}
        done = subprocess.run(
            [sys.executable, "-c", _CHILD, tool_id, handle.name, str(cpu_limit), version],
            capture_output=True,
            text=True,
            env=env,
            check=False,
        )
    finally:
        Path(handle.name).unlink()
    if done.returncode != 0:
        report: dict[str, Any] = {"cpu": None, "peak_mb": None, "status": None}
        report["error"] = f"child exited {done.returncode}: {done.stderr[-200:]}"
    else:
        report = json.loads(done.stdout)
    estimate = request_cost(tool_id, body)
    return {
        "tool": f"{tool_id}@{version}",
        "body_bytes": len(body),
        "estimate_s": round(estimate.seconds, 3),
        "class": estimate.name,
        **report,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tool", action="append", help="only this tool id (repeatable)")
    parser.add_argument("--cpu-limit", type=int, default=120, help="CPU seconds per child")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    rows = []
    for (tool_id, version), build in WORST.items():
        if args.tool and tool_id not in args.tool:
            continue
        row = measure(tool_id, version, build(), args.cpu_limit)
        rows.append(row)
        if not args.json:
            cpu = "-" if row["cpu"] is None else f"{row['cpu']:.3f}"
            peak = "-" if row["peak_mb"] is None else f"{row['peak_mb']:.0f}"
            note = row["error"] or ""
            print(
                f"| {row['tool']} | {row['body_bytes']:,} | {cpu} | {peak} | {row['status']} "
                f"| {row['estimate_s']} ({row['class']}) | {note[:80]} |",
                flush=True,
            )
    if args.json:
        print(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
