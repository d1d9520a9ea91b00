#!/usr/bin/env python3
"""Make the in-repo WMT sample ``tests/data/wmt`` from the full data beside the repository.

Usage::

    python scripts/make_wmt_sample.py            # (re)write tests/data/wmt
    python scripts/make_wmt_sample.py --check    # exit 1 if tests/data/wmt is not what it makes

For every data file of every pair (the files listed in the full data's ``MANIFEST.tsv``) the
sample holds the same path with the first 200 lines of the original, byte for byte: the bytes
up to and including the 200th ``\\n``. A file with fewer than 200 lines is copied whole (the
newstest2015-nltk100 files, two of which end without a final newline). Each original is
checked against its ``sha256`` in the manifest before it is cut.

Beside the files: ``README.md`` (a note on the sample, then the upstream README unchanged) and
``MANIFEST.tsv`` (the upstream rows unchanged, which describe the full files, plus columns
describing the file in the sample). ``SANITY_SCORES.tsv`` is not copied: its scores are of the
full files and do not hold for the prefixes.

The output depends only on the input bytes: running it again writes identical bytes.
"""

from __future__ import annotations

import argparse
import hashlib
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DEFAULT_SOURCE = REPO.parent / "shared" / "data" / "wmt"
DEFAULT_DEST = REPO / "tests" / "data" / "wmt"
LINES = 200
SAMPLE_COLUMNS = ("sample_lines", "sample_bytes", "sample_sha256", "sample_is_prefix")

NOTE = """\
# A {lines}-line sample of the WMT data (test fixture)

This folder is a **sample** of the full WMT data (kept beside the repository, in a
folder `shared/data/wmt`), so that a fresh clone's tests run with nothing beside it. It was
made by `python scripts/make_wmt_sample.py` (running it again gives identical bytes):

- Same layout and file names as the full data. Each file holds the first {lines} lines of the
  original, byte for byte (the bytes up to and including the {lines}th `\\n`); a file with
  fewer than {lines} lines is copied whole (the `newstest2015-nltk100` files: 100 segments,
  two of them without a final newline; `mteval-13a.output.txt`: 27 lines).
- `MANIFEST.tsv`: the upstream rows unchanged. Its columns `lines` to `sha256` describe the
  **full** original file; the added columns `sample_lines`, `sample_bytes`, `sample_sha256`
  describe the file here, and `sample_is_prefix` is `True` where the file here is a strict
  prefix of the original (`False`: copied whole).
- `SANITY_SCORES.tsv` is not copied: its scores are of the full files. The line counts,
  per-file counts and scores quoted in the upstream README below are of the full files too.
- Every pair keeps its files aligned line by line ({lines} segments a pair, 100 for
  `newstest2015-nltk100/en-ru`).

The tests use the full data when it is there (`MTCOMPUTE_WMT_DIR`, else
the full data beside the repository) and this sample otherwise; `tests/conftest.py`
decides, and the pytest header says which.

The upstream README follows unchanged.

---

"""


@dataclass(frozen=True)
class Sampled:
    """One data file of the sample: its manifest row and its bytes."""

    relative: str
    row: list[str]
    data: bytes
    whole: bool


def prefix(data: bytes, lines: int) -> bytes:
    """The bytes of ``data`` up to and including its ``lines``-th newline (all of it when it
    has fewer newlines)."""
    end = -1
    for _ in range(lines):
        end = data.find(b"\n", end + 1)
        if end == -1:
            return data
    return data[: end + 1]


def read_manifest(source: Path) -> tuple[list[str], list[list[str]]]:
    """The manifest's header and rows (tab-separated, one row per data file)."""
    text = (source / "MANIFEST.tsv").read_bytes().decode("utf-8")
    header, *rows = [line.split("\t") for line in text.removesuffix("\n").split("\n")]
    return header, rows


def sample_files(source: Path, lines: int) -> tuple[list[str], list[Sampled]]:
    """The manifest header and every data file of the sample, in manifest order."""
    header, rows = read_manifest(source)
    column = {name: i for i, name in enumerate(header)}
    listed = {"/".join(row[column[k]] for k in ("testset", "pair", "file")) for row in rows}
    on_disk = {p.relative_to(source).as_posix() for p in source.glob("*/*/*") if p.is_file()}
    if listed != on_disk:
        raise SystemExit(
            f"make_wmt_sample.py: error: {source}: MANIFEST.tsv and the files differ: "
            f"unlisted {sorted(on_disk - listed)}, missing {sorted(listed - on_disk)}"
        )
    out = []
    for row in rows:
        relative = "/".join(row[column[k]] for k in ("testset", "pair", "file"))
        original = (source / relative).read_bytes()
        if hashlib.sha256(original).hexdigest() != row[column["sha256"]]:
            raise SystemExit(f"make_wmt_sample.py: error: {relative}: sha256 differs from MANIFEST")
        data = prefix(original, lines)
        out.append(Sampled(relative, row, data, data == original))
    return header, out


def manifest_text(header: list[str], files: list[Sampled]) -> str:
    """The sample's MANIFEST.tsv: each upstream row, then the sample's own figures."""
    rows = ["\t".join([*header, *SAMPLE_COLUMNS])]
    for f in files:
        segments = f.data.count(b"\n") + (not f.data.endswith(b"\n") and f.data != b"")
        sha = hashlib.sha256(f.data).hexdigest()
        rows.append("\t".join([*f.row, str(segments), str(len(f.data)), sha, str(not f.whole)]))
    return "\n".join(rows) + "\n"


def build(source: Path, lines: int) -> dict[str, bytes]:
    """Every file of the sample (relative path to bytes)."""
    header, files = sample_files(source, lines)
    out = {f.relative: f.data for f in files}
    out["MANIFEST.tsv"] = manifest_text(header, files).encode("utf-8")
    out["README.md"] = (
        NOTE.format(lines=lines).encode("utf-8") + (source / "README.md").read_bytes()
    )
    return dict(sorted(out.items()))


def on_disk(dest: Path) -> dict[str, bytes]:
    """Every file under ``dest`` (relative path to bytes)."""
    files = (p for p in dest.rglob("*") if p.is_file())
    return {p.relative_to(dest).as_posix(): p.read_bytes() for p in sorted(files)}


def main(argv: list[str] | None = None) -> int:
    """Write (or with --check, compare) the sample."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--source", type=Path, default=DEFAULT_SOURCE, help="the full data")
    parser.add_argument("--dest", type=Path, default=DEFAULT_DEST, help="the sample folder")
    parser.add_argument("--check", action="store_true", help="compare, do not write")
    args = parser.parse_args(argv)
    if not (args.source / "MANIFEST.tsv").is_file():
        parser.error(f"no MANIFEST.tsv in {args.source}: point --source at the full WMT data")
    wanted = build(args.source, LINES)
    if args.check:
        found = on_disk(args.dest) if args.dest.is_dir() else {}
        differ = sorted(k for k in wanted.keys() | found.keys() if wanted.get(k) != found.get(k))
        for name in differ:
            print(f"differs: {name}", file=sys.stderr)
        print(f"{len(wanted)} files, {sum(map(len, wanted.values()))} bytes, {len(differ)} differ")
        return 1 if differ else 0
    if args.dest.exists():
        shutil.rmtree(args.dest)
    for name, data in wanted.items():
        path = args.dest / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    print(f"wrote {len(wanted)} files, {sum(map(len, wanted.values()))} bytes to {args.dest}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
