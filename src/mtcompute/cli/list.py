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
        help="only the tools that match QUERY (a task in words, in any of ten languages), "
        "best match first, each with the lines that matched; says when no tool does it",
    )


def _search(query: str, as_json: bool) -> int:
    from mtcompute.core.jsjson import dumps  # noqa: PLC0415
    from mtcompute.search import MAX_QUERY_LENGTH, search_answer  # noqa: PLC0415

    if len(query) > MAX_QUERY_LENGTH:
        return usage_error(
            f"--search: expected at most {MAX_QUERY_LENGTH} characters, got {len(query)}"
        )
    answer = search_answer(query)
    if as_json:
        write(dumps(answer.as_json()))
        return EXIT_OK
    if not answer.supported:
        write(f"Not supported: {answer.reason}")
        write(f"The catalog computes: {', '.join(answer.metrics)}.")
    if not answer.results:
        return EXIT_OK
    width = max(len(result.hit.entry.id) for result in answer.results)
    heading = False
    for result in answer.results:
        if result.alternative and not heading:
            write("Alternatives, not a fit:" if answer.supported else "Nearest alternatives:")
            heading = True
        hit = result.hit
        write(f"{hit.entry.id:<{width}}  {hit.entry.version}  {hit.entry.description}")
        if result.note is not None:
            write(f"    note: {result.note}")
        for line in hit.lines:
            if line.field != "id":
                source = f" (from {line.source})" if line.source else ""
                write(f"    {line.field}{source}: {line.text}")
    return EXIT_OK


def run(args: argparse.Namespace) -> int:
    """Print the tools: aligned columns, or one JSON array with ``--json``; with ``--search``,
    whether a tool does it (and why not), the matching tools, ranked, the fits first, with
    their matched lines (JSON: the ``search_catalog`` answer)."""
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
