"""sacreBLEU-exact scoring from raw text, by its old name: every metric's sacreBLEU rules now
live in its own package (:mod:`mtcompute.metrics.bleu.score`,
:mod:`mtcompute.metrics.chrf.score`, :mod:`mtcompute.metrics.ter.score`), and the score line
and signature strings in :mod:`mtcompute.metrics._base`.

The names below (TER's, the score line's) are bound here while the tools, the report and
the sacreBLEU facade still import them as ``scoring.*``; new code imports from the metric
packages.
"""

from __future__ import annotations

__all__ = [
    "SACREBLEU_VERSION",
    "TER_ABBREVIATIONS",
    "TerOptions",
    "TerReferences",
    "TerResult",
    "corpus_ter",
    "format_score",
    "format_signature",
    "ter_references",
    "ter_score",
    "ter_signature_fields",
    "ter_statistics",
    "ter_statistics_of",
    "ter_texts",
]

from mtcompute.metrics._base import SACREBLEU_VERSION, format_score, format_signature
from mtcompute.metrics.ter.score import (
    TER_ABBREVIATIONS,
    TerOptions,
    TerReferences,
    TerResult,
    corpus_ter,
    ter_references,
    ter_score,
    ter_signature_fields,
    ter_statistics,
    ter_statistics_of,
    ter_texts,
)
