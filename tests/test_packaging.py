"""What the distribution carries beside the code: the licence, the notices of ported code,
the changelog and the citation, consistent with the package's version and metadata."""

from __future__ import annotations

import importlib.metadata
import re
import subprocess
import sys
import tarfile
from pathlib import Path

from mtcompute._version import __version__
from tests.conftest import REPO


def test_the_licence_is_apache_2_as_the_metadata_says() -> None:
    """LICENSE holds the Apache License 2.0 and the metadata names the same licence."""
    text = (REPO / "LICENSE").read_text(encoding="utf-8")
    assert text.lstrip().startswith("Apache License\n                           Version 2.0")
    meta = importlib.metadata.metadata("mtcompute")
    assert "Apache-2.0" == meta["License"]
    assert "License :: OSI Approved :: Apache Software License" in meta.get_all("Classifier")


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


def test_the_sdist_carries_the_licence_notice_changelog_and_citation(tmp_path: Path) -> None:
    """A source distribution built from the checkout includes the four files."""
    build = (
        "import sys; from setuptools import build_meta; print(build_meta.build_sdist(sys.argv[1]))"
    )
    done = subprocess.run(
        [sys.executable, "-c", build, str(tmp_path)],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
    )
    assert 0 == done.returncode, done.stderr[-2000:]
    name = done.stdout.strip().splitlines()[-1]
    with tarfile.open(tmp_path / name) as sdist:
        members = {Path(m).relative_to(Path(m).parts[0]).as_posix() for m in sdist.getnames()}
    assert {"LICENSE", "NOTICE", "CHANGELOG.md", "CITATION.cff"} <= members
