"""sacreBLEU 2.6.0's ``metrics`` package: ``BLEU``, ``CHRF`` and ``TER`` with their score
classes, and ``METRICS`` by name."""

from __future__ import annotations

__all__ = ["BLEU", "CHRF", "METRICS", "TER", "BLEUScore", "CHRFScore", "TERScore"]

from typing import Any

from mtcompute.sacrebleu.metrics.base import Metric
from mtcompute.sacrebleu.metrics.bleu import BLEU, BLEUScore
from mtcompute.sacrebleu.metrics.chrf import CHRF, CHRFScore
from mtcompute.sacrebleu.metrics.ter import TER, TERScore

METRICS: dict[str, type[Metric[Any]]] = {"BLEU": BLEU, "CHRF": CHRF, "TER": TER}
