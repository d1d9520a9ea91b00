"""``mtcompute sacrebleu`` against sacreBLEU 2.6.0's own command line: the same bytes on
standard output and the same exit status, case by case (the harness and the cases are
``scripts/diff_sacrebleu_cli.py``'s; the script runs the broad grid), on a window of the WMT
data in use; the multi-system table against python-tabulate; the refused flags' messages."""

from __future__ import annotations

import os
import pty
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tabulate import tabulate

from mtcompute.cli._sacrebleu_table import tabulate_columns
from tests.conftest import WMT, cli_command, load_script

diff = load_script("diff_sacrebleu_cli")
PAIR = WMT / "generaltest2022" / "en-de"
LINES = 60  # a window: the cases test the command, the script the whole files


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> object:
    """The first lines of the en-de pair, laid out for the cases."""
    return diff.prepare(PAIR, tmp_path_factory.mktemp("sacrebleu-cli"), LINES)


def run_mtcompute(args: tuple[str, ...], folder: Path, stdin: bytes = b"") -> diff.Outcome:
    """``mtcompute sacrebleu ARGS`` in ``folder``."""
    case = diff.Case(args)
    done = subprocess.run(
        [*cli_command(), "sacrebleu", *args],
        input=stdin,
        capture_output=True,
        cwd=folder,
        env=diff._environment(case),
        timeout=120,
        check=False,
    )
    return diff.Outcome(done.returncode, done.stdout, done.stderr)


QUICK = diff.quick_cases(diff.Workspace(Path(), "", ["S1", "S2", "S3"], ["R1", "R2"], "de"))


def _quick_param(index: int) -> object:
    return pytest.param(index, id=QUICK[index].label)


@pytest.mark.parametrize("index", [_quick_param(i) for i in range(len(QUICK))])
def test_the_same_output_and_status_as_sacrebleu(workspace: object, index: int) -> None:
    """Standard output (bytes) and exit status equal sacreBLEU's for the quick case."""
    case = diff.quick_cases(workspace)[index]
    expected = diff.run_subprocess(diff.sacrebleu_command(), case, workspace.folder)
    actual = diff.run_subprocess(diff.mtcompute_command(), case, workspace.folder)
    assert (expected.status, expected.stdout) == (actual.status, actual.stdout)


def test_the_whole_en_de_files_with_five_systems() -> None:
    """On the whole en-de files, five systems, BLEU and chrF, the table is sacreBLEU's."""
    systems = sorted(p.name for p in PAIR.glob("sys.*.txt"))
    case = diff.Case(("ref.A.txt", "-i", *systems, "-m", "bleu", "chrf", "-f", "text"))
    expected = diff.run_subprocess(diff.sacrebleu_command(), case, PAIR)
    actual = diff.run_subprocess(diff.mtcompute_command(), case, PAIR)
    assert expected.status == 0
    assert (expected.status, expected.stdout) == (actual.status, actual.stdout)


def test_the_whole_en_de_files_with_two_references_and_ter() -> None:
    """On the whole en-de files, both references, BLEU, chrF and TER of one system are
    sacreBLEU's, in JSON and as short text."""
    for extra in ((), ("-f", "text", "-sh", "--ter-normalized")):
        case = diff.Case(("ref.A.txt", "ref.B.txt", "-i", "sys.Online-B.txt", "-m", "bleu",
                          "chrf", "ter", *extra))  # fmt: skip
        expected = diff.run_subprocess(diff.sacrebleu_command(), case, PAIR)
        actual = diff.run_subprocess(diff.mtcompute_command(), case, PAIR)
        assert (0, True) == (expected.status, b"TER" in expected.stdout)
        assert (expected.status, expected.stdout) == (actual.status, actual.stdout)


def test_colours_on_a_terminal_are_sacrebleus(workspace: object) -> None:
    """On a terminal the table's colour codes and colorama's final reset are sacreBLEU's."""
    args = ("ref.A.txt", "-i", *workspace.systems, "-f", "text")

    def on_a_terminal(command: list[str]) -> bytes:
        leader, follower = pty.openpty()
        with subprocess.Popen(
            [*command, *args],
            stdout=follower,
            stderr=subprocess.DEVNULL,
            stdin=subprocess.DEVNULL,
            cwd=workspace.folder,
            env=diff._environment(diff.Case(args)),
        ) as process:
            os.close(follower)
            chunks = []
            while True:
                try:
                    chunk = os.read(leader, 65536)
                except OSError:  # EIO: the child closed the terminal
                    break
                if not chunk:
                    break
                chunks.append(chunk)
            process.wait(120)
        os.close(leader)
        return b"".join(chunks)

    expected = on_a_terminal(diff.sacrebleu_command())
    assert b"\x1b[36m" in expected
    assert expected == on_a_terminal(diff.mtcompute_command())


def test_a_title_sequence_in_a_name_is_stripped(workspace: object) -> None:
    """A system name holding a terminal title sequence is printed without it, where
    sacreBLEU's colorama crashes (exit 1, no output): the table is sacreBLEU's without
    colours (-nc, where colorama is not used) with the sequence taken out, as colorama strips
    every other sequence."""
    title = "\x1b]0;title\x07"
    (workspace.folder / f"{title}x").write_bytes((workspace.folder / "stdin1.txt").read_bytes())
    args = ("ref.A.txt", "-i", f"{title}x", "1.55", "-f", "text")
    crashed = diff.run_subprocess(diff.sacrebleu_command(), diff.Case(args), workspace.folder)
    raw = diff.run_subprocess(diff.sacrebleu_command(), diff.Case((*args, "-nc")), workspace.folder)
    actual = diff.run_subprocess(diff.mtcompute_command(), diff.Case(args), workspace.folder)
    assert (1, b"") == (crashed.status, crashed.stdout)
    assert title.encode() in raw.stdout
    assert (0, raw.stdout.replace(title.encode(), b"")) == (actual.status, actual.stdout)


# -- refused flags: one line on stderr, exit status 2 ---------------------------------------

TEST_SETS = (
    "mtcompute sacrebleu: error: {flag}: mtcompute does not fetch sacreBLEU's test sets; give "
    "the reference files and the system outputs: mtcompute sacrebleu REF... -i SYS...\n"
)


@pytest.mark.parametrize(
    ("args", "flag"),
    [
        (("-t", "wmt14", "-l", "en-de"), "-t/--test-set"),
        (("--list",), "--list"),
        (("-t", "wmt14", "-l", "en-de", "--echo", "src"), "-t/--test-set"),
        (("--echo", "src"), "--echo"),
        (("--download", "wmt14"), "--download"),
        (("--citation",), "--citation"),
        (("ref.A.txt", "-i", "stdin1.txt", "--origlang", "de"), "-ol/--origlang"),
        (("ref.A.txt", "-i", "stdin1.txt", "--subset", "news"), "--subset"),
    ],
)
def test_test_set_flags_are_refused(workspace: object, args: tuple[str, ...], flag: str) -> None:
    """A flag that needs sacreBLEU's test sets gets one line naming it, and exit status 2."""
    outcome = run_mtcompute(args, workspace.folder)
    assert (2, b"", TEST_SETS.format(flag=flag)) == (
        outcome.status,
        outcome.stdout,
        outcome.stderr.decode(),
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ("--paired-bs",),
            "-pbs/--paired-bs: significance testing is not available in mtcompute sacrebleu yet",
        ),
        (
            ("-par",),
            "-par/--paired-ar: significance testing is not available in mtcompute sacrebleu yet",
        ),
        (
            ("-ci",),
            "-ci/--confidence: significance testing is not available in mtcompute sacrebleu yet",
        ),
        (
            ("-tok", "flores200"),
            "-tok flores200: this tokenizer needs a SentencePiece model that sacreBLEU "
            "downloads; mtcompute never downloads models",
        ),
    ],
)
def test_not_yet_available_flags_are_refused(
    workspace: object, args: tuple[str, ...], message: str
) -> None:
    """The significance tests and the downloading tokenizers: one line, exit status 2."""
    outcome = run_mtcompute(("ref.A.txt", "-i", "stdin1.txt", *args), workspace.folder)
    assert (2, b"", f"mtcompute sacrebleu: error: {message}\n") == (
        outcome.status,
        outcome.stdout,
        outcome.stderr.decode(),
    )


def test_a_downloading_tokenizer_is_no_matter_without_bleu(workspace: object) -> None:
    """-tok spm with chrF alone runs, as in sacreBLEU (the tokenizer is BLEU's)."""
    case = diff.Case(("ref.A.txt", "-i", "stdin1.txt", "-m", "chrf", "-tok", "spm"))
    expected = diff.run_subprocess(diff.sacrebleu_command(), case, workspace.folder)
    actual = diff.run_subprocess(diff.mtcompute_command(), case, workspace.folder)
    assert (0, expected.stdout) == (actual.status, actual.stdout)


# -- error messages where sacreBLEU has a traceback or says too little ------------------------


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("missing.txt", "-i", "stdin1.txt"),
         "missing.txt: cannot open: No such file or directory"),
        (("ref.A.txt", "-i", "sys1.utf16"), "sys1.utf16: line 1: not valid utf-8 (byte offset 0: "
         "invalid start byte)"),
        (("ref.A.txt", "-i", "stdin1.txt", "-e", "klingon"),
         "ref.A.txt: -e 'klingon' is not an encoding Python knows"),
        (("ref.A.txt", "-i", "stdin1.txt", "-l", "en"),
         "-l/--language-pair: expected a pair such as en-de, got 'en'"),
        (("ref.A.txt", "-i", "stdin1.txt", "-w", "-1"), "-w/--width: expected 0 or more, got -1"),
        (("ref.A.txt", "-i", "short.txt"),
         "System and reference streams have different lengths.\n"
         f"sacreBLEU: short.txt has {LINES - 1} lines, ref.A.txt has {LINES}"),
        (("ref.A.txt", "-i", "empty.txt"),
         "Test set None contains no sentence\nsacreBLEU: empty.txt is empty"),
    ],
)  # fmt: skip
def test_errors_name_their_cause(workspace: object, args: tuple[str, ...], message: str) -> None:
    """Each error is one line (or two) naming the file, line or option; exit status 1."""
    outcome = run_mtcompute(args, workspace.folder)
    assert (1, b"", f"sacreBLEU: {message}\n") == (
        outcome.status,
        outcome.stdout,
        outcome.stderr.decode(),
    )


@pytest.mark.parametrize(
    "args",
    [
        ("ref.A.txt", "-i", "short.txt"),
        ("ref.A.txt", "-i", "empty.txt"),
        ("ref.A.txt", "-i", "stdin1.txt", "stdin1.txt"),
        ("bad.tsv", "-nr", "2", "-i", "stdin1.txt"),
        ("refs.tsv", "ref.A.txt", "-nr", "2", "-i", "stdin1.txt"),
        ("-i", "stdin1.txt"),
        ("ref.A.txt", "-i", "stdin1.txt", "-sl", "-m", "bleu", "chrf"),
        ("ref.A.txt", "-i", "stdin1.txt", "crlf.txt", "-sl"),
    ],
)
def test_sacrebleus_own_errors_keep_its_words(workspace: object, args: tuple[str, ...]) -> None:
    """Where sacreBLEU logs an error, its first line is ours (a detail line may follow)."""
    case = diff.Case(args)
    expected = diff.run_subprocess(diff.sacrebleu_command(), case, workspace.folder)
    actual = diff.run_subprocess(diff.mtcompute_command(), case, workspace.folder)
    first = expected.stderr.decode().splitlines()[0]
    assert first.startswith("sacreBLEU: ")
    assert (expected.status, first) == (actual.status, actual.stderr.decode().splitlines()[0])


def test_quiet_drops_the_prefix_and_the_info_lines(workspace: object) -> None:
    """With -q an error is printed bare and "Found N systems." not at all, as sacreBLEU's
    logger does without its handler."""
    quiet = run_mtcompute(("ref.A.txt", "-i", "short.txt", "-q"), workspace.folder)
    table = run_mtcompute(("ref.A.txt", "-i", *workspace.systems, "-q"), workspace.folder)
    assert (1, "System and reference streams have different lengths.\n") == (
        quiet.status,
        quiet.stderr.decode().split("short.txt has")[0],
    )
    assert (0, b"") == (table.status, table.stderr)


# -- the table against python-tabulate -------------------------------------------------------

TRICKY_NAMES = [
    "sys.a.txt", "1.55", "2", "-3.25", "1,000", "1,000.5", "True", "False", "nan", "inf",
    "-inf", "1e5", "1e400", "Infinity", " padded ", "١٢", "1_000", "+5", "", "a\nb", "a\r\nb",
    "ab\x85cd", "x\x0by", "\x1b[31mred\x1b[0m", "\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\",
    "\x01", " \x01 ", "Baseline: b", "ß", "日本語", "e\u0301", "tab\there", "&_%$#{}~^\\<>",
]  # fmt: skip
SCORES = ["37.8", "0.0", "100.0", "5", "12.3456", "1e2"]


def _columns(names: list[str], scores: list[list[str]], color: bool) -> dict[str, list[str]]:
    headers = ["System", "BLEU", "chrF2++"][: 1 + len(scores)]
    if color:
        headers = [f"\x1b[36m{h}\x1b[0m" for h in headers]
    return dict(zip(headers, [names, *scores], strict=True))


@settings(max_examples=400, deadline=None)
@given(
    names=st.lists(st.sampled_from(TRICKY_NAMES) | st.text(max_size=6), min_size=1, max_size=4),
    data=st.data(),
    color=st.booleans(),
    tablefmt=st.sampled_from(["fancy_grid", "latex_booktabs"]),
    width=st.integers(0, 4),
)
def test_the_table_is_tabulates(
    names: list[str], data: st.DataObject, color: bool, tablefmt: str, width: int
) -> None:
    """For any names and score strings, the table is python-tabulate's, or both raise."""
    n_metrics = data.draw(st.integers(0, 2))
    scores = [
        data.draw(st.lists(st.sampled_from(SCORES), min_size=len(names), max_size=len(names)))
        for _ in range(n_metrics)
    ]
    columns = _columns(names, scores, color)
    try:
        expected: str | type = tabulate(
            {k: list(v) for k, v in columns.items()},
            headers="keys",
            tablefmt=tablefmt,
            colalign=("right",),
            stralign="center",
            numalign="center",
            floatfmt=f".{width}f",
        )
    except (IndexError, ValueError) as error:
        expected = type(error)
    try:
        actual: str | type = tabulate_columns(columns, tablefmt, width)
    except (IndexError, ValueError) as error:
        actual = type(error)
    assert expected == actual


def test_the_table_sees_what_it_looks_for() -> None:
    """The tricky names take tabulate's odd paths: a column of names that read as numbers is
    reformatted with the score width, a name "\\x01" becomes a rule."""
    numbers = tabulate_columns({"System": ["1.55", "2"], "BLEU": ["3.0", "4.0"]}, "fancy_grid", 1)
    rule = tabulate_columns(
        {"System": ["a", "\x01", "b"], "BLEU": ["1", "2", "3"]}, "latex_booktabs", 1
    )
    assert (
        "╒══════════╤════════╕\n│   System │  BLEU  │\n╞══════════╪════════╡\n"
        "│      1.6 │  3.0   │\n├──────────┼────────┤\n│      2.0 │  4.0   │\n"
        "╘══════════╧════════╛"
    ) == numbers
    assert (
        "\\begin{tabular}{rc}\n\\toprule\n   System &  BLEU  \\\\\n\\midrule\n"
        "        a &   1    \\\\\n\\midrule\n        b &   3    \\\\\n"
        "\\bottomrule\n\\end{tabular}"
    ) == rule
