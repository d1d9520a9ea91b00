"""What the command modules share: exit statuses, reading an input, printing, usage errors."""

from __future__ import annotations

__all__ = [
    "EXIT_OK",
    "EXIT_TOOL_ERROR",
    "EXIT_USAGE",
    "STDIN",
    "Subparsers",
    "add_command",
    "read_input",
    "usage_error",
    "write",
]

import argparse
import sys
from collections.abc import Callable
from typing import TypeAlias

EXIT_OK, EXIT_TOOL_ERROR, EXIT_USAGE = 0, 1, 2
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
