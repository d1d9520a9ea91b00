"""Catalog search: which tool fits a task, ranked by BM25 over the contracts' own lines.

One implementation behind every surface (the MCP tool ``search_catalog``, ``GET
/v1/tools?q=``, the search box of ``/``, ``mtcompute list --search``). The index is SQLite
FTS5 (the standard library's ``sqlite3``), built in memory from the catalog the first time
it is searched, so it covers whatever contracts the registry holds at run time; nothing is
downloaded and no model is used.

What is indexed, per tool id (its newest version), one FTS5 row with a column per field and
BM25 (Robertson and Zaragoza 2009; FTS5's ``bm25()``) with field weights:

- ``id`` (the id split at ``-``), weight 4;
- ``description``, weight 2;
- ``use_when``, the first three supported operations (what the pages show under "Use when
  you need to"), weight 2;
- ``supported``, the other supported operations, weight 1.5;
- ``referred_by``, the unsupported lines of *other* tools that name this tool ("counting
  n-grams from text (use bleu-sentence-components first)" is a line for
  bleu-sentence-components), weight 1;
- ``concepts``, the tool's phrases in ``search_terms.json``: metric names and spellings and
  tasks ("sentence-level score", "significance", "edit rate", "tokenize", "brevity
  penalty", ...) in English, German, French, Spanish, Italian, Portuguese, Russian,
  Chinese, Japanese and Korean, weight 2, so that a query in any of them finds the tool;
- ``unsupported``, the tool's own unsupported lines, weight 0: they never raise a tool's
  rank (a tool that says it does not do X is no answer to X), but a tool that matches only
  there is still listed, last, with the lines that say what to use instead.

Text is folded the same way for the index and the query, for every language the contracts
use (:func:`terms`, from :mod:`mtcompute._search_terms`, which says how: Unicode folding,
``chrF++`` one term, Hebrew prefixes, runs of Han, kana and Hangul cut into bigrams); Latin
terms then go through FTS5's Porter stemmer. A query is the OR of its terms minus function
words and the words of the field itself ("translation", "machine", in every language). The
lines each result matched are found with the same folding, in a second FTS5 table of one row
per line, and listed most telling first (at most :data:`MAX_MATCHED_LINES`).

The answer every surface renders (:func:`search_answer`, :class:`SearchAnswer`) says whether
a tool does what the query asks:

- ``supported: false`` with the table's reason when the query names a metric or task of
  ``search_terms.json``'s ``not_done`` (COMET, BERTScore, METEOR, ROUGE, perplexity, human
  evaluation, word alignment, ... in the ten languages, acronyms such as WER in their case);
  the table's nearest tools come first, each with a note, and every result is marked
  ``alternative``. An entry whose name a catalog tool's description uses is dropped: the
  catalog then does it.
- ``metrics``: the metrics the catalog computes, the names of ``metric_names`` and of the
  not-done metrics that some tool's description names (so it follows the catalog).
- A tool fits (is not an ``alternative``) when its score is above 0 (a tool that matches
  only its own unsupported lines never fits) and one of its lines is evidence
  (:func:`_evidence`): at least :data:`MIN_LINE_TERMS` of the query's terms on one of its
  lines, or a whole concept phrase (not one of a group more than a third of the tools share,
  such as "score" or "évaluer"), one of its groups' acronyms in their case ("WER", not the
  German "wer"), or its id in the query. That is the relevance threshold,
  set from the project's query set (``tests/data/search_queries.json``): every phrasing
  there has such a line for its expected tool, while the off-topic phrasings reach tools
  only through one shared word ("list", "average", "order"). A score threshold could not
  separate them: an expected tool scores as little as 0.84 ("score chrF d'une traduction
  automatique"), an off-topic hit as much as 1.47 ("average of a list of numbers"), and a
  one-word query such as "BLEU" scores under 0.2, its term being in every BLEU tool. With no
  tool fitting, the answer is ``supported: false`` as well, the hits listed as alternatives.
"""

from __future__ import annotations

__all__ = [
    "FIELDS",
    "MAX_MATCHED_LINES",
    "MAX_QUERY_LENGTH",
    "MIN_LINE_TERMS",
    "TERMS_FILE",
    "CatalogIndex",
    "MatchedLine",
    "NotDone",
    "SearchAnswer",
    "SearchHit",
    "SearchResult",
    "Vocabulary",
    "catalog_index",
    "documents_entries",
    "search_answer",
    "search_catalog",
    "shipped_vocabulary",
    "terms",
]

import math
import re
import sqlite3
import threading
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from dataclasses import field as dc_field
from functools import cache
from typing import Any, Final

from mtcompute._search_terms import (
    TERMS_FILE,
    NotDone,
    Vocabulary,
    has_acronym,
    has_sequence,
    keywords,
    shipped_vocabulary,
    terms,
)
from mtcompute.catalog import CatalogEntry, catalog_entries
from mtcompute.contracts import version_key

MAX_QUERY_LENGTH: Final = 500
"""Longest query accepted, in characters (the surfaces refuse longer ones)."""
MIN_LINE_TERMS: Final = 2
"""The query's terms one line of a tool must hold to count as evidence that it fits."""
MAX_MATCHED_LINES: Final = 5
"""The matched lines a result lists: the most telling first (the sum of their matched
terms' idf), ties in contract order."""

# (column, BM25 weight), in the FTS5 table's column order.
FIELDS: Final = (
    ("id", 4.0),
    ("description", 2.0),
    ("use_when", 2.0),
    ("supported", 1.5),
    ("referred_by", 1.0),
    ("concepts", 2.0),
    ("unsupported", 0.0),
)
_USE_WHEN: Final = 3  # the first supported operations, as the pages' "Use when you need to"
_TOKENIZER: Final = "porter unicode61 remove_diacritics 2"
_WEIGHTS: Final = dict(FIELDS)
_K1: Final = 1.2
_B: Final = 0.75


def _fts_text(text: str) -> str:
    return " ".join(terms(text))


def _match_expression(query_terms: Sequence[str]) -> str:
    # Each term is one token of letters and digits, quoted: no FTS5 syntax gets through.
    return " OR ".join(f'"{term}"' for term in query_terms)


@dataclass(frozen=True, slots=True)
class MatchedLine:
    """One contract line a query matched: its field, its text, and for ``referred_by`` the
    tool whose unsupported line it is."""

    field: str
    text: str
    source: str | None = None
    indexed: str = dc_field(default="", compare=False, repr=False)
    """The part of ``text`` that is indexed when not all of it (a referral's clause)."""

    def as_json(self) -> dict[str, str]:
        """``{"field", "text"}``, with ``"from"`` for a line of another tool's contract."""
        data = {"field": self.field, "text": self.text}
        if self.source is not None:
            data["from"] = self.source
        return data


@dataclass(frozen=True, slots=True)
class SearchHit:
    """One ranked tool: its catalog entry (the newest version), BM25 score (higher is
    better; 0 when only its own unsupported lines matched) and the lines that matched."""

    entry: CatalogEntry
    score: float
    lines: tuple[MatchedLine, ...]
    relevant: bool = dc_field(default=False, compare=False)
    """Whether it fits the query (:func:`_relevant`): not part of its JSON."""

    def as_json(self) -> dict[str, Any]:
        """``{"id", "version", "description", "score", "matched": [...]}``."""
        return {
            **self.entry.summary(),
            "score": self.score,
            "matched": [line.as_json() for line in self.lines],
        }


def _newest(entries: Iterable[CatalogEntry]) -> list[CatalogEntry]:
    """The newest version of each tool id, in first-appearance (catalog) order."""
    newest: dict[str, CatalogEntry] = {}
    for entry in entries:
        known = newest.get(entry.id)
        if known is None or version_key(entry.version) > version_key(known.version):
            newest[entry.id] = entry
    return list(newest.values())


def _referrals(line: str, ids: Sequence[str]) -> dict[str, str]:
    """The tool ids an unsupported line names, each with the clause that points to it.

    The clause runs from the line's start, or from the end of the previous parenthesis, to the
    end of the parenthesis the id stands in: in "sentence-level scores (ter-compute gives TER
    per segment), bootstrap resampling or paired significance tests" the clause for
    ter-compute is "sentence-level scores (ter-compute gives TER per segment)". An id outside
    parentheses gets the whole line.
    """
    found: dict[str, str] = {}
    for tool_id in ids:
        match = re.search(rf"(?<![\w-]){re.escape(tool_id)}(?![\w-])", line)
        if match is None:
            continue
        opening = line.rfind("(", 0, match.start())
        closing = line.find(")", match.end())
        if opening < 0 or closing < 0 or ")" in line[opening : match.start()]:
            found[tool_id] = line
            continue
        previous = line.rfind(")", 0, opening)
        found[tool_id] = line[previous + 1 : closing + 1].lstrip(" ,;")
    return found


class CatalogIndex:
    """An in-memory FTS5 index of catalog entries (the newest version of each id)."""

    def __init__(
        self, entries: Iterable[CatalogEntry], vocabulary: Vocabulary | None = None
    ) -> None:
        self.entries = _newest(entries)
        self.vocabulary = vocabulary if vocabulary is not None else shipped_vocabulary()
        self._order = {entry.id: n for n, entry in enumerate(self.entries)}
        ids = [entry.id for entry in self.entries]
        lines: dict[str, list[MatchedLine]] = {i: [] for i in ids}
        for entry in self.entries:
            own = lines[entry.id]
            own.append(MatchedLine("id", entry.id))
            own.append(MatchedLine("description", entry.description))
            for n, text in enumerate(entry.supported_operations):
                own.append(MatchedLine("use_when" if n < _USE_WHEN else "supported", text))
            for text in entry.unsupported_operations:
                own.append(MatchedLine("unsupported", text))
                for target, clause in _referrals(text, ids).items():
                    if target != entry.id:
                        lines[target].append(MatchedLine("referred_by", text, entry.id, clause))
        for tool_id in ids:  # last: a contract line goes first when it matches as well
            lines[tool_id] += [
                MatchedLine("concepts", text) for text in self.vocabulary.concepts.get(tool_id, ())
            ]
        self._lines = lines
        self._lock = threading.Lock()  # the probe table is written by every search
        # check_same_thread=False: searches run on the event loop and on worker threads,
        # one at a time (the lock).
        self._db = sqlite3.connect(":memory:", check_same_thread=False)
        columns = ", ".join(name for name, _ in FIELDS)
        self._db.executescript(
            f"CREATE VIRTUAL TABLE tools USING fts5({columns}, tokenize = '{_TOKENIZER}');"
            "CREATE VIRTUAL TABLE tool_terms USING fts5vocab(tools, 'instance');"
            "CREATE VIRTUAL TABLE lines USING fts5(tool UNINDEXED, n UNINDEXED, body, "
            f"tokenize = '{_TOKENIZER}');"
            "CREATE VIRTUAL TABLE line_terms USING fts5vocab(lines, 'instance');"
            f"CREATE VIRTUAL TABLE probe USING fts5(body, tokenize = '{_TOKENIZER}');"
            "CREATE VIRTUAL TABLE probe_terms USING fts5vocab(probe, 'instance');"
        )
        for rowid, (tool_id, tool_lines) in enumerate(lines.items()):
            by_field = {
                name: "\n".join(
                    _fts_text(line.indexed or line.text)
                    for line in tool_lines
                    if line.field == name
                )
                for name, _ in FIELDS
            }
            by_field["id"] = " ".join(tool_id.split("-")) + " " + _fts_text(tool_id)
            self._db.execute(
                f"INSERT INTO tools (rowid, {columns}) VALUES (?, {', '.join('?' * len(FIELDS))})",
                (rowid, *(by_field[name] for name, _ in FIELDS)),
            )
            self._db.executemany(
                "INSERT INTO lines VALUES (?, ?, ?)",
                [
                    (tool_id, n, _fts_text(line.indexed or line.text))
                    for n, line in enumerate(tool_lines)
                ],
            )
        self._db.commit()
        self._line_stems: dict[tuple[str, int], set[str]] = {}
        for term, tool_id, n in self._db.execute(
            "SELECT term, tool, n FROM line_terms JOIN lines ON lines.rowid = line_terms.doc"
        ):
            self._line_stems.setdefault((tool_id, n), set()).add(term)
        # The postings, read back from FTS5's own vocabulary: term -> tool -> column -> tf.
        weights = dict(FIELDS)
        self._tf: dict[str, dict[int, dict[str, int]]] = {}
        lengths: dict[int, dict[str, int]] = {n: dict.fromkeys(weights, 0) for n in range(len(ids))}
        for term, doc, column, _offset in self._db.execute("SELECT * FROM tool_terms"):
            per_doc = self._tf.setdefault(term, {}).setdefault(doc, {})
            per_doc[column] = per_doc.get(column, 0) + 1
            lengths[doc][column] += 1
        self._ids = ids
        self._lengths = lengths
        self._average = {
            name: max(1.0, sum(length[name] for length in lengths.values()) / max(1, len(ids)))
            for name in weights
        }
        self._by_id = {entry.id: entry for entry in self.entries}
        self._idfs: dict[str, float] = {}
        # What the catalog does, read from its descriptions: a metric is the catalog's when a
        # tool's description names it, and then it is no longer a thing no tool does.
        described = [terms(entry.description) for entry in self.entries]
        vocabulary = self.vocabulary
        candidates = [*vocabulary.metric_names, *(n.name for n in vocabulary.not_done if n.metric)]
        self.metrics = tuple(
            dict.fromkeys(
                name
                for name in candidates
                if any(has_sequence(words, terms(name)) for words in described)
            )
        )
        self.not_done = tuple(n for n in vocabulary.not_done if n.name not in self.metrics)

    def _stems(self, query_terms: Sequence[str]) -> list[str]:
        """The query's terms as FTS5 indexes them (Porter-stemmed), first occurrence first."""
        self._db.execute("INSERT INTO probe (rowid, body) VALUES (1, ?)", (" ".join(query_terms),))
        rows = self._db.execute("SELECT term, offset FROM probe_terms").fetchall()
        self._db.execute("DELETE FROM probe")
        return list(dict.fromkeys(term for term, _ in sorted(rows, key=lambda row: row[1])))

    def _idf(self, stem: str) -> float:
        """ln(1 + (N - df + 0.5) / (df + 0.5)), df counting the tools with the term in a
        weighted field; 0 for a term in no weighted field."""
        idf = self._idfs.get(stem)
        if idf is None:
            idf = self._idfs[stem] = self._compute_idf(stem)
        return idf

    def _compute_idf(self, stem: str) -> float:
        postings = self._tf.get(stem, {})
        df = sum(1 for columns in postings.values() if any(_WEIGHTS[c] for c in columns))
        if df == 0:
            return 0.0
        return math.log(1 + (len(self._ids) - df + 0.5) / (df + 0.5))

    def _score(self, doc: int, stems: Sequence[str]) -> float:
        """BM25F: per term, the field-weighted, length-normalized term frequency saturated
        with k1, times idf = ln(1 + (N - df + 0.5) / (df + 0.5)) (always positive, unlike
        FTS5's own bm25(), which gives 0 to a term in half the tools of a small catalog)."""
        total = 0.0
        for stem in stems:
            columns = self._tf.get(stem, {}).get(doc)
            if not columns:
                continue
            tf = sum(
                _WEIGHTS[c] * count / (1 - _B + _B * self._lengths[doc][c] / self._average[c])
                for c, count in columns.items()
            )
            total += self._idf(stem) * tf / (_K1 + tf)
        return total

    def search(self, query: str, limit: int | None = None) -> tuple[SearchHit, ...]:
        """The tools matching ``query``, best first (ties in catalog order), at most ``limit``.

        A query with no term left (empty, punctuation, only function words) matches nothing.
        """
        query_terms = keywords(query)
        if not query_terms:
            return ()
        with self._lock:
            stems = self._stems(query_terms)
            matched: dict[str, list[tuple[float, int]]] = {}
            evidence: dict[str, bool] = {}
            wanted = set(self._stems(keywords(query, generic=False)))
            for tool_id, n in self._db.execute(
                "SELECT tool, n FROM lines WHERE lines MATCH ?", (_match_expression(query_terms),)
            ):
                line_stems = self._line_stems[(tool_id, n)]
                weight = sum(map(self._idf, line_stems.intersection(stems)))
                matched.setdefault(tool_id, []).append((-weight, n))
                line = self._lines[tool_id][n]
                generic = line.field == "concepts" and line.text in self.vocabulary.generic
                if not generic and _evidence(line.field, line_stems, wanted):
                    evidence[tool_id] = True
            for tool_id in matched:
                if has_acronym(query, self.vocabulary.acronyms.get(tool_id, ())):
                    evidence[tool_id] = True
        hits = []
        for doc, tool_id in enumerate(self._ids):
            if tool_id not in matched:
                continue
            score = round(self._score(doc, stems), 4)
            best = sorted(matched[tool_id])[:MAX_MATCHED_LINES]
            lines = tuple(self._lines[tool_id][n] for _, n in best)
            relevant = evidence.get(tool_id, False) and score > 0
            hits.append(SearchHit(self._by_id[tool_id], score, lines, relevant))
        hits.sort(key=lambda hit: (-hit.score, self._order[hit.entry.id]))
        return tuple(hits if limit is None else hits[:limit])

    def answer(self, query: str, limit: int | None = None) -> SearchAnswer:
        """The search's answer to ``query``: whether a tool does it, why not, the catalog's
        metrics, and the ranked tools, each a fit or only an alternative (see
        :class:`SearchAnswer`); at most ``limit`` results."""
        hits = self.search(query)
        query_terms = terms(query)
        named = tuple(n for n in self.not_done if n.named_in(query, query_terms))
        results: list[SearchResult] = []
        if named:
            listed: set[str] = set()
            for thing in named:
                for tool_id, why in thing.nearest:
                    hit = next((h for h in hits if h.entry.id == tool_id), None)
                    if tool_id in self._by_id and tool_id not in listed:
                        hit = hit or SearchHit(self._by_id[tool_id], 0.0, ())
                        note = f"Nearest alternative to {thing.name}: {why}"
                        results.append(SearchResult(hit, True, note))
                        listed.add(tool_id)
            results += [SearchResult(h, True) for h in hits if h.entry.id not in listed]
            reason: str | None = " ".join(thing.reason for thing in named)
        else:
            results = [SearchResult(h, not h.relevant) for h in hits]
            results.sort(key=lambda result: result.alternative)  # stable: the fits first
            reason = None
            if not keywords(query):
                reason = (
                    "The query has no words to search for: only punctuation, function words "
                    'or words every tool shares, such as "translation".'
                )
            elif not results or results[0].alternative:
                reason = (
                    "No tool here matches this query closely enough: its words name nothing "
                    f"the catalog does (it computes {_and(self.metrics)})."
                )
        return SearchAnswer(
            query=query,
            supported=reason is None,
            reason=reason,
            not_done=named,
            metrics=self.metrics,
            results=tuple(results if limit is None else results[:limit]),
        )


def _evidence(field: str, line_stems: set[str], wanted: set[str]) -> bool:
    """Whether one matched line is evidence that its tool fits: two of the query's terms in
    one of the tool's own lines (or a referral to it), or a whole concept phrase or id in the
    query. A single shared word ("list", "average", "order") is not: it is how a query about
    something else reaches a tool."""
    if field == "unsupported":
        return False
    if field in ("concepts", "id") and line_stems <= wanted:
        return True
    return len(line_stems & wanted) >= MIN_LINE_TERMS


def _and(names: Sequence[str]) -> str:
    """The names as "A, B and C"."""
    return names[0] if len(names) < 2 else f"{', '.join(names[:-1])} and {names[-1]}"


@dataclass(frozen=True, slots=True)
class SearchResult:
    """One ranked tool of an answer: a fit, or only an alternative (its score under the
    relevance threshold, or the query names something no tool does), with a note saying
    what it is an alternative to when the table names it as the nearest."""

    hit: SearchHit
    alternative: bool
    note: str | None = None

    def as_json(self) -> dict[str, Any]:
        """The hit's fields (:meth:`SearchHit.as_json`), then ``"alternative"`` and, for a
        named alternative, ``"note"``."""
        data = {**self.hit.as_json(), "alternative": self.alternative}
        if self.note is not None:
            data["note"] = self.note
        return data


@dataclass(frozen=True, slots=True)
class SearchAnswer:
    """The search's answer, the same on every surface.

    ``supported`` is false when the query names something no tool does (``not_done``,
    ``reason`` its reasons), when no tool fits (see the module docstring), or
    when the query has no words; ``reason`` is ``None`` when it is true. ``metrics`` are the
    metrics the catalog computes, read from its tools' descriptions. ``results`` are the
    ranked tools, the fits first, each marked ``alternative`` when it is not a fit.
    """

    query: str
    supported: bool
    reason: str | None
    not_done: tuple[NotDone, ...]
    metrics: tuple[str, ...]
    results: tuple[SearchResult, ...]

    @property
    def fits(self) -> tuple[SearchResult, ...]:
        """The results that are not alternatives."""
        return tuple(result for result in self.results if not result.alternative)

    def as_json(self, results_key: str = "results") -> dict[str, Any]:
        """``{"query", "supported", "reason", "not_done": [{"name", "reason"}], "metrics",
        "results": [...]}`` (``results_key`` names the last field: HTTP's is ``tools``)."""
        return {
            "query": self.query,
            "supported": self.supported,
            "reason": self.reason,
            "not_done": [{"name": n.name, "reason": n.reason} for n in self.not_done],
            "metrics": list(self.metrics),
            results_key: [result.as_json() for result in self.results],
        }


@cache
def catalog_index() -> CatalogIndex:
    """The index of the registry's catalog, built on first use."""
    return CatalogIndex(catalog_entries())


def search_catalog(query: str, limit: int | None = None) -> tuple[SearchHit, ...]:
    """Search the catalog (:meth:`CatalogIndex.search` on :func:`catalog_index`)."""
    return catalog_index().search(query, limit)


def search_answer(query: str, limit: int | None = None) -> SearchAnswer:
    """The answer of every surface (:meth:`CatalogIndex.answer` on :func:`catalog_index`)."""
    return catalog_index().answer(query, limit)


def documents_entries(documents: Iterable[Mapping[str, Any]]) -> list[CatalogEntry]:
    """Catalog entries for contract documents outside the registry (for evaluating the
    ranking against contracts that are not installed)."""
    return [
        CatalogEntry(
            id=str(d["id"]),
            version=str(d["version"]),
            description=str(d["description"]),
            supported_operations=tuple(d["supported_operations"]),
            unsupported_operations=tuple(d["unsupported_operations"]),
            document=d,
            text="",
        )
        for d in documents
    ]
