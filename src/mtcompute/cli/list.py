"""``mtcompute list``: every tool id, version and one-line description (text or JSON)."""

from __future__ import annotations

__all__ = ["add_parser", "run"]

import argparse

from mtcompute import dumps
from mtcompute.catalog import catalog_entries
from mtcompute.cli._common import EXIT_OK, Subparsers, add_command, write

_TEXTS = (  # help, description, epilog
    "list the tools and versions",
    "List every tool id, version and one-line description.",
    "example:\n  mtcompute list\n  mtcompute list --json",
)


def add_parser(subparsers: Subparsers) -> None:
    """Register ``list [--json]``."""
    parser = add_command(subparsers, "list", run, _TEXTS)
    parser.add_argument("--json", action="store_true", help="print the list as JSON")


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
