"""``mtcompute mcp``: the MCP server on stdin/stdout, for desktop agents."""

from __future__ import annotations

__all__ = ["add_parser", "run"]

import argparse

from mtcompute.cli._common import EXIT_OK, Subparsers, add_command, missing_extra, usage_error

_TEXTS = (  # help, description, epilog
    "run the MCP server over stdio (for desktop agents)",
    "Run the MCP server on stdin/stdout. Tools: execute, list_catalog, get_contract.",
    'example (an MCP client config):\n  {"command": "mtcompute", "args": ["mcp"]}',
)


def add_parser(subparsers: Subparsers) -> None:
    """Register ``mcp`` (no options)."""
    add_command(subparsers, "mcp", run, _TEXTS)


def run(_args: argparse.Namespace) -> int:
    """Serve MCP on stdio until stdin closes."""
    problem = missing_extra("mtcompute mcp")
    if problem is not None:
        return usage_error(problem)
    # Imported here, not at the top: the MCP SDK (with pydantic and anyio) takes about a
    # second to import, and every mtcompute command imports this module to build its parser
    # (`mtcompute score` has a 100 ms budget for its whole process).
    from mtcompute.server.mcp import run_stdio  # noqa: PLC0415

    run_stdio()
    return EXIT_OK
