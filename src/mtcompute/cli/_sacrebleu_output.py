"""``mtcompute sacrebleu``'s output: standard output and standard error as sacreBLEU's
``print()``, its logger and colorama leave them, and its printing of the scores (the
single-system lines aligned on ``=``, JSON, the multi-system table (python-tabulate, called as
sacreBLEU calls it), the paired tests' explanation). Imported by
:func:`mtcompute.cli.sacrebleu.run`, not by the parser."""

from __future__ import annotations

__all__ = ["Logged", "Session", "Stop"]

import argparse
import logging
import re
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from mtcompute.cli._common import EXIT_USAGE, SIGNIFICANCE_EXTRA, missing_extra, one_blas_thread

EXIT_FAILURE = 1  # sacreBLEU's sys.exit(1), and the status of its tracebacks

# colorama's codes (Fore.CYAN, Fore.YELLOW, Fore.GREEN, Fore.RED, Style.RESET_ALL)
CYAN, YELLOW, GREEN, RED, RESET = "\x1b[36m", "\x1b[33m", "\x1b[32m", "\x1b[31m", "\x1b[0m"
SIGNIFICANCE = 0.05  # p-values above it are printed in red, the others marked "*"
CONFIDENCE = re.compile(r"(\(μ = [0-9\.]+ ± [0-9\.]+\))")  # coloured in cyan (text)
# colorama 0.4.6's patterns: what it strips from standard output when it is not a terminal
COLORAMA_CSI = re.compile("\001?\033\\[((?:\\d|;)*)([a-zA-Z])\002?")
COLORAMA_OSC = re.compile("\001?\033\\]([^\a]*)(\a)\002?")


# -- output: standard output as sacreBLEU's print() and colorama leave it --------------------


def _colorama_strip(text: str) -> str:
    """What colorama's AnsiToWin32 writes for ``text`` when it strips (its OSC loop slices the
    shortened text with the spans of the original, as colorama 0.4.6 does). A title sequence
    is stripped like the others, where colorama off Windows raises AttributeError."""
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
    held: list[tuple[str, bool]] | None = None  # log lines kept back (:meth:`holding`)

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
        if self.held is not None:
            self.held.append((message, info))
            return
        if self.quiet:
            if not info:
                sys.stderr.write(message + "\n")
        else:
            sys.stderr.write(f"sacreBLEU: {message}\n")
        sys.stderr.flush()

    @contextmanager
    def holding(self) -> Iterator[list[tuple[str, bool]]]:
        """Within the block, the log lines are kept in the list it gives, not written."""
        self.held = []
        try:
            yield self.held
        finally:
            self.held = None

    def color(self, text: str, code: str) -> str:
        """sacreBLEU's Color.format."""
        return f"{code}{text}{RESET}" if self.colors else text


class Stop(Exception):
    """End the run with ``status`` (sacreBLEU's sys.exit), the messages already logged."""

    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


class Logged(logging.Handler):
    """The messages of the ``mtcompute.testsets`` and ``mtcompute.downloads`` loggers
    (Downloading ..., Extracting ...: test sets, spBLEU's models) and of
    :mod:`mtcompute.sacrebleu`'s ``sacrebleu`` logger (BLEU's warnings) written as sacreBLEU's
    command writes its logger's, while the command runs: ``sacreBLEU: `` first, or with -q
    the warnings bare and no INFO."""

    NAMES = ("mtcompute.testsets", "mtcompute.downloads", "sacrebleu")

    def __init__(self, session: Session) -> None:
        super().__init__(logging.INFO)
        self.session = session
        self.loggers = [logging.getLogger(name) for name in self.NAMES]
        self.saved: list[tuple[int, bool]] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.session.log(record.getMessage(), info=record.levelno <= logging.INFO)

    def __enter__(self) -> Logged:
        self.saved = [(logger.level, logger.propagate) for logger in self.loggers]
        for logger in self.loggers:
            logger.addHandler(self)
            logger.setLevel(logging.INFO)
            logger.propagate = False
        return self

    def __exit__(self, *exc: object) -> None:
        for logger, (level, propagate) in zip(self.loggers, self.saved, strict=True):
            logger.removeHandler(self)
            logger.setLevel(level)
            logger.propagate = propagate


def _fail(session: Session, *messages: str, status: int = EXIT_FAILURE) -> Stop:
    for message in messages:
        session.log(message)
    return Stop(status)


def _paired(args: argparse.Namespace) -> bool:
    return bool(args.paired_bs or args.paired_ar)


def _kernel_may_test(args: argparse.Namespace) -> bool:
    """Whether the C kernel may run the significance test without numpy: a paired bootstrap
    of BLEU and chrF alone, where the kernel may serve one at all (an unseeded test, the
    kernel off: never). :func:`mtcompute.sacrebleu._paired.paired_bootstrap` decides once
    the files are read."""
    if not (
        args.paired_bs
        and not (args.paired_ar or args.confidence)
        and args.paired_jobs >= 0
        and set(args.metrics) <= {"bleu", "chrf"}
    ):
        return False
    from mtcompute.sacrebleu._paired import kernel_may_serve  # noqa: PLC0415

    return kernel_may_serve()


def significance_refusal() -> str | None:
    """The one-line reason the significance tests cannot run here (numpy missing), or None."""
    what = "--paired-bs, --paired-ar and --confidence"
    return missing_extra(what, "significance", SIGNIFICANCE_EXTRA)


# -- printing the scores: sacreBLEU's print_single_results and print_results_table ------------


def _print_single(
    session: Session, args: argparse.Namespace, metrics: dict[str, Any], system: list[str]
) -> None:
    """sacreBLEU's single-system mode and ``print_single_results``."""
    n_bootstrap = args.confidence_n if args.confidence else 1
    if args.confidence:
        one_blas_thread()

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
    if args.detail and args.test_set is None:  # with -t: the subsets' scores, next
        session.print("No subset information found. Consider using --origlang argument.")


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


def _corpus_scores(
    session: Session,
    metrics: dict[str, Any],
    systems: Sequence[list[str]],
    bleu_order: Callable[[], Iterable[int]] | None = None,
) -> Callable[[int, str], Any]:
    """Each system's corpus score under each metric, BLEU's last: while this process scores
    the others, a second one can parse BLEU's MeCab lines
    (:func:`mtcompute.tokenizers.parsing_ahead`), from the last system back, as this one
    parses from the first. BLEU's systems come in ``bleu_order()`` when given (as their lines
    are parsed: :func:`mtcompute.tokenizers.parsed_order`). What shows stays sacreBLEU's:
    each score's log lines are held, then written in its order (system by system, the
    metrics sorted); after an error, the scores are computed again in that order, which
    raises the error sacreBLEU's order meets first; after an interrupt (Ctrl-C), the lines
    that order had written by its first score not made."""
    order = [(s, name) for s in range(len(systems)) for name in sorted(metrics)]

    def computing_order() -> Iterator[tuple[int, str]]:
        yield from (key for key in order if key[1] != "BLEU")
        if "BLEU" in metrics:
            systems_order = range(len(systems)) if bleu_order is None else bleu_order()
            yield from ((s, "BLEU") for s in systems_order)

    scores: dict[tuple[int, str], Any] = {}
    held: dict[tuple[int, str], list[tuple[str, bool]]] = {}

    def write_held() -> None:
        for key in order:
            if key not in scores:
                return
            for message, info in held[key]:
                session.log(message, info)

    try:
        for s, name in computing_order():
            with session.holding() as held[s, name]:
                scores[s, name] = metrics[name].corpus_score(systems[s], None)
    except Exception:  # whichever it is, sacreBLEU's order meets it again
        return lambda s, name: metrics[name].corpus_score(systems[s], None)
    except BaseException:  # KeyboardInterrupt: it goes on, after what was due before it
        write_held()
        raise
    write_held()
    return lambda s, name: scores[s, name]


def _columns(
    session: Session,
    args: argparse.Namespace,
    metrics: dict[str, Any],
    systems: Sequence[list[str]],
    names: list[str],
    bleu_order: Callable[[], Iterable[int]] | None = None,
) -> tuple[dict[str, str], dict[str, list[Any]]]:
    """sacreBLEU's multi-system results: the signatures and the columns (``System``, then
    each score's name), the scores formatted; with -pbs or -par its ``PairedTest`` of the
    systems against the first. ``bleu_order``: :func:`_corpus_scores`'."""
    if not _paired(args):
        score_of = _corpus_scores(session, metrics, systems, bleu_order)
        return _score_columns(args, metrics, names, score_of)
    named = list(zip(names, systems, strict=True))
    if args.paired_bs and args.paired_jobs >= 0:
        # BLEU and chrF with a seed: the C kernel's twin of PairedTest, without numpy
        from mtcompute.sacrebleu._paired import paired_bootstrap  # noqa: PLC0415

        served = paired_bootstrap(named, metrics, args.paired_bs_n, args.paired_jobs)
        if served is not None:
            return {name: sig.format(args.short) for name, sig in served[0].items()}, served[1]
        refusal = significance_refusal()  # the kernel could not: numpy's turn
        if refusal is not None:
            sys.stderr.write(f"mtcompute sacrebleu: error: {refusal}\n")
            raise Stop(EXIT_USAGE)
    one_blas_thread()
    # Imported here: numpy only for the tests, so that scoring starts as fast as before.
    from mtcompute.sacrebleu.significance import PairedTest  # noqa: PLC0415

    test = PairedTest(
        named,
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
    # sacreBLEU's call, to the same tabulate (imported here: only a table needs it)
    from tabulate import tabulate  # noqa: PLC0415

    table = tabulate(
        columns,
        headers="keys",
        tablefmt=tablefmt,
        colalign=("right",),
        stralign="center",
        numalign="center",
        floatfmt=f".{args.width}f",
    )
    session.print(table)
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
