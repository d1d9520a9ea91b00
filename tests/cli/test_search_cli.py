"""``mtcompute list --search``: the catalog search on the command line, as a subprocess."""

from __future__ import annotations

import mtcompute
from mtcompute.search import search_catalog
from tests.conftest import run_cli

QUERY = "why did my sentence get a low BLEU"


def test_list_search_json_is_the_search_answer() -> None:
    """--search with --json prints the search_catalog answer (every match) and exits 0."""
    proc = run_cli("list", "--search", QUERY, "--json")
    expected = {"query": QUERY, "results": [hit.as_json() for hit in search_catalog(QUERY)]}
    assert (0, mtcompute.dumps(expected).encode() + b"\n", b"") == (
        proc.returncode,
        proc.stdout,
        proc.stderr,
    )


def test_list_search_text_lists_the_tools_and_their_lines() -> None:
    """--search prints each matching tool as list does, best first, its matched lines
    indented under it."""
    hits = search_catalog("קנס הקיצור")
    width = max(len(hit.entry.id) for hit in hits)
    lines = []
    for hit in hits:
        lines.append(f"{hit.entry.id:<{width}}  {hit.entry.version}  {hit.entry.description}")
        lines += [
            f"    {line.field}{f' (from {line.source})' if line.source else ''}: {line.text}"
            for line in hit.lines
            if line.field != "id"
        ]
    proc = run_cli("list", "--search", "קנס הקיצור")
    assert (0, "\n".join(lines) + "\n", "bleu-brevity-penalty") == (
        proc.returncode,
        proc.stdout.decode(),
        hits[0].entry.id,
    )


def test_list_search_without_a_match() -> None:
    """A query nothing matches says so and exits 0."""
    proc = run_cli("list", "--search", "zzxq")
    assert (0, b"No tool matches 'zzxq'.\n") == (proc.returncode, proc.stdout)


def test_list_search_too_long_is_a_usage_error() -> None:
    """A query over 500 characters is a usage error (exit 2) naming the option."""
    proc = run_cli("list", "--search", "b" * 501)
    expected = b"mtcompute: error: --search: expected at most 500 characters, got 501\n"
    assert (2, b"", expected) == (proc.returncode, proc.stdout, proc.stderr)
