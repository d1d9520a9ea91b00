"""sacreBLEU 2.6.0's test sets, offline first: its registry (``DATASETS``: names, language
pairs, fields, URLs, MD5 sums, the references each pair scores against by default) shipped
as data, its cache (``$SACREBLEU``, else ``~/.sacrebleu``, in sacreBLEU's layout, so that a
cache made by either serves the other), and its text files, made from each raw format byte
for byte as sacreBLEU makes them. Downloads are checked against their MD5 sum and renamed
into place only then (a truncated or corrupt file is never used), retried, and resumed where
the server allows (:func:`download_file`, reusable for any file with a known sum).

    >>> from mtcompute import testsets
    >>> testsets.langpairs("wmt22")[:3]
    ['cs-en', 'cs-uk', 'de-en']
    >>> refs = testsets.references("wmt22", "en-de")  # doctest: +SKIP

Errors: :class:`TestSetError` (an unknown test set, pair or field; a raw file that cannot be
read), :class:`DownloadError` (a subclass: a failed download, a wrong MD5 sum). The INFO
messages ("Downloading URL to PATH", "Extracting ...") go to the ``mtcompute.testsets``
logger.
"""

from __future__ import annotations

__all__ = [
    "DATASETS",
    "SUBSETS",
    "DownloadError",
    "Progress",
    "ProgressBar",
    "TestSet",
    "TestSetError",
    "available_origlangs",
    "available_subsets",
    "cache_dir",
    "download",
    "download_file",
    "fieldnames",
    "files",
    "filter_subset",
    "get",
    "langpairs",
    "list_testsets",
    "md5sum",
    "reference_files",
    "references",
    "source",
    "source_file",
    "testsets_for_langpair",
]

from mtcompute.testsets import _formats
from mtcompute.testsets._download import (
    DownloadError,
    Progress,
    ProgressBar,
    download_file,
    md5sum,
)
from mtcompute.testsets._registry import DATASETS, SUBSETS, TestSet, TestSetError, cache_dir
from mtcompute.testsets._subset import available_origlangs, available_subsets, filter_subset


def get(name: str) -> TestSet:
    """The test set ``name`` (``wmt22``, ``wmt21/systems``, ...); TestSetError if unknown."""
    if name not in DATASETS:
        raise TestSetError(f"Unknown test set {name!r}")
    return DATASETS[name]


def list_testsets() -> list[str]:
    """Every test set's name, as sacreBLEU's ``get_available_testsets`` (reverse order)."""
    return sorted(DATASETS, reverse=True)


def testsets_for_langpair(langpair: str) -> list[str]:
    """The test sets with ``langpair`` in either direction, in the registry's order."""
    parts = langpair.split("-")
    if len(parts) < 2:
        raise TestSetError(f"expected a language pair such as en-de, got {langpair!r}")
    src, trg = parts[:2]
    return [
        testset.name
        for testset in DATASETS.values()
        if f"{src}-{trg}" in testset.langpairs or f"{trg}-{src}" in testset.langpairs
    ]


def langpairs(name: str) -> list[str]:
    """The language pairs of test set ``name``, in the registry's order."""
    return list(get(name).langpairs)


def fieldnames(name: str, langpair: str, progress: Progress | None = None) -> list[str]:
    """The fields of one pair (``src``, ``ref`` or ``ref:A``..., ``docid``, ``origlang``,
    ...); a WMT XML set is downloaded first (its fields are in its file)."""
    return _formats.fieldnames(get(name), langpair, progress)


def files(name: str, langpair: str, progress: Progress | None = None) -> list[str]:
    """The text file of each field of one pair, downloaded and made first if needed."""
    return _formats.get_files(get(name), langpair, progress)


def download(name: str, langpair: str | None = None, progress: Progress | None = None) -> list[str]:
    """Download test set ``name`` and make the text files of ``langpair`` (None: of every
    pair); return the paths of those text files."""
    testset = get(name)
    pairs = [langpair] if langpair is not None else list(testset.langpairs)
    return [path for pair in pairs for path in _formats.get_files(testset, pair, progress)]


def source_file(name: str, langpair: str, progress: Progress | None = None) -> str:
    """The path of the source text of one pair (sacreBLEU's ``get_source_file``)."""
    testset = get(name)
    paths = _formats.get_files(testset, langpair, progress)
    return paths[_formats.fieldnames(testset, langpair).index("src")]


def reference_files(name: str, langpair: str, progress: Progress | None = None) -> list[str]:
    """The paths of the references sacreBLEU scores against (``get_reference_files``): for
    WMT XML sets only those the registry names (``wmt22`` ``en-de``: reference A alone)."""
    return _formats.reference_files(get(name), langpair, progress)


def _lines(path: str) -> list[str]:
    with _formats.smart_open(path) as handle:
        return [line.rstrip("\n") for line in handle]


def source(name: str, langpair: str) -> list[str]:
    """The source segments of one pair, one per line of its text file."""
    return _lines(source_file(name, langpair))


def references(name: str, langpair: str) -> list[list[str]]:
    """The reference streams of one pair, one list of segments per reference (the layout
    of :mod:`mtcompute.sacrebleu`'s ``references=``)."""
    return [_lines(path) for path in reference_files(name, langpair)]
