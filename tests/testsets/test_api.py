"""The registry is sacreBLEU's, the API (``mtcompute.testsets`` and sacreBLEU's names in
``mtcompute.sacrebleu``) reads the loopback server's test sets, and where sacreBLEU 2.6.0
stops with a traceback (``--origlang`` on most WMT22 pairs, every ``--citation``) the
command answers."""

from __future__ import annotations

import inspect
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sacrebleu
from sacrebleu.dataset import DATASETS as SACREBLEU_DATASETS

import mtcompute.sacrebleu as facade
from mtcompute import testsets
from mtcompute.testsets import _formats
from tests.conftest import REPO, load_script
from tests.testsets import world as w

diff = load_script("diff_sacrebleu_cli")
datasets_script = load_script("sacrebleu_datasets")


def test_the_shipped_registry_is_sacrebleus() -> None:
    """datasets.json is what scripts/sacrebleu_datasets.py writes from sacreBLEU 2.6.0."""
    shipped = (REPO / "src" / "mtcompute" / "testsets" / "datasets.json").read_text("utf-8")
    assert datasets_script.registry() == json.loads(shipped)


def test_the_records_are_sacrebleus_datasets() -> None:
    """Every test set, in sacreBLEU's order, with its URLs, sums, pairs and descriptions."""
    expected = [
        (d.name, list(d.data or []), d.md5, d.description, d.citation, d.langpairs)
        for d in SACREBLEU_DATASETS.values()
    ]
    actual = [
        (
            t.name,
            list(t.data),
            list(t.md5) if t.md5 else t.md5,
            t.description,
            t.citation,
            t.langpairs,
        )
        for t in testsets.DATASETS.values()
    ]
    assert expected == actual


def test_the_listing_functions_are_sacrebleus() -> None:
    """get_available_testsets, get_langpairs_for_testset (also of an unknown set) and
    get_available_testsets_for_langpair answer as sacreBLEU's."""
    from sacrebleu import utils

    expected = (
        utils.get_available_testsets(),
        utils.get_langpairs_for_testset("wmt22"),
        utils.get_langpairs_for_testset("nosuch"),
        utils.get_available_testsets_for_langpair("de-en"),
    )
    assert expected == (
        facade.get_available_testsets(),
        facade.get_langpairs_for_testset("wmt22"),
        facade.get_langpairs_for_testset("nosuch"),
        facade.utils.get_available_testsets_for_langpair("de-en"),
    )


@pytest.mark.parametrize(
    "name",
    ["download_test_set", "get_source_file", "get_reference_files", "get_available_testsets",
     "get_langpairs_for_testset", "utils.get_files", "utils.filter_subset"],
)  # fmt: skip
def test_the_test_set_functions_take_sacrebleus_parameters(name: str) -> None:
    """sacreBLEU's test-set functions are in mtcompute.sacrebleu with its parameters."""

    def parameters(package: object) -> list[str]:
        found = package
        for part in name.split("."):
            found = getattr(found, part)
        return list(inspect.signature(found).parameters)  # type: ignore[arg-type]

    assert parameters(sacrebleu) == parameters(facade)


def test_an_unknown_test_set_is_sacrebleus_error() -> None:
    """get_source_file of an unknown set: sacreBLEU's message, an Exception."""
    with pytest.raises(testsets.TestSetError, match=r"^No such test set nosuch$"):
        facade.get_source_file("nosuch", "en-de")


# -- the API on served test sets ---------------------------------------------------------------

PAIRS = {"wmt22": ("en-de", "cs-en"), "wmt21/AB": ("de-en",), "wmt19": ("de-en",)}


@pytest.fixture
def served(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[w.World]:
    """wmt22, wmt21/AB and wmt19 served; the registry pointed at the server (for this test
    only) and the cache in tmp_path."""
    world = w.build(PAIRS)
    with w.serving(world):
        for name, entry in w.served_entries(world).items():
            monkeypatch.setitem(testsets.DATASETS, name, entry)
        monkeypatch.setenv("SACREBLEU", str(tmp_path / "cache"))
        yield world


def test_wmt22_en_de_scores_against_reference_a_only(served: w.World, tmp_path: Path) -> None:
    """The trap: wmt22 en-de has references A and B; -t wmt22 -l en-de uses A alone."""
    cache = tmp_path / "cache" / "wmt22"
    assert (
        ["ref:A", "ref:B", "src"],
        [str(cache / "wmt22.en-de.ref-A")],
        [str(cache / "wmt22.cs-en.ref-B")],
    ) == (
        sorted(f for f in testsets.fieldnames("wmt22", "en-de") if f.startswith(("src", "ref"))),
        facade.get_reference_files("wmt22", "en-de"),
        facade.get_reference_files("wmt22", "cs-en"),
    )


def test_source_and_references_are_the_text_files(served: w.World) -> None:
    """source() and references() are the lines of the files the paths name."""
    count = served.counts["wmt21/AB", "de-en"]
    source = testsets.source("wmt21/AB", "de-en")
    refs = testsets.references("wmt21/AB", "de-en")
    files = testsets.reference_files("wmt21/AB", "de-en")
    assert (count, [count, count], 2) == (len(source), [len(r) for r in refs], len(files))
    with open(testsets.source_file("wmt21/AB", "de-en"), encoding="utf-8") as handle:
        assert handle.read().splitlines() == source


def test_download_makes_every_pair(served: w.World, tmp_path: Path) -> None:
    """download() of a set and pair returns its text files, all there."""
    paths = facade.download_test_set("wmt19", "de-en")
    assert (5, True) == (len(paths), all(os.path.exists(p) for p in paths))


def test_filter_subset_keeps_an_origlang(served: w.World) -> None:
    """filter_subset on wmt19: the segments of documents originally in German."""
    origlangs = testsets.files("wmt19", "de-en")[-1]
    with open(origlangs, encoding="utf-8") as handle:
        langs = handle.read().splitlines()
    index = list(range(len(langs)))
    (kept,) = testsets.filter_subset([index], "wmt19", "de-en", "de")
    assert [i for i, lang in enumerate(langs) if lang == "de"] == kept


def test_origlang_works_where_sacrebleu_raises_keyerror(served: w.World) -> None:
    """wmt22 cs-en's entry is {"path", "refs"}: sacreBLEU's filter_subset raises KeyError;
    here the pair's XML file is read."""
    from sacrebleu import utils

    with pytest.raises(KeyError):
        utils.filter_subset([["x"]], "wmt22", "cs-en", "cs")  # type: ignore[no-untyped-call]
    files = testsets.files("wmt22", "cs-en")
    fields = testsets.fieldnames("wmt22", "cs-en")
    with open(files[fields.index("origlang")], encoding="utf-8") as handle:
        langs = handle.read().splitlines()
    (kept,) = testsets.filter_subset([list(range(len(langs)))], "wmt22", "cs-en", "non-cs")
    assert [i for i, lang in enumerate(langs) if lang != "cs"] == kept


# -- the command where sacreBLEU crashes ---------------------------------------------------------


@pytest.fixture(scope="module")
def world_served() -> Iterator[w.World]:
    world = w.build({"wmt22": ("cs-en",)})
    with w.serving(world):
        yield world


def _run(world: w.World, tmp_path: Path, *args: str) -> Any:
    _, mtcompute_main = diff.forked_entries()

    def entry(argv: list[str]) -> object:
        w.patch_mtcompute(world)
        return mtcompute_main(argv)

    case = diff.Case(args, env=(("SACREBLEU", str(tmp_path / "cache")),))
    return diff.run_forked(entry, case, tmp_path)


def test_origlang_on_wmt22_cs_en_prints_the_kept_segments(
    world_served: w.World, tmp_path: Path
) -> None:
    """--echo with --origlang on a pair where sacreBLEU raises KeyError: the rows of the
    whole echo whose origlang is the one asked for."""
    whole = _run(world_served, tmp_path, "-t", "wmt22", "-l", "cs-en", "--echo", "src", "origlang")
    cut = _run(world_served, tmp_path, "-t", "wmt22", "-l", "cs-en", "--echo", "src", "origlang",
               "--origlang", "en")  # fmt: skip
    rows = whole.stdout.decode().splitlines()
    expected = "".join(row + "\n" for row in rows if row.endswith("\ten"))
    assert (0, expected, b"") == (cut.status, cut.stdout.decode(), cut.stderr)
    assert 0 < expected.count("\n") < len(rows)


def test_citation_prints_the_bibtex(world_served: w.World, tmp_path: Path) -> None:
    """--citation (a TypeError in sacreBLEU 2.6.0): the entry, or that there is none."""
    cited = _run(world_served, tmp_path, "-t", "multi30k/2016,wmt22", "--citation")
    expected = testsets.DATASETS["multi30k/2016"].citation
    assert (0, f"{expected}\n", "sacreBLEU: No citation found for wmt22\n") == (
        cited.status,
        cited.stdout.decode(),
        cited.stderr.decode(),
    )


DOC = (
    '<dataset><collection><doc {attrs}><src lang="en"><p><seg id="1">{src}</seg></p></src>'
    '<ref lang="de" translator="A"><p><seg id="1">Hallo</seg></p></ref>{hyp}</doc>'
    "</collection></dataset>"
)


@pytest.mark.parametrize(
    ("attrs", "src", "hyp", "message"),
    [
        ('id="d"', "Hi", "", "document 'd': no origlang attribute"),
        ('origlang="en"', "Hi", "", "document None: no id attribute"),
        ('id="d" origlang="en"', "Hi", '<hyp system="s"><p><seg id="2">x</seg></p></hyp>',
         "document 'd': system 's' has no segment 1"),
        ('id="d" origlang="en"', "Hi", '<hyp system="s"><p><seg>x</seg></p></hyp>',
         "document 'd': a segment without an integer id"),
    ],
)  # fmt: skip
def test_a_broken_wmt_xml_file_is_named(
    tmp_path: Path, attrs: str, src: str, hyp: str, message: str
) -> None:
    """A WMT XML file sacreBLEU would stop on with a traceback: TestSetError naming the
    file, the document and what is missing."""
    path = tmp_path / "broken.xml"
    path.write_text(DOC.format(attrs=attrs, src=src, hyp=hyp), encoding="utf-8")
    with pytest.raises(testsets.TestSetError) as raised:
        _formats.unwrap_xml(str(path))
    assert f"{path}: {message}" == str(raised.value)


def test_an_empty_source_segment_is_an_empty_line(tmp_path: Path) -> None:
    """An empty source segment (sacreBLEU: AttributeError) is an empty source line."""
    path = tmp_path / "empty.xml"
    path.write_text(DOC.format(attrs='id="d" origlang="en"', src="", hyp=""), encoding="utf-8")
    assert ([""], ["Hallo"]) == (
        _formats.unwrap_xml(str(path))["src"],
        _formats.unwrap_xml(str(path))["ref:A"],
    )


def test_a_cache_that_cannot_be_written_is_named(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """$SACREBLEU under a file (no folder can be made there): TestSetError naming the path,
    before any download."""
    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")
    monkeypatch.setenv("SACREBLEU", str(blocker / "cache"))
    with pytest.raises(testsets.TestSetError) as raised:
        testsets.source("mtnt2019", "en-fr")
    assert f"{blocker}/cache: cannot use the test sets' cache: Not a directory" == str(raised.value)
