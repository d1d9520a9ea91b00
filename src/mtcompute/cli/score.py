"""``mtcompute score``: corpus BLEU, chrF, chrF++ and TER of plain-text files, one segment per
line.

Several systems, several metrics, any number of reference files, in one run. The numbers are
sacreBLEU 2.6.0's by default (docs/decisions.md, "Two families of rules"): BLEU (Papineni et al.
2002 §2) on sacreBLEU's tokenizers, chrF and chrF++ (Popović 2015 §2, 2017 §2) with its
best-reference rule, TER (Snover et al. 2006 §2) with its tercom tokenizer, from
:func:`mtcompute.batch.corpus_bleu`, :func:`mtcompute.batch.corpus_chrf` and
:func:`mtcompute.batch.corpus_ter`, each printed with its signature. ``--rules contract``
gives the catalog contracts' exact chrF corpus rule instead (chrf-compute,
chrf-plus-plus-compute); BLEU and TER have sacreBLEU's rule only (the contracts' BLEU
arithmetic is the bleu-* tools'; ter-compute gives sacreBLEU's TER).

This module reads files, checks them, and prints; it adds no arithmetic of its own. Every
call into the metric code is in one section below ("the library calls").

Exit status: 0 with a score; 1 on a data error (a file that is not UTF-8, files of different
lengths, no segments, an input the library refuses); 2 on a usage error (bad options, a file
that cannot be opened, ``-`` twice, options that do not apply to the metrics asked for).
"""

from __future__ import annotations

__all__ = ["METRICS", "add_parser", "run"]

import argparse
import gc
import re
import sys
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import IO, TYPE_CHECKING, Any, TypeAlias, TypeVar, cast

from mtcompute._version import __version__
from mtcompute.cli import _scheduler
from mtcompute.cli._common import (
    EXIT_DATA_ERROR,
    EXIT_OK,
    EXIT_USAGE,
    STDIN,
    Chunk,
    CommandError,
    RawChunk,
    Subparsers,
    Uneven,
    add_command,
    byte_chunks,
    count_segments,
    decode_chunk,
    fail,
    integer,
    label,
    read_ahead,
    repeated,
    reported_fault,
    segment_chunks,
)
from mtcompute.errors import MtcomputeError
from mtcompute.report import DEFAULT_SAMPLES, DEFAULT_SEED, is_significant
from mtcompute.streaming import chunk_size

# The metrics are imported by the functions that run them, not here: every mtcompute command
# builds this command's parser, and --help needs none of them.
if TYPE_CHECKING:
    from concurrent.futures import Future

    from mtcompute.batch import CorpusBleu, CorpusChrf, CorpusTer
    from mtcompute.contracts.validate import FieldType
    from mtcompute.scoring import BleuOptions, ChrfOptions, TerOptions
    from mtcompute.significance import Result as TestResult

PROGRESS_MIN_SEGMENTS = 10_000  # a bar only for inputs longer than this (and a TTY stderr)
METRICS = ("bleu", "chrf", "chrf++", "ter")
CI_SAMPLES = 1000  # --ci-n's default: sacreBLEU's --confidence-n
WORD_ORDERS = {"chrf": 0, "chrf++": 2}  # the chrF metrics' word n-gram orders

_DESCRIPTION = """\
Score system outputs against their references: corpus BLEU, chrF, chrF++ and TER, several
systems and metrics in one run, with sacreBLEU 2.6.0's numbers and signatures.

Files are plain UTF-8 text, one segment per line. Only '\\n' ends a line: a '\\r' before it is
kept as part of the segment (the metrics then treat it as whitespace), and a final '\\n' at
the end of a file does not start an extra segment. Every file must have the same number of
lines. FILE may be '-' for standard input, for at most one of the files.

BLEU is sacreBLEU's BLEU(): --tokenize (default 13a; intl, zh, char, none and the MeCab ones
where installed), --lowercase, --smooth-method (default exp), on the 0-100 scale, against
every reference file (clipped counts against all, the closest reference length). chrF and
chrF++ (character 6-grams, plus word 2-grams for chrF++) are sacreBLEU's CHRF(): with several
reference files each segment is scored against its best reference. TER is sacreBLEU's TER():
its tercom tokenizer (--normalized, --no-punct, --asian-support, --case-sensitive; lowercased
unless --case-sensitive, so --lowercase is not TER's), each segment's fewest edits over its
references, the total over the total of the segments' average reference lengths (lower is
better; it can pass 100). Each score line carries sacreBLEU's signature of the settings, then
mtcompute:<version>.

--rules contract scores chrF and chrF++ by the catalog contracts' corpus rule instead
(chrf-compute, chrf-plus-plus-compute: one reference file, the per-order counts summed over
all segments, an exact fraction printed to six decimals; the signature says rules:contract).
BLEU and TER have sacreBLEU's rules only: --rules contract with BLEU or TER is refused (the
contracts' BLEU on whitespace tokens is the bleu-corpus-compute tool: mtcompute run
bleu-corpus-compute).

--paired-bs (paired bootstrap resampling, Koehn 2004) and --paired-ar (paired approximate
randomization, Riezler and Maxwell 2005) compare each system with the first -H file, the
baseline, as sacreBLEU's options of the same names do, with its random draws (--seed,
default 12345, sacreBLEU's; 0 is a seed like any other) but exact sums and float64 scores
(mtcompute.significance's native arithmetic). The draws are the same, so the p-values are
sacreBLEU's unless its float32 rounding moves a borderline resample (none does on the WMT22
en-de systems), and the means and intervals agree with its to the printed digits. --ci
gives each system's bootstrap mean and 95% interval (sacreBLEU's --confidence, for any
number of systems, and with --paired-ar); --paired-bs gives them from its own resamples.
--paired-bs-n, --paired-ar-n and --ci-n set the resamples and trials (defaults 1000, 10000,
1000)."""

_EPILOG = """\
examples:
  mtcompute score -H sys.txt -r ref.txt
  chrF2|nrefs:1|case:mixed|eff:yes|nc:6|nw:0|space:no|version:2.6.0|mtcompute:VERSION = 64.64

  mtcompute score -H sys.txt -r refA.txt refB.txt -m bleu chrf++
  BLEU|nrefs:2|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0|mtcompute:VERSION = 52.32 \\
    79.3/59.1/45.4/35.2 (BP = 1.000 ratio = 1.007 hyp_len = 39114 ref_len = 38830)   (one line)
  chrF2++|nrefs:2|case:mixed|eff:yes|nc:6|nw:2|space:no|version:2.6.0|mtcompute:VERSION = 67.62

  mtcompute score -H sys.txt -r refA.txt refB.txt -m ter
  TER|nrefs:2|case:lc|tok:tercom|norm:no|punct:yes|asian:no|version:2.6.0|mtcompute:VERSION = 41.24

  mtcompute score -H sysA.txt sysB.txt -r ref.txt -m bleu --tokenize zh --lowercase
  mtcompute score -H sys.txt -r ref.txt --rules contract
  chrF2|nrefs:1|...|version:2.6.0|rules:contract|mtcompute:VERSION = 64.640103
  cat sys.txt | mtcompute score -H - -r ref.txt --segments --format json
  mtcompute score -H base.txt sys.txt -r ref.txt -m bleu chrf --paired-bs

(sys.txt is generaltest2022 en-de sys.Online-B.txt, refA.txt and ref.txt its ref.A.txt,
refB.txt its ref.B.txt.) With several systems each line starts with the system's file name.

With a test each score line carries the test in its signature (bs:1000|seed:12345, or
ar:10000), the mean and half width as sacreBLEU prints them, "(μ = 37.80 ± 0.99)", and then
"(baseline)" or "p = 0.0310" with a * when p <= 0.05; in JSON "significance" gives the
settings, each system its "baseline" flag and each score "mean", "ci", "p_value" and
"significant" (null for the baseline).

--segments adds each segment's own score under the same settings (sentence BLEU, sentence
chrF against the segment's best reference, sentence TER: its fewest edits over its average
reference length), one per line after its corpus line.

--format json prints one compact JSON object (numbers as JavaScript writes them):
{"references": [...], "segment_count": N, "systems": [{"hypotheses": FILE, "scores":
{METRIC: {...}}}]}, each score with its name, score, score_text, signature, settings and
statistics (and with --segments, "segment_scores"; TER's also "segment_edits" and
"segment_ref_lengths").

A progress bar is drawn on standard error when it is a terminal and the input has more than
10,000 segments; --no-progress turns it off.

exit status: 0 scored; 1 data error (a file that is not UTF-8, with the line number and byte
offset; files of different lengths; no segments); 2 usage error (bad options, a file that
cannot be read, '-' given twice, options that do not apply to the metrics asked for). With
--format json a data error goes to standard output instead, as
{"error":{"code","message","path"}}."""


T = TypeVar("T")


def _checked(name: str, flag: str) -> Callable[[str], object]:
    """argparse ``type=``: the option's text (read as a number, unless the field is a choice
    of names), then checked by the field type ``name`` of :mod:`mtcompute.contracts.fields`,
    the one the tools and the batch APIs check (one rule, one message: ``--beta 17`` is
    refused as ``corpus_chrf(..., beta=17)`` and chrf-compute refuse it). The field types are
    imported when an option is given, not when the parser is built (``--help`` needs none)."""

    def parse(text: str) -> object:
        from mtcompute.contracts import fields  # noqa: PLC0415
        from mtcompute.contracts.validate import Choice  # noqa: PLC0415

        field_type: FieldType[object] = getattr(fields, name)
        value: object = text
        if not isinstance(field_type, Choice):
            try:
                value = int(text)
            except ValueError:
                try:
                    value = float(text)
                except ValueError:
                    raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
        try:
            return field_type.parse(value, flag)
        except MtcomputeError as error:
            raise argparse.ArgumentTypeError(error.message) from None

    return parse


def _tokenizer(text: str) -> str:
    """argparse ``type=`` of --tokenize: a tokenizer name that can run here
    (:func:`mtcompute.tokenizers.get_tokenizer`'s checks and messages)."""
    from mtcompute.tokenizers import get_tokenizer  # noqa: PLC0415

    try:
        return get_tokenizer(text, "--tokenize").name
    except MtcomputeError as error:
        raise argparse.ArgumentTypeError(error.message) from None


# -- options -------------------------------------------------------------------------------


_TEXTS = (  # help, description, epilog
    "score system output files against reference file(s): BLEU, chrF, chrF++, TER",
    _DESCRIPTION,
    _EPILOG.replace("VERSION", __version__),
)


def add_parser(subparsers: Subparsers) -> None:
    """Register the ``score`` sub-command: its options in four groups (the order of --help).

    The metric options default to None, not to their values, so that :func:`run` can tell
    an option given for a metric that was not asked for."""
    parser = add_command(subparsers, "score", run, _TEXTS)
    parser.add_argument(
        "--hypotheses",
        "-H",
        required=True,
        nargs="+",
        metavar="FILE",
        help="system output file(s), one segment per line ('-' for stdin)",
    )
    parser.add_argument(
        "--references",
        "-r",
        required=True,
        nargs="+",
        metavar="FILE",
        help="reference file(s), line-aligned with the hypotheses ('-' for stdin)",
    )
    parser.add_argument(
        "--metric",
        "-m",
        nargs="+",
        choices=METRICS,
        default=["chrf"],
        metavar="METRIC",
        help="bleu, chrf, chrf++, ter: one or more (default chrf)",
    )
    parser.add_argument(
        "--rules",
        type=_checked("RULES", "--rules"),
        default="sacrebleu",
        help="sacrebleu (default): sacreBLEU 2.6.0's numbers; contract: the catalog "
        "contracts' exact chrF corpus rule (chrF and chrF++ only, one reference file)",
    )
    parser.add_argument(
        "--lowercase",
        action="store_true",
        default=None,
        help="lowercase both sides first (BLEU, chrF, chrF++; TER lowercases unless "
        "--case-sensitive)",
    )
    chrf = parser.add_argument_group("chrF options")
    chrf.add_argument(
        "--beta",
        type=_checked("BETA", "--beta"),
        default=None,
        help="recall weight, 1..16 (default 2)",
    )
    bleu = parser.add_argument_group("BLEU options")
    bleu.add_argument(
        "--tokenize",
        type=_tokenizer,
        default=None,
        metavar="NAME",
        help="sacreBLEU's tokenizer: 13a (default), intl, zh, char, none, ja-mecab, ko-mecab",
    )
    bleu.add_argument(
        "--smooth-method",
        type=_checked("SMOOTH_METHOD", "--smooth-method"),
        default=None,
        metavar="METHOD",
        help="sacreBLEU's smoothing: exp (default), floor, add-k, none",
    )
    bleu.add_argument(
        "--smooth-value",
        type=_checked("SMOOTH_VALUE", "--smooth-value"),
        default=None,
        metavar="VALUE",
        help="floor's or add-k's value, 0..100 (defaults 0.1 and 1)",
    )
    bleu.add_argument(
        "--max-order",
        type=_checked("MAX_ORDER", "--max-order"),
        default=None,
        help="highest n-gram order, 1..8 (default 4)",
    )
    bleu.add_argument(
        "--effective-order",
        action="store_true",
        default=None,
        help="average only the orders with a positive total (sacreBLEU's effective order)",
    )
    ter = parser.add_argument_group(
        "TER options", "sacreBLEU's TER() settings, by their names (each off by default)"
    )
    ter.add_argument(
        "--normalized",
        action="store_true",
        default=None,
        help="tercom's normalization (entities, punctuation split off; CJK characters split "
        "with --asian-support)",
    )
    ter.add_argument(
        "--no-punct",
        action="store_true",
        default=None,
        help="remove punctuation (CJK and full-width punctuation too with --asian-support)",
    )
    ter.add_argument(
        "--asian-support",
        action="store_true",
        default=None,
        help="treat CJK text apart, with --normalized or --no-punct",
    )
    ter.add_argument(
        "--case-sensitive",
        action="store_true",
        default=None,
        help="keep the case (TER lowercases otherwise)",
    )
    tests = parser.add_argument_group(
        "significance", "paired tests against the first -H file, and bootstrap intervals"
    )
    paired = tests.add_mutually_exclusive_group()
    paired.add_argument(
        "--paired-bs",
        action="store_true",
        help="paired bootstrap resampling (Koehn 2004): p-values, means and 95%% intervals",
    )
    paired.add_argument(
        "--paired-ar",
        action="store_true",
        help="paired approximate randomization (Riezler and Maxwell 2005): p-values",
    )
    tests.add_argument(
        "--paired-bs-n",
        type=integer(1, "a positive integer"),
        default=None,
        metavar="N",
        help=f"resamples of --paired-bs (default {DEFAULT_SAMPLES['bootstrap']})",
    )
    tests.add_argument(
        "--paired-ar-n",
        type=integer(1, "a positive integer"),
        default=None,
        metavar="N",
        help=f"trials of --paired-ar (default {DEFAULT_SAMPLES['ar']})",
    )
    tests.add_argument(
        "--ci",
        action="store_true",
        help="each system's bootstrap mean and 95%% interval (alone or with --paired-ar)",
    )
    tests.add_argument(
        "--ci-n",
        type=integer(1, "a positive integer"),
        default=None,
        metavar="N",
        help=f"resamples of --ci (default {CI_SAMPLES})",
    )
    tests.add_argument(
        "--seed",
        type=integer(0, "a non-negative integer"),
        default=None,
        metavar="N",
        help=f"the random generator's seed (default {DEFAULT_SEED}, sacreBLEU's; 0 is a seed)",
    )
    parser.add_argument(
        "--scheduler",
        type=_scheduler.parse,
        default=None,
        metavar="ADDRESS",
        help="score on a Dask cluster: a scheduler's address (tcp://HOST:PORT), or local:N for "
        "N local worker processes; the workers read the files (mtcompute[dask])",
    )
    output = parser.add_argument_group("output")
    output.add_argument(
        "--segments", action="store_true", help="also print each segment's own score"
    )
    output.add_argument(
        "--format", choices=["text", "json"], default="text", help="output format (default text)"
    )
    output.add_argument(
        "--no-progress", action="store_true", help="never draw the progress bar on stderr"
    )


# -- progress ------------------------------------------------------------------------------


class _Progress:
    """A plain-text bar on a terminal's stderr, redrawn in place (when its percentage
    changes, and at the end: at most 101 times, whatever the chunks); a no-op when disabled."""

    WIDTH = 30

    def __init__(self, total: int, label: str, stream: IO[str] | None) -> None:
        self.total, self.label, self.stream, self.done = total, label, stream, 0
        self.percent = -1

    def advance(self, count: int) -> None:
        if self.stream is None:
            return
        self.done = min(self.done + count, self.total)
        percent = 100 * self.done // self.total
        if percent == self.percent and self.done < self.total:
            return
        self.percent = percent
        filled = self.WIDTH * self.done // self.total
        self.stream.write(
            f"\r{self.label} [{'#' * filled}{'.' * (self.WIDTH - filled)}] "
            f"{percent:3d}% {self.done}/{self.total} segments"
        )
        self.stream.flush()

    def close(self) -> None:
        if self.stream is not None:
            self.stream.write("\r" + " " * (self.WIDTH + 48 + len(self.label)) + "\r")
            self.stream.flush()


def _progress(args: argparse.Namespace, label: str) -> _Progress:
    """The run's bar: drawn when stderr is a terminal and the input has more than
    :data:`PROGRESS_MIN_SEGMENTS` segments (counted first, in the first regular file)."""
    stderr = sys.stderr
    if args.no_progress or not stderr.isatty():
        return _Progress(0, label, None)
    total = count_segments([*args.hypotheses, *args.references])
    shown = total is not None and total > PROGRESS_MIN_SEGMENTS
    return _Progress(total or 0, label, stderr if shown else None)


# -- the library calls -------------------------------------------------------------------
# Every call score makes into the metric code is here (with the imports at the top): the
# batch APIs' corpus BLEU, chrF and TER, computed in chunks (for the progress bar) whose
# results add up (the batch results' own ``+``).

Result: TypeAlias = "CorpusBleu | CorpusChrf | CorpusTer"


def _score_chunk(
    args: argparse.Namespace, metric: str, hyps: list[str], refs: list[list[str]]
) -> Result:
    """One metric of a chunk of segments, with the options given (:func:`_metric_options`)."""
    from mtcompute.batch import corpus_result  # noqa: PLC0415

    return corpus_result(
        hyps, refs, _metric_options(args, metric), rules=args.rules, segment_scores=args.segments
    )


def _metric_options(
    args: argparse.Namespace, metric: str
) -> BleuOptions | ChrfOptions | TerOptions:
    """The settings of one metric (chrF and chrF++: the chrF options, with their word order)."""
    bleu, chrf, ter = _options(args)
    if metric == "bleu":
        return bleu
    if metric == "ter":
        return ter
    return replace(chrf, word_order=WORD_ORDERS[metric])


class _Segments:
    """One result's per-segment output, written to temporary files as it is computed: its
    text lines, or the items of its JSON arrays (``segment_scores``, and TER's
    ``segment_edits`` and ``segment_ref_lengths``), each file the array's items joined by
    commas; copied to standard output after the result's own line or object."""

    def __init__(self, metric: str, json: bool) -> None:
        import tempfile  # noqa: PLC0415

        self.json = json
        keys = ("segment_scores",) if metric != "ter" else TER_SEGMENT_KEYS
        # closed (and so deleted) by copy(), or when the process ends
        self.files = {
            key: tempfile.TemporaryFile()  # noqa: SIM115
            for key in (keys if json else ("text",))
        }
        self.empty = True

    def write(self, part: Result) -> None:
        """Write the segments of the next chunk's result."""
        from mtcompute.batch import CorpusTer  # noqa: PLC0415
        from mtcompute.core.jsjson import dumps  # noqa: PLC0415

        scores = part.segment_scores or ()
        if not self.json:
            self.files["text"].write("".join(f"{score:.6f}\n" for score in scores).encode())
            return
        columns: dict[str, Sequence[object]] = {"segment_scores": scores}
        if isinstance(part, CorpusTer):
            columns["segment_edits"] = [edits for edits, _ in part.segment_statistics]
            columns["segment_ref_lengths"] = [length for _, length in part.segment_statistics]
        lead = "" if self.empty else ","
        for key, values in columns.items():
            self.files[key].write((lead + dumps(list(values))[1:-1]).encode())
        self.empty = self.empty and not scores

    def copy(self, key: str, out: IO[bytes]) -> None:
        """Copy one file to ``out`` (then close it: it is deleted)."""
        import shutil  # noqa: PLC0415

        spool = self.files.pop(key)
        spool.seek(0)
        shutil.copyfileobj(spool, out)
        spool.close()


TER_SEGMENT_KEYS = ("segment_scores", "segment_edits", "segment_ref_lengths")


def _placeholder_token() -> str:
    """A token no text holds, for the JSON text's placeholders (:func:`_placeholder`)."""
    from uuid import uuid4  # noqa: PLC0415

    return f"mtcompute-segments-{uuid4().hex}"


@dataclass
class _Run:
    """What a run found: per system and metric the result (its segment scores not in it:
    ``segments`` holds them, when asked for), the segment count, and the token of the JSON
    text's placeholders (:func:`_placeholder`)."""

    results: list[list[Result]]
    segments: list[list[_Segments]] | None
    count: int
    token: str = field(default_factory=_placeholder_token)


def _bar_label(args: argparse.Namespace) -> str:
    """The bar's label: the system's file name, or the number of systems, then the metrics."""
    systems = args.hypotheses
    named = label(systems[0]) if len(systems) == 1 else f"{len(systems)} systems"
    return f"{named} {' '.join(args.metric)}"


GC_CHUNKS = 16  # the collector's first threshold while streaming: this many chunks' segments


def _scored(args: argparse.Namespace) -> _Run:
    """Every system and metric, the files read in chunks, each chunk's results added up in
    the files' order (:class:`mtcompute.batch.ResultSum`) and its segment scores written
    out, then dropped: named files by :func:`_in_parallel`, standard input chunk after chunk
    (the next read while this one is counted, on the kernel's threads)."""
    from mtcompute.batch import ResultSum  # noqa: PLC0415

    sums = [[ResultSum() for _ in args.metric] for _ in args.hypotheses]
    segments = _spools(args)
    progress = _progress(args, _bar_label(args))
    count = 0

    def add(size: int, results: list[list[Result]]) -> None:
        nonlocal count
        for s, row in enumerate(results):
            for m, part in enumerate(row):
                sums[s][m].add(part)
                if segments is not None:
                    segments[s][m].write(part)
        count += size
        progress.advance(size)

    # Each chunk makes and drops tens of thousands of lists and tuples (a reference list a
    # segment, TER's pairs). At the collector's default threshold (700 objects made and not
    # yet dropped) that is hundreds of collections every 100,000 segments, each holding the
    # interpreter lock (0.24 s of TER's 7.5 s on 300,000 segments, a sixth of the time the
    # lock is held). Over what the chunks in flight hold, only objects left behind (cycles)
    # start one.
    threshold = gc.get_threshold()
    gc.set_threshold(max(threshold[0], GC_CHUNKS * chunk_size()), *threshold[1:])
    try:
        if STDIN in [*args.hypotheses, *args.references]:
            for chunk in read_ahead(segment_chunks(args.hypotheses, args.references)):
                add(len(chunk.references), _chunk_results(args, chunk))
        else:
            _in_parallel(args, add)
    finally:
        gc.set_threshold(*threshold)
    progress.close()
    return _Run([[total.total() for total in row] for row in sums], segments, count)


def _chunk_results(args: argparse.Namespace, chunk: Chunk) -> list[list[Result]]:
    """Per system and metric the result of one chunk."""
    return [
        [_score_chunk(args, metric, hyps, chunk.references) for metric in args.metric]
        for hyps in chunk.systems
    ]


def _raw_results(args: argparse.Namespace, raw: RawChunk) -> list[list[Result]] | None:
    """:func:`_chunk_results` of a chunk as read, each call counting on this thread alone:
    BLEU from the undecoded lines where the kernel counts them
    (:func:`mtcompute.batch.corpus_bleu_lines`), the rest from the lines decoded here;
    None when a line is not UTF-8."""
    from mtcompute.counting import threads_in_context  # noqa: PLC0415

    systems = len(args.hypotheses)
    chunk: Chunk | None = None
    results: list[list[Result]] = []
    with threads_in_context(1):
        for s in range(systems):
            row: list[Result] = []
            for metric in args.metric:
                part = _lines_result(args, metric, raw, s)
                if part is None:
                    chunk = chunk or decode_chunk(raw, systems)
                    if chunk is None:
                        return None
                    part = _score_chunk(args, metric, chunk.systems[s], chunk.references)
                row.append(part)
            results.append(row)
    return results


def _lines_result(
    args: argparse.Namespace, metric: str, raw: RawChunk, system: int
) -> Result | None:
    """One metric of one system's chunk from its undecoded lines where the kernel counts
    them so (BLEU, chrF and chrF++: :func:`mtcompute.batch.corpus_bleu_lines`,
    :func:`~mtcompute.batch.corpus_chrf_lines`), else None."""
    from mtcompute.batch import corpus_bleu_lines, corpus_chrf_lines  # noqa: PLC0415
    from mtcompute.scoring import BleuOptions, ChrfOptions  # noqa: PLC0415

    options = _metric_options(args, metric)
    hyps, refs = raw.pieces[system], raw.pieces[len(args.hypotheses) :]
    if isinstance(options, BleuOptions):
        return corpus_bleu_lines(hyps, refs, raw.count, options, segment_scores=args.segments)
    if isinstance(options, ChrfOptions):
        return corpus_chrf_lines(
            hyps, refs, raw.count, options, rules=args.rules, segment_scores=args.segments
        )
    return None


def _in_parallel(args: argparse.Namespace, add: Callable[[int, list[list[Result]]], None]) -> None:
    """The named files in chunks on the kernel's threads (``MTCOMPUTE_THREADS``), each
    thread taking whole chunks (decoded, counted and scored there, see :func:`_raw_results`)
    while a reader thread cuts the next ones from the files (:func:`byte_chunks`, undecoded);
    each chunk's count and results handed to ``add`` in the files' order, at most one chunk
    more than there are threads in flight. A fault (files of different lengths, a line that
    is not UTF-8, no line) is the error reading the files chunk after chunk reports."""
    from concurrent.futures import ThreadPoolExecutor  # noqa: PLC0415

    from mtcompute.counting import thread_count  # noqa: PLC0415

    workers = thread_count()
    names = [*args.hypotheses, *args.references]
    pending: deque[tuple[int, Future[list[list[Result]] | None]]] = deque()
    with ThreadPoolExecutor(workers, thread_name_prefix="mtcompute-chunk") as pool:
        try:
            for raw in read_ahead(byte_chunks(names)):
                pending.append((raw.count, pool.submit(_raw_results, args, raw)))
                while len(pending) > workers:
                    _hand_on(pending.popleft(), add)
            while pending:
                _hand_on(pending.popleft(), add)
        except Uneven:
            raise reported_fault(args.hypotheses, args.references) from None
        finally:
            for _, future in pending:
                future.cancel()


def _hand_on(
    item: tuple[int, Future[list[list[Result]] | None]],
    add: Callable[[int, list[list[Result]]], None],
) -> None:
    """Wait for one chunk's results and hand them to ``add``; :class:`Uneven` when the chunk
    could not be decoded."""
    size, future = item
    results = future.result()
    if results is None:
        raise Uneven
    add(size, results)


def _on_cluster(args: argparse.Namespace) -> _Run:
    """Every system and metric scored on the Dask cluster ``--scheduler`` names (the
    results come back whole, segment scores included when asked for: written out as one
    chunk's)."""
    options = {name: _metric_options(args, name) for name in args.metric}
    results, count = _scheduler.score(args, options)
    segments = _spools(args)
    if segments is not None:
        for spools, row in zip(segments, results, strict=True):
            for spool, result in zip(spools, row, strict=True):
                spool.write(result)
    return _Run(results, segments, count)


def _spools(args: argparse.Namespace) -> list[list[_Segments]] | None:
    """Per system and metric the segment output's files, with --segments."""
    if not args.segments:
        return None
    json = args.format == "json"
    return [[_Segments(metric, json) for metric in args.metric] for _ in args.hypotheses]


# -- the command ---------------------------------------------------------------------------


def _method(args: argparse.Namespace) -> str | None:
    """The paired test asked for: ``bootstrap``, ``ar`` or None."""
    return "bootstrap" if args.paired_bs else "ar" if args.paired_ar else None


def _tests_asked(args: argparse.Namespace) -> bool:
    """Whether a paired test or intervals are asked for."""
    return bool(args.paired_bs or args.paired_ar or args.ci)


def _check_tests(args: argparse.Namespace) -> None:
    """The significance options: each count with its test, tests with two or more systems,
    sacreBLEU's rules only."""
    alone = {
        "--paired-bs-n": (args.paired_bs_n, args.paired_bs, "--paired-bs"),
        "--paired-ar-n": (args.paired_ar_n, args.paired_ar, "--paired-ar"),
        "--ci-n": (args.ci_n, args.ci, "--ci"),
        "--seed": (args.seed, _tests_asked(args), "--paired-bs, --paired-ar or --ci"),
    }
    for flag, (value, test, needs) in alone.items():
        if value is not None and not test:
            raise CommandError(f"{flag} applies only with {needs}", EXIT_USAGE, "usage")
    if args.paired_bs and args.ci_n is not None:
        raise CommandError(
            "--ci-n does not apply with --paired-bs: its intervals come from its own "
            "resamples (--paired-bs-n)",
            EXIT_USAGE,
            "usage",
        )
    method = _method(args)
    if method is not None and len(args.hypotheses) < 2:
        flag = "--paired-bs" if method == "bootstrap" else "--paired-ar"
        raise CommandError(
            f"{flag} compares systems with a baseline: give two or more -H files (the first "
            f"is the baseline), got 1 ({label(args.hypotheses[0])})",
            EXIT_USAGE,
            "usage",
        )
    if _tests_asked(args) and args.rules == "contract":
        raise CommandError(
            "--paired-bs, --paired-ar and --ci apply to --rules sacrebleu only (the tests "
            "resample sacreBLEU's statistics)",
            EXIT_USAGE,
            "usage",
        )


def _check_options(args: argparse.Namespace) -> None:
    metrics: list[str] = args.metric
    repeated("--metric", metrics)
    options = {
        "--lowercase": (args.lowercase, ("bleu", "chrf", "chrf++")),
        "--beta": (args.beta, ("chrf", "chrf++")),
        "--tokenize": (args.tokenize, ("bleu",)),
        "--smooth-method": (args.smooth_method, ("bleu",)),
        "--smooth-value": (args.smooth_value, ("bleu",)),
        "--max-order": (args.max_order, ("bleu",)),
        "--effective-order": (args.effective_order, ("bleu",)),
        "--normalized": (args.normalized, ("ter",)),
        "--no-punct": (args.no_punct, ("ter",)),
        "--asian-support": (args.asian_support, ("ter",)),
        "--case-sensitive": (args.case_sensitive, ("ter",)),
    }
    given = [
        flag
        for flag, (value, takers) in options.items()
        if value is not None and not set(takers) & set(metrics)
    ]
    if given:
        why = " (TER lowercases unless --case-sensitive)" if "--lowercase" in given else ""
        raise CommandError(
            f"{', '.join(given)} do(es) not apply to --metric {' '.join(metrics)}{why}",
            EXIT_USAGE,
            "usage",
        )
    method = args.smooth_method or "exp"
    if args.smooth_value is not None and method not in ("floor", "add-k"):
        raise CommandError(
            f"--smooth-value applies only to --smooth-method floor or add-k, got "
            f"--smooth-method {method}",
            EXIT_USAGE,
            "usage",
        )
    if args.rules == "contract":
        if "bleu" in metrics:
            raise CommandError(
                "--rules contract applies to chrf and chrf++ only: BLEU is scored by "
                "sacreBLEU's rules alone (for the contracts' BLEU on whitespace tokens, run "
                "the bleu-corpus-compute tool: mtcompute run bleu-corpus-compute 1.0.0)",
                EXIT_USAGE,
                "usage",
            )
        if "ter" in metrics:
            raise CommandError(
                "--rules contract applies to chrf and chrf++ only: TER is scored by "
                "sacreBLEU's rules alone (the ter-compute tool gives the same numbers)",
                EXIT_USAGE,
                "usage",
            )
        if len(args.references) > 1:
            raise CommandError(
                f"--rules contract takes exactly one reference file, got "
                f"{len(args.references)} ({', '.join(label(n) for n in args.references)}): "
                "the chrf-compute contract scores each segment against one reference; "
                "without --rules contract, chrF takes several (sacreBLEU's best reference "
                "per segment)",
                EXIT_USAGE,
                "usage",
            )
    _check_tests(args)


def _write_line(text: str) -> None:
    sys.stdout.buffer.write(text.encode("utf-8") + b"\n")


def _write_text(found: _Run, lines: list[list[list[str]]]) -> None:
    """One line per system and metric (``lines[s][m]``: the system's file name first when
    there are several), each followed by its segment scores when they were asked for."""
    out = sys.stdout.buffer
    for s, row in enumerate(lines):
        for m, text in enumerate(row):
            out.write("".join(f"{line}\n" for line in text).encode("utf-8"))
            if found.segments is not None:
                found.segments[s][m].copy("text", out)


def _prefixes(systems: Sequence[str]) -> list[str]:
    """What starts each system's lines: its file name, padded, when there are several."""
    labels = [label(name) for name in systems]
    width = max(len(text) for text in labels)
    return [f"{name:<{width}}  " if len(systems) > 1 else "" for name in labels]


def _text(systems: Sequence[str], found: _Run) -> list[list[list[str]]]:
    """Per system and metric its score line."""
    return [
        [[f"{prefix}{result}"] for result in row]
        for prefix, row in zip(_prefixes(systems), found.results, strict=True)
    ]


def _json(args: argparse.Namespace, found: _Run) -> dict[str, object]:
    """The whole run as one object: the references, the segment count, and per system the
    scores by metric (the batch results' own data; the segment arrays, written from their
    files, stand in as :func:`_placeholder` strings)."""
    systems: list[dict[str, object]] = []
    for s, (name, row) in enumerate(zip(args.hypotheses, found.results, strict=True)):
        scores: dict[str, object] = {}
        for m, (metric, result) in enumerate(zip(args.metric, row, strict=True)):
            data = result.to_dict()
            if found.segments is not None:
                for key in found.segments[s][m].files:
                    data[key] = _placeholder(found, s, m, key)
            scores[metric] = data
        systems.append({"hypotheses": label(name), "scores": scores})
    return {
        "references": [label(name) for name in args.references],
        "segment_count": found.count,
        "systems": systems,
    }


def _placeholder(found: _Run, system: int, metric: int, key: str) -> str:
    """The string that stands for a segment array in the JSON text until it is written."""
    return f"{found.token}:{system}:{metric}:{key}"


def _write_json(data: dict[str, object], found: _Run) -> None:
    """``data`` as compact JSON, each placeholder string replaced by its array, copied from
    its file."""
    from mtcompute.core.jsjson import dumps  # noqa: PLC0415

    text = dumps(data)
    out = sys.stdout.buffer
    if found.segments is None:
        out.write(text.encode("utf-8") + b"\n")
        return
    pieces = re.split(f'"{found.token}:([0-9]+):([0-9]+):([a-z_]+)"', text)
    out.write(pieces[0].encode("utf-8"))
    for at in range(1, len(pieces), 4):
        system, metric, key, after = pieces[at : at + 4]
        out.write(b"[")
        found.segments[int(system)][int(metric)].copy(key, out)
        out.write(b"]" + after.encode("utf-8"))
    out.write(b"\n")


# -- significance ------------------------------------------------------------------------
# --paired-bs, --paired-ar and --ci: mtcompute.report.paired (the path compare takes too),
# imported when a test is asked for: it brings numpy, about 0.1 s, which the plain score
# command (a 100 ms budget for its whole process) never loads.


@dataclass(frozen=True, slots=True)
class _Settings:
    """The test asked for: its method (None: intervals alone), its resamples or trials, the
    interval resamples (0: none, or the paired bootstrap's own), the seed."""

    method: str | None
    samples: int
    confidence: int
    seed: int

    def signature_fields(self) -> dict[str, object]:
        """sacreBLEU's signature fields of the test (``PairedTest``, ``--confidence``):
        ``bs`` resamples, ``ar`` trials, ``seed``."""
        fields: dict[str, object] = {"seed": self.seed}
        if self.method == "bootstrap":
            fields["bs"] = self.samples
        else:
            if self.method == "ar":
                fields["ar"] = self.samples
            if self.confidence:
                fields["bs"] = self.confidence
        return fields

    def to_dict(self) -> dict[str, object]:
        """The test's settings in the JSON output."""
        return {
            "method": self.method,
            "samples": self.samples if self.method else None,
            "ci_samples": self.samples if self.method == "bootstrap" else self.confidence or None,
            "seed": self.seed,
        }


def _settings(args: argparse.Namespace) -> _Settings:
    method = _method(args)
    samples = 0
    if method is not None:
        given = args.paired_bs_n if method == "bootstrap" else args.paired_ar_n
        samples = DEFAULT_SAMPLES[method] if given is None else given
    confidence = 0
    if args.ci and method != "bootstrap":
        confidence = CI_SAMPLES if args.ci_n is None else args.ci_n
    return _Settings(method, samples, confidence, DEFAULT_SEED if args.seed is None else args.seed)


def _options(args: argparse.Namespace) -> tuple[BleuOptions, ChrfOptions, TerOptions]:
    """The metrics' settings: the options given, else the batch APIs' defaults."""
    from mtcompute.scoring import BleuOptions, ChrfOptions, TerOptions  # noqa: PLC0415

    bleu = BleuOptions(
        args.tokenize or "13a",
        bool(args.lowercase),
        args.smooth_method or "exp",
        args.smooth_value,
        4 if args.max_order is None else args.max_order,
        bool(args.effective_order),
    )
    chrf = ChrfOptions(beta=2 if args.beta is None else args.beta, lowercase=bool(args.lowercase))
    ter = TerOptions(
        bool(args.normalized),
        bool(args.no_punct),
        bool(args.asian_support),
        bool(args.case_sensitive),
    )
    return bleu, chrf, ter


def _tested(args: argparse.Namespace) -> tuple[_Run, list[list[TestResult]]]:
    """Each system's scores (from the statistics the tests resample, unless --segments asks
    for the batch APIs' segment scores) and its test results. The files are read in chunks
    (the next read while this one is counted); of each chunk only the per-segment statistics
    are kept (the kernel's int64 rows, TER's float64 ones), never the texts."""
    # Imported here, not at the top: see the section's comment (numpy: the rows' matrices).
    import numpy as np  # noqa: PLC0415

    from mtcompute.batch import ResultSum  # noqa: PLC0415
    from mtcompute.report import paired  # noqa: PLC0415
    from mtcompute.significance import Table  # noqa: PLC0415

    settings = _settings(args)
    bleu, chrf, ter = _options(args)
    metrics = [paired.metric(name, bleu=bleu, chrf=chrf, ter=ter) for name in args.metric]
    options: dict[str, BleuOptions | ChrfOptions | TerOptions] = {
        "bleu": bleu,
        "chrf": chrf,
        "ter": ter,
    }
    nrefs = len(args.references)
    sums = [[ResultSum() for _ in args.metric] for _ in args.hypotheses]
    rows = [[bytearray() for _ in args.hypotheses] for _ in metrics]  # [metric][system]
    shapes: list[tuple[Any, int]] = []  # each metric's row type and width
    segments = _spools(args)
    progress = _progress(args, _bar_label(args))
    count = 0
    for chunk in read_ahead(segment_chunks(args.hypotheses, args.references)):
        extracted = paired.extract(metrics, chunk.systems, chunk.references)
        for t, table in enumerate(extracted.tables):
            for s, statistics in enumerate(table.statistics):
                matrix = np.ascontiguousarray(statistics)
                if len(shapes) == t:
                    shapes.append((matrix.dtype, matrix.shape[1]))
                rows[t][s] += matrix.tobytes()
        for s, hyps in enumerate(chunk.systems):
            for t, name in enumerate(args.metric):
                if segments is not None:
                    part = _score_chunk(args, name, hyps, chunk.references)
                    segments[s][t].write(part)
                else:
                    part = _from_totals(name, options, extracted.totals[t][s], nrefs)
                sums[s][t].add(part)
        count += len(chunk.references)
        progress.advance(len(chunk.references))
    progress.close()
    results = [[total.total() for total in row] for row in sums]
    tables = []
    for t, chosen in enumerate(metrics):
        dtype, width = shapes[t]
        matrices = [np.frombuffer(found, dtype=dtype).reshape(-1, width) for found in rows[t]]
        tables.append(Table(chosen, matrices))
    del rows
    tested = paired.run(
        tables,
        settings.method,  # type: ignore[arg-type]
        samples=settings.samples,
        confidence=settings.confidence,
        seed=settings.seed,
    )
    by_system = [[tested[t][s] for t in range(len(metrics))] for s in range(len(args.hypotheses))]
    return _Run(results, segments, count), by_system


def _from_totals(
    metric: str,
    options: dict[str, BleuOptions | ChrfOptions | TerOptions],
    totals: Sequence[Any],
    nrefs: int,
) -> Result:
    """The batch result of one system's summed statistics for ``metric`` (TER: of its
    segments' statistics, which it sums in segment order)."""
    from mtcompute.batch import CorpusBleu, CorpusChrf, CorpusTer  # noqa: PLC0415
    from mtcompute.scoring import BleuOptions, ChrfOptions, TerOptions  # noqa: PLC0415
    from mtcompute.tokenizers import get_tokenizer  # noqa: PLC0415

    if metric == "bleu":
        bleu = cast(BleuOptions, options["bleu"])
        tokenizer = get_tokenizer(bleu.tokenize).signature
        return CorpusBleu.from_statistics(cast("list[int]", totals), bleu, tokenizer, nrefs)
    if metric == "ter":
        ter = cast(TerOptions, options["ter"])
        return CorpusTer.from_statistics(cast("list[tuple[int, float]]", totals), ter, nrefs)
    base = cast(ChrfOptions, options["chrf"])
    chrf = ChrfOptions(beta=base.beta, lowercase=base.lowercase, word_order=WORD_ORDERS[metric])
    return CorpusChrf.from_statistics(cast("list[int]", totals), chrf, "sacrebleu", nrefs)


def _tested_signature(result: Result, settings: _Settings) -> str:
    """The result's signature with the test's fields (``nrefs:1|bs:1000|seed:12345|...``)."""
    from mtcompute.batch import CorpusBleu, CorpusChrf  # noqa: PLC0415
    from mtcompute.scoring import (  # noqa: PLC0415
        bleu_signature_fields,
        chrf_signature_fields,
        format_signature,
        ter_signature_fields,
    )

    if isinstance(result, CorpusBleu):
        found = bleu_signature_fields(result.options, result.nrefs, result.tokenizer_signature)
    elif isinstance(result, CorpusChrf):
        found = chrf_signature_fields(result.options, result.nrefs)
    else:
        found = ter_signature_fields(result.options, result.nrefs)
    return f"{format_signature(found | settings.signature_fields())}|mtcompute:{__version__}"


def _tested_line(result: Result, test: TestResult, settings: _Settings, baseline: bool) -> str:
    """sacreBLEU's ``--confidence`` line (``= 37.79 (μ = 37.80 ± 0.99)``, then BLEU's
    verbose part) with the test's signature; then, in a paired test, ``(baseline)`` or
    ``p = 0.0310`` and ``*`` when p <= 0.05."""
    from mtcompute.batch import CorpusBleu  # noqa: PLC0415

    interval = "" if test.mean is None else f" (μ = {test.mean:.2f} ± {test.ci:.2f})"
    verbose = f" {result.verbose}" if isinstance(result, CorpusBleu) else ""
    line = f"{result.name}|{_tested_signature(result, settings)} = {result.score_text}"
    line += f"{interval}{verbose}"
    if settings.method is None:
        return line
    if baseline:
        return f"{line}  (baseline)"
    return f"{line}  p = {test.p_value:.4f}{'*' if is_significant(test.p_value) else ''}"


def _tested_text(
    systems: Sequence[str], found: _Run, tests: list[list[TestResult]], settings: _Settings
) -> list[list[list[str]]]:
    """:func:`_text` with each score line :func:`_tested_line`."""
    return [
        [
            [f"{prefix}{_tested_line(result, test, settings, s == 0)}"]
            for result, test in zip(row, tests[s], strict=True)
        ]
        for s, (prefix, row) in enumerate(zip(_prefixes(systems), found.results, strict=True))
    ]


def _tested_json(
    args: argparse.Namespace,
    found: _Run,
    tests: list[list[TestResult]],
    settings: _Settings,
) -> dict[str, object]:
    """:func:`_json` with the test's settings, each system's ``baseline`` flag, and each
    score's test signature, ``mean``, ``ci``, ``p_value`` and ``significant``."""
    out = _json(args, found)
    out["significance"] = settings.to_dict()
    paired = settings.method is not None
    for s, system in enumerate(cast("list[dict[str, Any]]", out["systems"])):
        if paired:
            system["baseline"] = s == 0
        for t, metric in enumerate(args.metric):
            test = tests[s][t]
            scores = system["scores"][metric]
            scores["signature"] = _tested_signature(found.results[s][t], settings)
            scores["mean"] = test.mean
            scores["ci"] = test.ci
            scores["p_value"] = test.p_value
            scores["significant"] = is_significant(test.p_value)
    return out


def run(args: argparse.Namespace) -> int:
    """Run ``mtcompute score`` with parsed arguments; return the exit status."""
    try:
        _check_options(args)
        tests: list[list[TestResult]] | None = None
        if args.scheduler is not None:  # on a Dask cluster: mtcompute.dask
            found = _on_cluster(args)
        elif _tests_asked(args):
            settings = _settings(args)
            found, tests = _tested(args)
        else:
            found = _scored(args)
    except CommandError as exc:
        return fail(args, exc, "score")
    except MtcomputeError as exc:  # the library refused the input
        return fail(args, CommandError(exc.message, EXIT_DATA_ERROR, exc.code), "score")
    if tests is not None:
        if args.format == "json":
            _write_json(_tested_json(args, found, tests, settings), found)
        else:
            _write_text(found, _tested_text(args.hypotheses, found, tests, settings))
    elif args.format == "json":
        _write_json(_json(args, found), found)
    else:
        _write_text(found, _text(args.hypotheses, found))
    sys.stdout.flush()
    return EXIT_OK
