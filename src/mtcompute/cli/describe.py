"""``mtcompute describe``: a tool's contract document, printed exactly as shipped."""

from __future__ import annotations

import argparse

from mtcompute.catalog import catalog_entry
from mtcompute.cli._common import EXIT_OK, Subparsers, write
from mtcompute.envelope import Envelope
from mtcompute.errors import NotFound

__all__ = ["add_parser", "run"]


def add_parser(subparsers: Subparsers) -> None:
    """Register ``describe TOOL VERSION``."""
    parser = subparsers.add_parser(
        "describe",
        help="print a tool's contract (JSON)",
        description="Print the machine-readable contract of TOOL at VERSION, as shipped.",
        epilog="example:\n  mtcompute describe bleu-smoothing-compute 1.0.0",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("tool", metavar="TOOL")
    parser.add_argument("version", metavar="VERSION")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Print the contract; a not_found envelope (exit 1) for an unknown tool or version."""
    try:
        entry = catalog_entry(args.tool, args.version)
    except NotFound as error:
        envelope = Envelope.of_error(error)
        write(envelope.json_text())
        return envelope.exit_code
    write(entry.text)
    return EXIT_OK
