"""``mtcompute score``: corpus BLEU, chrF, chrF++, TER, WER and CER of plain-text files, one
segment per line.

Several systems, several metrics, any number of reference files, in one run. The numbers are
sacreBLEU 2.6.0's by default (docs/decisions.md, "Two families of rules"): BLEU (Papineni et al.
2002 §2) on sacreBLEU's tokenizers, chrF and chrF++ (Popović 2015 §2, 2017 §2) with its
best-reference rule, TER (Snover et al. 2006 §2) with its tercom tokenizer, from
:func:`mtcompute.metrics.bleu.corpus.corpus_bleu`,
:func:`mtcompute.metrics.chrf.corpus.corpus_chrf` and
:func:`mtcompute.metrics.ter.corpus.corpus_ter`, each printed with its signature.
``--rules contract`` gives the catalog contracts' exact chrF corpus rule instead
(chrf-compute, chrf-plus-plus-compute); BLEU and TER have sacreBLEU's rule only (the
contracts' BLEU arithmetic is the bleu-* tools'; ter-compute gives sacreBLEU's TER).

This module declares the options and their help; :mod:`mtcompute.cli._score_run` (imported
by :func:`run`) checks them and prints, :mod:`mtcompute.cli._score_chunks` reads the files and
scores them, :mod:`mtcompute.cli._score_tests` runs the significance tests. They add no
arithmetic of their own: every call into the metric code is in ``_score_chunks`` and
``_score_tests``.

Exit status: 0 with a score; 1 on a data error (a file that is not UTF-8, files of different
lengths, no segments, an input the library refuses); 2 on a usage error (bad options, a file
that cannot be opened, ``-`` twice, options that do not apply to the metrics asked for).
"""

from __future__ import annotations

__all__ = ["METRICS", "add_parser", "run"]

import argparse
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

from mtcompute._version import __version__
from mtcompute.cli import _scheduler
from mtcompute.cli._common import (
    CI_SAMPLES,
    Options,
    Subparsers,
    add_command,
    add_count,
    add_metrics,
    add_switches,
)
from mtcompute.cli._progress import add_quiet
from mtcompute.cli._test_set import add_inputs
from mtcompute.errors import MtcomputeError
from mtcompute.report import DEFAULT_SAMPLES, DEFAULT_SEED

# This module is the parser, which every mtcompute command builds: the reading, scoring and
# printing are imported by run() (mtcompute.cli._score_run and the modules it imports), and
# the metrics by the functions that run them. --help needs none of them.
if TYPE_CHECKING:
    from mtcompute.contracts.validate import FieldType

METRICS = ("bleu", "chrf", "chrf++", "ter", "wer", "cer")

_DESCRIPTION = """\
Score system outputs against their references: corpus BLEU, chrF, chrF++ and TER, several
systems and metrics in one run, with sacreBLEU 2.6.0's numbers and signatures.

Files are plain UTF-8 text, one segment per line. Only '\\n' ends a line: a '\\r' before it is
kept as part of the segment (the metrics then treat it as whitespace), and a final '\\n' at
the end of a file does not start an extra segment. Every file must have the same number of
lines. FILE may be '-' for standard input, for at most one of the files; a FILE ending in
'.gz' is decompressed as it is read.

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

-t NAME -l SRC-TRG takes the references from sacreBLEU's test set NAME instead of -r. With
it, --origlang LANG (non-LANG: any other original language) and --subset NAME score only the
documents sacreBLEU 2.6.0 keeps with the same flags (the -H files hold the whole test set);
the text then starts with a line saying so ("-t wmt20 -l de-en --origlang de: 4 of 7
segments"), the JSON has "test_set".

WER and CER are jiwer 4.0's wer and cer (the wer-compute tool, mtcompute.corpus_wer): word or
character edits without shifts over the reference's length, in percent on the line, the rate
and counts in JSON; one reference file, --lowercase as their only option, no tests.

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
"segment_ref_lengths"). With --origlang or --subset, also "test_set": {"name",
"language_pair", "origlang", "subset", "segments", "of"} (the segments kept, of the set's).

A progress bar is drawn on standard error when it is a terminal and the input has more than
10,000 segments (its rate and the time left); --quiet (or --no-progress) turns it off.

exit status: 0 scored; 1 data error (a file that is not UTF-8, with the line number and byte
offset; files of different lengths; no segments); 2 usage error (bad options, a file that
cannot be read, '-' given twice, options that do not apply to the metrics asked for). With
--format json a data error goes to standard output instead, as
{"error":{"code","message","path"}}."""


def _checked(flag: str) -> Callable[[str], object]:
    """argparse ``type=``: the option's text (read as a number, unless the field is a choice
    of names), then checked by the field type of :mod:`mtcompute.contracts.fields` that the
    option names (``--max-order``: ``MAX_ORDER``),
    the one the tools and the batch APIs check (one rule, one message: ``--beta 17`` is
    refused as ``corpus_chrf(..., beta=17)`` and chrf-compute refuse it). The field types are
    imported when an option is given, not when the parser is built (``--help`` needs none)."""

    def parse(text: str) -> object:
        from mtcompute.contracts import fields  # noqa: PLC0415
        from mtcompute.contracts.validate import Choice  # noqa: PLC0415

        field_type: FieldType[object] = getattr(fields, flag[2:].upper().replace("-", "_"))
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


class _CheckedWhenGiven(argparse.Action):
    """Store the option's value as ``check`` (a ``type=`` function) reads it, when the option
    is given, with the message ``type=`` would give. A ``type=`` would not do for an option
    with a str default: argparse passes that default through it at every parse, and
    :func:`_checked` imports the field types (with the metrics they name) for it."""

    def __init__(self, *args: Any, check: Callable[[str], object], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.check = check

    def __call__(
        self,
        _parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: object,
        _option_string: str | None = None,
    ) -> None:
        try:
            setattr(namespace, self.dest, self.check(cast("str", values)))
        except argparse.ArgumentTypeError as error:
            raise argparse.ArgumentError(self, str(error)) from None


def _add_checked(options: Options, flag: str, help_text: str, metavar: str | None = None) -> None:
    """Add the metric option ``flag``, checked by :func:`_checked`, None when not given."""
    options.add_argument(flag, type=_checked(flag), default=None, metavar=metavar, help=help_text)


# -- options -------------------------------------------------------------------------------


_TEXTS = (  # help, description, epilog
    "score system output files against reference file(s): BLEU, chrF, chrF++, TER, WER, CER",
    _DESCRIPTION,
    _EPILOG.replace("VERSION", __version__),
)


def add_parser(subparsers: Subparsers) -> None:
    """Register the ``score`` sub-command: its options in four groups (the order of --help).

    The metric options default to None, not to their values, so that :func:`run` can tell
    an option given for a metric that was not asked for."""
    parser = add_command(subparsers, "score", run, _TEXTS)
    chrf = parser.add_argument_group("chrF options")
    bleu = parser.add_argument_group("BLEU options")
    add_inputs(
        parser, "system output file(s), one segment per line ('-' for stdin)", "hypotheses", bleu
    )
    add_metrics(
        parser, METRICS, ["chrf"], "bleu, chrf, chrf++, ter, wer, cer: one or more (default chrf)"
    )
    parser.add_argument(
        "--rules",
        action=_CheckedWhenGiven,
        check=_checked("--rules"),
        default="sacrebleu",
        help="sacrebleu (default): sacreBLEU 2.6.0's numbers; contract: the catalog "
        "contracts' exact chrF corpus rule (chrF and chrF++ only, one reference file)",
    )
    lowercase = (
        "--lowercase",
        "lowercase both sides first (BLEU, chrF, chrF++, WER, CER; TER lowercases unless "
        "--case-sensitive)",
    )
    add_switches(parser, [lowercase], default=None)
    _add_checked(chrf, "--beta", "recall weight, 1..16 (default 2)")
    _add_checked(
        bleu,
        "--smooth-method",
        "sacreBLEU's smoothing: exp (default), floor, add-k, none",
        metavar="METHOD",
    )
    _add_checked(
        bleu,
        "--smooth-value",
        "floor's or add-k's value, 0..100 (defaults 0.1 and 1)",
        metavar="VALUE",
    )
    _add_checked(bleu, "--max-order", "highest n-gram order, 1..8 (default 4)")
    effective_order = (
        "--effective-order",
        "average only the orders with a positive total (sacreBLEU's effective order)",
    )
    add_switches(bleu, [effective_order], default=None)
    ter = parser.add_argument_group(
        "TER options", "sacreBLEU's TER() settings, by their names (each off by default)"
    )
    ter_switches = (
        (
            "--normalized",
            "tercom's normalization (entities, punctuation split off; CJK characters split "
            "with --asian-support)",
        ),
        (
            "--no-punct",
            "remove punctuation (CJK and full-width punctuation too with --asian-support)",
        ),
        ("--asian-support", "treat CJK text apart, with --normalized or --no-punct"),
        ("--case-sensitive", "keep the case (TER lowercases otherwise)"),
    )
    add_switches(ter, ter_switches, default=None)
    tests = parser.add_argument_group(
        "significance", "paired tests against the first -H file, and bootstrap intervals"
    )
    paired = (
        (
            "--paired-bs",
            "paired bootstrap resampling (Koehn 2004): p-values, means and 95%% intervals",
        ),
        ("--paired-ar", "paired approximate randomization (Riezler and Maxwell 2005): p-values"),
    )
    add_switches(tests.add_mutually_exclusive_group(), paired)
    add_count(
        tests, "--paired-bs-n", f"resamples of --paired-bs (default {DEFAULT_SAMPLES['bootstrap']})"
    )
    add_count(tests, "--paired-ar-n", f"trials of --paired-ar (default {DEFAULT_SAMPLES['ar']})")
    add_switches(
        tests,
        [("--ci", "each system's bootstrap mean and 95%% interval (alone or with --paired-ar)")],
    )
    add_count(tests, "--ci-n", f"resamples of --ci (default {CI_SAMPLES})")
    add_count(
        tests,
        "--seed",
        f"the random generator's seed (default {DEFAULT_SEED}, sacreBLEU's; 0 is a seed)",
        minimum=0,
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
    add_quiet(output)


def run(args: argparse.Namespace) -> int:
    """Run ``mtcompute score`` with parsed arguments; return the exit status. The work is
    :mod:`mtcompute.cli._score_run`'s, imported here: ``--help`` needs none of it."""
    from mtcompute.cli import _score_run  # noqa: PLC0415

    return _score_run.run(args)
