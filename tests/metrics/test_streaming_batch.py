"""The batch and scoring functions on iterables (issue 15): a generator of segments gives the
result a list gives, read in chunks (``streaming.CHUNK_SEGMENTS``, here 3 or 200) in bounded
memory, with errors naming the segment's index in the whole input.
"""

from __future__ import annotations

import tracemalloc
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mtcompute import streaming
from mtcompute.errors import InvalidInput
from mtcompute.metrics._corpus import ResultSum
from mtcompute.metrics.bleu import score as sacre_bleu
from mtcompute.metrics.bleu.corpus import corpus_bleu
from mtcompute.metrics.chrf import score as chrf_scoring
from mtcompute.metrics.chrf.corpus import corpus_chrf
from mtcompute.metrics.ter import score as ter_scoring
from mtcompute.metrics.ter.corpus import corpus_ter
from tests.strategies import texts

CORPUS_FUNCTIONS: dict[str, Callable[..., Any]] = {
    "bleu": corpus_bleu,
    "chrf": corpus_chrf,
    "chrf++": lambda h, r, **kw: corpus_chrf(h, r, word_order=2, **kw),
    "chrf-contract": lambda h, r, **kw: corpus_chrf(h, r, rules="contract", **kw),
    "ter": corpus_ter,
}


@pytest.fixture(autouse=True)
def small_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Chunks of 3 segments: a few segments cross chunk boundaries."""
    monkeypatch.setattr(streaming, "CHUNK_SEGMENTS", 3)


def figures(result: Any) -> tuple[object, ...]:
    """What a result shows: its line, its JSON data, its score."""
    return str(result), result.to_dict(), result.score


corpora = st.integers(1, 10).flatmap(
    lambda n: st.tuples(
        st.lists(texts(), min_size=n, max_size=n), st.lists(texts(), min_size=n, max_size=n)
    )
)


@settings(max_examples=25, deadline=None)
@given(corpus=corpora, name=st.sampled_from(sorted(CORPUS_FUNCTIONS)), segments=st.booleans())
def test_a_generator_scores_as_its_list(
    corpus: tuple[list[str], list[str]], name: str, segments: bool
) -> None:
    """Generators of hypotheses and of references (flat or nested) give the list's result."""
    hyps, refs = corpus
    score = CORPUS_FUNCTIONS[name]
    nested = [[text] for text in refs]
    expected = figures(score(hyps, nested, segment_scores=segments))
    assert expected == figures(score((h for h in hyps), iter(nested), segment_scores=segments))
    assert figures(score(hyps, refs, segment_scores=segments)) == figures(
        score(iter(hyps), (r for r in refs), segment_scores=segments)
    )


@settings(max_examples=25, deadline=None)
@given(corpus=corpora)
def test_scoring_statistics_of_generators(corpus: tuple[list[str], list[str]]) -> None:
    """the metric packages' statistics and corpus scores of generators are the lists'."""
    hyps, flat = corpus
    refs = [[text] for text in flat]
    bleu, chrf, ter = sacre_bleu.BleuOptions(), chrf_scoring.ChrfOptions(), ter_scoring.TerOptions()
    expected = (
        sacre_bleu.bleu_statistics(hyps, refs, bleu, per_segment=True),
        chrf_scoring.chrf_statistics(hyps, refs, chrf, per_segment=True),
        ter_scoring.ter_statistics(hyps, refs, ter),
        sacre_bleu.corpus_bleu(hyps, refs, bleu),
        chrf_scoring.corpus_chrf(hyps, refs, chrf),
        ter_scoring.corpus_ter(hyps, refs, ter),
    )
    assert expected == (
        sacre_bleu.bleu_statistics(iter(hyps), iter(refs), bleu, per_segment=True),
        chrf_scoring.chrf_statistics(iter(hyps), iter(refs), chrf, per_segment=True),
        ter_scoring.ter_statistics(iter(hyps), iter(refs), ter),
        sacre_bleu.corpus_bleu(iter(hyps), iter(refs), bleu),
        chrf_scoring.corpus_chrf(iter(hyps), iter(refs), chrf),
        ter_scoring.corpus_ter(iter(hyps), iter(refs), ter),
    )


def test_a_lone_surrogate_in_a_later_chunk_names_its_index() -> None:
    """The eighth hypothesis (third chunk of 3) is /hypotheses/7, as in a list."""
    hyps = ["a b"] * 7 + ["x \ud800"] + ["c"]
    with pytest.raises(InvalidInput) as raised:
        corpus_chrf(iter(hyps), iter(["a b"] * 9))
    error = raised.value
    expected = ("Expected text without lone surrogates at /hypotheses/7, got U+D800 at index 2.",)
    assert (*expected, "/hypotheses/7") == (error.message, error.path)


def test_a_reference_of_another_form_in_a_later_chunk() -> None:
    """Flat references, then a list at segment 4: refused there, as a list's would be."""
    refs: list[Any] = ["a", "b", "c", "d", ["e"], "f"]
    with pytest.raises(InvalidInput) as raised:
        corpus_bleu(iter(["a"] * 6), iter(refs))
    expected = ("Expected a string at /references/4, got an array of 1 item.", "/references/4")
    assert expected == (raised.value.message, raised.value.path)


def test_generators_of_different_lengths_give_both_counts() -> None:
    """Seven hypotheses, five references: the counts of both, as for lists."""
    with pytest.raises(InvalidInput) as raised:
        corpus_ter(iter(["a"] * 7), iter(["a"] * 5))
    expected = (
        "Expected references to have as many segments as hypotheses (7) at /references, got 5."
    )
    assert expected == raised.value.message


def test_an_empty_generator_is_refused_as_an_empty_list() -> None:
    """No segment: the empty list's error."""
    with pytest.raises(InvalidInput) as raised:
        corpus_bleu(iter([]), iter([]))
    expected = "Expected at least 1 segment at /hypotheses, got an empty array."
    assert expected == raised.value.message


def test_a_chunk_s_type_error_in_scoring_names_the_whole_index() -> None:
    """The metric packages on generators: the kernel's checks name the index in the input."""
    refs: list[Any] = [["a"]] * 4 + [["a", 3]]
    with pytest.raises(TypeError) as raised:
        sacre_bleu.bleu_statistics(iter(["a"] * 5), iter(refs), sacre_bleu.BleuOptions())
    assert "references[4][1] must be a str, got int" == str(raised.value)


def segments(count: int) -> Iterator[str]:
    """``count`` distinct segments, each made when asked for."""
    for i in range(count):
        yield f"segment {i} of the corpus, with words {i % 7} and {i % 13}"


@pytest.mark.parametrize("name", ["bleu", "chrf", "ter"])
def test_peak_memory_does_not_grow_with_the_segments(
    monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    """tracemalloc's peak scoring 6,000 generated segments is under 1.5 times the peak of
    1,500 (chunks of 200): the texts are dropped chunk by chunk (a list of them would be
    4 times the size)."""
    monkeypatch.setattr(streaming, "CHUNK_SEGMENTS", 200)
    score = CORPUS_FUNCTIONS[name]
    peaks = []
    for count in (1_500, 6_000):
        tracemalloc.start()
        score(segments(count), segments(count))
        peaks.append(tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()
    assert (True, True) == (peaks[1] < 1.5 * peaks[0], peaks[0] > 0)


@pytest.mark.parametrize("metric", sorted(CORPUS_FUNCTIONS))
def test_a_result_sum_of_chunks_is_the_whole(metric: str) -> None:
    """ResultSum of the results of consecutive chunks is the result of the whole corpus
    (every metric; reference counts that vary where the rule allows), its segment scores
    aside."""
    corpus = CORPUS_FUNCTIONS[metric]
    hyps = ["the cat sat", "a dog", "on the mat here", "x"]
    refs = [["the cat sat down"], ["a dog", "the dog"], ["on a mat here"], ["y"]]
    if metric == "chrf-contract":  # the contract's rule: one reference a segment
        refs = [segment[:1] for segment in refs]
    total: ResultSum[Any] = ResultSum()
    for start in (0, 1, 3):
        stop = {0: 1, 1: 3, 3: 4}[start]
        total.add(corpus(hyps[start:stop], refs[start:stop]))
    expected = corpus(hyps, refs)
    assert (str(expected), expected.statistics) == (str(total.total()), total.total().statistics)


def test_a_result_sum_refuses_what_does_not_add() -> None:
    """ResultSum refuses a total before any result, results of other settings or metrics,
    and a TER result without its segment statistics."""
    empty: ResultSum[Any] = ResultSum()
    with pytest.raises(ValueError, match=r"^no result added$"):
        empty.total()
    mixed: ResultSum[Any] = ResultSum()
    mixed.add(corpus_chrf(["a b"], ["a c"]))
    for other in (corpus_chrf(["a b"], ["a c"], beta=3), corpus_bleu(["a b"], ["a c"])):
        with pytest.raises(ValueError, match=r"^cannot add results of different metrics or"):
            mixed.add(other)
    bare = corpus_ter(["a b"], ["a c"]).from_sum([1, 2.0], 1, None)
    with pytest.raises(ValueError, match=r"^a TER result without its segment statistics"):
        ResultSum().add(bare)


@pytest.mark.parametrize(
    ("corpus", "other", "metric"),
    [(corpus_bleu, {"lowercase": True}, "BLEU"), (corpus_chrf, {"beta": 1}, "chrF")],
    ids=["bleu", "chrf"],
)
def test_results_of_other_settings_do_not_add(
    corpus: Callable[..., Any], other: dict[str, Any], metric: str
) -> None:
    """``a + b`` of BLEU or chrF results is the result of both corpora; of different settings
    it is refused, naming the metric."""
    first = corpus(["a b"], ["a c"])
    with pytest.raises(ValueError, match=f"^cannot add {metric} results of different settings$"):
        first + corpus(["a b"], ["a c"], **other)
    both, whole = first + corpus(["d"], ["d e"]), corpus(["a b", "d"], ["a c", "d e"])
    assert (str(whole), whole.statistics) == (str(both), both.statistics)
