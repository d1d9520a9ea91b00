"""MeCab in a second process (:func:`mtcompute.tokenizers.parsing_ahead`): the same tokens as
one process on generated Japanese and mixed lines; exact results when the child is killed,
exits nonzero, cuts its last result short or writes garbage; no zombie and no leaked fd; and
when the command's process parses in one process only. Needs the extra ``ja`` (.ci/run
installs it; without it these tests skip, saying so)."""

from __future__ import annotations

import gc
import os
import random
import select
import signal
import threading
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import pytest

from mtcompute import tokenizers
from mtcompute.errors import InvalidInput, UnsupportedInput
from mtcompute.tokenizers import get_tokenizer, parsing_ahead

NAME = "ja-mecab"


@pytest.fixture(scope="module", autouse=True)
def _needs_mecab() -> None:
    try:
        get_tokenizer(NAME)
    except UnsupportedInput as error:
        pytest.skip(f"{error.message} (.ci/run installs the extra ja)")


@pytest.fixture(autouse=True)
def may_fork(monkeypatch: pytest.MonkeyPatch) -> None:
    """The fork path whatever the machine: two CPUs or not, and under pytest-xdist, whose
    worker has a thread of its own (the child only parses, writes and exits)."""
    monkeypatch.setattr(tokenizers, "_may_fork", lambda: True)
    monkeypatch.setattr(tokenizers.threading, "active_count", lambda: 1)
    monkeypatch.setattr(tokenizers, "_cpu_free", lambda: True)  # however busy the machine


def generated(count: int, seed: int = 7) -> list[str]:
    """Japanese and mixed lines: kana, kanji, Latin words, digits, punctuation, spaces, some
    repeated (as systems repeat references), some with surrounding spaces."""
    rng = random.Random(seed)
    pieces = [
        "これは",
        "ペンです",
        "東京都",
        "に住んでいます",
        "。",
        "、",
        "「修復」",
        "をタップします",
        "Hello",
        "world",
        "123",
        "３．５％",
        "Ｗｉ－Ｆｉ",
        " ",
        "\u3000",
        "😀",
        "é",
        "한국어",
        "(注)",
        "ｶﾀｶﾅ",
    ]
    lines = ["".join(rng.choices(pieces, k=rng.randint(1, 14))) for _ in range(count)]
    lines += rng.choices(lines, k=count // 10)
    return [f" {line} " if i % 17 == 0 else line for i, line in enumerate(lines)]


LINES = generated(3000)


@pytest.fixture(scope="module")
def expected() -> list[str]:
    """One process's tokens of every line."""
    one = get_tokenizer(NAME)
    return [one(line) for line in LINES]


def fds() -> int:
    return len(os.listdir("/proc/self/fd"))


def spied(monkeypatch: pytest.MonkeyPatch, wait: bool = True) -> list[tokenizers._Helper | None]:
    """The helpers parsing_ahead starts, as it starts them; with ``wait``, once the child has
    written (or ended), so that it has delivered something however busy the machine."""
    started: list[tokenizers._Helper | None] = []
    start = tokenizers._start

    def spy(
        name: str, lines: Sequence[str], groups: Sequence[Sequence[str]] = ()
    ) -> tokenizers._Helper | None:
        started.append(start(name, lines, groups))
        if wait and started[-1] is not None:
            select.select([started[-1].fd], [], [], 30)
        return started[-1]

    monkeypatch.setattr(tokenizers, "_start", spy)
    return started


def reaped(helper: tokenizers._Helper) -> bool:
    """The child has been waited for (no zombie) and its pipe closed."""
    try:
        os.waitpid(helper.pid, os.WNOHANG)
    except ChildProcessError:
        return helper.fd == -1
    return False


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="needs /proc (Linux)")
def test_two_processes_give_one_process_tokens(
    monkeypatch: pytest.MonkeyPatch, expected: list[str]
) -> None:
    """Every line's tokens are the same; most came from the child (it parses from the last
    line while this process parses from the first); it is reaped and its pipe closed."""
    started = spied(monkeypatch)
    before = fds()
    with parsing_ahead(NAME, LINES):
        tokenize = get_tokenizer(NAME)
        got = [tokenize(line) for line in LINES]
        helper = started[0]
        assert helper is not None
    assert got == expected
    distinct = len(set(LINES))
    assert len(helper.lines) == distinct
    assert distinct - 1 - helper.next > 0  # the child's results were used
    assert reaped(helper)
    assert fds() == before
    assert tokenizers._HELPERS == {}


def korean(count: int, seed: int = 11) -> list[str]:
    """Korean lines (Hangul words and particles, Hanja, digits, Latin, punctuation), some
    repeated."""
    rng = random.Random(seed)
    pieces = [
        "안녕하세요",
        " ",
        "세계",
        "는",
        "에서",
        "한국어",
        "를",
        "공부합니다",
        ".",
        ",",
        "서울특별시",
        "2024년",
        "AI",
        "모델",
        "韓國",
        "(주)",
        "!",
        "\u3000",
        "했다",
    ]
    lines = ["".join(rng.choices(pieces, k=rng.randint(1, 12))) for _ in range(count)]
    return lines + rng.choices(lines, k=count // 10)


def test_ko_mecab_in_two_processes_gives_one_process_tokens(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """ko-mecab (mecab-ko and its dictionary) takes the same second process: the same
    tokens as one process, most from the child, which is reaped."""
    try:
        one = get_tokenizer("ko-mecab")
    except UnsupportedInput as error:
        pytest.skip(f"{error.message} (.ci/run installs the extra ko)")
    lines = korean(3000)
    expected = [one(line) for line in lines]
    started = spied(monkeypatch)
    with parsing_ahead("ko-mecab", lines) as parsing:
        assert parsing is True
        tokenize = get_tokenizer("ko-mecab")
        got = [tokenize(line) for line in lines]
        helper = started[0]
        assert helper is not None
    assert got == expected
    assert len(helper.lines) - 1 - helper.next > 0  # the child's results were used
    assert reaped(helper)


def test_the_block_says_whether_a_child_parses_and_thaws_what_it_froze(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The block is given True with a child, False without. The objects of before the fork
    are frozen while the child may run (no collection copies their shared pages), and thawed
    at the end; objects someone else froze stay frozen (the block does not thaw them; the
    count alone cannot tell: another thread of the test's process may free frozen objects
    meanwhile, which leaves the count lower)."""
    thawed: list[int] = []
    unfreeze = gc.unfreeze

    def counted() -> None:
        thawed.append(gc.get_freeze_count())
        unfreeze()

    monkeypatch.setattr(gc, "unfreeze", counted)
    assert gc.get_freeze_count() == 0
    with parsing_ahead(NAME, LINES) as parsing:
        assert parsing is True
        assert gc.get_freeze_count() > 0
    assert gc.get_freeze_count() == 0
    with parsing_ahead("zh", LINES) as parsing:
        assert parsing is False
        assert gc.get_freeze_count() == 0
    monkeypatch.setattr(tokenizers, "_cpu_free", lambda: False)
    with parsing_ahead(NAME, LINES) as parsing:
        assert parsing is False
    monkeypatch.setattr(tokenizers, "_cpu_free", lambda: True)
    assert 1 == len(thawed)  # the first block's
    gc.freeze()
    try:
        with parsing_ahead(NAME, LINES) as parsing:
            assert parsing is True
        assert (1, True) == (len(thawed), gc.get_freeze_count() > 0)
    finally:
        unfreeze()


def _child_then(
    monkeypatch: pytest.MonkeyPatch, tail: Callable[[int], int], share: float = 0.5
) -> None:
    """The child delivers the last ``share`` of its lines, then ``tail(fd)`` (its status)."""
    run = tokenizers._run_child

    def child(
        parse: Callable[[str], str], lines: Sequence[str], fd: int, _to: Callable[[], int]
    ) -> int:
        run(parse, lines[int(len(lines) * (1 - share)) :], fd)
        return tail(fd)

    monkeypatch.setattr(tokenizers, "_run_child", child)


def _cut_short(fd: int) -> int:
    os.write(fd, "修復".encode()[:4])  # a result cut inside a character, no newline
    return 3


def _garbage(fd: int) -> int:
    os.write(fd, b"\xff\xfe\n")
    return 0


def _stops(fd: int) -> int:
    return 0 if fd >= 0 else 1


def _raises(fd: int) -> int:
    raise RuntimeError("the child fails")


@pytest.mark.parametrize(
    "tail",
    [_cut_short, _garbage, _raises, _stops],
    ids=["cut-short-exit-3", "not-utf8", "raises", "stops-early"],
)
def test_a_failing_child_leaves_the_tokens_exact(
    monkeypatch: pytest.MonkeyPatch, expected: list[str], tail: Callable[[int], int]
) -> None:
    """A child that delivers part of its work then exits nonzero, writes a result cut short,
    writes what is not UTF-8, raises, or stops early: what it did not deliver whole is
    parsed in this process, and the tokens are exact."""
    _child_then(monkeypatch, tail)
    started = spied(monkeypatch)
    before = fds()
    with parsing_ahead(NAME, LINES):
        tokenize = get_tokenizer(NAME)
        got = [tokenize(line) for line in LINES]
    assert got == expected
    helper = started[0]
    assert helper is not None
    assert reaped(helper)
    assert fds() == before


@pytest.mark.parametrize("written", [False, True], ids=["before-writing", "after-writing"])
def test_a_killed_child_leaves_the_tokens_exact(
    monkeypatch: pytest.MonkeyPatch, expected: list[str], written: bool
) -> None:
    """The child killed (SIGKILL) at once, or once it has written some results: exact
    tokens, reaped, no fd left."""
    started = spied(monkeypatch, wait=written)
    before = fds()
    with parsing_ahead(NAME, LINES):
        helper = started[0]
        assert helper is not None
        os.kill(helper.pid, signal.SIGKILL)  # not reaped before the first take: never gone
        tokenize = get_tokenizer(NAME)
        got = [tokenize(line) for line in LINES]
    assert got == expected
    assert reaped(helper)
    assert fds() == before


def test_a_lone_surrogate_is_reported_as_in_one_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """The child stops at a line MeCab cannot read; this process reports it (InvalidInput)
    when it gets there, and the other lines are exact."""
    lines = [*LINES[:1500], "bad \ud800 line", *LINES[1500:]]
    one = get_tokenizer(NAME)
    with parsing_ahead(NAME, lines):
        tokenize = get_tokenizer(NAME)
        for line in lines:
            if line == "bad \ud800 line":
                with pytest.raises(InvalidInput, match="U\\+D800 at character 4"):
                    tokenize(line)
            else:
                assert tokenize(line) == one(line)


def test_the_block_ends_the_child_on_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    """An exception inside the block still ends and reaps the child."""
    started = spied(monkeypatch)
    before = fds()
    with pytest.raises(KeyError), parsing_ahead(NAME, LINES):
        raise KeyError("the command fails")
    helper = started[0]
    assert helper is not None
    assert reaped(helper)
    assert fds() == before
    assert tokenizers._HELPERS == {}


@pytest.fixture
def real_decision(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The real _may_fork, decided afresh for the test."""
    monkeypatch.undo()
    tokenizers._may_fork.cache_clear()
    yield
    tokenizers._may_fork.cache_clear()


def test_one_process_where_a_second_would_not_pay_or_is_unsafe(
    monkeypatch: pytest.MonkeyPatch, real_decision: None, tmp_path: Path
) -> None:
    """No child: MTCOMPUTE_THREADS=1, one CPU, another thread running, every CPU busy, too
    few lines, or a tokenizer that is not MeCab's."""
    monkeypatch.setenv("MTCOMPUTE_THREADS", "1")
    assert tokenizers._may_fork() is False
    tokenizers._may_fork.cache_clear()
    monkeypatch.delenv("MTCOMPUTE_THREADS")
    monkeypatch.setattr(os, "sched_getaffinity", lambda _pid: {0}, raising=False)
    assert tokenizers._may_fork() is False
    tokenizers._may_fork.cache_clear()
    monkeypatch.setattr(os, "sched_getaffinity", lambda _pid: {0, 1}, raising=False)
    assert tokenizers._may_fork() is True
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        assert tokenizers._start(NAME, LINES) is None
    finally:
        stop.set()
        other.join()
    monkeypatch.setattr(tokenizers.threading, "active_count", lambda: 1)
    loadavg = tmp_path / "loadavg"
    monkeypatch.setattr(tokenizers, "_LOADAVG", str(loadavg))
    loadavg.write_text("0.50 0.40 0.30 3/120 4567\n")  # this process and two others
    assert tokenizers._cpu_free() is False
    assert tokenizers._start(NAME, LINES) is None
    loadavg.write_text("1.50 1.40 1.30 2/120 4567\n")  # this process and one other
    assert tokenizers._cpu_free() is True
    loadavg.unlink()
    assert tokenizers._cpu_free() is True  # not Linux: assumed
    assert tokenizers._start(NAME, LINES[: tokenizers.PARSE_AHEAD_LINES - 1]) is None
    assert tokenizers._start("13a", LINES) is None
    with parsing_ahead("zh", LINES):
        assert tokenizers._HELPERS == {}


def test_a_stopped_child_neither_hangs_nor_lingers(
    monkeypatch: pytest.MonkeyPatch, expected: list[str]
) -> None:
    """A child stopped (SIGSTOP) before it writes: this process never waits for it, parses
    every line itself, and the end of the block kills and reaps the stopped child."""
    started = spied(monkeypatch, wait=False)
    before = fds()
    with parsing_ahead(NAME, LINES):
        helper = started[0]
        assert helper is not None
        os.kill(helper.pid, signal.SIGSTOP)
        tokenize = get_tokenizer(NAME)
        got = [tokenize(line) for line in LINES]
    assert got == expected
    assert reaped(helper)
    assert fds() == before


ODD = ["a\rb", "東京\r大阪", "x\x00y", "", " ", "\t", "\u3000", "\x0b東京\x0c", "\u2028東京\u2029"]
ODD += ["\x85", "\ufeff東京", "EOS", "東京\tEOS", "ｶﾀｶﾅ" * 2000]


def test_odd_lines_from_the_child_are_one_process_tokens(monkeypatch: pytest.MonkeyPatch) -> None:
    """Carriage returns, NUL, empty and blank lines, other line separators, MeCab's "EOS",
    a long line: last in the list, so the child parses them first; the tokens it gives are
    one process's."""
    lines = [*LINES, *ODD]
    one = get_tokenizer(NAME)
    want = [one(line) for line in lines]
    started = spied(monkeypatch)
    with parsing_ahead(NAME, lines):
        helper = started[0]
        assert helper is not None
        tokenize = get_tokenizer(NAME)
        got = [tokenize(line) for line in lines]
        late = set(ODD) - set(LINES)  # (" " and "\u3000" are among the first lines)
        assert late <= set(helper.results)  # the child's tokens were the ones compared
    assert got == want


def test_the_parse_order_puts_the_lines_of_several_groups_first() -> None:
    """The lines every group needs, then those of two groups or more, then each group's
    others: the child (from the last) parses the groups' own lines, the last group's first."""
    groups = [["a", "r1", "s", "a"], ["b", "s", "c"], ["d", "s", "b"]]
    order, shared = tokenizers._parse_order(["r1", "r2", "r1"], groups)
    assert order == ["r1", "r2", "s", "b", "a", "c", "d"]
    assert shared == 2
    assert tokenizers._parse_order(["x", "y", "x"], []) == (["x", "y"], 2)


REFS, GROUPS = LINES[:500], [LINES[500 + 500 * i : 1000 + 500 * i] for i in range(5)]


def test_groups_come_once_their_lines_are_parsed(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each group comes once, when neither its lines nor the references are left for this
    process to parse (whichever process parsed them); the tokens are one process's."""
    one = get_tokenizer(NAME)
    spied(monkeypatch)
    parse = tokenizers._parse

    def unparsed(_tagger: object, line: str) -> str:
        raise AssertionError(f"parsed when its group came: {line!r}")

    seen = []
    with parsing_ahead(NAME, REFS, GROUPS):
        tokenize = get_tokenizer(NAME)
        for i in tokenizers.parsed_order(NAME, GROUPS):
            seen.append(i)
            monkeypatch.setattr(tokenizers, "_parse", unparsed)
            got = [tokenize(line) for line in (*REFS, *GROUPS[i])]
            monkeypatch.setattr(tokenizers, "_parse", parse)
            assert got == [one(line) for line in (*REFS, *GROUPS[i])]
    assert sorted(seen) == list(range(5))
    assert list(tokenizers.parsed_order(NAME, GROUPS)) == list(range(5))  # outside the block


def test_the_group_the_child_has_parsed_comes_first(monkeypatch: pytest.MonkeyPatch) -> None:
    """The child parses the last group's own lines and exits: that group comes first, as
    soon as this process has parsed the references and the lines of several groups; the
    others follow in their order, and this process parsed no line the child gave."""
    order, _ = tokenizers._parse_order(REFS, GROUPS)
    own = len(set(GROUPS[4]) - set(REFS).union(*GROUPS[:4]))
    run = tokenizers._run_child
    monkeypatch.setattr(
        tokenizers, "_run_child", lambda parse, lines, fd, _parsed_to: run(parse, lines[-own:], fd)
    )
    started = spied(monkeypatch, wait=False)
    parse = tokenizers._parse
    parsed: list[str] = []

    def counted(tagger: object, line: str) -> str:
        parsed.append(line)
        return parse(tagger, line)

    with parsing_ahead(NAME, REFS, GROUPS):
        helper = started[0]
        assert helper is not None
        os.waitid(os.P_PID, helper.pid, os.WEXITED | os.WNOWAIT)  # done, not reaped
        monkeypatch.setattr(tokenizers, "_parse", counted)
        assert list(tokenizers.parsed_order(NAME, GROUPS)) == [4, 0, 1, 2, 3]
    assert parsed == order[:-own]
    assert reaped(helper)


def test_the_child_ended_at_the_meet_is_reaped_when_the_block_ends(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Once the two have met, the child is ended and its pipe closed at once, but reaped only
    when the block ends (its exit runs meanwhile)."""
    started = spied(monkeypatch)
    with parsing_ahead(NAME, REFS, GROUPS):
        helper = started[0]
        assert helper is not None
        assert list(tokenizers.parsed_order(NAME, GROUPS)) != []  # parsed to the meet
        assert helper.fd == -1
        assert not reaped(helper)  # a zombie: ended, not yet waited for
    assert reaped(helper)


def test_the_child_stops_at_the_line_this_process_has_come_to() -> None:
    """The child parses from the last line down to the one after ``parsed_to()``, which it
    asks before each line (this process moves on meanwhile)."""
    lines = [f"行{i}" for i in range(10)]
    came_to = [5]
    parsed: list[str] = []

    def parse(line: str) -> str:
        parsed.append(line)
        came_to[0] += 1  # this process parses a line while the child parses one
        return line

    read, write = os.pipe()
    try:
        assert tokenizers._run_child(parse, lines, write, lambda: came_to[0]) == 0
        os.close(write)
        assert parsed == ["行9", "行8"]  # 9 > 5, 8 > 6; then 7 <= 7: met
        assert os.read(read, 1000) == "行9\n行8\n".encode()
    finally:
        os.close(read)


def test_the_child_sees_where_this_process_has_come(monkeypatch: pytest.MonkeyPatch) -> None:
    """The index this process sets after the fork is the child's (shared memory): set to the
    last line before the child starts parsing, the child ends without parsing a line."""
    gate, opened = os.pipe()
    parent, tagger = os.getpid(), tokenizers._tagger

    def gated(spec: tokenizers._Mecab, path: str) -> object:
        if os.getpid() != parent:  # the child waits for the gate before it parses
            os.read(gate, 1)
        return tagger(spec, path)

    monkeypatch.setattr(tokenizers, "_tagger", gated)
    started = spied(monkeypatch, wait=False)
    try:
        with parsing_ahead(NAME, LINES):
            helper = started[0]
            assert helper is not None
            helper.shared_front.set(len(helper.lines) - 1)
            os.write(opened, b"x")
            done = os.waitid(os.P_PID, helper.pid, os.WEXITED | os.WNOWAIT)  # not reaped
            assert done is not None
            assert done.si_status == 0
            os.set_blocking(helper.fd, True)
            assert os.read(helper.fd, 1000) == b""  # nothing written
    finally:
        os.close(gate)
        os.close(opened)
    assert reaped(helper)


def test_many_lines_at_once_are_each_lines_tokens(
    monkeypatch: pytest.MonkeyPatch, expected: list[str]
) -> None:
    """``many`` (the memo's and the child's lines looked up in one pass, the others parsed
    one by one) gives each line's tokens, with or without a child, twice over (memoized);
    a lone surrogate is reported as one line at a time reports it."""
    spied(monkeypatch)
    with parsing_ahead(NAME, LINES):
        tokenizer = get_tokenizer(NAME)
        assert tokenizer.batch is not None
        assert tokenizer.many(LINES) == expected
        assert tokenizer.many(LINES) == expected
    alone = get_tokenizer(NAME)
    assert alone.many(LINES[::-1]) == expected[::-1]
    with pytest.raises(InvalidInput, match="U\\+D800 at character 4"):
        alone.many([*LINES[:10], "bad \ud800 line", *LINES[10:20]])


def test_a_group_with_a_lone_surrogate_is_reported_when_it_comes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A line MeCab cannot read in one group: every group still comes once; tokenizing that
    group raises InvalidInput as one process does, the others give one process's tokens."""
    groups = [list(group) for group in GROUPS]
    groups[2][7] = "bad \ud800 line"
    one = get_tokenizer(NAME)
    spied(monkeypatch)
    seen = []
    with parsing_ahead(NAME, REFS, groups):
        tokenize = get_tokenizer(NAME)
        for i in tokenizers.parsed_order(NAME, groups):
            seen.append(i)
            if i == 2:
                with pytest.raises(InvalidInput, match="U\\+D800 at character 4"):
                    tokenize.many(groups[i])
            else:
                assert tokenize.many(groups[i]) == [one(line) for line in groups[i]]
    assert sorted(seen) == list(range(5))
