#!/usr/bin/env python3
"""Compare mtcompute's pure-Python TER (``mtcompute.core.ter``, ``core.ter_tokenizer``) with
sacreBLEU 2.6.0's on the WMT data: every pair, every system, one reference and two (the
pair's first one or two by name, where it has two), under each of the 16 combinations of
``normalized``, ``no_punct``, ``asian_support`` and ``case_sensitive``.

Usage::

    python scripts/diff_ter.py                       # everything, on ../shared/data/wmt
    python scripts/diff_ter.py --window 0:50         # the first 50 segments of each file
    python scripts/diff_ter.py --pair generaltest2022/en-de --combos default
    python scripts/diff_ter.py --tokenizer-only      # the tokenizer on every line only
    python scripts/diff_ter.py --timing              # pure Python vs sacreBLEU, en-de

For each run (pair, system, references, options) it compares, with ``==`` and the same types:
per segment the edits, the average reference length and the sentence score (sacreBLEU's
``TER.sentence_score``), and the corpus score, edits and reference length (its
``corpus_score``). Before the runs it compares the tokenizer on every line (of the window)
of every file under the 16 combinations, applied once (a hypothesis) and twice (a reference:
sacreBLEU preprocesses references twice).

Both sides' ``translation_edit_rate`` are memoized on the values of their arguments while a
system's runs are made (and the memo dropped after): each is a pure function of its
arguments (a new edit-distance cache per call, no global state), so a memoized result is
the result, and the grid's 32 runs per system, whose options often tokenize a segment
alike, compute each distinct segment once per side. Everything else, tokenizing, the best
reference, sums and scores, runs in full on both sides for every run.

Output: a line per pair and system (runs, segments compared, differing segments, differing
corpus figures, seconds), then the totals; exit 1 when anything differs.
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import sacrebleu.metrics.ter as sacrebleu_ter
from sacrebleu.metrics.ter import TER
from sacrebleu.tokenizers.tokenizer_ter import TercomTokenizer as SacrebleuTercomTokenizer

from mtcompute.core import ter as core_ter
from mtcompute.core.ter_tokenizer import TercomTokenizer

REPO = Path(__file__).resolve().parents[1]
DEFAULT_WMT = REPO.parent / "shared" / "data" / "wmt"

OPTION_NAMES = ("normalized", "no_punct", "asian_support", "case_sensitive")
COMBOS: tuple[dict[str, bool], ...] = tuple(
    dict(zip(OPTION_NAMES, bits, strict=True))
    for bits in itertools.product((False, True), repeat=len(OPTION_NAMES))
)
"""The 16 option combinations, sacreBLEU's defaults (all false) first."""


def combo_name(options: dict[str, bool]) -> str:
    """``default`` or the switched-on options joined by ``+`` (``normalized+no_punct``)."""
    return "+".join(name for name in OPTION_NAMES if options[name]) or "default"


@dataclass(frozen=True)
class PairData:
    """One pair of the WMT data: its references and systems (sorted by name), as lines."""

    name: str
    references: tuple[tuple[str, list[str]], ...]
    systems: tuple[tuple[str, list[str]], ...]


def read_lines(path: Path) -> list[str]:
    """The file's segments (``str.splitlines``, as the tests' ``wmt_lines`` reads them)."""
    return path.read_text(encoding="utf-8").splitlines()


def load_pairs(wmt: Path, only: Sequence[str] = ()) -> list[PairData]:
    """Every ``testset/pair`` folder of ``wmt`` (or those named in ``only``), sorted."""
    pairs = []
    for folder in sorted({p.parent for p in wmt.glob("*/*/ref.*.txt")}):
        name = f"{folder.parent.name}/{folder.name}"
        if only and name not in only:
            continue
        references = tuple((p.stem, read_lines(p)) for p in sorted(folder.glob("ref.*.txt")))
        systems = tuple((p.stem, read_lines(p)) for p in sorted(folder.glob("sys.*.txt")))
        pairs.append(PairData(name, references, systems))
    if only and len(pairs) != len(only):
        missing = sorted(set(only) - {p.name for p in pairs})
        raise SystemExit(f"no such pair in {wmt}: {', '.join(missing)}")
    return pairs


def _memoized(function: Callable[[Any, Any], tuple[int, int]]) -> Callable[[Any, Any], Any]:
    memo: dict[tuple[tuple[Any, ...], tuple[Any, ...]], tuple[int, int]] = {}

    def memoized(hypothesis: Sequence[Any], reference: Sequence[Any]) -> tuple[int, int]:
        key = (tuple(hypothesis), tuple(reference))
        found = memo.get(key)
        if found is None:
            found = memo[key] = function(hypothesis, reference)
        return found

    return memoized


@contextmanager
def memoized_edit_rates() -> Iterator[None]:
    """Both sides' ``translation_edit_rate`` memoized on their arguments for the block (where
    ``TER`` and ``core.ter.segment_statistics`` look them up), restored after."""
    theirs, ours = sacrebleu_ter.translation_edit_rate, core_ter.translation_edit_rate
    sacrebleu_ter.translation_edit_rate = _memoized(theirs)  # type: ignore[assignment]
    core_ter.translation_edit_rate = _memoized(ours)
    try:
        yield
    finally:
        sacrebleu_ter.translation_edit_rate = theirs
        core_ter.translation_edit_rate = ours


@dataclass(frozen=True)
class Outcome:
    """One run compared: the segments, those that differ, and whether the corpus figures do."""

    segments: int
    differing: tuple[int, ...]
    corpus_equal: bool
    ours: tuple[float, int, float]
    theirs: tuple[float, int, float]


def _typed(*values: object) -> tuple[tuple[type, object], ...]:
    return tuple((type(value), value) for value in values)


def compare(
    hypotheses: Sequence[str], reference_sets: Sequence[Sequence[str]], options: dict[str, bool]
) -> Outcome:
    """Our TER against sacreBLEU's for one corpus (sacreBLEU's layout: one list per reference
    set), per segment and for the corpus."""
    metric = TER(**options)
    corpus = metric.corpus_score(list(hypotheses), [list(r) for r in reference_sets])
    per_segment = [list(refs) for refs in zip(*reference_sets, strict=True)]
    sentences = [
        metric.sentence_score(h, refs) for h, refs in zip(hypotheses, per_segment, strict=True)
    ]

    statistics = core_ter.corpus_statistics(hypotheses, per_segment, TercomTokenizer(**options))
    edits, length = core_ter.sum_statistics(statistics)
    score = core_ter.score_from_statistics(edits, length)

    differing = tuple(
        i
        for i, (sentence, (e, n)) in enumerate(zip(sentences, statistics, strict=True))
        if _typed(sentence.num_edits, sentence.ref_length, sentence.score)
        != _typed(e, n, core_ter.score_from_statistics(e, n))
    )
    ours = (score, edits, length)
    theirs = (corpus.score, corpus.num_edits, corpus.ref_length)
    return Outcome(len(hypotheses), differing, _typed(*ours) == _typed(*theirs), ours, theirs)


def compare_tokenizer(lines: Sequence[str], options: dict[str, bool]) -> list[int]:
    """The lines (indices) that our tokenizer turns into something else than sacreBLEU's,
    applied once or twice, each line raw and right-stripped."""
    ours, theirs = TercomTokenizer(**options), SacrebleuTercomTokenizer(**options)
    differing = []
    for i, line in enumerate(lines):
        for text in (line, line.rstrip()):
            once = theirs(text)
            if ours(text) != once or ours(ours(text)) != theirs(once):
                differing.append(i)
                break
    return differing


def window(lines: list[str], start: int, stop: int | None) -> list[str]:
    """``lines[start:stop]``."""
    return lines[start:stop]


@dataclass
class Totals:
    """What a whole comparison saw."""

    runs: int = 0
    segments: int = 0
    differing_segments: int = 0
    differing_corpora: int = 0
    tokenizer_lines: int = 0
    tokenizer_differences: int = 0


def run_tokenizer(
    pairs: Sequence[PairData],
    combos: Sequence[dict[str, bool]],
    start: int,
    stop: int | None,
    totals: Totals,
) -> None:
    """The tokenizer on every line (of the window) of every file under each combination."""
    for pair in pairs:
        started = time.perf_counter()
        files = (*pair.references, *pair.systems)
        lines = [line for _, f in files for line in window(f, start, stop)]
        differences = 0
        for options in combos:
            differing = compare_tokenizer(lines, options)
            differences += len(differing)
            for i in differing[:3]:
                print(f"  tokenizer differs: {pair.name} {combo_name(options)}: {lines[i]!r}")
        totals.tokenizer_lines += len(lines) * len(combos)
        totals.tokenizer_differences += differences
        seconds = time.perf_counter() - started
        print(
            f"tokenizer {pair.name}: {len(lines)} lines x {len(combos)} options, "
            f"{differences} differences ({seconds:.1f} s)",
            flush=True,
        )


def run_ter(
    pairs: Sequence[PairData],
    combos: Sequence[dict[str, bool]],
    start: int,
    stop: int | None,
    totals: Totals,
) -> None:
    """TER for every system of every pair, one and two references, under each combination."""
    for pair in pairs:
        ref_lines = [window(lines, start, stop) for _, lines in pair.references]
        reference_configs = [ref_lines[:1]]
        if len(ref_lines) > 1:
            reference_configs.append(ref_lines[:2])
        for system, lines in pair.systems:
            started = time.perf_counter()
            hypotheses = window(lines, start, stop)
            runs = segments = differing_segments = differing_corpora = 0
            with memoized_edit_rates():
                for options in combos:
                    for references in reference_configs:
                        outcome = compare(hypotheses, references, options)
                        runs += 1
                        segments += outcome.segments
                        differing_segments += len(outcome.differing)
                        if not outcome.corpus_equal:
                            differing_corpora += 1
                        if outcome.differing or not outcome.corpus_equal:
                            print(
                                f"  differs: {pair.name} {system} nrefs={len(references)} "
                                f"{combo_name(options)}: segments {list(outcome.differing[:5])}"
                                f", corpus ours {outcome.ours} sacreBLEU {outcome.theirs}"
                            )
            totals.runs += runs
            totals.segments += segments
            totals.differing_segments += differing_segments
            totals.differing_corpora += differing_corpora
            seconds = time.perf_counter() - started
            print(
                f"{pair.name} {system}: {runs} runs, {segments} segments, "
                f"{differing_segments} differing segments, {differing_corpora} differing "
                f"corpora ({seconds:.1f} s)",
                flush=True,
            )


def run_timing(wmt: Path) -> None:
    """Corpus TER on generaltest2022 en-de (every system against ref.A, default options):
    sacreBLEU's ``TER().corpus_score`` and the pure-Python path, one run each, unmemoized,
    in CPU seconds of this process (``time.process_time``: the machine may be shared)."""
    folder = wmt / "generaltest2022" / "en-de"
    references = read_lines(folder / "ref.A.txt")
    for path in sorted(folder.glob("sys.*.txt")):
        hypotheses = read_lines(path)
        started = time.process_time()
        theirs = TER().corpus_score(hypotheses, [references]).score
        sacrebleu_seconds = time.process_time() - started
        started = time.process_time()
        statistics = core_ter.corpus_statistics(
            hypotheses, [[r] for r in references], TercomTokenizer()
        )
        ours = core_ter.score_from_statistics(*core_ter.sum_statistics(statistics))
        ours_seconds = time.process_time() - started
        print(
            f"en-de {path.stem} ({len(hypotheses)} segments): sacreBLEU {sacrebleu_seconds:.2f} s,"
            f" pure Python {ours_seconds:.2f} s ({sacrebleu_seconds / ours_seconds:.1f}x), "
            f"TER {ours!r} {'==' if ours == theirs else '!='} {theirs!r}",
            flush=True,
        )


def _window_argument(text: str) -> tuple[int, int | None]:
    start, sep, stop = text.partition(":")
    try:
        if not sep:
            raise ValueError
        return (int(start) if start else 0), (int(stop) if stop else None)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected START:STOP, got {text!r}") from None


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--wmt", type=Path, default=DEFAULT_WMT, help="the WMT data folder")
    parser.add_argument("--pair", action="append", default=[], help="testset/pair (repeatable)")
    parser.add_argument(
        "--window", type=_window_argument, default=(0, None), help="segments START:STOP"
    )
    parser.add_argument("--combos", choices=("all", "default"), default="all")
    part = parser.add_mutually_exclusive_group()
    part.add_argument("--tokenizer-only", action="store_true")
    part.add_argument("--ter-only", action="store_true")
    part.add_argument("--timing", action="store_true")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if not args.wmt.is_dir():
        print(f"not a folder: {args.wmt}", file=sys.stderr)
        return 2
    if args.timing:
        run_timing(args.wmt)
        return 0
    started = time.perf_counter()
    pairs = load_pairs(args.wmt, args.pair)
    combos = COMBOS if args.combos == "all" else COMBOS[:1]
    totals = Totals()
    if not args.ter_only:
        run_tokenizer(pairs, combos, *args.window, totals)
    if not args.tokenizer_only:
        run_ter(pairs, combos, *args.window, totals)
    seconds = time.perf_counter() - started
    print(
        f"total: tokenizer {totals.tokenizer_lines} line-options, "
        f"{totals.tokenizer_differences} differences; TER {totals.runs} runs, "
        f"{totals.segments} segments, {totals.differing_segments} differing segments, "
        f"{totals.differing_corpora} differing corpora ({seconds:.0f} s)"
    )
    different = totals.tokenizer_differences or totals.differing_segments
    return 1 if different or totals.differing_corpora else 0


if __name__ == "__main__":
    sys.exit(main())
