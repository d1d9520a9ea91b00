"""The C kernel's sources and build: the folder ``src/mtcompute/_kernel/``, one file per
concern, built by setup.py from every file of the folder.

Under ``MTCOMPUTE_REQUIRE_ALL=1`` (CI) the kernel must have been built: setup.py only warns
when it does not compile (a warning under ``-Werror`` included), and this is the check that
turns that into a failure.
"""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sysconfig
from pathlib import Path

import pytest

from mtcompute import native
from tests.conftest import REPO, REQUIRE_ALL, require_program

KERNEL = REPO / "src" / "mtcompute" / "_kernel"
SOURCES = sorted(KERNEL.glob("*.c"))
FILES = sorted([*SOURCES, *KERNEL.glob("*.h")])


def setup_constant(name: str) -> object:
    """The literal value assigned to ``name`` at the top level of setup.py."""
    tree = ast.parse((REPO / "setup.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == [
            name
        ]:
            return ast.literal_eval(node.value)
    raise AssertionError(f"setup.py assigns no {name}")


def test_kernel_is_built_in_ci() -> None:
    """Under MTCOMPUTE_REQUIRE_ALL=1 the kernel was built and loads (unless the build was
    skipped on purpose with MTCOMPUTE_NO_EXTENSION=1)."""
    if not REQUIRE_ALL or os.environ.get("MTCOMPUTE_NO_EXTENSION") == "1":
        pytest.skip("only checked under MTCOMPUTE_REQUIRE_ALL=1 with the extension asked for")
    assert (True, True) == (native.AVAILABLE, native.ext is not None)


def test_the_folder_holds_the_kernel() -> None:
    """The kernel is a folder of C files and one internal header, with a module file."""
    names = {path.name for path in FILES}
    assert {"module.c", "common.h"} <= names
    assert len(SOURCES) >= 10


@pytest.mark.parametrize("path", SOURCES, ids=lambda path: path.name)
def test_each_file_opens_with_what_and_its_twin(path: Path) -> None:
    """Each C file opens with a comment naming the file, what it computes and its Python
    twin (or that it has none)."""
    text = path.read_text(encoding="utf-8")
    head = text[: text.index("*/")]
    assert (True, True) == (
        text.startswith(f"/*\n * {path.name}: "),
        bool(re.search(r"Python twins?:|no Python twin|Python side:", head)),
    )


@pytest.mark.parametrize("path", FILES, ids=lambda path: path.name)
def test_each_file_is_under_1500_lines(path: Path) -> None:
    """No kernel file reaches 1,500 lines."""
    lines = path.read_text(encoding="utf-8").count("\n")
    assert (path.name, lines < 1500) == (path.name, True)


def test_only_the_module_init_is_exported() -> None:
    """The built kernel exports one function, PyInit__kernel: the functions its files share
    are hidden (MTK_INTERNAL, -fvisibility=hidden), the others static."""
    if not native.AVAILABLE:
        pytest.skip("built without the C kernel")
    nm = require_program("nm")
    out = subprocess.run(
        [nm, "-D", "--defined-only", native.ext.__file__],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    functions = [line.split()[-1] for line in out.splitlines() if line.split()[1:2] == ["T"]]
    assert ["PyInit__kernel"] == functions


def test_setup_builds_warnings_as_errors() -> None:
    """setup.py compiles the kernel with -Wall -Wextra -Werror, no fused multiply-adds and
    hidden symbols."""
    flags = setup_constant("KERNEL_FLAGS")
    assert isinstance(flags, list)
    expected = ["-Wall", "-Wextra", "-Werror", "-ffp-contract=off", "-fvisibility=hidden"]
    assert expected == [flag for flag in expected if flag in flags]


def test_clang_format_is_clean() -> None:
    """Every kernel file is formatted as the checked-in .clang-format says."""
    clang_format = require_program("clang-format")
    done = subprocess.run(
        [clang_format, "--dry-run", "--Werror", *map(str, FILES)],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
    )
    assert (0, "") == (done.returncode, done.stderr[:2000])


@pytest.mark.parametrize("defines", [[], ["-DMTK_PORTABLE_U128"]], ids=["native", "portable"])
@pytest.mark.parametrize("path", SOURCES, ids=lambda path: path.name)
def test_each_file_compiles_without_a_warning(path: Path, defines: list[str]) -> None:
    """Each C file compiles with setup.py's flags (-Wall -Wextra -Werror among them), so a
    warning fails the suite as it fails the build; and so does the portable path that MSVC
    builds (u128.h without unsigned __int128 and builtins, -DMTK_PORTABLE_U128)."""
    cc = require_program("cc")
    flags = setup_constant("KERNEL_FLAGS")
    assert isinstance(flags, list)
    include = sysconfig.get_paths()["include"]
    done = subprocess.run(
        [cc, "-fsyntax-only", *defines, *flags, f"-I{include}", f"-I{KERNEL}", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert (0, "") == (done.returncode, done.stderr[:2000])
