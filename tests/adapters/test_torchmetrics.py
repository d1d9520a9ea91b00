"""mtcompute.adapters.torchmetrics: torchmetrics metrics whose corpus scores are
mtcompute's and sacreBLEU's, whose states add up across metric objects, and which agree with
torchmetrics' own text metrics where those agree with sacreBLEU."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("torchmetrics")
import sacrebleu  # noqa: E402
from torchmetrics.text import (  # noqa: E402
    CHRFScore,
    SacreBLEUScore,
    TranslationEditRate,
    WordErrorRate,
)

import mtcompute  # noqa: E402
from mtcompute.adapters.torchmetrics import BLEU, CHRF, TER, WER  # noqa: E402
from tests.adapters.wmt import (  # noqa: E402
    FIRST,
    HYPOTHESES,
    REFERENCE_STREAMS,
    REFERENCES,
    batches,
)
from tests.conftest import REPO, free_port  # noqa: E402

CASES: list[tuple[Any, dict[str, Any], Any, Any]] = [
    (BLEU, {}, mtcompute.corpus_bleu, sacrebleu.BLEU()),
    (BLEU, {"tokenize": "intl", "smooth_method": "floor"}, mtcompute.corpus_bleu, None),
    (CHRF, {}, mtcompute.corpus_chrf, sacrebleu.CHRF()),
    (CHRF, {"word_order": 2}, mtcompute.corpus_chrf, sacrebleu.CHRF(word_order=2)),
    (TER, {}, mtcompute.corpus_ter, sacrebleu.TER()),
]


def _updated(metric: Any, size: int) -> Any:
    for hyps, refs in batches(size):
        metric.update(hyps, refs)
    return metric


@pytest.mark.parametrize(
    ("cls", "options", "corpus", "sacre"), CASES, ids=["bleu", "bleu-intl", "chrf", "chrf++", "ter"]
)
def test_the_corpus_score_is_mtcompute_s_and_sacrebleu_s(
    cls: Any, options: dict[str, Any], corpus: Any, sacre: Any
) -> None:
    """Updated in batches of 37 segments, compute() is the corpus function's score of the
    whole sample (two references a segment), and sacreBLEU's, to the last bit."""
    metric = _updated(cls(**options), 37)
    expected = corpus(HYPOTHESES, REFERENCES, **options)
    score = metric.compute()
    assert (torch.float64, (), expected.score) == (score.dtype, score.shape, float(score))
    assert str(expected) == str(metric.result())
    if sacre is not None:
        assert sacre.corpus_score(HYPOTHESES, REFERENCE_STREAMS).score == float(score)


def test_wer_is_mtcompute_s() -> None:
    """WER and CER over batches are corpus_wer's (one reference string a segment)."""
    for unit in ("word", "character"):
        metric = WER(unit=unit)
        for i in range(0, len(HYPOTHESES), 64):
            metric.update(HYPOTHESES[i : i + 64], FIRST[i : i + 64])
        assert mtcompute.corpus_wer(HYPOTHESES, FIRST, unit=unit).score == float(metric.compute())


@pytest.mark.parametrize(
    ("cls", "options"), [(BLEU, {}), (CHRF, {"word_order": 2}), (TER, {}), (WER, {})]
)
def test_two_objects_states_merged_are_one_over_all_data(cls: Any, options: dict[str, Any]) -> None:
    """The sample split in two metric objects, their states merged by torchmetrics (each
    state's declared reduction: the sums of the statistics) give the one-object score and
    states, as processes synced by torch.distributed do."""
    refs: list[Any] = FIRST if cls is WER else REFERENCES
    whole, first, second = cls(**options), cls(**options), cls(**options)
    whole.update(HYPOTHESES, refs)
    first.update(HYPOTHESES[:90], refs[:90])
    second.update(HYPOTHESES[90:], refs[90:])
    assert {"sum"} == {
        getattr(fx, "__name__", str(fx)).removeprefix("dim_zero_")
        for name, fx in first._reductions.items()
        if name in ("statistics", "segments", "ref_length")
    }
    first.merge_state(second)
    assert torch.equal(whole.statistics, first.statistics)
    assert float(whole.compute()) == pytest.approx(float(first.compute()), rel=1e-15)
    if cls is not TER:  # integer states only: exactly the same number
        assert float(whole.compute()) == float(first.compute())


def test_torchmetrics_own_metrics_agree_where_they_agree_with_sacrebleu() -> None:
    """torchmetrics' SacreBLEUScore (no smoothing, and add-1 as its smooth=True) with one
    reference a segment, TranslationEditRate with one too and CHRFScore (chrF, no word
    orders) with two give sacreBLEU's numbers as fractions up to float32 rounding: the
    adapter gives the same, in percent, on the first 40 segments (torchmetrics' chrF takes 9
    s for all 200).
    Not compared: SacreBLEUScore with two references (it picks another reference length than
    sacreBLEU: 50.15 against 50.38 on the sample), TranslationEditRate past segment 40 (its
    shift search finds one edit fewer in segment 41 and one more in 56) and CHRFScore's
    chrF++ (its word n-grams are not sacreBLEU's: 3e-6 apart)."""
    hyps, one, two = HYPOTHESES[:40], [[ref] for ref in FIRST[:40]], REFERENCES[:40]
    pairs = [
        (BLEU(smooth_method="none"), SacreBLEUScore(), one, sacrebleu.BLEU(smooth_method="none")),
        (BLEU(smooth_method="add-k"), SacreBLEUScore(smooth=True), one, None),
        (CHRF(), CHRFScore(n_word_order=0), two, sacrebleu.CHRF()),
        (TER(), TranslationEditRate(), one, sacrebleu.TER()),
    ]
    for ours, theirs, refs, sacre in pairs:
        for i in range(0, len(hyps), 20):
            ours.update(hyps[i : i + 20], refs[i : i + 20])
            theirs.update(hyps[i : i + 20], refs[i : i + 20])
        assert float(theirs.compute()) * 100 == pytest.approx(float(ours.compute()), rel=1e-6)
        if sacre is not None:
            streams = [list(stream) for stream in zip(*refs, strict=True)]
            assert sacre.corpus_score(hyps, streams).score == float(ours.compute())
    ours, theirs = WER(), WordErrorRate()
    ours.update(HYPOTHESES, FIRST)
    theirs.update(HYPOTHESES, FIRST)
    assert float(theirs.compute()) * 100 == pytest.approx(float(ours.compute()), rel=1e-6)


def test_bad_settings_and_inputs_get_the_batch_api_s_messages() -> None:
    """A setting is checked when the metric is made, the texts at update(), with the batch
    API's errors naming the field; compute() before any update says what to do."""
    with pytest.raises(mtcompute.InvalidInput, match="tokenize"):
        BLEU(tokenize="no-such-tokenizer")
    metric = CHRF()
    with pytest.raises(mtcompute.InvalidInput, match="/references"):
        metric.update(["a", "b"], [["a"]])
    with pytest.raises(ValueError, match="CHRF: no segments to score; call update\\(\\) first"):
        metric.result()


def test_two_processes_of_torch_distributed_give_the_corpus_score() -> None:
    """Two gloo processes, each updating with every other segment: compute() syncs the
    summed statistics and gives the corpus score of all segments, to the last bit."""
    done = subprocess.run(
        [sys.executable, "-m", "tests.adapters.distributed_run", str(free_port())],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert 0 == done.returncode, done.stderr[-3000:]
    expected = {
        "bleu": mtcompute.corpus_bleu(HYPOTHESES, REFERENCES).score,
        "chrf++": mtcompute.corpus_chrf(HYPOTHESES, REFERENCES, word_order=2).score,
        "ter": mtcompute.corpus_ter(HYPOTHESES, FIRST).score,
        "wer": mtcompute.corpus_wer(HYPOTHESES, FIRST).score,
    }
    assert expected == json.loads(done.stdout.splitlines()[-1])
