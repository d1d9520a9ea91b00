"""mtcompute.adapters.pandas: a DataFrame's columns scored, the corpus score mtcompute's and
sacreBLEU's, the per-row Series the batch API's segment scores."""

from __future__ import annotations

from typing import Any

import pytest

pd = pytest.importorskip("pandas")
import sacrebleu  # noqa: E402

import mtcompute  # noqa: E402
from mtcompute.adapters.pandas import corpus_score, sentence_scores  # noqa: E402
from tests.adapters.wmt import HYPOTHESES, REFERENCE_STREAMS, REFERENCES  # noqa: E402

FRAME = pd.DataFrame(
    {"sys": HYPOTHESES, "ref_b": REFERENCE_STREAMS[0], "ref_c": REFERENCE_STREAMS[1]},
    index=[f"doc{i // 10}-{i % 10}" for i in range(len(HYPOTHESES))],
)
CASES: list[tuple[str, dict[str, Any], Any, Any]] = [
    ("bleu", {}, mtcompute.corpus_bleu, sacrebleu.BLEU()),
    ("bleu", {"tokenize": "intl"}, mtcompute.corpus_bleu, sacrebleu.BLEU(tokenize="intl")),
    ("chrf", {}, mtcompute.corpus_chrf, sacrebleu.CHRF()),
    ("ter", {"normalized": True}, mtcompute.corpus_ter, sacrebleu.TER(normalized=True)),
]


@pytest.mark.parametrize(
    ("metric", "options", "corpus", "sacre"), CASES, ids=["bleu", "bleu-intl", "chrf", "ter"]
)
def test_the_corpus_score_of_two_reference_columns(
    metric: str, options: dict[str, Any], corpus: Any, sacre: Any
) -> None:
    """The hypothesis column against two reference columns: the corpus function's result
    and sacreBLEU's score."""
    found = corpus_score(FRAME, metric, hypothesis="sys", reference=["ref_b", "ref_c"], **options)
    assert str(corpus(HYPOTHESES, REFERENCES, **options)) == str(found)
    assert sacre.corpus_score(HYPOTHESES, REFERENCE_STREAMS).score == found.score


def test_sentence_scores_are_a_series_on_the_frame_s_index() -> None:
    """Each row's score is sacreBLEU's sentence score, in a float Series indexed as the
    frame and named after the metric; chrF++ is its own metric name."""
    series = sentence_scores(FRAME, "chrf++", hypothesis="sys", reference="ref_b")
    chrf = sacrebleu.CHRF(word_order=2)
    expected = [
        chrf.sentence_score(h, [r]).score
        for h, r in zip(HYPOTHESES, REFERENCE_STREAMS[0], strict=True)
    ]
    assert (list(FRAME.index), "chrf++", "float64", expected) == (
        list(series.index),
        series.name,
        str(series.dtype),
        series.tolist(),
    )


def test_wer_of_a_frame_is_corpus_wer() -> None:
    """WER and CER take one reference column."""
    frame = FRAME.rename(columns={"sys": "hypothesis", "ref_b": "reference"})
    for metric, unit in (("wer", "word"), ("cer", "character")):
        expected = mtcompute.corpus_wer(HYPOTHESES, REFERENCE_STREAMS[0], unit=unit)  # type: ignore[arg-type]
        assert expected.score == corpus_score(frame, metric).score


def test_a_missing_cell_or_column_or_metric_is_named() -> None:
    """A missing value names its column and row label; an unknown column lists the frame's;
    an unknown metric lists the known ones."""
    frame = FRAME.copy()
    frame.loc["doc1-3", "ref_c"] = None
    with pytest.raises(
        ValueError, match=r"^column 'ref_c', row 'doc1-3': expected a string, got a missing value$"
    ):
        corpus_score(frame, hypothesis="sys", reference=["ref_b", "ref_c"])
    frame["sys"] = frame["sys"].astype(object)
    frame.loc["doc0-1", "sys"] = 3
    with pytest.raises(ValueError, match=r"^column 'sys', row 'doc0-1': expected a string, got 3$"):
        corpus_score(frame, hypothesis="sys", reference="ref_b")
    with pytest.raises(KeyError, match="no column 'hypothesis': the frame has 'sys', 'ref_b'"):
        sentence_scores(FRAME)
    with pytest.raises(ValueError, match=r"^metric: expected one of bleu, chrf, chrf\+\+, ter"):
        corpus_score(FRAME, "meteor", hypothesis="sys", reference="ref_b")
