"""Catalog search (mtcompute.search): the folding of every language the contracts use, the
referrals of unsupported lines, the ranking's quality on the shipped phrasings, and the
index following whatever contracts the catalog holds."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from mtcompute.catalog import catalog_entries
from mtcompute.search import (
    MAX_MATCHED_LINES,
    CatalogIndex,
    MatchedLine,
    catalog_index,
    documents_entries,
    search_catalog,
    terms,
)

QUERIES_FILE = Path(__file__).resolve().parents[1] / "data" / "search_queries.json"
QUERIES: list[dict[str, str]] = json.loads(QUERIES_FILE.read_text(encoding="utf-8"))["queries"]
LANGUAGES = ("en", "he", "de", "fr", "es", "zh", "ja")


def _document(tool_id: str, **fields: Any) -> dict[str, Any]:
    """A minimal contract document for an index outside the registry."""
    return {
        "id": tool_id,
        "version": "1.0.0",
        "description": "",
        "supported_operations": [],
        "unsupported_operations": [],
        **fields,
    }


def _index(*documents: dict[str, Any]) -> CatalogIndex:
    """An index of the registry's catalog plus ``documents``."""
    return CatalogIndex([*catalog_entries(), *documents_entries(documents)])


def _ranks(index: CatalogIndex) -> list[tuple[str, str, int | None]]:
    """(language, query, rank of the expected tool or None) for the shipped phrasings whose
    tool the index holds."""
    known = {entry.id for entry in index.entries}
    out = []
    for item in QUERIES:
        if item["expected"] in known:
            ranked = [hit.entry.id for hit in index.search(item["query"])]
            rank = ranked.index(item["expected"]) + 1 if item["expected"] in ranked else None
            out.append((item["lang"], item["query"], rank))
    return out


def test_terms_fold_case_diacritics_and_niqqud() -> None:
    """Case, Latin diacritics and Hebrew points fold away; chrF++ and "chrF plus plus" are one
    term, chrF+ another, chrF a third."""
    assert [
        ["ubersetzung", "popovic"],
        ["חישוב"],
        ["chrfpp", "chrfpp", "chrfp", "chrf"],
    ] == [
        terms("Übersetzung POPOVIĆ"),
        terms("חִישּׁוּב"),
        terms("chrF++ chrF plus plus chrF+ chrF"),
    ]


def test_terms_strip_hebrew_prefixes() -> None:
    """A Hebrew word is also indexed without a one-letter prefix, and without a he after it."""
    assert (["לחישוב", "חישוב"], ["והחלקה", "החלקה", "חלקה"], ["של"]) == (
        terms("לחישוב"),
        terms("והחלקה"),
        terms("של"),
    )


def test_terms_cut_cjk_into_bigrams() -> None:
    """Han and kana runs become overlapping bigrams (a single character stays), apart from
    the Latin letters beside them; kana voicing marks are kept."""
    assert (["计算", "算分", "分数", "bleu"], ["ス", "13a"], ["が"]) == (
        terms("计算分数BLEU"),
        terms("ス13a"),
        terms("が"),
    )


def test_unsupported_line_that_names_a_tool_ranks_that_tool() -> None:
    """A line "X (use T)" of another tool matches for T, listed with the tool it is from; the
    tool that does not support X gets no score from its own line."""
    index = _index(
        _document("zz-probe", unsupported_operations=["frobnicating quarks (use zz-target)"]),
        _document("zz-target", description="Something else entirely."),
    )
    hits = index.search("frobnicating quarks")
    assert [
        (
            "zz-target",
            [MatchedLine("referred_by", "frobnicating quarks (use zz-target)", "zz-probe")],
        ),
        ("zz-probe", [MatchedLine("unsupported", "frobnicating quarks (use zz-target)")]),
    ] == [(hit.entry.id, list(hit.lines)) for hit in hits]
    assert (True, 0.0) == (hits[0].score > 0, hits[1].score)


def test_a_referral_is_the_clause_that_names_the_tool() -> None:
    """Only the clause around the named tool points to it: words after it in the same line
    do not rank the named tool."""
    index = _index(
        _document(
            "zz-probe",
            unsupported_operations=["quorbing widgets (zz-target does them), zindling gizmos"],
        ),
        _document("zz-target"),
    )
    assert (["zz-target", "zz-probe"], ["zz-probe"]) == (
        [hit.entry.id for hit in index.search("quorbing widgets")],
        [hit.entry.id for hit in index.search("zindling gizmos")],
    )


def test_index_covers_a_contract_added_at_run_time() -> None:
    """A tool the registry did not have is found by its own lines (no tool list is fixed)."""
    index = _index(
        _document(
            "paired-significance",
            description="Test whether MT systems really differ from a baseline.",
            supported_operations=["paired bootstrap resampling with p-values"],
        )
    )
    assert "paired-significance" == index.search("paired bootstrap p-values")[0].entry.id


def test_query_without_terms_matches_nothing() -> None:
    """An empty query, punctuation or function words alone match no tool."""
    assert [(), (), (), ()] == [search_catalog(q) for q in ("", "  ", "?!", "the of and")]


def test_fts_syntax_in_a_query_is_plain_text() -> None:
    """FTS5 operators and quotes in a query are searched as words, never parsed."""
    expected = [hit.entry.id for hit in search_catalog("chrF NEAR score")]
    assert expected == [hit.entry.id for hit in search_catalog('chrF" NEAR( score*')]


def test_newest_version_of_each_tool_once() -> None:
    """Each tool id is ranked once, at its newest version."""
    hits = search_catalog("sacreBLEU TER score line and signature")
    ids = [hit.entry.id for hit in hits]
    assert (len(set(ids)), "1.1.0") == (
        len(ids),
        next(hit.entry.version for hit in hits if hit.entry.id == "sacrebleu-score"),
    )


def test_results_list_the_matched_lines_best_first() -> None:
    """The seed's own phrasing finds its tool first, with that line first, and at most
    MAX_MATCHED_LINES lines per result."""
    hits = search_catalog("why did my sentence get a low BLEU")
    assert (
        "bleu-sentence-components",
        {"field": "supported", "text": "why did my sentence get a low BLEU"},
        [],
    ) == (
        hits[0].entry.id,
        hits[0].as_json()["matched"][0],
        [hit.entry.id for hit in hits if len(hit.lines) > MAX_MATCHED_LINES],
    )


def test_search_json_shape() -> None:
    """A result is id, version, description, score and matched lines."""
    hit = search_catalog("chrF3 with beta 3")[0].as_json()
    assert (["id", "version", "description", "score", "matched"], "chrf-compute") == (
        list(hit),
        hit["id"],
    )


def test_test_set_covers_every_tool_and_language() -> None:
    """The shipped phrasings name every tool of the catalog and every language listed."""
    tools = {entry.id for entry in catalog_entries()}
    assert (set(), set(LANGUAGES)) == (
        tools - {item["expected"] for item in QUERIES},
        {item["lang"] for item in QUERIES},
    )


def test_ranking_quality_on_the_shipped_phrasings() -> None:
    """The expected tool is first for at least 9 in 10 phrasings, in the top three for all."""
    ranks = _ranks(catalog_index())
    first = sum(1 for _, _, rank in ranks if rank == 1)
    outside = [(lang, query, rank) for lang, query, rank in ranks if rank is None or rank > 3]
    assert (True, []) == (first >= 0.9 * len(ranks), outside), f"{first} of {len(ranks)} first"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_language_finds_its_tools(lang: str) -> None:
    """In every language of the set, each phrasing's tool is in the top three."""
    ranks = [(query, rank) for lang_, query, rank in _ranks(catalog_index()) if lang_ == lang]
    assert (True, []) == (
        bool(ranks),
        [(query, rank) for query, rank in ranks if rank is None or rank > 3],
    )
