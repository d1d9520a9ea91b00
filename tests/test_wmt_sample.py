"""The in-repo WMT sample (``tests/data/wmt``): what its MANIFEST says of each file holds, and
it is exactly what ``scripts/make_wmt_sample.py`` makes from the full data (when it is here)."""

from __future__ import annotations

import hashlib
import subprocess
import sys

import pytest

from tests.conftest import REPO, SAMPLE_WMT, WMT, WMT_IS_SAMPLE

LINES = 200


def manifest() -> list[dict[str, str]]:
    """The sample's MANIFEST.tsv rows, by column name."""
    header, *rows = (SAMPLE_WMT / "MANIFEST.tsv").read_text(encoding="utf-8").splitlines()
    names = header.split("\t")
    return [dict(zip(names, row.split("\t"), strict=True)) for row in rows]


def test_manifest_lists_every_file_of_the_sample() -> None:
    """Every data file of the sample has one MANIFEST row, and every row a file."""
    listed = sorted(f"{r['testset']}/{r['pair']}/{r['file']}" for r in manifest())
    found = sorted(p.relative_to(SAMPLE_WMT).as_posix() for p in SAMPLE_WMT.glob("*/*/*"))
    assert (found, 85) == (listed, len(listed))


def test_manifest_sample_columns_describe_the_files() -> None:
    """sample_lines (the first 200 lines, or all when fewer), sample_bytes and sample_sha256
    are the file's here; sample_is_prefix says whether the original is longer (the prefix then
    ends at a newline), else the upstream bytes and sha256 are the file's own."""
    expected, actual = [], []
    for row in manifest():
        data = (SAMPLE_WMT / row["testset"] / row["pair"] / row["file"]).read_bytes()
        counted = data.count(b"\n") + (data != b"" and not data.endswith(b"\n"))
        figures = (str(len(data)), hashlib.sha256(data).hexdigest())
        prefix = int(row["lines"]) > LINES
        expected.append(
            (
                row["file"],
                str(min(LINES, int(row["lines"]))),
                str(counted),
                figures,
                str(prefix),
                True if prefix else figures,
            )
        )
        actual.append(
            (
                row["file"],
                row["sample_lines"],
                row["sample_lines"],
                (row["sample_bytes"], row["sample_sha256"]),
                row["sample_is_prefix"],
                data.endswith(b"\n") if prefix else (row["bytes"], row["sha256"]),
            )
        )
    assert expected == actual


def test_readme_says_it_is_a_sample() -> None:
    """The README opens with the note on the sample, then the upstream README."""
    text = (SAMPLE_WMT / "README.md").read_text(encoding="utf-8")
    assert (True, True) == (
        text.startswith("# A 200-line sample of the WMT data (test fixture)\n"),
        "\n---\n\n# Real MT system outputs + human references (WMT)" in text,
    )


def test_sample_is_what_the_script_makes_from_the_full_data() -> None:
    """make_wmt_sample.py --check: each file is the first 200 lines of the full data's, byte
    for byte, the README and MANIFEST are as made (so a rerun gives identical bytes)."""
    if WMT_IS_SAMPLE:
        pytest.skip(f"the full WMT data is not here ({WMT} is the sample): nothing to compare")
    script = REPO / "scripts" / "make_wmt_sample.py"
    proc = subprocess.run(
        [sys.executable, str(script), "--check", "--source", str(WMT), "--dest", str(SAMPLE_WMT)],
        capture_output=True,
        timeout=120,
        check=False,
    )
    assert (0, b"") == (proc.returncode, proc.stderr)
