"""The part of sacreBLEU 2.6.0's ``utils.py`` that code written against it imports:
``smart_open`` (a text file, gzip-compressed when its name ends in ``.gz``), ``my_log``
(sacreBLEU's floored logarithm, from :mod:`mtcompute.metrics.bleu.score`), ``sum_of_lists``
(segment statistics added up, as sacreBLEU adds them), ``SACREBLEU_DIR`` (where sacreBLEU
keeps its downloads: ``$SACREBLEU``, else ``~/.sacrebleu``), and the test-set functions
(``get_source_file``, ``get_reference_files``, ``get_files``, ``download_test_set``,
``get_langpairs_for_testset``, ``get_available_testsets``,
``get_available_testsets_for_langpair``, ``filter_subset``) over :mod:`mtcompute.testsets`
and its ``DATASETS``, which share sacreBLEU's cache. Their errors are
:class:`mtcompute.testsets.TestSetError` (an ``Exception``, as sacreBLEU raises)."""

from __future__ import annotations

__all__ = [
    "DATASETS",
    "SACREBLEU_DIR",
    "USERHOME",
    "download_test_set",
    "filter_subset",
    "get_available_testsets",
    "get_available_testsets_for_langpair",
    "get_files",
    "get_langpairs_for_testset",
    "get_reference_files",
    "get_source_file",
    "my_log",
    "smart_open",
    "sum_of_lists",
]

import gzip
import os
from collections.abc import Sequence
from typing import IO, TYPE_CHECKING, Any

from mtcompute.metrics.bleu import score as bleu_score

if TYPE_CHECKING:  # at run time, __getattr__ below
    from mtcompute.sacrebleu._testsets import (
        download_test_set,
        get_available_testsets,
        get_available_testsets_for_langpair,
        get_files,
        get_langpairs_for_testset,
        get_reference_files,
        get_source_file,
    )
    from mtcompute.testsets import DATASETS, filter_subset

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


def __getattr__(name: str) -> Any:
    """The test-set names of ``__all__``, from :mod:`mtcompute.sacrebleu._testsets` when first
    used: the registry and the downloader do not load with the metrics."""
    if name in __all__:
        from mtcompute.sacrebleu import _testsets  # noqa: PLC0415

        return getattr(_testsets, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
