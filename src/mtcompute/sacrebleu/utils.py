"""The part of sacreBLEU 2.6.0's ``utils.py`` that its metrics use: ``my_log`` (sacreBLEU's
floored logarithm, from :mod:`mtcompute.metrics.bleu.score`) and ``sum_of_lists`` (segment
statistics added up)."""

from __future__ import annotations

__all__ = ["my_log", "sum_of_lists"]

from collections.abc import Sequence

from mtcompute.metrics.bleu.score import my_log


def sum_of_lists(lists: Sequence[Sequence[int]]) -> list[int]:
    """The element-wise sums of equally long lists of ints (segment statistics added up).

    >>> sum_of_lists([[1, 2], [3, 4]])
    [4, 6]
    """
    total = [0] * len(lists[0])
    for row in lists:
        for i, value in enumerate(row):
            total[i] += value
    return total
