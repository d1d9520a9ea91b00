"""The part of sacreBLEU 2.6.0's ``utils.py`` that code written against it imports:
``smart_open`` (a text file, gzip-compressed when its name ends in ``.gz``), ``my_log``
(sacreBLEU's floored logarithm, from :mod:`mtcompute.metrics.bleu.score`), ``sum_of_lists``
(segment statistics added up, as sacreBLEU adds them) and ``SACREBLEU_DIR`` (where sacreBLEU
keeps its downloads: ``$SACREBLEU``, else ``~/.sacrebleu``). The test-set functions are not
here (see :mod:`mtcompute.sacrebleu`)."""

from __future__ import annotations

__all__ = ["SACREBLEU_DIR", "USERHOME", "my_log", "smart_open", "sum_of_lists"]

import gzip
import os
from collections.abc import Sequence
from typing import IO, Any

from mtcompute.metrics.bleu import score as bleu_score

USERHOME = os.path.expanduser("~")
SACREBLEU_DIR = os.environ.get("SACREBLEU", os.path.join(USERHOME, ".sacrebleu"))


def smart_open(file: str, mode: str = "rt", encoding: str = "utf-8") -> IO[Any]:
    """``file`` opened in ``mode`` with ``encoding``, through gzip when its name ends in
    ``.gz``; only ``\\n`` ends a line (``newline="\\n"``), as sacreBLEU reads and writes."""
    if file.endswith(".gz"):
        return gzip.open(file, mode=mode, encoding=encoding, newline="\n")  # type: ignore[return-value]
    return open(file, mode=mode, encoding=encoding, newline="\n")


def my_log(num: float) -> float:
    """``math.log(num)``, with log 0 floored at -9999999999
    (:func:`mtcompute.metrics.bleu.score.my_log` under sacreBLEU's parameter name)."""
    return bleu_score.my_log(num)


def sum_of_lists(lists: Sequence[Sequence[Any]]) -> Any:
    """The element-wise sums of equally long lists (segment statistics added up), as
    sacreBLEU adds them: one list is returned itself, the sums start from the type of the
    first list's first value, and are added one list at a time, in order.

    >>> sum_of_lists([[1, 2], [3, 4]])
    [4, 6]
    """
    if len(lists) == 1:
        return lists[0]
    size = len(lists[0])
    init_val = type(lists[0][0])(0.0)
    total = [init_val] * size
    for row in lists:
        for i in range(size):
            total[i] += row[i]
    return total
