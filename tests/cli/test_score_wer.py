"""``mtcompute score -m wer cer`` as a subprocess against jiwer 4.0.0 (and the library's
corpus_wer): the score lines, JSON with counts, per-segment output, --lowercase, chunks that
cross a segment without reference words, and the refusals (several reference files, tests,
--rules, no reference unit at all; --scheduler's run is in
tests/metrics/test_dask_wer.py)."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

from mtcompute import __version__
from mtcompute.metrics.wer.corpus import corpus_wer
from tests.cli.test_score_ter import write
from tests.conftest import WMT, cli_command, run_cli
from tests.harness import read_lines
from tests.jiwer_oracle import jiwer_result

EN_DE = WMT / "newstest2021" / "en-de"
SYS = sorted(p for p in EN_DE.glob("sys.*.txt") if ".tok." not in p.name)[0]
REF = sorted(p for p in EN_DE.glob("ref.*.txt") if ".tok." not in p.name)[0]


def _json(*args: str) -> dict[str, Any]:
    proc = run_cli("score", "--format", "json", *args)
    assert (proc.returncode, proc.stderr) == (0, b""), proc.stderr
    data: dict[str, Any] = json.loads(proc.stdout)
    return data


def test_wmt_system_in_words_and_characters_is_jiwers() -> None:
    """A WMT system: the WER and CER lines carry jiwer's rate in percent with the signature;
    the JSON carries jiwer's rate and counts."""
    proc = run_cli("score", "-H", str(SYS), "-r", str(REF), "-m", "wer", "cer")
    hyps, refs = read_lines(SYS), read_lines(REF)
    word, char = jiwer_result(hyps, refs, "word"), jiwer_result(hyps, refs, "character")
    expected = (
        f"WER|nrefs:1|unit:word|lc:no|punct:yes|ws:jiwer|jiwer:4.0.0|mtcompute:{__version__} = "
        f"{100 * word['score']:.2f}\n"
        f"CER|nrefs:1|unit:character|lc:no|punct:yes|ws:jiwer|jiwer:4.0.0|mtcompute:{__version__}"
        f" = {100 * char['score']:.2f}\n"
    )
    scores = _json("-H", str(SYS), "-r", str(REF), "-m", "wer", "cer")["systems"][0]["scores"]
    assert (0, expected) == (proc.returncode, proc.stdout.decode())
    for metric, oracle in (("wer", word), ("cer", char)):
        keys = ("hits", "substitutions", "deletions", "insertions", "reference_length")
        assert (oracle["score"], *(oracle[k] for k in keys)) == (
            scores[metric]["rate"],
            *(scores[metric][k] for k in keys),
        )


def test_segments_lowercase_and_chunks(tmp_path: Path) -> None:
    """--segments prints each segment's rate in percent (nan without reference words);
    --lowercase is the library's lowercase; read in chunks of 2, the first chunk without
    reference words, the result is the list's."""
    hyps = ["The Cat", "x", "the cat sat", "A B C", "a b"]
    refs = ["", " ", "the cat sat on", "a b c", "b"]
    h, r = write(tmp_path, "h.txt", hyps), write(tmp_path, "r.txt", refs)
    env = {**os.environ, "MTCOMPUTE_CHUNK_SEGMENTS": "2"}
    proc = subprocess.run(
        [*cli_command(), "score", "-H", h, "-r", r, "-m", "wer", "--lowercase", "--segments"],
        capture_output=True,
        env=env,
        timeout=60,
        check=False,
    )
    library = corpus_wer(hyps, refs, lowercase=True, segment_scores=True)
    assert library.segment_scores is not None
    segments = "".join(f"{score:.6f}\n" for score in library.segment_scores)
    assert (0, f"{library}\n{segments}", ["nan", "nan", "25.000000"]) == (
        proc.returncode,
        proc.stdout.decode(),
        segments.split("\n")[:3],
    )


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["R2"], "--metric wer: one reference file, got 2"),
        (["--rules", "contract"], "--metric wer: jiwer's rule only, --rules does not apply"),
    ],
    ids=["two references", "rules"],
)
def test_refusals_are_usage_errors(tmp_path: Path, extra: list[str], message: str) -> None:
    """What WER and CER do not take is a usage error naming it."""
    h = write(tmp_path, "h.txt", ["a b"])
    r = write(tmp_path, "r.txt", ["a c"])
    args = [h if a == "H" else r if a == "R2" else a for a in extra]
    proc = run_cli("score", "-H", h, "-r", r, *args, "-m", "wer")
    assert (2, message) == (proc.returncode, proc.stderr.decode().strip().split("error: ")[-1])


def test_no_reference_word_is_a_data_error(tmp_path: Path) -> None:
    """References without a word: refused, as the library refuses them."""
    h = write(tmp_path, "h.txt", ["a b", "c"])
    r = write(tmp_path, "r.txt", ["", "  "])
    proc = run_cli("score", "-H", h, "-r", r, "-m", "cer")
    assert proc.returncode not in (0, 2)
    assert b"Expected at least one reference with characters after normalisation" in proc.stderr
