"""Start-up: the package front imports no submodule, and a command imports what it uses.

Each check runs a fresh process that writes its ``sys.modules`` to standard error at exit
(:func:`imported`), so that a module imported through importlib is seen too. Timings are
benchmark rows (benchmarks/run.py, "start-up"), not tests.
"""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys
from pathlib import Path

import pytest

import mtcompute
from mtcompute.cli import COMMANDS
from tests.conftest import REPO, cli_command, run_python

# Never needed to import the package, print the help or score a file pair.
HEAVY = (
    "numpy",
    "jinja2",
    "starlette",
    "uvicorn",
    "mcp",
    "pydantic",
    "anyio",
    "dask",
    "distributed",
    "sqlite3",
    "regex",
    "mtcompute.server",
    "mtcompute.significance",
    "mtcompute.tools",
    "mtcompute.sacrebleu",
    "mtcompute.search",
    "mtcompute.report.page",
    "mtcompute.dask",
    "tabulate",
)
# What computes a score: not needed to print the help.
METRICS = ("mtcompute.batch", "mtcompute.metrics", "mtcompute.counting", "mtcompute._execute")
# What runs score and sacrebleu, imported by their run(): the parsers need none of it.
SCORE_RUN = (
    "mtcompute.cli._score_run",
    "mtcompute.cli._score_chunks",
    "mtcompute.cli._score_tests",
    "mtcompute.cli._files",
    "mtcompute.cli._cluster",
)
SACREBLEU_RUN = (
    "mtcompute.cli._sacrebleu_run",
    "mtcompute.cli._sacrebleu_output",
    "tabulate",  # the multi-system table's, imported only to print one
)
# The standard library's dataclasses (with inspect): only the run modules define dataclasses.
RUN_ONLY = ("dataclasses", "inspect")


# Run first in the process: at exit, its sys.modules on standard error. It holds every module
# imported by any means (``-X importtime`` shows no module importlib.import_module imports).
_REPORT = (
    "import atexit, sys\n"
    "atexit.register(lambda: sys.stderr.write('\\nmodules: ' + ' '.join(sys.modules) + '\\n'))\n"
)


def imported(command: list[str], cwd: Path = REPO) -> set[str]:
    """The modules a process running ``command`` (``python -c CODE``, ``python -m MODULE`` or
    a console script, with their arguments) has imported when it exits (it must exit 0)."""
    if command[:2] == [sys.executable, "-c"]:
        code, argv = command[2], ["-c", *command[3:]]
    elif command[:2] == [sys.executable, "-m"]:
        code = f"import runpy; runpy.run_module({command[2]!r}, run_name='__main__')"
        argv = command[2:]
    else:
        code = f"import runpy; runpy.run_path({command[0]!r}, run_name='__main__')"
        argv = command
    done = run_python(f"{_REPORT}sys.argv = {argv!r}\n{code}", cwd=cwd)
    assert 0 == done.returncode, done.stderr[-2000:]
    (report,) = (line for line in done.stderr.splitlines() if line.startswith("modules: "))
    return set(report.split()[1:])


def among(modules: set[str], names: tuple[str, ...]) -> list[str]:
    """The modules that are one of ``names`` or inside one of them, sorted."""
    return sorted(m for m in modules if any(m == n or m.startswith(n + ".") for n in names))


def test_the_import_check_sees_what_it_looks_for() -> None:
    """A process that imports the batch APIs is seen importing them, and so is a module
    imported through importlib (the package front's and the command line's way)."""
    modules = imported([sys.executable, "-c", "import mtcompute.batch"])
    assert ["mtcompute.batch"] == among(modules, ("mtcompute.batch",))
    assert "mtcompute" in modules
    code = "import importlib; importlib.import_module('mtcompute.errors')"
    assert "mtcompute.errors" in imported([sys.executable, "-c", code])
    assert "mtcompute.errors" not in imported([sys.executable, "-c", "import mtcompute"])


def test_import_mtcompute_imports_no_submodule() -> None:
    """``import mtcompute`` loads the package front and its version, nothing else of it."""
    modules = imported([sys.executable, "-c", "import mtcompute"])
    assert ["mtcompute", "mtcompute._version"] == among(modules, ("mtcompute",))
    assert [] == among(modules, HEAVY)


def test_help_imports_no_tool_server_or_metric() -> None:
    """``mtcompute --help`` builds the parser without the tools, the server, numpy or the
    metrics."""
    modules = imported([*cli_command(), "--help"])
    assert "mtcompute.cli.score" in modules
    assert [] == among(modules, HEAVY + METRICS)


@pytest.mark.parametrize("command", [["--help"], ["score", "--help"], ["sacrebleu", "--help"]])
def test_help_imports_no_run_module(command: list[str]) -> None:
    """The help of ``mtcompute`` and of its commands imports only the parsers: none of the
    modules that ``score`` and ``sacrebleu`` run (reading, scoring, printing), no
    dataclasses."""
    modules = imported([*cli_command(), *command])
    # The whole parser for mtcompute's help; a command's own parser for its help.
    parsers = {"mtcompute.cli.score", "mtcompute.cli.sacrebleu"}
    assert parsers & modules == (
        parsers if command == ["--help"] else {f"mtcompute.cli.{command[0]}"}
    )
    assert [] == among(modules, SCORE_RUN + SACREBLEU_RUN + RUN_ONLY)


def test_score_help_imports_no_metric() -> None:
    """``mtcompute score --help`` imports no metric either."""
    modules = imported([*cli_command(), "score", "--help"])
    assert [] == among(modules, HEAVY + METRICS)


@pytest.mark.parametrize("metric", ["bleu", "chrf"])
def test_score_imports_no_numpy_server_or_report(metric: str, tmp_path: Path) -> None:
    """``mtcompute score`` on a small file pair imports the metric it runs and no other,
    and no numpy, server, Jinja2, tool, significance test or sacreBLEU facade."""
    (tmp_path / "hyp.txt").write_text("The cat sat.\nA dog barked.\n", encoding="utf-8")
    (tmp_path / "ref.txt").write_text("The cat sat down.\nA dog barked.\n", encoding="utf-8")
    command = [*cli_command(), "score", "-H", "hyp.txt", "-r", "ref.txt", "-m", metric]
    modules = imported(command, cwd=tmp_path)
    other = {"bleu": "chrf", "chrf": "bleu"}[metric]
    assert f"mtcompute.metrics.{metric}.corpus" in modules
    assert [] == among(
        modules, (f"mtcompute.metrics.{other}.corpus", "mtcompute.metrics.ter", "mtcompute.batch")
    )
    assert [] == among(modules, HEAVY)
    assert {"mtcompute.cli._score_run", "mtcompute.cli._files"} <= modules
    assert [] == among(modules, SACREBLEU_RUN)
    # Its own parser only: no other command's module, nor the help's text wrapping.
    others = tuple(f"mtcompute.cli.{name}" for name in COMMANDS if name != "score")
    assert [] == among(modules, (*others, "textwrap"))


# What checks the library's arguments: the score command reads its own files and builds its
# options itself, so its chrF and BLEU runs (the undecoded lines, the results added up) need
# none of it, nor json (the contracts' documents, sacreBLEU's JSON score line).
ARGUMENTS = ("mtcompute.metrics._arguments", "mtcompute.contracts", "json")


@pytest.mark.parametrize("metric", ["bleu", "chrf"])
def test_score_imports_no_argument_layer(metric: str, tmp_path: Path) -> None:
    """``mtcompute score`` on a file pair imports neither the library API's argument checks
    (:mod:`mtcompute.metrics._arguments`) nor the validation layer and the contracts
    (:mod:`mtcompute.contracts`), nor json; nor, without a test asked for, the significance
    tests' module."""
    (tmp_path / "hyp.txt").write_text("The cat sat.\nA dog barked.\n", encoding="utf-8")
    (tmp_path / "ref.txt").write_text("The cat sat down.\nA dog barked.\n", encoding="utf-8")
    command = [*cli_command(), "score", "-H", "hyp.txt", "-r", "ref.txt", "-m", metric]
    modules = imported(command, cwd=tmp_path)
    assert f"mtcompute.metrics.{metric}.corpus" in modules
    assert [] == among(modules, ARGUMENTS)
    assert "mtcompute.cli._score_tests" not in modules


def test_sacrebleu_imports_its_run_modules_not_score_s(tmp_path: Path) -> None:
    """``mtcompute sacrebleu`` on a small file pair imports its own run modules and none of
    ``score``'s but the segment files' reader; chrF++ under sacreBLEU's rules splits its
    words without the seed contracts' exact core (and its Fractions)."""
    (tmp_path / "hyp.txt").write_text("The cat sat.\nA dog barked.\n", encoding="utf-8")
    (tmp_path / "ref.txt").write_text("The cat sat down.\nA dog barked.\n", encoding="utf-8")
    command = [
        *cli_command(),
        "sacrebleu",
        "ref.txt",
        "-i",
        "hyp.txt",
        "-m",
        "chrf",
        "--chrf-word-order",
        "2",
    ]
    modules = imported(command, cwd=tmp_path)
    assert {"mtcompute.cli._sacrebleu_run", "mtcompute.cli._sacrebleu_output"} <= modules
    assert "mtcompute.metrics.chrf.words" in modules
    assert [] == among(modules, tuple(m for m in SCORE_RUN if m != "mtcompute.cli._files"))
    assert [] == among(modules, ("tabulate", "mtcompute.metrics.chrf.ngrams", "fractions"))


@pytest.mark.parametrize(("options", "loaded"), [([], False), (["--list"], True)])
def test_sacrebleu_loads_the_test_sets_only_to_use_them(
    options: list[str], loaded: bool, tmp_path: Path
) -> None:
    """The test sets' registry and downloader load for a command that names a test set
    (``--list`` here), not for one scoring files."""
    (tmp_path / "hyp.txt").write_text("The cat sat.\n", encoding="utf-8")
    (tmp_path / "ref.txt").write_text("The cat sat down.\n", encoding="utf-8")
    files = [] if options else ["ref.txt", "-i", "hyp.txt"]
    command = [*cli_command(), "sacrebleu", *files, *options, "-m", "bleu"]
    modules = imported(command, cwd=tmp_path)
    assert options or "mtcompute.sacrebleu.metrics.bleu" in modules  # the files were scored
    assert loaded == bool(among(modules, ("mtcompute.testsets", "mtcompute.downloads")))


def test_the_facade_loads_the_test_sets_when_first_used() -> None:
    """``import mtcompute.sacrebleu`` loads no test set; ``DATASETS`` and the test-set
    functions come when first used, the same objects as :mod:`mtcompute.testsets`'."""
    code = (
        "import sys, mtcompute.sacrebleu as s\n"
        "assert 'mtcompute.testsets' not in sys.modules\n"
        "from mtcompute import testsets\n"
        "from mtcompute.sacrebleu.utils import filter_subset\n"
        "assert s.DATASETS is testsets.DATASETS and filter_subset is testsets.filter_subset\n"
        "assert s.get_langpairs_for_testset('wmt22')[:2] == ['cs-en', 'cs-uk']\n"
        "try:\n    s.NO_SUCH_NAME\nexcept AttributeError as e:\n    print(e)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert done.stdout == "module 'mtcompute.sacrebleu' has no attribute 'NO_SUCH_NAME'\n"


@pytest.mark.parametrize(("systems", "fmt", "table"), [(2, "json", False), (2, "text", True)])
def test_sacrebleu_imports_tabulate_only_for_a_table(
    systems: int, fmt: str, table: bool, tmp_path: Path
) -> None:
    """``mtcompute sacrebleu`` imports tabulate only to print the multi-system table (one
    system prints a line, several in JSON a list)."""
    hyps = [f"hyp{i}.txt" for i in range(systems)]
    for hyp in hyps:
        (tmp_path / hyp).write_text("The cat sat.\nA dog barked.\n", encoding="utf-8")
    (tmp_path / "ref.txt").write_text("The cat sat down.\nA dog barked.\n", encoding="utf-8")
    command = [*cli_command(), "sacrebleu", "ref.txt", "-i", *hyps, "-m", "chrf", "-f", fmt]
    modules = imported(command, cwd=tmp_path)
    assert table == ("tabulate" in modules)


def _stub_imports() -> dict[str, str]:
    """Name -> module of the imports of ``mtcompute/__init__.pyi`` (what mypy reads)."""
    tree = ast.parse((REPO / "src" / "mtcompute" / "__init__.pyi").read_text(encoding="utf-8"))
    return {
        alias.asname or alias.name: str(node.module)
        for node in tree.body
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
    }


def test_the_lazy_table_matches_the_stub() -> None:
    """The table of name -> module and the stub mypy reads list the same names, every name of
    ``__all__`` but ``__version__``, each re-exported (``import name as name``)."""
    public = sorted(set(mtcompute.__all__) - {"__version__"})
    stub = ast.parse((REPO / "src" / "mtcompute" / "__init__.pyi").read_text(encoding="utf-8"))
    aliases = [a for node in stub.body if isinstance(node, ast.ImportFrom) for a in node.names]
    assert public == sorted(_stub_imports())
    assert _stub_imports() == mtcompute._SOURCES
    assert [] == [alias.name for alias in aliases if alias.asname != alias.name]


def test_importing_the_package_imports_no_typing() -> None:
    """``import mtcompute`` alone loads neither ``typing`` nor any module of the package but
    its version: the names come on first use."""
    code = (
        "import sys; import mtcompute; "
        "print(sorted(m for m in sys.modules if m == 'typing' or m.startswith('mtcompute')))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert "['mtcompute', 'mtcompute._version']" == out.strip()


@pytest.mark.parametrize("name", mtcompute.__all__)
def test_every_public_name_resolves_to_its_defining_module(name: str) -> None:
    """Each name of ``__all__`` is the very object its module defines, and ``dir`` lists
    it."""
    module = mtcompute._SOURCES.get(name, "mtcompute._version")
    assert getattr(importlib.import_module(module), name) is getattr(mtcompute, name)
    assert name in dir(mtcompute)


def test_an_unknown_name_is_an_attribute_error() -> None:
    """A name outside the public API raises AttributeError, naming the module and the name."""
    with pytest.raises(AttributeError) as raised:
        _ = mtcompute.nope
    assert "module 'mtcompute' has no attribute 'nope'" == str(raised.value)


def test_from_import_works_in_a_fresh_process() -> None:
    """``from mtcompute import corpus_bleu, execute`` works first thing in a process."""
    code = "from mtcompute import corpus_bleu, execute; print(corpus_bleu.__module__)"
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    assert "mtcompute.metrics.bleu.corpus\n" == done.stdout
