"""``mtcompute sacrebleu -l en-ja`` with MeCab in a second process: standard output
byte-identical to one process's and to sacreBLEU 2.6.0's, for BLEU, chrF and TER and for the
paired bootstrap, on the en-ja systems of the WMT data in use; the child was started, its
results used, and it was reaped. Needs the extra ``ja`` (.ci/run installs it)."""

from __future__ import annotations

import os
import select

import pytest

from mtcompute import counting, tokenizers
from mtcompute.cli import main
from mtcompute.errors import UnsupportedInput
from tests.cli.test_cli_sacrebleu import diff, sacrebleu_outcome
from tests.conftest import WMT

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
    status = main(["sacrebleu", *args])
    assert status == 0
    return capsys.readouterr().out.encode()


@pytest.mark.parametrize("case", CASES)
def test_two_processes_print_sacrebleus_bytes(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], case: str
) -> None:
    """The same bytes as one process and as sacreBLEU; the child gave most of the tokens."""
    try:
        tokenizers.get_tokenizer("ja-mecab")
    except UnsupportedInput as error:
        pytest.skip(f"{error.message} (.ci/run installs the extra ja)")
    args = ("ref.A.txt", "-i", *SYSTEMS, "-l", "en-ja", *CASES[case])
    monkeypatch.setattr(tokenizers, "_may_fork", lambda: False)
    threads: list[int] = []  # the thread count of each split of the counting
    count = counting.thread_count

    def counted(asked: int | None = None) -> int:
        threads.append(count(asked))
        return threads[-1]

    monkeypatch.setattr(counting, "thread_count", counted)
    one = ours(monkeypatch, capsys, args)
    assert threads
    assert set(threads) == {count()}  # one process: the CPUs (or MTCOMPUTE_THREADS)
    threads.clear()

    started: list[tokenizers._Helper | None] = []
    start = tokenizers._start

    def spy(name: str, lines: list[str]) -> tokenizers._Helper | None:
        started.append(start(name, lines))
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
    assert set(threads) == {1}  # the child has the other CPU
    assert len(helper.lines) - 1 - helper.next > 0  # the child's tokens were used
    with pytest.raises(ChildProcessError):
        os.waitpid(helper.pid, os.WNOHANG)  # reaped
    assert helper.fd == -1

    status, expected = sacrebleu_outcome(diff.Case(args), PAIR)
    assert status == 0
    assert two == one == expected
