"""sacreBLEU 2.6.0's floating-point steps for BLEU, in its operation order.

The tools, the library and the command lines that promise sacreBLEU's numbers
(docs/decisions.md, "Two families") compute the statistics exactly, as integers, then
score them here as sacreBLEU does on CPython: Python floats and :mod:`math`, step for step.

* :func:`compute_bleu` is ``BLEU.compute_bleu`` (``sacrebleu/metrics/bleu.py``): Papineni et
  al. 2002 §2.1-2.3 with the smoothing methods of Chen & Cherry 2014 §2 that sacreBLEU names
  ``floor`` (method 1), ``add-k`` (method 2) and ``exp`` (method 3, mteval-v13a's).

chrF's, ``CHRF._compute_f_score``, is
:func:`mtcompute.metrics.chrf.sacrebleu_statistics.chrf_f_score`.

Statistics are sacreBLEU's flat lists: ``[sys_len, ref_len, correct_1..N, total_1..N]``.
"""

from __future__ import annotations

__all__ = [
    "BLEU_SMOOTHING",
    "SMOOTH_DEFAULTS",
    "BleuParts",
    "compute_bleu",
    "my_log",
]

import math
from collections.abc import Sequence
from dataclasses import dataclass

SMOOTH_DEFAULTS: dict[str, float | None] = {"none": None, "floor": 0.1, "add-k": 1, "exp": None}
"""sacreBLEU's smoothing methods and the value each uses when none is given."""

BLEU_SMOOTHING: tuple[str, ...] = tuple(SMOOTH_DEFAULTS)


def my_log(x: float) -> float:
    """sacreBLEU's ``utils.my_log``: ``math.log``, with log 0 floored at -9999999999."""
    if x == 0.0:
        return -9999999999
    return math.log(x)


@dataclass(frozen=True, slots=True)
class BleuParts:
    """What sacreBLEU's ``BLEUScore`` holds. ``counts`` and ``totals`` are as it keeps them:
    after ``add-k`` added the smoothing value to the orders 2 and up that it reached."""

    score: float
    counts: tuple[int | float, ...]
    totals: tuple[int | float, ...]
    precisions: tuple[float, ...]
    bp: float
    sys_len: int
    ref_len: int


def compute_bleu(
    correct: Sequence[int | float],
    total: Sequence[int | float],
    sys_len: int,
    ref_len: int,
    smooth_method: str = "none",
    smooth_value: float | None = None,
    effective_order: bool = False,
    max_ngram_order: int = 4,
) -> BleuParts:
    """BLEU from its sufficient statistics, as ``BLEU.compute_bleu`` computes it.

    >>> round(compute_bleu([3, 1, 0, 0], [4, 3, 2, 1], 4, 5, "exp").score, 6)
    27.534766
    """
    if smooth_method not in SMOOTH_DEFAULTS:
        raise ValueError(f"Unknown smooth_method {smooth_method!r}")
    if smooth_value is None:
        smooth_value = SMOOTH_DEFAULTS[smooth_method]
    k = 0 if smooth_value is None else smooth_value  # None only for none and exp, unused
    correct = list(correct)  # sacreBLEU changes its (sliced) lists in place; not ours
    total = list(total)

    bp = 1.0
    if sys_len < ref_len:
        bp = math.exp(1 - ref_len / sys_len) if sys_len > 0 else 0.0

    precisions = [0.0] * max_ngram_order

    if not any(correct):  # sacreBLEU's early stop (its issue #141)
        return BleuParts(0.0, tuple(correct), tuple(total), tuple(precisions), bp, sys_len, ref_len)

    smooth_mteval = 1.0
    eff_order = max_ngram_order
    for n in range(1, len(precisions) + 1):
        if smooth_method == "add-k" and n > 1:
            correct[n - 1] += k
            total[n - 1] += k
        if total[n - 1] == 0:
            break
        if effective_order:
            eff_order = n
        if correct[n - 1] == 0:
            if smooth_method == "exp":
                smooth_mteval *= 2
                precisions[n - 1] = 100.0 / (smooth_mteval * total[n - 1])
            elif smooth_method == "floor":
                precisions[n - 1] = 100.0 * k / total[n - 1]
        else:
            precisions[n - 1] = 100.0 * correct[n - 1] / total[n - 1]

    score = bp * math.exp(sum([my_log(p) for p in precisions[:eff_order]]) / eff_order)
    return BleuParts(score, tuple(correct), tuple(total), tuple(precisions), bp, sys_len, ref_len)
