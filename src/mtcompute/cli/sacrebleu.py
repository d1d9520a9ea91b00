"""``mtcompute sacrebleu``: sacreBLEU 2.6.0's command line for files and standard input.

The same options (names, defaults, choices, argparse's parsing of them), the same reading of
the files (sacreBLEU's ``smart_open``: the encoding of ``-e``, gzip for ``*.gz``, only ``\\n``
ends a line, each line ``rstrip()``-ed; standard input with universal newlines and one system
per tab-separated field), the same checks in the same order with the same exit statuses, and
the same bytes on standard output: the single-system lines aligned on ``=``, JSON, the
multi-system table (sacreBLEU's own call of ``tabulate``), the sentence-level lines, colours
as sacreBLEU's colorama leaves them. The scores come from :mod:`mtcompute.sacrebleu` (its
``BLEU``, ``CHRF`` and ``TER`` classes, built once with the references as sacreBLEU builds
them, so that their cache serves every system, and their score objects' ``format()``); this
module declares the options and their help; :mod:`mtcompute.cli._sacrebleu_run` (imported by
:func:`run`) reads and checks, :mod:`mtcompute.cli._sacrebleu_output` prints. They compute
nothing themselves.

The paired significance tests (``-pbs``/``-par`` with ``-pbsn``/``-parn``) and the
single-system confidence intervals (``-ci``, ``-cin``) are sacreBLEU's too: its
``PairedTest`` and ``corpus_score(n_bootstrap=N)`` from :mod:`mtcompute.sacrebleu` (the draws
and float32 arithmetic of :mod:`mtcompute.significance`), its checks (a paired test needs more
than one system, the first is the baseline and is not read twice, -ci takes one system,
neither runs at sentence level), its table with the p-values (``print_results_table``), its
JSON, and ``SACREBLEU_SEED`` read as it reads it.

Test sets are sacreBLEU's (``-t``, ``-l``, ``--echo``, ``--list``, ``--origlang``,
``--subset``, ``--download``, ``--citation``): its registry, its cache (``$SACREBLEU``, else
``~/.sacrebleu``) and its text files, from :mod:`mtcompute.testsets` (imported by the run),
with downloads checked against their MD5 sums before use.

Not reproduced (each said in ``--help``): the tokenizers that need a downloaded model are
refused with one line and exit status 2;
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

from mtcompute.cli._common import SACREBLEU_FORMATS, Subparsers, add_command, add_switches
from mtcompute.tokenizer_names import NAMES

# This module is the parser, which every mtcompute command builds: the reading, the scoring
# (mtcompute.sacrebleu) and the printing are imported by run()
# (mtcompute.cli._sacrebleu_run and the modules it imports). --help needs none of them.

SACREBLEU_VERSION = "2.6.0"
SMOOTH_DEFAULTS: dict[str, float | None] = {"none": None, "floor": 0.1, "add-k": 1, "exp": None}
CHAR_ORDER, WORD_ORDER, BETA = 6, 0, 2  # sacreBLEU's CHRF defaults


_DESCRIPTION = """\
sacreBLEU 2.6.0's command line on your own files: the same options, the same output on
standard output, byte for byte, and the same exit status, from mtcompute's BLEU, chrF and
TER, with sacreBLEU's paired significance tests and confidence intervals.

  mtcompute sacrebleu REF [REF ...] -i SYS [SYS ...] [options]
  mtcompute sacrebleu -t TESTSET -l SRC-TRG -i SYS [SYS ...] [options]
  cat SYS | mtcompute sacrebleu REF [options]

References come first, then -i and the system outputs (one segment per line; several
systems give sacreBLEU's multi-system table or JSON list), or a test set of sacreBLEU's (-t,
with -l) gives the references: downloaded once into sacreBLEU's cache ($SACREBLEU, else
~/.sacrebleu; a cache sacreBLEU made is used as it is), each download checked against its
MD5 sum before use. Without -i the systems are read from standard input, one system per
tab-separated field. -nr N reads N tab-separated references from one reference file."""

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
  mtcompute sacrebleu -t wmt22 -l en-de -i sys.de -m bleu chrf
  mtcompute sacrebleu -t wmt22 -l en-de --echo src > src.en
  mtcompute sacrebleu -t wmt20 --list

where mtcompute differs from sacreBLEU 2.6.0:
  - --origlang, --subset and -d on a WMT22/WMT23 pair whose registry entry names its
    references (cs-en, en-cs, liv-en, ...): sacreBLEU stops with KeyError; here they work.
    --citation (a TypeError in sacreBLEU) prints the test set's BibTeX entry. -d --origlang X
    scores the language X (sacreBLEU iterates the letters of X). A download whose MD5 sum is
    wrong is deleted, not left for you to delete; a cut download is resumed.
  - spm, flores101, flores200 and spBLEU-1K (spBLEU, mtcompute's [spm] extra) load the
    model sacreBLEU caches ($SACREBLEU/models; downloaded there first, as sacreBLEU does,
    when it is missing), or --spm-model PATH. ja-mecab and ko-mecab need mtcompute's
    [ja] / [ko] extras.
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
  - A file name that is not UTF-8 is printed with its own bytes (sacreBLEU stops with
    UnicodeEncodeError in the text table), and one holding a terminal title sequence
    (ESC ] 0 ; ... BEL) is printed without it (sacreBLEU's colorama stops with
    AttributeError when colours are on and standard output is not a terminal).
  - -V/--version prints "sacrebleu {SACREBLEU_VERSION}", the version whose output this reproduces
    ('mtcompute --version' prints mtcompute's). Messages on standard error are sacreBLEU's
    ("sacreBLEU: " first unless -q): byte for byte for test sets and BLEU's warnings, in
    substance where an error names a file or line that sacreBLEU does not.

SACREBLEU_FORMAT (json, text or latex) overrides -f, NO_COLOR or -nc turns colours off, and
SACREBLEU_SEED (default 12345; None: unseeded) seeds -pbs, -par and -ci, as in sacreBLEU.

SACREBLEU is the test sets' cache (default ~/.sacrebleu), shared with sacreBLEU.

exit status: 0 scored; 1 sacreBLEU's errors (no references, an unknown test set or language
pair, a download that fails or whose MD5 sum is wrong, files of different lengths, an
empty system, two systems with one name, a file that cannot be read, a paired test with one
system, -ci with several, either at sentence level, a bad SACREBLEU_SEED); 17 a line with the
wrong number of tab-separated fields (-nr, or systems on standard input); 2 usage error
(sacreBLEU's argparse errors, and the refused tokenizers above)."""

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
    add_switches(
        p,
        [
            (("--citation", "--cite"), "Dump the bibtex citation and quit."),
            ("--list", "Print a list of all available test sets."),
        ],
    )
    p.add_argument(
        "--test-set",
        "-t",
        type=str,
        default=None,
        help="The test set to use (see also --list) or a comma-separated list of test sets to "
        "be concatenated.",
    )
    p.add_argument(
        "--language-pair",
        "-l",
        dest="langpair",
        default=None,
        help="Source-target language pair (2-char ISO639-1 codes); without -tok, the target "
        "language chooses BLEU's tokenizer (zh: zh, ja: ja-mecab, ko: ko-mecab, else 13a).",
    )
    p.add_argument(
        "--origlang",
        "-ol",
        dest="origlang",
        default=None,
        help="Use a subset of sentences with a given original language (2-char ISO639-1 "
        'codes), "non-" prefix means negation.',
    )
    p.add_argument(
        "--subset",
        dest="subset",
        default=None,
        help="Use a subset of sentences whose document annotation matches a given regex "
        "(a domain, or country:XX).",
    )
    p.add_argument("--download", type=str, default=None, help="Download a test set and quit.")
    p.add_argument(
        "--echo",
        nargs="+",
        type=str,
        default=None,
        help="Output the source (src), reference (ref), or other available field (docid, "
        "ref:A, ref:1 for example) to STDOUT and quit; several fields are printed "
        "tab-separated, `--echo all` prints every field (`-t SET --list` lists them).",
    )

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
        help="The reference file(s), unless -t gives them. They must come before the "
        "-i/--input argument.",
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
        "(spm, flores101, flores200, spBLEU-1K: sacreBLEU's cached model, downloaded when "
        "missing, or --spm-model)",
    )
    bleu.add_argument(
        "--spm-model",
        metavar="PATH",
        default=None,
        # mtcompute's: the model file of -tok spm, flores101, flores200 or spBLEU-1K
        # (default: sacreBLEU's cached one), told in the epilog; out of the usage line, which
        # stays sacreBLEU's bytes
        help=argparse.SUPPRESS,
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
    chrf_switches = (
        ("--chrf-whitespace", "Include whitespaces when extracting character n-grams."),
        ("--chrf-lowercase", "Enable case-insensitivity."),
        (
            "--chrf-eps-smoothing",
            "Enables epsilon smoothing similar to chrF++.py, NLTK and Moses; instead of "
            "effective order smoothing.",
        ),
    )
    add_switches(chrf, ((flag, f"{text} (Default: %(default)s)") for flag, text in chrf_switches))

    ter = p.add_argument_group("TER related arguments (The defaults replicate TERCOM's behavior)")
    ter_switches = (
        ("--ter-case-sensitive", "Enables case sensitivity."),
        ("--ter-asian-support", "Enables special treatment of Asian characters."),
        ("--ter-no-punct", "Removes punctuation."),
        ("--ter-normalized", "Applies basic normalization and tokenization."),
    )
    add_switches(ter, ((flag, f"{text} (Default: %(default)s)") for flag, text in ter_switches))

    ci = p.add_argument_group("Confidence interval (CI) estimation for single-system evaluation")
    add_switches(
        ci, [(("--confidence", "-ci"), "Report confidence interval using bootstrap resampling.")]
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
    exclusive = "This option is mutually exclusive with"
    paired_tests = (
        (
            ("--paired-ar", "-par"),
            "Perform paired test using approximate randomization (AR). "
            f"{exclusive} --paired-bs (Default: %(default)s).",
        ),
        (
            ("--paired-bs", "-pbs"),
            "Perform paired test using bootstrap resampling. "
            f"{exclusive} --paired-ar (Default: %(default)s).",
        ),
    )
    add_switches(choice, paired_tests)
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
    report_switches = (
        (("--quiet", "-q"), "Suppress verbose messages."),
        (("--short", "-sh"), "Produce a shorter (less human readable) signature."),
        (("--score-only", "-b"), "Print only the computed score."),
    )
    add_switches(report, report_switches)
    report.add_argument(
        "--width", "-w", type=int, default=1, help="Floating point width (Default: %(default)s)."
    )
    detail_switches = (
        (
            ("--detail", "-d"),
            "Print detailed information (split test sets based on origlang; without a test "
            "set, a line saying there is no subset information).",
        ),
        (("--no-color", "-nc"), "Disable the occasional use of terminal colors."),
    )
    add_switches(report, detail_switches)
    report.add_argument(
        "--format",
        "-f",
        default="json",
        choices=SACREBLEU_FORMATS,
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


def run(args: argparse.Namespace) -> int:
    """Run sacreBLEU's ``main()`` on ``args``; return its exit status. The work is
    :mod:`mtcompute.cli._sacrebleu_run`'s, imported here: ``--help`` needs none of it."""
    from mtcompute.cli import _sacrebleu_run  # noqa: PLC0415

    return _sacrebleu_run.run(args)
