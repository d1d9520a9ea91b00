"""``mtcompute score -m ter`` as a subprocess against sacreBLEU 2.6.0's ``TER``: several
systems and references, the four TER flags, the signature line, JSON, per-segment output, the
progress bar's chunks, and the errors (naming the flag, or the file and line).

The files are those of the WMT data in use (``tests.conftest.WMT``: the full data, or the
in-repo 200-line sample); windows of them are written to temporary files where sacreBLEU
would take long. Scores are compared as Python floats, printed lines byte for byte.
"""

from __future__ import annotations

import functools
import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
from sacrebleu.metrics.ter import TER

from mtcompute import __version__
from mtcompute.metrics.ter.corpus import corpus_ter
from tests.cli.terminal import stderr_on_a_terminal
from tests.conftest import WMT, at_least, run_cli
from tests.oracle import answer

EN_DE = WMT / "generaltest2022" / "en-de"
EN_ZH = WMT / "generaltest2022" / "en-zh"
SYSTEMS = sorted(EN_DE.glob("sys.*.txt"))
SYS = EN_DE / "sys.Online-B.txt"
REF_A = EN_DE / "ref.A.txt"
REF_B = EN_DE / "ref.B.txt"
MTCOMPUTE = f"|mtcompute:{__version__}"
FLAGS = {
    "normalized": "--normalized",
    "no_punct": "--no-punct",
    "asian_support": "--asian-support",
    "case_sensitive": "--case-sensitive",
}

EXAMPLE_HYPOTHESES = ["The cat sat on mat.", "A quick brown fox jumps over the dog."]
EXAMPLE_REF_A = ["The cat sat on the mat.", "A fast brown fox jumped over the lazy dog."]
EXAMPLE_REF_B = ["There is a cat on the mat.", "The quick brown fox jumps over the lazy dog."]


def lines(path: Path) -> list[str]:
    """A file's segments (UTF-8, one per line, a final newline ends the last one)."""
    return path.read_text(encoding="utf-8").removesuffix("\n").split("\n")


def write(folder: Path, name: str, segments: list[str]) -> str:
    """The segments as a file ``folder/name``, one per line; its path as a string."""
    path = folder / name
    path.write_text("".join(f"{s}\n" for s in segments), encoding="utf-8")
    return str(path)


def score_json(*args: str) -> dict[str, Any]:
    """``mtcompute score --format json ARGS``: its one JSON object (exit 0, stderr empty)."""
    proc = run_cli("score", "--format", "json", *args)
    assert (0, b"") == (proc.returncode, proc.stderr)
    result: dict[str, Any] = json.loads(proc.stdout)
    return result


@functools.cache
def sacrebleu_line(
    system: Path, references: tuple[Path, ...], options: tuple[tuple[str, bool], ...] = ()
) -> tuple[float, str]:
    """sacreBLEU's corpus TER(**options) of the files: the score, and the line score prints
    (sacreBLEU's format with the signature, then mtcompute's version)."""
    hyps, refs = lines(system), [lines(r) for r in references]

    def sacrebleus() -> tuple[float, str]:
        metric = TER(**dict(options))
        score = metric.corpus_score(hyps, refs)
        return score.score, score.format(signature=str(metric.get_signature()) + MTCOMPUTE)

    score, line = answer(
        "TER corpus_score and format", [options, MTCOMPUTE], (hyps, refs), sacrebleus
    )
    return score, line


def error_line(proc: subprocess.CompletedProcess[bytes]) -> tuple[int, bytes, str]:
    """(exit status, stdout, the last line of stderr)."""
    return proc.returncode, proc.stdout, proc.stderr.decode().rstrip("\n").rpartition("\n")[2]


# -- numbers -------------------------------------------------------------------------------


def test_every_en_de_system_both_references_equals_sacrebleu(tmp_path: Path) -> None:
    """Every en-de system, two references: sacreBLEU's TER lines byte for byte, its floats."""
    systems = [Path(write(tmp_path, s.name, lines(s)[:500])) for s in SYSTEMS]
    refs = tuple(Path(write(tmp_path, r.name, lines(r)[:500])) for r in (REF_A, REF_B))
    width = max(len(str(s)) for s in systems)
    expected = [f"{s!s:<{width}}  {sacrebleu_line(s, refs)[1]}" for s in systems]
    args = ("-H", *map(str, systems), "-r", *map(str, refs), "-m", "ter")
    proc = run_cli("score", *args)
    output = score_json(*args)
    found = [system["scores"]["ter"]["score"] for system in output["systems"]]
    assert (0, "\n".join(expected) + "\n", b"") == (
        proc.returncode,
        proc.stdout.decode(),
        proc.stderr,
    )
    assert [sacrebleu_line(s, refs)[0] for s in systems] == found


def test_one_reference_with_the_other_metrics() -> None:
    """-m bleu ter chrf on the whole en-de set: the TER line is sacreBLEU's, second."""
    proc = run_cli("score", "-H", str(SYS), "-r", str(REF_A), "-m", "bleu", "ter", "chrf")
    out = proc.stdout.decode().splitlines()
    assert (0, 3, sacrebleu_line(SYS, (REF_A,))[1]) == (proc.returncode, len(out), out[1])


OPTION_SETS = [
    {"normalized": True},
    {"no_punct": True},
    {"asian_support": True},
    {"case_sensitive": True},
    {"normalized": True, "asian_support": True},
    {"no_punct": True, "asian_support": True, "case_sensitive": True},
    {"normalized": True, "no_punct": True, "asian_support": True, "case_sensitive": True},
]


@pytest.mark.parametrize(
    "options", OPTION_SETS, ids=["-".join(o) for o in OPTION_SETS]
)  # fmt: skip
def test_ter_flags_equal_sacrebleu(tmp_path: Path, options: dict[str, bool]) -> None:
    """Each TER flag and some combinations: sacreBLEU's TER(...) line, byte for byte."""
    folder = tmp_path
    hyps = lines(EN_ZH / "sys.Online-B.txt")[:40] + lines(SYS)[:200]
    ref_a = lines(EN_ZH / "ref.A.txt")[:40] + lines(REF_A)[:200]
    ref_b = lines(EN_ZH / "ref.B.txt")[:40] + lines(REF_B)[:200]
    files = [write(folder, n, t) for n, t in (("h", hyps), ("a", ref_a), ("b", ref_b))]
    flags = [FLAGS[name] for name in options]
    proc = run_cli("score", "-H", files[0], "-r", *files[1:], "-m", "ter", *flags)
    expected = sacrebleu_line(
        Path(files[0]), (Path(files[1]), Path(files[2])), tuple(options.items())
    )
    assert (0, expected[1] + "\n", b"") == (proc.returncode, proc.stdout.decode(), proc.stderr)


def test_the_issue_example(tmp_path: Path) -> None:
    """The ter-compute example as files: its totals, per-segment figures and signature."""
    hyp = write(tmp_path, "hyp.txt", EXAMPLE_HYPOTHESES)
    ref_a = write(tmp_path, "a.txt", EXAMPLE_REF_A)
    ref_b = write(tmp_path, "b.txt", EXAMPLE_REF_B)
    found = score_json("-H", hyp, "-r", ref_a, ref_b, "-m", "ter", "--segments")
    ter = found["systems"][0]["scores"]["ter"]
    expected = (
        19.35483870967742,
        "19.35",
        3,
        15.5,
        [15.384615384615385, 22.22222222222222],
        [1, 2],
        [6.5, 9],
        f"nrefs:2|case:lc|tok:tercom|norm:no|punct:yes|asian:no|version:2.6.0{MTCOMPUTE}",
    )
    assert expected == (
        ter["score"],
        ter["score_text"],
        ter["num_edits"],
        ter["ref_length"],
        ter["segment_scores"],
        ter["segment_edits"],
        ter["segment_ref_lengths"],
        ter["signature"],
    )


def test_json_fields() -> None:
    """TER JSON: sacreBLEU's score, totals and signature, the settings, in order."""
    metric = TER(no_punct=True, case_sensitive=True)
    theirs = metric.corpus_score(lines(SYS), [lines(REF_A)])
    expected = {
        "name": "TER",
        "score": theirs.score,
        "score_text": f"{theirs.score:.2f}",
        "signature": str(metric.get_signature()) + MTCOMPUTE,
        "normalized": False,
        "no_punct": True,
        "asian_support": False,
        "case_sensitive": True,
        "nrefs": 1,
        "num_edits": theirs.num_edits,
        "ref_length": theirs.ref_length,
    }
    args = ("-H", str(SYS), "-r", str(REF_A), "-m", "ter", "--no-punct", "--case-sensitive")
    proc = run_cli("score", "--format", "json", *args)
    actual = json.loads(proc.stdout)["systems"][0]["scores"]["ter"]
    assert (expected, list(expected)) == (actual, list(actual))
    assert f'"ref_length":{int(theirs.ref_length)}}}'.encode() in proc.stdout


def test_segments_are_sacrebleus_sentence_scores(tmp_path: Path) -> None:
    """--segments: sacreBLEU's sentence scores, edits and lengths; six decimals as text."""
    hyps, ref_a, ref_b = lines(SYS)[:300], lines(REF_A)[:300], lines(REF_B)[:300]
    metric = TER(normalized=True)
    sentences = [
        metric.sentence_score(h, [a, b]) for h, a, b in zip(hyps, ref_a, ref_b, strict=True)
    ]
    files = [write(tmp_path, n, t) for n, t in (("h", hyps), ("a", ref_a), ("b", ref_b))]
    args = ("-H", files[0], "-r", *files[1:], "-m", "ter", "--normalized", "--segments")
    ter = score_json(*args)["systems"][0]["scores"]["ter"]
    expected = (
        [s.score for s in sentences],
        [s.num_edits for s in sentences],
        [s.ref_length for s in sentences],
    )
    assert expected == (ter["segment_scores"], ter["segment_edits"], ter["segment_ref_lengths"])
    text = run_cli("score", *args).stdout.decode().splitlines()
    assert [f"{s.score:.6f}" for s in sentences] == text[1:]


# -- the progress bar's chunks -------------------------------------------------------------


def test_progress_chunks_add_up_to_the_whole(tmp_path: Path) -> None:
    """Chunks on a terminal, three references: the whole input's figures, the bar full."""
    folder = WMT / "newstest2021" / "en-de"
    names = ("sys.Facebook-AI.txt", "ref.A.txt", "ref.C.txt", "ref.D.txt")
    texts = [at_least(lines(folder / name), 10_001) for name in names]
    texts = [t[: len(texts[0])] for t in texts]
    count = len(texts[0])
    hyps, refs = texts[0], [list(r) for r in zip(*texts[1:], strict=True)]
    whole = corpus_ter(hyps, refs)
    parts = [corpus_ter(hyps[i : i + 2000], refs[i : i + 2000]) for i in range(0, count, 2000)]
    naive = 0.0
    for part in parts:
        naive += part.ref_length
    files = [write(tmp_path, name, t) for name, t in zip(names, texts, strict=True)]
    args = ["score", "-H", files[0], "-r", *files[1:], "-m", "ter", "--format", "json"]
    proc, drawn = stderr_on_a_terminal(args, timeout=120)
    ter = json.loads(proc.stdout)["systems"][0]["scores"]["ter"]
    assert (True, 0, True) == (
        naive != whole.ref_length,
        proc.returncode,
        f"{count}/{count}".encode() in drawn,
    )
    assert (whole.score, whole.num_edits, whole.ref_length) == (
        ter["score"],
        ter["num_edits"],
        ter["ref_length"],
    )


# -- errors --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("-m", "ter", "--beta", "3"), "--beta do(es) not apply to --metric ter"),
        (
            ("-m", "ter", "--lowercase"),
            "--lowercase do(es) not apply to --metric ter (TER lowercases unless --case-sensitive)",
        ),
        (
            ("-m", "ter", "--tokenize", "zh", "--max-order", "2"),
            "--tokenize, --max-order do(es) not apply to --metric ter",
        ),
        (("-m", "bleu", "--case-sensitive"), "--case-sensitive do(es) not apply to --metric bleu"),
        (
            ("-m", "chrf", "chrf++", "--normalized", "--no-punct", "--asian-support"),
            "--normalized, --no-punct, --asian-support do(es) not apply to --metric chrf chrf++",
        ),
        (
            ("-m", "ter", "--rules", "contract"),
            "--rules contract applies to chrf and chrf++ only: TER is scored by sacreBLEU's "
            "rules alone (the ter-compute tool gives the same numbers)",
        ),
        (("-m", "ter", "chrf", "ter"), "--metric ter is given more than once"),
    ],
    ids=[
        "beta",
        "lowercase",
        "bleu-flags",
        "case-for-bleu",
        "ter-flags-for-chrf",
        "rules",
        "twice",
    ],
)
def test_flags_that_do_not_apply_are_usage_errors(args: tuple[str, ...], message: str) -> None:
    """A flag no metric asked for takes, or --rules contract with TER: exit 2 naming it."""
    proc = run_cli("score", "-H", str(SYS), "-r", str(REF_A), *args)
    assert (2, b"", f"mtcompute score: error: {message}") == error_line(proc)


def test_flags_take_no_value() -> None:
    """--normalized=yes: argparse's usage error naming the flag, exit 2."""
    proc = run_cli("score", "-H", str(SYS), "-r", str(REF_A), "-m", "ter", "--normalized=yes")
    expected = "mtcompute score: error: argument --normalized: ignored explicit argument 'yes'"
    assert (2, b"", expected) == error_line(proc)


def test_bad_utf8_names_the_file_and_line(tmp_path: Path) -> None:
    """A reference that is not UTF-8: exit 1 naming the file, line and byte offset."""
    hyp = tmp_path / "hyp.txt"
    ref = tmp_path / "ref.txt"
    hyp.write_bytes(b"a b\nc d\n")
    ref.write_bytes(b"a b\nc \xe2\x82\n")
    proc = run_cli("score", "-H", str(hyp), "-r", str(ref), "-m", "ter")
    expected = (
        f"mtcompute score: error: {ref}: line 2 is not valid UTF-8: byte 0xe2 at byte offset "
        "6 of the file (offset 2 in the line): invalid continuation byte"
    )
    assert (1, b"", expected) == error_line(proc)


def test_files_of_different_lengths_with_json_are_an_envelope(tmp_path: Path) -> None:
    """Different line counts with --format json: the envelope naming both files, exit 1."""
    hyp = write(tmp_path, "hyp.txt", ["a", "b"])
    ref = write(tmp_path, "ref.txt", ["a"])
    proc = run_cli("score", "-H", hyp, "-r", ref, "-m", "ter", "--format", "json")
    message = (
        f"the files have different numbers of lines: {hyp} has 2, {ref} has 1; every file "
        "needs one line per segment"
    )
    expected = {"error": {"code": "invalid_input", "message": message, "path": ""}}
    assert (1, expected, b"") == (proc.returncode, json.loads(proc.stdout), proc.stderr)
