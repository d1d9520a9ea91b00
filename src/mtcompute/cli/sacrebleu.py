"""``mtcompute sacrebleu``: sacreBLEU 2.6.0's command line for files and standard input.

The same options (names, defaults, choices, argparse's parsing of them), the same reading of
the files (sacreBLEU's ``smart_open``: the encoding of ``-e``, gzip for ``*.gz``, only ``\\n``
ends a line, each line ``rstrip()``-ed; standard input with universal newlines and one system
per tab-separated field), the same checks in the same order with the same exit statuses, and
the same bytes on standard output: the single-system lines aligned on ``=``, JSON, the
multi-system table (:mod:`mtcompute.cli._sacrebleu_table`), the sentence-level lines, colours
as sacreBLEU's colorama leaves them. The scores come from :mod:`mtcompute.sacrebleu` (its
``BLEU``, ``CHRF`` and ``TER`` classes, built once with the references as sacreBLEU builds
them, so that their cache serves every system, and their score objects' ``format()``); this
module reads, checks and prints, and computes nothing itself.

The paired significance tests (``-pbs``/``-par`` with ``-pbsn``/``-parn``) and the
single-system confidence intervals (``-ci``, ``-cin``) are sacreBLEU's too: its
``PairedTest`` and ``corpus_score(n_bootstrap=N)`` from :mod:`mtcompute.sacrebleu` (the draws
and float32 arithmetic of :mod:`mtcompute.significance`), its checks (a paired test needs more
than one system, the first is the baseline and is not read twice, -ci takes one system,
neither runs at sentence level), its table with the p-values (``print_results_table``), its
JSON, and ``SACREBLEU_SEED`` read as it reads it.

Not reproduced (each said in ``--help``): the flags that need sacreBLEU's test-set downloads
or a downloaded tokenizer model are refused with one line and exit status 2;
``SACREBLEU_SEED=0`` seeds the comparisons with 0 (sacreBLEU runs them unseeded); where
sacreBLEU crashes printing the paired bootstrap's JSON for chrF or TER (its float32 means and
half widths, which ``json`` refuses under numpy 2) this command prints the JSON it would have
printed, those numbers as their float values; ``-j`` is checked as sacreBLEU checks it but the
comparisons run in this process. Where sacreBLEU stops with a traceback this command prints
one line naming the cause, with the same exit status (1).
"""

from __future__ import annotations

__all__ = ["add_parser", "run"]

import argparse
import codecs
import os
import re
import stat
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from itertools import islice
from typing import TYPE_CHECKING, Any

from mtcompute.cli._common import (
    EXIT_OK,
    EXIT_USAGE,
    STDIN,
    Subparsers,
    add_command,
    read_ahead,
    read_input,
)
from mtcompute.errors import MtcomputeError
from mtcompute.streaming import chunk_size, decode_lines
from mtcompute.tokenizer_names import DOWNLOADING, NAMES

# The metrics (mtcompute.sacrebleu) and the table are imported by the functions that use
# them, not here: every mtcompute command builds this command's parser.
if TYPE_CHECKING:
    from mtcompute.sacrebleu import BLEU, CHRF, TER
    from mtcompute.sacrebleu.metrics.base import CorpusInChunks

SACREBLEU_VERSION = "2.6.0"
EXIT_FAILURE = 1  # sacreBLEU's sys.exit(1), and the status of its tracebacks
EXIT_FIELDS = 17  # sacreBLEU's status for a wrong number of tab-separated fields
FORMATS = ("json", "text", "latex")
SMOOTH_DEFAULTS: dict[str, float | None] = {"none": None, "floor": 0.1, "add-k": 1, "exp": None}
CHAR_ORDER, WORD_ORDER, BETA = 6, 0, 2  # sacreBLEU's CHRF defaults


def _metric_class(name: str) -> type[BLEU] | type[CHRF] | type[TER]:
    """sacreBLEU's metric class of a ``-m`` name."""
    from mtcompute.sacrebleu import BLEU, CHRF, TER  # noqa: PLC0415

    classes: dict[str, type[BLEU] | type[CHRF] | type[TER]] = {
        "bleu": BLEU,
        "chrf": CHRF,
        "ter": TER,
    }
    return classes[name]


# What mtcompute.sacrebleu raises where sacreBLEU raises (its errors are ValueError, KeyError,
# IndexError, RuntimeError or TypeError subclasses) or where its arithmetic would.
FACADE_ERRORS = (MtcomputeError, ArithmeticError, LookupError, RuntimeError, TypeError, ValueError)

# colorama's codes (Fore.CYAN, Fore.YELLOW, Fore.GREEN, Fore.RED, Style.RESET_ALL)
CYAN, YELLOW, GREEN, RED, RESET = "\x1b[36m", "\x1b[33m", "\x1b[32m", "\x1b[31m", "\x1b[0m"
SIGNIFICANCE = 0.05  # p-values above it are printed in red, the others marked "*"
CONFIDENCE = re.compile(r"(\(μ = [0-9\.]+ ± [0-9\.]+\))")  # coloured in cyan (text)

# Flags whose work needs sacreBLEU's test sets, which mtcompute does not fetch.
# (A flag counts when sacreBLEU acts on it: --download "" is ignored there, -t "" is not.)
TEST_SET_FLAGS = (
    ("test_set", "-t/--test-set"),
    ("list", "--list"),
    ("echo", "--echo"),
    ("download", "--download"),
    ("citation", "--citation"),
    ("origlang", "-ol/--origlang"),
    ("subset", "--subset"),
)
ACTED_ON_WHEN_TRUE = ("list", "download", "citation")

_DESCRIPTION = """\
sacreBLEU 2.6.0's command line on your own files: the same options, the same output on
standard output, byte for byte, and the same exit status, from mtcompute's BLEU, chrF and
TER, with sacreBLEU's paired significance tests and confidence intervals.

  mtcompute sacrebleu REF [REF ...] -i SYS [SYS ...] [options]
  cat SYS | mtcompute sacrebleu REF [options]

References come first, then -i and the system outputs (one segment per line; several
systems give sacreBLEU's multi-system table or JSON list). Without -i the systems are read
from standard input, one system per tab-separated field. -nr N reads N tab-separated
references from one reference file."""

_EPILOG = f"""\
examples:
  mtcompute sacrebleu ref.de -i sys.de -m bleu chrf
  mtcompute sacrebleu ref.de -i a.de b.de c.de -m bleu chrf -f text
  mtcompute sacrebleu ref.A.de ref.B.de -i a.de b.de -m bleu chrf ter
  mtcompute sacrebleu ref.de -i sys.de -m ter --ter-normalized --ter-case-sensitive
  mtcompute sacrebleu refs.tsv -nr 2 -i sys.de -b -w 2
  cat sys.de | mtcompute sacrebleu ref.de -m chrf --chrf-word-order 2
  mtcompute sacrebleu ref.de -i base.de a.de b.de -m bleu chrf --paired-bs
  mtcompute sacrebleu ref.de -i base.de a.de -m bleu chrf ter --paired-ar -f text
  mtcompute sacrebleu ref.de -i sys.de -m bleu chrf --confidence

where mtcompute differs from sacreBLEU 2.6.0:
  - Test sets are not fetched: -t/--test-set, --list, --echo, --download, --citation,
    -ol/--origlang and --subset print one line on standard error and exit 2. Give the
    reference files instead.
  - The BLEU tokenizers whose model sacreBLEU downloads
    ({", ".join(DOWNLOADING)}) are refused (exit 2); ja-mecab and ko-mecab
    need mtcompute's [ja] / [ko] extras.
  - SACREBLEU_SEED=0 seeds the paired tests with 0. sacreBLEU prints "seed:0" in the
    signature but runs the comparisons unseeded (different p-values on every run); with any
    other seed, and unset (12345), the numbers are sacreBLEU's. SACREBLEU_SEED=None runs
    unseeded, as in sacreBLEU; a value that is not an integer, or a negative one, is refused
    (exit 1, as sacreBLEU's traceback).
  - The paired bootstrap's JSON with chrF or TER (-pbs -f json): sacreBLEU 2.6.0 under
    numpy 2 crashes (exit 1, nothing printed: its float32 means and half widths are not JSON
    serializable); this command prints the JSON it would have printed, with those numbers as
    their exact float values, and exits 0.
  - -j/--paired-jobs is checked as in sacreBLEU (negative: exit 1) but the comparisons run
    in this process (they take a fraction of a second; the output is the same).
  - Where sacreBLEU stops with a Python traceback (a file that cannot be opened or decoded,
    an unknown -e encoding, -l without a '-', a negative -w, a tokenizer that is not
    installed, ...), one line names the cause; the exit status is the same (1). A file that
    cannot be decoded is refused whole (1), before its lines' tab-separated fields are
    counted (sacreBLEU may first exit 17 on a line read before its failing 8 KiB block).
    An option for which sacreBLEU prints a score that means nothing (a negative --chrf-beta)
    is refused the same way (exit 1, where sacreBLEU exits 0).
  - The text table's column widths count code points, as sacreBLEU's tabulate does when the
    optional wcwidth package is not installed (with it, East Asian wide characters in system
    names are padded differently). A file name that is not UTF-8 is printed with its own
    bytes (sacreBLEU stops with UnicodeEncodeError in the text table), and one holding a
    terminal title sequence (ESC ] 0 ; ... BEL) is printed without it (sacreBLEU's colorama
    stops with AttributeError when colours are on and standard output is not a terminal).
  - -V/--version prints "sacrebleu {SACREBLEU_VERSION}", the version whose output this reproduces
    ('mtcompute --version' prints mtcompute's). Messages on standard error are sacreBLEU's
    in substance ("sacreBLEU: " first unless -q), not byte for byte.

SACREBLEU_FORMAT (json, text or latex) overrides -f, NO_COLOR or -nc turns colours off, and
SACREBLEU_SEED (default 12345; None: unseeded) seeds -pbs, -par and -ci, as in sacreBLEU.

exit status: 0 scored; 1 sacreBLEU's errors (no references, files of different lengths, an
empty system, two systems with one name, a file that cannot be read, a paired test with one
system, -ci with several, either at sentence level, a bad SACREBLEU_SEED); 17 a line with the
wrong number of tab-separated fields (-nr, or systems on standard input); 2 usage error
(sacreBLEU's argparse errors, and the refused flags above)."""

_TEXTS = (
    "sacreBLEU 2.6.0's command line for files: same options, same output, same exit status",
    _DESCRIPTION,
    _EPILOG,
)


def add_parser(subparsers: Subparsers) -> None:
    """Register ``sacrebleu``: sacreBLEU 2.6.0's options, with its names, destinations,
    ``nargs``, types, choices and defaults (so that argparse parses a command line as
    sacreBLEU's does), and their help adapted."""
    p = add_command(subparsers, "sacrebleu", run, _TEXTS)
    no_test_sets = "Not available: mtcompute does not fetch test sets (exit 2)."
    p.add_argument("--citation", "--cite", default=False, action="store_true", help=no_test_sets)
    p.add_argument("--list", default=False, action="store_true", help=no_test_sets)
    p.add_argument("--test-set", "-t", type=str, default=None, help=no_test_sets)
    p.add_argument(
        "--language-pair",
        "-l",
        dest="langpair",
        default=None,
        help="Source-target language pair (2-char ISO639-1 codes); without -tok, the target "
        "language chooses BLEU's tokenizer (zh: zh, ja: ja-mecab, ko: ko-mecab, else 13a).",
    )
    p.add_argument("--origlang", "-ol", dest="origlang", default=None, help=no_test_sets)
    p.add_argument("--subset", dest="subset", default=None, help=no_test_sets)
    p.add_argument("--download", type=str, default=None, help=no_test_sets)
    p.add_argument("--echo", nargs="+", type=str, default=None, help=no_test_sets)

    p.add_argument(
        "--input",
        "-i",
        type=str,
        nargs="*",
        default=None,
        help="Read input from file(s) instead of STDIN.",
    )
    p.add_argument(
        "refs",
        nargs="*",
        default=[],
        help="The reference file(s). They must come before the -i/--input argument.",
    )
    p.add_argument(
        "--num-refs",
        "-nr",
        type=int,
        default=1,
        help="Split the reference stream on tabs, and expect this many references. "
        "(Default: %(default)s)",
    )
    p.add_argument(
        "--encoding",
        "-e",
        type=str,
        default="utf-8",
        help="Open text files with specified encoding (Default: %(default)s)",
    )
    p.add_argument(
        "--metrics",
        "-m",
        choices=["bleu", "chrf", "ter"],
        nargs="+",
        default=["bleu"],
        help="Space-delimited list of metrics to compute (Default: bleu)",
    )
    p.add_argument(
        "--sentence-level", "-sl", action="store_true", help="Compute metric for each sentence."
    )

    bleu = p.add_argument_group("BLEU related arguments")
    bleu.add_argument(
        "--smooth-method",
        "-s",
        choices=SMOOTH_DEFAULTS.keys(),
        default="exp",
        dest="bleu_smooth_method",
        help="Smoothing method: exponential decay, floor (increment zero counts), add-k "
        "(increment num/denom by k for n>1), or none. (Default: %(default)s)",
    )
    bleu.add_argument(
        "--smooth-value",
        "-sv",
        type=float,
        default=None,
        dest="bleu_smooth_value",
        help="The smoothing value. Only valid for floor and add-k. (Defaults: floor: "
        f"{SMOOTH_DEFAULTS['floor']}, add-k: {SMOOTH_DEFAULTS['add-k']})",
    )
    bleu.add_argument(
        "--tokenize",
        "-tok",
        choices=NAMES,
        default=None,
        dest="bleu_tokenize",
        help="Tokenization method to use for BLEU. If not provided, defaults to `zh` for "
        "Chinese, `ja-mecab` for Japanese, `ko-mecab` for Korean and `13a` (mteval) otherwise. "
        f"({', '.join(DOWNLOADING)}: not available, they need a downloaded model; exit 2)",
    )
    bleu.add_argument(
        "--lowercase",
        "-lc",
        dest="bleu_lowercase",
        action="store_true",
        default=False,
        help="If True, enables case-insensitivity. (Default: %(default)s)",
    )
    bleu.add_argument(
        "--force",
        default=False,
        action="store_true",
        dest="bleu_force",
        help="Insist that your tokenized input is actually detokenized.",
    )

    chrf = p.add_argument_group("chrF related arguments")
    chrf.add_argument(
        "--chrf-char-order",
        "-cc",
        type=int,
        default=CHAR_ORDER,
        help="Character n-gram order. (Default: %(default)s)",
    )
    chrf.add_argument(
        "--chrf-word-order",
        "-cw",
        type=int,
        default=WORD_ORDER,
        help="Word n-gram order (Default: %(default)s). If equals to 2, the metric is referred "
        "to as chrF++.",
    )
    chrf.add_argument(
        "--chrf-beta",
        type=int,
        default=BETA,
        help="Determine the importance of recall w.r.t precision. (Default: %(default)s)",
    )
    chrf.add_argument(
        "--chrf-whitespace",
        action="store_true",
        default=False,
        help="Include whitespaces when extracting character n-grams. (Default: %(default)s)",
    )
    chrf.add_argument(
        "--chrf-lowercase",
        action="store_true",
        default=False,
        help="Enable case-insensitivity. (Default: %(default)s)",
    )
    chrf.add_argument(
        "--chrf-eps-smoothing",
        action="store_true",
        default=False,
        help="Enables epsilon smoothing similar to chrF++.py, NLTK and Moses; instead of "
        "effective order smoothing. (Default: %(default)s)",
    )

    ter = p.add_argument_group("TER related arguments (The defaults replicate TERCOM's behavior)")
    ter.add_argument(
        "--ter-case-sensitive",
        action="store_true",
        help="Enables case sensitivity. (Default: %(default)s)",
    )
    ter.add_argument(
        "--ter-asian-support",
        action="store_true",
        help="Enables special treatment of Asian characters. (Default: %(default)s)",
    )
    ter.add_argument(
        "--ter-no-punct", action="store_true", help="Removes punctuation. (Default: %(default)s)"
    )
    ter.add_argument(
        "--ter-normalized",
        action="store_true",
        help="Applies basic normalization and tokenization. (Default: %(default)s)",
    )

    ci = p.add_argument_group("Confidence interval (CI) estimation for single-system evaluation")
    ci.add_argument(
        "--confidence",
        "-ci",
        action="store_true",
        help="Report confidence interval using bootstrap resampling.",
    )
    ci.add_argument(
        "--confidence-n",
        "-cin",
        type=int,
        default=1000,
        help="Set the number of bootstrap resamples for CI estimation (Default: %(default)s).",
    )
    paired = p.add_argument_group("Paired significance testing for multi-system evaluation")
    choice = paired.add_mutually_exclusive_group()
    choice.add_argument(
        "--paired-ar",
        "-par",
        action="store_true",
        help="Perform paired test using approximate randomization (AR). This option is "
        "mutually exclusive with --paired-bs (Default: %(default)s).",
    )
    choice.add_argument(
        "--paired-bs",
        "-pbs",
        action="store_true",
        help="Perform paired test using bootstrap resampling. This option is mutually "
        "exclusive with --paired-ar (Default: %(default)s).",
    )
    paired.add_argument(
        "--paired-ar-n",
        "-parn",
        type=int,
        default=10000,
        help="Number of trials for approximate randomization test (Default: %(default)s).",
    )
    paired.add_argument(
        "--paired-bs-n",
        "-pbsn",
        type=int,
        default=1000,
        help="Number of bootstrap resamples for paired bootstrap resampling test "
        "(Default: %(default)s).",
    )
    paired.add_argument(
        "--paired-jobs",
        "-j",
        type=int,
        default=1,
        help="sacreBLEU's number of worker processes (0: one per system). Accepted and "
        "checked as sacreBLEU does (a negative number: exit 1); the comparisons run in this "
        "process, with the same results.",
    )

    report = p.add_argument_group("Reporting related arguments")
    report.add_argument(
        "--quiet", "-q", default=False, action="store_true", help="Suppress verbose messages."
    )
    report.add_argument(
        "--short",
        "-sh",
        default=False,
        action="store_true",
        help="Produce a shorter (less human readable) signature.",
    )
    report.add_argument(
        "--score-only",
        "-b",
        default=False,
        action="store_true",
        help="Print only the computed score.",
    )
    report.add_argument(
        "--width", "-w", type=int, default=1, help="Floating point width (Default: %(default)s)."
    )
    report.add_argument(
        "--detail",
        "-d",
        default=False,
        action="store_true",
        help="Print detailed information (split test sets based on origlang; without a test "
        "set, a line saying there is no subset information).",
    )
    report.add_argument(
        "--no-color",
        "-nc",
        action="store_true",
        help="Disable the occasional use of terminal colors.",
    )
    report.add_argument(
        "--format",
        "-f",
        default="json",
        choices=FORMATS,
        help="Set the output format. `latex` is only valid for multi-system mode whereas "
        "`json` and `text` apply to single-system mode only. This flag is overridden if the "
        "SACREBLEU_FORMAT environment variable is set to one of the valid choices "
        "(Default: %(default)s).",
    )
    p.add_argument(
        "--version",
        "-V",
        action="version",
        version=f"sacrebleu {SACREBLEU_VERSION}",
        help="Print the sacreBLEU version whose output this command reproduces.",
    )


# -- output: standard output as sacreBLEU's print() and colorama leave it --------------------


def _colorama_strip(text: str) -> str:
    """What colorama's AnsiToWin32 writes for ``text`` when it strips (its OSC loop slices the
    shortened text with the spans of the original, as colorama 0.4.6 does). A title sequence
    is stripped like the others, where colorama off Windows raises AttributeError."""
    from mtcompute.cli._sacrebleu_table import COLORAMA_CSI, COLORAMA_OSC  # noqa: PLC0415

    for match in COLORAMA_OSC.finditer(text):
        start, end = match.span()
        text = text[:start] + text[end:]
    return COLORAMA_CSI.sub("", text)


@dataclass
class Session:
    """Where the run writes: ``colors`` is sacreBLEU's Color.ENABLE_COLORS; ``strip`` whether
    colorama strips ANSI codes from standard output (colours on and not a terminal);
    ``quiet`` whether INFO messages are dropped and the others printed bare."""

    colors: bool
    strip: bool
    quiet: bool

    def print(self, text: str = "") -> None:
        """sacreBLEU's ``print(text)``. A name from the command line that is not UTF-8 is
        written with its own bytes (surrogateescape), where sacreBLEU raises."""
        if self.strip:
            text = _colorama_strip(text)
        sys.stdout.buffer.write((text + "\n").encode("utf-8", "surrogateescape"))
        sys.stdout.flush()

    def log(self, message: str, info: bool = False) -> None:
        """sacreBLEU's logger: ``sacreBLEU: MESSAGE`` on stderr; with -q no INFO, and the
        warnings and errors bare (Python's last-resort handler)."""
        if self.quiet:
            if not info:
                sys.stderr.write(message + "\n")
        else:
            sys.stderr.write(f"sacreBLEU: {message}\n")
        sys.stderr.flush()

    def color(self, text: str, code: str) -> str:
        """sacreBLEU's Color.format."""
        return f"{code}{text}{RESET}" if self.colors else text


class Stop(Exception):
    """End the run with ``status`` (sacreBLEU's sys.exit), the messages already logged."""

    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


def _fail(session: Session, *messages: str, status: int = EXIT_FAILURE) -> Stop:
    for message in messages:
        session.log(message)
    return Stop(status)


# -- input: sacreBLEU's smart_open and its reading of standard input -------------------------


def _decode(session: Session, data: bytes, encoding: str, name: str) -> str:
    try:
        return data.decode(encoding)
    except LookupError as error:
        what = "an encoding Python knows" if "unknown encoding" in str(error) else "a text encoding"
        raise _fail(session, f"{name}: -e {encoding!r} is not {what}") from None
    except UnicodeDecodeError as error:
        line = data[: error.start].decode(encoding, "replace").count("\n") + 1
        raise _fail(
            session,
            f"{name}: line {line}: not valid {encoding} (byte offset {error.start}: "
            f"{error.reason})",
        ) from None


def read_lines(session: Session, name: str, encoding: str) -> list[str]:
    """The lines of file ``name`` as sacreBLEU's ``smart_open`` yields them, without their
    ``\\n`` (only ``\\n`` ends a line; gzip when the name ends in ``.gz``)."""
    import gzip  # noqa: PLC0415
    import zlib  # noqa: PLC0415

    try:  # opened, then read in the with below: each failure gets its own message
        handle = gzip.open(name, "rb") if name.endswith(".gz") else open(name, "rb")  # noqa: SIM115
    except OSError as error:
        raise _fail(session, f"{name}: cannot open: {error.strerror or error}") from None
    try:
        with handle:
            data = handle.read()
    except (OSError, EOFError, zlib.error) as error:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else error
        raise _fail(session, f"{name}: cannot read: {reason}") from None
    lines = _decode(session, data, encoding, name).split("\n")
    if lines[-1] == "":
        lines.pop()
    return lines


def read_stdin_lines(session: Session, encoding: str) -> list[str]:
    """The lines of standard input as sacreBLEU reads them (a TextIOWrapper with universal
    newlines: ``\\r\\n`` and ``\\r`` end a line too)."""
    text = _decode(session, read_input(STDIN), encoding, "standard input")
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if lines[-1] == "":
        lines.pop()
    return lines


def reference_names(args: argparse.Namespace, count: int) -> list[str]:
    """What the messages call each of the ``count`` reference streams: its file, or its
    field of the -nr file."""
    if args.num_refs == 1:
        return list(args.refs)
    return [f"{args.refs[0]} (field {i + 1} of -nr {args.num_refs})" for i in range(count)]


def read_references(session: Session, args: argparse.Namespace) -> list[list[str]]:
    """sacreBLEU's reference streams: one per file, or ``-nr`` tab-separated fields of one."""
    num_refs: int = args.num_refs
    full_refs: list[list[str]] = [[] for _ in range(max(len(args.refs), num_refs))]
    for refno, ref_file in enumerate(args.refs):
        for lineno, raw in enumerate(read_lines(session, ref_file, args.encoding), 1):
            line = raw.rstrip()
            if num_refs == 1:
                full_refs[refno].append(line)
                continue
            fields = line.split(sep="\t", maxsplit=num_refs - 1)
            if len(fields) != num_refs:
                raise _fail(
                    session,
                    f"FATAL: line {lineno}: expected {num_refs} fields, but found {len(fields)}.",
                    status=EXIT_FIELDS,
                )
            for index, field in enumerate(fields):
                full_refs[index].append(field)
    return full_refs


def _paired(args: argparse.Namespace) -> bool:
    return bool(args.paired_bs or args.paired_ar)


def read_systems(session: Session, args: argparse.Namespace) -> tuple[list[list[str]], list[str]]:
    """sacreBLEU's systems and their names: the -i files, or standard input's tab-separated
    fields (the first line's fields kept as split, the later ones each rstripped). In paired
    mode a file given again as the baseline is skipped."""
    if args.input is None:
        lines = read_stdin_lines(session, args.encoding)
        fields = (lines[0] if lines else "").rstrip().split("\t")
        systems = [[field] for field in fields]
        for line in lines[1:]:
            fields = line.rstrip().split("\t")
            if len(fields) != len(systems):
                raise _fail(
                    session,
                    "FATAL: the number of tab-delimited fields in the input stream differ "
                    "across lines.",
                    status=EXIT_FIELDS,
                )
            for system, sentence in zip(systems, fields, strict=True):
                system.append(sentence.rstrip())
        return systems, [f"System {i + 1}" for i in range(len(systems))]
    # The names are the file names as given, as sacreBLEU's (its table and JSON print them).
    systems, names = [], list[str]()
    for name in args.input:
        if name in names:
            if _paired(args) and name == names[0]:
                session.log(f"Ignoring {name!r} as it was also given as the baseline.", info=True)
                continue
            raise _fail(
                session,
                f"{name!r} already used to name a system.",
                "Make sure to have a different basename for each system.",
            )
        systems.append([line.rstrip() for line in read_lines(session, name, args.encoding)])
        names.append(name)
    return systems, names


# -- the run ---------------------------------------------------------------------------------


def _refusal(args: argparse.Namespace) -> str | None:
    """The one-line reason this command does not run ``args`` (None when it does)."""
    for dest, flag in TEST_SET_FLAGS:
        value = getattr(args, dest)
        acted_on = bool(value) if dest in ACTED_ON_WHEN_TRUE else value is not None
        if acted_on:
            return (
                f"{flag}: mtcompute does not fetch sacreBLEU's test sets; give the reference "
                "files and the system outputs: mtcompute sacrebleu REF... -i SYS..."
            )
    if "bleu" in args.metrics and args.bleu_tokenize in DOWNLOADING:
        return (
            f"-tok {args.bleu_tokenize}: this tokenizer needs a SentencePiece model that "
            "sacreBLEU downloads; mtcompute never downloads models"
        )
    return None


def _metric_arguments(args: argparse.Namespace, name: str) -> dict[str, Any]:
    """sacreBLEU's ``args_to_dict(args, name, strip_prefix=True)`` for ``bleu``, ``chrf`` or
    ``ter``."""
    if name == "bleu":
        bleu: dict[str, Any] = {
            "smooth_method": args.bleu_smooth_method,
            "smooth_value": args.bleu_smooth_value,
            "tokenize": args.bleu_tokenize,
            "lowercase": args.bleu_lowercase,
            "force": args.bleu_force,
        }
        if args.langpair:
            bleu["trg_lang"] = args.bleu_trg_lang
        if args.sentence_level:
            bleu["effective_order"] = True
        return bleu
    if name == "ter":
        return {
            "case_sensitive": args.ter_case_sensitive,
            "asian_support": args.ter_asian_support,
            "no_punct": args.ter_no_punct,
            "normalized": args.ter_normalized,
        }
    return {
        "char_order": args.chrf_char_order,
        "word_order": args.chrf_word_order,
        "beta": args.chrf_beta,
        "whitespace": args.chrf_whitespace,
        "lowercase": args.chrf_lowercase,
        "eps_smoothing": args.chrf_eps_smoothing,
    }


def run(args: argparse.Namespace) -> int:
    """Run sacreBLEU's ``main()`` on ``args``; return its exit status."""
    env_format = os.environ.get("SACREBLEU_FORMAT")
    if env_format is not None and env_format.lower() in FORMATS:
        args.format = env_format.lower()
    refusal = _refusal(args)
    if refusal is not None:
        sys.stderr.write(f"mtcompute sacrebleu: error: {refusal}\n")
        return EXIT_USAGE
    colors = not (os.environ.get("NO_COLOR") or args.no_color)
    tty = colors and sys.stdout.isatty()
    session = Session(colors=colors, strip=colors and not tty, quiet=args.quiet)
    try:
        return _main(session, args)
    except Stop as stop:
        return stop.status
    except FACADE_ERRORS as error:
        message = error.message if isinstance(error, MtcomputeError) else str(error)
        sys.stderr.write(f"mtcompute sacrebleu: error: {message}\n")
        return EXIT_FAILURE
    finally:
        if tty:  # colorama's exit handler resets the terminal's colours
            sys.stdout.write(RESET)
            sys.stdout.flush()


def _main(session: Session, args: argparse.Namespace) -> int:
    """sacreBLEU 2.6.0's ``main()`` after its test-set branches, step by step."""
    if args.sentence_level and len(args.metrics) > 1:
        raise _fail(session, "Only one metric can be used in sentence-level mode.")
    if args.num_refs != 1 and len(args.refs) > 1:
        raise _fail(
            session,
            "The --num-refs argument allows you to provide any number of tab-delimited "
            "references in a single file.",
            "You can only use it with externally provided references, however (i.e., not "
            "with `-t`),",
            "and you cannot then provide multiple reference files.",
        )
    if not args.refs:
        raise _fail(
            session,
            "If manual references given, make sure to provide them before the -i/--input "
            "argument to avoid confusion.",
            "Otherwise, I need a predefined test set (-t), which mtcompute does not fetch: "
            "give the reference files.",
        )
    if args.langpair:
        parts = args.langpair.split("-")
        if len(parts) < 2:
            raise _fail(
                session,
                f"-l/--language-pair: expected a pair such as en-de, got {args.langpair!r}",
            )
        args.bleu_trg_lang = parts[1]

    if _streamable(args):
        streamed = _streamed(args)
        if streamed is not None:
            return _print_streamed(session, args, streamed)
    refs = read_references(session, args)
    systems, names = read_systems(session, args)
    where = names if args.input is not None else [f"{n} of standard input" for n in names]
    paired = _paired(args)
    if paired:  # sacreBLEU names the baseline
        if args.input is None:
            names = ["Baseline"] + [f"System {i + 1}" for i in range(len(systems) - 1)]
        elif not names:  # sacreBLEU: IndexError on sys_names[0]
            raise _fail(session, "-i was given no file: there is no baseline to compare with")
        else:
            names = [f"Baseline: {names[0]}", *names[1:]]

    if args.sentence_level:
        if len(systems) > 1:
            raise _fail(session, "Only one system can be evaluated in sentence-level mode.")
        if args.confidence or paired:
            raise _fail(session, "Statistical tests are unavailable in sentence-level mode.")
    if paired and len(systems) == 1:
        raise _fail(session, "Paired tests require multiple input systems given to --input (-i).")
    if len(systems) > 1 and args.confidence:
        raise _fail(session, "Use paired tests (--paired) for multiple systems.")
    ref_names = reference_names(args, len(refs))
    for system, name in zip(systems, where, strict=True):
        if not system:
            raise _fail(session, "Test set None contains no sentence", f"{name} is empty")
        for stream, ref_name in zip(refs, ref_names, strict=True):
            if len(stream) != len(system):
                raise _fail(
                    session,
                    "System and reference streams have different lengths.",
                    f"{name} has {len(system)} lines, {ref_name} has {len(stream)}",
                )

    metrics: dict[str, Any] = {}
    for name in args.metrics:
        cls = _metric_class(name)
        metrics[name.upper()] = cls(**_metric_arguments(args, name), references=refs)
    if args.detail and args.format == "json" and not args.sentence_level:
        args.format = "text"  # sacreBLEU's (-d prints text after the scores)
    # sacreBLEU: ValueError in its format string, before any output (its paired tests' JSON
    # formats no number)
    if args.width < 0 and not (paired and len(systems) > 1 and args.format == "json"):
        raise _fail(session, f"-w/--width: expected 0 or more, got {args.width}")

    if args.sentence_level:
        if not systems:
            raise _fail(session, "-sl: no system to score (-i was given no file)")
        metric, system = next(iter(metrics.values())), systems[0]
        for hypothesis, *references in zip(system, *refs, strict=False):
            score = metric.sentence_score(hypothesis, references)
            signature = metric.get_signature().format(args.short)
            session.print(score.format(args.width, args.score_only, signature))
        return EXIT_OK

    if len(systems) == 1:
        _print_single(session, args, metrics, systems[0])
        return EXIT_OK
    session.log(f"Found {len(systems)} systems.", info=True)
    if paired:
        signatures, columns = _paired_test(args, metrics, systems, names)
    else:
        signatures, columns = _scores(args, metrics, systems, names)
    _print_results(session, args, columns, signatures)
    return EXIT_OK


# -- the files in chunks ---------------------------------------------------------------------
# Corpus scores of -i files (every system, every metric) read, counted and dropped a chunk of
# lines at a time: the statistics summed (CorpusInChunks), never the texts kept. Only where
# the lines are exactly sacreBLEU's without the whole file (UTF-8, regular files, no test, no
# sentence level, no -l warnings to keep in order); anything unusual on the way (a file that
# cannot be read or decoded, a line of -nr with the wrong fields, files of other lengths, an
# empty system, two systems with one name, a metric option refused) drops what was counted
# and runs the whole-file path, which reads the files again and reports as sacreBLEU does.


@dataclass
class Streamed:
    """What the chunks gave: the metrics (sacreBLEU's objects, their ``num_refs`` set), each
    system's name and, per system, each metric's sums."""

    metrics: dict[str, Any]
    names: list[str]
    sums: list[dict[str, CorpusInChunks[Any]]]


def _streamable(args: argparse.Namespace) -> bool:
    """Whether the chunked path gives sacreBLEU's output for these arguments."""
    if args.input is None or not args.input or not args.refs:
        return False
    if args.sentence_level or args.confidence or _paired(args) or args.langpair:
        return False
    if len(set(args.input)) != len(args.input):
        return False
    try:
        if codecs.lookup(args.encoding).name != "utf-8":
            return False
        return all(stat.S_ISREG(os.stat(name).st_mode) for name in [*args.refs, *args.input])
    except (LookupError, OSError):
        return False


def _opened(name: str) -> Any:
    """The file's bytes as sacreBLEU's smart_open reads them (gzip for ``*.gz``)."""
    import gzip  # noqa: PLC0415

    return gzip.open(name, "rb") if name.endswith(".gz") else open(name, "rb")


def _chunks(names: Sequence[str], size: int) -> Iterator[list[list[str]]]:
    """Each file's next ``size`` lines, right-stripped (as sacreBLEU reads them), the files
    in lockstep; ValueError (or an OSError, EOFError, zlib.error from reading) at the first
    difference or fault. Run by the reader thread of :func:`read_ahead`: the decoding (the
    kernel's, without the GIL) and the stripping overlap the counting of the chunk before."""
    files = [_opened(name) for name in names]
    try:
        while True:
            chunk = [list(islice(handle, size)) for handle in files]
            if len({len(lines) for lines in chunk}) > 1:
                raise ValueError("the files differ in length")
            if not chunk[0]:
                return
            yield [[line.rstrip() for line in _lines(b"".join(lines))] for lines in chunk]
    finally:
        for handle in files:
            handle.close()


def _lines(data: bytes) -> list[str]:
    """Whole lines of a file as :func:`read_lines` splits them (strict UTF-8, else a
    ValueError: the whole-file path then reports it), by :func:`decode_lines`."""
    lines = decode_lines(data)
    if lines is None:
        raise ValueError("not UTF-8")
    return lines


def _streamed(args: argparse.Namespace) -> Streamed | None:
    """The sums of every system and metric, the files read in chunks; None for anything
    unusual (the whole-file path then runs instead and reports it)."""
    import zlib  # noqa: PLC0415

    from mtcompute.sacrebleu.metrics.base import CorpusInChunks  # noqa: PLC0415

    try:
        metrics = {
            name.upper(): _metric_class(name)(**_metric_arguments(args, name))
            for name in args.metrics
        }
        num_refs: int = args.num_refs
        streams = max(len(args.refs), num_refs)
        for metric in metrics.values():
            metric.num_refs = streams  # what references= would have set (no None here)
        sums = [
            {key: CorpusInChunks(metric) for key, metric in metrics.items()} for _ in args.input
        ]
        count = 0
        for chunk in read_ahead(_chunks([*args.refs, *args.input], chunk_size())):
            refs = chunk[: len(args.refs)]
            if num_refs == 1:  # the lines come right-stripped (_chunks)
                segments = [list(lines) for lines in zip(*refs, strict=True)]
            else:
                segments = []
                for line in refs[0]:
                    fields = line.rstrip().split(sep="\t", maxsplit=num_refs - 1)
                    if len(fields) != num_refs:
                        return None
                    segments.append(fields)
            for system, lines in zip(sums, chunk[len(args.refs) :], strict=True):
                for total in system.values():
                    total.add(lines, segments)
            count += len(segments)
    except (*FACADE_ERRORS, OSError, EOFError, zlib.error):
        return None
    if not count:
        return None
    return Streamed(metrics, list(args.input), sums)


def _print_streamed(session: Session, args: argparse.Namespace, streamed: Streamed) -> int:
    """The output of the whole-file path from the chunks' sums (single or several systems)."""
    metrics = streamed.metrics
    if args.detail and args.format == "json":
        args.format = "text"  # sacreBLEU's (-d prints text after the scores)
    if args.width < 0:
        raise _fail(session, f"-w/--width: expected 0 or more, got {args.width}")
    if len(streamed.names) == 1:
        sums = streamed.sums[0]
        _print_single_scores(session, args, metrics, lambda name: sums[name].score())
        return EXIT_OK
    session.log(f"Found {len(streamed.names)} systems.", info=True)
    signatures, columns = _score_columns(
        args, metrics, streamed.names, lambda s, name: streamed.sums[s][name].score()
    )
    _print_results(session, args, columns, signatures)
    return EXIT_OK


def _print_single(
    session: Session, args: argparse.Namespace, metrics: dict[str, Any], system: list[str]
) -> None:
    """sacreBLEU's single-system mode and ``print_single_results``."""
    n_bootstrap = args.confidence_n if args.confidence else 1

    def score(name: str) -> Any:
        return metrics[name].corpus_score(system, None, n_bootstrap=n_bootstrap)

    _print_single_scores(session, args, metrics, score)


def _print_single_scores(
    session: Session,
    args: argparse.Namespace,
    metrics: dict[str, Any],
    score_of: Callable[[str], Any],
) -> None:
    """``print_single_results`` of the scores ``score_of(name)`` gives, in the metrics'
    sorted order."""
    is_json = args.format == "json"
    results = []
    for name in sorted(metrics):
        score = score_of(name)
        signature = metrics[name].get_signature().format(args.short and not is_json)
        results.append(score.format(args.width, args.score_only, signature, is_json))
    if is_json:
        session.print("[\n" + ",\n".join(results) + "\n]" if len(results) > 1 else results[0])
        return  # (-d turned JSON into text)
    if "μ" in results[0]:  # the confidence strings in cyan
        results = [
            CONFIDENCE.sub(lambda m: session.color(m.group(), CYAN), line) for line in results
        ]
    if len(results) == 1:
        session.print(results[0])
    else:
        lens = []
        for line in results:
            position = line.find("=")
            if position < 0:
                session.print(line)
            else:
                lens.append(position - 1)
        if lens:
            w = max(lens)
            for length, line in zip(lens, results, strict=False):
                session.print(f"{line[:length]:>{w}}{line[length:]}")
    if args.detail:
        session.print("No subset information found. Consider using --origlang argument.")


def _scores(
    args: argparse.Namespace,
    metrics: dict[str, Any],
    systems: Sequence[list[str]],
    names: list[str],
) -> tuple[dict[str, str], dict[str, list[Any]]]:
    """sacreBLEU's multi-system scores without paired tests: the signatures and the columns
    (``System``, then each score's name), the scores formatted."""
    return _score_columns(
        args, metrics, names, lambda s, name: metrics[name].corpus_score(systems[s], None)
    )


def _score_columns(
    args: argparse.Namespace,
    metrics: dict[str, Any],
    names: list[str],
    score_of: Callable[[int, str], Any],
) -> tuple[dict[str, str], dict[str, list[Any]]]:
    """The signatures and columns of the scores ``score_of(system, name)`` gives, system by
    system, each in the metrics' sorted order."""
    signatures: dict[str, str] = {}
    scores: dict[str, list[Any]] = {"System": names}
    for s in range(len(names)):
        for name in sorted(metrics):
            score = score_of(s, name)
            signatures[score.name] = metrics[name].get_signature().format(args.short)
            scores.setdefault(score.name, []).append(score.format(args.width, True))
    return signatures, scores


def _paired_test(
    args: argparse.Namespace,
    metrics: dict[str, Any],
    systems: Sequence[list[str]],
    names: list[str],
) -> tuple[dict[str, str], dict[str, list[Any]]]:
    """sacreBLEU's ``PairedTest`` of the systems against the first: the signatures and the
    columns of results."""
    # Imported here: numpy only for the tests, so that scoring starts as fast as before.
    from mtcompute.sacrebleu.significance import PairedTest  # noqa: PLC0415

    test = PairedTest(
        list(zip(names, systems, strict=True)),
        metrics,
        references=None,
        test_type="bs" if args.paired_bs else "ar",
        n_samples=args.paired_bs_n if args.paired_bs else args.paired_ar_n,
        n_jobs=args.paired_jobs,
    )
    signatures, scores = test()
    return {name: sig.format(args.short) for name, sig in signatures.items()}, scores


def _p_value(session: Session, p: float) -> str:
    text = f"(p = {p:.4f})"
    return session.color(text, RED) if p > SIGNIFICANCE else text + "*"


def _score_lines(
    session: Session, scores: dict[str, list[Any]], width: int, multiline: bool
) -> dict[str, list[str]]:
    """sacreBLEU's ``_format_score_lines``: each result as ``score (mean ± ci)`` and its
    p-value (below, in the text table), the titles of bootstrap columns marked."""
    out = {"System": list(scores["System"])}
    is_bootstrap = False  # once set, every later column is marked too (as sacreBLEU)
    for metric, values in list(scores.items())[1:]:
        cells = []
        for result in values:
            if isinstance(result, str):
                cells.append(result)
                continue
            text = f"{result.score:.{width}f}"
            if result.mean is not None:
                is_bootstrap = True
                text += f" ({result.mean:.{width}f} ± {result.ci:.{width}f})"
            if result.p_value is not None:
                text += ("\n" if multiline else " ") + _p_value(session, result.p_value)
            cells.append(text)
        out[metric + " (μ ± 95% CI)" if is_bootstrap else metric] = cells
    return out


def _print_results(
    session: Session,
    args: argparse.Namespace,
    scores: dict[str, list[Any]],
    signatures: dict[str, str],
) -> None:
    """sacreBLEU's ``print_results_table``: the JSON list, or the table, the paired test's
    explanation and the signatures."""
    import json  # noqa: PLC0415

    from mtcompute.cli._sacrebleu_table import tabulate_columns  # noqa: PLC0415

    if args.format == "json":
        keys = list(scores)
        rows = []
        for i, system in enumerate(scores["System"]):
            row: dict[str, Any] = {"system": system}
            for key in keys[1:]:
                value = scores[key][i]
                # A result's fields (sacreBLEU's __dict__: its float32 means and intervals,
                # which json refuses, are the same numbers as Python floats here)
                row[key] = value if isinstance(value, str) else dict(vars(value))
            rows.append(row)
        session.print(json.dumps(rows, indent=4))
        return

    if not scores["System"]:  # sacreBLEU: IndexError on the first system's name
        raise _fail(session, "-i was given no file: there is no system to tabulate")
    tablefmt = "fancy_grid" if args.format == "text" else "latex_booktabs"
    lines = _score_lines(session, scores, args.width, tablefmt == "fancy_grid")
    columns: dict[str, list[str]] = {}
    has_baseline = False
    baseline_name = ""
    for key, column in lines.items():
        values = list(column)
        if values[0].startswith("Baseline:") or has_baseline:
            if values[0].startswith("Baseline:"):
                baseline_name = values[0]
            has_baseline = True
            values[0] = session.color(values[0], YELLOW)
        columns[session.color(key, CYAN)] = values
    session.print(tabulate_columns(columns, tablefmt, args.width))
    session.print()
    if _paired(args):
        _print_explanation(session, args, baseline_name)
    session.print("-----------------")
    session.print("Metric signatures")
    session.print("-----------------")
    for name, signature in signatures.items():
        session.print(f" - {name:<10} {signature}")


def _print_explanation(session: Session, args: argparse.Namespace, baseline_name: str) -> None:
    """The paragraphs sacreBLEU prints after a paired test's table (its sample count is the
    option's value, which sacreBLEU prints even where it used its default instead)."""
    if args.paired_bs:
        test, count, unit = "bootstrap resampling", args.paired_bs_n, "resampling trials"
    else:
        test, count, unit = "approximate randomization", args.paired_ar_n, "trials"
    msg = f"Paired {test} test with {count} {unit}"
    bline = session.color("baseline", YELLOW)
    bline_name = session.color(baseline_name, YELLOW)
    null_hyp = session.color("Null hypothesis", GREEN)
    pval_color = session.color("highlighted in red", RED)
    rule = "-" * len(msg)
    session.print(f"{rule}\n{msg}\n{rule}")
    session.print(f" - Each system is pairwise compared to {bline_name}.")
    if args.paired_bs:
        session.print(
            "   Actual system score / bootstrap estimated true mean / 95% CI are provided for "
            "each metric."
        )
    else:
        session.print("   Actual system score is provided for each metric.")
    session.print()
    session.print(f" - {null_hyp}: the system and the {bline} translations are essentially")
    session.print(
        f"   generated by the same underlying process. For a given system and the {bline},"
    )
    session.print(
        "   the p-value is roughly the probability of the absolute score difference (delta)"
    )
    session.print(
        "   or higher occurring due to chance, under the assumption that the "
        f"{null_hyp.lower()} is correct."
    )
    session.print()
    session.print(
        f" - Assuming a significance threshold of 0.05, the {null_hyp.lower()} can be rejected"
    )
    session.print(
        '   for p-values < 0.05 (marked with "*"). This means that the delta is unlikely to be '
        "attributed"
    )
    session.print(f'   to chance, hence the system is significantly "different" than the {bline}.')
    session.print(f"   Otherwise, the p-values are {pval_color}.")
    session.print()
    session.print(
        ' - NOTE: Significance does not tell whether a system is "better" than the '
        f"{bline} but rather"
    )
    session.print(
        '   emphasizes the "difference" of the systems in terms of the replicability of the delta.'
    )
    session.print()
