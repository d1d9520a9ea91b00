"""The comparison behind the report: several systems against a baseline.

:func:`compare` computes each system's per-segment statistics once per metric
(:mod:`mtcompute.metrics`, sacreBLEU 2.6.0's statistics), runs paired bootstrap resampling
(Koehn 2004, §3-4) or approximate randomization (Riezler & Maxwell 2005, §3) in the native
arithmetic of :mod:`mtcompute.significance` (exact sums, float64 scores), each segment's
score as its metric defines one segment's, and with ``rank`` the rankings of all systems.
:mod:`mtcompute.report.page` draws the result.

A system is significantly different from the baseline when its p-value is at most 0.05
(:func:`mtcompute.report.is_significant`).
"""

from __future__ import annotations

__all__ = [
    "LOWER_IS_BETTER",
    "Comparison",
    "compare",
    "progress_steps",
    "segment_metric_of",
    "segment_scores",
    "sentence_chrf",
]

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, cast

import numpy as np

from mtcompute.metrics._corpus import signature_of
from mtcompute.metrics.bleu import score as sacre_bleu
from mtcompute.metrics.chrf.resample import ChrfMetric
from mtcompute.metrics.chrf.score import ChrfOptions, chrf_score, chrf_signature_fields
from mtcompute.metrics.ter import score as ter_scoring
from mtcompute.metrics.wer.corpus import CorpusWer, no_reference_unit
from mtcompute.metrics.wer.resample import WerMetric
from mtcompute.metrics.wer.text import WerOptions
from mtcompute.report import (
    CONFIDENCE_SAMPLES,
    DEFAULT_SAMPLES,
    DEFAULT_SEED,
    METHODS,
    paired,
)
from mtcompute.report.paired import AnyMetric
from mtcompute.significance import BleuMetric, Ranking, Result, rank_systems

if TYPE_CHECKING:
    pass


_METHOD_NAMES = {
    "bootstrap": "paired bootstrap resampling",
    "ar": "paired approximate randomization",
}


def _signature(metric: AnyMetric, nrefs: int) -> str:
    """The metric's signature as ``mtcompute score`` prints it (sacreBLEU's fields, then
    mtcompute's version)."""
    if isinstance(metric, BleuMetric):
        tokenizer = metric.options.tokenizer().signature
        fields = sacre_bleu.bleu_signature_fields(metric.options, nrefs, tokenizer)
    elif isinstance(metric, ChrfMetric):
        fields = chrf_signature_fields(metric.options, nrefs)
    elif isinstance(metric, WerMetric):  # WER's own signature, as `mtcompute score` prints it
        return CorpusWer.from_statistics((0, 0, 0, 0), metric.options, nrefs).signature
    else:
        fields = ter_scoring.ter_signature_fields(metric.options, nrefs)
    return signature_of(fields)


def sentence_chrf(statistics: Sequence[Sequence[int]]) -> list[float]:
    """Each segment's chrF2 from its own statistics (sacreBLEU's ``sentence_chrf``)."""
    options = ChrfOptions()
    return [chrf_score(row, options).score for row in statistics]


def segment_scores(metric: AnyMetric, statistics: Sequence[Sequence[int | float]]) -> list[float]:
    """Each segment's score from its own statistics, as the metric defines one segment's:
    BLEU as sacreBLEU's ``sentence_bleu`` (its smoothing, effective order), chrF and chrF++ as
    its ``sentence_chrf``, TER as its ``sentence_ter``, WER and CER as jiwer's rate of the one
    segment in percent (NaN where the reference has no unit: no rate)."""
    if isinstance(metric, BleuMetric):
        options = replace(metric.options, effective_order=True)
        return [sacre_bleu.bleu_score(row, options).score for row in statistics]
    if isinstance(metric, ChrfMetric):
        return [chrf_score(row, metric.options).score for row in statistics]  # type: ignore[arg-type]
    if isinstance(metric, WerMetric):
        return [100 * (int(e) / int(n)) if n else math.nan for e, n in statistics]
    return [ter_scoring.ter_score(int(e), float(n)).score for e, n in statistics]


LOWER_IS_BETTER = frozenset({"ter", "wer", "cer"})
"""The metrics that are error rates, by their command-line names."""


@dataclass(frozen=True, slots=True)
class Comparison:
    """Systems compared with a baseline: what :func:`compare` computed, ready to print or
    render. ``results[m][s]`` is metric ``m``'s result for system ``s`` (0: the baseline)."""

    names: tuple[str, ...]
    reference_names: tuple[str, ...]
    metrics: tuple[str, ...]
    metric_names: tuple[str, ...]
    signatures: tuple[str, ...]
    method: str
    samples: int
    seed: int
    results: tuple[tuple[Result, ...], ...]
    hypotheses: tuple[tuple[str, ...], ...]
    references: tuple[tuple[str, ...], ...]
    sentence_scores: tuple[tuple[float, ...], ...]
    sentence_metric: str = "chrf"
    rankings: tuple[Ranking, ...] = ()

    @property
    def segment_count(self) -> int:
        """The number of segments."""
        return len(self.references)

    @property
    def method_name(self) -> str:
        """``paired bootstrap resampling`` or ``paired approximate randomization``."""
        return _METHOD_NAMES[self.method]

    def lower_is_better(self, m: int) -> bool:
        """Whether metric ``m`` is an error rate (TER, WER, CER): lower is better."""
        return self.metrics[m] in LOWER_IS_BETTER


def progress_steps(systems: int, metrics: int, *, rank: bool = False) -> int:
    """The steps :func:`compare` reports for ``systems`` (the baseline included) and
    ``metrics``: each system counted for each metric, then each metric resampled (and, with
    ``rank``, each metric's all-pairs tests)."""
    return (systems + 1 + rank) * metrics


def _units(statistics: object) -> int:
    """The reference units of WER statistics (their second column's sum)."""
    return int(np.asarray(statistics)[:, 1].sum())


def segment_metric_of(metrics: Sequence[str], given: str | None = None) -> str:
    """The metric of the page's segment scores: ``given`` (one of ``metrics``), else chrF
    when it is among them, else the first of them."""
    if given is not None:
        if given not in metrics:
            raise ValueError(f"the segment metric {given!r} is not among {list(metrics)}")
        return given
    return "chrf" if "chrf" in metrics else metrics[0]


def compare(
    hypotheses: Sequence[Sequence[str]],
    references: Sequence[Sequence[str]],
    metrics: Sequence[str],
    *,
    names: Sequence[str],
    reference_names: Sequence[str],
    method: str = "bootstrap",
    samples: int | None = None,
    seed: int = DEFAULT_SEED,
    sentences: bool = True,
    progress: Callable[[int], object] = paired.no_progress,
    bleu: sacre_bleu.BleuOptions | None = None,
    chrf: ChrfOptions | None = None,
    wer: WerOptions | None = None,
    rank: bool = False,
    segment_metric: str | None = None,
) -> Comparison:
    """Compare ``hypotheses[1:]`` with the baseline ``hypotheses[0]`` (one string per
    segment each; ``references[i]``: segment ``i``'s references) on each metric of
    ``metrics`` (:data:`METRICS`) by ``method`` (:data:`METHODS`) with ``samples``
    resamples or trials (default :data:`DEFAULT_SAMPLES`) drawn from ``seed``; with
    ``sentences`` (for :func:`render`) each segment's score too, of ``segment_metric``
    (:func:`segment_metric_of`: chrF if among ``metrics``, else the first). With ``rank``,
    each metric's all-pairs ranking too (:func:`mtcompute.significance.rank_systems`: the
    same method, samples and seed). ``progress(n)`` is told of each step done: one a system
    and metric counted, then one a metric resampled, then one a metric ranked
    (:func:`progress_steps` in all). ``bleu``, ``chrf`` and ``wer``: their settings
    (sacreBLEU's and jiwer's defaults otherwise; chrF's word order and WER's unit are the
    metric name's)."""
    if method not in METHODS:
        raise ValueError(f"method must be one of {list(METHODS)}, got {method!r}")
    count = DEFAULT_SAMPLES[method] if samples is None else samples
    chosen = [paired.metric(name, bleu=bleu, chrf=chrf, wer=wer) for name in metrics]
    shown = segment_metric_of(metrics, segment_metric)
    nrefs = len(reference_names)
    test: paired.Method = "bootstrap" if method == "bootstrap" else "ar"
    tables = paired.tables(chosen, hypotheses, references, progress)
    for table in tables:  # an error rate needs reference units: the library's refusal
        if isinstance(table.metric, WerMetric) and not _units(table.statistics[0]):
            raise no_reference_unit(table.metric.options)
    results = paired.run(tables, test, samples=count, confidence=CONFIDENCE_SAMPLES, seed=seed)
    progress(len(tables))
    rankings: list[Ranking] = []
    if rank:
        for table in tables:
            rankings.append(
                rank_systems(table.metric, table.statistics, method=test, samples=count, seed=seed)
            )
            progress(1)
    # segment scores for the page (none without ``sentences``: no page will be drawn, and at
    # 100,000 segments they take seconds), from the chosen metric's own statistics
    sentence_scores: tuple[tuple[float, ...], ...] = ()
    if sentences:
        found = tables[list(metrics).index(shown)]
        sentence_scores = tuple(
            tuple(segment_scores(found.metric, cast("list[list[int]]", rows)))  # type: ignore[arg-type]
            for rows in found.statistics
        )
    return Comparison(
        names=tuple(names),
        reference_names=tuple(reference_names),
        metrics=tuple(metrics),
        metric_names=tuple(metric.name for metric in chosen),
        signatures=tuple(_signature(metric, nrefs) for metric in chosen),
        method=method,
        samples=count,
        seed=seed,
        results=tuple(tuple(row) for row in results),
        hypotheses=tuple(tuple(system) for system in hypotheses),
        references=tuple(tuple(segment) for segment in references),
        sentence_scores=sentence_scores,
        sentence_metric=shown,
        rankings=tuple(rankings),
    )
