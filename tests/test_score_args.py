"""``mtcompute score``'s fast argument parser: argparse's namespace or None, never another one;
and the score command's start-up without argparse."""

from __future__ import annotations

import contextlib
import io
import json
import shlex
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mtcompute import cli, score
from tests.conftest import WMT

EN_DE = WMT / "generaltest2022" / "en-de"
SYS = str(EN_DE / "sys.Online-B.txt")
REF = str(EN_DE / "ref.A.txt")

# The options of `mtcompute score`, spelled out here (not read from src, so that a wrong table
# in src shows up as a difference from argparse): flag spellings and good values of each.
FILES = st.sampled_from(["sys.txt", "ref.txt", "-", "a b.txt", "x=y.txt", "+1", "ü.txt"]) | (
    st.text(min_size=1, max_size=8).filter(lambda text: not text.startswith("-"))
)
GOOD_VALUES: dict[tuple[str, ...], st.SearchStrategy[str] | None] = {
    ("--hypotheses", "-H"): FILES,
    ("--references", "-r"): FILES,  # one to three of them
    ("--metric",): st.sampled_from(["chrf", "bleu"]),
    ("--beta",): st.integers(1, 16).map(str),
    ("--lowercase",): None,
    ("--max-order",): st.integers(1, 8).map(str),
    ("--smoothing",): st.sampled_from(["none", "method1", "method2", "method3"]),
    ("--epsilon",): st.floats(0.0, 1.0).map(repr) | st.sampled_from(["0", "1", "1e-1", ".5"]),
    ("--effective-order",): None,
    ("--segments",): None,
    ("--format",): st.sampled_from(["text", "json"]),
    ("--no-progress",): None,
}
FLAGS = [flag for flags in GOOD_VALUES for flag in flags]
JUNK_FLAGS = [
    *("-h", "--help", "--", "-", "---", "--version", "--bogus", "-x", "-Hsys.txt", "-rref.txt"),
    *("-H=sys.txt", "--hyp", "--ref", "--met", "--max", "--eff", "--lower", "--seg", "--no"),
    *("--format=", "--metric=", "--segments=1", "--lowercase=", "-1", "-0.0", "-e", "--Beta"),
]
VALUES = [
    *("sys.txt", "ref.txt", "-", "", "a b", "-x y", "a=b", "chrf", "bleu", "CHRF", "text"),
    *("json", "xml", "none", "method1", "method3", "method4", "0", "1", "2", "16", "17", "8"),
    *("9", "-3", "+3", " 3", "3.0", "1_6", "\u0663", "0.05", "1e-1", "1.5", "nan", "inf"),
    *("-0.0", "-inf", "x", "9" * 5000),
]


@st.composite
def well_formed_argvs(draw: st.DrawFn) -> list[str]:
    """A well-formed score command line: -H and -r, any other options at most once each,
    good values, in any order, each option spelled long, short or as --option=value."""
    pieces: list[list[str]] = []
    for flags, values in GOOD_VALUES.items():
        required = flags[0] in {"--hypotheses", "--references"}
        if not required and draw(st.booleans()):
            continue
        flag = draw(st.sampled_from(flags))
        if values is None:
            pieces.append([flag])
        elif flag.startswith("--") and draw(st.booleans()):
            pieces.append([f"{flag}={draw(values)}"])
        else:
            count = draw(st.integers(1, 3)) if flags[0] == "--references" else 1
            pieces.append([flag, *(draw(values) for _ in range(count))])
    return [token for piece in draw(st.permutations(pieces)) for token in piece]


def any_piece() -> st.SearchStrategy[list[str]]:
    """An option (real or junk) with zero to three values (good or junk), or --option=value."""
    flag = st.sampled_from(FLAGS) | st.sampled_from(JUNK_FLAGS)
    value = st.sampled_from(VALUES) | st.one_of(
        *(values for values in GOOD_VALUES.values() if values is not None)
    )
    return st.one_of(
        st.tuples(flag, st.lists(value, max_size=3)).map(lambda fv: [fv[0], *fv[1]]),
        st.tuples(flag, value).map(lambda fv: [f"{fv[0]}={fv[1]}"]),
        st.lists(value, min_size=1, max_size=2),
    )


@st.composite
def any_argvs(draw: st.DrawFn) -> list[str]:
    """Mixed command lines: mostly a well-formed one with a piece or two inserted or a token
    removed (nearly valid, valid or not), else a few pieces alone."""
    if draw(st.integers(0, 3)) == 0:
        return [token for piece in draw(st.lists(any_piece(), max_size=4)) for token in piece]
    argv = draw(well_formed_argvs())
    for piece in draw(st.lists(any_piece(), max_size=2)):
        at = draw(st.integers(0, len(argv)))
        argv[at:at] = piece
    if draw(st.integers(0, 3)) == 0:
        del argv[draw(st.integers(0, len(argv) - 1))]
    return argv


def argparse_vars(argv: list[str]) -> dict[str, object] | None:
    """vars() of argparse's namespace for ``mtcompute score ARGV``; None if it exits (help
    or a usage error)."""
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        try:
            return vars(cli.build_parser().parse_args(["score", *argv]))
        except SystemExit:
            return None


def fast_vars(argv: list[str]) -> dict[str, object] | None:
    """vars() of the fast parser's namespace for ``mtcompute score ARGV``, or None."""
    args = score.parse_fast(argv)
    return None if args is None else vars(args)


def epilog_examples() -> list[list[str]]:
    """The score command lines shown in ``mtcompute score --help``, split as a shell would."""
    with contextlib.redirect_stdout(io.StringIO()) as text, contextlib.suppress(SystemExit):
        cli.build_parser().parse_args(["score", "--help"])
    lines = [line for line in text.getvalue().splitlines() if "mtcompute score -" in line]
    return [shlex.split(line.split("mtcompute score", 1)[1]) for line in lines]


# -- the fast parser agrees with argparse --------------------------------------------------


@settings(max_examples=400, deadline=None)
@given(any_argvs())
def test_fast_parse_is_argparse_or_none(argv: list[str]) -> None:
    """Whenever the fast parser returns a namespace, argparse accepts the line and returns
    the same attributes (func and command included)."""
    fast = fast_vars(argv)
    if fast is not None:
        assert fast == argparse_vars(argv)


@settings(max_examples=200, deadline=None)
@given(well_formed_argvs())
def test_well_formed_lines_take_the_fast_path(argv: list[str]) -> None:
    """Every well-formed line (plain options, good values, each once) is parsed without
    argparse, to argparse's result."""
    expected = argparse_vars(argv)
    assert (True, expected) == (expected is not None, fast_vars(argv))


def test_epilog_examples_take_the_fast_path() -> None:
    """The examples of `mtcompute score --help` are parsed fast, to argparse's result."""
    examples = epilog_examples()
    assert len(examples) == 4
    assert [argparse_vars(argv) for argv in examples] == [fast_vars(argv) for argv in examples]
    assert None not in [fast_vars(argv) for argv in examples]


@pytest.mark.parametrize(
    "argv",
    [
        ["-h"],
        ["--help"],
        ["-H", "s", "-r", "r", "--help"],
        ["--hyp", "s", "-r", "r"],
        ["-H", "s", "--ref", "r"],
        ["-H", "s", "-r", "r", "--seg"],
        ["-H", "s", "-r", "r", "--beta", "17"],
        ["-H", "s", "-r", "r", "--beta", "x"],
        ["-H", "s", "-r", "r", "--epsilon", "nan"],
        ["-H", "s", "-r", "r", "--metric", "ter"],
        ["-H", "s", "-r", "r", "--format=xml"],
        ["-H", "s", "-H", "t", "-r", "r"],
        ["-H", "s", "-r", "r", "--segments", "--segments"],
        ["-H", "s"],
        ["-r", "r"],
        ["-H", "s", "-r"],
        ["-H", "s", "-r", "r", "--", "x"],
        ["-H", "s", "stray", "-r", "r"],
        ["-H", "s", "-r", "r", "--lowercase=yes"],
        ["-Hs", "-r", "r"],
        ["-H", "s", "-r", "r", "--version"],
        ["-H", "s", "-r", "r", "--epsilon", "-0.0"],  # argparse takes it; the fast path is unsure
        ["-H", "-x", "-r", "r"],
        ["-H", "", "-r", "r"],
    ],
)
def test_fast_parse_declines(argv: list[str]) -> None:
    """Help, abbreviations, bad values, repeats, missing options, '--' and other forms that
    are not plain are left to argparse."""
    assert None is score.parse_fast(argv)


def test_fast_parse_defaults_are_argparse_defaults() -> None:
    """The shortest line gets argparse's defaults: None for the metric options, False for
    the output flags, chrf and text."""
    expected = {
        "command": "score",
        "func": score.run,
        "hypotheses": "-",
        "references": ["ref.txt"],
        "metric": "chrf",
        "beta": None,
        "lowercase": None,
        "max_order": None,
        "smoothing": None,
        "epsilon": None,
        "effective_order": None,
        "segments": False,
        "format": "text",
        "no_progress": False,
    }
    argv = ["-H", "-", "-r", "ref.txt"]
    assert (expected, expected) == (fast_vars(argv), argparse_vars(argv))


# -- start-up ------------------------------------------------------------------------------

# The module list is taken before json is imported (json loads re, which a test may look for).
RUN_MAIN = (
    "import sys; from mtcompute.cli import main; code = main(); modules = sorted(sys.modules); "
    "import json; sys.stderr.write(json.dumps(modules)); sys.exit(code)"
)


def run_main(*argv: str) -> tuple[int, bytes, list[str]]:
    """Run ``cli.main()`` in a fresh interpreter: exit status, stdout, loaded module names."""
    proc = subprocess.run(
        [sys.executable, "-c", RUN_MAIN, *argv], capture_output=True, timeout=60, check=False
    )
    modules: list[str] = json.loads(proc.stderr)
    return proc.returncode, proc.stdout, modules


def test_score_does_not_import_argparse() -> None:
    """`mtcompute score -H SYS -r REF` scores without importing argparse; an abbreviated
    option goes through argparse (which is then loaded) to the same result."""
    fast = run_main("score", "-H", SYS, "-r", REF)
    slow = run_main("score", "--hyp", SYS, "--ref", REF)
    expected = (0, True, False, True)
    actual = (
        fast[0],
        fast[1].startswith(b"chrF2 = "),
        "argparse" in fast[2],
        "argparse" in slow[2],
    )
    assert (expected, fast[1]) == (actual, slow[1])


def test_importing_cli_and_score_does_not_import_argparse() -> None:
    """Importing mtcompute.cli and mtcompute.score loads neither argparse nor (from these two
    modules themselves) typing."""
    # Only argparse is asserted for now: mtcompute/__init__.py still imports typing. Once it
    # no longer does, 'typing' belongs in this check too (the broader import-budget test).
    code = "import sys, mtcompute.cli, mtcompute.score; print('argparse' in sys.modules)"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, check=False)
    assert (0, b"False\n", b"") == (proc.returncode, proc.stdout, proc.stderr)
