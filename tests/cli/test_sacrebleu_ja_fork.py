"""``mtcompute sacrebleu``, ``compare`` and ``score`` with ``-l en-ja`` and MeCab in a second
process: standard output byte-identical to one process's (and to sacreBLEU 2.6.0's), for BLEU,
chrF and TER and for the paired bootstrap, on the en-ja systems of the WMT data in use; the
child was started, its results used, and it was reaped, and the command counted on a thread
fewer meanwhile. ``score`` parses each line once, however many systems. ``sacrebleu`` and
``score`` score BLEU's systems as their lines are parsed, the error reported staying the one
the files' order meets first. Needs the extra ``ja`` (.ci/run installs it)."""

from __future__ import annotations

import contextlib
import functools
import os
import select
from collections.abc import Sequence

import pytest

from mtcompute import counting, tokenizers
from mtcompute.cli import _score_chunks as score_chunks
from mtcompute.cli import main
from mtcompute.errors import InvalidInput, UnsupportedInput
from mtcompute.metrics.bleu import counts as bleu_counts
from mtcompute.metrics.chrf import sacrebleu_statistics
from mtcompute.metrics.ter import statistics as ter_statistics
from mtcompute.sacrebleu import BLEU
from tests.cli.test_cli_sacrebleu import diff, sacrebleu_outcome
from tests.conftest import WMT
from tests.oracle import sacrebleu_lines

PAIR = WMT / "generaltest2022" / "en-ja"
SYSTEMS = sorted(path.name for path in PAIR.glob("sys.*.txt"))
CASES = {
    "bleu-chrf-ter": ("-m", "bleu", "chrf", "ter"),
    "paired-bs": ("-m", "bleu", "chrf", "--paired-bs", "-f", "text"),
}


def ours(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], args: tuple[str, ...]
) -> bytes:
    """The command's standard output, run in this process."""
    monkeypatch.chdir(PAIR)
    status = main(list(args))
    assert status == 0
    return capsys.readouterr().out.encode()


def one_then_two(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    args: tuple[str, ...],
    threads_checked: bool = True,
) -> tuple[bytes, bytes]:
    """The command's standard output in one process, then with the second process forced
    (whatever the machine's CPUs and load); checks that the child's tokens were used and
    that it was reaped; with ``threads_checked``, that the counting ran on a thread fewer
    while the child could run (on the CPUs' count, or MTCOMPUTE_THREADS, in one process; `score`
    counts a chunk on one thread either way)."""
    try:
        tokenizers.get_tokenizer("ja-mecab")
    except UnsupportedInput as error:
        pytest.skip(f"{error.message} (.ci/run installs the extra ja)")
    monkeypatch.setattr(tokenizers, "_may_fork", lambda: False)
    for module in (bleu_counts, sacrebleu_statistics, ter_statistics):  # the sample is short:
        monkeypatch.setattr(module, "MIN_SEGMENTS_PER_THREAD", 16)  # its counting splits too
    threads: list[int] = []  # the thread count of each split of the counting
    count = counting.thread_count

    def counted(asked: int | None = None) -> int:
        threads.append(count(asked))
        return threads[-1]

    monkeypatch.setattr(counting, "thread_count", counted)
    one = ours(monkeypatch, capsys, args)
    assert threads
    if threads_checked:
        assert set(threads) == {count()}
    threads.clear()

    started: list[tokenizers._Helper | None] = []
    start = tokenizers._start

    def spy(
        name: str, lines: list[str], groups: Sequence[Sequence[str]] = ()
    ) -> tokenizers._Helper | None:
        started.append(start(name, lines, groups))
        if started[-1] is not None:  # the child has written, however busy the machine
            select.select([started[-1].fd], [], [], 30)
        return started[-1]

    monkeypatch.setattr(tokenizers, "_start", spy)
    monkeypatch.setattr(tokenizers, "_may_fork", lambda: True)
    monkeypatch.setattr(tokenizers.threading, "active_count", lambda: 1)  # pytest-xdist's
    monkeypatch.setattr(tokenizers, "_cpu_free", lambda: True)  # however busy the machine
    monkeypatch.setattr(tokenizers, "PARSE_AHEAD_LINES", 100)  # the in-repo sample is short
    two = ours(monkeypatch, capsys, args)
    (helper,) = started
    assert helper is not None
    if threads_checked:  # the child has one of the CPUs, the counting the others
        assert set(threads) == {max(1, count() - 1)}
    assert len(helper.lines) - 1 - helper.next > 0  # the child's tokens were used
    with pytest.raises(ChildProcessError):
        os.waitpid(helper.pid, os.WNOHANG)  # reaped
    assert helper.fd == -1
    return one, two


@pytest.mark.parametrize("case", CASES)
def test_two_processes_print_sacrebleus_bytes(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], case: str
) -> None:
    """The same bytes as one process and as sacreBLEU; the child gave most of the tokens."""
    args = ("sacrebleu", "ref.A.txt", "-i", *SYSTEMS, "-l", "en-ja", *CASES[case])
    one, two = one_then_two(monkeypatch, capsys, args)
    status, expected = sacrebleu_outcome(diff.Case(args[1:]), PAIR)
    assert status == 0
    assert two == one == expected


@pytest.mark.parametrize("lowercase", [False, True], ids=["cased", "lowercase"])
def test_compare_in_two_processes_prints_one_process_bytes(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], lowercase: bool
) -> None:
    """`compare -l en-ja` (BLEU with ja-mecab, chrF), JSON: the same bytes either way; the
    child gave most of the tokens (the lines in the order BLEU tokenizes them)."""
    baseline, *others = SYSTEMS
    args = ("compare", "-b", baseline, "-H", *others, "-r", "ref.A.txt", "-m", "bleu", "chrf")
    args += ("-l", "en-ja", "--format", "json", *(["--lowercase"] if lowercase else []))
    one, two = one_then_two(monkeypatch, capsys, args)
    case = "lc" if lowercase else "mixed"
    assert f"|case:{case}|eff:no|tok:ja-mecab-".encode() in one  # BLEU's signature
    assert two == one


def test_score_in_two_processes_prints_one_process_bytes(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`score -l en-ja` of two systems (files of one chunk), JSON: the same bytes either
    way; the child gave most of the tokens."""
    args = ("score", "-H", *SYSTEMS[:2], "-r", "ref.A.txt", "-m", "bleu", "chrf", "-l", "en-ja")
    one, two = one_then_two(monkeypatch, capsys, (*args, "--format", "json"), False)
    assert b"tok:ja-mecab-" in one
    assert two == one


def test_score_parses_each_line_once(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`score -l en-ja` of several systems builds a tokenizer for each system's call, all
    sharing one memo: MeCab parses each distinct line once (the references were parsed
    again for each system), and the output is the same as with a memo each."""
    try:
        tokenizers.get_tokenizer("ja-mecab")
    except UnsupportedInput as error:
        pytest.skip(f"{error.message} (.ci/run installs the extra ja)")
    monkeypatch.setattr(tokenizers, "_may_fork", lambda: False)
    parsed: list[str] = []
    parse = tokenizers._parse

    def counted(tagger: object, line: str) -> str:
        parsed.append(line)
        return parse(tagger, line)

    monkeypatch.setattr(tokenizers, "_parse", counted)
    args = ("score", "-H", *SYSTEMS[:3], "-r", "ref.A.txt", "-l", "en-ja", "-m", "bleu")
    args += ("--format", "json")
    shared = ours(monkeypatch, capsys, args)
    distinct = {
        line.rstrip()
        for name in ("ref.A.txt", *SYSTEMS[:3])
        for line in sacrebleu_lines(PAIR / name)
    }
    assert sorted(parsed) == sorted(distinct)
    parsed.clear()
    monkeypatch.setattr(tokenizers, "shared_memo", lambda _name: contextlib.nullcontext())
    assert ours(monkeypatch, capsys, args) == shared
    assert len(parsed) > len(distinct)  # without the shared memo: the references again


def test_beside_the_child_the_counting_keeps_the_other_cpus(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """While the child may parse, the counting gives up the one CPU the child takes, not
    all but one: with eight CPUs, eight threads in one process, seven beside the child (one
    of two on this machine), and eight again once the command has ended."""
    monkeypatch.delenv("MTCOMPUTE_THREADS", raising=False)
    monkeypatch.setattr(os, "cpu_count", lambda: 8)
    args = ("sacrebleu", "ref.A.txt", "-i", *SYSTEMS[:2], "-l", "en-ja", "-m", "chrf", "bleu")
    one_then_two(monkeypatch, capsys, args)
    assert counting.thread_count() == 8


def _child_parses_the_last_systems_own_lines(monkeypatch: pytest.MonkeyPatch) -> None:
    """The child parses only the last system's own lines, and has finished before the
    command goes on: that system is the first whose lines are all parsed."""
    texts = {name: sacrebleu_lines(PAIR / name) for name in ("ref.A.txt", *SYSTEMS)}
    others = set(texts["ref.A.txt"]).union(*(texts[name] for name in SYSTEMS[:-1]))
    own = len({line.rstrip() for line in texts[SYSTEMS[-1]]} - {o.rstrip() for o in others})
    run = tokenizers._run_child
    monkeypatch.setattr(
        tokenizers, "_run_child", lambda parse, lines, fd, _parsed_to: run(parse, lines[-own:], fd)
    )
    start = tokenizers._start

    def finished(
        name: str, lines: list[str], groups: Sequence[Sequence[str]] = ()
    ) -> tokenizers._Helper | None:
        helper = start(name, lines, groups)
        assert helper is not None
        os.waitid(os.P_PID, helper.pid, os.WEXITED | os.WNOWAIT)  # done, not reaped
        return helper

    monkeypatch.setattr(tokenizers, "_start", finished)


@functools.cache
def _first_lines() -> dict[tuple[str, ...], int]:
    return {tuple(sacrebleu_lines(PAIR / name)[:3]): i for i, name in enumerate(SYSTEMS)}


def system_of(hypotheses: Sequence[str]) -> int:
    """The index in SYSTEMS of the system whose lines ``hypotheses`` are (by its first three)."""
    return _first_lines()[tuple(hypotheses[:3])]


def test_bleu_scores_the_system_the_child_parsed_first(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The child parses the last system's own lines and exits: BLEU scores that system
    first, as soon as this process has parsed the references and the lines of several
    systems, then the others in their order; the bytes are one process's and sacreBLEU's."""
    args = ("sacrebleu", "ref.A.txt", "-i", *SYSTEMS, "-l", "en-ja", "-m", "bleu", "chrf")
    one, _ = one_then_two(monkeypatch, capsys, args)
    _child_parses_the_last_systems_own_lines(monkeypatch)
    scored: list[int] = []
    corpus_score = BLEU.corpus_score

    def spied(self: BLEU, hypotheses: Sequence[str], references: object) -> object:
        scored.append(system_of(hypotheses))
        return corpus_score(self, hypotheses, references)

    monkeypatch.setattr(BLEU, "corpus_score", spied)
    two = ours(monkeypatch, capsys, args)
    last = len(SYSTEMS) - 1
    assert scored == [last, *range(last)]
    assert two == one


SCORE = ("score", "-H", *SYSTEMS, "-r", "ref.A.txt", "-l", "en-ja", "-m", "bleu", "chrf")


def test_score_scores_the_system_the_child_parsed_first(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`score -l en-ja` of files of one chunk: chrF of every system first, then BLEU of the
    system the child parsed first, then the others in their order; the bytes are one
    process's."""
    one, _ = one_then_two(monkeypatch, capsys, (*SCORE, "--format", "json"), False)
    _child_parses_the_last_systems_own_lines(monkeypatch)
    scored: list[tuple[str, int]] = []
    score_chunk = score_chunks._score_chunk

    def spied(args: object, metric: str, hypotheses: list[str], references: object) -> object:
        scored.append((metric, system_of(hypotheses)))
        return score_chunk(args, metric, hypotheses, references)

    monkeypatch.setattr(score_chunks, "_score_chunk", spied)
    two = ours(monkeypatch, capsys, (*SCORE, "--format", "json"))
    last = len(SYSTEMS) - 1
    assert [s for metric, s in scored if metric == "bleu"] == [last, *range(last)]
    assert two == one


def test_score_reports_the_error_the_files_order_meets_first(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Where BLEU fails for two systems, `score` reports the first system's error, as in
    one process, although the child had the last system's lines parsed first."""
    one_then_two(monkeypatch, capsys, (*SCORE, "--format", "json"), False)
    _child_parses_the_last_systems_own_lines(monkeypatch)
    score_chunk = score_chunks._score_chunk
    failing = {0: "the first system's fault", len(SYSTEMS) - 1: "the last system's fault"}

    def failed(args: object, metric: str, hypotheses: list[str], references: object) -> object:
        system = system_of(hypotheses)
        if metric == "bleu" and system in failing:
            raise InvalidInput(failing[system], "/hypotheses")
        return score_chunk(args, metric, hypotheses, references)

    monkeypatch.setattr(score_chunks, "_score_chunk", failed)
    monkeypatch.chdir(PAIR)
    status = main([*SCORE, "--format", "json"])
    said = "".join(capsys.readouterr())  # the JSON error on standard output
    assert (status != 0, "the first system's fault" in said, "last system" in said) == (
        True,
        True,
        False,
    )
