"""``mtcompute describe``: a tool's contract document, printed exactly as shipped."""

from __future__ import annotations

__all__ = ["add_parser", "run"]

import argparse

from mtcompute.cli._common import EXIT_OK, Subparsers, add_command, write

_TEXTS = (  # help, description, epilog
    "print a tool's contract (JSON)",
    "Print the machine-readable contract of TOOL at VERSION, as shipped; VERSION latest is "
    "the newest version (the contract's own version field says which).",
    "example:\n  mtcompute describe bleu-smoothing-compute 1.0.0\n"
    "  mtcompute describe sacrebleu-score latest",
)


def add_parser(subparsers: Subparsers) -> None:
    """Register ``describe TOOL VERSION``."""
    parser = add_command(subparsers, "describe", run, _TEXTS)
    parser.add_argument("tool", metavar="TOOL")
    parser.add_argument("version", metavar="VERSION", help="tool version, e.g. 1.0.0, or latest")


def run(args: argparse.Namespace) -> int:
    """Print the contract; a not_found envelope (exit 1) for an unknown tool or version."""
    from mtcompute.catalog import catalog_entry  # noqa: PLC0415
    from mtcompute.envelope import Envelope  # noqa: PLC0415
    from mtcompute.errors import NotFound  # noqa: PLC0415

    try:
        entry = catalog_entry(args.tool, args.version)
    except NotFound as error:
        envelope = Envelope.of_error(error)
        write(envelope.json_text())
        return envelope.exit_code
    write(entry.text)
    return EXIT_OK
