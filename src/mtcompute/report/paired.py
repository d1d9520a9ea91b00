"""Paired significance tests and bootstrap intervals of systems given as raw text: the one
path of ``mtcompute score --paired-bs / --paired-ar / --ci`` and of ``mtcompute compare``.

:func:`tables` extracts each system's per-segment sufficient statistics once per metric
(:mod:`mtcompute.metrics`, sacreBLEU 2.6.0's statistics), the references prepared once per
metric for all systems (:func:`mtcompute.metrics.bleu.score.bleu_references`,
:func:`mtcompute.metrics.chrf.score.chrf_references`,
:func:`~mtcompute.metrics.ter.score.ter_references`).
:func:`run` runs paired bootstrap resampling (Koehn 2004, §3-4), paired approximate
randomization (Riezler & Maxwell 2005, §3) or bootstrap intervals alone (sacreBLEU's
``--confidence``) in the native arithmetic of :mod:`mtcompute.significance`: exact sums,
float64 scores, the seed always honoured (0 included).
"""

from __future__ import annotations

__all__ = [
    "AnyMetric",
    "Extracted",
    "Method",
    "extract",
    "metric",
    "run",
    "run_draws",
    "tables",
]

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

import numpy as np

from mtcompute import significance
from mtcompute.metrics.bleu import score as sacre_bleu
from mtcompute.metrics.chrf.resample import ChrfMetric
from mtcompute.metrics.chrf.score import ChrfOptions, chrf_references, chrf_rows_of
from mtcompute.metrics.ter import score as ter_scoring
from mtcompute.metrics.wer.resample import WerMetric
from mtcompute.metrics.wer.text import Unit, WerOptions
from mtcompute.report import METRICS
from mtcompute.significance import BleuMetric, Result, Table, TerMetric

AnyMetric = BleuMetric | ChrfMetric | TerMetric | WerMetric
Method = Literal["bootstrap", "ar"]
WORD_ORDERS = {"chrf": 0, "chrf++": 2}  # the chrF metrics' word n-gram orders
WER_UNITS: dict[str, Unit] = {"wer": "word", "cer": "character"}  # the edit rate's unit


def metric(
    name: str,
    *,
    bleu: sacre_bleu.BleuOptions | None = None,
    chrf: ChrfOptions | None = None,
    ter: ter_scoring.TerOptions | None = None,
    wer: WerOptions | None = None,
) -> AnyMetric:
    """The significance metric of a command-line name (:data:`mtcompute.report.METRICS`)
    with the settings given (sacreBLEU's defaults otherwise; chrF's word order is the
    name's: 0 for ``chrf``, 2 for ``chrf++``; WER's unit too: words for ``wer``, characters
    for ``cer``)."""
    if name == "bleu":
        return BleuMetric(bleu or sacre_bleu.BleuOptions())
    if name in WORD_ORDERS:
        return ChrfMetric(replace(chrf or ChrfOptions(), word_order=WORD_ORDERS[name]))
    if name == "ter":
        return TerMetric(ter or ter_scoring.TerOptions())
    if name in WER_UNITS:
        return WerMetric(replace(wer or WerOptions(), unit=WER_UNITS[name]))
    raise ValueError(f"metric must be one of {list(METRICS)}, got {name!r}")


Rows = Sequence[Sequence[int | float]] | np.ndarray[Any, Any]
Totals = Sequence[int] | Sequence[tuple[int, float]]


@dataclass(frozen=True, slots=True)
class Extracted:
    """What :func:`extract` found: one :class:`~mtcompute.significance.Table` per metric,
    and ``totals[t][s]``, the summed statistics of system ``s`` for metric ``t`` as
    :mod:`mtcompute.metrics` summed them (TER: its per-segment statistics, which sacreBLEU
    sums in segment order)."""

    tables: tuple[Table, ...]
    totals: tuple[tuple[Totals, ...], ...]


def _matrix(buffer: bytes, width: int) -> Rows:
    """One system's per-segment counts (the kernel's int64 buffer) as a segments x width
    matrix over that buffer, without a Python object per segment."""
    return np.frombuffer(buffer, dtype=np.int64).reshape(-1, width)


def _rows(
    chosen: AnyMetric,
    hypotheses: Sequence[Sequence[str]],
    references: Sequence[Sequence[str]],
    progress: Callable[[int], object],
) -> tuple[list[Rows], list[Totals]]:
    """Each system's per-segment statistics for one metric, the references prepared once,
    and each system's totals; ``progress(1)`` after each system."""
    rows: list[Rows] = []
    totals: list[Totals] = []
    if isinstance(chosen, BleuMetric):
        bleu_refs = sacre_bleu.bleu_references(references, chosen.options)
        for system in hypotheses:
            total, buffer = sacre_bleu.bleu_rows_of(system, bleu_refs)
            rows.append(_matrix(buffer, chosen.width))
            totals.append(total)
            progress(1)
    elif isinstance(chosen, ChrfMetric):
        chrf_refs = chrf_references(references, chosen.options)
        for system in hypotheses:
            total, buffer = chrf_rows_of(system, chrf_refs)
            rows.append(_matrix(buffer, chosen.width))
            totals.append(total)
            progress(1)
    elif isinstance(chosen, WerMetric):
        for system in hypotheses:
            pairs = chosen.statistics(system, references)
            rows.append(np.array(pairs, dtype=np.int64).reshape(-1, chosen.width))
            totals.append([sum(p[0] for p in pairs), sum(p[1] for p in pairs)])
            progress(1)
    else:
        ter_refs = ter_scoring.ter_references(references, chosen.options)
        for system in hypotheses:
            segments = ter_scoring.ter_statistics_of(system, ter_refs)
            rows.append(np.array(segments, dtype=np.float64))
            totals.append(segments)
            progress(1)
    return rows, totals


def no_progress(_done: int) -> None:
    """The progress callback that reports to no one."""


def extract(
    metrics: Sequence[AnyMetric],
    hypotheses: Sequence[Sequence[str]],
    references: Sequence[Sequence[str]],
    progress: Callable[[int], object] = no_progress,
) -> Extracted:
    """The per-segment statistics and the totals of each system of ``hypotheses`` (one
    string per segment each, the baseline first) against ``references`` (``references[i]``:
    segment ``i``'s one or more references), for each metric; ``progress(1)`` after each
    system and metric."""
    found = [_rows(chosen, hypotheses, references, progress) for chosen in metrics]
    return Extracted(
        tuple(Table(chosen, rows) for chosen, (rows, _) in zip(metrics, found, strict=True)),
        tuple(tuple(totals) for _, totals in found),
    )


def tables(
    metrics: Sequence[AnyMetric],
    hypotheses: Sequence[Sequence[str]],
    references: Sequence[Sequence[str]],
    progress: Callable[[int], object] = no_progress,
) -> list[Table]:
    """:func:`extract`'s tables alone."""
    return list(extract(metrics, hypotheses, references, progress).tables)


def run_draws(
    method: Method | None,
    samples: int,
    confidence: int,
    systems: int,
    tables: int,
    seed: int | None,
) -> int:
    """The resamples and trials :func:`run` reports to ``progress`` in all, for ``tables``
    metrics of ``systems`` systems."""
    if method is None:  # one bootstrap per system and table
        return confidence * systems * tables
    return significance.paired_draws(method, samples, confidence, systems, seed)


def run(
    chosen: Sequence[Table],
    method: Method | None,
    *,
    samples: int,
    confidence: int,
    seed: int | None,
    progress: Callable[[int], object] = no_progress,
) -> list[list[Result]]:
    """``result[t][s]`` for table ``t`` and system ``s`` (0: the baseline) in the native
    arithmetic:

    * ``method="bootstrap"``: :func:`~mtcompute.significance.paired_bootstrap` with
      ``samples`` resamples (each system's mean and interval from the same resamples);
    * ``method="ar"``: :func:`~mtcompute.significance.paired_approximate_randomization` with
      ``samples`` trials and, when ``confidence`` is positive, each system's bootstrap mean
      and interval from ``confidence`` resamples;
    * ``method=None``: each system's own bootstrap mean and interval from ``confidence``
      resamples (:func:`~mtcompute.significance.bootstrap_confidence`, sacreBLEU's
      ``--confidence``), no p-value.

    ``progress(n)`` is told of each block of ``n`` resamples or trials drawn
    (:func:`run_draws` in all).
    """
    if method == "bootstrap":
        return significance.paired_bootstrap(
            chosen, samples=samples, seed=seed, arithmetic="native", progress=progress
        )
    if method == "ar":
        return significance.paired_approximate_randomization(
            chosen,
            trials=samples,
            confidence=confidence,
            seed=seed,
            arithmetic="native",
            progress=progress,
        )
    return [
        [
            significance.bootstrap_confidence(
                table.metric,
                stats,
                samples=confidence,
                seed=seed,
                arithmetic="native",
                progress=progress,
            )
            for stats in table.statistics
        ]
        for table in chosen
    ]
