"""Fetch sacreBLEU 2.6.0's sdist and check (or, with ``--write``, refresh) the copies of its
test modules for BLEU, sentence BLEU, chrF, TER, the tercom tokenizer and the paired
significance tests (with the WMT17 systems they read, ``test/wmt17_en_de_systems.pkl.bz2``,
kept at the same relative path) in ``tests/sacrebleu_suite/``.

The sdist comes through pip (``pip download --no-binary :all: --no-deps sacrebleu==2.6.0``);
its SHA-256 must be the one written here (the file PyPI publishes for 2.6.0), and every vendored
file must be byte for byte its member in the sdist, with the digest ``SHA256SUMS`` records
(which the suite checks without a network). Exit status 0 when all agree, 1 otherwise, each
difference on one line.

Usage: ``python scripts/vendor_sacrebleu_tests.py [--write] [--sdist PATH]``.
"""

from __future__ import annotations

import argparse
import hashlib
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SUITE = REPO / "tests" / "sacrebleu_suite"
VERSION = "2.6.0"
SDIST = f"sacrebleu-{VERSION}.tar.gz"
SDIST_SHA256 = "91499b6cd46138d95154fff1e863c2f9be57e82f0c719d8dd718d0006cf6c566"
MEMBERS = {  # vendored name -> member of the sdist
    "test_bleu.py": f"sacrebleu-{VERSION}/test/test_bleu.py",
    "test_sentence_bleu.py": f"sacrebleu-{VERSION}/test/test_sentence_bleu.py",
    "test_chrf.py": f"sacrebleu-{VERSION}/test/test_chrf.py",
    "test_ter.py": f"sacrebleu-{VERSION}/test/test_ter.py",
    "test_tokenizer_ter.py": f"sacrebleu-{VERSION}/test/test_tokenizer_ter.py",
    "test_significance.py": f"sacrebleu-{VERSION}/test/test_significance.py",
    "test/wmt17_en_de_systems.pkl.bz2": f"sacrebleu-{VERSION}/test/wmt17_en_de_systems.pkl.bz2",
    "LICENSE.txt": f"sacrebleu-{VERSION}/LICENSE.txt",
}


def sha256(data: bytes) -> str:
    """The hex SHA-256 of ``data``."""
    return hashlib.sha256(data).hexdigest()


def download(folder: Path) -> Path:
    """The sdist, downloaded by pip into ``folder``."""
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "download",
            "--quiet",
            "--no-binary",
            ":all:",
            "--no-deps",
            f"sacrebleu=={VERSION}",
            "-d",
            str(folder),
        ],
        check=True,
    )
    return folder / SDIST


def members(sdist: Path) -> dict[str, bytes]:
    """The vendored files' bytes as the sdist holds them."""
    with tarfile.open(sdist, "r:gz") as archive:
        out = {}
        for name, member in MEMBERS.items():
            extracted = archive.extractfile(member)
            if extracted is None:
                raise SystemExit(f"{sdist}: {member} is not a regular file")
            out[name] = extracted.read()
        return out


def sums_text(files: dict[str, bytes]) -> str:
    """``SHA256SUMS`` for these files (``sha256sum`` format, sorted by name)."""
    return "".join(f"{sha256(data)}  {name}\n" for name, data in sorted(files.items()))


def check(sdist: Path, write: bool) -> list[str]:
    """The differences between the sdist and the vendored copies (written first if asked)."""
    digest = sha256(sdist.read_bytes())
    if digest != SDIST_SHA256:
        return [f"{sdist}: SHA-256 {digest}, expected {SDIST_SHA256}"]
    files = members(sdist)
    if write:
        for name, data in files.items():
            (SUITE / name).parent.mkdir(parents=True, exist_ok=True)
            (SUITE / name).write_bytes(data)
        (SUITE / "SHA256SUMS").write_text(sums_text(files), encoding="utf-8")
    problems = []
    for name, data in files.items():
        path = SUITE / name
        if not path.is_file():
            problems.append(f"{path}: missing")
        elif path.read_bytes() != data:
            problems.append(f"{path}: differs from {MEMBERS[name]} in {SDIST}")
    sums = SUITE / "SHA256SUMS"
    if not sums.is_file() or sums.read_text(encoding="utf-8") != sums_text(files):
        problems.append(f"{sums}: not the digests of the sdist's files")
    return problems


def main(argv: list[str] | None = None) -> int:
    """Check (or refresh) the vendored copies; print each difference."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--write", action="store_true", help="refresh the vendored copies")
    parser.add_argument("--sdist", type=Path, help=f"a downloaded {SDIST} (else pip fetches it)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        sdist = args.sdist if args.sdist is not None else download(Path(folder))
        problems = check(sdist, args.write)
    for problem in problems:
        print(problem)
    if not problems:
        print(f"{len(MEMBERS)} files in {SUITE.relative_to(REPO)} are {SDIST}'s, byte for byte")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
