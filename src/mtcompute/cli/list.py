"""``mtcompute list``: every tool id, version and one-line description (text or JSON)."""

from __future__ import annotations

import argparse

from mtcompute import dumps
from mtcompute.catalog import catalog_entries
from mtcompute.cli._common import EXIT_OK, Subparsers, write

__all__ = ["add_parser", "run"]


def add_parser(subparsers: Subparsers) -> None:
    """Register ``list [--json]``."""
    parser = subparsers.add_parser(
        "list",
        help="list the tools and versions",
        description="List every tool id, version and one-line description.",
        epilog="example:\n  mtcompute list\n  mtcompute list --json",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--json", action="store_true", help="print the list as JSON")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Print the tools: aligned columns, or one JSON array with ``--json``."""
    entries = catalog_entries()
    if args.json:
        write(dumps([entry.summary() for entry in entries]))
        return EXIT_OK
    width = max(len(entry.id) for entry in entries)
    for entry in entries:
        write(f"{entry.id:<{width}}  {entry.version}  {entry.description}")
    return EXIT_OK
