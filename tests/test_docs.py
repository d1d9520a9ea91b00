"""The documentation: the MkDocs site builds strictly, the README stays short and opens with
the two commands, the architecture page lists every module, and no file points outside the
repository."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO

README = REPO / "README.md"
ARCHITECTURE = REPO / "docs" / "architecture.md"
PACKAGE = "src/mtcompute/"
# The two files allowed to name the folder beside the repository: CI's entry point and the
# test data locator. Spelled in pieces so that this file does not name it either.
OUTSIDE = ("../" + "shared", "CONTRACT" + "-NOTES")
MAY_POINT_OUTSIDE = {".ci/run", "tests/conftest.py"}


def tracked_files(*paths: str) -> list[str]:
    """The files git tracks under ``paths`` (the whole repository without any)."""
    try:
        listing = subprocess.run(
            ["git", "ls-files", "-z", "--", *paths],
            cwd=REPO,
            capture_output=True,
            check=True,
        )
    except (OSError, subprocess.CalledProcessError) as error:
        pytest.skip(f"git ls-files does not run here: {error}")
    return [name for name in listing.stdout.decode().split("\0") if name]


def test_mkdocs_build_is_strict_clean(tmp_path: Path) -> None:
    """`mkdocs build --strict` builds the site with no warning."""
    if importlib.util.find_spec("mkdocs") is None:
        pytest.skip("mkdocs is not installed (the docs extra: pip install -e '.[docs]')")
    build = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path)],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
    )
    assert (0, True) == (build.returncode, (tmp_path / "index.html").is_file()), build.stderr


def test_readme_is_under_200_lines() -> None:
    """The README has fewer than 200 lines; the rest lives in docs/."""
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) < 200


def test_readme_opens_with_the_two_commands() -> None:
    """The README's first code block, before any section, is `make serve` then `make test`."""
    text = README.read_text(encoding="utf-8")
    opening = text.split("\n## ", 1)[0]
    block = opening.split("```sh\n", 1)[1].split("```", 1)[0]
    assert ["make serve", "make test"] == [
        line.split("#")[0].strip() for line in block.splitlines()
    ]


def test_readme_links_exist() -> None:
    """Every relative link of the README names a file of the repository."""
    text = README.read_text(encoding="utf-8")
    targets = re.findall(r"\]\(([^)#:]+)(?:#[^)]*)?\)", text)
    assert [] == [target for target in targets if not (REPO / target).is_file()]
    assert targets


def architecture_tree() -> list[str]:
    """The paths the architecture page's layout tree names under src/mtcompute/."""
    text = ARCHITECTURE.read_text(encoding="utf-8")
    tree = text.split("## Layout", 1)[1].split("```\n", 1)[1].split("```", 1)[0]
    stack: list[str] = []
    paths = []
    for line in tree.splitlines():
        depth = (len(line) - len(line.lstrip(" "))) // 2
        stack = [*stack[:depth], line.split()[0]]
        if stack[0] == PACKAGE and depth > 0:
            paths.append("".join(stack))
    return paths


def test_architecture_lists_every_module() -> None:
    """The layout tree names every package file, and no file that is not there."""
    # A folder listed without children (templates/, contracts/data/) stands for its files.
    listed = architecture_tree()
    folders = [path for path in listed if path.endswith("/")]
    leaves = [f for f in folders if not any(p != f and p.startswith(f) for p in listed)]
    files = tracked_files(PACKAGE)
    missing = [
        name
        for name in files
        if name not in listed and not any(name.startswith(leaf) for leaf in leaves)
    ]
    stale = [
        path
        for path in listed
        if path not in files and not (path in folders and any(f.startswith(path) for f in files))
    ]
    assert ([], []) == (missing, stale)


def test_docs_are_self_contained() -> None:
    """The README, docs/ and the benchmarks' README never name the folder beside the repository."""
    words = [*OUTSIDE, "seeds" + "/"]
    names = ["README.md", "mkdocs.yml", "benchmarks/README.md", *tracked_files("docs")]
    offenders = [
        name for name in names if any(word in (REPO / name).read_text("utf-8") for word in words)
    ]
    assert ([], True) == (offenders, "docs/index.md" in names)


def test_no_file_points_outside_the_repository() -> None:
    """No tracked file but the two allowed names the folder beside the repository."""
    offenders = []
    for name in tracked_files():
        path = REPO / name
        if name in MAY_POINT_OUTSIDE or not path.is_file():
            continue
        data = path.read_bytes()
        if any(word.encode() in data for word in OUTSIDE):
            offenders.append(name)
    assert [] == offenders
