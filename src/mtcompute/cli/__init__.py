"""The ``mtcompute`` command: thin adapters over the library, one module per sub-command.

Each command module (:mod:`~mtcompute.cli.run`, :mod:`~mtcompute.cli.list`,
:mod:`~mtcompute.cli.describe`, :mod:`~mtcompute.cli.serve`, :mod:`~mtcompute.cli.mcp`,
:mod:`~mtcompute.cli.score`, ...) has ``add_parser(subparsers)``, which declares its options to
argparse, and ``run(args)``, which does the work and returns the exit status;
:mod:`~mtcompute.cli._common` holds what they share (exit statuses, reading an input,
printing, usage errors). This module builds the parser and dispatches.

A command builds only its own parser (:func:`build_parser` with its name), so running
``score`` neither imports the other command modules nor declares their options; the help
of ``mtcompute`` and an unknown command build them all. The command modules hold parsers
and little else: ``score`` and ``sacrebleu`` keep their work in modules their ``run()``
imports (``_score_run``, ``_sacrebleu_run`` and the modules those import), which ``--help``
never loads (tests/test_startup.py checks it).

Exit status: 0 when a result is printed, 1 on a tool error (the envelope is still printed on
stdout), 2 on a usage error (message on stderr).
"""

from __future__ import annotations

__all__ = ["build_parser", "description", "main"]

import argparse
import errno
import importlib
import os
import sys
from collections.abc import Sequence

from mtcompute import __version__
from mtcompute.cli._common import EXIT_OK, EXIT_TOOL_ERROR

# The sub-commands in the order of ``mtcompute --help``: each is the module of its name.
COMMANDS = ("run", "list", "describe", "serve", "mcp", "score", "sacrebleu", "compare", "doctor")


class _Parser(argparse.ArgumentParser):
    """The top-level parser. Its description is made from the catalog when the help is
    printed, so that the other commands do not read the catalog."""

    def format_help(self) -> str:
        self.description = description()
        return super().format_help()


def description() -> str:
    """What the catalog is and its tools by what they take, generated from the catalog (which
    lists the contract files and parses none, so ``--help`` stays quick)."""
    import textwrap  # noqa: PLC0415 (only the help wraps text)

    from mtcompute.catalog_text import (  # noqa: PLC0415
        group_lines,
        raw_text_advice,
        summary_sentence,
    )

    fill = textwrap.TextWrapper(78, break_on_hyphens=False).fill
    item = textwrap.TextWrapper(
        78, initial_indent="  ", subsequent_indent="    ", break_on_hyphens=False
    ).fill
    tools = "\n".join(item(line) for line in group_lines(summaries=False))
    return (
        f"{fill(summary_sentence())}\n\ntools by what they take:\n{tools}\n\n"
        f"{fill(raw_text_advice())}"
    )


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The argument parser: one sub-command per verb, each with an example; only
    ``command``'s when it names one (what parsing that command's arguments needs), else
    all of them."""
    parser = _Parser(
        prog="mtcompute",
        epilog="examples:\n  mtcompute list\n  mtcompute describe chrf-compute 1.0.0\n"
        "  mtcompute run chrf-compute 1.0.0 --input input.json\n"
        "Run 'mtcompute COMMAND --help' for each command.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"mtcompute {__version__}")
    # The commands' parsers are plain ones: each has its own description, not the catalog's.
    subparsers = parser.add_subparsers(
        dest="command", required=True, metavar="COMMAND", parser_class=argparse.ArgumentParser
    )
    for name in [name for name in COMMANDS if name == command] or COMMANDS:
        importlib.import_module(f"mtcompute.cli.{name}").add_parser(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``mtcompute`` console script: parse ``argv`` (default
    ``sys.argv[1:]``), run the command, return its exit status."""
    if argv is None:
        argv = sys.argv[1:]
    args = build_parser(argv[0] if argv else None).parse_args(argv)
    if sys.stdout is None and args.command != "serve":
        # Started with standard output closed (``>&-``): Python has nothing to write it to.
        return _cannot_write("standard output is closed")
    try:
        code: int = args.func(args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return EXIT_OK
    except OSError as exc:
        if exc.errno not in _FULL:
            raise
        # The output cannot be written (a full disk, /dev/full): say so, not a traceback,
        # and let nothing more be written to it at exit.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return _cannot_write(str(exc.strerror))
    return code


def _cannot_write(reason: str) -> int:
    """Say on standard error (when there is one) that the output cannot be written, and
    why; the exit status."""
    if sys.stderr is not None:
        sys.stderr.write(f"mtcompute: error: cannot write the output: {reason}\n")
    return EXIT_TOOL_ERROR


# What writing the output can fail with that no input of a command causes: no space left,
# a file grown past its limit, a disk quota reached.
_FULL = (errno.ENOSPC, errno.EFBIG, errno.EDQUOT)
