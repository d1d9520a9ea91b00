"""What the command modules share: exit statuses, reading an input, printing, usage errors,
and the segment files of ``mtcompute score`` and ``mtcompute compare`` (one reading, one set
of checks and messages, one way of reporting their errors)."""

from __future__ import annotations

__all__ = [
    "EXIT_DATA_ERROR",
    "EXIT_OK",
    "EXIT_TOOL_ERROR",
    "EXIT_USAGE",
    "STDIN",
    "CommandError",
    "Subparsers",
    "add_command",
    "fail",
    "integer",
    "label",
    "read_input",
    "read_segments",
    "repeated",
    "split_segments",
    "usage_error",
    "write",
]

import argparse
import sys
from collections.abc import Callable, Sequence
from typing import TypeAlias

from mtcompute.core.jsjson import dumps

EXIT_OK, EXIT_TOOL_ERROR, EXIT_USAGE = 0, 1, 2
EXIT_DATA_ERROR = EXIT_TOOL_ERROR  # 1: files that cannot be scored (score and compare run no tool)
STDIN = "-"  # the file name that stands for standard input

# What ``ArgumentParser.add_subparsers()`` returns: each command module's ``add_parser`` adds
# its sub-command to it.
Subparsers: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"


def usage_error(message: str) -> int:
    """Print ``mtcompute: error: MESSAGE`` on stderr; return the usage exit status (2)."""
    sys.stderr.write(f"mtcompute: error: {message}\n")
    return EXIT_USAGE


def write(text: str) -> None:
    """Print ``text`` and a newline on stdout as UTF-8 (lone surrogates passed through)."""
    sys.stdout.buffer.write(text.encode("utf-8", "surrogatepass") + b"\n")
    sys.stdout.flush()


def read_input(name: str) -> bytes:
    """The bytes of file ``name``, or of stdin for ``-``; OSError if it cannot be read."""
    if name == STDIN:
        return sys.stdin.buffer.read()
    with open(name, "rb") as handle:
        return handle.read()


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


# -- segment files: mtcompute score and mtcompute compare ----------------------------------


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


def _read_bytes(name: str) -> bytes:
    try:
        return read_input(name)
    except OSError as exc:
        raise CommandError(
            f"cannot read {name}: {exc.strerror or exc}", EXIT_USAGE, "usage"
        ) from None


def split_segments(data: bytes, name: str) -> list[str]:
    """Decode strict UTF-8 and split on ``\\n`` only; a final ``\\n`` ends the last segment.

    >>> split_segments(b"a b\\r\\n\\nc\\n", "f")
    ['a b\\r', '', 'c']
    >>> split_segments(b"", "f")
    []
    """
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1)
        raise CommandError(
            f"{label(name)}: line {line} is not valid UTF-8: byte 0x{data[exc.start]:02x} "
            f"at byte offset {exc.start} of the file (offset {column} in the line): {exc.reason}",
            EXIT_DATA_ERROR,
        ) from None
    if not text:
        return []
    if text.endswith("\n"):
        text = text[:-1]
    return text.split("\n")


def read_segments(
    systems: Sequence[str], references: Sequence[str]
) -> tuple[list[list[str]], list[list[str]]]:
    """Every system's segments and, per segment, its references (one per reference file):
    every file read before any is decoded (a missing file is reported before a bad byte),
    then the same number of segments in each, at least one."""
    names = [*systems, *references]
    if names.count(STDIN) > 1:
        raise CommandError("'-' (stdin) can stand for at most one file", EXIT_USAGE, "usage")
    raw = [_read_bytes(name) for name in names]
    texts = [split_segments(data, name) for data, name in zip(raw, names, strict=True)]
    first, count = systems[0], len(texts[0])
    for name, lines in zip(names[1:], texts[1:], strict=True):
        if len(lines) != count:
            raise CommandError(
                f"the files have different numbers of lines: {label(first)} has "
                f"{count}, {label(name)} has {len(lines)}; every file needs one "
                "line per segment",
                EXIT_DATA_ERROR,
            )
    if not count:
        raise CommandError(f"no segments to score: {label(first)} is empty", EXIT_DATA_ERROR)
    hyps = texts[: len(systems)]
    refs = [list(segment) for segment in zip(*texts[len(systems) :], strict=True)]
    return hyps, refs


def fail(args: argparse.Namespace, error: CommandError, command: str) -> int:
    """Report ``error`` of ``mtcompute COMMAND`` and give its exit status: a data error as
    the JSON error envelope on standard output under ``--format json``, else one line on
    standard error."""
    if error.exit_code == EXIT_DATA_ERROR and args.format == "json":
        envelope = {"error": {"code": error.code, "message": error.message, "path": ""}}
        sys.stdout.buffer.write(dumps(envelope).encode("utf-8") + b"\n")
    else:
        sys.stderr.write(f"mtcompute {command}: error: {error.message}\n")
    return error.exit_code
