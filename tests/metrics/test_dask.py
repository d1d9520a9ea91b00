"""``mtcompute.dask`` and ``mtcompute score --scheduler`` on a two-process ``LocalCluster``:
the same results as the single-process batch API and command, for BLEU, chrF, chrF++ and TER,
per-segment scores, all-pairs chrF for MBR; the line-aligned ranges; the errors.

One cluster for the module (two worker processes, one thread each). The texts are the WMT
en-de Online-B system and its two references (2037 segments in the full data, 200 in the
in-repo sample).
"""

from __future__ import annotations

import contextlib
import itertools
import json
import math
import random
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

dask = pytest.importorskip("dask", reason="the dask extra is not installed")
db = pytest.importorskip(
    "dask.bag", reason="the dask extra is not installed: pip install -e '.[dask]'"
)
distributed = pytest.importorskip("distributed", reason="the dask extra is not installed")

from mtcompute import _ranges, cli  # noqa: E402
from mtcompute import dask as md  # noqa: E402
from mtcompute.cli._files import split_segments  # noqa: E402
from mtcompute.metrics.bleu import corpus as bleu_corpus  # noqa: E402
from mtcompute.metrics.bleu.score import BleuOptions  # noqa: E402
from mtcompute.metrics.chrf import corpus as chrf_corpus  # noqa: E402
from mtcompute.metrics.chrf.score import ChrfOptions  # noqa: E402
from mtcompute.metrics.ter import corpus as ter_corpus  # noqa: E402
from mtcompute.metrics.ter.score import TerOptions  # noqa: E402
from tests.conftest import WMT, count_zh, free_port, run_cli  # noqa: E402
from tests.metrics.dask_cluster import local_client  # noqa: E402

EN_DE = WMT / "generaltest2022" / "en-de"
FILES = [EN_DE / "sys.Online-B.txt", EN_DE / "ref.A.txt", EN_DE / "ref.B.txt"]
SYS_2 = EN_DE / "sys.OpenNMT.txt"
HYPS, REF_A, REF_B = (split_segments(path.read_bytes(), str(path)) for path in FILES)
REFS = [[a, b] for a, b in zip(REF_A, REF_B, strict=True)]
PATHS = [str(path) for path in FILES]


@pytest.fixture(scope="module")
def client() -> Iterator[distributed.Client]:
    """A LocalCluster of two worker processes, one thread each, and its client."""
    with local_client() as connected:
        yield connected


def _bags(partitions: int = 5) -> tuple[db.Bag, list[db.Bag]]:
    def bag(lines: list[str]) -> db.Bag:
        return db.from_sequence(lines, npartitions=partitions)

    return bag(HYPS), [bag(REF_A), bag(REF_B)]


# --- corpus scores of bags ---------------------------------------------------------------------


def test_bleu_of_bags(client: distributed.Client) -> None:
    """Corpus BLEU of bags (two reference streams) is the batch result, whole."""
    hyps, refs = _bags()
    assert bleu_corpus.corpus_bleu(HYPS, REFS) == md.corpus_bleu(hyps, refs)


def test_bleu_options_of_bags(client: distributed.Client) -> None:
    """BLEU with intl, lowercase, floor smoothing, order 3, one reference: the batch result."""
    hyps, (ref_a, _) = _bags(3)
    options = {"tokenize": "intl", "lowercase": True, "smooth_method": "floor", "max_order": 3}
    expected = bleu_corpus.corpus_bleu(HYPS, REF_A, **options)  # type: ignore[arg-type]
    assert expected == md.corpus_bleu(hyps, ref_a, **options)  # type: ignore[arg-type]


@pytest.mark.parametrize("word_order", [0, 2], ids=["chrF", "chrF++"])
def test_chrf_of_bags(client: distributed.Client, word_order: int) -> None:
    """Corpus chrF and chrF++ of bags are the batch results, whole."""
    hyps, refs = _bags()
    expected = chrf_corpus.corpus_chrf(HYPS, REFS, word_order=word_order)
    assert expected == md.corpus_chrf(hyps, refs, word_order=word_order)


def test_ter_of_bags_two_references(client: distributed.Client) -> None:
    """Corpus TER against two references (the lengths added in segment order on the client):
    the batch result's score, edits and length, as the batch result prints and dumps them."""
    hyps, refs = _bags()
    expected = ter_corpus.corpus_ter(HYPS, REFS)
    found = md.corpus_ter(hyps, refs)
    assert (expected.score, expected.num_edits, expected.ref_length) == (
        found.score,
        found.num_edits,
        found.ref_length,
    )
    assert (str(expected), expected.to_dict()) == (str(found), found.to_dict())


def test_ter_of_bags_one_reference(client: distributed.Client) -> None:
    """Corpus TER against one reference (integer length sums): the batch result's numbers."""
    hyps, (ref_a, _) = _bags()
    expected = ter_corpus.corpus_ter(HYPS, REF_A, normalized=True)
    found = md.corpus_ter(hyps, ref_a, normalized=True)
    assert (str(expected), expected.to_dict()) == (str(found), found.to_dict())


def test_ter_segment_scores_of_bags(client: distributed.Client) -> None:
    """Corpus TER with segment scores is the batch result, whole (segment statistics too)."""
    hyps, refs = _bags()
    assert ter_corpus.corpus_ter(HYPS, REFS, segment_scores=True) == md.corpus_ter(
        hyps, refs, segment_scores=True
    )


def _with_an_empty_partition(lines: list[str]) -> db.Bag:
    parts = [lines[:100], [], lines[100:]]
    return db.from_delayed([dask.delayed(list)(part) for part in parts])


def test_empty_partitions_add_nothing(client: distributed.Client) -> None:
    """An empty partition adds nothing: chrF with segment scores and TER against two
    references are the batch results."""
    hyps = _with_an_empty_partition(HYPS)
    refs = [_with_an_empty_partition(REF_A), _with_an_empty_partition(REF_B)]
    expected = chrf_corpus.corpus_chrf(HYPS, REFS, segment_scores=True)
    assert expected == md.corpus_chrf(hyps, refs, segment_scores=True)
    assert ter_corpus.corpus_ter(HYPS, REFS).to_dict() == md.corpus_ter(hyps, refs).to_dict()


def test_empty_bags_are_refused(client: distributed.Client) -> None:
    """Bags without a segment: refused, as the batch API refuses no segments."""
    empty = db.from_delayed([dask.delayed(list)([])])
    message = "hypotheses: expected at least one segment, got an empty bag"
    with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
        md.corpus_bleu(empty, empty)


def test_paths_are_read_by_the_workers(client: distributed.Client) -> None:
    """Paths (read in line-aligned ranges by the workers) give the batch results."""
    assert chrf_corpus.corpus_chrf(HYPS, REFS, word_order=2) == md.corpus_chrf(
        PATHS[0], PATHS[1:], word_order=2
    )
    assert bleu_corpus.corpus_bleu(HYPS, REF_A) == md.corpus_bleu(PATHS[0], PATHS[1])


def test_aligned_bags_hold_the_lines(client: distributed.Client) -> None:
    """The line-aligned bags of three files (7 ranges) hold each file's segments, partitioned
    alike."""
    bags = md.aligned_bags(PATHS, ranges=7)
    sizes = [bag.map_partitions(lambda p: [len(list(p))]).compute() for bag in bags]
    assert [HYPS, REF_A, REF_B] == [bag.compute() for bag in bags]
    assert sizes[0] == sizes[1] == sizes[2]


def test_globs_name_parts_in_order(client: distributed.Client, tmp_path: Path) -> None:
    """Globs name parts in order (the n-th hypothesis file beside the n-th reference file):
    the batch result of the parts joined."""
    parts = [(HYPS[:150], REF_A[:150]), (HYPS[150:], REF_A[150:])]
    for k, (hyps, refs) in enumerate(parts):
        (tmp_path / f"h.{k}.txt").write_text("".join(f"{line}\n" for line in hyps))
        (tmp_path / f"r.{k}.txt").write_text("".join(f"{line}\n" for line in refs))
    found = md.corpus_bleu(str(tmp_path / "h.*.txt"), str(tmp_path / "r.*.txt"))
    assert bleu_corpus.corpus_bleu(HYPS, REF_A) == found


def test_globs_of_different_counts_are_refused(client: distributed.Client, tmp_path: Path) -> None:
    """Globs that name different numbers of files: the error names both counts."""
    for name in ("h.0.txt", "h.1.txt", "r.0.txt"):
        (tmp_path / name).write_text("a\n")
    with pytest.raises(md.ScoreFilesError) as caught:
        md.corpus_bleu(str(tmp_path / "h.*.txt"), str(tmp_path / "r.*.txt"))
    expected = (
        f"{tmp_path}/h.*.txt names 2 files but {tmp_path}/r.*.txt names 1: each part needs "
        "its line-aligned file in every stream"
    )
    assert expected == caught.value.message


# --- segment scores -----------------------------------------------------------------------------


@pytest.mark.parametrize("metric", ["bleu", "chrf", "chrf++", "ter"])
def test_segment_scores_bag(client: distributed.Client, metric: str) -> None:
    """The bag of segment scores holds the batch API's segment scores, in order."""
    hyps, refs = _bags(4)
    functions = {"bleu": bleu_corpus.corpus_bleu, "ter": ter_corpus.corpus_ter}
    if metric in functions:
        expected = functions[metric](HYPS, REFS, segment_scores=True)  # type: ignore[operator]
    else:
        order = 2 if metric == "chrf++" else 0
        expected = chrf_corpus.corpus_chrf(HYPS, REFS, word_order=order, segment_scores=True)
    assert list(expected.segment_scores) == md.segment_scores(hyps, refs, metric).compute()


def test_segment_scores_written(client: distributed.Client, tmp_path: Path) -> None:
    """Segment scores written by the workers, one file per range, are `mtcompute score
    --segments`'s lines."""
    written = md.write_segment_scores(str(tmp_path / "*.txt"), PATHS[0], PATHS[1:], "chrf")
    expected = chrf_corpus.corpus_chrf(HYPS, REFS, segment_scores=True).segment_scores or ()
    found = "".join(Path(name).read_text() for name in written)
    assert "".join(f"{score:.6f}\n" for score in expected) == found


# --- MBR ------------------------------------------------------------------------------------------


def test_mbr_pairwise_and_utilities(client: distributed.Client) -> None:
    """All-pairs chrF of each candidate list is chrf_pairwise's matrix; the expected
    utilities are the matrix rows' correctly rounded means."""
    lists = [HYPS[i : i + 8] for i in range(0, 64, 8)]
    candidates = db.from_sequence(lists, npartitions=3)
    matrices = [chrf_corpus.chrf_pairwise(texts, texts, beta=3) for texts in lists]
    assert matrices == md.chrf_pairwise(candidates, beta=3).compute()
    utilities = [[math.fsum(row) / len(row) for row in m] for m in matrices]
    assert utilities == md.mbr_utilities(candidates, beta=3).compute()


# --- alignment errors ---------------------------------------------------------------------------


def test_bags_of_different_partition_counts_are_refused(client: distributed.Client) -> None:
    """Bags of different partition counts: the error says how many each has."""
    hyps, (ref_a, _) = _bags(4)
    with pytest.raises(md.MisalignedError) as caught:
        md.corpus_chrf(hyps, db.from_sequence(REF_A, npartitions=1))
    expected = (
        "the bags must be partitioned alike (line-aligned): the hypotheses have "
        f"{hyps.npartitions} partitions, the references 1"
    )
    assert expected == str(caught.value)
    assert ref_a.npartitions == hyps.npartitions


def test_partitions_of_different_lengths_are_refused(client: distributed.Client) -> None:
    """Partitions of different lengths: the error names the partition and both lengths."""
    hyps = db.from_sequence(["a", "b", "c", "d"], npartitions=2)
    refs = db.from_sequence(["a", "b", "c"], npartitions=2)
    with pytest.raises(md.MisalignedError) as caught:
        md.corpus_bleu(hyps, refs)
    expected = (
        "partition 1: the hypotheses have 2 segments, reference stream 1 has 1: the bags "
        "must be partitioned alike (line-aligned)"
    )
    assert expected == str(caught.value)


# --- files: score_files and its errors ------------------------------------------------------------


def test_score_files_two_systems_all_metrics(client: distributed.Client) -> None:
    """score_files of two systems, two references, four metrics, 5 ranges: the batch results."""
    settings = [
        md.Setting("bleu", BleuOptions()),
        md.Setting("chrf", ChrfOptions()),
        md.Setting("chrf++", ChrfOptions(word_order=2)),
        md.Setting("ter", TerOptions()),
    ]
    results, count = md.score_files([PATHS[0], str(SYS_2)], PATHS[1:], settings, ranges=5)
    second = split_segments(SYS_2.read_bytes(), str(SYS_2))
    expected = [
        [
            bleu_corpus.corpus_bleu(hyps, REFS),
            chrf_corpus.corpus_chrf(hyps, REFS),
            chrf_corpus.corpus_chrf(hyps, REFS, word_order=2),
            ter_corpus.corpus_ter(hyps, REFS),
        ]
        for hyps in (HYPS, second)
    ]
    assert len(HYPS) == count
    assert [[r.to_dict() for r in row] for row in expected] == [
        [r.to_dict() for r in row] for row in results
    ]


def test_score_files_tokenizes_each_line_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """score_files of three en-zh systems, BLEU with zh, in one range: each system's call
    builds its own tokenizer, all sharing one memo, so each distinct line is tokenized once
    (the references were tokenized again for each system); the results are the same as
    without."""
    folder = WMT / "generaltest2022" / "en-zh"
    paths = [*sorted(folder.glob("sys.*.txt"))[:3], folder / "ref.A.txt"]
    names = [str(path) for path in paths]
    seen = count_zh(monkeypatch)
    settings = [md.Setting("bleu", BleuOptions(tokenize="zh"))]

    def results() -> list[list[dict[str, Any]]]:
        with dask.config.set(scheduler="synchronous"):  # in this process: the counted zh
            found, _ = md.score_files(names[:3], names[3:], settings, ranges=1)
        return [[result.to_dict() for result in row] for row in found]

    shared = results()
    texts = [split_segments(path.read_bytes(), str(path)) for path in paths]
    assert sorted(seen) == sorted({line.rstrip() for lines in texts for line in lines})
    seen.clear()
    monkeypatch.setattr(md, "shared_memo", lambda _name: contextlib.nullcontext())
    assert shared == results()
    assert 3 * 2 * len(texts[0]) == len(seen)


def _score_files_error(tmp_path: Path, files: dict[str, bytes]) -> tuple[str, int]:
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
    names = [str(tmp_path / name) for name in files]
    with pytest.raises(md.ScoreFilesError) as caught:
        md.score_files(names[:1], names[1:], [md.Setting("chrf", ChrfOptions())], ranges=3)
    return caught.value.message.replace(str(tmp_path) + "/", ""), caught.value.exit_code


def test_score_files_bad_utf8_far_in(client: distributed.Client, tmp_path: Path) -> None:
    """A byte that is not UTF-8 in a later range of the reference: the command's message
    (its line, its offset in the file and in the line), exit status 1."""
    lines = b"".join(b"line %d\n" % i for i in range(300))
    good, bad = (lines + middle + lines for middle in (b"x y\n", b"x \xc3(\n"))
    expected = (
        "r.txt: line 301 is not valid UTF-8: byte 0xc3 at byte offset "
        f"{len(lines) + 2} of the file (offset 2 in the line): invalid continuation byte",
        1,
    )
    assert expected == _score_files_error(tmp_path, {"h.txt": good, "r.txt": bad, "s.txt": bad})


def test_score_files_different_lengths(client: distributed.Client, tmp_path: Path) -> None:
    """Files of different lengths: the command's message, exit status 1."""
    expected = (
        "the files have different numbers of lines: h.txt has 3, r.txt has 2; every file "
        "needs one line per segment",
        1,
    )
    assert expected == _score_files_error(tmp_path, {"h.txt": b"a\nb\nc", "r.txt": b"a\nb\n"})


def test_score_files_missing(client: distributed.Client, tmp_path: Path) -> None:
    """A file that does not exist: the command's message, exit status 2."""
    names = [str(tmp_path / "h.txt"), str(tmp_path / "none.txt")]
    Path(names[0]).write_bytes(b"a\n")
    with pytest.raises(md.ScoreFilesError) as caught:
        md.score_files(names[:1], names[1:], [md.Setting("chrf", ChrfOptions())])
    expected = (f"cannot read {names[1]}: No such file or directory", 2)
    assert expected == (caught.value.message, caught.value.exit_code)


# --- the command ----------------------------------------------------------------------------------


def _cli(*args: str) -> tuple[int, bytes, bytes]:
    done = run_cli("score", *args)
    return done.returncode, done.stdout, done.stderr


def _in_process(capture: pytest.CaptureFixture[bytes], *args: str) -> tuple[int, bytes, bytes]:
    """``mtcompute score ARGS`` in this process (no interpreter to start): status, output."""
    try:
        code = cli.main(["score", *args])
    except SystemExit as exc:  # argparse's usage errors
        code = int(str(exc.code))
    found = capture.readouterr()
    return code, found.out, found.err


def test_command_on_local_cluster_is_identical() -> None:
    """`mtcompute score --scheduler local:2` prints what `mtcompute score` prints (JSON, every
    metric, two systems, two references)."""
    args = ["-H", PATHS[0], str(SYS_2), "-r", *PATHS[1:], "-m", "bleu", "chrf", "chrf++", "ter"]
    expected = _cli(*args, "--format", "json")
    assert expected == _cli(*args, "--format", "json", "--scheduler", "local:2")
    assert 2 == len(json.loads(expected[1])["systems"])


_QUIET_CLUSTER = """
import logging, sys
from mtcompute import dask as md

def log_error() -> None:
    logging.getLogger("distributed.worker").error("a worker's ERROR line")

def fail() -> None:
    raise ValueError("the task's own failure")

with md.local_client(1, 1) as client:
    client.run(log_error)
    try:
        client.submit(fail).result()
    except ValueError as exc:
        print(exc)
    client.cluster.close()
"""


def test_local_cluster_silences_its_logs_not_failures() -> None:
    """`local_client`'s cluster prints none of its worker processes' log lines below CRITICAL
    (its shutdown race logs a traceback at ERROR: dask/distributed#7105, which failed the
    command test above once), and a task's failure still reaches the caller."""
    done = subprocess.run(
        [sys.executable, "-c", _QUIET_CLUSTER], capture_output=True, timeout=120, check=False
    )
    assert (0, b"the task's own failure\n", b"") == (done.returncode, done.stdout, done.stderr)


def test_command_on_a_scheduler_address_is_identical(
    client: distributed.Client, capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    """`mtcompute score --scheduler ADDRESS` (the module's cluster) prints what `mtcompute
    score` prints: text with segment scores, every metric."""
    args = ["-H", PATHS[0], "-r", *PATHS[1:], "-m", "bleu", "chrf", "chrf++", "ter", "--segments"]
    expected = _in_process(capsysbinary, *args)
    assert expected == _in_process(capsysbinary, *args, "--scheduler", client.scheduler.address)
    assert 4 * (len(HYPS) + 1) == len(expected[1].splitlines())


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (
            "local:0",
            "expected local:N with N a number of worker processes from 1 to 256, got 'local:0'",
        ),
        (
            "tcp://host",
            "expected a Dask scheduler address (tcp://HOST:PORT or HOST:PORT, PORT from 1 to "
            "65535) or local:N, got 'tcp://host'",
        ),
    ],
)
def test_command_bad_scheduler(
    value: str, message: str, capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    """A --scheduler that is neither local:N nor an address: a usage error naming it."""
    code, out, err = _in_process(capsysbinary, "-H", PATHS[0], "-r", PATHS[1], "--scheduler", value)
    last = err.decode().splitlines()[-1]
    assert (2, b"", f"mtcompute score: error: argument --scheduler: {message}") == (code, out, last)


def test_command_unreachable_scheduler(capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    """A scheduler nobody listens at: a one-line error, exit status 2, no traceback."""
    port = free_port()
    expected = (
        2,
        b"",
        f"mtcompute score: error: cannot reach the Dask scheduler at tcp://127.0.0.1:{port}: "
        "[Errno 111] Connection refused\n".encode(),
    )
    found = _in_process(
        capsysbinary, "-H", PATHS[0], "-r", PATHS[1], "--scheduler", f"127.0.0.1:{port}"
    )
    assert expected == found


def test_command_refuses_stdin_with_a_scheduler(
    capsysbinary: pytest.CaptureFixture[bytes],
) -> None:
    """'-' cannot be read by the workers: a usage error."""
    expected = (
        2,
        b"",
        b"mtcompute score: error: --scheduler reads files on the workers: '-' (stdin) cannot "
        b"be one of them\n",
    )
    assert expected == _in_process(
        capsysbinary, "-H", "-", "-r", PATHS[1], "--scheduler", "local:1"
    )


# --- the ranges ---------------------------------------------------------------------------------


def _ranges_of(data: bytes, count: int, path: Path) -> list[list[str]]:
    """The segments of each of ``count`` ranges of ``data``."""
    path.write_bytes(data)
    out = []
    with path.open("rb") as file:
        size = len(data)
        bounds = [_ranges.boundary(file, k * size // count, size) for k in range(count + 1)]
        first = 1
        for start, end in itertools.pairwise(bounds):
            found = _ranges.decode_segments(file, start, end, first)
            assert isinstance(found, list)
            assert len(found) == _ranges.count_segments(file, start, end, size)
            assert start == _ranges.skip_lines(file, 0, first - 1)
            first += len(found)
            out.append(found)
    return out


def test_ranges_cover_the_file(tmp_path: Path) -> None:
    """Random files of short and empty lines, with and without a final newline, cut into 1 to
    9 ranges: the ranges' segments, joined, are the file's segments (the command's reading),
    each range starts at the line its predecessors end before, and the counts agree."""
    rng = random.Random(15)
    for _ in range(60):
        lines = [
            "".join(rng.choice("ab \r") for _ in range(rng.randrange(4)))
            for _ in range(rng.randrange(12))
        ]
        data = "\n".join(lines).encode() + (b"\n" if rng.random() < 0.5 else b"")
        count = rng.randrange(1, 10)
        joined = [s for part in _ranges_of(data, count, tmp_path / "f.txt") for s in part]
        assert split_segments(data, "f") == joined, (data, count)


def test_decode_problem_message() -> None:
    """A decode problem prints as the command's UTF-8 error."""
    problem = _ranges.DecodeProblem(3, 0xFF, 17, 2, "invalid start byte")
    expected = (
        "f.txt: line 3 is not valid UTF-8: byte 0xff at byte offset 17 of the file (offset 2 "
        "in the line): invalid start byte"
    )
    assert expected == problem.message("f.txt")


# --- an optional dependency ---------------------------------------------------------------------


def test_dask_is_imported_by_its_module_only() -> None:
    """`import mtcompute` and the score command's module import neither Dask nor fsspec."""
    code = (
        "import sys, mtcompute, mtcompute.cli.score; print(sorted(m for m in "
        "('dask', 'distributed', 'fsspec') if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, check=True)
    assert b"[]\n" == done.stdout


def test_command_without_dask(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """--scheduler without the dask extra: a usage error saying what to install."""
    monkeypatch.setitem(sys.modules, "distributed", None)
    code = cli.main(["score", "-H", PATHS[0], "-r", PATHS[1], "--scheduler", "local:2"])
    expected = (
        "mtcompute score: error: --scheduler needs Dask and distributed (import of "
        "distributed halted; None in sys.modules): pip install 'mtcompute[dask]'\n"
    )
    captured = capsys.readouterr()
    assert (2, "", expected) == (code, captured.out, captured.err)
