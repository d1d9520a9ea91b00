"""``mtcompute sacrebleu`` in chunks (issue 15): -i files read, counted and dropped a chunk of
lines at a time (``MTCOMPUTE_CHUNK_SEGMENTS``, here 7, on 40 segments) print the bytes of one
chunk, single system or several, several references, -nr, gzip; a fault in a later chunk
gives the whole-file path's message and status; and which runs take the chunked path.
"""

from __future__ import annotations

import argparse
import gzip
from pathlib import Path

import pytest

from mtcompute.cli import build_parser
from mtcompute.cli._sacrebleu_run import Streamed, _streamable, _streamed
from tests.conftest import WMT, run_cli

EN_DE = WMT / "generaltest2022" / "en-de"
SEGMENTS = 40
SMALL, WHOLE = "7", "1000000"


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The first 40 segments of two en-de systems and both references; ref.A and ref.B
    joined by a tab (for -nr 2); ref.A gzipped."""
    folder = tmp_path_factory.mktemp("streaming-sacrebleu")
    found: dict[str, str] = {}
    texts = {}
    for name in ("sys.Online-B.txt", "sys.OpenNMT.txt", "ref.A.txt", "ref.B.txt"):
        texts[name] = (EN_DE / name).read_bytes().split(b"\n")[:SEGMENTS]
        (folder / name).write_bytes(b"\n".join(texts[name]) + b"\n")
        found[name] = str(folder / name)
    joined = [a + b"\t" + b for a, b in zip(texts["ref.A.txt"], texts["ref.B.txt"], strict=True)]
    (folder / "refs.tsv").write_bytes(b"\n".join(joined) + b"\n")
    found["refs.tsv"] = str(folder / "refs.tsv")
    with gzip.open(folder / "ref.A.txt.gz", "wb") as out:
        out.write(Path(found["ref.A.txt"]).read_bytes())
    found["ref.A.txt.gz"] = str(folder / "ref.A.txt.gz")
    return found


def sacrebleu(monkeypatch: pytest.MonkeyPatch, chunk: str, *args: str) -> tuple[int, bytes, bytes]:
    """``mtcompute sacrebleu ARGS`` with chunks of ``chunk`` lines: status, stdout, stderr."""
    monkeypatch.setenv("MTCOMPUTE_CHUNK_SEGMENTS", chunk)
    proc = run_cli("sacrebleu", *args)
    return proc.returncode, proc.stdout, proc.stderr


CASES = {
    "one-system-json": ("ref.A.txt", "-i", "sys.Online-B.txt", "-m", "bleu", "chrf", "ter"),
    "two-systems-two-refs-text": (
        "ref.A.txt",
        "ref.B.txt",
        "-i",
        "sys.Online-B.txt",
        "sys.OpenNMT.txt",
        "-m",
        "bleu",
        "chrf",
        "ter",
        "-f",
        "text",
    ),
    "nr-2-score-only": ("refs.tsv", "-nr", "2", "-i", "sys.OpenNMT.txt", "-b", "-w", "3"),
    "gzip-chrf++": ("ref.A.txt.gz", "-i", "sys.Online-B.txt", "-m", "chrf", "-cw", "2"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_chunks_print_the_bytes_of_one_chunk(
    files: dict[str, str], monkeypatch: pytest.MonkeyPatch, case: str
) -> None:
    """Chunks of 7 lines print what one chunk prints, exit 0."""
    args = [files.get(arg, arg) for arg in CASES[case]]
    whole = sacrebleu(monkeypatch, WHOLE, *args)
    assert (0, whole) == (whole[0], sacrebleu(monkeypatch, SMALL, *args))


def write(folder: Path, name: str, data: bytes) -> str:
    path = folder / name
    path.write_bytes(data)
    return str(path)


def test_a_shorter_system_in_a_later_chunk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """20 reference lines, 17 system lines, chunks of 7: sacreBLEU's message, exit 1."""
    ref = write(tmp_path, "ref.txt", b"a b\n" * 20)
    hyp = write(tmp_path, "hyp.txt", b"a c\n" * 17)
    expected = (
        1,
        b"",
        (
            "sacreBLEU: System and reference streams have different lengths.\n"
            f"sacreBLEU: {hyp} has 17 lines, {ref} has 20\n"
        ).encode(),
    )
    assert expected == sacrebleu(monkeypatch, SMALL, ref, "-i", hyp)


def test_a_line_with_too_few_fields_in_a_later_chunk(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """-nr 2 and line 16 without its tab: sacreBLEU's FATAL line, exit 17."""
    refs = write(tmp_path, "refs.tsv", b"a\tb\n" * 15 + b"a b\n" + b"a\tb\n" * 4)
    hyp = write(tmp_path, "hyp.txt", b"a b\n" * 20)
    expected = (17, b"", b"sacreBLEU: FATAL: line 16: expected 2 fields, but found 1.\n")
    assert expected == sacrebleu(monkeypatch, SMALL, refs, "-nr", "2", "-i", hyp)


def parsed(*args: str) -> argparse.Namespace:
    return build_parser().parse_args(["sacrebleu", *args])


def test_corpus_scores_of_files_take_the_chunks(files: dict[str, str]) -> None:
    """Files, several metrics: the chunked path gives the sums (one system, three metrics)."""
    args = parsed(files["ref.A.txt"], "-i", files["sys.Online-B.txt"], "-m", "bleu", "ter")
    found = _streamed(args)
    assert (True, True, ["BLEU", "TER"]) == (
        _streamable(args),
        isinstance(found, Streamed),
        sorted(found.sums[0]) if found else None,
    )


@pytest.mark.parametrize(
    "extra",
    [("-sl",), ("-ci",), ("-l", "en-de"), ("-e", "latin-1")],
    ids=["sentence-level", "confidence", "language-pair", "encoding"],
)
def test_what_reads_the_files_whole(files: dict[str, str], extra: tuple[str, ...]) -> None:
    """Sentence level, tests, -l (its warnings) and other encodings keep the whole files."""
    args = parsed(files["ref.A.txt"], "-i", files["sys.Online-B.txt"], *extra)
    assert not _streamable(args)
