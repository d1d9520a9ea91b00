"""sacreBLEU 2.6.0's ``--origlang`` and ``--subset``: which segments of a test set (or of
several, concatenated) come from documents of an original language or whose annotation
matches a pattern, read from the raw WMT XML or SGML files; and the values there are. Where
sacreBLEU raises KeyError (a WMT XML pair whose registry entry is ``{"path": ..., "refs":
...}``, as most of WMT22 and WMT23's), the pair's XML file is read."""

from __future__ import annotations

__all__ = ["available_origlangs", "available_subsets", "filter_subset"]

import itertools
import re
from collections.abc import Iterable, Sequence
from typing import TypeVar

from mtcompute.testsets._formats import raw_lines, unwrap_xml
from mtcompute.testsets._registry import DATASETS, SUBSETS, TestSet, TestSetError

T = TypeVar("T")
RE_ORIGLANG = re.compile(r'.* origlang="([^"]+)".*\n')
RE_DOCID = re.compile(r'.* docid="([^"]+)".*\n')


def _testset(name: str) -> TestSet:
    if name not in DATASETS:
        raise TestSetError(f"Unknown test set {name!r}")
    return DATASETS[name]


def _rawfile(testset: TestSet, langpair: str) -> str:
    return testset.xml_path(langpair)


def _keep(origlang: str | None, doc_origlang: str) -> bool:
    if origlang is None:
        return True
    if origlang.startswith("non-"):
        return doc_origlang != origlang[4:]
    return doc_origlang == origlang


def _kept(testset: TestSet, langpair: str, origlang: str | None, subset: str | None) -> list[bool]:
    """For each segment of one test set, whether it is kept."""
    rawfile = _rawfile(testset, langpair)
    keep: list[bool] = []
    if testset.format == "wmt_xml":
        fields = unwrap_xml(rawfile)
        domains: Iterable[str | None] = fields.get("domain", itertools.repeat(None))
        for doc_origlang, doc_domain in zip(fields["origlang"], domains, strict=False):
            include = _keep(origlang, doc_origlang)
            if subset is not None and (doc_domain is None or not re.search(subset, doc_domain)):
                include = False
            keep.append(include)
        return keep
    if not rawfile.endswith(".sgm"):
        raise TestSetError(
            f"--origlang and --subset supports only WMT *.xml and *.sgm files, not {rawfile!r}"
        )
    doc_to_tags: dict[str, str] = {}
    if subset is not None:
        if testset.name not in SUBSETS:
            raise TestSetError("No subset annotation available for test set " + testset.name)
        doc_to_tags = SUBSETS[testset.name]
    include = False
    for line in raw_lines(rawfile):
        if line.startswith("<doc "):
            include = _keep(origlang, RE_ORIGLANG.sub(r"\1", line))
            if subset is not None:
                doc_id = RE_DOCID.sub(r"\1", line)
                if not re.search(subset, doc_to_tags.get(doc_id, "")):
                    include = False
        if line.startswith("<seg "):
            keep.append(include)
    return keep


def filter_subset(
    systems: Sequence[Iterable[T]],
    test_sets: str | None,
    langpair: str | None,
    origlang: str | None,
    subset: str | None = None,
) -> list[list[T]]:
    """sacreBLEU's ``filter_subset``: each of ``systems`` (system outputs, references: any
    streams of segments) cut to the
    segments whose document has original language ``origlang`` (``non-XX``: any other) and
    whose annotation matches the regular expression ``subset`` (``country:XX`` for a
    country), over the comma-separated ``test_sets`` in order. Without either, the streams
    as they are."""
    if origlang is None and subset is None:
        return [list(stream) for stream in systems]
    if test_sets is None or langpair is None:
        raise TestSetError(
            "Filtering for --origlang or --subset needs a test (-t) and a language pair (-l)."
        )
    if subset is not None and subset.startswith("country:"):
        subset = subset[8:]
    keep: list[bool] = []
    for name in test_sets.split(","):
        keep += _kept(_testset(name), langpair, origlang, subset)
    return [[item for item, kept in zip(stream, keep, strict=False) if kept] for stream in systems]


def available_origlangs(test_sets: str | None, langpair: str) -> list[str]:
    """The original languages of the documents of the test sets (sacreBLEU's
    ``get_available_origlangs``), sorted."""
    if test_sets is None:
        return []
    found: set[str] = set()
    for name in test_sets.split(","):
        testset = _testset(name)
        rawfile = _rawfile(testset, langpair)
        if testset.format == "wmt_xml":
            found.update(unwrap_xml(rawfile)["origlang"])
        if rawfile.endswith(".sgm"):
            for line in raw_lines(rawfile):
                if line.startswith("<doc "):
                    found.add(re.sub(r'.* origlang="([^"]+)".*\n', "\\1", line))
    return sorted(found)


def available_subsets(test_sets: str | None, langpair: str) -> list[str]:
    """The domains of the WMT XML documents, or the countries (``country:XX``) and domains
    of the annotated SGML sets (sacreBLEU's ``get_available_subsets``), sorted."""
    if test_sets is None:
        return []
    found: set[str] = set()
    for name in test_sets.split(","):
        testset = _testset(name)
        if testset.format == "wmt_xml":
            fields = unwrap_xml(_rawfile(testset, langpair))
            if "domain" in fields:
                found.update(fields["domain"])
        elif name in SUBSETS:
            found.update("country:" + v.split("-")[0] for v in SUBSETS[name].values())
            found.update(v.split("-")[1] for v in SUBSETS[name].values())
    return sorted(found)
