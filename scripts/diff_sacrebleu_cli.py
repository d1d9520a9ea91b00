"""Compare ``mtcompute sacrebleu`` with sacreBLEU 2.6.0's own command line, case by case:
the same arguments, the same files, the same standard input and environment; the bytes on
standard output and the exit status must be equal.

The harness of ``tests/test_cli_sacrebleu.py`` (its few dozen quick cases) and, run as a
script, the broad grid over every WMT pair of the data (the full data beside the repository, or
``--data``): the metrics (BLEU, chrF, TER), BLEU's tokenizers, lowercasing, smoothing, the
chrF options, the four TER flags and their combinations, -sh, -b, -w, -f, one or more
reference files, -nr with tab-separated references, -e, one and several systems from files or
standard input, sentence level, and the error cases.

Each case runs both programs in a fresh process: as subprocesses of their console scripts
(``--subprocess``), or, by default, in a child forked from this process after both were
imported (the same ``main()`` on the same file descriptors, without paying the two imports
for every case)::

    .venv/bin/python scripts/diff_sacrebleu_cli.py                 # every pair, 400 lines
    .venv/bin/python scripts/diff_sacrebleu_cli.py --whole      # whole files, every system
    .venv/bin/python scripts/diff_sacrebleu_cli.py --lines 0 --pairs generaltest2022/en-de
    .venv/bin/python scripts/diff_sacrebleu_cli.py --subprocess --limit 50

It prints the number of cases per pair and every difference (arguments, both exit statuses,
the first differing line), and exits 1 when there is one.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import gzip
import importlib
import itertools
import json
import os
import re
import subprocess
import sys
import tempfile
import time
import traceback
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
DEFAULT_DATA = REPO.parent / "shared" / "data" / "wmt"
BIN = Path(sys.executable).parent
CLEARED_ENV = ("NO_COLOR", "SACREBLEU_FORMAT", "SACREBLEU", "SACREBLEU_SEED")  # set by cases
FORMATS = ("json", "text", "latex")


@dataclass(frozen=True)
class Case:
    """One command line: its arguments (files named relative to the workspace), the file fed
    to standard input (None: an empty one) and extra environment variables."""

    args: tuple[str, ...]
    stdin: str | None = None
    env: tuple[tuple[str, str], ...] = ()

    @property
    def label(self) -> str:
        text = " ".join(self.args)
        if self.stdin is not None:
            text += f" < {self.stdin}"
        if self.env:
            text = " ".join(f"{k}={v}" for k, v in self.env) + " " + text
        return text


@dataclass(frozen=True)
class Outcome:
    """What a program did: exit status, standard output, standard error."""

    status: int
    stdout: bytes
    stderr: bytes


@dataclass
class Workspace:
    """A folder with a window of one WMT pair: ``ref.A.txt`` (and ``ref.B.txt`` when the pair
    has a second reference), three systems ``sys.*.txt``, ``refs.tsv`` (both references,
    tab-separated), ``stdin1.txt`` (the first system) and ``stdin3.txt`` (the three
    systems, tab-separated), ``ref.A.utf16`` and ``sys1.utf16`` (UTF-16 copies), ``short.txt``
    (the first system without its last line) and ``empty.txt``."""

    folder: Path
    pair: str
    systems: list[str]
    refs: list[str]
    target: str

    @property
    def second(self) -> str:
        """A second system: the pair's, or a copy of the first (a pair may have only one)."""
        return self.systems[1] if len(self.systems) > 1 else "crlf.txt"


def _pair_files(pair_dir: Path) -> tuple[list[Path], list[Path]]:
    refs = sorted(p for p in pair_dir.glob("ref.*.txt") if ".tok." not in p.name)
    systems = sorted(
        p for p in pair_dir.glob("sys.*.txt") if ".tok." not in p.name and p.stat().st_size > 0
    )
    return refs, systems


def _lines(path: Path, count: int) -> list[str]:
    lines = path.read_bytes().decode("utf-8").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines[:count] if count else lines


EDGE_NAMES = ("1.55", "2", "True", " spaced name ", "日本語.txt", "a&b_%.txt")
# (Not a title sequence, ESC ] 0 ; ... BEL: sacreBLEU's colorama crashes on it off Windows.)
ANSI_NAMES = ("\x1b[31mred\x1b[0m", "\x1b]1;icon\x07x", "\x1b]8;;x\x1b\\link\x1b]8;;\x1b\\")


def _edge_files(folder: Path, system: list[str], ref: list[str]) -> None:
    """Files that take sacreBLEU's reading and printing off the common path: CRLF and CR line
    ends, no final newline, gzip, a BOM, Latin-1, trailing blanks and tabs on standard
    input's first line, a -nr file with a line of the wrong field count, and copies of the
    first system under names the table reformats or escapes (:data:`EDGE_NAMES`) or that
    hold terminal codes, which tabulate measures as invisible and colorama strips
    (:data:`ANSI_NAMES`)."""
    body = "".join(line + "\n" for line in system)
    (folder / "crlf.txt").write_bytes(body.replace("\n", "\r\n").encode("utf-8"))
    (folder / "cr.txt").write_bytes(body.replace("\n", "\r").encode("utf-8"))
    (folder / "nofinal.txt").write_bytes(body.rstrip("\n").encode("utf-8"))
    with gzip.open(folder / "sys1.txt.gz", "wb") as handle:
        handle.write(body.encode("utf-8"))
    (folder / "bom.txt").write_bytes(b"\xef\xbb\xbf" + body.encode("utf-8"))
    latin = "".join(line + "\n" for line in ref).encode("latin-1", "replace")
    (folder / "ref.latin1").write_bytes(latin)
    (folder / "sys.latin1").write_bytes(body.encode("latin-1", "replace"))
    blanks = [line + " \t" + line + "  " for line in system]
    (folder / "blanks.txt").write_text("".join(line + "\n" for line in blanks), "utf-8")
    bad = [a + "\t" + a for a in ref]
    bad[len(bad) // 2] = ref[len(ref) // 2]
    (folder / "bad.tsv").write_text("".join(line + "\n" for line in bad), "utf-8")
    for name in EDGE_NAMES + ANSI_NAMES:
        (folder / name).write_bytes(body.encode("utf-8"))
    (folder / "oneline.txt").write_bytes(b"\n")


def prepare(pair_dir: Path, folder: Path, count: int, max_systems: int = 3) -> Workspace:
    """Write the workspace of ``pair_dir`` (its first ``count`` lines, 0: all; its first
    ``max_systems`` systems, 0: all) into ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    refs, systems = _pair_files(pair_dir)
    refs, systems = refs[:2], systems[: max_systems or None]
    texts = {p.name: _lines(p, count) for p in [*refs, *systems]}
    for name, lines in texts.items():
        (folder / name).write_bytes("".join(line + "\n" for line in lines).encode("utf-8"))
    first, second = texts[refs[0].name], texts[refs[-1].name]
    tsv = [
        a.replace("\t", " ") + "\t" + b.replace("\t", " ")
        for a, b in zip(first, second, strict=True)
    ]
    (folder / "refs.tsv").write_text("".join(line + "\n" for line in tsv), encoding="utf-8")
    sys_texts = [texts[p.name] for p in systems]
    (folder / "stdin1.txt").write_bytes(
        "".join(line + "\n" for line in sys_texts[0]).encode("utf-8")
    )
    joined = [
        "\t".join(s.replace("\t", " ") for s in row) for row in zip(*sys_texts[:3], strict=True)
    ]
    (folder / "stdin3.txt").write_text("".join(line + "\n" for line in joined), encoding="utf-8")
    (folder / "ref.A.utf16").write_text("".join(line + "\n" for line in first), "utf-16")
    (folder / "sys1.utf16").write_text("".join(line + "\n" for line in sys_texts[0]), "utf-16")
    (folder / "short.txt").write_text("".join(line + "\n" for line in sys_texts[0][:-1]), "utf-8")
    (folder / "empty.txt").write_bytes(b"")
    _edge_files(folder, sys_texts[0], first)
    pair = f"{pair_dir.parent.name}/{pair_dir.name}"
    return Workspace(
        folder,
        pair,
        [p.name for p in systems],
        [p.name for p in refs],
        pair_dir.name.split("-")[1],
    )


# -- running ---------------------------------------------------------------------------------


def _environment(case: Case) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in CLEARED_ENV}
    env.update(case.env)
    return env


def run_subprocess(command: Sequence[str], case: Case, folder: Path) -> Outcome:
    """Run ``command`` + the case's arguments in ``folder``."""
    stdin = (folder / case.stdin).read_bytes() if case.stdin is not None else b""
    done = subprocess.run(
        [*command, *case.args],
        input=stdin,
        capture_output=True,
        cwd=folder,
        env=_environment(case),
        timeout=600,
        check=False,
    )
    return Outcome(done.returncode, done.stdout, done.stderr)


def sacrebleu_command() -> list[str]:
    """sacreBLEU 2.6.0's console script beside this interpreter."""
    return [str(BIN / "sacrebleu")]


def mtcompute_command() -> list[str]:
    """``mtcompute sacrebleu`` beside this interpreter."""
    return [str(BIN / "mtcompute"), "sacrebleu"]


def run_forked(entry: Callable[[list[str]], object], case: Case, folder: Path) -> Outcome:
    """Run ``entry(args)`` in a forked child with the case's working folder, environment and
    standard streams (files), as a fresh process would: its exit status is the int it returns
    or passes to ``sys.exit``, 1 after an uncaught exception (traceback on stderr)."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:  # the child never returns
            status = 1
            try:
                os.chdir(folder)
                os.environ.clear()
                os.environ.update(_environment(case))
                source = folder / case.stdin if case.stdin is not None else os.devnull
                stdin = os.open(source, os.O_RDONLY)
                os.dup2(stdin, 0)
                os.dup2(out.fileno(), 1)
                os.dup2(err.fileno(), 2)
                # the standard streams of a fresh process (under pytest they are its captures)
                sys.stdin = open(0, encoding="utf-8", closefd=False)  # noqa: SIM115
                sys.stdout = open(1, "w", encoding="utf-8", closefd=False)  # noqa: SIM115
                sys.stderr = open(2, "w", encoding="utf-8", closefd=False)  # noqa: SIM115
                sys.argv = ["sacrebleu", *case.args]
                try:
                    code = entry(list(case.args))
                except SystemExit as stop:
                    code = stop.code
                except BaseException:
                    traceback.print_exc()
                    code = 1
                if code is None:
                    status = 0
                elif isinstance(code, int):
                    status = code
                else:
                    print(code, file=sys.stderr)
                    status = 1
                for stream in (sys.stdout, sys.stderr):
                    with contextlib.suppress(OSError, ValueError):
                        stream.flush()
            finally:
                os._exit(status & 0xFF)
        _, wait_status = os.waitpid(pid, 0)
        out.seek(0)
        err.seek(0)
        return Outcome(os.waitstatus_to_exitcode(wait_status), out.read(), err.read())


def forked_entries() -> tuple[Callable[[list[str]], object], Callable[[list[str]], object]]:
    """sacreBLEU's ``main()`` and ``mtcompute sacrebleu``'s, both imported here."""
    from sacrebleu.sacrebleu import main as sacrebleu_main  # noqa: PLC0415 (the oracle)

    from mtcompute.cli import main as mtcompute_main  # noqa: PLC0415

    # Both import their significance modules (and numpy) on first use: once here, not in
    # every child.
    importlib.import_module("sacrebleu.significance")
    importlib.import_module("mtcompute.sacrebleu.significance")

    def sacrebleu_entry(args: list[str]) -> object:
        del args  # sacreBLEU reads sys.argv
        return sacrebleu_main()

    def mtcompute_entry(args: list[str]) -> object:
        return mtcompute_main(["sacrebleu", *args])

    return sacrebleu_entry, mtcompute_entry


# -- the cases -------------------------------------------------------------------------------


def quick_cases(ws: Workspace) -> list[Case]:
    """The few dozen cases of the test suite: each option once or twice, several systems,
    standard input, and the error cases."""
    ref, sys1, three = ws.refs[0], ws.systems[0], ws.systems[:3]
    two_refs = ws.refs[:2]
    chrf_plus = ("-m", "chrf", "--chrf-word-order", "2", "--chrf-beta", "3", "--chrf-whitespace")
    c = [
        Case((ref, "-i", sys1)),
        Case((ref, "-i", sys1, "-m", "bleu", "chrf", "-f", "text")),
        Case((ref, "-i", sys1, "-m", "chrf", "bleu", "-b")),
        Case((ref, "-i", sys1, "-m", "bleu", "chrf", "-sh", "-f", "text", "-w", "3")),
        Case((ref, "-i", sys1, "-m", "bleu", "chrf", "-sh", "-w", "0")),
        Case((ref, "-i", sys1, "-tok", "intl", "-lc", "-f", "text")),
        Case((ref, "-i", sys1, "-tok", "zh", "-f", "text", "-sh")),
        Case((ref, "-i", sys1, "-tok", "char", "-f", "latex")),
        Case((ref, "-i", sys1, "-tok", "none", "--force", "-f", "text")),
        Case((ref, "-i", sys1, "-l", f"en-{ws.target}", "-f", "text")),
        Case((ref, "-i", sys1, "-s", "floor", "-sv", "0.2", "-f", "text")),
        Case((ref, "-i", sys1, "-s", "add-k", "-sh")),
        Case((ref, "-i", sys1, "-s", "none", "-f", "text", "-w", "4")),
        Case((ref, "-i", sys1, *chrf_plus, "--chrf-lowercase", "-f", "text")),
        Case((ref, "-i", sys1, "-m", "chrf", "-cc", "4", "--chrf-eps-smoothing", "-sh")),
        Case(("refs.tsv", "-nr", "2", "-i", sys1, "-m", "bleu", "chrf", "-f", "text")),
        Case((*two_refs, "-i", sys1, "-m", "bleu", "chrf")),
        Case(("ref.A.utf16", "-e", "utf-16", "-i", "sys1.utf16", "-f", "text")),
        Case((ref, "-i", *three, "-m", "bleu", "chrf")),
        Case((ref, "-i", *three, "-m", "bleu", "chrf", "-f", "text", "-sh")),
        Case((ref, "-i", *three, "-m", "chrf", "bleu", "-f", "latex", "-w", "2")),
        Case((ref, "-m", "bleu", "chrf", "-f", "text"), stdin="stdin1.txt"),
        Case((ref, "-m", "bleu", "chrf", "-f", "text"), stdin="stdin3.txt"),
        Case((ref, "-i", sys1, "-sl", "-w", "2"), stdin=None),
        Case((ref, "-i", sys1, "-sl", "-m", "chrf", "-b")),
        Case((ref, "-i", sys1, "-m", "bleu", "chrf", "-d")),
        Case((ref, "-i", sys1, "-m", "bleu", "chrf"), env=(("SACREBLEU_FORMAT", "text"),)),
        Case((ref, "-i", *three, "-f", "text"), env=(("NO_COLOR", "1"),)),
        Case(("-V",)),
    ]
    return c + ter_cases(ws) + edge_cases(ws) + error_cases(ws)


def ter_cases(ws: Workspace) -> list[Case]:
    """TER in the quick cases: alone and beside BLEU and chrF, each --ter-* flag, one and two
    references (files and -nr), several systems in each format, standard input, sentence
    level."""
    ref, sys1, three = ws.refs[0], ws.systems[0], ws.systems[:3]
    two_refs = ws.refs[:2]
    return [
        Case((ref, "-i", sys1, "-m", "ter")),
        Case((ref, "-i", sys1, "-m", "bleu", "chrf", "ter", "-f", "text")),
        Case((ref, "-i", sys1, "-m", "ter", "bleu", "-b", "-w", "3")),
        Case((ref, "-i", sys1, "-m", "ter", "--ter-normalized", "-sh", "-f", "text")),
        Case((ref, "-i", sys1, "-m", "ter", "--ter-case-sensitive", "--ter-no-punct", "-sh")),
        Case((ref, "-i", sys1, "-m", "ter", "--ter-asian-support", "--ter-normalized", "-w", "4")),
        Case((ref, "-i", sys1, "-m", "ter", "--ter-asian-support", "--ter-no-punct", "-f", "text")),
        Case((*two_refs, "-i", sys1, "-m", "ter", "chrf", "-f", "text")),
        Case(("refs.tsv", "-nr", "2", "-i", sys1, "-m", "ter", "--ter-normalized")),
        Case((*two_refs, "-i", *three, "-m", "bleu", "chrf", "ter")),
        Case((*two_refs, "-i", *three, "-m", "ter", "-f", "text", "-sh", "-w", "2")),
        Case((ref, "-i", *three, "-m", "chrf", "ter", "-f", "latex", "--ter-case-sensitive")),
        Case((ref, "-m", "ter", "-f", "text"), stdin="stdin3.txt"),
        Case((ref, "-m", "ter", "bleu"), stdin="stdin1.txt"),
        Case((ref, "-i", sys1, "-sl", "-m", "ter", "-w", "3", "--ter-normalized")),
        Case((*two_refs, "-i", sys1, "-sl", "-m", "ter", "-b")),
        Case((ref, "-i", sys1, "-m", "ter", "-d")),
        Case((ref, "-i", sys1, "-sl", "-m", "chrf", "ter")),
    ]


def edge_cases(ws: Workspace) -> list[Case]:
    """The files of :func:`_edge_files`: line ends, gzip, BOM, encodings, odd names."""
    ref, sys1 = ws.refs[0], ws.systems[0]
    return [
        Case((ref, "-i", "crlf.txt", "cr.txt", "nofinal.txt", "-m", "bleu", "chrf")),
        Case((ref, "-m", "chrf", "-f", "text"), stdin="cr.txt"),
        Case((ref, "-m", "bleu", "chrf", "-f", "text"), stdin="crlf.txt"),
        Case((ref, "-i", "sys1.txt.gz", "bom.txt", "-m", "bleu", "chrf", "-f", "text")),
        Case(("ref.latin1", "-e", "latin-1", "-i", "sys.latin1", "-f", "text")),
        Case((ref, "-m", "chrf", "-f", "text", "-b"), stdin="blanks.txt"),
        Case((ref, "-i", *EDGE_NAMES, sys1, "-m", "bleu", "chrf", "-f", "text")),
        Case((ref, "-i", *EDGE_NAMES, "-f", "latex", "-w", "2")),
        Case((ref, "-i", *EDGE_NAMES[:3], "-f", "text", "-w", "0", "-nc")),
        Case((ref, "-i", "1.55", "2", "-m", "chrf", "-f", "text")),
        Case((ref, "-i", *ANSI_NAMES, "1.55", "-f", "text")),
        Case((ref, "-i", *ANSI_NAMES, "-f", "latex", "-nc")),
        Case((ref, "-i", *ANSI_NAMES, "-f", "text", "-nc")),
        Case(("bad.tsv", "-nr", "2", "-i", sys1)),
        Case(("refs.tsv", "-nr", "0", "-i", sys1)),
        Case((ref, "-i", sys1, "-e", "klingon")),
        Case(("oneline.txt", "-m", "bleu", "chrf", "-f", "text")),
        Case((ref, "-i", sys1, "-m", "chrf", "--chrf-beta", "0", "-cw", "7", "-f", "text")),
        Case((ref, "-i", sys1, "-s", "floor", "-sv", "-1", "-w", "30", "-f", "text")),
        Case(("oneline.txt", "-i", "oneline.txt", "-sl", "-m", "chrf")),
    ]


def error_cases(ws: Workspace) -> list[Case]:
    """Command lines sacreBLEU refuses: the same exit status and (empty or partial) output."""
    ref, sys1 = ws.refs[0], ws.systems[0]
    return [
        Case(("missing.txt", "-i", sys1)),
        Case((ref, "-i", sys1, "missing.txt")),
        Case((ref, "-i", sys1, "short.txt")),
        Case((ref, "-i", "empty.txt")),
        Case((ref, "-i", "sys1.utf16")),
        Case(("refs.tsv", "-nr", "3", "-i", sys1)),
        Case((ref, "-i", sys1, sys1)),
        Case(("-i", sys1)),
        Case((ref, "-i", sys1, "-sl", "-m", "bleu", "chrf")),
        Case((ref, "-i", sys1, ws.second, "-sl")),
        Case((ref, "-i", sys1, "-m", "meteor")),
        Case((ref, "-i", sys1, "-l", "en")),
        Case((ref, "-i", sys1, "-w", "-1")),
        Case((ref, "-i", sys1, "-m", "chrf", "-cc", "0")),
        Case((ref, "-i")),
        Case((ref, "-i", "-f", "text")),
        Case((ref,), stdin="short.txt"),
        Case(("refs.tsv", ref, "-nr", "2", "-i", sys1)),
        Case((ref, "-sl"), stdin="stdin3.txt"),
        Case((ref, "-i", ".")),
    ]


def whole_cases(ws: Workspace) -> list[Case]:
    """A few cases over whole files and every system of the pair."""
    ref, sys1, every = ws.refs[0], ws.systems[0], ws.systems
    return [
        Case((ref, "-i", *every, "-m", "bleu", "chrf", "-f", "text")),
        Case((*ws.refs, "-i", *every, "-m", "bleu", "chrf")),
        Case(("refs.tsv", "-nr", "2", "-i", *every, "-m", "bleu", "chrf", "-f", "text", "-lc")),
        Case((ref, "-i", *every, "-tok", "char", "-f", "latex", "-w", "3")),
        Case((ref, "-i", *every, "-l", f"en-{ws.target}", "-f", "text", "-sh")),
        Case((ref, "-i", sys1, "-m", "bleu", "chrf", "-f", "text", "-w", "4")),
        Case((ref, "-i", sys1, "-m", "chrf", "-cw", "2", "-sh")),
        Case((ref, "-i", sys1, "-sl", "-w", "2")),
        Case((ref, "-i", sys1, "-sl", "-m", "chrf", "-cw", "2", "-b")),
        Case((ref, "-m", "bleu", "chrf", "-f", "text"), stdin="stdin3.txt"),
        Case((*ws.refs, "-i", *every, "-m", "bleu", "chrf", "ter")),
        Case((*ws.refs, "-i", *every, "-m", "ter", "--ter-normalized", "-f", "text", "-sh")),
        Case((ref, "-i", sys1, "-m", "ter", "--ter-case-sensitive", "--ter-no-punct", "-w", "3")),
        Case((ref, "-i", sys1, "-sl", "-m", "ter", "--ter-asian-support", "--ter-normalized")),
    ]


def broad_cases(ws: Workspace, full: bool = False) -> Iterator[Case]:
    """The broad grid of one pair (see the module docstring); ``full``: the whole products
    of the output and chrF options (about 800 cases a pair instead of 170)."""
    ref, sys1, three = ws.refs[0], ws.systems[0], ws.systems[:3]
    # 1. scoring: tokenizer x lowercase x references, BLEU and chrF on three systems
    ref_modes: list[tuple[str, ...]] = [(ref,), ("refs.tsv", "-nr", "2")]
    if len(ws.refs) > 1:
        ref_modes.append(tuple(ws.refs[:2]))
    ref_modes.append(("ref.A.utf16", "-e", "utf-16"))
    for tok, lc, refs in itertools.product(
        ("13a", "intl", "zh", "char", "none"), (False, True), ref_modes
    ):
        systems = ("sys1.utf16",) if "-e" in refs else three
        yield Case(
            (*refs, "-i", *systems, "-m", "bleu", "chrf", "-tok", tok, "-f", "text")
            + (("-lc",) if lc else ())
        )
    # 2. output: format x systems x metrics, each format with every short x score-only x
    # width (the full product with full=True)
    system_modes: list[tuple[tuple[str, ...], str | None]] = [
        (("-i", sys1), None),
        (("-i", *three), None),
        ((), "stdin1.txt"),
        ((), "stdin3.txt"),
    ]
    metric_sets = (
        ("bleu",),
        ("chrf",),
        ("bleu", "chrf"),
        ("chrf", "bleu"),
        ("ter",),
        ("ter", "bleu", "chrf"),
    )
    looks = list(itertools.product((False, True), (False, True), ("0", "1", "4")))
    for i, (fmt, (systems, stdin), metrics) in enumerate(
        itertools.product(("json", "text", "latex"), system_modes, metric_sets)
    ):
        for short, only, width in looks if full else [looks[i % len(looks)]]:
            args = (ref, *systems, "-m", *metrics, "-f", fmt, "-w", width)
            args += (("-sh",) if short else ()) + (("-b",) if only else ())
            yield Case(args, stdin=stdin)
    # 3. chrF's options: the orders and beta, each with a whitespace x lowercase x epsilon
    # combination in turn (all of them with full=True)
    flags = list(itertools.product((False, True), (False, True), (False, True)))
    for i, (cc, cw, beta) in enumerate(
        itertools.product(("6", "4", "1"), ("0", "1", "2"), ("2", "1", "3"))
    ):
        for ws_, lc, eps in flags if full else [flags[i % len(flags)]]:
            args = (ref, "-i", *three, "-m", "chrf", "-cc", cc, "-cw", cw, "--chrf-beta", beta)
            args += ("--chrf-whitespace",) if ws_ else ()
            args += ("--chrf-lowercase",) if lc else ()
            args += ("--chrf-eps-smoothing",) if eps else ()
            yield Case((*args, "-f", "text", "-w", "3"))
    # 4. BLEU's smoothing, language pair, force
    for method, value in itertools.product(("exp", "floor", "add-k", "none"), (None, "0.5", "2")):
        args = (ref, "-i", sys1, "-s", method, "-f", "text", "-w", "4")
        yield Case(args + (("-sv", value) if value else ()))
    yield Case((ref, "-i", *three, "-l", f"en-{ws.target}", "-f", "text"))
    yield Case((ref, "-i", sys1, "-l", f"xx-{ws.target}", "-tok", "13a", "--force"))
    # 5. TER's flags: every combination of the four, on three systems, the reference modes
    # in turn (all of them with full=True), short signatures every other case
    ter_flags = (
        "--ter-case-sensitive",
        "--ter-asian-support",
        "--ter-no-punct",
        "--ter-normalized",
    )
    for i, chosen in enumerate(itertools.product((False, True), repeat=len(ter_flags))):
        flags_on = tuple(flag for flag, on in zip(ter_flags, chosen, strict=True) if on)
        for refs in ref_modes if full else [ref_modes[i % len(ref_modes)]]:
            systems = ("sys1.utf16",) if "-e" in refs else three
            args = (*refs, "-i", *systems, "-m", "ter", *flags_on, "-f", "text", "-w", "3")
            yield Case(args + (("-sh",) if i % 2 else ()))
    yield Case((ref, "-i", sys1, "-m", "ter", *ter_flags, "-f", "json", "-w", "5"))
    # 6. sentence level
    for metric, only, short in itertools.product(
        ("bleu", "chrf", "ter"), (False, True), (False, True)
    ):
        args = (ref, "-i", sys1, "-sl", "-m", metric, "-w", "3")
        yield Case(args + (("-b",) if only else ()) + (("-sh",) if short else ()))
    yield Case((ref, "-sl", "-m", "chrf", "--chrf-word-order", "2"), stdin="stdin1.txt")
    yield Case(("refs.tsv", "-nr", "2", "-i", sys1, "-sl"))
    yield Case(("refs.tsv", "-nr", "2", "-i", sys1, "-sl", "-m", "ter", "--ter-no-punct"))
    # 7. the error cases
    yield from error_cases(ws)


# -- significance: paired tests and confidence intervals ------------------------------------

SEEDS = ("12345", "7", "None", "0")  # SACREBLEU_SEED values of the grid (None: unset below)
DETERMINISTIC_SEEDS = ("12345", "7", "42", " 12", "+3", "1_000")


def _seed_env(seed: str | None) -> tuple[tuple[str, str], ...]:
    return () if seed is None else (("SACREBLEU_SEED", seed),)


def significance_quick_cases(ws: Workspace) -> list[Case]:
    """The significance cases of the test suite: each test and format once or twice with few
    samples, -ci on one system, the seeds, and the checks sacreBLEU makes."""
    ref, sys1, three = ws.refs[0], ws.systems[0], ws.systems[:3]
    c = [
        Case((ref, "-i", *three, "-m", "bleu", "chrf", "-pbs", "-pbsn", "40", "-f", "text")),
        Case((ref, "-i", *three, "-m", "bleu", "chrf", "-pbs", "-pbsn", "40", "-f", "json")),
        Case((ref, "-i", *three, "-m", "chrf", "ter", "-pbs", "-pbsn", "30", "-f", "json")),
        Case((ref, "-i", *three, "-m", "ter", "bleu", "-pbs", "-pbsn", "30", "-f", "latex")),
        Case((ref, "-i", *three, "-m", "bleu", "chrf", "ter", "-par", "-parn", "64", "-f", "text")),
        Case((ref, "-i", *three, "-m", "chrf", "bleu", "-par", "-parn", "50", "-f", "latex")),
        Case((ref, "-i", *three, "-m", "bleu", "ter", "-par", "-parn", "50", "-f", "json")),
        Case(
            (
                *ws.refs[:2],
                "-i",
                *three,
                "-m",
                "bleu",
                "chrf",
                "-pbs",
                "-pbsn",
                "20",
                "-sh",
                "-f",
                "text",
                "-w",
                "3",
            )
        ),
        Case((ref, "-m", "bleu", "chrf", "-par", "-parn", "40", "-f", "text"), stdin="stdin3.txt"),
        Case(
            (ref, "-i", sys1, ws.second, sys1, "-pbs", "-pbsn", "0", "-f", "text"),
            env=_seed_env("7"),
        ),
        Case((ref, "-i", *three, "-pbs", "-pbsn", "25", "-j", "0", "-f", "text", "-nc")),
        Case((ref, "-i", *three, "-par", "-parn", "30", "-j", "2", "-f", "json")),
        Case((ref, "-i", *three, "-pbs", "-pbsn", "20", "-f", "json", "-w", "-1")),
        Case((ref, "-i", sys1, "-m", "bleu", "chrf", "ter", "-ci", "-cin", "40", "-f", "text")),
        Case((ref, "-i", sys1, "-m", "bleu", "chrf", "ter", "-ci", "-cin", "40")),
        Case((ref, "-i", sys1, "-m", "chrf", "-ci", "-cin", "30", "-b", "-w", "3")),
        Case((ref, "-i", sys1, "-ci", "-cin", "1", "-f", "text")),
        Case(
            (ref, "-i", sys1, "-m", "ter", "-ci", "-cin", "20", "-f", "text", "-sh"),
            env=_seed_env(" 12"),
        ),
        Case((ref, "-i", sys1, "-ci", "-cin", "20", "-f", "text"), env=_seed_env("0")),
        Case(
            (ref, "-i", *three, "-m", "bleu", "chrf", "-pbs", "-pbsn", "30", "-f", "text"),
            env=_seed_env("None"),
        ),
        Case(
            (ref, "-i", *three, "-m", "bleu", "-par", "-parn", "30", "-f", "json"),
            env=_seed_env("0"),
        ),
        Case((ref, "-i", sys1, "-ci", "-cin", "20"), env=_seed_env("none")),
    ]
    return c + significance_error_cases(ws)


def significance_error_cases(ws: Workspace) -> list[Case]:
    """Significance command lines sacreBLEU refuses (exit 1, nothing on standard output)."""
    ref, sys1, three = ws.refs[0], ws.systems[0], ws.systems[:3]
    return [
        Case((ref, "-i", sys1, "-pbs")),
        Case((ref, "-i", sys1, sys1, "-par")),
        Case((ref, "-i", *three, "-ci")),
        Case((ref, "-i", *three[:2], "-pbs", "-ci")),
        Case((ref, "-i", *three[:2], "-par", "-sl")),
        Case((ref, "-i", sys1, "-ci", "-sl")),
        Case((ref, "-i", sys1, ws.second, ws.second, "-pbs")),
        Case((ref, "-i", *three[:2], "-pbs", "-pbsn", "10", "-j", "-1")),
        Case((ref, "-i", *three[:2], "-pbs", "-pbsn", "10", "-f", "text", "-w", "-1")),
        Case((ref, "-i", *three[:2], "-pbs", "-pbsn", "10", "-d", "-w", "-1")),
        Case((ref, "-i", *three[:2], "-pbs", "-par")),
        Case((ref, "-i", *three[:2], "-pbs", "-pbsn", "10"), env=_seed_env("abc")),
        Case((ref, "-i", *three[:2], "-par", "-parn", "10"), env=_seed_env("-3")),
        Case((ref, "-i", sys1, "-ci", "-cin", "10"), env=_seed_env("1.5")),
        Case((ref, "-i", "-pbs")),
        Case((ref, "-pbs"), stdin="stdin1.txt"),
    ]


def significance_cases(ws: Workspace, samples: Sequence[str] = ("", "50")) -> Iterator[Case]:
    """The significance grid of one pair: metric sets x formats x both tests x sample counts
    (``""``: the default, with the default seed; the others with every seed of
    :data:`SEEDS`), then -ci on one system the same way, more seeds, the options that change
    the printing (-sh, -w, -nc, standard input, -j, two references, chrF++), and the
    errors."""
    ref, sys1, three = ws.refs[0], ws.systems[0], ws.systems[:3]
    metric_sets = (("bleu",), ("chrf",), ("ter",), ("bleu", "chrf"), ("chrf", "ter", "bleu"))

    def seeds(count: str) -> Iterator[tuple[tuple[str, str], ...]]:
        for seed in SEEDS if count else SEEDS[:1]:
            yield () if seed == "12345" else _seed_env(seed)

    for metrics, fmt, test, count in itertools.product(
        metric_sets, FORMATS, ("-pbs", "-par"), samples
    ):
        sized = (f"{test}n", count) if count else ()
        for env in seeds(count):
            yield Case((ref, "-i", *three, "-m", *metrics, test, *sized, "-f", fmt), env=env)
    for metrics, fmt, count in itertools.product(metric_sets, FORMATS, samples):
        sized = ("-cin", count) if count else ()
        for env in seeds(count):
            yield Case((ref, "-i", sys1, "-m", *metrics, "-ci", *sized, "-f", fmt), env=env)
    for seed in DETERMINISTIC_SEEDS[3:]:
        yield Case((ref, "-i", *three, "-pbs", "-pbsn", "30", "-f", "text"), env=_seed_env(seed))
        yield Case((ref, "-i", sys1, "-ci", "-cin", "30", "-f", "text"), env=_seed_env(seed))
    for test in ("-pbs", "-par"):
        n = (f"{test}n", "40")
        yield Case((ref, "-i", *three, "-m", "bleu", "chrf", test, *n, "-sh", "-w", "3", "-f",
                    "text"))  # fmt: skip
        yield Case((ref, "-i", *three, "-m", "chrf", test, *n, "-w", "0", "-f", "latex"))
        yield Case((ref, "-i", *three, "-m", "ter", test, *n, "-nc", "-f", "text"))
        yield Case((ref, "-m", "bleu", "chrf", test, *n, "-f", "text"), stdin="stdin3.txt")
        yield Case((ref, "-m", "bleu", test, *n, "-f", "json"), stdin="stdin3.txt")
        yield Case((*ws.refs[:2], "-i", *three, "-m", "bleu", "ter", test, *n, "-f", "text"))
        yield Case(("refs.tsv", "-nr", "2", "-i", *three, test, *n, "-f", "latex"))
        yield Case((ref, "-i", *three, "-m", "chrf", "-cw", "2", test, *n, "-f", "json"))
        yield Case((ref, "-i", *three, test, *n, "-j", "0", "-f", "text"))
        yield Case((ref, "-i", *three, test, *n, "-j", "3", "-f", "json"))
        yield Case((ref, "-i", *three, sys1, test, *n, "-f", "text"))
        yield Case((ref, "-i", *three, test, f"{test}n", "-5", "-f", "text"))
        yield Case((ref, "-i", *three, test, *n, "-d"))
        yield Case((ref, "-i", *three, "-m", "bleu", "chrf", test, *n, "-f", "json", "-w", "-2"))
        yield Case((ref, "-i", *three, test, *n, "-f", "text"), env=(("NO_COLOR", "1"),))
    for extra in (("-sh", "-w", "3"), ("-b",), ("-d",), ("-b", "-f", "json"), ("-w", "0")):
        yield Case((ref, "-i", sys1, "-m", "bleu", "chrf", "ter", "-ci", "-cin", "40", *extra))
    yield Case((ref, "-m", "chrf", "-ci", "-cin", "40", "-f", "text"), stdin="stdin1.txt")
    yield Case(("refs.tsv", "-nr", "2", "-i", sys1, "-ci", "-cin", "40", "-f", "text"))
    yield from significance_error_cases(ws)


def _seed(case: Case) -> str:
    return dict(case.env).get("SACREBLEU_SEED", "12345")


def is_deterministic(case: Case) -> bool:
    """Whether sacreBLEU prints the same for the case every time: not unseeded
    (``SACREBLEU_SEED=None``), and not a paired test under seed 0, whose comparisons
    sacreBLEU runs unseeded (mtcompute seeds them with 0)."""
    seed = _seed(case).strip().lower()
    paired = "-pbs" in case.args or "-par" in case.args
    return seed != "none" and not (paired and seed.lstrip("+").replace("_", "").strip("0") == "")


_CONFIDENCE = re.compile(r"μ = [0-9.]+ ± [0-9.]+")


def stable_view(stdout: bytes) -> object:
    """What an unseeded run prints the same every time: the system names, the scores and
    which numbers are there (JSON); the paired test's explanation and the signatures after
    the table, and the lines with their confidence numbers masked (text and LaTeX)."""
    text = stdout.decode("utf-8", "replace")
    try:
        data = json.loads(text)
    except ValueError:
        data = None
    if isinstance(data, list) and data and "system" in data[0]:
        return [
            {
                key: (
                    value
                    if isinstance(value, str)
                    else {"score": value["score"], **{k: v is None for k, v in value.items()}}
                )
                for key, value in row.items()
            }
            for row in data
        ]
    if data is not None:
        rows = data if isinstance(data, list) else [data]
        hidden = ("confidence_mean", "confidence_var", "confidence")
        return [{k: v for k, v in row.items() if k not in hidden} for row in rows]
    lines = text.split("\n")
    if any(line.startswith(("╒", "\\begin{tabular}")) for line in lines):
        return lines[lines.index("") :]  # after the table
    return [_CONFIDENCE.sub("μ = # ± #", line) for line in lines]


FLOAT32_JSON = b"TypeError: Object of type float32 is not JSON serializable"


def sacrebleu_json_fixed_command() -> list[str]:
    """sacreBLEU's command line with the one change that lets it print its paired tests'
    JSON under numpy 2: ``json.dumps(..., default=float)`` for its float32 numbers."""
    return [sys.executable, "-c", FIX_JSON + "from sacrebleu.sacrebleu import main; main()"]


FIX_JSON = (
    "import functools, json; "
    "json.dumps = functools.partial(json.dumps, default=float); "  # float32 as its value
)


def json_fixed_entry() -> Callable[[list[str]], object]:
    """sacreBLEU's ``main()`` with ``json.dumps`` given ``default=float`` (run it in a forked
    child only: it changes the json module)."""
    from sacrebleu.sacrebleu import main as sacrebleu_main  # noqa: PLC0415 (the oracle)

    def entry(args: list[str]) -> object:
        del args
        original = json.dumps
        json.dumps = functools.partial(original, default=float)  # type: ignore[assignment]
        return sacrebleu_main()

    return entry


def memoize_oracle_statistics(ws: Workspace) -> int:
    """Make sacreBLEU's ``_extract_corpus_statistics`` (with cached references) reuse what it
    computed, and compute it here, before the children fork, for the grid's usual settings
    (BLEU, chrF, chrF++ and TER with ref.A; BLEU and TER with both references) on the
    workspace's systems: sacreBLEU's own statistics, computed once per settings, references
    and system instead of in every child (what makes its significance grid slow). Returns
    the number of entries computed."""
    from sacrebleu.metrics import BLEU, CHRF, TER  # noqa: PLC0415 (the oracle)
    from sacrebleu.metrics.base import Metric  # noqa: PLC0415
    from sacrebleu.utils import smart_open  # noqa: PLC0415

    extract, cache_references = Metric._extract_corpus_statistics, Metric._cache_references
    memo: dict[tuple[object, ...], Any] = {}

    def cache(self: Any, references: Any) -> Any:
        self._memo_references = hash(tuple(tuple(stream) for stream in references))
        return cache_references(self, references)

    def memoized(self: Any, hypotheses: Any, references: Any) -> Any:
        if references or not hasattr(self, "_memo_references"):
            return extract(self, hypotheses, references)
        key = (
            type(self).__name__,
            self.get_signature().format(),
            self._memo_references,
            hash(tuple(hypotheses)),
        )
        if key not in memo:
            memo[key] = extract(self, hypotheses, references)
        return memo[key]

    Metric._cache_references = cache  # type: ignore[method-assign]
    Metric._extract_corpus_statistics = memoized  # type: ignore[method-assign]

    def read(name: str) -> list[str]:
        return [line.rstrip() for line in smart_open(str(ws.folder / name))]

    one = [read(ws.refs[0])]
    both = [read(name) for name in ws.refs[:2]]
    systems = [read(name) for name in ws.systems[:3]]
    settings = [
        (BLEU, {}, one),
        (CHRF, {}, one),
        (TER, {}, one),
        (CHRF, {"word_order": 2}, one),
        (BLEU, {}, both),
        (TER, {}, both),
    ]
    for cls, kwargs, refs in settings:
        metric = cls(references=refs, **kwargs)
        for system in systems:
            metric._extract_corpus_statistics(system, None)
    return len(memo)


@dataclass
class Verdict:
    """The comparison of one case: equal or not, and how it was compared."""

    equal: bool
    how: str  # "bytes", "fixed" (sacreBLEU's float32 JSON crash fixed), "stable" (unseeded)


def compare(
    case: Case,
    expected: Outcome,
    actual: Outcome,
    fixed: Callable[[], Outcome],
) -> Verdict:
    """Compare a case's outcomes: the bytes and the status; where sacreBLEU crashed on its
    float32 JSON, with what the fixed sacreBLEU prints (``fixed()``); where it is unseeded,
    the status and :func:`stable_view`."""
    how = "bytes"
    if expected.status == 1 and expected.stdout == b"" and FLOAT32_JSON in expected.stderr:
        expected, how = fixed(), "fixed"
    if not is_deterministic(case):
        same = (expected.status, stable_view(expected.stdout)) == (
            actual.status,
            stable_view(actual.stdout),
        )
        return Verdict(same, "stable")
    return Verdict((expected.status, expected.stdout) == (actual.status, actual.stdout), how)


# -- the script ------------------------------------------------------------------------------


def first_difference(a: bytes, b: bytes) -> str:
    """The first line where ``a`` and ``b`` differ, both versions."""
    for i, (x, y) in enumerate(itertools.zip_longest(a.split(b"\n"), b.split(b"\n"))):
        if x != y:
            return f"line {i + 1}: sacrebleu {x!r} / mtcompute {y!r}"
    return "identical"


def main(argv: Sequence[str] | None = None) -> int:
    """Run the broad grid; print the figures and every difference."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="the WMT folder")
    parser.add_argument("--pairs", nargs="*", help="testset/pair folders (default: all)")
    parser.add_argument("--lines", type=int, default=400, help="lines per file (0: all)")
    parser.add_argument("--subprocess", action="store_true", help="run the console scripts")
    parser.add_argument("--limit", type=int, default=0, help="at most this many cases a pair")
    parser.add_argument("--quick", action="store_true", help="the test suite's cases only")
    parser.add_argument(
        "--whole", action="store_true", help="whole-file cases with every system (--lines 0)"
    )
    parser.add_argument("--full", action="store_true", help="whole products of the options")
    parser.add_argument(
        "--significance",
        action="store_true",
        help="the paired tests' and confidence intervals' grid (with --quick: the suite's)",
    )
    parser.add_argument("--verbose", action="store_true", help="print every case's verdict")
    parser.add_argument(
        "--samples",
        nargs="*",
        default=["", "50"],
        help="the grid's -pbsn/-parn/-cin values ('': the default; with --significance)",
    )
    options = parser.parse_args(argv)

    pair_dirs = sorted(p.parent for p in options.data.glob("*/*/ref.*.txt"))
    pair_dirs = sorted(set(pair_dirs))
    if options.pairs:
        pair_dirs = [options.data / p for p in options.pairs]
        for pair_dir in pair_dirs:
            refs, systems = _pair_files(pair_dir) if pair_dir.is_dir() else ([], [])
            if not refs or not systems:
                parser.error(
                    f"--pairs: {pair_dir} holds no ref.*.txt and sys.*.txt files (pairs are "
                    f"testset/pair folders under --data {options.data})"
                )
    if options.subprocess:
        left: Callable[[Case, Path], Outcome] = lambda case, folder: run_subprocess(  # noqa: E731
            sacrebleu_command(), case, folder
        )
        right: Callable[[Case, Path], Outcome] = lambda case, folder: run_subprocess(  # noqa: E731
            mtcompute_command(), case, folder
        )
        fixed: Callable[[Case, Path], Outcome] = lambda case, folder: run_subprocess(  # noqa: E731
            sacrebleu_json_fixed_command(), case, folder
        )
    else:
        sb_entry, mt_entry = forked_entries()
        fixed_entry = json_fixed_entry()
        left = lambda case, folder: run_forked(sb_entry, case, folder)  # noqa: E731
        right = lambda case, folder: run_forked(mt_entry, case, folder)  # noqa: E731
        fixed = lambda case, folder: run_forked(fixed_entry, case, folder)  # noqa: E731

    total = differences = 0
    kinds: dict[str, int] = {}
    seconds = [0.0, 0.0]
    with tempfile.TemporaryDirectory(prefix="diff-sacrebleu-cli-") as tmp:
        for pair_dir in pair_dirs:
            folder = Path(tmp) / pair_dir.parent.name / pair_dir.name
            if options.significance:
                ws = prepare(pair_dir, folder, options.lines)
                if not options.subprocess:
                    memoize_oracle_statistics(ws)
                if options.quick:
                    cases = significance_quick_cases(ws)
                else:
                    cases = list(significance_cases(ws, options.samples))
            elif options.whole:
                ws = prepare(pair_dir, folder, 0, max_systems=0)
                cases = whole_cases(ws)
            else:
                ws = prepare(pair_dir, folder, options.lines)
                cases = list(quick_cases(ws) if options.quick else broad_cases(ws, options.full))
            if options.limit:
                cases = cases[: options.limit]
            pair_diffs = 0
            for case in cases:
                start = time.perf_counter()
                expected = left(case, ws.folder)
                middle = time.perf_counter()
                actual = right(case, ws.folder)
                seconds[0] += middle - start
                seconds[1] += time.perf_counter() - middle
                verdict = compare(case, expected, actual, lambda c=case, f=ws.folder: fixed(c, f))
                kinds[verdict.how] = kinds.get(verdict.how, 0) + 1
                if options.verbose:
                    seconds_case = time.perf_counter() - start
                    mark = "same" if verdict.equal else "DIFF"
                    print(f"{mark} ({verdict.how}, {seconds_case:.1f} s): {case.label}", flush=True)
                if not verdict.equal:
                    pair_diffs += 1
                    print(f"DIFF {ws.pair}: {case.label}")
                    print(f"  status sacrebleu {expected.status} / mtcompute {actual.status}")
                    print(f"  {first_difference(expected.stdout, actual.stdout)}")
                    err = actual.stderr.decode("utf-8", "replace").strip()[-300:]
                    if err:
                        print(f"  mtcompute stderr: {err}")
            total += len(cases)
            differences += pair_diffs
            print(f"{ws.pair}: {len(cases)} cases, {pair_diffs} differences", flush=True)
    mode = "subprocesses" if options.subprocess else "forked children"
    lines = "all" if options.whole or not options.lines else options.lines
    compared = ", ".join(f"{count} by {how}" for how, count in sorted(kinds.items()))
    print(
        f"total: {total} cases over {len(pair_dirs)} pairs ({lines} lines, "
        f"{mode}), {differences} differences; "
        f"sacrebleu {seconds[0]:.1f} s, mtcompute {seconds[1]:.1f} s; compared {compared}"
    )
    return 1 if differences else 0


if __name__ == "__main__":
    sys.exit(main())
