"""``mtcompute sacrebleu`` against sacreBLEU 2.6.0 on test sets: both pointed at one loopback
server serving archives built in the test, each command line run by both (forked children,
each with a fresh cache at the same path), and the exit status, standard output, standard
error and the cache left behind compared byte for byte."""

from __future__ import annotations

import hashlib
import itertools
import logging
import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import load_script
from tests.testsets import world as w

diff = load_script("diff_sacrebleu_cli")

HYP_LINES = 40  # the longest system file any case cuts from

# (what the case shows, its arguments split on spaces); {hyp:N}: a system file of N lines.
GRID: tuple[tuple[str, str], ...] = (
    ("list every set", "--list"),
    ("list the sets of a pair", "--list -l de-en"),
    ("list wmt22 cs-en's fields", "-t wmt22 -l cs-en --list"),
    ("list one pair's fields", "-t wmt22 -l en-de --list"),
    ("list wmt20's fields (SGML)", "-t wmt20 --list"),
    ("list mtnt2019's fields (TSV)", "-t mtnt2019 --list"),
    ("echo wmt22 source", "-t wmt22 -l en-de --echo src"),
    ("echo wmt22 ref is ref:A", "-t wmt22 -l en-de --echo ref"),
    ("echo wmt22 all fields", "-t wmt22 -l en-de --echo all"),
    ("echo wmt22 cs-en ref B", "-t wmt22 -l cs-en --echo ref:B docid origlang"),
    ("echo wmt22 liv-en (no translator)", "-t wmt22 -l liv-en --echo src ref"),
    ("echo an unknown field", "-t wmt22 -l en-de --echo nope"),
    ("echo all with others", "-t wmt22 -l en-de --echo all src"),
    ("score wmt22 en-de (ref A only)", "-t wmt22 -l en-de -i {hyp:11}"),
    ("score wmt22 cs-en (ref B), 3 metrics", "-t wmt22 -l cs-en -i {hyp:11} -m bleu chrf ter"),
    ("wmt22 en-de origlang", "-t wmt22 -l en-de --origlang en --echo src"),
    ("wmt23 all fields with domain", "-t wmt23 -l de-en --echo all"),
    ("wmt23 subset by domain", "-t wmt23 -l de-en --subset news --echo src"),
    ("wmt23 score non-origlang", "-t wmt23 -l de-en -i {hyp:11} --origlang non-de"),
    ("wmt23 en-he scores ref B", "-t wmt23 -l en-he -i {hyp:11} -f text"),
    ("wmt23 -d subsets", "-t wmt23 -l de-en -i {hyp:11} -d -m bleu chrf"),
    ("wmt21 echo ref", "-t wmt21 -l de-en --echo ref"),
    ("wmt21/AB two references", "-t wmt21/AB -l de-en -i {hyp:11} -m bleu ter"),
    ("wmt20 score", "-t wmt20 -l de-en -i {hyp:7}"),
    ("wmt20 echo metadata", "-t wmt20 -l de-en --echo src docid genre origlang"),
    ("wmt20 echo all", "-t wmt20 -l en-de --echo all"),
    ("two test sets concatenated", "-t wmt20,wmt19 -l de-en -i {hyp:14}"),
    ("two test sets echoed", "-t wmt20,wmt19 -l de-en --echo src"),
    ("wmt20 origlang score", "-t wmt20 -l de-en --origlang de -i {hyp:7}"),
    ("wmt20 non-origlang echo", "-t wmt20 -l de-en --origlang non-de --echo src ref"),
    ("wmt20/tworefs two references", "-t wmt20/tworefs -l en-de -i {hyp:7} -m bleu chrf"),
    ("wmt20/tworefs ref is ref:0", "-t wmt20/tworefs -l en-de --echo ref"),
    ("wmt19 subset by country", "-t wmt19 -l de-en --subset country:GB --echo src"),
    ("wmt19 subset by domain, scored", "-t wmt19 -l de-en --subset politics -i {hyp:7}"),
    ("wmt19 -d subsets", "-t wmt19 -l de-en -i {hyp:7} -d"),
    ("wmt08 (no metadata) echo", "-t wmt08 -l en-fr --echo all"),
    ("wmt08 score", "-t wmt08 -l en-fr -i {hyp:7} -m chrf"),
    ("wmt19/google/ar echo", "-t wmt19/google/ar -l en-de --echo all"),
    ("wmt19/google/ar score", "-t wmt19/google/ar -l en-de -i {hyp:7}"),
    ("iwslt17 echo (12 archives)", "-t iwslt17 -l en-fr --echo src ref"),
    ("iwslt17 score", "-t iwslt17 -l en-fr -i {hyp:7} -m chrf --chrf-word-order 2"),
    ("mtedx/valid echo", "-t mtedx/valid -l es-en --echo src ref"),
    ("mtedx/valid score only", "-t mtedx/valid -l es-en -i {hyp:7} -b"),
    ("multi30k/2018 echo (gzip)", "-t multi30k/2018 -l en-de --echo src ref"),
    ("multi30k/2018 text", "-t multi30k/2018 -l en-de -i {hyp:7} -f text -m bleu chrf"),
    ("mtnt2019 echo (TSV)", "-t mtnt2019 -l en-fr --echo all"),
    ("mtnt2019 score", "-t mtnt2019 -l en-fr -i {hyp:7}"),
    ("mtnt1.1/test echo", "-t mtnt1.1/test -l fr-en --echo ref"),
    ("robust set1 echo (zip)", "-t wmt20/robust/set1 -l en-de --echo src ref"),
    ("robust set1 sentence level", "-t wmt20/robust/set1 -l en-de -i {hyp:7} -sl"),
    ("two systems, table", "-t wmt22 -l en-de -i {hyp:11} {hyp2:11} -f text"),
    ("quiet", "-t wmt20 -l de-en -i {hyp:7} -q"),
    ("download one pair", "--download wmt20 -l de-en"),
    ("unknown test set", "-t nosuch -l en-de -i {hyp:7}"),
    ("no language pair", "-t wmt22 -i {hyp:7}"),
    ("unknown language pair", "-t wmt22 -l xx-yy -i {hyp:7}"),
    ("a test set and references", "-t wmt22 -l en-de {hyp:7} -i {hyp:7}"),
    ("-nr with a test set", "-t wmt22 -l en-de -nr 2 -i {hyp:11}"),
    ("lengths differ", "-t wmt20 -l de-en -i {hyp:6}"),
    ("no sentence of an origlang", "-t wmt20 -l de-en --origlang xx -i {hyp:7}"),
    ("echo without a test set", "{hyp:7} --echo src -i {hyp:7}"),
    ("-tok none warns", "-t wmt20 -l de-en -i {hyp:7} -tok none"),
    ("no references and no test set", "-i {hyp:7}"),
)


def _files(folder: Path, args: str) -> tuple[str, ...]:
    """The arguments with each {hyp:N} / {hyp2:N} a system file of N lines in ``folder``."""
    out = []
    for arg in args.split():
        if arg.startswith("{hyp"):
            kind, count = arg[1:-1].split(":")
            name = f"{kind}.{count}.txt"
            lines = [w._sentence(kind, i) for i in range(int(count))]
            (folder / name).write_text("".join(line + "\n" for line in lines), encoding="utf-8")
            out.append(name)
        else:
            out.append(arg)
    return tuple(out)


def _tree(root: Path) -> dict[str, str]:
    """Each file under ``root`` (relative path) and its bytes' digest."""
    if not root.exists():
        return {}
    return {
        str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


@pytest.fixture(scope="module")
def served() -> Iterator[w.World]:
    """The grid's world, served on 127.0.0.1 for the module."""
    world = w.build()
    with w.serving(world):
        yield world


@pytest.fixture(scope="module")
def entries(served: w.World) -> tuple[object, object]:
    """sacreBLEU's main() and mtcompute's, each pointing at the server in its child."""
    return w.patched_entries(served, diff.forked_entries())


@pytest.mark.parametrize(("what", "args"), GRID, ids=[what for what, _ in GRID])
def test_grid_is_sacrebleus_byte_for_byte(
    tmp_path: Path, entries: tuple[object, object], what: str, args: str
) -> None:
    """The same exit status, stdout, stderr and cache as sacreBLEU, from a cold cache."""
    cache = tmp_path / "cache"
    case = diff.Case(_files(tmp_path, args), env=(("SACREBLEU", str(cache)),))
    sacrebleu_entry, mtcompute_entry = entries
    expected = diff.run_forked(sacrebleu_entry, case, tmp_path)
    expected_tree = _tree(cache)
    shutil.rmtree(cache, ignore_errors=True)
    actual = diff.run_forked(mtcompute_entry, case, tmp_path)
    assert (expected.status, expected.stdout.decode(), expected.stderr.decode()) == (
        actual.status,
        actual.stdout.decode(),
        actual.stderr.decode(),
    )
    assert expected_tree == _tree(cache)


def test_the_grid_is_broad() -> None:
    """At least 40 command lines over at least 10 test sets."""
    names = set()
    for _, args in GRID:
        words = args.split()
        names |= {
            name
            for flag, value in itertools.pairwise(words)
            if flag in ("-t", "--download")
            for name in value.split(",")
        }
    assert (len(GRID) >= 40, len(names) >= 10) == (True, True), (len(GRID), sorted(names))


@pytest.mark.parametrize("quiet", [(), ("-q",)], ids=["verbose", "quiet"])
def test_bleus_warning_is_sacrebleus_on_stderr(tmp_path: Path, quiet: tuple[str, ...]) -> None:
    """120 system lines ending in a tokenized period: sacreBLEU's BLEU warning, with its
    "sacreBLEU: " prefix (bare with -q), byte for byte."""
    world = w.build({"wmt20": ("de-en",)}, count=120)
    lines = "".join(w._sentence("tok", i) + " .\n" for i in range(120))
    (tmp_path / "sys.txt").write_text(lines, encoding="utf-8")
    cache = tmp_path / "cache"
    case = diff.Case(
        ("-t", "wmt20", "-l", "de-en", "-i", "sys.txt", *quiet), env=(("SACREBLEU", str(cache)),)
    )
    with w.serving(world):
        sacrebleu_main, mtcompute_main = diff.forked_entries()

        def sacrebleu_entry(args: list[str]) -> object:
            logging.root.handlers.clear()
            logging.root.setLevel(logging.WARNING)
            w.patch_sacrebleu(world, os.environ["SACREBLEU"])
            return sacrebleu_main(args)

        def mtcompute_entry(args: list[str]) -> object:
            w.patch_mtcompute(world)
            return mtcompute_main(args)

        expected = diff.run_forked(sacrebleu_entry, case, tmp_path)
        shutil.rmtree(cache)
        actual = diff.run_forked(mtcompute_entry, case, tmp_path)
    assert b"tokenized period" in expected.stderr
    assert (expected.status, expected.stdout, expected.stderr.decode()) == (
        actual.status,
        actual.stdout,
        actual.stderr.decode(),
    )
