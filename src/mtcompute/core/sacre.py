"""sacreBLEU 2.6.0's floating-point steps for chrF, in its operation order.

The tools, the library and the command lines that promise sacreBLEU's numbers
(docs/decisions.md, "Two families") compute the statistics exactly, as integers, then
score them here as sacreBLEU does on CPython: Python floats, step for step.

* :func:`chrf_f_score` is ``CHRF._compute_f_score`` (``sacrebleu/metrics/chrf.py``): Popović
  2015 §2 (chrF) and 2017 (chrF++), averaged over the orders with both sides present
  (sacreBLEU's effective order) or, with ``eps_smoothing``, chrF++.py's epsilon rule.

Statistics are sacreBLEU's flat lists: chrF ``[n_hyp, n_ref, n_match]`` per order. BLEU's
steps are :mod:`mtcompute.metrics.bleu.score`'s.
"""

from __future__ import annotations

__all__ = ["chrf_f_score"]

from collections.abc import Sequence


def chrf_f_score(
    statistics: Sequence[int], order: int, beta: int, eps_smoothing: bool = False
) -> float:
    """chrF (0..100) of flat ``[n_hyp, n_ref, n_match]`` statistics for ``order`` orders, as
    ``CHRF._compute_f_score`` computes it.

    >>> chrf_f_score([2, 2, 1], 1, 2)
    50.0
    """
    eps = 1e-16
    score = 0.0
    effective_order = 0
    factor = beta**2
    avg_prec, avg_rec = 0.0, 0.0

    for i in range(order):
        n_hyp, n_ref, n_match = statistics[3 * i : 3 * i + 3]
        prec = n_match / n_hyp if n_hyp > 0 else eps
        rec = n_match / n_ref if n_ref > 0 else eps
        denom = factor * prec + rec
        score += ((1 + factor) * prec * rec / denom) if denom > 0 else eps
        if n_hyp > 0 and n_ref > 0:
            avg_prec += prec
            avg_rec += rec
            effective_order += 1

    if eps_smoothing:
        return 100 * score / order

    if effective_order == 0:
        avg_prec = avg_rec = 0.0
    else:
        avg_prec /= effective_order
        avg_rec /= effective_order

    if avg_prec + avg_rec:
        score = (1 + factor) * avg_prec * avg_rec
        score /= (factor * avg_prec) + avg_rec
        return 100 * score
    return 0.0
