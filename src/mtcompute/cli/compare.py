"""``mtcompute compare``: systems against a baseline, with paired significance tests and
bootstrap intervals, as a table and as a self-contained HTML report.

The files are read as ``mtcompute score`` reads them (:func:`mtcompute.cli._files.read_segments`:
the same checks and messages); the statistics and the tests are :mod:`mtcompute.report.paired`,
the path ``mtcompute score --paired-bs`` takes too (:mod:`mtcompute.significance` in its native
arithmetic), through :func:`mtcompute.report.page.compare`, and the page
:func:`mtcompute.report.page.render`. This module reads, checks and prints.

Exit status: 0 compared; 1 on a data error (a file that is not UTF-8, files of different
lengths, no segments); 2 on a usage error (bad options, a file that cannot be read or
written, ``-`` twice, a file given twice).
"""

from __future__ import annotations

__all__ = ["add_parser", "run"]

import argparse
import sys
from collections.abc import Sequence
from contextlib import ExitStack
from itertools import chain
from typing import TYPE_CHECKING

from mtcompute.cli._common import (
    EXIT_DATA_ERROR,
    EXIT_OK,
    EXIT_USAGE,
    REPORT_EXTRA,
    SIGNIFICANCE_EXTRA,
    CommandError,
    Subparsers,
    add_command,
    add_count,
    add_metrics,
    add_switches,
    check_language_pair,
    fail,
    label,
    missing_extra,
    one_blas_thread,
    parse_ahead,
    repeated,
)
from mtcompute.cli._progress import add_quiet
from mtcompute.cli._test_set import add_inputs, cut_segments, resolve_references
from mtcompute.report import DEFAULT_SAMPLES, DEFAULT_SEED, METHODS, METRICS, is_significant

if TYPE_CHECKING:
    from mtcompute.report.page import Comparison
    from mtcompute.significance import Ranking

_DESCRIPTION = """\
Compare systems with a baseline on the same segments: each metric's corpus score, the
bootstrap mean and 95% interval, and the p-value of a paired significance test, as sacreBLEU's
--paired-bs and --paired-ar compute them (sacreBLEU 2.6.0's statistics and random draws, with
exact sums and float64 scores). * marks p <= 0.05.

Files are read as 'mtcompute score' reads them: plain UTF-8 text, one segment per line, the
same number of lines in every file; FILE may be '-' for standard input, for at most one file.

--method bootstrap (default): paired bootstrap resampling, --samples resamples (default
1000). --method ar: paired approximate randomization, --samples trials (default 10000), the
intervals from 1000 bootstrap resamples. --seed (default 12345, sacreBLEU's) seeds the draws;
0 is a seed like any other.

-t NAME -l SRC-TRG: the references of sacreBLEU's test set NAME, not -r files; --origlang
LANG and --subset NAME then compare on the documents sacreBLEU keeps with those flags, said
in the text's first line and the JSON's "test_set".

-m wer cer: word and character error rates (jiwer 4.0's, in percent; one reference file).
TER, WER and CER are error rates: lower is better, and the differences, the marks of the
better system and the rankings say so.

--rank also ranks all the systems (the baseline among them) on each metric: every pair
tested by --method on the same draws, the systems grouped into clusters as the WMT findings
group them (each system of a cluster significantly better than every system of every lower
cluster) with WMT's rank ranges ("2-3"), and for each pair the estimated accuracy of
agreeing with human judgement of its score difference (Kocmi et al. 2024; BLEU and chrF2
only, "n/a" for the other metrics). Off by default: it runs one more test per metric and adds
to the output.

--report FILE.html also writes one self-contained page (no script, no font, no network):
the table, the rankings (with --rank), a chart of each metric's scores with their intervals,
the distribution of segment-level differences against the baseline (of --histogram METRIC:
by default chrF when it is among -m, else the first -m metric), and the segments with the
largest wins and losses side by side with the reference."""

_EPILOG = """\
examples:
  mtcompute compare -r ref.A.txt -b sys.JDExploreAcademy.txt \\
    -H sys.Online-B.txt sys.Online-W.txt sys.OpenNMT.txt sys.PROMT.txt -m bleu chrf \\
    --report compare.html
  mtcompute compare -r ref.A.txt -b base.txt -H new.txt --method ar --format json

--format json prints one compact JSON object: {"method", "samples", "seed", "baseline",
"references", "segment_count", "metrics", "systems": [{"hypotheses", "baseline", "scores":
{METRIC: {"name", "score", "mean", "ci", "p_value", "significant"}}}]} (the baseline first,
its p_value and significant null). With --rank also "rankings": {METRIC: {"name",
"lower_is_better", "systems": [{"hypotheses", "rank", "top", "bottom", "cluster", "score"}]
(best first), "pairs": [{"first", "second", "delta", "p_value", "better", "significant",
"human_agreement"}]}} (delta: second's score minus first's; human_agreement: percent, or
null where Kocmi et al. fitted no curve). With --origlang or --subset also "test_set", as
mtcompute score gives it.

exit status: 0 compared; 1 data error (a file that is not UTF-8, with the line number and
byte offset; files of different lengths; no segments); 2 usage error (bad options, a file
that cannot be read or written, '-' given twice, a file given twice). With --format json a
data error goes to standard output instead, as {"error":{"code","message","path"}}."""

_TEXTS = (  # help, description, epilog
    "compare systems with a baseline: significance tests, intervals, an HTML report",
    _DESCRIPTION,
    _EPILOG,
)


def add_parser(subparsers: Subparsers) -> None:
    """Register the ``compare`` sub-command."""
    parser = add_command(subparsers, "compare", run, _TEXTS)
    parser.add_argument(
        "--baseline", "-b", required=True, metavar="FILE", help="the baseline system's output"
    )
    add_inputs(
        parser, "the output file(s) of the systems compared with the baseline", "systems", parser
    )
    add_metrics(
        parser,
        METRICS,
        ["bleu", "chrf"],
        "bleu, chrf, chrf++, ter, wer, cer: one or more (default bleu chrf)",
    )
    parser.add_argument(
        "--method",
        choices=METHODS,
        default="bootstrap",
        help="bootstrap (paired bootstrap resampling, default) or ar (approximate randomization)",
    )
    add_count(
        parser, "--samples", "resamples (bootstrap, default 1000) or trials (ar, default 10000)"
    )
    add_count(
        parser,
        "--seed",
        f"the random generator's seed (default {DEFAULT_SEED}; 0 is a seed)",
        minimum=0,
        default=DEFAULT_SEED,
    )
    add_switches(
        parser,
        [
            (
                "--lowercase",
                "lowercase both sides first for BLEU, chrF, WER and CER (TER always does)",
            ),
            ("--rank", "also rank all the systems: clusters, rank ranges, human agreement"),
        ],
        default=False,
    )
    parser.add_argument("--report", metavar="FILE", help="also write the HTML report to FILE")
    parser.add_argument(
        "--histogram",
        choices=METRICS,
        metavar="METRIC",
        help="the report's segment-level metric, one of -m (default chrf if given, else the first)",
    )
    parser.add_argument(
        "--format", choices=["text", "json"], default="text", help="output format (default text)"
    )
    add_quiet(parser)


def _check(args: argparse.Namespace) -> None:
    repeated("--metric", args.metric)
    if args.histogram is not None and args.histogram not in args.metric:
        raise CommandError(
            f"--histogram {args.histogram} is not among --metric {' '.join(args.metric)}",
            EXIT_USAGE,
            "usage",
        )
    rated = [m for m in args.metric if m in ("wer", "cer")]
    if rated and len(args.references) > 1:
        raise CommandError(
            f"--metric {' '.join(rated)}: one reference file, got {len(args.references)}",
            EXIT_USAGE,
            "usage",
        )
    if args.language_pair is not None and args.tokenize is None and "bleu" in args.metric:
        check_language_pair(args.language_pair)
    systems = [args.baseline, *args.hypotheses]
    twice = sorted({n for n in systems if systems.count(n) > 1}, key=systems.index)
    if twice:
        raise CommandError(
            f"{', '.join(label(n) for n in twice)} is given more than once as a system "
            "(the baseline and each system are compared as different outputs)",
            EXIT_USAGE,
            "usage",
        )


def _write(text: str) -> None:
    sys.stdout.buffer.write(text.encode("utf-8") + b"\n")
    sys.stdout.flush()


def _cell(comparison: Comparison, m: int, s: int) -> list[str]:
    """score, mean ± half width, p-value and mark of system ``s`` for metric ``m``."""
    result = comparison.results[m][s]
    interval = "" if result.mean is None else f"({result.mean:.2f} ± {result.ci:.2f})"
    p = "" if result.p_value is None else f"p = {result.p_value:.4f}"
    return [f"{result.score:.2f}", interval, p, "*" if is_significant(result.p_value) else ""]


def text_table(comparison: Comparison) -> str:
    """The comparison as a plain-text table: a heading line, then per system (the baseline
    first) each metric's score, (mean ± half width), p-value and ``*`` when p <= 0.05."""
    names = [label(n) for n in comparison.names]
    names[0] += " (baseline)"
    rows = [
        [name, *(x for m in range(len(comparison.metrics)) for x in _cell(comparison, m, s))]
        for s, name in enumerate(names)
    ]
    header = ["system"]
    for metric in comparison.metric_names:
        header += [metric, "", "", ""]
    table = [header, *rows]
    widths = [max(len(row[c]) for row in table) for c in range(len(header))]
    heading = (
        f"{comparison.method_name}: {comparison.samples} "
        f"{'trials' if comparison.method == 'ar' else 'resamples'}, seed {comparison.seed}; "
        f"{comparison.segment_count} segments; * p <= 0.05"
    )
    lines = [heading, ""]
    for row in table:
        cells = [row[0].ljust(widths[0])]
        for c in range(1, len(row), 4):
            score, interval, p, mark = row[c : c + 4]
            cells.append(
                f"{score.rjust(widths[c])} {interval.ljust(widths[c + 1])} "
                f"{p.ljust(widths[c + 2])}{mark.ljust(widths[c + 3])}"
            )
        lines.append("   ".join(cells).rstrip())
    for ranking in comparison.rankings:
        lines += ["", *_ranking_lines(comparison, ranking)]
    return "\n".join(lines)


def _ranking_lines(comparison: Comparison, ranking: Ranking) -> list[str]:
    """One metric's ranking as text: a heading, then per system (best first) its rank
    range, name, score and cluster, and against the baseline its difference and Kocmi et
    al.'s estimated agreement with humans; a rule between clusters."""
    from mtcompute.report.page import agreement_text  # noqa: PLC0415

    direction = "lower" if ranking.lower_is_better else "higher"
    heading = (
        f"{ranking.metric} ranking ({direction} is better): {ranking.systems[-1].cluster} "
        f"cluster(s), WMT rank ranges; Δ and human agreement (Kocmi et al. 2024) "
        "against the baseline"
    )
    base = next(r.score for r in ranking.systems if r.system == 0)
    rows = [["rank", "system", "score", "cluster", "Δ", "agreement"]]
    clusters = [0]
    for ranked in ranking.systems:
        s = ranked.system
        name = label(comparison.names[s]) + (" (baseline)" if s == 0 else "")
        pair = None if s == 0 else ranking.pair(0, s)
        rows.append(
            [
                ranked.rank,
                name,
                f"{ranked.score:.2f}",
                str(ranked.cluster),
                "" if pair is None else f"{ranked.score - base:+.2f}",
                "" if pair is None else agreement_text(pair.agreement),
            ]
        )
        clusters.append(ranked.cluster)
    widths = [max(len(row[c]) for row in rows) for c in range(len(rows[0]))]
    lines = [heading, ""]
    for r, row in enumerate(rows):
        if r > 1 and clusters[r] != clusters[r - 1]:
            lines.append("-" * (sum(widths) + 3 * (len(widths) - 1)))
        cells = [row[0].rjust(widths[0]), row[1].ljust(widths[1])]
        cells += [cell.rjust(width) for cell, width in zip(row[2:], widths[2:], strict=True)]
        lines.append("   ".join(cells).rstrip())
    return lines


def _ranking_object(comparison: Comparison, ranking: Ranking) -> dict[str, object]:
    """One metric's ranking in the JSON output (see the command's epilog)."""
    names = [label(n) for n in comparison.names]
    return {
        "name": ranking.metric,
        "lower_is_better": ranking.lower_is_better,
        "systems": [
            {
                "hypotheses": names[r.system],
                "rank": r.rank,
                "top": r.top,
                "bottom": r.bottom,
                "cluster": r.cluster,
                "score": r.score,
            }
            for r in ranking.systems
        ],
        "pairs": [
            {
                "first": names[p.first],
                "second": names[p.second],
                "delta": p.delta,
                "p_value": p.p_value,
                "better": None if p.better is None else names[p.better],
                "significant": p.significant,
                "human_agreement": p.agreement,
            }
            for p in ranking.pairs
        ],
    }


def json_object(comparison: Comparison) -> dict[str, object]:
    """The comparison as one JSON object (see the command's epilog)."""
    rankings: dict[str, object] = {}
    if comparison.rankings:
        found = zip(comparison.metrics, comparison.rankings, strict=True)
        rankings["rankings"] = {m: _ranking_object(comparison, r) for m, r in found}
    return {
        "method": comparison.method,
        "samples": comparison.samples,
        "seed": comparison.seed,
        "baseline": label(comparison.names[0]),
        "references": [label(n) for n in comparison.reference_names],
        "segment_count": comparison.segment_count,
        "metrics": list(comparison.metrics),
        "signatures": dict(zip(comparison.metrics, comparison.signatures, strict=True)),
        "systems": [
            {
                "hypotheses": label(name),
                "baseline": s == 0,
                "scores": {
                    metric: {
                        "name": comparison.metric_names[m],
                        "score": comparison.results[m][s].score,
                        "mean": comparison.results[m][s].mean,
                        "ci": comparison.results[m][s].ci,
                        "p_value": comparison.results[m][s].p_value,
                        "significant": is_significant(comparison.results[m][s].p_value),
                    }
                    for m, metric in enumerate(comparison.metrics)
                },
            }
            for s, name in enumerate(comparison.names)
        ],
        **rankings,
    }


def _compared(
    args: argparse.Namespace,
    systems: Sequence[str],
    hypotheses: Sequence[Sequence[str]],
    references: Sequence[Sequence[str]],
) -> Comparison:
    """:func:`mtcompute.report.page.compare` of the segments read, with its progress bar.
    With BLEU's MeCab tokenizer a second process parses ahead
    (:func:`mtcompute.cli._common.parse_ahead`), the lines in the order BLEU tokenizes them:
    each system's hypotheses, the references after the baseline's."""
    from mtcompute.cli._progress import PROGRESS_MIN_SEGMENTS, bar  # noqa: PLC0415
    from mtcompute.errors import MtcomputeError  # noqa: PLC0415
    from mtcompute.metrics.bleu.score import BleuOptions  # noqa: PLC0415
    from mtcompute.metrics.chrf.score import ChrfOptions  # noqa: PLC0415
    from mtcompute.metrics.wer.text import WerOptions  # noqa: PLC0415
    from mtcompute.report.page import compare, progress_steps  # noqa: PLC0415
    from mtcompute.tokenizer_names import tokenizer_for  # noqa: PLC0415

    tokenizer = tokenizer_for(args.tokenize, args.language_pair)
    with ExitStack() as stack:
        if "bleu" in args.metric:
            lines = chain(hypotheses[0], chain.from_iterable(references), *hypotheses[1:])
            parse_ahead(stack, tokenizer, args.lowercase, lines)
        shown = len(references) * len(systems) > PROGRESS_MIN_SEGMENTS
        progress = bar(
            progress_steps(len(systems), len(args.metric), rank=args.rank),
            "compare",
            "steps",
            quiet=args.no_progress or not shown,
        )
        try:
            comparison = compare(
                hypotheses,
                references,
                args.metric,
                names=[label(n) for n in systems],
                reference_names=[label(n) for n in args.references],
                method=args.method,
                samples=args.samples if args.samples is not None else DEFAULT_SAMPLES[args.method],
                seed=args.seed,
                sentences=args.report is not None,
                progress=progress.advance,
                bleu=BleuOptions(
                    tokenizer,
                    args.lowercase,
                    spm_model=args.spm_model,
                ),
                chrf=ChrfOptions(lowercase=args.lowercase),
                wer=WerOptions(lowercase=args.lowercase),
                rank=args.rank,
                segment_metric=args.histogram,
            )
        except MtcomputeError as exc:  # WER or CER without a reference unit
            raise CommandError(exc.message, EXIT_DATA_ERROR, exc.code) from None
        progress.close()
    return comparison


def run(args: argparse.Namespace) -> int:
    """Run ``mtcompute compare`` with parsed arguments; return the exit status."""
    problem = missing_extra("mtcompute compare", "significance", SIGNIFICANCE_EXTRA)
    if problem is None and args.report is not None:
        problem = missing_extra("mtcompute compare --report", "report", REPORT_EXTRA)
    if problem is not None:
        return fail(args, CommandError(problem, EXIT_USAGE, "usage"), "compare")
    one_blas_thread()
    # Imported here, not at the top: the report brings numpy (mtcompute.significance) and
    # Jinja2, about 0.4 s, and every mtcompute command imports this module to build its
    # parser (`mtcompute score` has a 100 ms budget for its whole process).
    from mtcompute.cli._files import read_segments  # noqa: PLC0415
    from mtcompute.core.jsjson import dumps  # noqa: PLC0415
    from mtcompute.report.page import render  # noqa: PLC0415

    try:
        resolve_references(args)
        _check(args)
        systems: Sequence[str] = [args.baseline, *args.hypotheses]
        hypotheses, references = cut_segments(args, *read_segments(systems, args.references))
        comparison = _compared(args, systems, hypotheses, references)
        if args.report is not None:
            try:
                with open(args.report, "w", encoding="utf-8") as handle:
                    handle.write(render(comparison))
            except OSError as exc:
                raise CommandError(
                    f"cannot write --report {args.report}: {exc.strerror or exc}",
                    EXIT_USAGE,
                    "usage",
                ) from None
    except CommandError as exc:
        return fail(args, exc, "compare")
    if args.format == "json":  # a cut (--origlang/--subset): the last field, the first line
        cut = {} if args.cut is None else {"test_set": args.cut.to_dict()}
        _write(dumps({**json_object(comparison), **cut}))
    else:
        heading = [] if args.cut is None else [args.cut.line()]
        _write("\n".join([*heading, text_table(comparison)]))
    return EXIT_OK
