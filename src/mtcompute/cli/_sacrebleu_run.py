"""``mtcompute sacrebleu``'s run: sacreBLEU's ``main()`` step by step (its test-set branches
are :mod:`mtcompute.cli._sacrebleu_testsets`'), its reading of the files (``smart_open``)
and of standard input, its checks in their order, and the -i files read in chunks where that
gives the same output. Imported by :func:`mtcompute.cli.sacrebleu.run`, not by the
parser."""

from __future__ import annotations

__all__ = ["Streamed", "run"]

import argparse
import codecs
import functools
import os
import stat
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack
from dataclasses import dataclass
from itertools import chain, islice
from typing import TYPE_CHECKING, Any

from mtcompute.cli._common import (
    EXIT_OK,
    EXIT_USAGE,
    SACREBLEU_FORMATS,
    STDIN,
    parse_ahead,
    read_input,
)
from mtcompute.cli._files import read_ahead
from mtcompute.cli._sacrebleu_output import (
    EXIT_FAILURE,
    RESET,
    Logged,
    Session,
    Stop,
    _columns,
    _fail,
    _kernel_may_test,
    _paired,
    _print_results,
    _print_single,
    _print_single_scores,
    _score_columns,
    significance_refusal,
)
from mtcompute.errors import MtcomputeError
from mtcompute.streaming import chunk_size, decode_lines

# The metrics (mtcompute.sacrebleu) are imported by the functions that use them.
if TYPE_CHECKING:
    from mtcompute.sacrebleu import BLEU, CHRF, TER
    from mtcompute.sacrebleu.metrics.base import CorpusInChunks

EXIT_FIELDS = 17  # sacreBLEU's status for a wrong number of tab-separated fields

# What mtcompute.sacrebleu raises where sacreBLEU raises (its errors are ValueError, KeyError,
# IndexError, RuntimeError or TypeError subclasses) or where its arithmetic would.
FACADE_ERRORS = (MtcomputeError, ArithmeticError, LookupError, RuntimeError, TypeError, ValueError)


def _metric_class(name: str, spm_model: str | None = None) -> Callable[..., BLEU | CHRF | TER]:
    """sacreBLEU's metric class of a ``-m`` name (BLEU over ``--spm-model`` when given)."""
    from mtcompute.sacrebleu import BLEU, CHRF, TER  # noqa: PLC0415

    if name == "bleu" and spm_model is not None:
        from mtcompute.sacrebleu.metrics.bleu import bleu_with_spm_model  # noqa: PLC0415

        return functools.partial(bleu_with_spm_model, spm_model)

    classes: dict[str, type[BLEU] | type[CHRF] | type[TER]] = {
        "bleu": BLEU,
        "chrf": CHRF,
        "ter": TER,
    }
    return classes[name]


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
    """The one-line reason this command does not run ``args`` (None when it does). A paired
    bootstrap the kernel may run is refused only once it could not (:func:`_columns`)."""
    if not (args.confidence or _paired(args)):
        return None
    refusal = significance_refusal()
    if refusal is not None and _kernel_may_test(args):
        return None  # numpy missing, but the kernel's bootstrap may serve: see _columns
    return refusal


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
    if env_format is not None and env_format.lower() in SACREBLEU_FORMATS:
        args.format = env_format.lower()
    refusal = _refusal(args)
    if refusal is not None:
        sys.stderr.write(f"mtcompute sacrebleu: error: {refusal}\n")
        return EXIT_USAGE
    colors = not (os.environ.get("NO_COLOR") or args.no_color)
    tty = colors and sys.stdout.isatty()
    session = Session(colors=colors, strip=colors and not tty, quiet=args.quiet)
    failures: tuple[type[Exception], ...] = FACADE_ERRORS
    if _uses_test_sets(args):
        from mtcompute.testsets import TestSetError  # noqa: PLC0415

        failures = (TestSetError, *FACADE_ERRORS)
    try:
        with Logged(session), ExitStack() as stack:
            return _main(session, args, stack)
    except Stop as stop:
        return stop.status
    except failures as error:
        message = error.message if isinstance(error, MtcomputeError) else str(error)
        sys.stderr.write(f"mtcompute sacrebleu: error: {message}\n")
        return EXIT_FAILURE
    finally:
        if tty:  # colorama's exit handler resets the terminal's colours
            sys.stdout.write(RESET)
            sys.stdout.flush()


def _uses_test_sets(args: argparse.Namespace) -> bool:
    """Whether the command takes a branch of :mod:`mtcompute.cli._sacrebleu_testsets` (which
    loads the test sets' registry and downloader, imported only then)."""
    return bool(
        args.test_set is not None
        or args.download
        or args.list
        or args.citation
        or args.echo
        or not args.refs
    )


def _main(session: Session, args: argparse.Namespace, stack: ExitStack) -> int:
    """sacreBLEU 2.6.0's ``main()``, step by step; ``stack`` ends what it starts (the
    second MeCab process) when the command ends."""
    if _uses_test_sets(args):
        from mtcompute.cli import _sacrebleu_testsets as tests  # noqa: PLC0415

    if (args.download or args.list) and tests.early_branch(session, args):
        return EXIT_OK
    if args.sentence_level and len(args.metrics) > 1:
        raise _fail(session, "Only one metric can be used in sentence-level mode.")
    if args.citation:
        tests.citation(session, args)
        return EXIT_OK
    if args.num_refs != 1 and (args.test_set is not None or len(args.refs) > 1):
        raise _fail(
            session,
            "The --num-refs argument allows you to provide any number of tab-delimited "
            "references in a single file.",
            "You can only use it with externally provided references, however (i.e., not "
            "with `-t`),",
            "and you cannot then provide multiple reference files.",
        )
    if args.test_set is not None:
        tests.check_test_sets(session, args)
    elif not args.refs:
        from mtcompute.testsets import list_testsets  # noqa: PLC0415

        raise _fail(
            session,
            "If manual references given, make sure to provide them before the -i/--input "
            "argument to avoid confusion.",
            "Otherwise, I need a predefined test set (-t) from the following list:",
            str(list_testsets()),
        )
    if args.echo:
        tests.echo(session, args)
        return EXIT_OK
    if args.langpair:
        parts = args.langpair.split("-")
        if len(parts) < 2:
            raise _fail(
                session,
                f"-l/--language-pair: expected a pair such as en-de, got {args.langpair!r}",
            )
        args.bleu_trg_lang = parts[1]
    if args.test_set is not None and args.bleu_tokenize == "none":
        session.log(
            "You are turning off BLEU's internal tokenizer presumably to supply your own "
            "tokenized files."
        )
        session.log("Published numbers will not be comparable to other papers.")

    if _streamable(args):
        streamed = _streamed(args)
        if streamed is not None:
            return _print_streamed(session, args, streamed)
    if args.test_set is not None:
        refs = tests.references(
            session, args, lambda path: read_lines(session, path, args.encoding)
        )
    else:
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
    full_system, full_refs = (systems[0] if systems else []), refs
    if args.origlang is not None or args.subset is not None:
        from mtcompute.testsets import filter_subset  # noqa: PLC0415

        outputs = filter_subset(
            [*systems, *refs], args.test_set, args.langpair, args.origlang, args.subset
        )
        systems, refs = outputs[: len(systems)], outputs[len(systems) :]
    if args.test_set is not None:
        _check_test_set_lengths(session, args, systems, refs)
    else:
        _check_lengths(session, args, systems, where, refs)
    bleu_order = _parse_ahead(args, stack, refs, systems) if "bleu" in args.metrics else None

    metrics: dict[str, Any] = {}
    for name in args.metrics:
        cls = _metric_class(name, args.spm_model)
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
        if args.detail and args.test_set is not None:
            tests.subset_results(session, args, metrics, full_system, full_refs)
        return EXIT_OK
    session.log(f"Found {len(systems)} systems.", info=True)
    signatures, columns = _columns(session, args, metrics, systems, names, bleu_order)
    _print_results(session, args, columns, signatures)
    return EXIT_OK


def _parse_ahead(
    args: argparse.Namespace,
    stack: ExitStack,
    refs: Sequence[Sequence[str]],
    systems: Sequence[Sequence[str]],
) -> Callable[[], Iterator[int]] | None:
    """With BLEU's MeCab tokenizer (ja-mecab, ko-mecab), a second process parsing the lines
    from the last system back (:func:`mtcompute.cli._common.parse_ahead`), in the order BLEU
    tokenizes them: the references, then system by system. Where it runs, the order to score
    the systems' BLEU in: each as soon as its lines (and the references') are parsed."""
    from mtcompute.tokenizer_names import TARGET_TOKENIZERS  # noqa: PLC0415

    target = args.bleu_trg_lang if args.langpair else ""  # as _metric_arguments passes it
    name = args.bleu_tokenize or TARGET_TOKENIZERS.get(target, "13a")
    return parse_ahead(stack, name, args.bleu_lowercase, chain(*refs), systems)


def _check_lengths(
    session: Session,
    args: argparse.Namespace,
    systems: list[list[str]],
    where: list[str],
    refs: list[list[str]],
) -> None:
    """sacreBLEU's checks of the systems against the reference files, the files named."""
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


def _check_test_set_lengths(
    session: Session, args: argparse.Namespace, systems: list[list[str]], refs: list[list[str]]
) -> None:
    """sacreBLEU's checks of the systems against a test set's references, its messages."""
    from mtcompute.testsets import cache_dir  # noqa: PLC0415

    for system in systems:
        if not system:
            message = f"Test set {args.test_set!r} contains no sentence"
            if args.origlang is not None or args.subset is not None:
                message += " with"
                if args.origlang:
                    message += f" origlang={args.origlang}"
                if args.subset:
                    message += f" subset={args.subset}"
            raise _fail(session, message)
        if any(len(stream) != len(system) for stream in refs):
            raise _fail(
                session,
                "System and reference streams have different lengths.",
                "This could be an issue with your system output or with sacreBLEU's reference "
                "database if -t is given.",
                "For the latter, try cleaning out the cache by typing:\n",
                f"  rm -r {cache_dir()}/{args.test_set}\n",
                "The test sets will be re-downloaded the next time you run sacreBLEU.",
            )


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
    if args.input is None or not args.input or not args.refs or args.test_set is not None:
        return False
    if args.origlang is not None or args.subset is not None:
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
            name.upper(): _metric_class(name, args.spm_model)(**_metric_arguments(args, name))
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
