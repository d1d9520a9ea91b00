"""The documentation's examples are tests: every Python block and every shown command of the
README and docs/*.md gives what the page says.

Python blocks (```python) run one by one, each in a fresh namespace holding :func:`given`'s
names (the ones the pages use without defining them: the README's two-segment example and a
few WMT sample segments), in a temporary directory holding the files they open. A bare
expression whose trailing comment is a *shown value* is evaluated and compared with it:

- the comment, or its part after the last ``": "`` (``# chrF++: 73.22620686250244``), that
  parses as a Python literal is compared by exact equality (``==``, and the same repr, so
  ``3`` is not ``3.0`` even inside a tuple); a float is shown with every digit of its repr
  (``57.51117527863729``) or rounded by the call itself (``decimals=10``), so equality of the
  value is what the page promises;
- a shown value with ``...`` (``b'{"result":...}'``, ``0.1666..., EditCounts(hits=5, ...)``)
  is matched against the value's repr (a tuple's items joined by ``", "``, as a REPL line
  without parentheses), each ``...`` standing for any text and the rest exact: ``16.66...``
  promises the repr's leading digits;
- ``print(x)  # text`` compares what it prints with the text, ``...`` as above.

Other comments are prose; a prose comment of a run block may not carry a decimal number (a
number there would be a value no test checks). A block that downloads test sets gets them
from a loopback server (:data:`SERVED_TESTSETS`). A block that needs optional libraries
(torch, evaluate, pandas) names them in :data:`NEEDS`: skipped without them, which the CI
does not allow (it installs them, and a skip fails there). Blocks that cannot run here at all
are listed in :data:`NOT_RUN` with the reason; no block is skipped silently.

Command examples: every ``$ mtcompute ...`` line of a ```sh or ```console block followed by
output runs as a subprocess (``echo '...' | mtcompute ...`` feeds the echoed text on stdin) in
a temporary directory where the pages' illustrative names (``sys.txt``, ``ref.txt``,
``refA.txt``, ``refB.txt``) are the in-repo WMT sample's files (:data:`ILLUSTRATIVE`), or in the
sample folder an example names (:data:`WORKDIRS`); its exit status is 0 and its stdout is the
shown output exactly (``...`` as above). ``$ curl -s http://127.0.0.1:8000/...`` lines are
fetched from the suite's live server (the ``server_url`` fixture). A shown JSON output is
wrapped and spaced for the page: the whitespace at its line breaks and after ``,`` ``:``
``[`` ``{`` is dropped from both sides before the comparison (:func:`unwrapped`). Every
``mtcompute`` line of a shell block, shown output or not, is taken by the command's parser (a
renamed or removed option fails).
"""

from __future__ import annotations

import ast
import contextlib
import importlib
import io
import os
import re
import shlex
import shutil
import subprocess
import tempfile
import tokenize
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

import mtcompute
from mtcompute import testsets
from mtcompute.cli import build_parser
from tests.conftest import (
    ISSUE_HYPOTHESES,
    ISSUE_REFERENCES,
    REPO,
    SAMPLE_WMT,
    cli_command,
)
from tests.test_docs import README, tracked_files
from tests.testsets import world as testsets_world

EN_DE = SAMPLE_WMT / "generaltest2022" / "en-de"
ZH_EN = SAMPLE_WMT / "generaltest2022" / "zh-en"

# The pages' illustrative file names, as the in-repo sample's files (the README says which).
ILLUSTRATIVE = {
    "sys.txt": EN_DE / "sys.Online-B.txt",
    "ref.txt": EN_DE / "ref.A.txt",
    "refA.txt": EN_DE / "ref.A.txt",
    "refB.txt": EN_DE / "ref.B.txt",
}

# Command examples run in a sample folder (page, a piece of the command): its files by name.
WORKDIRS = {("docs/cli.md", "-b sys.HuaweiTSC.txt"): ZH_EN}

# Python blocks not run (page, the block's first line without its comment): why.
NOT_RUN = {
    ("docs/scale.md", "from distributed import Client"): (
        "needs a Dask cluster at tcp://head:8786 and an s3 bucket (tests/metrics covers the "
        "Dask engine on a local cluster)"
    ),
}

# Python blocks that need optional libraries (page, first line): the modules, imported or
# skipped; a skip fails the CI, which installs them (.ci/run: torchmetrics, evaluate, pandas).
NEEDS = {
    ("docs/library.md", "from mtcompute.adapters.torchmetrics import BLEU, CHRF, TER, WER"): (
        "torch",
        "torchmetrics",
        "evaluate",
        "pandas",
    ),
}

# Python blocks that download test sets (page, first line): the test sets they name, served
# from 127.0.0.1 (tests/testsets/world.py) with the cache in the temporary directory.
SERVED_TESTSETS = {
    ("docs/library.md", "from mtcompute import testsets"): {
        "wmt22": ("en-de",),
        "wmt20": ("de-en",),
    }
}


@dataclass(frozen=True)
class Block:
    """One fenced code block: its page, the line of its first content line, its language."""

    page: str
    line: int
    lang: str
    lines: tuple[str, ...]


def pages() -> list[str]:
    """The README and the MkDocs pages, as repository paths."""
    docs = [name for name in tracked_files("docs") if name.endswith(".md")]
    return [README.relative_to(REPO).as_posix(), *sorted(docs)]


def blocks(page: str) -> Iterator[Block]:
    """The fenced code blocks of one page, in order."""
    lines = (REPO / page).read_text(encoding="utf-8").splitlines()
    index = 0
    while index < len(lines):
        fence = re.fullmatch(r"\s*```(\w*)\s*", lines[index])
        if fence is None:
            index += 1
            continue
        end = index + 1
        while not lines[end].strip().startswith("```"):
            end += 1
        yield Block(page, index + 2, fence.group(1), tuple(lines[index + 1 : end]))
        index = end + 1


ALL_BLOCKS = [block for page in pages() for block in blocks(page)]
PYTHON_BLOCKS = [block for block in ALL_BLOCKS if block.lang == "python"]


def block_key(block: Block) -> tuple[str, str]:
    """The block's key in :data:`NOT_RUN`, :data:`NEEDS` and :data:`SERVED_TESTSETS`: its
    page and first line, without the comment."""
    return block.page, block.lines[0].split("#", 1)[0].strip()


RUN_BLOCKS = [block for block in PYTHON_BLOCKS if block_key(block) not in NOT_RUN]


@contextlib.contextmanager
def served_testsets(block: Block, monkeypatch: pytest.MonkeyPatch, cache: Path) -> Iterator[None]:
    """The block's test sets served from 127.0.0.1, the registry pointed there (for this test
    only) and ``$SACREBLEU`` at ``cache``; nothing for a block that downloads none."""
    names = SERVED_TESTSETS.get(block_key(block))
    if names is None:
        yield
        return
    world = testsets_world.build(names)
    with testsets_world.serving(world):
        for name, entry in testsets_world.served_entries(world).items():
            monkeypatch.setitem(testsets.DATASETS, name, entry)
        monkeypatch.setenv("SACREBLEU", str(cache))
        yield


# --- shown values -------------------------------------------------------------------------

# How an elided shown value starts (a number, a string, bytes, a list, a tuple, a dict).
LITERAL_START = tuple("0123456789-'\"[({b")


def shown_value(comment: str) -> str | None:
    """The value a comment shows (the whole comment or its part after the last ``": "``), or
    None for prose."""
    text = comment.lstrip("#").strip()
    candidates = [text]
    if ": " in text:
        candidates.append(text.rsplit(": ", 1)[1].strip())
    for candidate in candidates:
        if "..." in candidate:
            if candidate.startswith(LITERAL_START):
                return candidate
            continue
        try:
            ast.literal_eval(candidate)
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            continue
        return candidate
    return None


def matches_elided(shown: str, actual: str) -> bool:
    """Whether ``actual`` is ``shown`` with each ``...`` standing for any text."""
    pattern = ".*?".join(re.escape(part) for part in shown.split("..."))
    return re.fullmatch(pattern, actual, flags=re.DOTALL) is not None


def as_shown(value: object) -> str:
    """A value as a REPL line shows it, a tuple without its parentheses."""
    if isinstance(value, tuple):
        return ", ".join(repr(item) for item in value)
    return repr(value)


def trailing_comments(source: str) -> dict[int, str]:
    """Each line's comment (1-based line numbers)."""
    tokens = tokenize.generate_tokens(io.StringIO(source).readline)
    return {tok.start[0]: tok.string for tok in tokens if tok.type == tokenize.COMMENT}


def is_print(node: ast.stmt) -> bool:
    """Whether the statement is a bare ``print(...)`` call."""
    return (
        isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Call)
        and isinstance(node.value.func, ast.Name)
        and node.value.func.id == "print"
    )


def given() -> dict[str, Any]:
    """The names the pages use without defining them."""
    hypotheses = list(ISSUE_HYPOTHESES)
    references = [list(refs) for refs in ISSUE_REFERENCES]
    refs_a, refs_b = ([refs[i] for refs in references] for i in (0, 1))
    segments = 20
    sample = {
        name: (EN_DE / f"{name}.txt").read_text(encoding="utf-8").splitlines()[:segments]
        for name in ("ref.A", "sys.Online-B", "sys.JDExploreAcademy", "sys.PROMT")
    }
    systems = [sample["sys.Online-B"], sample["sys.JDExploreAcademy"], sample["sys.PROMT"]]
    return {
        "mtcompute": mtcompute,
        "hypotheses": hypotheses,
        "references": references,
        "refs_a": refs_a,
        "refs_b": refs_b,
        "flat_references": refs_a,
        "hypothesis": hypotheses[0],
        "reference": refs_a[0],
        "token_lists": [hypothesis.split() for hypothesis in hypotheses],
        "reference_token_lists": [[ref.split() for ref in refs] for refs in references],
        "candidates": [*hypotheses, *refs_a],
        "systems": systems,
        "sys_a": systems[0],
        "sys_b": systems[1],
        "sys_c": systems[2],
        "refs": sample["ref.A"],
    }


@dataclass(frozen=True)
class Statement:
    """One top-level statement of a block, and the value its comment shows (if any)."""

    line: int
    node: ast.stmt
    shown: str | None


def statements(block: Block) -> list[Statement]:
    """The block's top-level statements with their shown values."""
    source = "\n".join(block.lines) + "\n"
    comments = trailing_comments(source)
    found = []
    for node in ast.parse(source).body:
        last = node.end_lineno or node.lineno
        comment = comments.get(last)
        shown = None
        if comment is not None and isinstance(node, ast.Expr):
            shown = comment.lstrip("#").strip() if is_print(node) else shown_value(comment)
        found.append(Statement(block.line + node.lineno - 1, node, shown))
    return found


NO_VALUE = object()


def check_shown(where: str, shown: str, actual: str, value: object = NO_VALUE) -> str | None:
    """A failure message, or None when ``actual`` (or ``value``) is what the page shows."""
    if "..." in shown:
        ok = matches_elided(shown, actual)
    elif value is NO_VALUE:
        ok = actual == shown
    else:
        literal = ast.literal_eval(shown)
        ok = literal == value and repr(literal) == repr(value)
    return None if ok else f"{where}: the page shows {shown}, the code gives {actual}"


@pytest.mark.parametrize("block", RUN_BLOCKS, ids=lambda b: f"{b.page}:{b.line}")
def test_python_example(block: Block, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each statement of the block runs, and each shown value is the value."""
    for name, source in ILLUSTRATIVE.items():
        shutil.copyfile(source, tmp_path / name)
    monkeypatch.chdir(tmp_path)
    needs = NEEDS.get(block_key(block), ())
    if "evaluate" in needs:
        # evaluate fixes its modules cache when imported: a temporary one, and never the
        # network (as tests/adapters/test_hf_evaluate.py sets them)
        os.environ.setdefault("HF_MODULES_CACHE", tempfile.mkdtemp(prefix="mtcompute-hf-"))
        os.environ.setdefault("HF_EVALUATE_OFFLINE", "1")
    for module in needs:
        pytest.importorskip(module)
    namespace = given()
    if "pandas" in needs:
        frame = {"sys": namespace["hypotheses"], "ref_a": namespace["refs_a"]}
        namespace["frame"] = importlib.import_module("pandas").DataFrame(
            {**frame, "ref_b": namespace["refs_b"]}
        )
    with served_testsets(block, monkeypatch, tmp_path / "cache"):
        failures = run_statements(block, namespace)
    assert [] == failures


def run_statements(block: Block, namespace: dict[str, Any]) -> list[str]:
    """Run the block's statements in ``namespace``; the shown values that differ."""
    failures = []
    for statement in statements(block):
        where = f"{block.page}:{statement.line}"
        if statement.shown is None:
            code = compile(ast.Module([statement.node], []), where, "exec")
            with contextlib.redirect_stdout(io.StringIO()):
                exec(code, namespace)
            continue
        assert isinstance(statement.node, ast.Expr)
        if is_print(statement.node):
            printed = io.StringIO()
            code = compile(ast.Module([statement.node], []), where, "exec")
            with contextlib.redirect_stdout(printed):
                exec(code, namespace)
            failure = check_shown(where, statement.shown, printed.getvalue().rstrip("\n"))
        else:
            expression = compile(ast.Expression(statement.node.value), where, "eval")
            value = eval(expression, namespace)
            failure = check_shown(where, statement.shown, as_shown(value), value)
        if failure is not None:
            failures.append(failure)
    return failures


def test_python_blocks_carry_no_unchecked_number() -> None:
    """A comment of a run block that no test compares carries no decimal number."""
    offenders = []
    for block in RUN_BLOCKS:
        source = "\n".join(block.lines) + "\n"
        checked = {statement.line for statement in statements(block) if statement.shown}
        for line, comment in trailing_comments(source).items():
            where = block.line + line - 1
            if where not in checked and re.search(r"\d\.\d", comment):
                offenders.append(f"{block.page}:{where}: {comment}")
    assert [] == offenders


def test_every_listed_block_exists() -> None:
    """Each block :data:`NOT_RUN`, :data:`NEEDS` and :data:`SERVED_TESTSETS` name is a block of
    its page (the lists do not go stale)."""
    keys = {block_key(block) for block in PYTHON_BLOCKS}
    listed = [*NOT_RUN, *NEEDS, *SERVED_TESTSETS]
    assert [] == [key for key in listed if key not in keys]


def test_examples_check_values() -> None:
    """The pages show values the tests compare (the parsing finds them)."""
    shown = [s for block in RUN_BLOCKS for s in statements(block) if s.shown is not None]
    assert len(shown) >= 10
    assert len(COMMAND_EXAMPLES) >= 5


# --- command examples ---------------------------------------------------------------------


@dataclass(frozen=True)
class Command:
    """One ``$ ...`` line (continuations joined) and the output shown under it."""

    page: str
    line: int
    command: str
    output: tuple[str, ...]


def commands(block: Block) -> Iterator[Command]:
    """The block's ``$`` lines that have output shown under them."""
    index = 0
    lines = block.lines
    while index < len(lines):
        if not lines[index].startswith("$ "):
            index += 1
            continue
        start = index
        command = lines[index][2:]
        while command.endswith("\\"):
            index += 1
            command = command[:-1] + " " + lines[index].strip()
        index += 1
        output = []
        while index < len(lines) and not lines[index].startswith("$ "):
            output.append(lines[index])
            index += 1
        while output and not output[-1].strip():
            output.pop()
        if output:
            yield Command(block.page, block.line + start, command, tuple(output))


COMMAND_EXAMPLES = [
    command
    for block in ALL_BLOCKS
    if block.lang in {"sh", "console"}
    for command in commands(block)
]


def unwrapped(shown: str, actual: str) -> tuple[str, str]:
    """A shown JSON output (one starting with ``{`` or ``[``) and the actual one without the
    whitespace the page adds to wrap it: at line breaks and after ``,`` ``:`` ``[`` ``{``; any
    other output as it is."""
    if not shown.startswith(("{", "[")):
        return shown, actual

    def squeeze(text: str) -> str:
        return re.sub(r"([,:\[{])\s+", r"\1", re.sub(r"\s*\n\s*", "", text))

    return squeeze(shown), squeeze(actual)


def workdir(command: Command, tmp_path: Path) -> Path:
    """The folder the command runs in: a sample folder it names, else ``tmp_path`` holding
    the illustrative files."""
    for (page, piece), folder in WORKDIRS.items():
        if page == command.page and piece in command.command:
            return folder
    for name, source in ILLUSTRATIVE.items():
        shutil.copyfile(source, tmp_path / name)
    return tmp_path


@pytest.mark.parametrize("example", COMMAND_EXAMPLES, ids=lambda c: f"{c.page}:{c.line}")
def test_command_example(example: Command, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    """The command exits 0 and prints the output the page shows."""
    where = f"{example.page}:{example.line}"
    stdin = None
    text = example.command
    if text.startswith("echo ") and " | " in text:
        echoed, text = text.split(" | ", 1)
        stdin = (shlex.split(echoed)[1] + "\n").encode()
    args = shlex.split(text, comments=True)
    if args[0] == "curl":
        server_url: str = request.getfixturevalue("server_url")
        url = args[-1].replace("http://127.0.0.1:8000", server_url)
        with urllib.request.urlopen(url, timeout=30) as response:
            body = response.read().decode()
        assert check_shown(where, *unwrapped("\n".join(example.output), body)) is None
        return
    assert args[0] == "mtcompute", f"{where}: not a mtcompute command: {text}"
    ran = subprocess.run(
        [*cli_command(), *args[1:]],
        input=stdin,
        capture_output=True,
        cwd=workdir(example, tmp_path),
        timeout=60,
        check=False,
    )
    shown, actual = unwrapped("\n".join(example.output), ran.stdout.decode().rstrip("\n"))
    assert (0, None) == (ran.returncode, check_shown(where, shown, actual)), ran.stderr.decode()


def test_every_workdir_names_one_example() -> None:
    """Each entry of :data:`WORKDIRS` picks exactly one command example."""
    counts = {
        key: sum(c.page == key[0] and key[1] in c.command for c in COMMAND_EXAMPLES)
        for key in WORKDIRS
    }
    assert dict.fromkeys(WORKDIRS, 1) == counts


# --- every command line parses --------------------------------------------------------------


@dataclass(frozen=True)
class CommandLine:
    """One ``mtcompute`` line of a shell block (with or without ``$``, shown output or not):
    its arguments after ``mtcompute``."""

    page: str
    line: int
    args: tuple[str, ...]


def command_lines(block: Block) -> Iterator[CommandLine]:
    """The block's ``mtcompute`` command lines (continuations joined; of a pipeline its last
    command, without an output redirection)."""
    index = 0
    while index < len(block.lines):
        start = index
        text = block.lines[index]
        while text.endswith("\\"):
            index += 1
            text = text[:-1] + " " + block.lines[index].strip()
        index += 1
        text = text.removeprefix("$ ").split(" | ")[-1].split(" > ")[0]
        args = shlex.split(text, comments=True)
        if args and args[0] == "mtcompute":
            yield CommandLine(block.page, block.line + start, tuple(args[1:]))


COMMAND_LINES = [
    line for block in ALL_BLOCKS if block.lang in {"sh", "console"} for line in command_lines(block)
]


@pytest.mark.parametrize("command", COMMAND_LINES, ids=lambda c: f"{c.page}:{c.line}")
def test_command_line_parses(command: CommandLine) -> None:
    """The command's options are the command's: its parser takes the line (what a line
    without shown output can be checked for here: its files and test sets are illustrative)."""
    errors = io.StringIO()
    try:
        with contextlib.redirect_stderr(errors), contextlib.redirect_stdout(io.StringIO()):
            build_parser().parse_args(command.args)
    except SystemExit as exit_:
        pytest.fail(f"{command.page}:{command.line}: exit {exit_.code}: {errors.getvalue()}")
