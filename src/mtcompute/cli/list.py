"""``mtcompute list``: every tool id, version and one-line description (text or JSON), or
with ``--search`` the tools that fit a task, ranked (:mod:`mtcompute.search`, the same search
as the MCP tool ``search_catalog`` and ``GET /v1/tools?q=``)."""

from __future__ import annotations

__all__ = ["add_parser", "run"]

import argparse

from mtcompute.cli._common import EXIT_OK, Subparsers, add_command, usage_error, write

_TEXTS = (  # help, description, epilog
    "list the tools and versions",
    "List every tool id, version and one-line description (a superseded version names the "
    "version that supersedes it), or search the catalog.",
    "example:\n  mtcompute list\n  mtcompute list --json\n"
    '  mtcompute list --search "why did my sentence get a low BLEU"',
)


def add_parser(subparsers: Subparsers) -> None:
    """Register ``list [--json] [--search QUERY]``."""
    parser = add_command(subparsers, "list", run, _TEXTS)
    parser.add_argument("--json", action="store_true", help="print the list as JSON")
    parser.add_argument(
        "--search",
        metavar="QUERY",
        help="only the tools that match QUERY (a task in words), best match first, each with "
        "the contract lines that matched",
    )


def _search(query: str, as_json: bool) -> int:
    from mtcompute.core.jsjson import dumps  # noqa: PLC0415
    from mtcompute.search import MAX_QUERY_LENGTH, search_catalog  # noqa: PLC0415

    if len(query) > MAX_QUERY_LENGTH:
        return usage_error(
            f"--search: expected at most {MAX_QUERY_LENGTH} characters, got {len(query)}"
        )
    hits = search_catalog(query)
    if as_json:
        write(dumps({"query": query, "results": [hit.as_json() for hit in hits]}))
        return EXIT_OK
    if not hits:
        write(f"No tool matches {query!r}.")
        return EXIT_OK
    width = max(len(hit.entry.id) for hit in hits)
    for hit in hits:
        write(f"{hit.entry.id:<{width}}  {hit.entry.version}  {hit.entry.description}")
        for line in hit.lines:
            if line.field != "id":
                source = f" (from {line.source})" if line.source else ""
                write(f"    {line.field}{source}: {line.text}")
    return EXIT_OK


def run(args: argparse.Namespace) -> int:
    """Print the tools: aligned columns, or one JSON array with ``--json``; with ``--search``,
    the matching tools, ranked, with their matched lines (JSON: the ``search_catalog``
    answer)."""
    from mtcompute.catalog import catalog_entries  # noqa: PLC0415
    from mtcompute.core.jsjson import dumps  # noqa: PLC0415

    if args.search is not None:
        return _search(args.search, args.json)
    entries = catalog_entries()
    if args.json:  # with each version's status and superseded_by, as GET /v1/tools
        write(dumps([{**entry.summary(), **entry.version_status()} for entry in entries]))
        return EXIT_OK
    width = max(len(entry.id) for entry in entries)
    for entry in entries:
        # A superseded version's line ends with the version that supersedes it.
        note = f" (superseded by {entry.superseded_by})" if entry.superseded_by else ""
        write(f"{entry.id:<{width}}  {entry.version}  {entry.description}{note}")
    return EXIT_OK
