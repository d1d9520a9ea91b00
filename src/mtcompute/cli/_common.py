"""What the command modules share: exit statuses, reading an input, printing, usage errors,
and the errors of ``mtcompute score`` and ``mtcompute compare`` (one set of messages, one way
of reporting them). Every command's parser imports this module, so it stays small: the
segment files themselves are read by :mod:`mtcompute.cli._files`, which only ``run()``
imports."""

from __future__ import annotations

__all__ = [
    "CI_SAMPLES",
    "EXIT_DATA_ERROR",
    "EXIT_OK",
    "EXIT_TOOL_ERROR",
    "EXIT_USAGE",
    "READ_ERRORS",
    "REPORT_EXTRA",
    "SACREBLEU_FORMATS",
    "SIGNIFICANCE_EXTRA",
    "STDIN",
    "CommandError",
    "Options",
    "Subparsers",
    "add_command",
    "add_count",
    "add_files",
    "add_language_pair",
    "add_metrics",
    "add_spm_model",
    "add_switches",
    "check_language_pair",
    "fail",
    "integer",
    "label",
    "missing_extra",
    "open_input",
    "parse_ahead",
    "read_failure",
    "read_input",
    "repeated",
    "share_memo",
    "tokenizer_name",
    "usage_error",
    "write",
]

import argparse
import sys
import zlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import ExitStack
from typing import Any, BinaryIO, TypeAlias, cast

EXIT_OK, EXIT_TOOL_ERROR, EXIT_USAGE = 0, 1, 2
EXIT_DATA_ERROR = EXIT_TOOL_ERROR  # 1: files that cannot be scored (score and compare run no tool)
STDIN = "-"  # the file name that stands for standard input

# Defaults a command's parser prints in its help and its run applies (the parser and the
# modules its run() imports share them here: those modules do not import the parser).
CI_SAMPLES = 1000  # score --ci-n's default: sacreBLEU's --confidence-n
SACREBLEU_FORMATS = ("json", "text", "latex")  # sacrebleu -f's choices, and SACREBLEU_FORMAT's

# What ``ArgumentParser.add_subparsers()`` returns: each command module's ``add_parser`` adds
# its sub-command to it.
Subparsers: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"
# What options are added to: a parser, an argument group or a mutually exclusive group.
Options: TypeAlias = "argparse._ActionsContainer"


def usage_error(message: str) -> int:
    """Print ``mtcompute: error: MESSAGE`` on stderr; return the usage exit status (2)."""
    sys.stderr.write(f"mtcompute: error: {message}\n")
    return EXIT_USAGE


# The modules of the optional extras the commands need (pyproject.toml): the server extra
# for `serve` and `mcp`; significance for the paired tests and intervals; report for
# `compare --report`'s page.
SERVER_EXTRA = ("starlette", "uvicorn", "mcp")
SIGNIFICANCE_EXTRA = ("numpy", "threadpoolctl")
REPORT_EXTRA = ("jinja2",)


def share_memo(stack: ExitStack, tokenizer: str) -> None:
    """BLEU's tokenizers named ``tokenizer`` built until ``stack`` ends share one memo where
    Python tokenizes line by line (zh, intl, ja-mecab, ko-mecab:
    :func:`mtcompute.tokenizers.shared_memo`): each line is tokenized once in the command,
    however many calls score its systems."""
    from mtcompute.tokenizers import shared_memo  # noqa: PLC0415

    stack.enter_context(shared_memo(tokenizer))


def parse_ahead(
    stack: ExitStack,
    tokenizer: str,
    lowercase: bool,
    texts: Iterable[str],
    groups: Sequence[Iterable[str]] = (),
) -> Callable[[], Iterator[int]] | None:
    """With BLEU's MeCab tokenizer ``tokenizer`` (ja-mecab, ko-mecab), let a second process
    parse ``texts`` (in the order BLEU tokenizes them), then ``groups`` (the systems, which
    each also needs the texts: the references), from the last back while this one counts
    and parses from the first (:func:`mtcompute.tokenizers.parsing_ahead`; the binding holds
    the GIL, so threads cannot share the parse). While it may run, this process counts on a
    thread fewer: the child has one of the CPUs. ``stack`` ends both when the command ends.
    Where a child parses, the order to score the groups in (as their lines are parsed:
    :func:`mtcompute.tokenizers.parsed_order`), else None."""
    if not tokenizer.endswith("-mecab"):
        return None
    from mtcompute.counting import threads_beside  # noqa: PLC0415
    from mtcompute.tokenizers import parsed_order, parsing_ahead  # noqa: PLC0415

    # As BLEU hands them to the tokenizer: lowercased when asked, right-stripped.
    if lowercase:
        lines = [[text.lower().rstrip() for text in group] for group in (texts, *groups)]
    else:
        lines = [[text.rstrip() for text in group] for group in (texts, *groups)]
    if not stack.enter_context(parsing_ahead(tokenizer, lines[0], lines[1:])):
        return None
    stack.enter_context(threads_beside(1))
    return lambda: parsed_order(tokenizer, lines[1:])


def missing_extra(
    command: str, extra: str = "server", modules: Sequence[str] = SERVER_EXTRA
) -> str | None:
    """The usage error's message when a module of an optional extra is not installed (which
    extra to install), else None: checked before the command imports anything of it."""
    from importlib.util import find_spec  # noqa: PLC0415

    missing = [name for name in modules if find_spec(name) is None]
    if not missing:
        return None
    return (
        f"{command} needs the {extra} extra ({', '.join(missing)} not installed): "
        f"pip install 'mtcompute[{extra}]'"
    )


def one_blas_thread() -> None:
    """Before a command loads numpy for the significance tests: OpenBLAS with one thread. The
    tests run every matrix product on one BLAS thread (:mod:`mtcompute.significance`), and
    the pool OpenBLAS starts when numpy loads it spins on the CPUs meanwhile (50-70 ms of CPU
    for a 5-system paired bootstrap on 2 CPUs, more with more); only the variable, read then,
    prevents it. A value the user set is kept."""
    import os  # noqa: PLC0415

    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")


def write(text: str) -> None:
    """Print ``text`` and a newline on stdout as UTF-8 (lone surrogates passed through)."""
    sys.stdout.buffer.write(text.encode("utf-8", "surrogatepass") + b"\n")
    sys.stdout.flush()


# What reading a file can raise: OSError (a compressed file's bad header too:
# gzip.BadGzipFile), and for a compressed one a truncated stream (EOFError) or corrupt data
# (zlib.error).
READ_ERRORS: tuple[type[Exception], ...] = (OSError, EOFError, zlib.error)


def read_failure(exc: Exception) -> str:
    """Why reading failed, as a message says it: the OS's words (``No such file or
    directory``) when there are some, else the exception's (a corrupt compressed file)."""
    return str(getattr(exc, "strerror", None) or exc)


def open_input(name: str) -> BinaryIO:
    """File ``name`` opened for reading bytes, decompressed when its name ends in ``.gz``
    (as sacreBLEU's ``smart_open``); OSError if it cannot be opened."""
    if name.endswith(".gz"):
        import gzip  # noqa: PLC0415

        return cast(BinaryIO, gzip.open(name, "rb"))
    return open(name, "rb")


def read_input(name: str) -> bytes:
    """The bytes of file ``name`` (decompressed: :func:`open_input`), or of stdin for
    ``-``; OSError (or another of :data:`READ_ERRORS`) if it cannot be read."""
    if name == STDIN:
        return sys.stdin.buffer.read()
    with open_input(name) as handle:
        return handle.read()


def tokenizer_name(text: str) -> str:
    """argparse ``type=`` of --tokenize: a tokenizer name that can run here
    (:func:`mtcompute.tokenizers.get_tokenizer`'s checks and messages); spBLEU's names pass,
    their model is loaded when scoring (after --spm-model is read)."""
    from mtcompute.errors import MtcomputeError  # noqa: PLC0415
    from mtcompute.tokenizer_names import SPM  # noqa: PLC0415
    from mtcompute.tokenizers import get_tokenizer  # noqa: PLC0415

    if text in SPM:
        return text
    try:
        return get_tokenizer(text, "--tokenize").name
    except MtcomputeError as error:
        raise argparse.ArgumentTypeError(error.message) from None


def _language_pair(text: str) -> str:
    """argparse ``type=`` of -l: ``src-trg``, both named."""
    parts = text.split("-")
    if len(parts) < 2 or not all(parts[:2]):
        raise argparse.ArgumentTypeError(f"expected a pair such as en-de, got {text!r}")
    return text


def check_language_pair(language_pair: str) -> str:
    """The BLEU tokenizer ``-l`` chooses (no --tokenize given); a usage error naming -l when
    it cannot run here (MeCab not installed)."""
    from mtcompute.errors import MtcomputeError  # noqa: PLC0415
    from mtcompute.tokenizer_names import tokenizer_for  # noqa: PLC0415
    from mtcompute.tokenizers import get_tokenizer  # noqa: PLC0415

    name = tokenizer_for(None, language_pair)
    try:
        return get_tokenizer(name, "-l").name
    except MtcomputeError as error:
        raise CommandError(
            f"-l {language_pair} chooses BLEU's tokenizer: {error.message}", EXIT_USAGE, "usage"
        ) from None


def add_spm_model(options: Options) -> None:
    """``--spm-model PATH``: the SentencePiece model file of BLEU's spm, flores101, flores200
    and spBLEU-1K tokenizers (spBLEU; default: the one sacreBLEU caches in
    $SACREBLEU/models)."""
    options.add_argument(
        "--spm-model",
        default=None,
        metavar="PATH",
        help="the SentencePiece model of --tokenize spm, flores101, flores200, spBLEU-1K "
        "(default: sacreBLEU's, cached in $SACREBLEU/models, downloaded there when missing)",
    )


def add_language_pair(options: Options) -> None:
    """``-l/--language-pair SRC-TRG``: BLEU's tokenizer for the target language when
    --tokenize is not given (zh, ja-mecab, ko-mecab, else 13a), as sacreBLEU chooses it;
    read with :func:`mtcompute.tokenizer_names.tokenizer_for`."""
    options.add_argument(
        "-l",
        "--language-pair",
        type=_language_pair,
        default=None,
        metavar="SRC-TRG",
        help="the language pair, e.g. en-zh: -t's pair; without --tokenize, BLEU tokenizes for "
        "the target language as sacreBLEU does (zh, ja-mecab, ko-mecab, else 13a)",
    )


def add_command(
    subparsers: Subparsers,
    name: str,
    run: Callable[[argparse.Namespace], int],
    texts: tuple[str, str, str],
) -> argparse.ArgumentParser:
    """Register the command ``name``, run by ``run``, with its ``texts``: the one-line help,
    the description and the epilog (kept as written: examples and exit statuses); its options
    are added to the parser it returns."""
    help_line, description, epilog = texts
    parser = subparsers.add_parser(
        name,
        help=help_line,
        description=description,
        epilog=epilog,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.set_defaults(func=run)
    return parser


def integer(minimum: int, what: str) -> Callable[[str], int]:
    """argparse ``type=``: an integer of at least ``minimum`` (``what`` names it in the
    message: ``expected a positive integer, got '0'``)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected {what}, got {text!r}") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"expected {what}, got {text!r}")
        return value

    return parse


def add_files(options: Options, flags: tuple[str, str], help_text: str) -> None:
    """Add ``flags FILE [FILE ...]`` to ``options``: one or more segment files, required
    (``score``'s and ``compare``'s ``-H`` and ``-r``)."""
    options.add_argument(*flags, required=True, nargs="+", metavar="FILE", help=help_text)


def add_metrics(
    options: Options, choices: Sequence[str], default: list[str], help_text: str
) -> None:
    """Add ``--metric/-m METRIC [METRIC ...]`` to ``options``: one or more of ``choices``,
    ``default`` when not given (``score``'s and ``compare``'s)."""
    options.add_argument(
        "--metric",
        "-m",
        nargs="+",
        choices=choices,
        default=default,
        metavar="METRIC",
        help=help_text,
    )


def add_switches(
    options: Options, switches: Iterable[tuple[str | tuple[str, ...], str]], **settings: Any
) -> None:
    """Add each of ``switches`` (its flag, or its flags, and its help) to ``options``, in
    order: an option without a value, True when given; ``settings`` are the other argparse
    keywords of all of them (``default=None``: None when not given)."""
    for flags, help_text in switches:
        names = (flags,) if isinstance(flags, str) else flags
        options.add_argument(*names, action="store_true", help=help_text, **settings)


# What add_count's integers are, by their least value, in their messages.
_COUNTS = {0: "a non-negative integer", 1: "a positive integer"}


def add_count(
    options: Options, flag: str, help_text: str, *, minimum: int = 1, default: int | None = None
) -> None:
    """Add ``flag N`` to ``options``: an integer of at least ``minimum``, 1 (a number of
    resamples or trials) or 0 (a seed), checked by :func:`integer`; ``default`` when not
    given."""
    options.add_argument(
        flag,
        type=integer(minimum, _COUNTS[minimum]),
        default=default,
        metavar="N",
        help=help_text,
    )


# -- errors of mtcompute score and mtcompute compare ----------------------------------------


class CommandError(Exception):
    """A reason not to score or compare, with the exit status it maps to and, for the JSON
    error envelope, its code."""

    def __init__(self, message: str, exit_code: int, code: str = "invalid_input") -> None:
        super().__init__(message)
        self.message = message
        self.exit_code = exit_code
        self.code = code


def label(name: str) -> str:
    """How a file is named in output and messages: ``<stdin>`` for ``-``."""
    return "<stdin>" if name == STDIN else name


def repeated(option: str, values: Sequence[str]) -> None:
    """A usage error for values given more than once (``--metric bleu is given more than
    once``)."""
    twice = sorted({v for v in values if values.count(v) > 1}, key=values.index)
    if twice:
        raise CommandError(
            f"{option} {', '.join(twice)} is given more than once", EXIT_USAGE, "usage"
        )


def fail(args: argparse.Namespace, error: CommandError, command: str) -> int:
    """Report ``error`` of ``mtcompute COMMAND`` and give its exit status: a data error as
    the JSON error envelope on standard output under ``--format json``, else one line on
    standard error."""
    from mtcompute.core.jsjson import dumps  # noqa: PLC0415

    if error.exit_code == EXIT_DATA_ERROR and args.format == "json":
        envelope = {"error": {"code": error.code, "message": error.message, "path": ""}}
        sys.stdout.buffer.write(dumps(envelope).encode("utf-8") + b"\n")
    else:
        sys.stderr.write(f"mtcompute {command}: error: {error.message}\n")
    return error.exit_code
