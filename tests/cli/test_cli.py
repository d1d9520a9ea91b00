"""The CLI as a subprocess: run, list, describe, help, exit codes."""

from __future__ import annotations

import argparse
import json
import subprocess
from pathlib import Path

import pytest

import mtcompute
from mtcompute.cli import COMMANDS, build_parser
from mtcompute.contracts import contract, contract_ids, contract_text
from tests.conftest import WMT, cli_command, run_cli


def test_run_reads_a_file(tmp_path: Path) -> None:
    """--input FILE reads the input from a file."""
    path = tmp_path / "input.json"
    path.write_text('{"hypotheses":["aa"],"references":["ab"],"beta":3}')
    proc = run_cli("run", "chrf-compute", "1.0.0", "--input", str(path))
    assert (0, "25/1") == (proc.returncode, json.loads(proc.stdout)["result"]["score_fraction"])


def test_tool_error_prints_envelope_and_exits_1() -> None:
    """A tool error is printed as the envelope on stdout with exit status 1."""
    body = b'{"hypotheses":["a"],"references":["a"],"beta":17}'
    proc = run_cli("run", "chrf-compute", "1.0.0", "--input", "-", stdin=body)
    expected = (
        mtcompute.dumps(mtcompute.execute("chrf-compute", "1.0.0", json.loads(body))).encode()
        + b"\n"
    )
    assert (1, expected, b"") == (proc.returncode, proc.stdout, proc.stderr)


def test_unknown_tool_is_not_found_exit_1() -> None:
    """An unknown tool gets the not_found envelope and exit 1."""
    proc = run_cli("run", "no-such-tool", "1.0.0", "--input", "-", stdin=b"{}")
    assert (1, "not_found") == (proc.returncode, json.loads(proc.stdout)["error"]["code"])


def test_malformed_json_is_invalid_input_exit_1() -> None:
    """Input that is not JSON is an invalid_input envelope, exit 1."""
    proc = run_cli("run", "chrf-compute", "1.0.0", "--input", "-", stdin=b"{nope")
    assert (1, "invalid_input") == (proc.returncode, json.loads(proc.stdout)["error"]["code"])


def test_output_keeps_non_ascii_as_is() -> None:
    """Non-ASCII characters are written as themselves, in UTF-8."""
    body = json.dumps(
        {"hypothesis": ["中文"], "references": [["中文"]], "include_ngrams": True}
    ).encode()
    proc = run_cli("run", "bleu-sentence-components", "1.0.0", "-i", "-", stdin=body)
    assert b'"ngram":["\xe4\xb8\xad\xe6\x96\x87"]' in proc.stdout


@pytest.mark.parametrize(
    "args",
    [
        ("run", "chrf-compute", "1.0.0"),
        ("run", "chrf-compute", "1.0.0", "--input", "/nonexistent/input.json"),
        ("frobnicate",),
        (),
    ],
    ids=["missing --input", "unreadable file", "unknown command", "no command"],
)
def test_usage_errors_exit_2(args: tuple[str, ...]) -> None:
    """Usage errors print to stderr, nothing on stdout, and exit 2."""
    proc = run_cli(*args)
    assert (2, b"") == (proc.returncode, proc.stdout)
    assert proc.stderr


def test_list_shows_every_tool() -> None:
    """`mtcompute list` prints one line per tool version with its description (a superseded
    version's ends with the version that supersedes it)."""
    proc = run_cli("list")
    lines = proc.stdout.decode().splitlines()
    note = {
        ("sacrebleu-score", "1.0.0"): " (superseded by 1.1.0)",
        ("system-ranking", "1.0.0"): " (superseded by 1.1.0)",
    }
    expected = [
        (t, v, contract(t, v)["description"] + note.get((t, v), "")) for t, v in contract_ids()
    ]
    assert expected == [tuple(line.split(None, 2)) for line in lines]


def test_list_json() -> None:
    """`mtcompute list --json` prints the catalog as JSON."""
    proc = run_cli("list", "--json")
    assert [(t, v) for t, v in contract_ids()] == [
        (e["id"], e["version"]) for e in json.loads(proc.stdout)
    ]


def test_describe_prints_the_contract_verbatim() -> None:
    """`mtcompute describe` prints the shipped contract document."""
    proc = run_cli("describe", "chrf-compute", "1.0.0")
    assert (0, contract_text("chrf-compute", "1.0.0") + "\n") == (
        proc.returncode,
        proc.stdout.decode(),
    )


def test_describe_unknown_is_not_found() -> None:
    """`mtcompute describe` of an unknown version prints not_found, exit 1."""
    proc = run_cli("describe", "chrf-compute", "2.0.0")
    assert (1, "not_found") == (proc.returncode, json.loads(proc.stdout)["error"]["code"])


@pytest.mark.parametrize("command", ["run", "list", "describe", "serve", "mcp"])
def test_every_command_has_help_with_an_example(command: str) -> None:
    """`--help` on every command explains it and shows an example."""
    proc = run_cli(command, "--help")
    assert (0, True) == (proc.returncode, b"example" in proc.stdout)


def test_each_command_help_has_its_own_description() -> None:
    """A command's help describes the command; only the top-level help lists the catalog."""
    parser = build_parser()
    (commands,) = (a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    catalog = "tools by what they take:"
    assert catalog in parser.format_help()
    assert [] == [name for name, sub in commands.choices.items() if catalog in sub.format_help()]
    assert len(commands.choices) >= 8


def _subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    (commands,) = (a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(commands.choices)


@pytest.mark.parametrize("name", COMMANDS)
def test_a_command_builds_only_its_parser_and_the_same_one(name: str) -> None:
    """``build_parser(name)`` (what running ``name`` builds) has ``name``'s parser alone, with
    the same help, usage and defaults as the whole parser's; any other word builds them all."""
    own, whole = _subparsers(build_parser(name)), _subparsers(build_parser())
    assert [name] == list(own)
    assert list(COMMANDS) == list(whole) == list(_subparsers(build_parser("bogus")))
    assert whole[name].format_help() == own[name].format_help()
    assert whole[name].format_usage() == own[name].format_usage()
    assert whole[name]._defaults == own[name]._defaults

    def declared(parser: argparse.ArgumentParser) -> list[list[object]]:
        fields = ("option_strings", "dest", "nargs", "const", "default", "choices", "required")
        return [
            [*(getattr(a, f) for f in fields), getattr(a.type, "__qualname__", a.type)]
            for a in parser._actions
        ]

    assert declared(whole[name]) == declared(own[name])


def test_top_level_help_lists_commands() -> None:
    """`mtcompute --help` names every command."""
    text = run_cli("--help").stdout.decode()
    assert all(c in text for c in ("run", "list", "describe", "serve", "mcp"))


# How a test takes standard output away, and the reason the error line gives.
_UNWRITABLE = {
    "full": ("/dev/full", "No space left on device"),
    "closed": ("", "standard output is closed"),
}


@pytest.mark.parametrize("stdout", sorted(_UNWRITABLE))
@pytest.mark.parametrize(
    "args",
    [
        ("list",),
        ("describe", "chrf-compute", "1.0.0"),
        ("score", "-H", "{ref}", "-r", "{ref}", "-m", "bleu", "chrf", "--segments"),
        ("sacrebleu", "{ref}", "-i", "{ref}"),
        ("compare", "--baseline", "{hyp}", "-H", "{ref}", "-r", "{ref}"),
    ],
    ids=["list", "describe", "score", "sacrebleu", "compare"],
)
def test_output_that_cannot_be_written_is_one_error_line(
    args: tuple[str, ...], stdout: str
) -> None:
    """Standard output on /dev/full (no space left), or closed (``>&-``: Python's
    ``sys.stdout`` is None): exit 1 and one line saying so, no traceback (a command writes
    only to standard output)."""
    folder = WMT / "generaltest2022" / "en-de"
    ref, hyp = str(folder / "ref.A.txt"), str(folder / "sys.Online-B.txt")
    target, reason = _UNWRITABLE[stdout]
    redirect = f">{target}" if target else ">&-"
    proc = subprocess.run(
        [
            "sh",
            "-c",
            f'"$@" {redirect}',
            "sh",
            *cli_command(),
            *(a.format(ref=ref, hyp=hyp) for a in args),
        ],
        stderr=subprocess.PIPE,
        timeout=120,
        check=False,
    )
    assert (1, f"mtcompute: error: cannot write the output: {reason}\n".encode()) == (
        proc.returncode,
        proc.stderr,
    )
