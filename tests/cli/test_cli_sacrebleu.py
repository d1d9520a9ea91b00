"""``mtcompute sacrebleu`` against sacreBLEU 2.6.0's own command line: the same bytes on
standard output and the same exit status, case by case (the harness and the cases are
``scripts/diff_sacrebleu_cli.py``'s; the script runs the broad grid), on a window of the WMT
data in use; the multi-system table on odd names; the refused flags' messages."""

from __future__ import annotations

import importlib
import json
import os
import pty
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.cli.terminal import read_until_closed
from tests.conftest import WMT, WMT_IS_SAMPLE, cli_command, load_script
from tests.oracle import answer

diff = load_script("diff_sacrebleu_cli")
PAIR = WMT / "generaltest2022" / "en-de"
LINES = 60  # a window: the cases test the command, the script the whole files


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> object:
    """The first lines of the en-de pair, laid out for the cases."""
    return diff.prepare(PAIR, tmp_path_factory.mktemp("sacrebleu-cli"), LINES)


def run_mtcompute(
    args: tuple[str, ...], folder: Path, stdin: bytes = b"", env: diff.Case | None = None
) -> diff.Outcome:
    """``mtcompute sacrebleu ARGS`` in ``folder`` (with the environment of ``env``)."""
    case = diff.Case(args) if env is None else env
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


def sacrebleu_outcome(case: diff.Case, folder: Path) -> tuple[int, bytes]:
    """sacreBLEU's exit status and standard output for the case in ``folder`` (its answer as
    recorded for these arguments and these files, else run: tests/oracle.py)."""
    files = [(p.name, p.read_bytes()) for p in sorted(folder.iterdir()) if p.is_file()]

    def run() -> tuple[int, str]:
        outcome = diff.run_subprocess(diff.sacrebleu_command(), case, folder)
        return outcome.status, outcome.stdout.decode("latin-1")  # bytes as JSON text, losslessly

    status, stdout = answer(
        "sacrebleu command: status, stdout",
        [list(case.args), case.stdin, [list(kv) for kv in case.env]],
        [(name, data.decode("latin-1")) for name, data in files],
        run,
    )
    return status, stdout.encode("latin-1")


QUICK = diff.quick_cases(diff.Workspace(Path(), "", ["S1", "S2", "S3"], ["R1", "R2"], "de"))


def _quick_param(index: int) -> object:
    return pytest.param(index, id=QUICK[index].label)


@pytest.mark.parametrize("index", [_quick_param(i) for i in range(len(QUICK))])
def test_the_same_output_and_status_as_sacrebleu(workspace: object, index: int) -> None:
    """Standard output (bytes) and exit status equal sacreBLEU's for the quick case."""
    case = diff.quick_cases(workspace)[index]
    expected = sacrebleu_outcome(case, workspace.folder)
    actual = diff.run_subprocess(diff.mtcompute_command(), case, workspace.folder)
    assert expected == (actual.status, actual.stdout)


def test_the_whole_en_de_files_with_five_systems() -> None:
    """On the whole en-de files, five systems, BLEU and chrF, the table is sacreBLEU's."""
    systems = sorted(p.name for p in PAIR.glob("sys.*.txt"))
    case = diff.Case(("ref.A.txt", "-i", *systems, "-m", "bleu", "chrf", "-f", "text"))
    expected = sacrebleu_outcome(case, PAIR)
    actual = diff.run_subprocess(diff.mtcompute_command(), case, PAIR)
    assert expected[0] == 0
    assert expected == (actual.status, actual.stdout)


def test_the_whole_en_de_files_with_two_references_and_ter() -> None:
    """On the whole en-de files, BLEU, chrF and TER of one system are sacreBLEU's: both
    references in JSON, and the first with normalized TER as short text (sacreBLEU's TER of
    the whole file takes half a minute a reference; scripts/diff_sacrebleu_cli.py runs the
    rest of the grid on whole files)."""
    for refs, extra in (
        (("ref.A.txt", "ref.B.txt"), ()),
        (("ref.A.txt",), ("-f", "text", "-sh", "--ter-normalized")),
    ):
        case = diff.Case((*refs, "-i", "sys.Online-B.txt", "-m", "bleu", "chrf", "ter", *extra))
        expected = sacrebleu_outcome(case, PAIR)
        actual = diff.run_subprocess(diff.mtcompute_command(), case, PAIR)
        assert (0, True) == (expected[0], b"TER" in expected[1])
        assert expected == (actual.status, actual.stdout)


def test_colours_on_a_terminal_are_sacrebleus(workspace: object) -> None:
    """On a terminal the table's colour codes and colorama's final reset are sacreBLEU's."""
    args = ("ref.A.txt", "-i", *workspace.systems, "-f", "text")
    expected = _on_a_terminal(diff.sacrebleu_command(), args, workspace.folder)
    assert b"\x1b[36m" in expected
    assert expected == _on_a_terminal(diff.mtcompute_command(), args, workspace.folder)


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


# -- refused flags: one line on stderr, exit status 2 (test sets: tests/testsets/) --------


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


# -- the table: sacreBLEU's tabulate call on odd names -----------------------------------------

TRICKY_NAMES = [
    "sys.a.txt", "1.55", "2", "-3.25", "1,000", "1,000.5", "True", "False", "nan", "inf",
    "-inf", "1e5", "1e400", "Infinity", " padded ", "١٢", "1_000", "+5", "", "a\nb", "a\r\nb",
    "ab\x85cd", "x\x0by", "\x1b[31mred\x1b[0m", "\x1b]8;;x\x1b\\link\x1b]8;;\x1b\\",
    "\x01", " \x01 ", "Baseline: b", "ß", "日本語", "e\u0301", "tab\there", "&_%$#{}~^\\<>",
]  # fmt: skip
# The systems' lines (against REFERENCE): the scores of a table, from 100 down to 0
REFERENCE = ["the cat sat on the mat", "a dog barked at the moon", "it rained all day long"]
OUTPUTS = [
    REFERENCE,
    ["the cat sat on a mat", "a dog barked at the moon", "it rained all day"],
    ["the cat sat", "a dog barked at the sun", "it was a long day"],
    ["xyz", "nothing of the kind", "q"],
]


def _is_file_name(name: str) -> bool:
    """Whether ``name`` names a file here (and is not an option or the reference's)."""
    return (
        name not in ("", ".", "..", "ref.txt")
        and not {"/", "\0"} & set(name)
        and len(name.encode("utf-8", "surrogateescape")) <= 255
        and not (name.startswith("-") and name not in TRICKY_NAMES)
    )


@pytest.fixture(scope="module")
def tables(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder with ``ref.txt`` (:data:`REFERENCE`), for the systems the cases write (the
    modules the forked commands import on first use imported here, once)."""
    for module in (
        "mtcompute.cli._sacrebleu_run",
        "mtcompute.sacrebleu.tokenizers.tokenizer_13a",
        "mtcompute.metrics.chrf.resample",
        "numpy.random",
        "tabulate",
    ):
        importlib.import_module(module)
    folder = tmp_path_factory.mktemp("sacrebleu-tables")
    (folder / "ref.txt").write_text("".join(line + "\n" for line in REFERENCE), "utf-8")
    return folder


@settings(max_examples=400, deadline=None)
@given(
    names=st.lists(
        (st.sampled_from(TRICKY_NAMES) | st.text(max_size=6)).filter(_is_file_name),
        min_size=2,
        max_size=4,
    ),
    data=st.data(),
    color=st.booleans(),
    fmt=st.sampled_from(["text", "latex"]),
    width=st.integers(0, 4),
    metrics=st.sampled_from([("bleu",), ("chrf",), ("bleu", "chrf"), ("ter", "bleu", "chrf")]),
    paired=st.sampled_from([(), ("-pbs", "-pbsn", "20"), ("-par", "-parn", "20")]),
)
def test_the_table_is_sacrebleus(
    tables: Path,
    entries: tuple[object, object, object],
    names: list[str],
    data: st.DataObject,
    color: bool,
    fmt: str,
    width: int,
    metrics: tuple[str, ...],
    paired: tuple[str, ...],
) -> None:
    """For any system names (the files' names: numbers, separators, terminal codes, line
    breaks, LaTeX's specials), scores, formats, widths and paired tests, with colours or
    without, standard output and exit status are sacreBLEU's."""
    for name in names:
        lines = data.draw(st.sampled_from(OUTPUTS))
        (tables / name).write_text("".join(line + "\n" for line in lines), "utf-8")
    args = ("ref.txt", "-i", *names, "-m", *metrics, "-f", fmt, "-w", str(width), *paired)
    case = diff.Case((*args, "-nc") if not color else args)
    sacrebleu_entry, mtcompute_entry, _ = entries
    expected = diff.run_forked(sacrebleu_entry, case, tables)
    actual = diff.run_forked(mtcompute_entry, case, tables)
    assert (expected.status, expected.stdout) == (actual.status, actual.stdout)


def test_the_table_sees_what_it_looks_for(
    tables: Path, entries: tuple[object, object, object]
) -> None:
    """The tricky names take tabulate's odd paths, as in sacreBLEU: a column of names that
    read as numbers is reformatted with the score width, a name "\\x01" becomes a rule."""
    body = "".join(line + "\n" for line in REFERENCE)
    for name in ("1.55", "2", "a", "\x01", "b"):
        (tables / name).write_text(body, "utf-8")
    numbers = diff.Case(
        ("ref.txt", "-i", "1.55", "2", "-m", "bleu", "-f", "text", "-w", "1", "-nc")
    )
    rule = diff.Case(("ref.txt", "-i", "a", "\x01", "b", "-m", "bleu", "-f", "latex", "-nc"))
    outcomes = [diff.run_forked(e, c, tables) for c in (numbers, rule) for e in entries[:2]]
    signature = (
        "\n\n-----------------\nMetric signatures\n-----------------\n"
        " - BLEU       nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0\n"
    )
    assert (
        0,
        (
            "╒══════════╤════════╕\n│   System │  BLEU  │\n╞══════════╪════════╡\n"
            "│      1.6 │ 100.0  │\n├──────────┼────────┤\n│      2.0 │ 100.0  │\n"
            "╘══════════╧════════╛" + signature
        ).encode(),
    ) == (outcomes[1].status, outcomes[1].stdout)
    assert (
        0,
        (
            "\\begin{tabular}{rc}\n\\toprule\n   System &  BLEU  \\\\\n\\midrule\n"
            "        a & 100.0  \\\\\n\\midrule\n        b & 100.0  \\\\\n"
            "\\bottomrule\n\\end{tabular}" + signature
        ).encode(),
    ) == (outcomes[3].status, outcomes[3].stdout)
    assert [(o.status, o.stdout) for o in outcomes[0::2]] == [
        (o.status, o.stdout) for o in outcomes[1::2]
    ]


# -- significance: paired tests and confidence intervals -------------------------------------

SIGNIFICANCE = diff.significance_quick_cases(
    diff.Workspace(Path(), "", ["S1", "S2", "S3"], ["R1", "R2"], "de")
)


@pytest.fixture(scope="module")
def entries() -> tuple[object, object, object]:
    """sacreBLEU's main, mtcompute's, and sacreBLEU's with its float32 JSON crash fixed, to
    run in forked children (the imports paid once)."""
    sacrebleu_entry, mtcompute_entry = diff.forked_entries()
    return sacrebleu_entry, mtcompute_entry, diff.json_fixed_entry()


@pytest.mark.parametrize(
    "index", [pytest.param(i, id=SIGNIFICANCE[i].label) for i in range(len(SIGNIFICANCE))]
)
def test_significance_output_and_status_are_sacrebleus(
    workspace: object, entries: tuple[object, object, object], index: int
) -> None:
    """Paired tests and confidence intervals: standard output (bytes) and exit status equal
    sacreBLEU's (where it crashes printing float32 JSON, what it prints with that fixed;
    unseeded, what does not depend on the draws)."""
    case = diff.significance_quick_cases(workspace)[index]
    sacrebleu_entry, mtcompute_entry, fixed_entry = entries
    expected = diff.run_forked(sacrebleu_entry, case, workspace.folder)
    actual = diff.run_forked(mtcompute_entry, case, workspace.folder)
    verdict = diff.compare(
        case, expected, actual, lambda: diff.run_forked(fixed_entry, case, workspace.folder)
    )
    assert (True, expected.status, expected.stdout) == (
        verdict.equal,
        expected.status,
        actual.stdout if verdict.how == "bytes" else expected.stdout,
    )


def test_the_quick_significance_cases_compare_every_way() -> None:
    """The quick cases compare bytes, sacreBLEU's fixed JSON and unseeded runs' stable parts
    (so that each way of comparing is exercised)."""
    ways = {
        "stable" if not diff.is_deterministic(case) else "bytes or fixed" for case in SIGNIFICANCE
    }
    fixed = [c for c in SIGNIFICANCE if "json" in c.args and {"-pbs", "chrf"} <= set(c.args)]
    assert ({"stable", "bytes or fixed"}, True) == (ways, len(fixed) > 0)


def test_sacrebleu_crashes_where_mtcompute_prints_its_json(
    workspace: object, entries: tuple[object, object, object]
) -> None:
    """The chrF (and TER) paired bootstrap in JSON: sacreBLEU 2.6.0 under numpy 2 exits 1
    with nothing printed (its float32 means are not JSON serializable); mtcompute prints the
    JSON sacreBLEU prints once json.dumps takes float32 as its value, and exits 0."""
    case = diff.Case(
        ("ref.A.txt", "-i", *workspace.systems[:2], "-m", "chrf", "-pbs", "-pbsn", "20")
    )
    sacrebleu_entry, mtcompute_entry, fixed_entry = entries
    crashed = diff.run_forked(sacrebleu_entry, case, workspace.folder)
    fixed = diff.run_forked(fixed_entry, case, workspace.folder)
    actual = diff.run_forked(mtcompute_entry, case, workspace.folder)
    assert (1, b"", True) == (crashed.status, crashed.stdout, diff.FLOAT32_JSON in crashed.stderr)
    assert (0, b'"mean": ' in fixed.stdout) == (fixed.status, True)
    assert (fixed.status, fixed.stdout) == (actual.status, actual.stdout)


def test_seed_zero_seeds_the_comparisons(
    workspace: object, entries: tuple[object, object, object]
) -> None:
    """SACREBLEU_SEED=0 is a seed (sacreBLEU runs its comparisons unseeded then): two runs
    print the same bytes, which differ from the default seed's, and the signature says 0."""
    args = ("ref.A.txt", "-i", *workspace.systems, "-par", "-parn", "200")
    zero = (("SACREBLEU_SEED", "0"),)
    _, mtcompute_entry, _ = entries

    def run(*extra: str, env: tuple[tuple[str, str], ...] = zero) -> diff.Outcome:
        return diff.run_forked(
            mtcompute_entry, diff.Case((*args, *extra), env=env), workspace.folder
        )

    first, again, default = run("-f", "json"), run("-f", "json"), run("-f", "json", env=())
    text = run("-f", "text")
    assert (0, 0, first.stdout) == (first.status, again.status, again.stdout)
    assert first.stdout != default.stdout
    signature = b" - BLEU       nrefs:1|ar:200|seed:0|case:mixed"
    assert (0, True) == (text.status, signature in text.stdout)


def _on_a_terminal(command: list[str], args: tuple[str, ...], folder: Path) -> bytes:
    """What ``command ARGS`` writes to a terminal."""
    leader, follower = pty.openpty()
    with subprocess.Popen(
        [*command, *args],
        stdout=follower,
        stderr=subprocess.DEVNULL,
        stdin=subprocess.DEVNULL,
        cwd=folder,
        env=diff._environment(diff.Case(args)),
    ) as process:
        os.close(follower)
        drawn = read_until_closed(leader)
        process.wait(120)
    os.close(leader)
    return drawn


def test_paired_colours_on_a_terminal_are_sacrebleus(workspace: object) -> None:
    """On a terminal the paired test's colours (baseline yellow, p-values above 0.05 red,
    the explanation's words) are sacreBLEU's."""
    args = ("ref.A.txt", "-i", *workspace.systems, "-pbs", "-pbsn", "30", "-f", "text")
    expected = _on_a_terminal(diff.sacrebleu_command(), args, workspace.folder)
    assert b"\x1b[32m" in expected
    assert expected == _on_a_terminal(diff.mtcompute_command(), args, workspace.folder)


EN_DE = ("JDExploreAcademy", "Online-B", "Online-W", "OpenNMT", "PROMT")


@pytest.mark.skipif(WMT_IS_SAMPLE, reason="the issue's figures are on the whole en-de files")
def test_the_issues_figures_through_the_command() -> None:
    """On the whole en-de files (ref.A, JDExploreAcademy the baseline), seed 12345: the
    issue's p-values (counts over 1001 resamples and 10001 trials) and the BLEU baseline's
    mean and half width, exactly, from mtcompute sacrebleu's JSON."""
    systems = [f"sys.{name}.txt" for name in EN_DE]

    def p_values(test: str) -> dict[str, list[float]]:
        case = diff.Case(("ref.A.txt", "-i", *systems, "-m", "bleu", "chrf", test))
        done = diff.run_subprocess(diff.mtcompute_command(), case, PAIR)
        rows = json.loads(done.stdout)
        return {
            "BLEU": [row["BLEU"]["p_value"] for row in rows[1:]],
            "chrF2": [row["chrF2"]["p_value"] for row in rows[1:]],
            "baseline": [rows[0]["BLEU"]["mean"], rows[0]["BLEU"]["ci"]],
        }

    bootstrap = p_values("--paired-bs")
    approximate = p_values("--paired-ar")
    assert {
        "BLEU": [31 / 1001, 2 / 1001, 1 / 1001, 1 / 1001],
        "chrF2": [43 / 1001, 166 / 1001, 1 / 1001, 1 / 1001],
        "baseline": [37.79929525973223, 0.9890726025580676],
    } == bootstrap
    assert {
        "BLEU": [502 / 10001, 12 / 10001, 1 / 10001, 1 / 10001],
        "chrF2": [697 / 10001, 4094 / 10001, 1 / 10001, 1 / 10001],
    } == {key: approximate[key] for key in ("BLEU", "chrF2")}


def test_help_says_where_significance_differs() -> None:
    """--help lists the seed-0, JSON and -j differences and no longer refuses the tests."""
    done = subprocess.run(
        [*cli_command(), "sacrebleu", "--help"], capture_output=True, check=True, timeout=60
    )
    text = " ".join(done.stdout.decode().split())
    expected = [
        "SACREBLEU_SEED=0 seeds the paired tests with 0.",
        "this command prints the JSON it would have printed, with those numbers as their "
        "exact float values, and exits 0.",
        "-j/--paired-jobs is checked as in sacreBLEU (negative: exit 1)",
    ]
    assert ([True] * 3, False) == ([line in text for line in expected], "not available yet" in text)


def test_the_grid_script_names_a_pair_folder_it_cannot_use(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``scripts/diff_sacrebleu_cli.py --pairs`` with a folder that is missing or holds no
    references: a usage error naming it (exit 2), not an IndexError from deep inside."""
    (tmp_path / "set" / "xx-yy").mkdir(parents=True)
    (tmp_path / "set" / "xx-yy" / "sys.a.txt").write_text("a\n", encoding="utf-8")
    for pair in ("set/xx-yy", "set/missing"):
        with pytest.raises(SystemExit) as stop:
            diff.main(["--data", str(tmp_path), "--pairs", pair])
        assert stop.value.code == 2
        assert f"--pairs: {tmp_path / pair} holds no ref.*.txt" in capsys.readouterr().err
