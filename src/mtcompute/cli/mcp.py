"""``mtcompute mcp``: the MCP server on stdin/stdout, for desktop agents."""

from __future__ import annotations

import argparse

from mtcompute.cli._common import EXIT_OK, Subparsers

__all__ = ["add_parser", "run"]


def add_parser(subparsers: Subparsers) -> None:
    """Register ``mcp`` (no options)."""
    parser = subparsers.add_parser(
        "mcp",
        help="run the MCP server over stdio (for desktop agents)",
        description="Run the MCP server on stdin/stdout. Tools: execute, list_catalog, "
        "get_contract.",
        epilog='example (an MCP client config):\n  {"command": "mtcompute", "args": ["mcp"]}',
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.set_defaults(func=run)


def run(_args: argparse.Namespace) -> int:
    """Serve MCP on stdio until stdin closes."""
    # Imported here, not at the top: the MCP SDK (with pydantic and anyio) takes about a
    # second to import, and every mtcompute command imports this module to build its parser
    # (`mtcompute score` has a 100 ms budget for its whole process).
    from mtcompute.server.mcp import run_stdio  # noqa: PLC0415

    run_stdio()
    return EXIT_OK
