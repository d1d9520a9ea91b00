"""Differential tests of WER and CER against jiwer 4.0.0 (``jiwer.process_words`` with the
transforms of wer-compute's options, :mod:`tests.jiwer_oracle`).

* 6,000 seeded random corpora (1 to 4 segments each) over texts made to tie (few distinct
  words), with every kind of whitespace, ASCII and Unicode punctuation and case: the whole
  result (corpus and per-segment score and counts) equals jiwer's, floats exactly (well within
  the issue's 1e-12).
* hypothesis-generated pairs: the same against jiwer, and the properties of an edit distance
  (identical texts score 0; hits + substitutions + deletions is the reference's length, hits +
  substitutions + insertions the hypothesis's; the distance is symmetric and between the
  length difference and the longer length).
* Every system of every WMT pair in use (``tests.conftest.WMT``: the full data when it is
  there or ``MTCOMPUTE_WMT_DIR`` names it, else the in-repo sample) against its first
  reference, in words and characters and with every normalisation.
* Beyond RapidFuzz's one-matrix size (the contract's third semantics line) jiwer may report
  another alignment of the same cost: there the rate and the distance still agree.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mtcompute.metrics.wer.edits import edit_counts
from mtcompute.metrics.wer.text import WerOptions, units
from mtcompute.tools.wer_compute import wer_compute
from tests.conftest import WMT
from tests.harness import read_lines, wmt_pairs
from tests.jiwer_oracle import (
    NORMALISATIONS,
    RAPIDFUZZ_ONE_MATRIX,
    UNITS,
    jiwer_result,
    jiwer_segment_score,
)

GENERATED = 6000
WORDS = ("a", "b", "ab", "A", "B.", "ba", "é", "É", "ß", "İ", "Σ", "日本", "語", "x-y", "«q»")
SPACES = (" ", " ", " ", "  ", "\t", "\n", "\u00a0", "\u3000", " \t ", "\r\n")
PUNCTUATION = (".", ",", "!", "?", "…", "—", "'", "¿", "「", "」")


def _text(rng: random.Random) -> str:
    """A text that invites ties and exercises every normalisation (or an empty one)."""
    count = rng.choice((0, 1, 2, 3, 5, 8, 13, 21))
    vocabulary = WORDS[: rng.choice((2, 3, 5, len(WORDS)))]
    parts = [rng.choice(SPACES)] if rng.random() < 0.2 else []
    for _ in range(count):
        word = rng.choice(vocabulary)
        if rng.random() < 0.15:
            word += rng.choice(PUNCTUATION)
        parts += [word, rng.choice(SPACES)]
    return "".join(parts[:-1] if parts and rng.random() < 0.7 else parts)


def _options(rng: random.Random) -> dict[str, Any]:
    return {"unit": rng.choice(UNITS), **{name: rng.random() < 0.4 for name in NORMALISATIONS}}


def _has_reference_units(refs: list[str], options: dict[str, Any]) -> bool:
    chosen = WerOptions(options["unit"], *(options[name] for name in NORMALISATIONS))
    return any(units(ref, chosen) for ref in refs)


def test_generated_corpora_equal_jiwer() -> None:
    """6,000 seeded random corpora: wer-compute's result is jiwer's, field for field."""
    rng = random.Random(20261206)
    compared, differing = 0, []
    while compared < GENERATED:
        size = rng.randint(1, 4)
        hyps = [_text(rng) for _ in range(size)]
        refs = [_text(rng) for _ in range(size)]
        options = _options(rng)
        if not _has_reference_units(refs, options):
            continue  # no rate: refused (test_tool_wer_compute's semantics line 4)
        compared += 1
        ours = wer_compute(hyps, refs, **options).to_dict()
        if ours != jiwer_result(hyps, refs, **options):
            differing.append((hyps, refs, options))
    assert (GENERATED, []) == (compared, differing[:5])


def test_long_generated_pairs_equal_jiwer() -> None:
    """200 seeded pairs of 100 to 2000 characters (a reference edited at random), in
    characters and words: the counts too, the pairs being under RapidFuzz's one-matrix
    size."""
    rng = random.Random(7)
    differing = []
    for _ in range(200):
        alphabet = rng.choice(("ab", "abc ", "abcdefgh ", "the quick brown fox "))
        ref = "".join(rng.choice(alphabet) for _ in range(rng.randint(100, 2000)))
        hyp = list(ref)
        for _ in range(rng.randint(1, len(ref) // 3)):
            at = rng.randrange(len(hyp) + 1)
            edit = rng.random()
            if edit < 0.3 and at < len(hyp):
                del hyp[at]
            elif edit < 0.6:
                hyp.insert(at, rng.choice(alphabet))
            elif at < len(hyp):
                hyp[at] = rng.choice(alphabet)
        text = "".join(hyp)
        assert len(text) * len(ref) < RAPIDFUZZ_ONE_MATRIX
        for unit in UNITS:
            if wer_compute([text], [ref], unit=unit).to_dict() != jiwer_result([text], [ref], unit):
                differing.append((text, ref, unit))
    assert differing == []


def test_beyond_one_matrix_the_rate_and_distance_agree() -> None:
    """Pairs past RapidFuzz's one-matrix size (3000 characters each way, over a binary
    alphabet, where alignments of equal cost abound): the rate, the distance and the lengths
    equal jiwer's (its Hirschberg split may pick another alignment of that cost)."""
    rng = random.Random(3)
    for _ in range(3):
        ref = "".join(rng.choice("ab") for _ in range(3000))
        hyp = "".join(c if rng.random() < 0.8 else rng.choice("ab") for c in ref)[:2990]
        ours = wer_compute([hyp], [ref], unit="character").to_dict()
        theirs = jiwer_result([hyp], [ref], "character")
        assert [_summary(ours), ours["score"]] == [_summary(theirs), theirs["score"]]


def _summary(result: dict[str, Any]) -> tuple[int, int, int]:
    """(edit distance, reference length, hypothesis length) of a result."""
    errors = result["substitutions"] + result["deletions"] + result["insertions"]
    return errors, result["reference_length"], result["hypothesis_length"]


TEXT = st.lists(
    st.sampled_from(["a", "b", "c", "A", " ", "  ", "\t", "\n", ".", "!", "é", "\u3000"]),
    max_size=40,
).map("".join)


@settings(max_examples=400, deadline=None)
@given(TEXT, TEXT, st.sampled_from(UNITS), st.booleans(), st.booleans(), st.booleans())
def test_hypothesis_pairs_equal_jiwer(
    hyp: str, ref: str, unit: str, lowercase: bool, remove_punctuation: bool, collapse: bool
) -> None:
    """Generated pairs under every option: jiwer's result (the pair refused when its
    reference has no units, where jiwer answers the insertions)."""
    options = {"unit": unit, "lowercase": lowercase, "remove_punctuation": remove_punctuation,
               "collapse_whitespace": collapse}  # fmt: skip
    if _has_reference_units([ref], options):
        assert (
            jiwer_result([hyp], [ref], **options) == wer_compute([hyp], [ref], **options).to_dict()
        )
    else:
        hyp_units = units(hyp, WerOptions(unit, lowercase, remove_punctuation, collapse))
        assert jiwer_segment_score(hyp, ref, **options) == len(hyp_units)


UNIT_LISTS = st.lists(st.sampled_from(["a", "b", "c", "d"]), max_size=30)


@settings(max_examples=400, deadline=None)
@given(UNIT_LISTS, UNIT_LISTS)
def test_edit_counts_are_an_edit_distance(ref: list[str], hyp: list[str]) -> None:
    """Identical sequences are all hits; the counts make up both lengths; the distance is
    symmetric (deletions and insertions trade places) and between the length difference and
    the longer length."""
    counts, back, same = edit_counts(ref, hyp), edit_counts(hyp, ref), edit_counts(ref, ref)
    assert (same.hits, same.errors) == (len(ref), 0)
    assert (counts.reference_length, counts.hypothesis_length) == (len(ref), len(hyp))
    assert back.errors == counts.errors
    assert abs(len(ref) - len(hyp)) <= counts.errors <= max(len(ref), len(hyp))


WMT_DEFAULTS = [{"unit": "word"}, {"unit": "character"}]
WMT_NORMALISED = [
    {"unit": "word", "lowercase": True, "remove_punctuation": True, "collapse_whitespace": True},
    {"unit": "character", "lowercase": True, "remove_punctuation": True},
]


@pytest.mark.parametrize("pair", wmt_pairs())
def test_wmt_systems_equal_jiwer(pair: str) -> None:
    """Every system of the pair against its first reference (untokenized files) in words and
    characters, and the first system with the normalisations too: jiwer's corpus and segment
    results, every pair being under RapidFuzz's one-matrix size (so the counts are compared
    too)."""
    folder = WMT / pair
    reference = sorted(p for p in folder.glob("ref.*.txt") if not p.name.endswith(".tok.txt"))
    systems = sorted(p for p in folder.glob("sys.*.txt") if not p.name.endswith(".tok.txt"))
    refs = read_lines(reference[0])
    pairs = (zip(read_lines(s), refs, strict=True) for s in systems)
    assert max(len(h) * len(r) for each in pairs for h, r in each) < RAPIDFUZZ_ONE_MATRIX
    differing = []
    for k, system in enumerate(systems):
        hyps = read_lines(system)
        for options in WMT_DEFAULTS + (WMT_NORMALISED if k == 0 else []):
            if wer_compute(hyps, refs, **options).to_dict() != jiwer_result(hyps, refs, **options):
                differing.append((system.name, options))
    assert (True, []) == (bool(systems), differing)
