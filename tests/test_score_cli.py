"""``mtcompute score`` as a subprocess: chrF and BLEU of WMT files, formats, errors, progress.

The en-de files are those of the WMT data in use (``tests.conftest.WMT``): 2037 segments in the
full data, 200 in the in-repo sample; the expected figures are computed from the files.
"""

from __future__ import annotations

import json
import os
import pty
import subprocess
from pathlib import Path

import pytest
from sacrebleu.metrics.bleu import BLEU
from sacrebleu.metrics.chrf import CHRF

from mtcompute.batch import corpus_bleu, corpus_chrf
from mtcompute.core.bleu import sentence_statistics, smooth_and_score
from mtcompute.core.chrf import segment_statistics
from tests import conftest
from tests.conftest import WMT, at_least, run_cli

EN_DE = WMT / "generaltest2022" / "en-de"
SYS = EN_DE / "sys.JDExploreAcademy.txt"
REF_A = EN_DE / "ref.A.txt"
REF_B = EN_DE / "ref.B.txt"
SYS_B = EN_DE / "sys.Online-B.txt"


def lines(path: Path) -> list[str]:
    """A WMT file's segments (UTF-8, one per line, final newline ends the last one)."""
    return path.read_text(encoding="utf-8").removesuffix("\n").split("\n")


def score_json(*args: str, stdin: bytes | None = None) -> dict[str, object]:
    """Run ``mtcompute score --format json ARGS`` and parse its one JSON object."""
    proc = run_cli("score", "--format", "json", *args, stdin=stdin)
    assert (0, b"") == (proc.returncode, proc.stderr)
    result: dict[str, object] = json.loads(proc.stdout)
    return result


def write(tmp_path: Path, name: str, data: bytes) -> str:
    """Write ``data`` to ``tmp_path/name`` and return the path as a string."""
    path = tmp_path / name
    path.write_bytes(data)
    return str(path)


# -- numbers -------------------------------------------------------------------------------


def test_chrf_text_output_equals_the_library() -> None:
    """The chrF line on en-de is the library's six-decimal score, exact fraction and count."""
    result = corpus_chrf(lines(SYS), lines(REF_A))
    fraction = f"{result.fraction.numerator}/{result.fraction.denominator}"
    count = len(lines(SYS))
    expected = f"chrF2 = {result.score_text}  (exact {fraction}, {count} segments)\n".encode()
    proc = run_cli("score", "--hypotheses", str(SYS), "--references", str(REF_A))
    assert (0, expected, b"") == (proc.returncode, proc.stdout, proc.stderr)


def test_chrf_equals_sacrebleu_corpus_score_on_en_de() -> None:
    """On en-de (no reference shorter than 6 characters) chrF equals sacreBLEU's to 1e-9."""
    hyps, refs = lines(SYS), lines(REF_A)
    short = [r for r in refs if min(segment_statistics("", r).reference) == 0]
    value = score_json("-H", str(SYS), "-r", str(REF_A))["score_value"]
    assert isinstance(value, float)
    expected = CHRF().corpus_score(hyps, [refs]).score
    assert ([], True) == (short, abs(expected - value) <= 1e-9)


def test_chrf_json_has_settings_score_and_fraction() -> None:
    """JSON output: settings, six-decimal score, exact fraction and float value, in order."""
    result = corpus_chrf(lines(SYS), lines(REF_A), beta=3, lowercase=True)
    expected = {
        "metric": "chrF",
        "char_order": 6,
        "word_order": 0,
        "beta": 3,
        "lowercase": True,
        "segment_count": len(lines(SYS)),
        "score": result.score_text,
        "score_fraction": f"{result.fraction.numerator}/{result.fraction.denominator}",
        "score_value": result.score,
    }
    actual = score_json("-H", str(SYS), "-r", str(REF_A), "--beta", "3", "--lowercase")
    assert (expected, list(expected)) == (actual, list(actual))


def test_bleu_statistics_equal_sacrebleu_tokenize_none() -> None:
    """BLEU on en-de: counts and lengths are sacreBLEU's (tokenize='none'), bleu to 1e-9."""
    hyps, refs = lines(SYS), lines(REF_A)
    theirs = BLEU(tokenize="none", smooth_method="none").corpus_score(hyps, [refs])
    ours = score_json("-H", str(SYS), "-r", str(REF_A), "--metric", "bleu")
    expected = (theirs.counts, theirs.totals, theirs.sys_len, theirs.ref_len, True)
    actual = (
        ours["matches"],
        ours["totals"],
        ours["candidate_length"],
        ours["reference_length"],
        abs(theirs.score / 100 - float(ours["bleu"])) <= 1e-9,  # type: ignore[arg-type]
    )
    assert expected == actual


def test_bleu_with_two_references_equals_sacrebleu() -> None:
    """BLEU takes every reference file: en-de against ref.A and ref.B, as sacreBLEU does."""
    hyps = lines(SYS)
    refs = [lines(REF_A), lines(REF_B)]
    theirs = BLEU(tokenize="none", smooth_method="none").corpus_score(hyps, refs)
    ours = score_json("-H", str(SYS), "-r", str(REF_A), str(REF_B), "--metric", "bleu")
    expected = (theirs.counts, theirs.totals, theirs.sys_len, theirs.ref_len, 2)
    actual = (
        ours["matches"],
        ours["totals"],
        ours["candidate_length"],
        ours["reference_length"],
        ours["reference_count"],
    )
    assert expected == actual


def test_bleu_json_equals_the_library() -> None:
    """BLEU JSON with method1 is the library's corpus statistics smoothed the same way."""
    hyps, refs = lines(SYS), lines(REF_A)
    stats = corpus_bleu([h.split() for h in hyps], [[r.split()] for r in refs])
    scored = smooth_and_score(
        stats.matches,
        stats.totals,
        stats.candidate_length,
        stats.reference_length,
        "method1",
        0.05,
    )
    expected = {
        "metric": "BLEU",
        "tokenize": "whitespace",
        "max_order": 4,
        "smoothing": "method1",
        "epsilon": 0.05,
        "effective_order": False,
        "reference_count": 1,
        "segment_count": len(lines(SYS)),
        "bleu": scored.bleu,
        "brevity_penalty": scored.brevity_penalty,
        "ratio": stats.candidate_length / stats.reference_length,
        "candidate_length": stats.candidate_length,
        "reference_length": stats.reference_length,
        "matches": list(stats.matches),
        "totals": list(stats.totals),
        "orders_used": 4,
    }
    args = ("-H", str(SYS), "-r", str(REF_A), "--metric", "bleu", "--smoothing", "method1")
    actual = score_json(*args, "--epsilon", "0.05")
    assert expected == actual


def test_bleu_text_line() -> None:
    """The BLEU text line shows bleu, BP, ratio, lengths, matches and totals."""
    hyps, refs = lines(SYS), lines(REF_A)
    s = corpus_bleu([h.split() for h in hyps], [[r.split()] for r in refs])
    c, r = s.candidate_length, s.reference_length
    expected = (
        f"BLEU = {s.bleu:.6f}  BP = {s.brevity_penalty:.6f}  ratio = {c / r:.6f}  "
        f"hyp_len = {c}  ref_len = {r}  matches = {'/'.join(map(str, s.matches))}  "
        f"totals = {'/'.join(map(str, s.totals))}\n"
    ).encode()
    proc = run_cli("score", "-H", str(SYS), "-r", str(REF_A), "--metric", "bleu")
    assert (0, expected) == (proc.returncode, proc.stdout)


# -- segments ------------------------------------------------------------------------------


def test_chrf_segments_one_line_per_segment() -> None:
    """--segments prints the corpus line, then one line per input line (2037 on the full
    data)."""
    proc = run_cli("score", "-H", str(SYS), "-r", str(REF_A), "--segments")
    out = proc.stdout.decode().splitlines()
    expected = (0, 1 + len(lines(SYS)), True)
    assert expected == (proc.returncode, len(out), out[0].startswith("chrF2 = "))


def test_chrf_segment_scores_equal_the_library_and_sacrebleu() -> None:
    """JSON segment_scores are the library's, and sacreBLEU's sentence scores to 1e-9."""
    hyps, refs = lines(SYS), lines(REF_A)
    library = list(corpus_chrf(hyps, refs, segment_scores=True).segment_scores or ())
    metric = CHRF()
    sacre = [metric.sentence_score(h, [r]).score for h, r in zip(hyps, refs, strict=True)]
    actual = score_json("-H", str(SYS), "-r", str(REF_A), "--segments")["segment_scores"]
    assert isinstance(actual, list)
    worst = max(abs(a - b) for a, b in zip(actual, sacre, strict=True))
    assert (library, True) == (actual, worst <= 1e-9)


def test_bleu_segments_are_sentence_bleu_with_the_same_smoothing(tmp_path: Path) -> None:
    """BLEU --segments: each segment's own statistics, smoothed as asked (method3)."""
    hyps, refs = lines(SYS)[:300], lines(REF_A)[:300]
    expected = []
    for h, r in zip(hyps, refs, strict=True):
        s = sentence_statistics(h.split(), [r.split()], 4)
        scored = smooth_and_score(
            s.matches, s.totals, s.candidate_length, s.reference_length, "method3"
        )
        expected.append(scored.bleu)
    hyp_file = write(tmp_path, "hyp.txt", "\n".join(hyps).encode())
    ref_file = write(tmp_path, "ref.txt", "\n".join(refs).encode())
    args = ("-H", hyp_file, "-r", ref_file, "--metric", "bleu", "--smoothing", "method3")
    actual = score_json(*args, "--segments")["segment_scores"]
    assert expected == actual


def test_stdin_stands_for_the_hypotheses() -> None:
    """'-' reads the hypotheses from stdin; the result is the same as from the file."""
    from_file = score_json("-H", str(SYS), "-r", str(REF_A))
    from_stdin = score_json("-H", "-", "-r", str(REF_A), stdin=SYS.read_bytes())
    assert from_file == from_stdin


# -- input handling ------------------------------------------------------------------------


def test_final_newline_does_not_add_a_segment(tmp_path: Path) -> None:
    """'a\\nb\\n' and 'a\\nb' are both two segments; a '\\r' before '\\n' stays (whitespace)."""
    with_newline = write(tmp_path, "h1.txt", b"abc def\r\nxyz\n")
    without = write(tmp_path, "r1.txt", b"abc def\nxyz")
    actual = score_json("-H", with_newline, "-r", without)
    assert (2, "100.000000") == (actual["segment_count"], actual["score"])


def test_empty_line_is_a_segment(tmp_path: Path) -> None:
    """An empty line is an empty segment (a file holding just '\\n' is one segment)."""
    hyp = write(tmp_path, "h.txt", b"\n")
    ref = write(tmp_path, "r.txt", b"\n")
    actual = score_json("-H", hyp, "-r", ref)
    assert (1, "0.000000") == (actual["segment_count"], actual["score"])


def test_different_lengths_are_a_data_error(tmp_path: Path) -> None:
    """Files of different lengths: exit 1, naming both files and their line counts."""
    hyp = write(tmp_path, "hyp.txt", b"a\nb\nc\n")
    ref = write(tmp_path, "ref.txt", b"a\nb\n")
    proc = run_cli("score", "-H", hyp, "-r", ref)
    expected = (
        f"mtcompute score: error: the files have different numbers of lines: {hyp} has 3, "
        f"{ref} has 2; every file needs one line per segment\n"
    ).encode()
    assert (1, b"", expected) == (proc.returncode, proc.stdout, proc.stderr)


def test_bad_utf8_names_the_file_line_and_byte_offset(tmp_path: Path) -> None:
    """A byte that is not UTF-8: exit 1, with the file, line number and byte offsets."""
    hyp = write(tmp_path, "hyp.txt", b"ok\nfine\nba\xffd\n")
    ref = write(tmp_path, "ref.txt", b"ok\nfine\nbad\n")
    proc = run_cli("score", "-H", hyp, "-r", ref)
    expected = (
        f"mtcompute score: error: {hyp}: line 3 is not valid UTF-8: byte 0xff at byte "
        "offset 10 of the file (offset 2 in the line): invalid start byte\n"
    ).encode()
    assert (1, b"", expected) == (proc.returncode, proc.stdout, proc.stderr)


def test_bad_utf8_with_json_format_prints_the_error_envelope(tmp_path: Path) -> None:
    """With --format json a data error is an invalid_input envelope on stdout, exit 1."""
    hyp = write(tmp_path, "hyp.txt", b"ok\n")
    ref = write(tmp_path, "ref.txt", b"\xc3\n")
    proc = run_cli("score", "-H", hyp, "-r", ref, "--format", "json")
    error = json.loads(proc.stdout)["error"]
    assert (1, "invalid_input", True, b"") == (
        proc.returncode,
        error["code"],
        error["message"].startswith(f"{ref}: line 1 is not valid UTF-8"),
        proc.stderr,
    )


def test_empty_files_are_a_data_error(tmp_path: Path) -> None:
    """Empty files have no segment to score: exit 1 with a message saying so."""
    hyp = write(tmp_path, "hyp.txt", b"")
    ref = write(tmp_path, "ref.txt", b"")
    proc = run_cli("score", "-H", hyp, "-r", ref)
    expected = f"mtcompute score: error: no segments to score: {hyp} is empty\n".encode()
    assert (1, expected) == (proc.returncode, proc.stderr)


def test_chrf_with_two_reference_files_is_refused() -> None:
    """chrF with two reference files: exit 2 with the reason and what to do instead."""
    proc = run_cli("score", "-H", str(SYS), "-r", str(REF_A), str(REF_B))
    expected = (
        f"mtcompute score: error: chrF takes exactly one reference file, got 2 ({REF_A}, "
        f"{REF_B}): the chrf-compute contract scores each segment against one reference, and "
        "multi-reference chrF has no single agreed definition; score each reference file "
        "separately, or use --metric bleu, which takes several\n"
    ).encode()
    assert (2, b"", expected) == (proc.returncode, proc.stdout, proc.stderr)


def test_stdin_twice_is_a_usage_error() -> None:
    """'-' for two files is a usage error (exit 2)."""
    proc = run_cli("score", "-H", "-", "-r", "-", "--metric", "bleu", stdin=b"a\n")
    expected = b"mtcompute score: error: '-' (stdin) can stand for at most one file\n"
    assert (2, expected) == (proc.returncode, proc.stderr)


def test_missing_file_is_a_usage_error(tmp_path: Path) -> None:
    """A file that cannot be read is a usage error (exit 2) naming it."""
    missing = str(tmp_path / "nope.txt")
    proc = run_cli("score", "-H", missing, "-r", str(REF_A))
    expected = f"mtcompute score: error: cannot read {missing}: No such file or directory\n"
    assert (2, expected.encode()) == (proc.returncode, proc.stderr)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--metric", "bleu", "--beta", "3"), "--beta do(es) not apply to --metric bleu"),
        (
            (
                "--max-order",
                "3",
            ),
            "--max-order do(es) not apply to --metric chrf",
        ),
        (
            ("--metric", "bleu", "--epsilon", "0.2"),
            "--epsilon applies only to --smoothing method1, got --smoothing none",
        ),
    ],
)
def test_options_of_the_other_metric_are_refused(args: tuple[str, ...], message: str) -> None:
    """An option that does not apply to the chosen metric is a usage error (exit 2)."""
    proc = run_cli("score", "-H", str(SYS), "-r", str(REF_A), *args)
    assert (2, f"mtcompute score: error: {message}\n".encode()) == (
        proc.returncode,
        proc.stderr,
    )


@pytest.mark.parametrize("args", [("--beta", "0"), ("--beta", "17"), ("--max-order", "9")])
def test_option_values_out_of_range_are_usage_errors(args: tuple[str, ...]) -> None:
    """beta outside 1..16 or max order outside 1..8: argparse usage error, exit 2."""
    proc = run_cli("score", "-H", str(SYS), "-r", str(REF_A), *args)
    assert (2, b"") == (proc.returncode, proc.stdout)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--beta", "0"), "argument --beta: Expected an integer of at least 1 at --beta, got 0."),
        (("--beta", "x"), "argument --beta: expected a number, got 'x'"),
        (
            ("--max-order", "1.5"),
            "argument --max-order: Expected an integer at --max-order, got 1.5.",
        ),
        (
            ("--epsilon", "nan"),
            "argument --epsilon: Expected a finite number at --epsilon, got NaN.",
        ),
        (("--epsilon", "abc"), "argument --epsilon: expected a number, got 'abc'"),
        (
            ("--metric", "ter"),
            "argument --metric: invalid choice: 'ter' (choose from 'chrf', 'bleu')",
        ),
        (("--lowercase=1",), "argument --lowercase: ignored explicit argument '1'"),
    ],
)
def test_bad_option_values_are_argparse_usage_errors(args: tuple[str, ...], message: str) -> None:
    """A bad option value: the usage, then the option and what it expects, on stderr; exit 2."""
    proc = run_cli("score", "-H", str(SYS), "-r", str(REF_A), *args)
    usage, _, last = proc.stderr.decode().rstrip("\n").rpartition("\n")
    expected = (2, b"", True, f"mtcompute score: error: {message}")
    assert expected == (proc.returncode, proc.stdout, usage.startswith("usage: "), last)


def test_help_shows_examples_and_exit_statuses() -> None:
    """score --help documents examples, line handling and the exit statuses."""
    proc = run_cli("score", "--help")
    text = proc.stdout.decode()
    wanted = ("examples:", "mtcompute score --hypotheses", "exit status:", "whitespace")
    assert (0, [True] * 4) == (proc.returncode, [w in text for w in wanted])


# -- progress ------------------------------------------------------------------------------


def long_input(tmp_path: Path) -> tuple[str, str, int]:
    """en-de repeated past the progress bar's threshold of 10,000 segments: five times over on
    the full data (10,185 segments), 51 times the sample's 200 lines; and the segment count."""
    copies = max(5, 10_000 // len(lines(SYS)) + 1)
    hyp = write(tmp_path, "hyp.txt", SYS.read_bytes() * copies)
    ref = write(tmp_path, "ref.txt", REF_A.read_bytes() * copies)
    return hyp, ref, copies * len(lines(SYS))


def test_no_progress_bar_when_stderr_is_not_a_tty(tmp_path: Path) -> None:
    """Over 10,000 segments with stderr a pipe: stderr stays empty."""
    hyp, ref, _ = long_input(tmp_path)
    proc = run_cli("score", "-H", hyp, "-r", ref)
    assert (0, b"") == (proc.returncode, proc.stderr)


@pytest.mark.parametrize("metric", ["chrf", "bleu"])
def test_progress_bar_on_a_tty_leaves_the_result_unchanged(tmp_path: Path, metric: str) -> None:
    """On a terminal the bar is drawn on stderr and the printed score is the same."""
    hyp, ref, count = long_input(tmp_path)
    args = ["score", "-H", hyp, "-r", ref, "--metric", metric, "--format", "json"]
    plain = run_cli(*args)
    leader, follower = pty.openpty()
    try:
        proc = subprocess.run(
            [*conftest.cli_command(), *args],
            stderr=follower,
            capture_output=False,
            stdout=subprocess.PIPE,
            timeout=60,
            check=False,
        )
        os.close(follower)
        follower = -1
        drawn = b""
        while True:
            try:
                chunk = os.read(leader, 65536)
            except OSError:  # EIO: the terminal has no writer left
                break
            if not chunk:
                break
            drawn += chunk
    finally:
        os.close(leader)
        if follower != -1:
            os.close(follower)
    done = f"{count}/{count}".encode()  # 10185/10185 on the full data
    assert (0, plain.stdout, True) == (proc.returncode, proc.stdout, done in drawn)


# -- a fresh process -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "threads"),
    [
        (("-H", str(SYS_B), "-r", str(REF_A)), "1"),
        (("-H", str(SYS_B), "-r", str(REF_A)), "2"),
        (("-H", str(SYS_B), "-r", str(REF_A), "--segments", "--beta", "3", "--lowercase"), "1"),
        (("-H", str(SYS_B), "-r", str(REF_A), str(REF_B), "--metric", "bleu"), "1"),
        (("-H", str(SYS_B), "-r", str(REF_A), "--metric", "bleu", "--smoothing", "method1"), "2"),
        (("-H", str(SYS_B), "-r", str(REF_A), "--metric", "bleu", "--segments"), "1"),
    ],
    ids=["chrf", "chrf-2-threads", "chrf-segments", "bleu-2-refs", "bleu-method1", "bleu-segments"],
)
def test_score_scores_in_a_fresh_process(
    args: tuple[str, ...], threads: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Text output, on one thread or two: the command scores (exit 0, a score line). Two
    threads need over 256 segments a thread: shorter files (the in-repo sample's) are repeated
    to 512 lines first."""
    monkeypatch.setenv("MTCOMPUTE_THREADS", threads)
    if threads == "2":
        args = tuple(_repeated(arg, 512, tmp_path) for arg in args)
    proc = run_cli("score", *args)
    assert (0, True) == (proc.returncode, proc.stdout.startswith((b"chrF", b"BLEU")))


def _repeated(arg: str, lines: int, folder: Path) -> str:
    """``arg``, or for a data file shorter than ``lines`` a copy in ``folder`` repeated to at
    least that many lines."""
    path = Path(arg)
    if not path.is_file():
        return arg
    segments = path.read_bytes().splitlines(keepends=True)
    if len(segments) >= lines:
        return arg
    copy = folder / path.name
    copy.write_bytes(b"".join(at_least(segments, lines)))
    return str(copy)
