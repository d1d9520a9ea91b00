"""``mtcompute list --search``: the catalog search on the command line, as a subprocess."""

from __future__ import annotations

import json

import mtcompute
from mtcompute.search import search_answer, search_catalog
from tests.conftest import run_cli

QUERY = "why did my sentence get a low BLEU"


def test_list_search_json_is_the_search_answer() -> None:
    """--search with --json prints the search's answer (every match) and exits 0."""
    proc = run_cli("list", "--search", QUERY, "--json")
    expected = search_answer(QUERY).as_json()
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
    """A query nothing matches says that no tool does it, why, and what the catalog
    computes, and exits 0."""
    proc = run_cli("list", "--search", "zzxq")
    expected = (
        "Not supported: No tool here matches this query closely enough: its words name "
        "nothing the catalog does (it computes BLEU, chrF, chrF++, TER, WER and CER).\n"
        "The catalog computes: BLEU, chrF, chrF++, TER, WER, CER.\n"
    )
    assert (0, expected) == (proc.returncode, proc.stdout.decode())


def test_list_search_no_tool_does_this() -> None:
    """A query for something no tool does (COMET) prints supported: false's reason, the
    catalog's metrics, and the tools only under "Nearest alternatives", the first with its
    note; with --json, supported false and every result an alternative."""
    query = "COMET-Score meiner Übersetzungen berechnen"
    answer = search_answer(query)
    text = run_cli("list", "--search", query).stdout.decode().splitlines()
    data = json.loads(run_cli("list", "--search", query, "--json").stdout)
    assert (
        [
            "Not supported: COMET is a neural metric (a trained model); no tool here computes it.",
            "The catalog computes: BLEU, chrF, chrF++, TER, WER, CER.",
            "Nearest alternatives:",
        ],
        "chrf-compute",
        f"    note: {answer.results[0].note}",
        (False, ["COMET"], []),
    ) == (
        text[:3],
        text[3].split()[0],
        text[4],
        (
            data["supported"],
            [thing["name"] for thing in data["not_done"]],
            [r["id"] for r in data["results"] if not r["alternative"]],
        ),
    )


def test_list_search_marks_the_alternatives_after_the_fits() -> None:
    """A supported query lists its fits first, then its other matches under "Alternatives,
    not a fit"."""
    query = "sentence-level BLEU"
    answer = search_answer(query)
    text = run_cli("list", "--search", query).stdout.decode().splitlines()
    heads = [line.split()[0] for line in text if not line.startswith(" ")]
    fits = [r.hit.entry.id for r in answer.fits]
    others = [r.hit.entry.id for r in answer.results if r.alternative]
    assert (True, [*fits, "Alternatives,", *others]) == (bool(fits and others), heads)


def test_list_search_too_long_is_a_usage_error() -> None:
    """A query over 500 characters is a usage error (exit 2) naming the option."""
    proc = run_cli("list", "--search", "b" * 501)
    expected = b"mtcompute: error: --search: expected at most 500 characters, got 501\n"
    assert (2, b"", expected) == (proc.returncode, proc.stdout, proc.stderr)
