"""``mtcompute.dask``'s WER and CER (the batch API's numbers, partition by partition) and the
progress of ``mtcompute score --scheduler`` (a bar on a terminal only)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

dask = pytest.importorskip("dask", reason="the dask extra is not installed")
db = pytest.importorskip("dask.bag", reason="the dask extra is not installed")
distributed = pytest.importorskip("distributed", reason="the dask extra is not installed")

import mtcompute  # noqa: E402
from mtcompute import cli  # noqa: E402
from mtcompute import dask as md  # noqa: E402
from mtcompute.cli._files import split_segments  # noqa: E402
from mtcompute.metrics.chrf.score import ChrfOptions  # noqa: E402
from mtcompute.metrics.wer.corpus import corpus_wer  # noqa: E402
from mtcompute.metrics.wer.text import WerOptions  # noqa: E402
from tests.cli.terminal import stderr_on_a_terminal  # noqa: E402
from tests.conftest import SAMPLE_WMT, run_cli  # noqa: E402
from tests.metrics.dask_cluster import local_client  # noqa: E402

PAIR = SAMPLE_WMT / "generaltest2022" / "en-cs"
SYS, REF, REF_2 = PAIR / "sys.CUNI-Bergamot.txt", PAIR / "ref.B.txt", PAIR / "ref.C.txt"
HYPS, REFS = (split_segments(path.read_bytes(), str(path)) for path in (SYS, REF))


@pytest.fixture(scope="module")
def client() -> Iterator[distributed.Client]:
    """A LocalCluster of two worker processes, one thread each, and its client."""
    with local_client() as connected:
        yield connected


@pytest.mark.parametrize("unit", ["word", "character"])
def test_wer_and_cer_of_bags_and_paths_are_corpus_wer_s(
    client: distributed.Client, unit: str
) -> None:
    """WER and CER of bags in 7 partitions (the first with empty references only: no
    reference unit there, some in the corpus), with segment scores and options, and of
    paths the workers read, are corpus_wer's results."""
    refs = ["" for _ in range(10)] + REFS[10:]
    options = {"unit": unit, "lowercase": True, "remove_punctuation": True}
    expected = corpus_wer(HYPS, refs, segment_scores=True, **options)  # type: ignore[arg-type]
    hyps_bag = db.from_sequence(HYPS, partition_size=10)
    refs_bag = db.from_sequence(refs, partition_size=10)
    found = md.corpus_wer(hyps_bag, refs_bag, segment_scores=True, **options)  # type: ignore[arg-type]
    whole = {k: v for k, v in expected.to_dict().items() if k != "segment_scores"}
    assert whole == {k: v for k, v in found.to_dict().items() if k != "segment_scores"}
    assert expected.segment_scores == pytest.approx(found.segment_scores, nan_ok=True)
    on_files = md.corpus_wer(str(SYS), str(REF), unit=unit)
    assert corpus_wer(HYPS, REFS, unit=unit).to_dict() == on_files.to_dict()  # type: ignore[arg-type]


def test_wer_segment_scores_bag(client: distributed.Client) -> None:
    """segment_scores(metric="cer") is each segment's CER in percent, as corpus_wer's."""
    bag = md.segment_scores(
        db.from_sequence(HYPS, npartitions=4), db.from_sequence(REFS, npartitions=4), "cer"
    )
    expected = corpus_wer(HYPS, REFS, unit="character", segment_scores=True).segment_scores
    assert list(expected or ()) == bag.compute()


def test_wer_refusals_are_corpus_wer_s(client: distributed.Client) -> None:
    """No reference unit in the whole corpus: corpus_wer's error; two reference streams:
    refused."""
    empty = ["" for _ in HYPS]
    with pytest.raises(mtcompute.InvalidInput) as expected:
        corpus_wer(HYPS, empty)
    bags = [db.from_sequence(texts, npartitions=3) for texts in (HYPS, empty, REFS)]
    with pytest.raises(mtcompute.InvalidInput) as found:
        md.corpus_wer(bags[0], bags[1])
    assert str(expected.value) == str(found.value)
    with pytest.raises(ValueError, match=r"^references: WER and CER take one reference stream"):
        md.corpus_wer(bags[0], bags[1:])


def test_score_files_reports_progress_and_the_same_results(client: distributed.Client) -> None:
    """With a progress callback, score_files reports 0, then each range's segments up to
    the total, and returns what it returns without one (WER among the metrics)."""
    settings = [md.Setting("chrf", ChrfOptions()), md.Setting("wer", WerOptions())]
    calls: list[tuple[int, int]] = []
    plain = md.score_files([str(SYS)], [str(REF)], settings, ranges=6)
    tracked = md.score_files(
        [str(SYS)], [str(REF)], settings, ranges=6, progress=lambda *a: calls.append(a)
    )
    done = [d for d, _ in calls]
    assert [[r.to_dict() for r in row] for row in plain[0]] == [
        [r.to_dict() for r in row] for row in tracked[0]
    ]
    assert ({len(HYPS)}, 0, len(HYPS), sorted(done)) == (
        {t for _, t in calls},
        done[0],
        done[-1],
        done,
    )
    assert len(calls) > 2


def test_score_scheduler_draws_progress_on_a_terminal_only() -> None:
    """`score --scheduler local:1` draws the Dask bar (its segment count) on a terminal's
    stderr, not with -q, not into a pipe; stdout is the same in all three."""
    args = ["score", "-H", str(SYS), "-r", str(REF), "--scheduler", "local:1"]
    proc, drawn = stderr_on_a_terminal(args, timeout=120)
    quiet, quiet_drawn = stderr_on_a_terminal([*args, "-q"], timeout=120)
    piped = run_cli(*args)
    done = rf"Dask: +100%\|.*\| {len(HYPS)}/{len(HYPS)} \[.* segments/s\]"
    assert re.search(done.encode(), drawn), drawn
    assert (0, b"", b"") == (quiet.returncode, quiet_drawn, piped.stderr)
    assert proc.stdout == quiet.stdout == piped.stdout


def _score(capture: pytest.CaptureFixture[bytes], *args: str) -> tuple[int, bytes, bytes]:
    """``mtcompute score ARGS`` in this process: status, output, errors."""
    code = cli.main(["score", *args])
    found = capture.readouterr()
    return code, found.out, found.err


@pytest.mark.parametrize("form", ["text", "json"])
def test_score_scheduler_wer_and_cer_print_the_local_bytes(
    client: distributed.Client, capsysbinary: pytest.CaptureFixture[bytes], form: str
) -> None:
    """`score --scheduler ADDRESS -m wer cer` (lowercased, segment scores) prints what the
    run on this machine prints, which is corpus_wer's."""
    args = ["-H", str(SYS), "-r", str(REF), "-m", "wer", "cer", "--lowercase", "--segments"]
    expected = _score(capsysbinary, *args, "--format", form)
    found = _score(capsysbinary, *args, "--format", form, "--scheduler", client.scheduler.address)
    assert (0, b"") == (expected[0], expected[2])
    assert expected == found
    if form == "text":
        first = found[1].splitlines()[0].decode()
        assert str(corpus_wer(HYPS, REFS, lowercase=True)) == first


def test_score_scheduler_refuses_references_without_words(
    client: distributed.Client, capsysbinary: pytest.CaptureFixture[bytes], tmp_path: Path
) -> None:
    """References without a word: the cluster run refuses them as the local run does."""
    h, r = tmp_path / "h.txt", tmp_path / "r.txt"
    h.write_text("a b\nc\n", encoding="utf-8")
    r.write_text("\n  \n", encoding="utf-8")
    args = ["-H", str(h), "-r", str(r), "-m", "wer", "-q"]
    local = _score(capsysbinary, *args)
    found = _score(capsysbinary, *args, "--scheduler", client.scheduler.address)
    assert local[0] not in (0, 2)
    assert local == found
