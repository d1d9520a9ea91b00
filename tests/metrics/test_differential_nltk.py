"""Differential tests against NLTK's ``nltk.translate.bleu_score`` (read from NLTK 3.10.4).

Reference: NLTK's ``modified_precision``, ``closest_ref_length``, ``brevity_penalty``,
``sentence_bleu`` and ``corpus_bleu`` with ``SmoothingFunction().method0`` to ``method3``,
on the Moses-tokenised newstest2015-nltk100 en-ru files (``*.tok.txt`` of the WMT data in use,
``tests.conftest.WMT``: the full data or the in-repo sample, which holds these 100-segment files
whole; split with ``str.split()``; the tests fail, not skip, without them) and on
hypothesis-generated token lists (``tests/strategies.py``). Also the published multi-bleu.perl
line for those files (README of the data).

Where NLTK's semantics differ from the contracts (read from the installed source of
``nltk/translate/bleu_score.py``), and how the tests account for it:

1. ``modified_precision`` returns ``Fraction(m_n, max(1, l_n), _normalize=False)``: its
   denominator is 1, not 0, for a hypothesis shorter than n, and ``corpus_bleu`` sums those
   per segment. Every NLTK score below therefore equals ours on the "NLTK view" of the
   statistics: matches, lengths as ours, totals replaced by the sum over segments of
   ``max(1, l_n)``. Wherever every hypothesis has at least N tokens the view is the identity,
   and the tests check that the two agree there directly.
2. method0 (no smoothing): a zero numerator becomes ``sys.float_info.min`` (with a
   UserWarning, silenced here), so NLTK returns a tiny positive number (at most
   ``float_info.min ** (z / N)`` for z zero orders: about 1e-77 for one of 4, 1e-38 for one of
   8) where the contract returns 0. Asserted as such, not compared.
3. method1: ``(0 + epsilon) / denominator`` for a zero numerator: the contract's method1. With
   ``epsilon = 0`` NLTK's p_n is 0 and NLTK skips that order in its sum (``if p_i > 0``)
   without renormalising the weights, giving a positive score where the contract gives 0;
   asserted once, and epsilon is drawn from (0, 1] elsewhere.
4. method2 (this version): ``(m_n + 1) / (l_n + 1)`` for n >= 2 only, as the contract (older
   NLTK releases added 1 to the unigram precision as well; the comparisons would catch that).
   With NLTK's denominator rule a hypothesis shorter than n gets 1/2 where the contract has 1/1.
5. method3: ``1 / (2^k * l_n)`` with k = 1, 2, ... at each zero-match order from n = 1: the
   contract's method3.
6. No effective order in NLTK. ``auto_reweigh=True`` with the default 4 weights and c < 4 uses
   weights ``(1/c,) * c``, i.e. the first c orders: the contract's ``effective_order`` for
   none, method1 and method3 (which leave the totals as they are). With method2 the smoothed
   totals are all > 0, so effective order keeps every order: not compared.
7. Floats: NLTK adds ``w_n * log(p_n)`` with ``math.fsum`` and float weights 1/N; the contract
   sums ``ln`` in a plain loop and divides by N, with fdlibm's ``log``/``exp``. Scores are
   compared with a relative tolerance of 1e-12, brevity penalties with 1e-15.
8. ``brevity_penalty`` (0 at c = 0, 1 at c > r, else ``exp(1 - r/c)``) and
   ``closest_ref_length`` (ties to the shorter) agree with the contract.
"""

from __future__ import annotations

import math
import sys
import warnings
from collections.abc import Callable, Sequence
from functools import cache, reduce
from operator import add
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from nltk.translate import bleu_score as nltk_bleu

import mtcompute
from mtcompute.metrics.bleu.statistics import BleuStatistics, sentence_statistics
from tests import strategies as sts
from tests.conftest import WMT

DATA = WMT / "newstest2015-nltk100" / "en-ru"
REL = 1e-12
SMOOTHINGS = ("none", "method1", "method2", "method3")
GENERATED = settings(deadline=None, max_examples=150)


def _lines(name: str) -> list[str]:
    path = DATA / name
    if not path.is_file():
        pytest.fail(f"{path} is missing from the WMT data: the NLTK differential tests read it")
    text = path.read_text(encoding="utf-8")
    lines = text.split("\n")
    if text.endswith("\n"):
        lines.pop()
    return lines


@cache
def corpus() -> tuple[tuple[tuple[str, ...], tuple[tuple[str, ...], ...]], ...]:
    """(hypothesis tokens, (reference tokens,)) for the 100 tokenised segments."""
    hyps, refs = _lines("sys.Google.tok.txt"), _lines("ref.A.tok.txt")
    if (len(hyps), len(refs)) != (100, 100):
        pytest.fail(f"expected 100 aligned segments, got {len(hyps)} and {len(refs)}")
    return tuple((tuple(h.split()), (tuple(r.split()),)) for h, r in zip(hyps, refs, strict=True))


def _nltk(function: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """Call NLTK with method0's "0 counts of n-gram overlaps" UserWarning silenced."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        return function(*args, **kwargs)


def _smoothing(name: str, epsilon: float = 0.1) -> Callable[..., Any]:
    return getattr(nltk_bleu.SmoothingFunction(epsilon=epsilon), f"method{SMOOTHINGS.index(name)}")


def nltk_view(segments: Sequence[BleuStatistics]) -> BleuStatistics:
    """Summed statistics with each segment's l_n counted as max(1, l_n) (NLTK's denominator)."""
    return reduce(
        add,
        (
            BleuStatistics(
                s.candidate_length,
                s.reference_length,
                s.matches,
                tuple(max(1, t) for t in s.totals),
            )
            for s in segments
        ),
    )


def _ours(
    stats: BleuStatistics, smoothing: str, epsilon: float = 0.1, effective: bool = False
) -> float:
    return mtcompute.bleu_from_statistics(
        stats.matches,
        stats.totals,
        stats.candidate_length,
        stats.reference_length,
        smoothing,  # type: ignore[arg-type]
        epsilon=epsilon if smoothing == "method1" else None,
        effective_order=effective,
    ).bleu


def _agrees(ours: float, theirs: float, stats: BleuStatistics, smoothing: str) -> bool:
    """Equal within REL, or (method0 with a zero match in an order while m_1 > 0) ours 0 and
    NLTK's value positive and at most float_info.min ** (zero orders / N)."""
    if smoothing == "none" and stats.matches[0] > 0 and 0 in stats.matches:
        # Each zero order contributes float_info.min ** (1/N); the others and BP are <= 1.
        bound = sys.float_info.min ** (stats.matches.count(0) / len(stats.matches))
        return ours == 0 and 0 < theirs <= bound * (1 + 1e-9)
    return math.isclose(ours, theirs, rel_tol=REL, abs_tol=0)


def _weights(max_order: int) -> tuple[float, ...]:
    return (0.25,) * 4 if max_order == 4 else (1 / max_order,) * max_order


# --- the newstest2015-nltk100 files ---------------------------------------------------------


@pytest.mark.parametrize("max_order", [4, 8])
def test_modified_precision_is_matches_over_max_1_totals(max_order: int) -> None:
    """NLTK's modified precision is m_n / max(1, l_n) for every segment and order."""
    expected, actual = [], []
    for hyp, refs in corpus():
        stats = sentence_statistics(hyp, refs, max_order)
        for n in range(1, max_order + 1):
            p = nltk_bleu.modified_precision(list(map(list, refs)), list(hyp), n)
            expected.append((p.numerator, p.denominator))
            actual.append((stats.matches[n - 1], max(1, stats.totals[n - 1])))
    assert expected == actual


def test_closest_reference_length_and_brevity_penalty() -> None:
    """Per segment, NLTK's closest_ref_length is our r and its brevity_penalty ours (1e-15)."""
    expected, actual = [], []
    for hyp, refs in corpus():
        stats = sentence_statistics(hyp, refs, 4)
        r = nltk_bleu.closest_ref_length(list(map(list, refs)), len(hyp))
        theirs = nltk_bleu.brevity_penalty(r, len(hyp))
        ours = mtcompute.bleu_from_statistics(
            stats.matches, stats.totals, stats.candidate_length, stats.reference_length
        ).brevity_penalty
        expected.append((r, True))
        actual.append((stats.reference_length, math.isclose(ours, theirs, rel_tol=1e-15)))
    assert expected == actual


@pytest.mark.parametrize("smoothing", SMOOTHINGS)
@pytest.mark.parametrize("max_order", [4, 8])
def test_corpus_bleu_equals_ours(max_order: int, smoothing: str) -> None:
    """NLTK's corpus_bleu equals ours on NLTK's view (at N = 4 the view is the plain sum)."""
    segments = [sentence_statistics(h, refs, max_order) for h, refs in corpus()]
    theirs = _nltk(
        nltk_bleu.corpus_bleu,
        [list(map(list, refs)) for _, refs in corpus()],
        [list(h) for h, _ in corpus()],
        weights=_weights(max_order),
        smoothing_function=_smoothing(smoothing),
    )
    view = nltk_view(segments)
    expected = (True, max_order == 4)
    assert expected == (
        _agrees(_ours(view, smoothing), theirs, view, smoothing),
        view == reduce(add, segments),
    )


@pytest.mark.parametrize("smoothing", SMOOTHINGS)
@pytest.mark.parametrize("max_order", [4, 8])
def test_sentence_bleu_equals_ours(max_order: int, smoothing: str) -> None:
    """NLTK's sentence_bleu equals ours on NLTK's view of each segment's statistics."""
    problems = []
    for i, (hyp, refs) in enumerate(corpus()):
        view = nltk_view([sentence_statistics(hyp, refs, max_order)])
        theirs = _nltk(
            nltk_bleu.sentence_bleu,
            list(map(list, refs)),
            list(hyp),
            weights=_weights(max_order),
            smoothing_function=_smoothing(smoothing),
        )
        ours = _ours(view, smoothing)
        if not _agrees(ours, theirs, view, smoothing):
            problems.append(f"segment {i}: ours {ours!r}, NLTK {theirs!r}")
    assert [] == problems


def test_order_8_shows_nltk_denominator_rule() -> None:
    """At N = 8 NLTK's corpus BLEU differs from our plain sums and equals ours on its view."""
    segments = [sentence_statistics(h, refs, 8) for h, refs in corpus()]
    theirs = _nltk(
        nltk_bleu.corpus_bleu,
        [list(map(list, refs)) for _, refs in corpus()],
        [list(h) for h, _ in corpus()],
        weights=_weights(8),
        smoothing_function=_smoothing("method1"),
    )
    plain, view = _ours(reduce(add, segments), "method1"), _ours(nltk_view(segments), "method1")
    assert (False, True) == (
        math.isclose(plain, theirs, rel_tol=1e-6),
        math.isclose(view, theirs, rel_tol=REL),
    )


def test_published_multi_bleu_line_is_reproduced() -> None:
    """Our statistics and BLEU reproduce the published multi-bleu.perl line for these files."""
    total = reduce(add, (sentence_statistics(h, refs, 4) for h, refs in corpus()))
    result = mtcompute.bleu_from_statistics(
        total.matches, total.totals, total.candidate_length, total.reference_length
    )
    precisions = "/".join(
        f"{100 * m / t:.1f}" for m, t in zip(total.matches, total.totals, strict=True)
    )
    c, r = total.candidate_length, total.reference_length
    line = (
        f"BLEU = {100 * result.bleu:.2f}, {precisions} (BP={result.brevity_penalty:.3f}, "
        f"ratio={c / r:.3f}, hyp_len={c}, ref_len={r})"
    )
    expected = (
        "BLEU = 23.17, 53.8/29.6/17.6/10.3 (BP=1.000, ratio=1.074, hyp_len=1989, ref_len=1852)"
    )
    assert expected == line


# --- generated inputs -----------------------------------------------------------------------


@GENERATED
@given(sts.bleu_cases())
def test_generated_modified_precision_and_lengths(case: sts.BleuCase) -> None:
    """modified_precision, closest_ref_length and brevity_penalty agree on generated segments."""
    hyp, refs, max_order = case
    stats = sentence_statistics(*case)
    precisions = [nltk_bleu.modified_precision(refs, hyp, n) for n in range(1, max_order + 1)]
    r = nltk_bleu.closest_ref_length(refs, len(hyp))
    bp = mtcompute.bleu_from_statistics(
        stats.matches, stats.totals, stats.candidate_length, stats.reference_length
    ).brevity_penalty
    expected = (
        [(m, max(1, t)) for m, t in zip(stats.matches, stats.totals, strict=True)],
        stats.reference_length,
        True,
    )
    assert expected == (
        [(p.numerator, p.denominator) for p in precisions],
        r,
        math.isclose(bp, nltk_bleu.brevity_penalty(r, len(hyp)), rel_tol=1e-15),
    )


@GENERATED
@given(
    sts.bleu_segments(),
    st.integers(1, 8),
    st.sampled_from(SMOOTHINGS),
    st.floats(0, 1, exclude_min=True, allow_subnormal=False),
)
def test_generated_sentence_bleu_equals_ours(
    segment: tuple[list[str], list[list[str]]], max_order: int, smoothing: str, epsilon: float
) -> None:
    """sentence_bleu with method0-3 equals ours on NLTK's view of generated statistics."""
    hyp, refs = segment
    view = nltk_view([sentence_statistics(hyp, refs, max_order)])
    theirs = _nltk(
        nltk_bleu.sentence_bleu,
        refs,
        hyp,
        weights=_weights(max_order),
        smoothing_function=_smoothing(smoothing, epsilon),
    )
    ours = _ours(view, smoothing, epsilon)
    assert _agrees(ours, theirs, view, smoothing), (ours, theirs)


@GENERATED
@given(
    st.lists(sts.bleu_segments(max_references=3), min_size=1, max_size=4),
    st.integers(1, 8),
    st.sampled_from(SMOOTHINGS),
)
def test_generated_corpus_bleu_equals_ours(
    segments: list[tuple[list[str], list[list[str]]]], max_order: int, smoothing: str
) -> None:
    """corpus_bleu on generated segments equals ours on NLTK's view of the summed statistics."""
    view = nltk_view([sentence_statistics(h, refs, max_order) for h, refs in segments])
    theirs = _nltk(
        nltk_bleu.corpus_bleu,
        [refs for _, refs in segments],
        [h for h, _ in segments],
        weights=_weights(max_order),
        smoothing_function=_smoothing(smoothing),
    )
    ours = _ours(view, smoothing)
    assert _agrees(ours, theirs, view, smoothing), (ours, theirs)


@GENERATED
@given(
    sts.bleu_segments(max_tokens=3).filter(lambda seg: len(seg[0]) >= 1),
    st.sampled_from(["none", "method1", "method3"]),
)
def test_generated_auto_reweigh_is_effective_order(
    segment: tuple[list[str], list[list[str]]], smoothing: str
) -> None:
    """For 1-3 token hypotheses NLTK's auto_reweigh equals our effective_order."""
    hyp, refs = segment
    stats = sentence_statistics(hyp, refs, 4)
    c = len(hyp)
    used = BleuStatistics(c, stats.reference_length, stats.matches[:c], stats.totals[:c])
    theirs = _nltk(
        nltk_bleu.sentence_bleu,
        refs,
        hyp,
        smoothing_function=_smoothing(smoothing),
        auto_reweigh=True,
    )
    ours = _ours(stats, smoothing, effective=True)
    assert _agrees(ours, theirs, used, smoothing), (ours, theirs)


def test_method1_with_epsilon_0_differs_as_documented() -> None:
    """NLTK's method1 with epsilon 0 drops the zero orders; the contract's BLEU is 0."""
    hyp, ref = list("abxyz"), list("abcde")
    theirs = nltk_bleu.sentence_bleu([ref], hyp, smoothing_function=_smoothing("method1", 0.0))
    ours = _ours(sentence_statistics(hyp, [ref], 4), "method1", 0.0)
    assert (0.0, True) == (ours, math.isclose(theirs, (2 / 5 * 1 / 4) ** 0.25, rel_tol=1e-12))


def test_method0_returns_a_tiny_positive_number_where_the_contract_says_0() -> None:
    """NLTK without smoothing gives a tiny positive BLEU (and warns) where ours is 0."""
    hyp, ref = list("abxyz"), list("abcde")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        theirs = nltk_bleu.sentence_bleu([ref], hyp)
    messages = sorted(str(w.message).split("\n")[1] for w in caught)
    expected_nltk = math.exp(
        0.25 * (math.log(2 / 5) + math.log(1 / 4)) + 0.5 * math.log(sys.float_info.min)
    )
    ours = _ours(sentence_statistics(hyp, [ref], 4), "none")
    expected = (
        0.0,
        True,
        [f"The hypothesis contains 0 counts of {n}-gram overlaps." for n in (3, 4)],
    )
    assert expected == (ours, math.isclose(theirs, expected_nltk, rel_tol=1e-12), messages)


def test_method2_leaves_the_unigram_precision_alone() -> None:
    """This NLTK's method2 adds 1 only for n >= 2, as the contract: p_1 stays 2/5."""
    hyp, ref = list("abxyz"), list("abcde")
    p_n = [nltk_bleu.modified_precision([ref], hyp, n) for n in range(1, 5)]
    smoothed = nltk_bleu.SmoothingFunction().method2(p_n)
    ours = mtcompute.bleu_from_statistics([2, 1, 0, 0], [5, 4, 3, 2], 5, 5, "method2")
    expected = [(2, 5), (2, 5), (1, 4), (1, 3)]
    assert (expected, expected) == (
        [(p.numerator, p.denominator) for p in smoothed],
        list(zip(ours.smoothed_matches, ours.smoothed_totals, strict=True)),
    )
