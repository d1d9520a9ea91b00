"""``python -m mtcompute.sacrebleu``: sacreBLEU 2.6.0's command line, as ``python -m
sacrebleu`` runs it: the parser and the work of ``mtcompute sacrebleu``
(:mod:`mtcompute.cli.sacrebleu`), its program name that of the script (``__main__.py``, as
argparse names sacreBLEU's) and ``--version`` printing ``<program> 2.6.0`` as sacreBLEU's."""

from __future__ import annotations

__all__ = ["main"]

import argparse
import sys
from collections.abc import Sequence

from mtcompute.cli import sacrebleu as command
from mtcompute.cli._common import EXIT_OK


def build_parser() -> argparse.ArgumentParser:
    """The parser of ``mtcompute sacrebleu``, standing alone under the script's name."""
    subparsers = argparse.ArgumentParser().add_subparsers()
    command.add_parser(subparsers)
    parser: argparse.ArgumentParser = subparsers.choices["sacrebleu"]
    parser.prog = argparse.ArgumentParser().prog  # the script's name, as argparse gives it
    for action in parser._actions:
        if isinstance(action, argparse._VersionAction):
            action.version = f"%(prog)s {command.SACREBLEU_VERSION}"
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Parse ``argv`` (default ``sys.argv[1:]``), run sacreBLEU's command, return its exit
    status."""
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args))
    except BrokenPipeError:  # the reader went away (`| head`): as `mtcompute sacrebleu`
        return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
