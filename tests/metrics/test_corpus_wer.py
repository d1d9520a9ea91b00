"""mtcompute.corpus_wer: the library form of wer-compute, any size, lists or iterables in
chunks, with the tool's numbers and checks (and jiwer's, through the tool's tests)."""

from __future__ import annotations

import math
import random

import pytest

import mtcompute
from mtcompute import streaming
from mtcompute.metrics.wer.corpus import CorpusWer, corpus_wer
from mtcompute.tools.wer_compute import wer_compute
from tests.conftest import WMT
from tests.harness import read_lines
from tests.jiwer_oracle import jiwer_result

HYPS = ["the cat sat on mat", "a quick brown fox jumps over the dog", "", "extra words"]
REFS = ["the cat sat on the mat", "a fast brown fox jumped over the lazy dog", "said", ""]
OPTIONS = [
    {},
    {"unit": "character"},
    {"lowercase": True, "remove_punctuation": True, "collapse_whitespace": True},
]


@pytest.mark.parametrize("options", OPTIONS, ids=["word", "character", "normalised"])
def test_the_numbers_are_the_tools(options: dict[str, object]) -> None:
    """rate, counts and segment scores (in percent, NaN without reference units) are
    wer-compute's; score is the rate in percent; the package exports it."""
    result = mtcompute.corpus_wer(HYPS, REFS, segment_scores=True, **options)  # type: ignore[arg-type]
    tool = wer_compute(HYPS, REFS, **options).to_dict()  # type: ignore[arg-type]
    assert result.segment_scores is not None
    segments = [None if math.isnan(s) else s / 100 for s in result.segment_scores]
    assert (tool["score"], 100 * tool["score"], tool["hits"], tool["insertions"]) == (
        result.rate,
        result.score,
        result.counts.hits,
        result.counts.insertions,
    )
    assert [s["score"] for s in tool["segments"]] == pytest.approx(segments, nan_ok=True)


def test_the_line_and_json() -> None:
    """str() is the score line with the signature; to_dict() holds the rate, options and
    counts."""
    result = corpus_wer(HYPS[:2], REFS[:2], unit="character", lowercase=True)
    data = result.to_dict()
    assert str(result).startswith("CER|nrefs:1|unit:character|lc:yes|punct:yes|ws:jiwer|")
    assert (
        data["name"],
        data["rate"],
        data["hits"] + data["substitutions"] + data["deletions"],
    ) == (
        "CER",
        result.rate,
        data["reference_length"],
    )


def test_iterables_in_chunks_give_the_lists_result(monkeypatch: pytest.MonkeyPatch) -> None:
    """A generator read in chunks of 3 (the first chunks without reference units) gives the
    list's result; two results add up to the whole."""
    monkeypatch.setattr(streaming, "CHUNK_SEGMENTS", 3)
    rng = random.Random(5)
    hyps = ["x y"] * 4 + [" ".join(rng.choice("abc") for _ in range(9)) for _ in range(20)]
    refs = [""] * 4 + [" ".join(rng.choice("abc") for _ in range(8)) for _ in range(20)]
    whole = corpus_wer(hyps, refs, segment_scores=True)
    streamed = corpus_wer(iter(hyps), iter(refs), segment_scores=True)
    added = corpus_wer(hyps[:10], refs[:10]) + corpus_wer(hyps[10:], refs[10:])
    assert (whole.rate, whole.counts) == (streamed.rate, streamed.counts)
    assert whole.segment_scores == pytest.approx(streamed.segment_scores, nan_ok=True)
    assert (whole.rate, whole.counts) == (added.rate, added.counts)


@pytest.mark.parametrize(
    ("call", "path"),
    [
        (lambda: corpus_wer(["a"], [""]), "/references"),
        (lambda: corpus_wer(iter(["a", "b"]), iter(["", " "])), "/references"),
        (lambda: corpus_wer([1], ["a"]), "/hypotheses/0"),  # type: ignore[list-item]
        (lambda: corpus_wer(["a"], ["a", "b"]), "/references"),
        (lambda: corpus_wer(["a"], ["b\ud800"]), "/references/0"),
        (lambda: corpus_wer(["a"], ["b"], unit="token"), "/unit"),  # type: ignore[arg-type]
        (lambda: corpus_wer(["a"], ["b"], collapse_whitespace=1), "/collapse_whitespace"),  # type: ignore[arg-type]
    ],
    ids=["no unit", "no unit in chunks", "not a string", "counts", "surrogate", "unit", "flag"],
)
def test_bad_arguments_are_coded_errors(call: object, path: str) -> None:
    """Each fault is InvalidInput naming the argument."""
    with pytest.raises(mtcompute.InvalidInput) as caught:
        call()  # type: ignore[operator]
    assert caught.value.path == path


def test_a_wmt_system_is_jiwers() -> None:
    """A WMT system against its reference, in words and characters: jiwer's corpus rate and
    counts."""
    folder = WMT / "newstest2021/en-de"
    refs = read_lines(sorted(folder.glob("ref.*.txt"))[0])
    hyps = read_lines(sorted(p for p in folder.glob("sys.*.txt") if ".tok." not in p.name)[0])
    for unit in ("word", "character"):
        result: CorpusWer = corpus_wer(hyps, refs, unit=unit)  # type: ignore[arg-type]
        expected = jiwer_result(hyps, refs, unit)
        assert (expected["score"], expected["hits"], expected["deletions"]) == (
            result.rate,
            result.counts.hits,
            result.counts.deletions,
        )
