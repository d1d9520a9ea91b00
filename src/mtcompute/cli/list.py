"""``mtcompute list``: every tool id, version and one-line description (text or JSON)."""

from __future__ import annotations

import argparse

from mtcompute import dumps
from mtcompute.cli._common import EXIT_OK, Subparsers, write
from mtcompute.contracts import contract
from mtcompute.tools import list_tools

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
    tools = list_tools()
    if args.json:
        write(
            dumps(
                [
                    {
                        "id": t.id,
                        "version": t.version,
                        "description": contract(t.id, t.version)["description"],
                    }
                    for t in tools
                ]
            )
        )
        return EXIT_OK
    width = max(len(t.id) for t in tools)
    for t in tools:
        write(f"{t.id:<{width}}  {t.version}  {contract(t.id, t.version)['description']}")
    return EXIT_OK
