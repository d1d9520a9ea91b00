"""sacreBLEU 2.6.0's registry of test sets, read from the shipped ``datasets.json``
(written by ``scripts/sacrebleu_datasets.py`` from sacreBLEU's ``DATASETS`` and
``SUBSETS``), and the cache's layout: ``$SACREBLEU`` (read at each call), else
``~/.sacrebleu``; ``NAME/raw/`` holds the downloads and what they unpack to, ``NAME/`` the
text files, named as sacreBLEU names them."""

from __future__ import annotations

__all__ = ["DATASETS", "SUBSETS", "TestSet", "TestSetError", "cache_dir"]

import json
import os
from dataclasses import dataclass, field
from importlib import resources
from typing import Any


class TestSetError(Exception):
    """A test set, language pair or field that does not exist, or a test set's files that
    cannot be made; the message says which."""

    __test__ = False  # not a pytest class


@dataclass(frozen=True)
class TestSet:
    """One of sacreBLEU's test sets: its ``name``, ``format`` (sacreBLEU's dataset class:
    ``wmt_xml``, ``fake_sgml``, ``wmt_addition``, ``iwslt_xml``, ``plain_text``, ``tsv``),
    the URLs of its ``data`` and their ``md5`` sums, ``description``, ``citation``, its
    ``langpairs`` (each the raw files of its fields, or for ``wmt_xml`` the XML file, maybe
    with the references it uses: ``{"path": ..., "refs": [...]}``) and ``refs``, the
    references a ``wmt_xml`` set uses by default (translator names: ``A``, ``refA``, ...)."""

    __test__ = False  # not a pytest class

    name: str
    format: str
    data: tuple[str, ...]
    md5: tuple[str, ...] | None
    description: str
    citation: str | None
    langpairs: dict[str, Any] = field(hash=False)
    refs: tuple[str, ...] | None = None

    @property
    def outdir(self) -> str:
        """Where its text files go: ``CACHE/NAME`` (a ``/`` in the name makes folders)."""
        return os.path.join(cache_dir(), self.name)

    @property
    def rawdir(self) -> str:
        """Where its downloads go and unpack: ``CACHE/NAME/raw``."""
        return os.path.join(self.outdir, "raw")

    def download_path(self, url: str) -> str:
        """Where the download of ``url`` is kept: ``NAME_WITH_UNDERSCORES.BASENAME`` in
        :attr:`rawdir`."""
        return os.path.join(self.rawdir, self.name.replace("/", "_") + "." + os.path.basename(url))

    def text_path(self, langpair: str, fieldname: str) -> str:
        """The text file of one field: ``NAME_WITH_UNDERSCORES.LANGPAIR.FIELD`` (``:`` in the
        field written ``-``)."""
        name = self.name.replace("/", "_")
        return os.path.join(self.outdir, f"{name}.{langpair}.{fieldname.replace(':', '-')}")

    def langpair_entry(self, langpair: str) -> Any:
        """The registry's entry of ``langpair``; TestSetError when the set has none."""
        if langpair not in self.langpairs:
            raise TestSetError(f"No such language pair {self.name}/{langpair}")
        return self.langpairs[langpair]

    def xml_path(self, langpair: str) -> str:
        """The raw file of ``langpair``: its XML file (``wmt_xml``) or its source file."""
        entry = self.langpair_entry(langpair)
        return os.path.join(self.rawdir, entry["path"] if isinstance(entry, dict) else entry[0])


def cache_dir() -> str:
    """sacreBLEU's cache: ``$SACREBLEU``, else ``~/.sacrebleu`` (read at each call, where
    sacreBLEU reads it once at import)."""
    return os.environ.get("SACREBLEU", os.path.join(os.path.expanduser("~"), ".sacrebleu"))


def _load() -> tuple[dict[str, TestSet], dict[str, dict[str, str]]]:
    text = resources.files(__package__).joinpath("datasets.json").read_text(encoding="utf-8")
    raw = json.loads(text)
    datasets = {
        name: TestSet(
            name=name,
            format=entry["format"],
            data=tuple(entry["data"]),
            md5=tuple(entry["md5"]) if entry["md5"] else None,
            description=entry["description"],
            citation=entry["citation"],
            langpairs=entry["langpairs"],
            refs=tuple(entry["refs"]) if "refs" in entry else None,
        )
        for name, entry in raw["datasets"].items()
    }
    return datasets, raw["subsets"]


# sacreBLEU's DATASETS (name -> TestSet, in its order) and SUBSETS (test set -> document id
# -> "COUNTRY-DOMAIN[-COUNTRY]"). Tests replace entries (their URLs and sums) in place.
DATASETS, SUBSETS = _load()
