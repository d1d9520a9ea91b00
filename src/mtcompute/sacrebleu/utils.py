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
from typing import IO, Any

from mtcompute import testsets
from mtcompute.metrics.bleu import score as bleu_score
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


# -- the test sets (sacreBLEU's utils functions over mtcompute.testsets) ------------------------


def _known(test_set: str) -> str:
    if test_set not in DATASETS:
        raise testsets.TestSetError(f"No such test set {test_set}")
    return test_set


def get_source_file(test_set: str, langpair: str) -> str:
    """The source text file of a test set's pair, downloaded and made first if needed."""
    return testsets.source_file(_known(test_set), langpair)


def get_reference_files(test_set: str, langpair: str) -> list[str]:
    """The reference files sacreBLEU scores against (``wmt22`` ``en-de``: reference A)."""
    return testsets.reference_files(_known(test_set), langpair)


def get_files(test_set: str, langpair: str) -> list[str]:
    """The text files of every field of a test set's pair (source, references, metadata)."""
    return testsets.files(_known(test_set), langpair)


def download_test_set(test_set: str, langpair: str | None = None) -> list[str]:
    """Download a test set and make the text files of ``langpair`` (None: every pair);
    return their paths."""
    return testsets.download(_known(test_set), langpair)


def get_langpairs_for_testset(testset: str) -> list[str]:
    """A test set's language pairs; ``[]`` for an unknown test set (as sacreBLEU)."""
    return testsets.langpairs(testset) if testset in DATASETS else []


def get_available_testsets() -> list[str]:
    """Every test set's name, in reverse order (as sacreBLEU)."""
    return testsets.list_testsets()


def get_available_testsets_for_langpair(langpair: str) -> list[str]:
    """The test sets having ``langpair`` in either direction."""
    return testsets.testsets_for_langpair(langpair)
