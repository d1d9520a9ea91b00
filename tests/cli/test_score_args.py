"""``mtcompute score``'s command line: what argparse accepts, its defaults, and the examples
of its help."""

from __future__ import annotations

import contextlib
import io
import shlex

from hypothesis import given, settings
from hypothesis import strategies as st

from mtcompute import cli
from mtcompute.cli import score
from tests.conftest import WMT, run_cli

EN_DE = WMT / "generaltest2022" / "en-de"
SYS = str(EN_DE / "sys.Online-B.txt")
REF = str(EN_DE / "ref.A.txt")

# The options of `mtcompute score`, spelled out here (not read from src, so that a change in
# src shows up as a line argparse refuses): flag spellings and good values of each.
FILES = st.sampled_from(["sys.txt", "ref.txt", "-", "a b.txt", "x=y.txt", "+1", "ü.txt"]) | (
    st.text(min_size=1, max_size=8).filter(lambda text: not text.startswith("-"))
)
GOOD_VALUES: dict[tuple[str, ...], st.SearchStrategy[str] | None] = {
    ("--hypotheses", "-H"): FILES,  # one to three of them
    ("--references", "-r"): FILES,  # one to three of them
    ("--metric", "-m"): st.sampled_from(["chrf", "bleu", "chrf++", "ter"]),  # one to three
    ("--rules",): st.sampled_from(["sacrebleu", "contract"]),
    ("--lowercase",): None,
    ("--beta",): st.integers(1, 16).map(str),
    ("--tokenize",): st.sampled_from(["13a", "zh", "char", "none"]),
    ("--smooth-method",): st.sampled_from(["none", "floor", "add-k", "exp"]),
    ("--smooth-value",): st.floats(0.0, 100.0).map(repr) | st.sampled_from(["0", "1", "1e-1"]),
    ("--max-order",): st.integers(1, 8).map(str),
    ("--effective-order",): None,
    ("--normalized",): None,
    ("--no-punct",): None,
    ("--asian-support",): None,
    ("--case-sensitive",): None,
    ("--segments",): None,
    ("--format",): st.sampled_from(["text", "json"]),
    ("--no-progress",): None,
}


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
            several = flags[0] in {"--hypotheses", "--references", "--metric"}
            count = draw(st.integers(1, 3)) if several else 1
            pieces.append([flag, *(draw(values) for _ in range(count))])
    return [token for piece in draw(st.permutations(pieces)) for token in piece]


def argparse_vars(argv: list[str]) -> dict[str, object] | None:
    """vars() of argparse's namespace for ``mtcompute score ARGV``; None if it exits (help
    or a usage error)."""
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        try:
            return vars(cli.build_parser().parse_args(["score", *argv]))
        except SystemExit:
            return None


def epilog_examples() -> list[list[str]]:
    """The score command lines shown in ``mtcompute score --help``, split as a shell would."""
    with contextlib.redirect_stdout(io.StringIO()) as text, contextlib.suppress(SystemExit):
        cli.build_parser().parse_args(["score", "--help"])
    lines = [line for line in text.getvalue().splitlines() if "mtcompute score -" in line]
    return [shlex.split(line.split("mtcompute score", 1)[1]) for line in lines]


# -- what argparse accepts -----------------------------------------------------------------


@settings(max_examples=200, deadline=None)
@given(well_formed_argvs())
def test_well_formed_lines_are_accepted(argv: list[str]) -> None:
    """Every well-formed line (plain options, good values, each once, in any order, long,
    short or --option=value) is accepted, as a score command."""
    assert "score" == (argparse_vars(argv) or {}).get("command")


def test_epilog_examples_parse() -> None:
    """The seven examples of `mtcompute score --help` are accepted."""
    examples = epilog_examples()
    assert (7, [True] * 7) == (
        len(examples),
        [argparse_vars(argv) is not None for argv in examples],
    )


def test_defaults() -> None:
    """The shortest line gets the defaults: None for the metric options, flags included (so
    that an option of a metric not asked for can be told), False for the output flags, chrf,
    sacrebleu and text."""
    expected = {
        "command": "score",
        "func": score.run,
        "hypotheses": ["-"],
        "references": ["ref.txt"],
        "test_set": None,
        "metric": ["chrf"],
        "rules": "sacrebleu",
        "lowercase": None,
        "beta": None,
        "tokenize": None,
        "spm_model": None,
        "language_pair": None,
        "origlang": None,
        "subset": None,
        "cut": None,
        "smooth_method": None,
        "smooth_value": None,
        "max_order": None,
        "effective_order": None,
        "normalized": None,
        "no_punct": None,
        "asian_support": None,
        "case_sensitive": None,
        "paired_bs": False,
        "paired_ar": False,
        "paired_bs_n": None,
        "paired_ar_n": None,
        "ci": False,
        "ci_n": None,
        "seed": None,
        "scheduler": None,
        "segments": False,
        "format": "text",
        "no_progress": False,
    }
    assert expected == argparse_vars(["-H", "-", "-r", "ref.txt"])


def test_abbreviated_options_score_the_same() -> None:
    """`mtcompute score -H SYS -r REF` scores (exit 0, a chrF2 line); the abbreviations
    --hyp, --ref and --met give the same output as the full names."""
    full = run_cli("score", "--hypotheses", SYS, "--references", REF, "--metric", "bleu")
    short = run_cli("score", "--hyp", SYS, "--ref", REF, "--met", "bleu")
    plain = run_cli("score", "-H", SYS, "-r", REF)
    assert ((0, True, b""), full.stdout, True) == (
        (full.returncode, full.stdout.startswith(b"BLEU|nrefs:1|"), full.stderr),
        short.stdout,
        plain.stdout.startswith(b"chrF2|nrefs:1|"),
    )


def test_several_systems_and_metrics_parse() -> None:
    """-H and -m take several values each, in the order given."""
    found = argparse_vars(["-H", "a.txt", "b.txt", "-r", "r.txt", "-m", "chrf++", "bleu"]) or {}
    assert (["a.txt", "b.txt"], ["chrf++", "bleu"]) == (
        found.get("hypotheses"),
        found.get("metric"),
    )
