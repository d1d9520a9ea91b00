"""How often a metric's score difference between two systems agrees with human judgement:
Kocmi, Zouhar, Federmann and Post (2024), "Navigating the Metrics Maze: Reconciling Score
Magnitudes and Accuracies", ACL 2024: the accuracy of a metric delta ``Δ`` (the
percentage of system pairs whose order by the metric matches the humans' order, among pairs
with that delta) fitted per metric as ``a / (1 + exp(-b · Δ))``.

The constants are the authors' fitted ``a`` and ``b`` as their tool ``mt-thresholds``
publishes them (its ``_thresholds_raw``), and its formula, for the metrics this package
computes with the settings they used: sacreBLEU's BLEU and chrF2 (``bleu`` and ``chrf``
there), and spBLEU with the FLORES-101 and FLORES-200 models (``spBLEU101``, ``spBLEU200``).
They fitted no curve for chrF++, TER, WER, CER or spBLEU-1K: :func:`human_agreement` returns
None for those (not available), never a number of ours.
"""

from __future__ import annotations

__all__ = ["KOCMI_2024", "SPBLEU_CURVES", "human_agreement"]

import math
from typing import Final

KOCMI_2024: Final[dict[str, tuple[float, float]]] = {
    "BLEU": (88.33333333333225, 0.9663926931178954),
    "chrF2": (92.999999999972, 1.1142732157139852),
    "spBLEU101": (84.58445492823891, 1.262507595109315),
    "spBLEU200": (90.99999999998793, 0.8079046528617078),
}
"""(a, b) of each curve, by the metric's sacreBLEU score name (spBLEU101 and spBLEU200:
BLEU tokenized by the FLORES-101 and FLORES-200 SentencePiece models); ``a`` is in percent,
``b`` per point of the metric (0-100 scale)."""

SPBLEU_CURVES: Final[dict[str, str]] = {
    "flores101": "spBLEU101",
    "spm": "spBLEU101",  # sacreBLEU's spm is the FLORES-101 model
    "flores200": "spBLEU200",
    "spBLEU-1K": "spBLEU-1K",  # no curve fitted: no estimate
}
"""The curve of BLEU under each SentencePiece tokenizer (the others: BLEU's)."""


def human_agreement(metric: str, delta: float) -> float | None:
    """The estimated accuracy, in percent, with which a difference of ``delta`` points of
    ``metric`` (a curve name: ``BLEU``, ``chrF2``, ``spBLEU101``) orders two systems as humans
    do: ``a / (1 + exp(-b · |delta|))`` with Kocmi et al.'s ``a`` and ``b``; None for a metric
    they fitted no curve for.

    >>> round(human_agreement("BLEU", 1.0), 3), human_agreement("TER", 1.0)
    (63.989, None)
    """
    if metric not in KOCMI_2024:
        return None
    a, b = KOCMI_2024[metric]
    # math.pow(math.e, x), not math.exp(x): their tool's expression, to the last bit
    return a * (1 / (1 + math.pow(math.e, -b * abs(delta))))
