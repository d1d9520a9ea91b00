"""The package's shape: layers that only point down, no import cycle, no markup in Python
strings, and none of the retired start-up machinery."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from tests.conftest import REPO

PACKAGE = REPO / "src" / "mtcompute"

# Lower layers first; a module may import its own layer and the ones before it, never after.
LAYERS: tuple[tuple[str, ...], ...] = (
    (
        "mtcompute.errors",
        "mtcompute.downloads",
        "mtcompute.native",
        "mtcompute._version",
        "mtcompute._ranges",
        "mtcompute.streaming",
        "mtcompute.tokenizer_names",
    ),
    ("mtcompute.core",),
    (
        "mtcompute.counting",
        "mtcompute.metrics",
        "mtcompute.contracts",
        "mtcompute.tokenizers",
        "mtcompute.spm",
        "mtcompute.significance",
    ),
    ("mtcompute.tools", "mtcompute.batch"),
    (
        "mtcompute._execute",
        "mtcompute.envelope",
        "mtcompute.catalog",
        "mtcompute.catalog_text",
        "mtcompute.client",
        "mtcompute.search",
        "mtcompute._search_terms",
    ),
    ("mtcompute",),
    (
        "mtcompute.server",
        "mtcompute.sacrebleu",
        "mtcompute.testsets",
        "mtcompute.report",
        "mtcompute.dask",
        "mtcompute._dask_files",
        "mtcompute.adapters",
    ),
    # the entry points: `python -m mtcompute.sacrebleu` runs the `mtcompute sacrebleu` command
    ("mtcompute.cli", "mtcompute.__main__", "mtcompute.sacrebleu.__main__"),
)


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}
EXTENSIONS = {"mtcompute._kernel"}  # compiled from _kernel.c


def _layer(module: str) -> int:
    """The index of the layer a module belongs to (the longest matching prefix)."""
    best, found = -1, -1
    for index, names in enumerate(LAYERS):
        for name in names:
            if (module == name or module.startswith(name + ".")) and len(name) > best:
                best, found = len(name), index
    assert found >= 0, f"{module} is in no layer: add it to LAYERS"
    return found


def _imports(module: str) -> set[str]:
    """The package's modules that ``module`` imports by name, anywhere in its source."""
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            # `from a import b` imports the module a.b when there is one, else a name of a
            submodules = [f"{node.module}.{alias.name}" for alias in node.names]
            names = [m if m in MODULES or m in EXTENSIONS else node.module for m in submodules]
        else:
            continue
        found |= {name for name in names if name in MODULES and name != module}
    return found


GRAPH = {module: _imports(module) for module in MODULES}


@pytest.mark.parametrize("module", sorted(MODULES))
def test_a_module_imports_only_its_layer_and_those_below(module: str) -> None:
    """No import points up the layers (the core imports nothing above it, the kernel wrapper
    nothing of the package, the tools and the batch APIs no adapter, ...)."""
    upward = sorted(target for target in GRAPH[module] if _layer(target) > _layer(module))
    assert [] == upward


def test_the_kernel_wrapper_is_a_leaf() -> None:
    """mtcompute.native imports nothing of the package but the extension itself."""
    assert set() == GRAPH["mtcompute.native"]


def test_no_import_cycle() -> None:
    """The import graph of the package's modules has no cycle."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    cycles: list[list[str]] = []

    def visit(module: str, path: list[str]) -> None:
        state[module] = 1
        for target in sorted(GRAPH[module]):
            if state.get(target) == 1:
                cycles.append([*path[path.index(target) :], target])
            elif target not in state:
                visit(target, [*path, target])
        state[module] = 2

    for module in sorted(GRAPH):
        if module not in state:
            visit(module, [module])
    assert [] == cycles


HTML_TAG = re.compile(
    r"</?(?:html|head|body|div|p|a|ul|ol|li|code|pre|h[1-6]|table|tr|td|th|span|script|style"
    r"|form|input|button|label|section|nav|header|footer|main|br|meta|link|textarea|select"
    r"|option|details|summary|svg)\b[^<>]*>",
    re.IGNORECASE,
)


@pytest.mark.parametrize("module", sorted(MODULES))
def test_no_markup_in_python_strings(module: str) -> None:
    """Markup lives in server/templates/: no string literal of the package holds an HTML tag."""
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    tagged = [
        node.value[:60]
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and HTML_TAG.search(node.value)
    ]
    assert [] == tagged


RETIRED = re.compile(r"\bclass \w+\(Record\)|\bparse_fast\b|^TYPE_CHECKING = False", re.M)


@pytest.mark.parametrize("module", sorted(MODULES))
def test_no_retired_start_up_machinery(module: str) -> None:
    """None of the hand-made Record base, the second command-line parser or the
    ``TYPE_CHECKING = False`` idiom is back."""
    assert [] == RETIRED.findall(MODULES[module].read_text(encoding="utf-8"))


def test_the_checks_see_what_they_look_for() -> None:
    """The markup and layer checks can fail: a tag is found, an upward import is seen."""
    assert HTML_TAG.search('<p class="lead">')
    assert not HTML_TAG.search("<stdin>")
    assert _layer("mtcompute.cli.score") > _layer("mtcompute.metrics.chrf.ngrams")
    assert "mtcompute.metrics.chrf.ngrams" in GRAPH["mtcompute.metrics.chrf.statistics"]


def _asks_the_path(source: str) -> list[str]:
    """The calls and names in code (not docstrings) that ask which path runs."""
    tree = ast.parse(source)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute | ast.Name):
            name = node.func.attr if isinstance(node.func, ast.Attribute) else node.func.id
            if name in {"kernel_in_use", "active"}:
                found.append(name)
        elif isinstance(node, ast.Attribute | ast.Name):
            name = node.attr if isinstance(node, ast.Attribute) else node.id
            if name in {"_use_kernel", "use_kernel"}:
                found.append(name)
    return found


@pytest.mark.parametrize("module", sorted(set(MODULES) - {"mtcompute.native"}))
def test_no_call_site_asks_kernel_or_pure(module: str) -> None:
    """The kernel or the pure path is chosen once, in mtcompute.native: no other module asks
    which path runs (its twins are bound to the chosen one)."""
    assert [] == _asks_the_path(MODULES[module].read_text(encoding="utf-8"))


def test_the_path_check_sees_a_call_site_that_asks() -> None:
    """The check finds a call site that asks, in any of the forms it looks for."""
    source = "if native.kernel_in_use() and active() and native._use_kernel:\n    pass\n"
    assert ["kernel_in_use", "active", "_use_kernel"] == sorted(
        _asks_the_path(source), key=["kernel_in_use", "active", "_use_kernel"].index
    )
