"""``mtcompute score`` in chunks (issue 15): the files read, counted and dropped a chunk at a
time (``MTCOMPUTE_CHUNK_SEGMENTS``, here 7 segments, so that 60 segments cross eight chunk
boundaries) give the bytes one chunk gives, for every metric, format and test; the errors of
files that differ (lengths, bytes that are not UTF-8) name the file and line as before, whichever
chunk they are in; and the reader itself (:func:`mtcompute.cli._files.segment_chunks`) gives
:func:`~mtcompute.cli._files.read_segments`'s segments.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mtcompute.cli._common import CommandError
from mtcompute.cli._files import read_ahead, read_segments, segment_chunks
from tests.conftest import WMT, run_cli, run_python

EN_DE = WMT / "generaltest2022" / "en-de"
FILES = ("sys.Online-B.txt", "sys.OpenNMT.txt", "ref.A.txt", "ref.B.txt")
SEGMENTS = 60
SMALL, WHOLE = "7", "1000000"


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """The first 60 segments of two en-de systems and both references, as files."""
    folder = tmp_path_factory.mktemp("streaming")
    paths = []
    for name in FILES:
        data = (EN_DE / name).read_bytes().split(b"\n")[:SEGMENTS]
        path = folder / name
        path.write_bytes(b"\n".join(data) + b"\n")
        paths.append(str(path))
    return paths


def scored(monkeypatch: pytest.MonkeyPatch, chunk: str, *args: str) -> tuple[int, bytes, bytes]:
    """``mtcompute score ARGS`` with chunks of ``chunk`` segments: status, stdout, stderr."""
    monkeypatch.setenv("MTCOMPUTE_CHUNK_SEGMENTS", chunk)
    proc = run_cli("score", *args)
    return proc.returncode, proc.stdout, proc.stderr


@pytest.mark.parametrize(
    "extra",
    [
        ("--format", "json", "--segments"),
        ("--segments",),
        ("--format", "json", "--paired-bs", "--paired-bs-n", "50"),
        ("--paired-ar", "--paired-ar-n", "50", "--ci", "--ci-n", "20", "--segments"),
    ],
    ids=["json-segments", "text-segments", "paired-bs-json", "paired-ar-ci-text-segments"],
)
def test_chunks_print_the_bytes_of_one_chunk(
    corpus: list[str], monkeypatch: pytest.MonkeyPatch, extra: tuple[str, ...]
) -> None:
    """Two systems, two references, every metric: chunks of 7 print what one chunk prints."""
    args = ("-H", *corpus[:2], "-r", *corpus[2:], "-m", "bleu", "chrf", "chrf++", "ter", *extra)
    whole = scored(monkeypatch, WHOLE, *args)
    assert (0, b"") == (whole[0], whole[2])
    assert whole == scored(monkeypatch, SMALL, *args)


def test_contract_rules_in_chunks(corpus: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """The contract's exact chrF and chrF++ fractions: chunks of 7 print what one prints."""
    args = ("-H", corpus[0], "-r", corpus[2], "-m", "chrf", "chrf++", "--rules", "contract")
    args += ("--format", "json", "--segments")
    assert scored(monkeypatch, WHOLE, *args) == scored(monkeypatch, SMALL, *args)


def test_stdin_in_chunks(corpus: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """A system on standard input is read in chunks like a file."""
    monkeypatch.setenv("MTCOMPUTE_CHUNK_SEGMENTS", SMALL)
    stdin = run_cli("score", "-H", "-", "-r", corpus[2], stdin=Path(corpus[0]).read_bytes())
    monkeypatch.setenv("MTCOMPUTE_CHUNK_SEGMENTS", WHOLE)
    named = run_cli("score", "-H", corpus[0], "-r", corpus[2])
    assert (0, named.stdout) == (stdin.returncode, stdin.stdout)


@pytest.mark.parametrize("threads", ["1", "2", "3"])
def test_chunks_on_threads_print_the_bytes_of_standard_input(
    corpus: list[str], monkeypatch: pytest.MonkeyPatch, threads: str
) -> None:
    """Named files, whose chunks are decoded and counted on MTCOMPUTE_THREADS threads each
    taking whole chunks, print what the same system on standard input (read chunk after
    chunk) prints, its name aside: every metric, the segment scores, chunks of 7."""
    monkeypatch.setenv("MTCOMPUTE_CHUNK_SEGMENTS", SMALL)
    monkeypatch.setenv("MTCOMPUTE_THREADS", threads)
    metrics = ("-m", "bleu", "chrf", "chrf++", "ter", "--format", "json", "--segments")
    named = run_cli("score", "-H", corpus[0], "-r", *corpus[2:], *metrics)
    stdin = run_cli(
        "score", "-H", "-", "-r", *corpus[2:], *metrics, stdin=Path(corpus[0]).read_bytes()
    )
    expected = stdin.stdout.replace(b'"<stdin>"', json.dumps(corpus[0]).encode())
    assert (0, b"", expected) == (named.returncode, named.stderr, named.stdout)
    assert (0, b"") == (stdin.returncode, stdin.stderr)


@pytest.mark.parametrize(
    "options",
    [
        ("bleu", "--tokenize", "none", "--smooth-method", "floor", "--smooth-value", "0.5"),
        ("bleu", "--max-order", "2", "--effective-order", "--smooth-method", "add-k"),
        ("bleu", "chrf", "chrf++", "--lowercase"),
        ("bleu", "--tokenize", "intl"),
        ("chrf", "chrf++", "--beta", "3"),
    ],
    ids=["none-floor", "order2-eff-addk", "lowercase", "intl", "chrf-beta3"],
)
def test_metric_options_on_threads_print_the_bytes_of_standard_input(
    corpus: list[str], monkeypatch: pytest.MonkeyPatch, options: tuple[str, ...]
) -> None:
    """BLEU's and chrF's settings, those the kernel counts undecoded lines with and those it
    leaves to the decoded texts (lowercase, intl), two systems: named
    files on two threads print what standard input prints, its name aside."""
    monkeypatch.setenv("MTCOMPUTE_CHUNK_SEGMENTS", SMALL)
    monkeypatch.setenv("MTCOMPUTE_THREADS", "2")
    tail = ("-r", *corpus[2:], "-m", *options, "--format", "json", "--segments")
    named = run_cli("score", "-H", corpus[0], corpus[1], *tail)
    stdin = run_cli("score", "-H", "-", corpus[1], *tail, stdin=Path(corpus[0]).read_bytes())
    expected = stdin.stdout.replace(b'"<stdin>"', json.dumps(corpus[0]).encode())
    assert (0, b"", expected) == (named.returncode, named.stderr, named.stdout)
    assert (0, b"") == (stdin.returncode, stdin.stderr)


@pytest.mark.parametrize(
    ("chunk", "pool"),
    [(WHOLE, False), (SMALL, True)],
    ids=["one-chunk-on-this-thread", "chunks-on-the-pool"],
)
def test_files_of_one_chunk_start_no_pool(
    corpus: list[str], monkeypatch: pytest.MonkeyPatch, chunk: str, pool: bool
) -> None:
    """On two threads, files that fit in one chunk (a test set) are counted on the command's
    own thread: no pool of threads to start nor to hand the chunk to (7% of a 2,037-line
    run); files of several chunks take the pool. Same bytes either way."""
    argv = ["score", "-H", corpus[0], "-r", corpus[2], "-m", "bleu", "chrf", "--format", "json"]
    code = (
        "import sys, threading\n"
        "from mtcompute import cli\n"
        "names = set()\n"
        "start = threading.Thread.start\n"
        "def noted(self): names.add(self.name.split('_')[0]); start(self)\n"
        "threading.Thread.start = noted\n"
        f"status = cli.main({argv!r})\n"
        "print(status, sorted(names), file=sys.stderr)\n"
    )
    done = run_python(code, env={"MTCOMPUTE_THREADS": "2", "MTCOMPUTE_CHUNK_SEGMENTS": chunk})
    expected = "0 ['mtcompute-chunk', 'mtcompute-reader']" if pool else "0 []"
    assert (expected, scored(monkeypatch, WHOLE, *argv[1:])[1]) == (
        done.stderr.strip(),
        done.stdout.encode(),
    )


@pytest.mark.parametrize(
    ("hyp_lines", "ref_lines"),
    [(3, 5), (7, 8), (10, 8), (14, 15)],
    ids=["first-chunk", "second-chunk-empty", "second-chunk", "third-chunk"],
)
def test_files_of_different_lengths_at_any_chunk_are_reported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, hyp_lines: int, ref_lines: int
) -> None:
    """Chunks of 7 on two threads: files that end apart in the first chunk, the second (read
    before the pool starts) or a later one are the same one-line error."""
    monkeypatch.setenv("MTCOMPUTE_THREADS", "2")
    hyp = write(tmp_path, "hyp.txt", b"a b\n" * hyp_lines)
    ref = write(tmp_path, "ref.txt", b"a c\n" * ref_lines)
    message = (
        f"mtcompute score: error: the files have different numbers of lines: {hyp} has "
        f"{hyp_lines}, {ref} has {ref_lines}; every file needs one line per segment\n"
    )
    assert (1, b"", message.encode()) == scored(monkeypatch, SMALL, "-H", hyp, "-r", ref)


def write(folder: Path, name: str, data: bytes) -> str:
    path = folder / name
    path.write_bytes(data)
    return str(path)


def test_a_reference_shorter_in_a_later_chunk(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """20 lines against 17, chunks of 7: both counts, as when the files are read whole."""
    hyp = write(tmp_path, "hyp.txt", b"a b\n" * 20)
    ref = write(tmp_path, "ref.txt", b"a c\n" * 17)
    expected = (
        1,
        b"",
        (
            f"mtcompute score: error: the files have different numbers of lines: {hyp} has "
            f"20, {ref} has 17; every file needs one line per segment\n"
        ).encode(),
    )
    assert expected == scored(monkeypatch, SMALL, "-H", hyp, "-r", ref)


@pytest.mark.parametrize(
    ("hyp_bytes", "ref_bytes", "message"),
    [
        pytest.param(
            b"ok\n" * 16 + b"ba\xffd\n" + b"ok\n" * 3,
            b"ok\n" * 20,
            "line 17 is not valid UTF-8: byte 0xff at byte offset 50 of the file (offset 2 in "
            "the line): invalid start byte",
            id="bad byte in a later chunk",
        ),
        pytest.param(
            b"ok\n" * 18 + b"\xe2\n" + b"ok\n",
            b"ok\n\xff\n" + b"ok\n" * 30,
            "line 19 is not valid UTF-8: byte 0xe2 at byte offset 54 of the file (offset 0 in "
            "the line): invalid continuation byte",
            id="the first file's fault wins",
        ),
    ],
)
def test_bad_utf8_names_the_system_file_line_and_offsets(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    hyp_bytes: bytes,
    ref_bytes: bytes,
    message: str,
) -> None:
    """A bad byte on line 17 (the third chunk of 7): its line and both offsets. The system's
    bad byte on line 19 is reported, not the reference's on line 2, and not the lengths (as
    when every file is decoded before any is split)."""
    hyp = write(tmp_path, "hyp.txt", hyp_bytes)
    ref = write(tmp_path, "ref.txt", ref_bytes)
    expected = (1, b"", f"mtcompute score: error: {hyp}: {message}\n".encode())
    assert expected == scored(monkeypatch, SMALL, "-H", hyp, "-r", ref)


@pytest.mark.parametrize(
    "texts",
    [
        (b"a\r\n\nb c\nd", b"1\n2\n3\n4\n"),
        (b"x\n" * 15, b"y\n" * 15),
        (b"\n\n\n", b"\xc3\xa9\n\n\n"),
        (b"one line", b"une ligne\n"),
    ],
    ids=["no-final-newline", "two-chunks-and-one", "empty-lines", "one-segment"],
)
def test_chunks_join_to_read_segments(tmp_path: Path, texts: tuple[bytes, bytes]) -> None:
    """The chunks (of 7, read ahead by a thread) laid end to end are read_segments' lists."""
    names = [write(tmp_path, f"f{i}.txt", data) for i, data in enumerate(texts)]
    hyps: list[str] = []
    refs: list[list[str]] = []
    starts = []
    for chunk in read_ahead(segment_chunks(names[:1], names[1:], 7)):
        starts.append(chunk.start)
        hyps += chunk.systems[0]
        refs += chunk.references
    expected = read_segments(names[:1], names[1:])
    assert (expected, list(range(0, len(refs), 7))) == (([hyps], refs), starts)


def test_empty_files_raise_after_reading(tmp_path: Path) -> None:
    """Two empty files: no chunk, then read_segments' error."""
    names = [write(tmp_path, name, b"") for name in ("h.txt", "r.txt")]
    with pytest.raises(CommandError) as raised:
        list(segment_chunks(names[:1], names[1:], 7))
    assert f"no segments to score: {names[0]} is empty" == raised.value.message
