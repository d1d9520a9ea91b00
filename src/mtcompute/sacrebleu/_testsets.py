"""sacreBLEU 2.6.0's test-set functions of ``utils.py`` (``get_source_file``,
``get_reference_files``, ``get_files``, ``download_test_set``, ``get_langpairs_for_testset``,
``get_available_testsets``, ``get_available_testsets_for_langpair``, ``filter_subset``) and
its ``DATASETS``, over :mod:`mtcompute.testsets` and sacreBLEU's cache. Imported when one of
these names is first used (:func:`mtcompute.sacrebleu.utils.__getattr__`): the registry and
the downloader do not load with the metrics."""

from __future__ import annotations

from mtcompute import testsets
from mtcompute.testsets import DATASETS, filter_subset  # noqa: F401 (utils takes filter_subset from here)


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
