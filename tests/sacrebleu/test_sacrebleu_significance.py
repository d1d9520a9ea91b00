"""``mtcompute.sacrebleu.significance`` (``PairedTest``, ``Result``, ``estimate_ci``,
``_bootstrap_resample``) and ``corpus_score(..., n_bootstrap=N)`` against sacreBLEU 2.6.0's
(imported here only): the same results (float ``==``), signatures and formatted scores, on
a window of the en-de WMT data; ``SACREBLEU_SEED`` read as sacreBLEU reads it, but for seed 0
(a seed here: the comparisons are sacreBLEU's own with ``seed=0``); the errors."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
import sacrebleu as real
from sacrebleu import significance as real_significance

import mtcompute.sacrebleu as facade
from mtcompute.sacrebleu import significance
from mtcompute.sacrebleu._errors import ArgumentError, LengthMismatch
from mtcompute.sacrebleu.utils import sum_of_lists
from tests.conftest import wmt_lines, wmt_window

PAIR = "generaltest2022/en-de"
SYSTEMS = ["JDExploreAcademy", "Online-B", "Online-W"]
WINDOW = (300, 360)  # sacreBLEU's TER is slow: 60 segments

MetricMaker = Callable[[Any, list[list[str]]], dict[str, Any]]


def _window() -> tuple[list[tuple[str, list[str]]], list[str]]:
    """Three en-de systems (the first the baseline) and reference A over a window."""
    ref = wmt_window(wmt_lines(f"{PAIR}/ref.A.txt"), *WINDOW)
    named = [(name, wmt_window(wmt_lines(f"{PAIR}/sys.{name}.txt"), *WINDOW)) for name in SYSTEMS]
    return named, ref


def _metrics(module: Any, refs: list[list[str]]) -> dict[str, Any]:
    """BLEU, chrF++ and TER of ``module`` (sacreBLEU's or the facade's), references cached."""
    return {
        "BLEU": module.BLEU(references=refs),
        "CHRF": module.CHRF(word_order=2, references=refs),
        "TER": module.TER(normalized=True, references=refs),
    }


def _view(signatures: dict[str, Any], scores: dict[str, list[Any]]) -> object:
    """What a PairedTest returns, as plain data: signatures (long and short) and each result's
    score, p-value, mean and half width as Python floats."""

    def number(value: object) -> float | None:
        return None if value is None else float(value)  # type: ignore[arg-type]

    return (
        {name: (sig.format(), sig.format(True)) for name, sig in signatures.items()},
        {
            key: column
            if key == "System"
            else [(number(r.score), r.p_value, number(r.mean), number(r.ci)) for r in column]
            for key, column in scores.items()
        },
    )


@pytest.mark.parametrize(
    ("seed", "test_type", "n_samples", "n_ar_confidence"),
    [("12345", "bs", 150, -1), ("7", "ar", 300, -1), ("12345", "ar", 200, 60), ("7", "bs", 0, 0)],
)
def test_paired_test_is_sacrebleus(
    monkeypatch: pytest.MonkeyPatch, seed: str, test_type: str, n_samples: int, n_ar_confidence: int
) -> None:
    """PairedTest of BLEU, chrF++ and TER (three systems, cached references): the same
    signatures and results as sacreBLEU's, float for float (n_samples 0 and n_ar_confidence 0
    take the defaults)."""
    monkeypatch.setenv("SACREBLEU_SEED", seed)
    named, ref = _window()
    if n_samples == 0:  # the default 1000 resamples: BLEU alone keeps it quick
        named = named[:2]

    def run(module: Any, paired_test: Any) -> object:
        metrics = _metrics(module, [ref])
        if n_samples == 0:
            metrics = {"BLEU": metrics["BLEU"]}
        test = paired_test(named, metrics, None, test_type, n_samples, n_ar_confidence)
        return _view(*test())

    expected = run(real, real_significance.PairedTest)
    assert expected == run(facade, significance.PairedTest)


@pytest.mark.parametrize("test_type", ["bs", "ar"])
def test_seed_zero_is_a_seed(monkeypatch: pytest.MonkeyPatch, test_type: str) -> None:
    """SACREBLEU_SEED=0: sacreBLEU's signature (seed:0), and the comparisons of sacreBLEU's
    own test functions called with seed=0 (its PairedTest would pass them None)."""
    monkeypatch.setenv("SACREBLEU_SEED", "0")
    named, ref = _window()
    oracle = real_significance.PairedTest(named, _metrics(real, [ref]), None, test_type, 120)
    signatures, scores = oracle()
    for index, (name, hyps) in enumerate(named[1:], start=1):
        _, seeded = oracle._fn(oracle._baseline_info, name, hyps, None, oracle.metrics, 120, -1, 0)
        for metric, result in seeded.items():
            scores[metric][index] = result
    actual = significance.PairedTest(named, _metrics(facade, [ref]), None, test_type, 120)
    assert _view(signatures, scores) == _view(*actual())


def test_unseeded_runs_keep_what_does_not_depend_on_the_draws(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """SACREBLEU_SEED=None: seed:none in the signature, the scores of the seeded run, and
    p-values of the (1 + count) / (S + 1) form."""
    named, ref = _window()
    monkeypatch.setenv("SACREBLEU_SEED", "None")
    signatures, scores = significance.PairedTest(named, _metrics(facade, [ref]), None, "ar", 99)()
    monkeypatch.setenv("SACREBLEU_SEED", "12345")
    _, seeded = significance.PairedTest(named, _metrics(facade, [ref]), None, "ar", 99)()
    counts = [
        (r.p_value * 100) % 1
        for key, column in scores.items()
        if key != "System"
        for r in column[1:]
    ]
    assert (
        ["nrefs:1|ar:99|seed:none|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0"],
        [[r.score for r in column] for key, column in seeded.items() if key != "System"],
        [0.0] * 6,
    ) == (
        [signatures["BLEU"].format()],
        [[r.score for r in column] for key, column in scores.items() if key != "System"],
        [round(c, 9) % 1 for c in counts],
    )


@pytest.mark.parametrize(
    ("seed", "name"),
    [("12345", "BLEU"), ("0", "BLEU"), (" 12", "CHRF"), ("7", "CHRF"), ("12345", "TER")],
)
def test_corpus_score_with_bootstrap_is_sacrebleus(
    monkeypatch: pytest.MonkeyPatch, seed: str, name: str
) -> None:
    """corpus_score(..., n_bootstrap=80): the same mean and half width, formatted score (text
    and JSON, with its bs and seed signature fields) as sacreBLEU's (seed 0 is a seed there
    too)."""
    monkeypatch.setenv("SACREBLEU_SEED", seed)
    named, ref = _window()

    def run(module: Any) -> object:
        metric = _metrics(module, [ref])[name]
        score = metric.corpus_score(named[1][1], None, n_bootstrap=80)
        sig = metric.get_signature()
        return (
            float(score._mean),
            float(score._ci),
            score.format(3, False, sig.format()),
            score.format(2, False, sig.format(), True),
            sig.format(True),
        )

    assert run(real) == run(facade)


def test_bootstrap_resample_and_estimate_ci_are_sacrebleus() -> None:
    """_bootstrap_resample's seed text and scores, and estimate_ci of them, are sacreBLEU's."""
    named, ref = _window()
    stats = facade.CHRF()._extract_corpus_statistics(named[0][1], [ref])
    seed, scores = real_significance._bootstrap_resample(stats, real.CHRF(), 50)
    ours_seed, ours = significance._bootstrap_resample(stats, facade.CHRF(), 50)
    expected = np.array([s.score for s in scores])
    assert (
        seed,
        [float(s) for s in expected],
        *map(float, real_significance.estimate_ci(expected)),
    ) == (
        ours_seed,
        [s.score for s in ours],
        *significance.estimate_ci([s.score for s in ours]),
    )


def test_result_is_sacrebleus() -> None:
    """Result's fields and repr are sacreBLEU's (for Python floats)."""
    expected = real_significance.Result(37.5, 0.001998001998001998, 37.2, 0.98)
    actual = significance.Result(37.5, 0.001998001998001998, 37.2, 0.98)
    assert (vars(expected), repr(expected), repr(real_significance.Result(1.0))) == (
        vars(actual),
        repr(actual),
        repr(significance.Result(1.0)),
    )


def _paired(**kwargs: Any) -> Callable[[], object]:
    named, ref = _window()
    return lambda: significance.PairedTest(named, _metrics(facade, [ref]), None, **kwargs)


@pytest.mark.parametrize(
    ("seed", "call", "error", "message"),
    [
        ("abc", _paired(), ArgumentError,
         "SACREBLEU_SEED: expected a non-negative integer or 'None', got 'abc'"),
        ("-3", _paired(test_type="bs"), ArgumentError,
         "SACREBLEU_SEED: expected a non-negative integer or 'None', got '-3'"),
        ("1.5", lambda: facade.BLEU().corpus_score(["a"], [["a"]], n_bootstrap=5), ArgumentError,
         "SACREBLEU_SEED: expected a non-negative integer or 'None', got '1.5'"),
        ("7", _paired(test_type="xx"), ArgumentError,
         "PairedTest: Unknown test type 'xx': use 'ar' or 'bs'."),
        ("7", _paired(n_jobs=-1), ArgumentError,
         "PairedTest: n_jobs should be at least 0 (0: one worker per system), got -1."),
        ("7", lambda: significance.PairedTest([], {}, None), ArgumentError,
         "PairedTest: named_systems is empty: give the baseline first."),
        ("7", lambda: significance.significance_metric(object()), TypeError,  # type: ignore[arg-type]
         "expected a BLEU, CHRF or TER of mtcompute.sacrebleu, got object"),
    ],
)  # fmt: skip
def test_errors_are_named(
    monkeypatch: pytest.MonkeyPatch,
    seed: str,
    call: Callable[[], object],
    error: type[Exception],
    message: str,
) -> None:
    """A bad SACREBLEU_SEED (read when the test is built or the score resampled), test type or
    n_jobs raises an error naming it."""
    monkeypatch.setenv("SACREBLEU_SEED", seed)
    with pytest.raises(error) as raised:
        call()
    assert message == str(raised.value)


def test_the_seed_is_read_when_the_test_is_built(monkeypatch: pytest.MonkeyPatch) -> None:
    """As sacreBLEU's, PairedTest reads SACREBLEU_SEED when built, not when called."""
    named, ref = _window()
    monkeypatch.setenv("SACREBLEU_SEED", "7")
    test = significance.PairedTest(named, _metrics(facade, [ref]), None, "bs", 60)
    monkeypatch.setenv("SACREBLEU_SEED", "8")
    late = _view(*test())
    monkeypatch.setenv("SACREBLEU_SEED", "7")
    assert _view(*significance.PairedTest(named, _metrics(facade, [ref]), None, "bs", 60)()) == late


@pytest.mark.parametrize(
    "metric",
    [
        lambda refs: facade.BLEU(references=refs),
        lambda refs: facade.BLEU(
            lowercase=True, tokenize="char", max_ngram_order=2, references=refs
        ),
        lambda refs: facade.BLEU(effective_order=True, tokenize="intl", references=refs),
        lambda refs: facade.CHRF(references=refs),
        lambda refs: facade.CHRF(word_order=2, lowercase=True, whitespace=True, references=refs),
    ],
)
def test_kernel_rows_are_the_statistics_lists(metric: Callable[[Any], Any]) -> None:
    """PairedTest reads a system's statistics of BLEU and chrF against the constructor's
    references as the kernel's rows and their totals: the numbers of
    _extract_corpus_statistics and their sums, the same error for a system of another
    length."""
    named, ref = _window()
    chosen = metric([ref])
    rows = significance._rows_reader(chosen, None)
    assert rows is not None
    for _, hyps in named:
        listed = chosen._extract_corpus_statistics(hyps, None)
        expected = np.asarray(listed)
        totals, found = rows(hyps)
        assert (expected.shape, expected.tolist(), sum_of_lists(listed)) == (
            found.shape,
            found.tolist(),
            totals,
        )
    with pytest.raises(LengthMismatch) as theirs:
        chosen._extract_corpus_statistics(named[0][1][1:], None)
    with pytest.raises(LengthMismatch) as ours:
        rows(named[0][1][1:])
    assert str(theirs.value) == str(ours.value)


def test_other_metrics_read_their_statistics_lists() -> None:
    """TER, references given to the test, a metric changed since it cached its references
    and a metric with a hook of its own keep _extract_corpus_statistics."""
    _, ref = _window()

    class Hooked(facade.CHRF):
        def _remove_punctuation(self, sent: str) -> list[str]:  # a hook of sacreBLEU's
            return sent.split()

    changed = facade.CHRF(references=[ref])
    changed.lowercase = True
    cases = [
        (facade.TER(references=[ref]), None),
        (facade.BLEU(references=[ref]), [ref]),
        (changed, None),
        (Hooked(references=[ref]), None),
    ]
    assert [significance._rows_reader(m, refs) for m, refs in cases] == [None] * len(cases)


@pytest.mark.parametrize(("test_type", "n_ar_confidence"), [("bs", -1), ("ar", 40), ("ar", -1)])
def test_the_baseline_alone_is_sacrebleus(
    monkeypatch: pytest.MonkeyPatch, test_type: str, n_ar_confidence: int
) -> None:
    """PairedTest of the baseline alone (its score, and its interval when resampled): the
    same as sacreBLEU's, its statistics read as rows (BLEU, chrF++) or lists (TER)."""
    monkeypatch.setenv("SACREBLEU_SEED", "7")
    named, ref = _window()

    def run(module: Any, paired_test: Any) -> object:
        test = paired_test(named[:1], _metrics(module, [ref]), None, test_type, 50, n_ar_confidence)
        return _view(*test())

    assert run(real, real_significance.PairedTest) == run(facade, significance.PairedTest)
