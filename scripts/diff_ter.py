#!/usr/bin/env python3
"""Compare mtcompute's TER with sacreBLEU 2.6.0's on the WMT data: every pair, every system,
one reference and two (the pair's first one or two by name, where it has two), under each of
the 16 combinations of ``normalized``, ``no_punct``, ``asian_support`` and ``case_sensitive``.
Ours is the pure core (``mtcompute.metrics.ter.edits``, ``.tokenizer``) by default, or with
``--kernel`` the raw-text path every surface uses
(``mtcompute.metrics.ter.score.ter_statistics`` with the C kernel on, its text fast path included).

Usage::

    python scripts/diff_ter.py                       # everything, on the full WMT data
    python scripts/diff_ter.py --window 0:50         # the first 50 segments of each file
    python scripts/diff_ter.py --pair generaltest2022/en-de --combos default
    python scripts/diff_ter.py --tokenizer-only      # the tokenizer on every line only
    python scripts/diff_ter.py --timing              # pure Python vs sacreBLEU, en-de
    python scripts/diff_ter.py --kernel --oracle-cache /tmp/ter-oracle  # the kernel path
    python scripts/diff_ter.py --kernel --adversarial-only  # adversarial inputs only

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

With ``--oracle-cache DIR`` sacreBLEU's figures of each run are kept in ``DIR`` (one JSON file
per run, written when computed, read when present: sacreBLEU is a pure function of its
inputs, and JSON keeps ints, floats and their values exactly), so a second comparison of the
same grid computes only our side; ``--cached-only`` compares only the runs kept there.
``--adversarial`` adds (``--adversarial-only`` runs only) the adversarial inputs of
:func:`adversarial_cases` under the 16 combinations, one and two references: empty
hypotheses and references, repeated words inviting many shifts, segments of a few hundred
words, punctuation only, CJK text.

Output: a line per pair and system (runs, segments compared, differing segments, differing
corpus figures, seconds), then the totals; exit 1 when anything differs.
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
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

from mtcompute import native
from mtcompute.metrics.ter import edits as core_ter
from mtcompute.metrics.ter import score as ter_scoring
from mtcompute.metrics.ter.tokenizer import TercomTokenizer

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
    ``TER`` and ``metrics.ter.edits.segment_statistics`` look them up), restored after."""
    theirs, ours = sacrebleu_ter.translation_edit_rate, core_ter.translation_edit_rate
    sacrebleu_ter.translation_edit_rate = _memoized(theirs)  # type: ignore[assignment]
    core_ter.translation_edit_rate = _memoized(ours)
    try:
        yield
    finally:
        sacrebleu_ter.translation_edit_rate = theirs
        core_ter.translation_edit_rate = ours


@dataclass(frozen=True)
class Figures:
    """One run's figures: per segment (edits, average reference length, sentence score) and
    the corpus (score, edits, reference length), with the types they have."""

    segments: tuple[tuple[Any, Any, Any], ...]
    corpus: tuple[Any, Any, Any]

    def to_json(self) -> str:
        """The figures as JSON (ints stay ints, floats keep their exact values)."""
        return json.dumps({"segments": self.segments, "corpus": self.corpus})

    @classmethod
    def from_json(cls, text: str) -> Figures:
        """The figures :meth:`to_json` wrote."""
        data = json.loads(text)
        return cls(tuple(tuple(s) for s in data["segments"]), tuple(data["corpus"]))


Side = Callable[[Sequence[str], Sequence[Sequence[str]], dict[str, bool]], Figures]
"""One side of a comparison: (hypotheses, references per segment, options) to figures."""


def sacrebleu_figures(
    hypotheses: Sequence[str], per_segment: Sequence[Sequence[str]], options: dict[str, bool]
) -> Figures:
    """sacreBLEU's ``TER(**options)``: ``sentence_score`` per segment, ``corpus_score``."""
    metric = TER(**options)
    reference_sets = [list(column) for column in zip(*per_segment, strict=True)]
    corpus = metric.corpus_score(list(hypotheses), reference_sets)
    sentences = [
        metric.sentence_score(h, list(refs))
        for h, refs in zip(hypotheses, per_segment, strict=True)
    ]
    return Figures(
        tuple((s.num_edits, s.ref_length, s.score) for s in sentences),
        (corpus.score, corpus.num_edits, corpus.ref_length),
    )


def core_figures(
    hypotheses: Sequence[str], per_segment: Sequence[Sequence[str]], options: dict[str, bool]
) -> Figures:
    """The pure core: ``metrics.ter.edits.corpus_statistics`` with our tokenizer, summed, scored."""
    statistics = core_ter.corpus_statistics(hypotheses, per_segment, TercomTokenizer(**options))
    edits, length = core_ter.sum_statistics(statistics)
    return Figures(
        tuple((e, n, core_ter.score_from_statistics(e, n)) for e, n in statistics),
        (core_ter.score_from_statistics(edits, length), edits, length),
    )


def kernel_figures(
    hypotheses: Sequence[str], per_segment: Sequence[Sequence[str]], options: dict[str, bool]
) -> Figures:
    """The surfaces' path with the kernel on: ``ter_scoring.ter_statistics`` per segment (one
    thread) and ``ter_scoring.ter_score`` of each; ``ter_scoring.corpus_ter`` for the corpus."""
    if not native.kernel_in_use():
        raise SystemExit("--kernel: the C kernel is not active (not built, or MTCOMPUTE_PURE=1)")
    ter_options = ter_scoring.TerOptions(**options)
    statistics = ter_scoring.ter_statistics(hypotheses, per_segment, ter_options, threads=1)
    corpus = ter_scoring.corpus_ter(hypotheses, per_segment, ter_options)
    return Figures(
        tuple((e, n, ter_scoring.ter_score(e, n).score) for e, n in statistics),
        (corpus.score, corpus.num_edits, corpus.ref_length),
    )


@dataclass(frozen=True)
class Outcome:
    """One run compared: the segments, those that differ, and whether the corpus figures do."""

    segments: int
    differing: tuple[int, ...]
    corpus_equal: bool
    ours: tuple[Any, Any, Any]
    theirs: tuple[Any, Any, Any]


def _typed(*values: object) -> tuple[tuple[type, object], ...]:
    return tuple((type(value), value) for value in values)


def compare_figures(ours: Figures, theirs: Figures) -> Outcome:
    """Ours against sacreBLEU's, each figure with ``==`` and the same type."""
    differing = tuple(
        i
        for i, (mine, sacre) in enumerate(zip(ours.segments, theirs.segments, strict=True))
        if _typed(*mine) != _typed(*sacre)
    )
    corpus_equal = _typed(*ours.corpus) == _typed(*theirs.corpus)
    return Outcome(len(ours.segments), differing, corpus_equal, ours.corpus, theirs.corpus)


def compare(
    hypotheses: Sequence[str],
    reference_sets: Sequence[Sequence[str]],
    options: dict[str, bool],
    ours: Side = core_figures,
) -> Outcome:
    """Our TER (the pure core unless ``ours`` says otherwise) against sacreBLEU's for one
    corpus (sacreBLEU's layout: one list per reference set), per segment and for the corpus."""
    per_segment = [list(refs) for refs in zip(*reference_sets, strict=True)]
    return compare_figures(
        ours(hypotheses, per_segment, options), sacrebleu_figures(hypotheses, per_segment, options)
    )


class Oracle:
    """sacreBLEU's figures per run, kept as JSON files in a folder when one is given."""

    def __init__(self, folder: Path | None, cached_only: bool = False) -> None:
        self.folder = folder
        self.cached_only = cached_only
        self.computed = self.read = self.skipped = 0
        if folder is not None:
            folder.mkdir(parents=True, exist_ok=True)

    def figures(
        self,
        key: str,
        hypotheses: Sequence[str],
        per_segment: Sequence[Sequence[str]],
        options: dict[str, bool],
    ) -> Figures | None:
        """The run's figures: read from the folder, or computed (and written there); None
        (the run skipped) when only cached figures are wanted and these are not."""
        path = None if self.folder is None else self.folder / f"{key}.json"
        if path is not None and path.is_file():
            self.read += 1
            return Figures.from_json(path.read_text(encoding="utf-8"))
        if self.cached_only:
            self.skipped += 1
            return None
        figures = sacrebleu_figures(hypotheses, per_segment, options)
        self.computed += 1
        if path is not None:
            partial = path.with_suffix(".partial")
            partial.write_text(figures.to_json(), encoding="utf-8")
            partial.replace(path)
        return figures


def run_key(*parts: object) -> str:
    """A file name for one run: its parts, ``/`` and spaces replaced."""
    return "__".join(str(p) for p in parts).replace("/", "_").replace(" ", "_")


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


def _record(
    totals: Totals, label: str, outcome: Outcome, counts: list[int], references: int
) -> None:
    """Add one run's outcome to ``counts`` (runs, segments, differing segments and corpora)
    and ``totals``; print what differs."""
    counts[0] += 1
    counts[1] += outcome.segments
    counts[2] += len(outcome.differing)
    counts[3] += not outcome.corpus_equal
    totals.runs += 1
    totals.segments += outcome.segments
    totals.differing_segments += len(outcome.differing)
    totals.differing_corpora += not outcome.corpus_equal
    if outcome.differing or not outcome.corpus_equal:
        print(
            f"  differs: {label} nrefs={references}: segments {list(outcome.differing[:5])}, "
            f"corpus ours {outcome.ours} sacreBLEU {outcome.theirs}",
            flush=True,
        )


def _report(label: str, counts: list[int], seconds: float) -> None:
    runs, segments, differing_segments, differing_corpora = counts
    print(
        f"{label}: {runs} runs, {segments} segments, {differing_segments} differing segments, "
        f"{differing_corpora} differing corpora ({seconds:.1f} s)",
        flush=True,
    )


def run_ter(
    pairs: Sequence[PairData],
    combos: Sequence[dict[str, bool]],
    start: int,
    stop: int | None,
    totals: Totals,
    ours: Side = core_figures,
    oracle: Oracle | None = None,
) -> None:
    """TER for every system of every pair, one and two references, under each combination."""
    oracle = oracle or Oracle(None)
    for pair in pairs:
        ref_lines = [window(lines, start, stop) for _, lines in pair.references]
        reference_configs = [ref_lines[:1]]
        if len(ref_lines) > 1:
            reference_configs.append(ref_lines[:2])
        for system, lines in pair.systems:
            started = time.perf_counter()
            hypotheses = window(lines, start, stop)
            counts = [0, 0, 0, 0]
            with memoized_edit_rates():
                for options in combos:
                    for references in reference_configs:
                        per_segment = [list(refs) for refs in zip(*references, strict=True)]
                        key = run_key(
                            pair.name, system, len(references), combo_name(options), start, stop
                        )
                        theirs = oracle.figures(key, hypotheses, per_segment, options)
                        if theirs is None:
                            continue
                        outcome = compare_figures(ours(hypotheses, per_segment, options), theirs)
                        label = f"{pair.name} {system} {combo_name(options)}"
                        _record(totals, label, outcome, counts, len(references))
            _report(f"{pair.name} {system}", counts, time.perf_counter() - started)


def _long_lines(lines: Sequence[str], words: int) -> list[str]:
    """Consecutive lines joined into segments of at least ``words`` words each (three)."""
    segments, current = [], []
    for line in lines:
        current.append(line)
        if sum(len(c.split()) for c in current) >= words:
            segments.append(" ".join(current))
            current = []
            if len(segments) == 3:
                break
    return segments


def _block_shuffled(text: str, block: int, seed: int) -> str:
    """The words of ``text`` in blocks of ``block`` words, the blocks shuffled."""
    words = text.split()
    blocks = [words[i : i + block] for i in range(0, len(words), block)]
    random.Random(seed).shuffle(blocks)
    return " ".join(w for b in blocks for w in b)


def adversarial_cases(wmt: Path) -> list[tuple[str, list[str], list[list[str]]]]:
    """(name, hypotheses, references per segment with two each) of the adversarial runs; a
    run with one reference takes each segment's first."""
    repeated = " ".join(["a b c d e"] * 6)
    generated = random.Random(12)
    small = [" ".join(generated.choice("abcde") for _ in range(n)) for n in (120, 250, 300)]
    en_de = wmt / "generaltest2022" / "en-de"
    ref_a, ref_b = read_lines(en_de / "ref.A.txt"), read_lines(en_de / "ref.B.txt")
    online_b = read_lines(en_de / "sys.Online-B.txt")
    long_a, long_b, long_hyp = (_long_lines(x[100:], 300) for x in (ref_a, ref_b, online_b))
    en_zh = wmt / "generaltest2022" / "en-zh"
    zh_a, zh_b = read_lines(en_zh / "ref.A.txt"), read_lines(en_zh / "ref.B.txt")
    zh_hyp = read_lines(sorted(en_zh.glob("sys.*.txt"))[0])
    zh_long = [" ".join(x[200:206]) for x in (zh_hyp, zh_a, zh_b)]
    ja = wmt / "generaltest2022" / "en-ja"
    ja_ref = read_lines(ja / "ref.A.txt")
    ja_hyp = read_lines(sorted(ja.glob("sys.*.txt"))[0])
    return [
        ("empty hypothesis", ["", ""], [["a b c", "a"], ["", "x"]]),
        ("empty reference", ["a b", "a b c"], [["", "a b"], ["", ""]]),
        ("blank lines", ["  \t ", " \u3000 "], [[" \u3000 ", ""], ["\t", "  "]]),
        ("repeated blocks", [repeated], [[" ".join(reversed(repeated.split())), repeated]]),
        (
            "many of one word",
            [" ".join(["the"] * 80), " ".join(["the", "a"] * 120)],
            [[" ".join(["the", "a"] * 45), " ".join(["a"] * 90)], [" ".join(["the"] * 250)] * 2],
        ),
        (
            "five words, hundreds long",
            small,
            [[small[1], small[2]], [small[2], small[0]], [small[0], small[1]]],
        ),
        (
            "WMT lines joined to 300+ words",
            long_hyp,
            [list(r) for r in zip(long_a, long_b, strict=True)],
        ),
        (
            "300+ words in shuffled blocks",
            [_block_shuffled(r, 4, i) for i, r in enumerate(long_a)],
            [list(r) for r in zip(long_a, long_b, strict=True)],
        ),
        (
            "punctuation only",
            ['... ,,, !!! ?? ;: ()"', "- -- --- ' '' `", "&quot;&amp;&lt;&gt;"],
            [['?!.,;:()" .', "..."], ["-- - '", "``"], ['"&<>', "&quot;"]],
        ),
        (
            "CJK",
            [
                zh_hyp[5],
                ja_hyp[5],
                "\uff08测试\uff09\uff1a\uff0c\u3002\u3001\u300c引用\u300d\u30fb\uff70",
            ],
            [[zh_a[5], zh_b[5]], [ja_ref[5], ja_ref[6]], ["(测试):,.、『引用』", "测试"]],
        ),
        ("CJK, hundreds of characters", [zh_long[0]], [[zh_long[1], zh_long[2]]]),
    ]


def run_adversarial(
    wmt: Path,
    combos: Sequence[dict[str, bool]],
    totals: Totals,
    ours: Side = core_figures,
    oracle: Oracle | None = None,
) -> None:
    """The adversarial cases under each combination, one and two references."""
    oracle = oracle or Oracle(None)
    for name, hypotheses, per_segment in adversarial_cases(wmt):
        started = time.perf_counter()
        counts = [0, 0, 0, 0]
        with memoized_edit_rates():
            for options in combos:
                for references in (1, 2):
                    refs = [r[:references] for r in per_segment]
                    key = run_key("adversarial", name, references, combo_name(options))
                    theirs = oracle.figures(key, hypotheses, refs, options)
                    if theirs is None:
                        continue
                    outcome = compare_figures(ours(hypotheses, refs, options), theirs)
                    _record(totals, f"{name} {combo_name(options)}", outcome, counts, references)
        _report(f"adversarial: {name}", counts, time.perf_counter() - started)


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
    part.add_argument("--adversarial-only", action="store_true")
    parser.add_argument(
        "--kernel",
        action="store_true",
        help="compare ter_scoring.ter_statistics (the C kernel on) instead of the pure core",
    )
    parser.add_argument(
        "--adversarial", action="store_true", help="add the adversarial inputs after the grid"
    )
    parser.add_argument(
        "--oracle-cache", type=Path, help="a folder keeping sacreBLEU's figures of each run"
    )
    parser.add_argument(
        "--cached-only",
        action="store_true",
        help="with --oracle-cache: only the runs whose sacreBLEU figures are kept there",
    )
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
    ours = kernel_figures if args.kernel else core_figures
    if args.cached_only and args.oracle_cache is None:
        print("--cached-only needs --oracle-cache", file=sys.stderr)
        return 2
    oracle = Oracle(args.oracle_cache, args.cached_only)
    print(f"ours: {'ter_scoring.ter_statistics, kernel on' if args.kernel else 'the pure core'}")
    if not (args.ter_only or args.adversarial_only):
        run_tokenizer(pairs, combos, *args.window, totals)
    if not (args.tokenizer_only or args.adversarial_only):
        run_ter(pairs, combos, *args.window, totals, ours, oracle)
    if args.adversarial or args.adversarial_only:
        run_adversarial(args.wmt, combos, totals, ours, oracle)
    seconds = time.perf_counter() - started
    print(
        f"total: tokenizer {totals.tokenizer_lines} line-options, "
        f"{totals.tokenizer_differences} differences; TER {totals.runs} runs, "
        f"{totals.segments} segments, {totals.differing_segments} differing segments, "
        f"{totals.differing_corpora} differing corpora ({seconds:.0f} s; sacreBLEU's figures "
        f"computed for {oracle.computed} runs, read for {oracle.read}, "
        f"{oracle.skipped} runs skipped as not kept)"
    )
    different = totals.tokenizer_differences or totals.differing_segments
    return 1 if different or totals.differing_corpora else 0


if __name__ == "__main__":
    sys.exit(main())
