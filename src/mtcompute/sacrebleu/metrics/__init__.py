"""sacreBLEU 2.6.0's ``metrics`` package: ``BLEU`` and ``CHRF`` with their score classes, and
``METRICS`` by name (TER joins with its own issue)."""

from __future__ import annotations

__all__ = ["BLEU", "CHRF", "METRICS", "BLEUScore", "CHRFScore"]

from mtcompute.sacrebleu.metrics.base import Metric
from mtcompute.sacrebleu.metrics.bleu import BLEU, BLEUScore
from mtcompute.sacrebleu.metrics.chrf import CHRF, CHRFScore

METRICS: dict[str, type[Metric[BLEUScore]] | type[Metric[CHRFScore]]] = {"BLEU": BLEU, "CHRF": CHRF}
