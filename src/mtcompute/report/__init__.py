"""The comparison report: several systems against a baseline, with paired significance tests,
bootstrap intervals and segment-level differences, as data and as one self-contained page.

This package's own module holds the settings only, so that the command line can declare its
options without importing numpy and Jinja2 (every ``mtcompute`` command builds the whole
parser; ``mtcompute score`` has a 100 ms start-up budget). The work is in
:mod:`mtcompute.report.page`: :func:`~mtcompute.report.page.compare` and
:func:`~mtcompute.report.page.render`.
"""

from __future__ import annotations

__all__ = [
    "CONFIDENCE_SAMPLES",
    "DEFAULT_SAMPLES",
    "DEFAULT_SEED",
    "METHODS",
    "METRICS",
    "THRESHOLD",
    "is_significant",
]

METRICS = ("bleu", "chrf", "chrf++", "ter", "wer", "cer")
"""The metrics a comparison can hold, by their command-line names."""
METHODS = ("bootstrap", "ar")
"""Paired bootstrap resampling, approximate randomization."""
DEFAULT_SAMPLES = {"bootstrap": 1000, "ar": 10000}
"""sacreBLEU's defaults: ``--paired-bs-n`` 1000, ``--paired-ar-n`` 10000."""
CONFIDENCE_SAMPLES = 1000
"""Bootstrap resamples for the intervals of an approximate-randomization comparison."""
THRESHOLD = 0.05
"""A p-value at most this marks a significant difference (sacreBLEU's rule)."""
DEFAULT_SEED = 12345
"""sacreBLEU's default seed, :data:`mtcompute.significance.DEFAULT_SEED` (repeated here, where
numpy is not imported; tests/test_compare.py checks they agree)."""


def is_significant(p_value: float | None) -> bool | None:
    """Whether a p-value marks a significant difference from the baseline: at most
    :data:`THRESHOLD`, the rule of sacreBLEU's ``print_results_table`` (``p <= 0.05`` gets its
    ``*``); None for the baseline, which has no p-value."""
    return None if p_value is None else p_value <= THRESHOLD
