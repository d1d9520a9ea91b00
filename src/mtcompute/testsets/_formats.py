"""Each raw format made into the text files sacreBLEU 2.6.0 writes, byte for byte (its
``dataset/*.py``): plain text, TSV columns, the fake SGML of WMT before 2021 (and IWSLT's
XML, read the same way), WMT's additional references, and the WMT XML of 2021 and later
(read with the standard library's ElementTree where sacreBLEU uses lxml: the same texts).
Files are read and written as sacreBLEU's ``smart_open`` does: UTF-8, only ``\\n`` ends a
line, gzip for ``*.gz``."""

from __future__ import annotations

__all__ = [
    "fieldnames",
    "get_files",
    "maybe_download",
    "raw_lines",
    "reference_files",
    "unwrap_xml",
]

import contextlib
import functools
import glob
import gzip
import logging
import os
import re
import time
import uuid
from collections import defaultdict
from collections.abc import Callable, Iterator
from pathlib import Path, PurePosixPath
from typing import IO, Any

from mtcompute.testsets._download import Progress, download_file
from mtcompute.testsets._registry import TestSet, TestSetError

LOGGER = logging.getLogger("mtcompute.testsets")
SEG = re.compile(r"<seg.*?>(.*)</seg>.*?")
SPACES = re.compile(r"\s+")


def smart_open(path: str, mode: str = "rt") -> IO[Any]:
    """sacreBLEU's ``smart_open``: UTF-8, ``newline="\\n"``, gzip when ``*.gz``."""
    if path.endswith(".gz"):
        return gzip.open(path, mode=mode, encoding="utf-8", newline="\n")  # type: ignore[return-value]
    return open(path, mode=mode, encoding="utf-8", newline="\n")


def raw_lines(path: str) -> Iterator[str]:
    """The lines of the raw file ``path`` (:func:`smart_open`); a file that is not UTF-8 is
    the test sets' error naming it and where its first bad byte is."""
    with smart_open(path) as lines:
        try:
            yield from lines
        except UnicodeDecodeError:
            raise TestSetError(_not_utf8(path)) from None


def _not_utf8(path: str) -> str:
    """What is wrong with ``path``, which does not decode as UTF-8: its first bad byte's
    offset and line (in the uncompressed text of a ``*.gz``), read again as bytes."""
    offset = 0
    with gzip.open(path) if path.endswith(".gz") else open(path, "rb") as raw:
        for number, line in enumerate(raw, 1):
            try:
                line.decode("utf-8")  # "\n" is never inside a character: line by line is exact
            except UnicodeDecodeError as error:
                at = offset + error.start
                return (
                    f"{path}: cannot read the test set's file: not UTF-8 at byte {at} "
                    f"(line {number}: {error.reason})"
                )
            offset += len(line)
    return f"{path}: cannot read the test set's file: not UTF-8"


def _clean(text: str) -> str:
    """sacreBLEU's ``Dataset._clean``: stripped, inner runs of white space made one space."""
    return SPACES.sub(" ", text.strip())


# -- downloads -------------------------------------------------------------------------------


def _unpacker(archive: str, rawdir: str) -> Any:
    """What unpacks the checked download of ``archive`` (its final name) into ``rawdir``:
    tar for ``*.tar.gz``/``*.tgz``, zip for ``*.zip``, nothing for other files (logged as
    "Extracting" all the same, as sacreBLEU logs it). Tar members that would land outside
    ``rawdir`` are refused (the "data" filter; before Python 3.11.4, which has no filters,
    :func:`_check_members`)."""

    def unpack(part: Path) -> None:
        import tarfile  # noqa: PLC0415 (only to unpack)
        import zipfile  # noqa: PLC0415

        LOGGER.info("Extracting %s to %s", archive, rawdir)
        try:
            if archive.endswith((".tar.gz", ".tgz")):
                with tarfile.open(part) as tar:
                    if hasattr(tarfile, "data_filter"):  # Python 3.11.4 and later
                        tar.extractall(path=rawdir, filter="data")
                    else:
                        _check_members(tar, archive)
                        tar.extractall(path=rawdir)
            elif archive.endswith(".zip"):
                with zipfile.ZipFile(part) as archived:
                    archived.extractall(path=rawdir)
        except (tarfile.TarError, zipfile.BadZipFile, OSError, EOFError) as error:
            raise TestSetError(f"{archive}: cannot unpack the download: {error}") from None

    return unpack


def _check_members(tar: Any, archive: str) -> None:
    """The tar ``archive``'s members, refused as the "data" filter refuses them where
    tarfile has no filters: only regular files and folders, none outside the folder."""
    for member in tar.getmembers():
        name = member.name
        if os.path.isabs(name) or name.startswith("/") or ".." in PurePosixPath(name).parts:
            why = "is outside the folder"
        elif member.issym() or member.islnk():
            why = "is a link"
        elif not (member.isreg() or member.isdir()):
            why = "is not a file or a folder"
        else:
            continue
        raise TestSetError(f"{archive}: cannot unpack the download: member {name!r} {why}")


def maybe_download(testset: TestSet, progress: Progress | None = None) -> None:
    """Download and unpack each of the set's files not in the cache yet (sacreBLEU's
    ``maybe_download``): checked against its MD5 sum, renamed into place last."""
    sums: tuple[str | None, ...] = testset.md5 or (None,) * len(testset.data)
    try:
        os.makedirs(testset.rawdir, exist_ok=True)
        for url, md5 in zip(testset.data, sums, strict=False):
            dest = testset.download_path(url)
            unpack = _unpacker(dest, testset.rawdir)
            download_file(url, md5, dest, progress=progress, unpack=unpack)
    except OSError as error:
        raise _cache_error(error) from None


def _cache_error(error: OSError) -> TestSetError:
    """A file of the cache that cannot be read or written, named."""
    where = f"{error.filename}: " if error.filename else ""
    return TestSetError(f"{where}cannot use the test sets' cache: {error.strerror or error}")


# -- the WMT XML of 2021 and later -----------------------------------------------------------


def _ref_field(translator: str | None) -> str:
    return f"ref:{translator}" if translator else "ref"


def unwrap_xml(path: str) -> dict[str, list[Any]]:
    """:func:`_unwrap` of ``path``, kept while the file is unchanged (sacreBLEU parses a WMT
    XML file three times or more per command; the result is read, never changed)."""
    try:
        status = os.stat(path)
    except OSError as error:
        raise TestSetError(f"{path}: cannot read the test set's XML: {error.strerror}") from None
    return _unwrap(path, status.st_mtime_ns, status.st_size)


@functools.lru_cache(maxsize=8)
def _unwrap(path: str, mtime_ns: int, size: int) -> dict[str, list[Any]]:
    """sacreBLEU's ``_unwrap_wmt21_or_later`` (``mtime_ns`` and ``size`` are the cache's
    key): the fields of a WMT XML file, each one value
    per segment with a reference (``src``, ``ref:TRANSLATOR``..., ``docid``, ``origlang``,
    each system's output, ``domain`` when the last segment's document has one), in
    sacreBLEU's order (its references in the order of a set of their names)."""
    import xml.etree.ElementTree as ET  # noqa: PLC0415

    del mtime_ns, size  # the file's state: part of the cache's key only
    try:
        root = ET.parse(path).getroot()
    except (ET.ParseError, OSError) as error:
        raise TestSetError(f"{path}: cannot read the test set's XML: {error}") from None
    src_langs, ref_langs, translators = set(), set(), set()
    for src_doc in root.findall(".//src"):
        src_langs.add(src_doc.get("lang"))
    for ref_doc in root.findall(".//ref"):
        ref_langs.add(ref_doc.get("lang"))
        translators.add(ref_doc.get("translator"))
    if len(src_langs) != 1:
        raise TestSetError(f"Multiple source languages found in the file: {path}")
    if len(ref_langs) != 1:
        raise TestSetError(f"Found {len(ref_langs)} reference languages found in the file: {path}")
    src: list[Any] = []
    docids: list[Any] = []
    origlangs: list[Any] = []
    domains: list[Any] = []
    refs: dict[str, list[Any]] = {_ref_field(t): [] for t in translators}
    systems: defaultdict[Any, list[Any]] = defaultdict(list)
    seen_domain = False
    for doc in root.findall(".//doc"):
        if "testsuite" in doc.attrib:
            continue
        where = f"{path}: document {doc.get('id')!r}"
        for attribute in ("id", "origlang"):
            if attribute not in doc.attrib:
                raise TestSetError(f"{where}: no {attribute} attribute")
        try:
            src_sents = {int(seg.get("id", "")): seg.text for seg in doc.findall(".//src//seg")}

            def sents(element: Any) -> dict[int, str]:
                return {int(seg.get("id")): seg.text or "" for seg in element.findall(".//seg")}

            by_translator = {ref.get("translator"): sents(ref) for ref in doc.findall(".//ref")}
            hyps = {hyp.get("system"): sents(hyp) for hyp in doc.findall(".//hyp")}
        except (TypeError, ValueError):
            raise TestSetError(f"{where}: a segment without an integer id") from None
        for seg_id in sorted(src_sents):
            if not any(value.get(seg_id, "") for value in by_translator.values()):
                continue
            for translator in translators:
                refs[_ref_field(translator)].append(
                    by_translator.get(translator, {}).get(seg_id, "")
                )
            src.append(src_sents[seg_id] or "")  # sacreBLEU: AttributeError on an empty one
            for system, segments in hyps.items():
                if seg_id not in segments:
                    raise TestSetError(f"{where}: system {system!r} has no segment {seg_id}")
                systems[system].append(segments[seg_id])
            docids.append(doc.attrib["id"])
            origlangs.append(doc.attrib["origlang"])
            domains.append(doc.get("domain"))
            seen_domain = doc.get("domain") is not None
    fields: dict[str, list[Any]] = {
        "src": src,
        **refs,
        "docid": docids,
        "origlang": origlangs,
        **systems,
    }
    if seen_domain:
        fields["domain"] = domains
    return fields


def _xml_process(testset: TestSet, langpair: str | None) -> None:
    for pair in sorted([langpair] if langpair is not None else testset.langpairs):
        fields = unwrap_xml(testset.xml_path(pair))
        for fieldname, values in fields.items():
            textfile = testset.text_path(pair, fieldname)
            if os.path.exists(textfile) and os.path.getsize(textfile) > 0:
                continue
            _write(textfile, (_clean(value) for value in values))


def _xml_refs(testset: TestSet, langpair: str) -> list[str]:
    """The reference fields a WMT XML set uses for ``langpair``: the pair's own ``refs``,
    else the set's, as field names (``""`` is the field ``ref``)."""
    entry = testset.langpair_entry(langpair)
    allowed = list(testset.refs or ())
    if isinstance(entry, dict):
        allowed = entry.get("refs", allowed)
    return [_ref_field(ref) for ref in allowed]


# -- the other formats -----------------------------------------------------------------------


# A temporary file of _write's this old is a killed process's: no write takes an hour.
_STALE_PART_SECONDS = 3600


def _write(path: str, lines: Iterator[str] | list[str]) -> None:
    """``lines`` written to ``path`` as sacreBLEU's ``print(line, file=fout)`` writes them,
    through a temporary file of this call's own, renamed last: commands making the same file
    at once each rename a whole file into place, and no half-written text file is ever used.
    The temporary file is deleted on any error, and those a killed process left beside the
    file are deleted once they are stale."""
    part = f"{path}.{uuid.uuid4().hex}.part"
    try:
        with smart_open(part, "xt") as out:
            for line in lines:
                out.write(line + "\n")
        os.replace(part, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(part)
        raise
    _remove_stale_parts(Path(path))


def _remove_stale_parts(path: Path) -> None:
    """Delete ``path``'s temporary files (``PATH.<32 hex digits>.part``) older than
    :data:`_STALE_PART_SECONDS`; another process's may vanish meanwhile."""
    stale = time.time() - _STALE_PART_SECONDS
    for part in path.parent.glob(f"{glob.escape(path.name)}.{'[0-9a-f]' * 32}.part"):
        with contextlib.suppress(OSError):
            if part.stat().st_mtime < stale:
                part.unlink()


def _sgml_text(path: str) -> Iterator[str]:
    for line in raw_lines(path):
        if line.startswith("<seg "):
            yield _clean(SEG.sub("\\1", line))


def _sgml_meta(path: str, fieldname: str) -> Iterator[str]:
    pattern = re.compile(rf'{fieldname}="(.*?)"')
    value = ""
    for line in raw_lines(path):
        if line.startswith("<doc "):
            match = pattern.search(line)
            if match is not None:
                value = match.group(1)
        elif line.startswith("<seg "):
            yield value


def _plain(path: str) -> Iterator[str]:
    for line in raw_lines(path):
        yield line.rstrip()


def _tsv(meta: str, fieldname: str) -> tuple[str, Callable[[str], Iterator[str]]]:
    """sacreBLEU's TSV column: ``INDEX:FILE``, else column 0 for ``src`` and 1 for others;
    the file's name and the reader of that column."""
    parts = meta.split(":")
    if len(parts) == 2:
        try:
            index = int(parts[0])
        except ValueError:
            raise TestSetError(f"Invalid meta for TSVDataset: {meta}") from None
        name = parts[1]
    else:
        index, name = (0 if fieldname == "src" else 1), meta

    def column(path: str) -> Iterator[str]:
        for number, line in enumerate(raw_lines(path), 1):
            cells = line.rstrip("\n").split("\t")
            if index >= len(cells):
                raise TestSetError(f"{path}: line {number} has no column {index}")
            yield cells[index]

    return name, column


def _process(testset: TestSet, langpair: str | None, progress: Progress | None) -> None:
    """sacreBLEU's ``process_to_text``: the text files of ``langpair`` (None: every pair)."""
    maybe_download(testset, progress)
    if testset.format == "wmt_xml":
        _xml_process(testset, langpair)
        return
    pairs = [langpair] if langpair is not None else list(testset.langpairs)
    for pair in pairs:
        entry = testset.langpair_entry(pair)
        fields = fieldnames(testset, pair, progress)
        raw = testset.rawdir
        if testset.format == "tsv":
            for fieldname, meta in zip(fields, entry, strict=False):
                name, column = _tsv(meta, fieldname)
                _write(testset.text_path(pair, fieldname), column(os.path.join(raw, name)))
            continue
        origins = [os.path.join(raw, path) for path in entry]
        if testset.format != "plain_text":
            origins += [os.path.join(raw, entry[0])] * 3
        for fieldname, origin in zip(fields, origins, strict=False):
            out = testset.text_path(pair, fieldname)
            if testset.format == "plain_text":
                _write(out, _plain(origin))
            elif fieldname.startswith(("src", "ref")):
                plain = testset.format == "wmt_addition" and not origin.endswith(".sgm")
                _write(out, _plain(origin) if plain else _sgml_text(origin))
            else:
                _write(out, _sgml_meta(origin, fieldname))


def fieldnames(testset: TestSet, langpair: str, progress: Progress | None = None) -> list[str]:
    """sacreBLEU's ``fieldnames``: ``src``, the references (``ref``, or ``ref:0``, ``ref:1``
    ... for several), then ``docid``, ``genre``, ``origlang`` (SGML sets but WMT08's); for
    WMT XML the fields of its XML file, downloaded first."""
    if testset.format == "wmt_xml":
        maybe_download(testset, progress)
        return list(unwrap_xml(testset.xml_path(langpair)))
    if testset.format in ("plain_text", "tsv"):
        return ["src", "ref"]
    entry = testset.langpair_entry(langpair)
    if len(entry) < 2:
        raise TestSetError(f"Each language pair in {testset.name} must have at least 2 fields.")
    fields = ["src"]
    fields += ["ref"] if len(entry) == 2 else [f"ref:{i}" for i in range(len(entry) - 1)]
    if not testset.name.startswith("wmt08"):
        fields += ["docid", "genre", "origlang"]
    return fields


def get_files(testset: TestSet, langpair: str, progress: Progress | None = None) -> list[str]:
    """The text file of each field of ``langpair``, made first when one is missing."""
    files = [testset.text_path(langpair, f) for f in fieldnames(testset, langpair, progress)]
    if any(not os.path.exists(file) for file in files):
        try:
            _process(testset, langpair, progress)
        except OSError as error:
            raise _cache_error(error) from None
    return files


def reference_files(testset: TestSet, langpair: str, progress: Progress | None = None) -> list[str]:
    """The reference files sacreBLEU scores against: every ``ref*`` field, or for WMT XML
    sets only the references the registry names (``-t wmt22 -l en-de``: reference A)."""
    files = get_files(testset, langpair, progress)
    fields = fieldnames(testset, langpair)
    if testset.format == "wmt_xml":
        allowed = _xml_refs(testset, langpair)
        return [f for f, name in zip(files, fields, strict=True) if name in allowed]
    return [f for f, name in zip(files, fields, strict=True) if name.startswith("ref")]
