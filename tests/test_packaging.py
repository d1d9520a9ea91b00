"""What the distribution carries beside the code: the licence, the notices of ported code,
the changelog and the citation, consistent with the package's version and metadata."""

from __future__ import annotations

import importlib.metadata
import os
import re
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from pathlib import Path

import pytest

import mtcompute
from mtcompute._version import __version__
from mtcompute.native import PURE_WARNING
from tests.conftest import REPO, run_python


def test_the_licence_is_apache_2_as_the_metadata_says() -> None:
    """LICENSE holds the Apache License 2.0 and the metadata names the same licence, as an
    SPDX expression with the file (PEP 639; setuptools ends the older table form and the
    licence classifiers in 2027)."""
    text = (REPO / "LICENSE").read_text(encoding="utf-8")
    assert text.lstrip().startswith("Apache License\n                           Version 2.0")
    meta = importlib.metadata.metadata("mtcompute")
    assert "Apache-2.0" == meta["License-Expression"]
    assert ["LICENSE"] == meta.get_all("License-File")
    assert [] == [c for c in meta.get_all("Classifier") or [] if c.startswith("License ::")]


def test_every_file_the_notice_names_exists() -> None:
    """NOTICE names where each port lives (in this repository; V8's own paths are not
    ours); a moved or removed file makes this fail."""
    notice = (REPO / "NOTICE").read_text(encoding="utf-8")
    named = re.findall(r"\b((?:src/mtcompute|tests)/[\w./]*?)(?=[\s,.;)]*(?:\s|$))", notice)
    assert len(named) >= 6
    assert [] == [path for path in named if not (REPO / path).exists()]


def test_the_changelog_and_citation_name_this_version() -> None:
    """CHANGELOG.md has a section for the package's version; CITATION.cff cites it."""
    changelog = (REPO / "CHANGELOG.md").read_text(encoding="utf-8")
    assert re.search(rf"^## {re.escape(__version__)}\b", changelog, re.MULTILINE)
    citation = (REPO / "CITATION.cff").read_text(encoding="utf-8")
    assert f"\nversion: {__version__}\n" in citation
    assert citation.startswith("cff-version: 1.2.0\n")


@pytest.fixture(scope="module")
def sdist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The source distribution of the checkout (setuptools' build_sdist, as ``python -m
    build --sdist`` calls it)."""
    folder = tmp_path_factory.mktemp("sdist")
    build = (
        "import sys; from setuptools import build_meta; print(build_meta.build_sdist(sys.argv[1]))"
    )
    done = subprocess.run(
        [sys.executable, "-c", build, str(folder)],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
    )
    assert 0 == done.returncode, done.stderr[-2000:]
    return folder / done.stdout.strip().splitlines()[-1]


def test_the_sdist_carries_the_licence_notice_changelog_and_citation(sdist: Path) -> None:
    """A source distribution built from the checkout includes the four files, the kernel's
    sources and headers, the tests with their data, and no build output."""
    with tarfile.open(sdist) as archive:
        members = {Path(m).relative_to(Path(m).parts[0]).as_posix() for m in archive.getnames()}
    assert {"LICENSE", "NOTICE", "CHANGELOG.md", "CITATION.cff"} <= members
    assert {
        "src/mtcompute/_kernel/common.h",
        "src/mtcompute/_kernel/module.c",
        "tests/conftest.py",
        "tests/harness.py",
        "tests/data/wmt/MANIFEST.tsv",
        "examples/chrf-compute@1.0.0.json",
    } <= members
    assert [] == [m for m in members if m.endswith((".so", ".pyc")) or "__pycache__" in m]


def _wheel(tmp_path: Path, source: Path = REPO, **env: str) -> Path:
    """Build the wheel of ``source`` (the checkout, or an sdist; pip, build isolation as a
    user's install) in ``tmp_path``, with ``env`` added to the environment; its path."""
    done = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path), str(source)],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
        env={**os.environ, **env},
    )
    assert 0 == done.returncode, done.stderr[-3000:]
    (wheel,) = tmp_path.glob("mtcompute-*.whl")
    return wheel


def _installed(wheel: Path, target: Path, code: str) -> subprocess.CompletedProcess[str]:
    """Install ``wheel`` alone into ``target`` and run ``code`` with it first on the path
    (the dependencies come from this environment)."""
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(target), wheel],
        check=True,
        capture_output=True,
        timeout=300,
    )
    return run_python(code, cwd=target, path=target)


_SMOKE = (
    "import mtcompute, mtcompute.native as n\n"
    "r = mtcompute.execute('chrf-compute', '1.0.0', "
    "{'hypotheses': ['the cat sat'], 'references': ['the cat sat on the mat']})\n"
    "print(mtcompute.__file__.startswith(sys.argv[1]), n.AVAILABLE, "
    "r['result']['score'])"
)


@pytest.fixture(scope="module")
def pure_wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The pure wheel of the checkout (MTCOMPUTE_NO_EXTENSION=1)."""
    return _wheel(tmp_path_factory.mktemp("pure"), MTCOMPUTE_NO_EXTENSION="1")


def test_the_pure_wheel_is_py3_none_any_and_says_it_is_slow(
    pure_wheel: Path, tmp_path: Path
) -> None:
    """MTCOMPUTE_NO_EXTENSION=1 builds a py3-none-any wheel without the kernel; installed,
    it computes the same number and its import prints the pure path's warning once."""
    wheel = pure_wheel
    assert f"mtcompute-{__version__}-py3-none-any.whl" == wheel.name
    with zipfile.ZipFile(wheel) as archive:
        assert [] == [n for n in archive.namelist() if "_kernel." in n and "pyi" not in n]
    done = _installed(wheel, tmp_path / "site", _SMOKE)
    expected = mtcompute.execute(
        "chrf-compute",
        "1.0.0",
        {"hypotheses": ["the cat sat"], "references": ["the cat sat on the mat"]},
    )
    score = expected["result"]["score"]  # type: ignore[index]
    assert (0, f"True False {score}\n", PURE_WARNING) == (
        done.returncode,
        done.stdout,
        done.stderr,
    )


@pytest.fixture(scope="module")
def platform_wheel(sdist: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The platform wheel built from the sdist (as ``python -m build`` builds it): the
    sdist has all the kernel needs."""
    return _wheel(tmp_path_factory.mktemp("platform"), source=sdist)


def test_the_platform_wheel_carries_the_kernel(platform_wheel: Path, tmp_path: Path) -> None:
    """A plain build (from the sdist) is a CPython platform wheel with the kernel, which it
    then runs."""
    tag = f"cp{sys.version_info[0]}{sys.version_info[1]}"
    assert platform_wheel.name.startswith(f"mtcompute-{__version__}-{tag}-{tag}-")
    done = _installed(platform_wheel, tmp_path / "site", _SMOKE)
    assert (0, "") == (done.returncode, done.stderr)
    assert done.stdout.startswith("True True ")


# A few of the sdist's test files, quick ones over the library, a tool and the contracts it
# ships; the whole suite collects from the sdist too (checked by hand: it takes a minute,
# too long for every run).
SDIST_TESTS = (
    "tests/metrics/test_corpus_wer.py",
    "tests/tools/test_tool_chrf_compute.py",
    "tests/tools/test_versions.py",
)


def test_the_sdist_s_tests_pass_against_the_installed_package(
    sdist: Path, platform_wheel: Path, tmp_path: Path
) -> None:
    """The sdist unpacked, its wheel installed: its tests run from the unpacked folder
    against the installed package (not the sources beside them) and pass."""
    with tarfile.open(sdist) as archive:
        archive.extractall(tmp_path, filter="data")
    (unpacked,) = tmp_path.iterdir()
    site = tmp_path / "site"
    where = _installed(platform_wheel, site, "import mtcompute; print(mtcompute.__file__)")
    assert where.stdout.startswith(str(site)), where.stderr
    variables = {k: v for k, v in os.environ.items() if not k.startswith("MTCOMPUTE_")}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *SDIST_TESTS],
        cwd=unpacked,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
        env={**variables, "PYTHONPATH": str(site)},
    )
    assert 0 == done.returncode, done.stdout[-3000:]
    # every test passed: none skipped, none failed
    assert re.fullmatch(r"\d+ passed in [\d.]+s( \(.*\))?", done.stdout.splitlines()[-1])


def test_twine_accepts_the_sdist_and_the_wheels(
    sdist: Path, platform_wheel: Path, pure_wheel: Path
) -> None:
    """twine check (what PyPI checks of the metadata and the README) passes on the sdist,
    the platform wheel and the pure wheel."""
    done = subprocess.run(
        [sys.executable, "-m", "twine", "check", "--strict", sdist, platform_wheel, pure_wheel],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert (0, 3) == (done.returncode, done.stdout.count("PASSED")), done.stdout + done.stderr


def test_a_kernel_that_does_not_build_stops_the_install(tmp_path: Path) -> None:
    """A compiler that fails makes the build fail, saying how to get the pure path; it never
    falls back silently."""
    done = subprocess.run(
        [sys.executable, "setup.py", "-q", "build_ext", "-t", tmp_path / "t", "-b", tmp_path],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        env={**os.environ, "CC": "false", "LDSHARED": "false"},
    )
    assert 0 != done.returncode
    assert "mtcompute's C kernel did not build" in done.stderr
    assert "MTCOMPUTE_NO_EXTENSION=1" in done.stderr
    assert [] == list(tmp_path.rglob("_kernel*.so"))


def test_the_wheels_built_are_the_pythons_the_metadata_names() -> None:
    """cibuildwheel's CPython builds are the classifiers' Python versions, within
    requires-python, and every wheel's test imports the kernel."""
    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    project, wheels = config["project"], config["tool"]["cibuildwheel"]
    built = sorted(re.findall(r"cp3(\d+)-\*", wheels["build"]), key=int)
    named = [
        c.rsplit(".", 1)[1]
        for c in project["classifiers"]
        if re.fullmatch(r"Programming Language :: Python :: 3\.\d+", c)
    ]
    floor = re.fullmatch(r">=3\.(\d+)", project["requires-python"])
    assert floor is not None
    assert (named, True) == (built, int(built[0]) >= int(floor[1]))
    assert any("kernel_in_use" in command for command in wheels["test-command"])


def test_the_container_image_is_two_stages_unprivileged_and_checked() -> None:
    """The Dockerfile builds the wheel in one stage and runs it in another with the server
    extra, as a user that is not root, with a health check on /readyz; every file it copies
    is in the repository."""
    lines = (REPO / "Dockerfile").read_text(encoding="utf-8").splitlines()
    stages = [line for line in lines if line.startswith("FROM ")]
    users = [line.split()[1] for line in lines if line.startswith("USER ")]
    copied = [
        word
        for line in lines
        if line.startswith("COPY ") and "--from=" not in line
        for word in line.split()[1:-1]
    ]
    assert (2, ["mtcompute"]) == (len(stages), users)
    assert [] == [name for name in copied if not (REPO / name).exists()]
    assert any("/readyz" in line for line in lines if "HEALTHCHECK" in line or "CMD" in line)
    assert any('[server]"' in line for line in lines)
