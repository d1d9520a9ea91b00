"""Test sets built in the test and served from 127.0.0.1: for each dataset of the grid, its
archives (tar.gz, tgz, zip, gzip, plain files) in the shapes sacreBLEU's dataset classes
read, with small synthetic content (fake SGML with document metadata, WMT XML with several
translators, systems, domains and a test suite, IWSLT XML, plain text, TSV), and a threaded
HTTP server that serves them (with ``Range``) and can misbehave on request (a wrong body, a
body cut short, a connection closed early, errors) to test the downloads."""

from __future__ import annotations

import dataclasses
import gzip
import hashlib
import io
import logging
import os
import tarfile
import threading
import time
import zipfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import urlsplit

from mtcompute import testsets

# The datasets the grid uses and the language pairs built for each.
GRID_PAIRS: dict[str, tuple[str, ...]] = {
    "wmt22": ("en-de", "cs-en", "liv-en"),
    "wmt23": ("de-en", "en-he"),
    "wmt21": ("de-en",),
    "wmt21/AB": ("de-en",),
    "wmt20": ("de-en", "en-de"),
    "wmt20/tworefs": ("en-de",),
    "wmt19": ("de-en",),
    "wmt08": ("en-fr",),
    "wmt19/google/ar": ("en-de",),
    "iwslt17": ("en-fr",),
    "mtedx/valid": ("es-en",),
    "multi30k/2018": ("en-de",),
    "mtnt2019": ("en-fr",),
    "mtnt1.1/test": ("fr-en",),
    "wmt20/robust/set1": ("en-de",),
}

WORDS = [
    "the",
    "house",
    "is",
    "small",
    ".",
    "a",
    "cat",
    "sat",
    "on",
    "mat",
    ",",
    "we",
    "went",
    "to",
    "Berlin",
    "yesterday",
    ";",
    "Über",
    "Straße",
    "café",
    "naïve",
    "東京",
    "“quoted”",
    "it's",
    "1,000.5",
    "%",
    "O'Neil-Smith",
    "(test)",
    "!",
    "?",
]


def _sentence(seed: str, index: int, length: int = 7) -> str:
    digest = hashlib.sha256(f"{seed}/{index}".encode()).digest()
    return " ".join(WORDS[b % len(WORDS)] for b in digest[:length])


def _lang(path: str, fallback: str) -> str:
    """The language code in a raw file's name (``...-src.de.sgm`` -> ``de``)."""
    parts = os.path.basename(path).split(".")
    for part in reversed(parts):
        if 2 <= len(part) <= 3 and part.isalpha() and part not in ("sgm", "xml", "ref", "tsv"):
            return part
    return fallback


# -- raw files in each format ------------------------------------------------------------------

DOC_IDS = ("bbc.381790", "rt.com.91337", "nytimes.184853", "unknown.1")  # wmt19 SUBSETS has 3
ORIGLANGS = ("de", "en", "de", "en")


def _sgml(path: str, count: int, meta: bool = True) -> bytes:
    """A fake SGML file: documents with docid, genre and origlang, segments with untidy
    spacing and text after ``</seg>``."""
    lang = _lang(path, "xx")
    lines = [f'<refset setid="x" srclang="any" trglang="{lang}">']
    per_doc = 3
    for i in range(count):
        if i % per_doc == 0:
            d = i // per_doc % len(DOC_IDS)
            attrs = f' genre="news" origlang="{ORIGLANGS[d]}"' if meta else ""
            lines.append(f'<doc sysid="ref" docid="{DOC_IDS[d]}"{attrs}>')
            lines.append("<p>")
        text = _sentence(f"{lang}-{path.rsplit('/', maxsplit=1)[-1].split('-', maxsplit=1)[0]}", i)
        if i % 4 == 1:
            text = f"  {text}\t  tail  "
        lines.append(f'<seg id="{i + 1}">{text}</seg>' + (" <!-- x -->" if i % 5 == 2 else ""))
        if i % per_doc == per_doc - 1 or i == count - 1:
            lines.append("</p>")
            lines.append("</doc>")
    lines.append("</refset>")
    return ("\n".join(lines) + "\n").encode()


def _plain(path: str, count: int) -> bytes:
    lang = _lang(path, "xx")
    lines = [_sentence(lang, i) + ("  " if i % 3 == 0 else "") for i in range(count)]
    lines[1] = lines[1] + "\r"
    return ("\n".join(lines) + "\n").encode()


def _tsv(path: str, count: int) -> bytes:
    rows = []
    for i in range(count):
        src, trg = _sentence("tsv-src", i), _sentence("tsv-trg", i)
        rows.append(f"{1000 + i}\t{src}\t{trg}\t{_sentence('tsv-extra', i, 3)}")
    rows[2] = f"1002\t{_sentence('tsv-src', 2)}\t\t"  # an empty reference (MTNT's own case)
    return ("\n".join(rows) + "\n").encode()


def _xml(pair: str, translators: tuple[str, ...], domains: bool) -> tuple[bytes, int]:
    """A WMT XML file (2021 and later): documents with origlang (and domain), the source,
    one reference per translator (``""``: no translator attribute), two systems; one segment
    without any reference (left out) and a test-suite document. Returns the bytes and the
    number of segments kept."""
    src_lang, trg_lang = pair.split("-")
    out = [
        '<?xml version="1.0" encoding="utf-8"?>',
        '<dataset id="test">',
        '<collection id="general">',
    ]
    kept = 0
    for d in range(3):
        domain = f' domain="{("news", "social", "speech")[d]}"' if domains else ""
        out.append(f'<doc id="doc{d}" origlang="{(src_lang, trg_lang, src_lang)[d]}"{domain}>')
        segs = range(1, 4 + d)
        out.append(f'<src lang="{src_lang}"><p>')
        out += [
            f'<seg id="{s}">{_sentence(pair + "src" + str(d), s)} &amp; more</seg>' for s in segs
        ]
        out.append("</p></src>")
        for t in translators:
            who = f' translator="{t}"' if t else ""
            out.append(f'<ref lang="{trg_lang}"{who}><p>')
            for s in segs:
                text = "" if (d == 1 and s == 2) else _sentence(pair + t + str(d), s)
                out.append(f'<seg id="{s}">  {text}  </seg>' if text else f'<seg id="{s}"></seg>')
            out.append("</p></ref>")
        kept += len(segs) - (1 if d == 1 else 0)
        for system in ("sysB", "sysA"):
            out.append(f'<hyp system="{system}" language="{trg_lang}"><p>')
            out += [f'<seg id="{s}">{_sentence(pair + system + str(d), s)}</seg>' for s in segs]
            out.append("</p></hyp>")
        out.append("</doc>")
    out.append(
        f'<doc id="suite" origlang="en" testsuite="yes"><src lang="{src_lang}"><p>'
        '<seg id="1">x</seg></p></src></doc>'
    )
    out += ["</collection>", "</dataset>"]
    return ("\n".join(out) + "\n").encode(), kept


# -- the archives of each URL ------------------------------------------------------------------


def _archive(url: str, members: dict[str, bytes]) -> bytes:
    """The bytes served at ``url``: a tar.gz/tgz or zip of ``members``, or the one file."""
    buffer = io.BytesIO()
    if url.endswith((".tar.gz", ".tgz")):
        with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
            for name, data in sorted(members.items()):
                info = tarfile.TarInfo(name)
                info.size, info.mtime, info.mode = len(data), 1_700_000_000, 0o644
                tar.addfile(info, io.BytesIO(data))
        return buffer.getvalue()
    if url.endswith(".zip"):
        with zipfile.ZipFile(buffer, "w") as archive:
            for name, data in sorted(members.items()):
                archive.writestr(name, data)
        return buffer.getvalue()
    (data,) = members.values()
    return data


@dataclass
class World:
    """The served files (URL path -> bytes), each original URL's loopback address and MD5
    sum, and each pair's segment count and first reference."""

    files: dict[str, bytes] = field(default_factory=dict)
    urls: dict[str, str] = field(default_factory=dict)
    md5s: dict[str, str] = field(default_factory=dict)
    counts: dict[tuple[str, str], int] = field(default_factory=dict)
    base: str = ""

    def served_path(self, url: str) -> str:
        parts = urlsplit(url)
        return "/" + parts.netloc + parts.path


def _raw_members(name: str, pair: str, count: int) -> tuple[dict[str, bytes], int]:
    """The raw files (relative to the raw folder) of one pair of one dataset, and its number
    of segments."""
    ts = testsets.DATASETS[name]
    entry = ts.langpairs[pair]
    if ts.format == "wmt_xml":
        path = entry["path"] if isinstance(entry, dict) else entry[0]
        translators: tuple[str, ...] = ("refA", "refB") if name == "wmt23" else ("A", "B")
        if pair == "liv-en":  # no translator (English original)
            translators = ("",)
        data, kept = _xml(pair, translators, domains=name == "wmt23")
        return {path: data}, kept
    members: dict[str, bytes] = {}
    for i, path in enumerate(entry):
        if ts.format == "tsv":
            members[path.split(":")[-1]] = _tsv(path, count)
        elif ts.format == "plain_text":
            members[path] = _plain(path if i else path + ".src", count)
        elif ts.format == "wmt_addition" and not path.endswith(".sgm"):
            members[path] = _plain(path, count)
        else:
            members[path] = _sgml(path, count, meta=not name.startswith("wmt08"))
    return members, count


def build(names: dict[str, tuple[str, ...]] = GRID_PAIRS, count: int = 7) -> World:
    """The archives of ``names``' URLs, holding the raw files of the given pairs."""
    world = World()
    per_url: dict[str, dict[str, bytes]] = {}
    for name, pairs in names.items():
        ts = testsets.DATASETS[name]
        downloads = {ts.name.replace("/", "_") + "." + os.path.basename(u): u for u in ts.data}
        archives = [u for u in ts.data if u.endswith((".tar.gz", ".tgz", ".zip"))]
        for url in ts.data:
            per_url.setdefault(url, {})
        for pair in pairs:
            members, kept = _raw_members(name, pair, count)
            world.counts[name, pair] = kept
            for path, data in members.items():
                if path in downloads:  # the download itself (a .ref file, a .gz file)
                    url = downloads[path]
                    gzipped = gzip.compress(data, mtime=0) if url.endswith(".gz") else data
                    per_url[url] = {path: gzipped}
                    continue
                first = path.split("/")[0]
                url = next(
                    (u for u in archives if os.path.basename(u).split(".")[0] == first), archives[0]
                )
                per_url[url][path] = data
    for url, members in per_url.items():
        # a download no built pair needs: an archive with a README, or a small file
        data = _archive(url, members or {"README": b"empty\n"})
        world.files[world.served_path(url)] = data
        world.md5s[url] = hashlib.md5(data).hexdigest()
    return world


# -- the server ----------------------------------------------------------------------------------


@dataclass
class Fault:
    """How the server misbehaves on the next ``times`` requests of a path: ``corrupt`` (other
    bytes, full length), ``truncate`` (announces the full length, sends half and closes),
    ``error`` (HTTP 503), ``norange`` (ignores Range), ``slow`` (waits half a second before
    answering)."""

    kind: str
    times: int = 1


class Server:
    """A threaded HTTP server on 127.0.0.1 serving a World, with faults and a request log."""

    def __init__(self, world: World) -> None:
        self.world = world
        self.faults: dict[str, Fault] = {}
        self.requests: list[tuple[str, str | None]] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:
                del format, args

            def do_GET(self) -> None:
                outer.requests.append((self.path, self.headers.get("Range")))
                data = outer.world.files.get(self.path)
                if data is None:
                    self.send_error(404)
                    return
                fault = outer.faults.get(self.path)
                kind = None
                if fault is not None and fault.times > 0:
                    fault.times -= 1
                    kind = fault.kind
                if kind == "error":
                    self.send_error(503)
                    return
                if kind == "slow":
                    time.sleep(0.5)
                start = 0
                wanted = self.headers.get("Range")
                if wanted and kind != "norange" and wanted.startswith("bytes="):
                    start = int(wanted[6:].split("-")[0])
                body = data[start:]
                if kind == "corrupt":
                    body = bytes(b ^ 0x55 for b in body)
                self.send_response(206 if start else 200)
                if start:
                    self.send_header("Content-Range", f"bytes {start}-{len(data) - 1}/{len(data)}")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                if kind == "truncate":
                    self.wfile.write(body[: len(body) // 2])
                    self.wfile.flush()
                    self.close_connection = True
                    return
                self.wfile.write(body)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        world.base = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        world.urls = {url: world.base + world.served_path(url) for url in world.md5s}
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self) -> Server:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@contextmanager
def serving(world: World) -> Iterator[Server]:
    """``world`` served on 127.0.0.1 while the block runs."""
    with Server(world) as server:
        yield server


# -- pointing sacreBLEU and mtcompute at the server ------------------------------------------------


def patch_sacrebleu(world: World, cache: str) -> None:
    """sacreBLEU's DATASETS rewritten to the server and its cache set to ``cache`` (in a
    forked child: sacreBLEU reads $SACREBLEU once, at import)."""
    from sacrebleu import utils
    from sacrebleu.dataset import DATASETS

    utils.SACREBLEU_DIR = cache
    for dataset in DATASETS.values():
        assert dataset.data is not None
        dataset._outdir = os.path.join(cache, dataset.name)
        dataset._rawdir = os.path.join(dataset._outdir, "raw")
        if all(url in world.urls for url in dataset.data):
            dataset.md5 = [world.md5s[url] for url in dataset.data]
            dataset.data = [world.urls[url] for url in dataset.data]


def served_entries(world: World) -> dict[str, testsets.TestSet]:
    """mtcompute's registry entries whose files ``world`` serves, pointed at its server."""
    return {
        name: dataclasses.replace(
            ts,
            data=tuple(world.urls[url] for url in ts.data),
            md5=tuple(world.md5s[url] for url in ts.data),
        )
        for name, ts in testsets.DATASETS.items()
        if all(url in world.urls for url in ts.data)
    }


def patch_mtcompute(world: World) -> None:
    """mtcompute's registry rewritten to the server (the cache is $SACREBLEU, read per call)."""
    testsets.DATASETS.update(served_entries(world))


def patched_entries(
    world: World, mains: tuple[Callable[[list[str]], object], Callable[[list[str]], object]]
) -> tuple[Callable[[list[str]], object], Callable[[list[str]], object]]:
    """sacreBLEU's main() and mtcompute's (``mains``, as scripts/diff_sacrebleu_cli.py's
    ``forked_entries`` gives them), each pointing at ``world``'s server in its child."""
    sacrebleu_main, mtcompute_main = mains

    def sacrebleu_entry(args: list[str]) -> object:
        # a fresh process's root logger (pytest's capture handlers would keep basicConfig
        # from writing sacreBLEU's messages to stderr)
        logging.root.handlers.clear()
        logging.root.setLevel(logging.WARNING)
        patch_sacrebleu(world, os.environ["SACREBLEU"])
        return sacrebleu_main(args)

    def mtcompute_entry(args: list[str]) -> object:
        patch_mtcompute(world)
        return mtcompute_main(args)

    return sacrebleu_entry, mtcompute_entry
