"""Search's terms: how text is folded into index terms, and the multilingual vocabulary of
``search_terms.json`` (concept phrases per tool id, metric names, what no tool does).

Used by :mod:`mtcompute.search`, which indexes and ranks with them and re-exports the public
names (:func:`terms`, :class:`Vocabulary`, :class:`NotDone`, :func:`shipped_vocabulary`,
:data:`TERMS_FILE`).

Text is folded the same way for the index and the query, for every language the contracts
use (:func:`terms`): Unicode NFKD with the combining marks dropped (Übersetzung and
Ubersetzung, Popović and Popovic, Hebrew with or without niqqud), case folded, ``chrF++`` and
"chrf plus plus" one term ``chrfpp`` (so that chrF and chrF++ stay apart), Hebrew words also
without a one-letter prefix (vav, he, bet, kaf, lamed, mem, shin: "for computing" also matches
"computing"), and runs of Han, kana and Hangul cut into overlapping character bigrams, since
FTS5's ``unicode61`` tokenizer does not segment them (it would keep 计算分数 as one token);
Latin terms then go through FTS5's Porter stemmer (in :mod:`mtcompute.search`). A query is
the OR of its terms (:func:`keywords`) minus a short list of function words (English,
German, French, Spanish, Italian, Portuguese, Russian, Hebrew) and of the words of the field
itself ("translation", "machine", in every language: a tool whose one line says "Übersetzung"
is no better for it), so a paraphrase need not repeat a line word for word.
"""

from __future__ import annotations

__all__ = [
    "TERMS_FILE",
    "NotDone",
    "Vocabulary",
    "has_sequence",
    "keywords",
    "shipped_vocabulary",
    "terms",
]

import json
import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any, Final

TERMS_FILE: Final = "search_terms.json"
"""The multilingual terms, in the package: concepts per tool id, what no tool does."""

_STOPWORD_LINES: Final = (  # function words, one line per language
    "a an and are as at be by can do does for from get how i in into is it its me my of on "
    "or our so than that the this to was what when which who why will with you your",
    "aber als am an auf aus bei das dem den der des die ein eine einem einen einer eines "
    "für ich ist im in mit mein meine oder und von vom wie zu zum zur",
    "au aux avec ce ces dans de des du elle en est et il je la le les leur mon ma mes ou "
    "par pour que qui sa se son sur un une",
    "al como con de del el en es la las lo los mi mis o para por que se su sus un una y",
    "a al all alla con da dal dei del dell della delle di e gli i il in l la le lo nel "
    "nella o per su tra un una uno",
    "ao aos as com da das de do dos e em na nas no nos o os ou para pela pelo por um uma",
    "в во для и из к как на о об по с со у что это мой моя мои",  # noqa: RUF001
    "d l qu s",
    "של את עם על כמו מול או גם זה זו מה איך למה אני שלי",
)
_GENERIC_LINES: Final = (  # words of the field itself, in every language: no tool's own
    "translation translations translated machine automatic mt",
    "übersetzung übersetzungen maschinelle maschinellen automatische",
    "traduction traductions automatique partir",
    "traducción traducciones automática automático",
    "traduzione traduzioni automatica automatico",
    "tradução traduções automática automático",
    "перевод перевода переводе переводов машинный машинного машинном",
    "翻译 机器 器翻 翻訳 機械 械翻 번역 기계",
)
_STOPWORDS: Final = frozenset(word for line in _STOPWORD_LINES for word in line.split())
_GENERIC: Final = frozenset(word for line in _GENERIC_LINES for word in line.split())

_CJK: Final = re.compile(
    "[\u1100-\u11ff\u2e80-\u2fdf\u3040-\u30ff\u3100-\u312f\u3130-\u318f\u31f0-\u31ff"
    "\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff66-\uff9f]+"
)
_PLUS_PLUS: Final = re.compile(r"(?<=\w)(?:\+\+|[-\s]+plus[-\s]+plus\b)")
_PLUS: Final = re.compile(r"(?<=\w)\+(?![\w+])")
_WORD: Final = re.compile(r"[^\W_]+")
_HEBREW_PREFIXES: Final = frozenset("והבכלמש")
_KEPT_MARKS: Final = frozenset("\u3099\u309a")  # kana voicing marks: part of the letter


def _fold(text: str) -> str:
    """NFKD without combining marks (kana voicing kept), recomposed, case folded."""
    decomposed = unicodedata.normalize("NFKD", text)
    kept = "".join(c for c in decomposed if c in _KEPT_MARKS or not unicodedata.combining(c))
    return unicodedata.normalize("NFKC", kept).casefold()


def _bigrams(run: str) -> list[str]:
    return [run] if len(run) == 1 else [run[i : i + 2] for i in range(len(run) - 1)]


def _hebrew_variants(word: str) -> list[str]:
    """The word, and without a prefix letter (and a he after it) while 3 letters remain."""
    variants = [word]
    while len(word) >= 4 and word[0] in _HEBREW_PREFIXES:
        word = word[1:]
        variants.append(word)
        if word[0] != "ה":
            break
    return variants


def terms(text: str) -> list[str]:
    """The index terms of ``text`` in order (before FTS5's Porter stemming), as described in
    the module docstring.

    >>> terms("chrF++ für maschinelle Übersetzung")
    ['chrfpp', 'fur', 'maschinelle', 'ubersetzung']
    >>> terms("לחישוב BLEU 计算分数")
    ['לחישוב', 'חישוב', 'bleu', '计算', '算分', '分数']
    """
    folded = _fold(text)
    folded = _PLUS_PLUS.sub("pp", folded)
    folded = _PLUS.sub("p", folded)
    folded = _CJK.sub(lambda m: " " + " ".join(_bigrams(m.group())) + " ", folded)
    out: list[str] = []
    for word in _WORD.findall(folded):
        if "\u05d0" <= word[0] <= "\u05ea":
            out.extend(_hebrew_variants(word))
        else:
            out.append(word)
    return out


@cache
def _stopwords(generic: bool = True) -> frozenset[str]:
    """The function words (and the generic words), folded as the query's terms are."""
    words = _STOPWORDS | _GENERIC if generic else _STOPWORDS
    return frozenset(term for word in words for term in terms(word))


def keywords(query: str, generic: bool = True) -> list[str]:
    """What a query searches for: its terms without function words, and without the generic
    words unless ``generic`` is false (the terms a line or a concept phrase must hold to fit)."""
    seen: dict[str, None] = {}
    stopwords = _stopwords(generic)
    for term in terms(query):
        if term not in stopwords:
            seen.setdefault(term, None)
    return list(seen)


@dataclass(frozen=True, slots=True)
class NotDone:
    """A metric or task no tool of the catalog does: its name, the reason a search gives,
    the nearest honest alternatives (tool id, why it is only an alternative) and its names
    in every language, folded (:func:`terms`), with the acronyms matched with their case."""

    name: str
    reason: str
    metric: bool
    nearest: tuple[tuple[str, str], ...]
    phrases: tuple[tuple[str, ...], ...]
    acronyms: tuple[str, ...] = ()

    def named_in(self, query: str, query_terms: Sequence[str]) -> bool:
        """Whether ``query`` names this: one of its phrases as consecutive terms (a trailing
        "s" or "es" on a term allowed), or one of its acronyms as a word, in its case."""
        if any(has_sequence(query_terms, phrase) for phrase in self.phrases):
            return True
        return has_acronym(query, self.acronyms)


def has_acronym(query: str, acronyms: Iterable[str]) -> bool:
    """Whether ``query`` holds one of ``acronyms`` as a word, in its case ("WER", not the
    German "wer")."""
    text = unicodedata.normalize("NFKC", query)
    return any(re.search(rf"(?<![^\W_]){re.escape(a)}(?![^\W_])", text) for a in acronyms)


def has_sequence(haystack: Sequence[str], needle: Sequence[str]) -> bool:
    """Whether ``needle`` occurs in ``haystack`` as consecutive terms (plural-tolerant)."""

    def same(term: str, wanted: str) -> bool:
        return term == wanted or term in (wanted + "s", wanted + "es")

    n = len(needle)
    return n > 0 and any(
        all(same(haystack[i + k], needle[k]) for k in range(n))
        for i in range(len(haystack) - n + 1)
    )


@dataclass(frozen=True, slots=True)
class Vocabulary:
    """The multilingual terms of the search (``search_terms.json``): each tool id's concept
    phrases, the metric names, and what no tool does."""

    concepts: Mapping[str, tuple[str, ...]]
    metric_names: tuple[str, ...]
    not_done: tuple[NotDone, ...]
    generic: frozenset[str] = frozenset()
    """The phrases only of groups given to more than a third of the tools ("score",
    "évaluer"): they rank, but alone they are no evidence that a tool fits."""
    acronyms: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Each tool id's acronyms (a group's ``acronyms``: "WER", "CER"), matched in their case:
    a query holding one is evidence that the tool fits, where the folded word ("wer") would
    be a common word of another language."""

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Vocabulary:
        """The vocabulary of a ``search_terms.json`` document."""
        groups: Mapping[str, Mapping[str, list[str]]] = {
            name: {key: phrases for key, phrases in group.items() if key != "acronyms"}
            for name, group in data["groups"].items()
        }
        concepts = {
            tool_id: tuple(
                dict.fromkeys(
                    phrase
                    for group in names
                    for phrases in groups[group].values()
                    for phrase in phrases
                )
            )
            for tool_id, names in data["tools"].items()
        }
        acronyms = {
            tool_id: tuple(a for group in names for a in data["groups"][group].get("acronyms", ()))
            for tool_id, names in data["tools"].items()
        }
        not_done = tuple(
            NotDone(
                name=item["name"],
                reason=item["reason"],
                metric=bool(item.get("metric", False)),
                nearest=tuple((n["id"], n["why"]) for n in item.get("nearest", ())),
                phrases=tuple(
                    dict.fromkeys(
                        tuple(terms(phrase))
                        for phrases in item["names"].values()
                        for phrase in phrases
                        if terms(phrase)
                    )
                ),
                acronyms=tuple(item.get("acronyms", ())),
            )
            for item in data["not_done"]
        )
        uses = [group for names in data["tools"].values() for group in names]
        shared = {group for group in groups if 3 * uses.count(group) > len(data["tools"])}

        def phrases_of(names: Iterable[str]) -> set[str]:
            return {p for group in names for phrases in groups[group].values() for p in phrases}

        generic = phrases_of(shared) - phrases_of(set(groups) - shared)
        metric_names = tuple(data["metric_names"])
        return cls(concepts, metric_names, not_done, frozenset(generic), acronyms)


@cache
def shipped_vocabulary() -> Vocabulary:
    """The vocabulary shipped in the package (``mtcompute/search_terms.json``)."""
    text = resources.files("mtcompute").joinpath(TERMS_FILE).read_text(encoding="utf-8")
    return Vocabulary.from_json(json.loads(text))
