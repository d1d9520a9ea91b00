"""``mtcompute score`` and ``compare`` with ``-t/-l``: the references are the test set's
(sacreBLEU's cache, downloaded from the loopback server), the same scores as with those
files given to ``-r``; and the option's errors. With ``--origlang/--subset``: the segments
of the documents sacreBLEU keeps, scored as sacreBLEU 2.6.0 scores them (and ``mtcompute
sacrebleu`` with the same flags), the cut said in the output; and the errors, one line each,
where sacreBLEU stops with a traceback, keeps nothing, or keeps what it should not."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from mtcompute import testsets
from tests.conftest import load_script
from tests.testsets import world as w

diff = load_script("diff_sacrebleu_cli")

PAIRS = {
    "wmt20": ("de-en",),
    "wmt19": ("de-en",),
    "wmt22": ("en-de", "cs-en"),
    "wmt23": ("de-en",),
    "wmt08": ("en-fr",),
    "mtnt2019": ("en-fr",),
}
METRICS = ("-m", "bleu", "chrf", "ter")


@pytest.fixture(scope="module")
def served() -> Iterator[w.World]:
    """The test sets of :data:`PAIRS`, served on 127.0.0.1 for the module."""
    world = w.build(PAIRS)
    with w.serving(world):
        yield world


@pytest.fixture(scope="module")
def entries(served: w.World) -> tuple[Any, Any]:
    """sacreBLEU's main() and ``mtcompute sacrebleu``'s, pointed at the server."""
    return w.patched_entries(served, diff.forked_entries())


def _run(world: w.World, folder: Path, *args: str) -> Any:
    """``mtcompute ARGS`` in a forked child, the registry pointed at the server."""
    from mtcompute.cli import main

    def entry(argv: list[str]) -> object:
        w.patch_mtcompute(world)
        return main(argv)

    case = diff.Case(args, env=(("SACREBLEU", str(folder / "cache")),))
    return diff.run_forked(entry, case, folder)


def _hypotheses(folder: Path, name: str, count: int) -> str:
    lines = [w._sentence(name, i) for i in range(count)]
    (folder / name).write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    return name


@pytest.mark.parametrize("command", ["score", "compare"])
def test_t_gives_the_test_sets_references(served: w.World, tmp_path: Path, command: str) -> None:
    """-t wmt22 -l en-de scores as -r CACHE/wmt22/wmt22.en-de.ref-A (reference A only)."""
    count = served.counts["wmt22", "en-de"]
    systems = [_hypotheses(tmp_path, f"sys{i}.txt", count) for i in range(2)]
    given = ["-H", *systems] if command == "score" else ["-b", systems[0], "-H", systems[1]]
    tail = ["-m", "bleu", "chrf", "--format", "json", "-q"]
    with_t = _run(served, tmp_path, command, "-t", "wmt22", "-l", "en-de", *given, *tail)
    ref = str(tmp_path / "cache" / "wmt22" / "wmt22.en-de.ref-A")
    with_r = _run(served, tmp_path, command, "-r", ref, "-l", "en-de", *given, *tail)
    assert (0, b"") == (with_t.status, with_t.stderr)
    assert with_r.stdout == with_t.stdout
    assert f'"references":["{ref}"]'.encode() in with_t.stdout


@pytest.mark.parametrize(
    ("args", "status", "message"),
    [
        (("-H", "s.txt"), 2, "give the references: -r FILE... or -t TESTSET -l SRC-TRG"),
        (("-H", "s.txt", "-r", "s.txt", "-t", "wmt22", "-l", "en-de"), 2,
         "give -r or -t, not both"),
        (("-H", "s.txt", "-t", "wmt22"), 2, "-t wmt22 needs -l SRC-TRG"),
        (("-H", "s.txt", "-t", "wmt22,wmt21", "-l", "en-de"), 2,
         "-t wmt22,wmt21: one test set here (mtcompute sacrebleu -t joins several)"),
        (("-H", "s.txt", "-t", "nosuch", "-l", "en-de"), 1, "Unknown test set 'nosuch'"),
        (("-H", "s.txt", "-t", "wmt08", "-l", "xx-yy"), 2,
         "-t wmt08 has no pair xx-yy (it has " + ", ".join(testsets.langpairs("wmt08")) + ")"),
    ],
)  # fmt: skip
def test_t_errors_are_one_line(
    served: w.World, tmp_path: Path, args: tuple[str, ...], status: int, message: str
) -> None:
    """Each misuse of -t: one line naming it, usage errors exit 2."""
    _hypotheses(tmp_path, "s.txt", 3)
    done = _run(served, tmp_path, "score", *args)
    assert (status, b"", f"mtcompute score: error: {message}\n") == (
        done.status,
        done.stdout,
        done.stderr.decode(),
    )


# -- --origlang and --subset ------------------------------------------------------------------


def _systems(world: w.World, folder: Path, test_set: str, pair: str) -> list[str]:
    """Two system files with a line for each segment of the test set's pair."""
    count = world.counts[test_set, pair]
    return [_hypotheses(folder, name, count) for name in ("sysA.txt", "sysB.txt")]


def _sacrebleu_scores(outcome: Any) -> dict[str, str]:
    """A sacreBLEU JSON output's score of each metric, as printed (``-w 12``)."""
    assert outcome.status == 0, outcome.stderr.decode()  # stderr: the download's log
    found = json.loads(outcome.stdout)
    items = found if isinstance(found, list) else [found]
    return {item["name"]: f"{item['score']:.12f}" for item in items}


def _score_scores(outcome: Any, system: int = 0) -> dict[str, str]:
    """``mtcompute score --format json``'s scores of one system, to sacreBLEU's -w 12."""
    assert (outcome.status, outcome.stderr) == (0, b""), outcome.stderr.decode()
    scores = json.loads(outcome.stdout)["systems"][system]["scores"].values()
    return {s["name"]: f"{s['score']:.12f}" for s in scores}


# (test set, pair, the cut's flags, whether sacreBLEU 2.6.0 runs it)
CUTS = (
    ("wmt20", "de-en", ("--origlang", "de"), True),
    ("wmt20", "de-en", ("--origlang", "non-de"), True),
    ("wmt19", "de-en", ("--subset", "country:GB"), True),
    ("wmt19", "de-en", ("--subset", "politics", "--origlang", "en"), True),
    ("wmt23", "de-en", ("--subset", "news"), True),
    ("wmt23", "de-en", ("--origlang", "non-de"), True),
    ("wmt22", "en-de", ("-ol", "en"), True),
    ("wmt22", "cs-en", ("--origlang", "cs"), False),  # sacreBLEU: KeyError
)


@pytest.mark.parametrize(
    ("test_set", "pair", "flags", "oracle"), CUTS, ids=[f"{c[0]} {' '.join(c[2])}" for c in CUTS]
)
def test_score_is_sacrebleus_on_the_cut(
    served: w.World,
    entries: tuple[Any, Any],
    tmp_path: Path,
    test_set: str,
    pair: str,
    flags: tuple[str, ...],
    oracle: bool,
) -> None:
    """score's BLEU, chrF and TER of the cut: sacreBLEU's and ``mtcompute sacrebleu``'s,
    with the same flags, to 12 decimals."""
    hyp, _ = _systems(served, tmp_path, test_set, pair)
    given = ("-t", test_set, "-l", pair, *flags, *METRICS)
    env = (("SACREBLEU", str(tmp_path / "cache")),)
    sacrebleu_entry, ours_entry = entries
    case = diff.Case((*given, "-i", hyp, "-f", "json", "-w", "12"), env=env)
    ours = _sacrebleu_scores(diff.run_forked(ours_entry, case, tmp_path))
    score = _run(served, tmp_path, "score", *given, "-H", hyp, "--format", "json", "-q")
    assert ours == _score_scores(score)
    if oracle:
        assert _sacrebleu_scores(diff.run_forked(sacrebleu_entry, case, tmp_path)) == ours


@pytest.mark.parametrize("command", ["score", "compare"])
def test_the_output_says_the_cut(served: w.World, tmp_path: Path, command: str) -> None:
    """JSON: a "test_set" object with the flags and the segments kept; text: a first line."""
    base, other = _systems(served, tmp_path, "wmt20", "de-en")
    files = ["-H", base] if command == "score" else ["-b", base, "-H", other]
    given = [command, "-t", "wmt20", "-l", "de-en", "--origlang", "de", *files, "-q"]
    as_json = _run(served, tmp_path, *given, "--format", "json")
    as_text = _run(served, tmp_path, *given)
    found = json.loads(as_json.stdout)
    expected = {
        "name": "wmt20",
        "language_pair": "de-en",
        "origlang": "de",
        "subset": None,
        "segments": 4,  # documents 1 and 3 of world.ORIGLANGS: segments 1-3 and 7
        "of": 7,
    }
    assert (expected, 4) == (found["test_set"], found["segment_count"])
    first = as_text.stdout.decode().split("\n")[0]
    assert (0, "-t wmt20 -l de-en --origlang de: 4 of 7 segments") == (as_text.status, first)


def test_compare_scores_the_cut_as_score_does(served: w.World, tmp_path: Path) -> None:
    """compare's scores of the baseline and the system on the cut are score's."""
    base, other = _systems(served, tmp_path, "wmt23", "de-en")
    given = ("-t", "wmt23", "-l", "de-en", "--subset", "news", "-m", "bleu", "chrf", "ter")
    tail = ("--format", "json", "-q")
    score = json.loads(_run(served, tmp_path, "score", *given, "-H", base, other, *tail).stdout)
    compared = _run(served, tmp_path, "compare", *given, "-b", base, "-H", other, *tail)
    expected = [{m: s["score"] for m, s in system["scores"].items()} for system in score["systems"]]
    actual = [
        {m: s["score"] for m, s in system["scores"].items()}
        for system in json.loads(compared.stdout)["systems"]
    ]
    assert expected == actual


def test_segments_are_the_cut_ones(served: w.World, tmp_path: Path) -> None:
    """--segments scores the kept segments only, as -r with the cut files by hand."""
    hyp, _ = _systems(served, tmp_path, "wmt20", "de-en")
    cut = _run(
        served, tmp_path, "score", "-t", "wmt20", "-l", "de-en", "--origlang", "non-de",
        "-H", hyp, "--segments", "-m", "chrf", "-q",
    )  # fmt: skip
    lines = (tmp_path / hyp).read_text(encoding="utf-8").split("\n")
    ref = tmp_path / "cache" / "wmt20" / "wmt20.de-en.ref"
    refs = ref.read_text(encoding="utf-8").split("\n")
    kept = [3, 4, 5]  # document 2 (origlang en): segments 4-6
    (tmp_path / "h.txt").write_text("".join(lines[i] + "\n" for i in kept), encoding="utf-8")
    (tmp_path / "r.txt").write_text("".join(refs[i] + "\n" for i in kept), encoding="utf-8")
    by_hand = _run(served, tmp_path, "score", "-H", "h.txt", "-r", "r.txt", "--segments")
    first, *rest = cut.stdout.decode().split("\n")
    assert (0, "-t wmt20 -l de-en --origlang non-de: 3 of 7 segments") == (cut.status, first)
    assert by_hand.stdout.decode() == "\n".join(rest)


NO_ORIGLANG = (
    "has no original language per document (sacreBLEU's WMT sets in SGML or WMT XML have them)"
)
NO_SUBSET = (
    "has no document annotation (WMT XML domains, or sacreBLEU's country and topic "
    "annotation of wmt19-wmt20 sets)"
)
# (the command line, {a} and {b} two system files of the -t pair; status; the message)
CUT_ERRORS = (
    ("score -H {a} -r {a} --origlang de", 2,
     "--origlang de cuts a test set: give -t TESTSET -l SRC-TRG"),
    ("compare -b {a} -H {b} -r {a} --subset news", 2,
     "--subset news cuts a test set: give -t TESTSET -l SRC-TRG"),
    ("score -H {a} -t mtnt2019 -l en-fr --origlang en", 2,
     f"--origlang en: -t mtnt2019 -l en-fr {NO_ORIGLANG}"),
    ("score -H {a} -t wmt08 -l en-fr --origlang non-en", 2,
     f"--origlang non-en: -t wmt08 -l en-fr {NO_ORIGLANG}"),
    ("compare -b {a} -H {b} -t wmt20 -l de-en --subset news", 2,
     f"--subset news: -t wmt20 -l de-en {NO_SUBSET}"),
    ("score -H {a} -t wmt22 -l en-de --subset news", 2,
     f"--subset news: -t wmt22 -l en-de {NO_SUBSET}"),
    ("score -H {a} -t wmt20 -l de-en --origlang xx", 2,
     "--origlang xx: no document of -t wmt20 -l de-en is kept (its original languages: de, en)"),
    ("compare -b {a} -H {b} -t wmt23 -l de-en --origlang en --subset speech", 2,
     "--origlang en --subset speech: no document of -t wmt23 -l de-en is kept (its original "
     "languages: de, en; subsets: news, social, speech)"),
    ("score -H {a} -t wmt23 -l de-en --subset (", 2,
     "--subset (: -t wmt23: missing ), unterminated subpattern at position 0"),
    ("score -H short.txt -t wmt20 -l de-en --origlang de", 1,
     "the files have different numbers of lines: short.txt has 2, {ref} has 7; every file "
     "needs one line per segment"),
)  # fmt: skip


@pytest.mark.parametrize(("line", "status", "message"), CUT_ERRORS, ids=[e[0] for e in CUT_ERRORS])
def test_cut_errors_are_one_line(
    served: w.World, tmp_path: Path, line: str, status: int, message: str
) -> None:
    """Each misuse of --origlang/--subset: one line naming the flag (and the test set)."""
    args = line.split()
    test_set = args[args.index("-t") + 1] if "-t" in args else "wmt20"
    pair = args[args.index("-l") + 1] if "-l" in args else "de-en"
    a, b = _systems(served, tmp_path, test_set, pair)
    (tmp_path / "short.txt").write_text("x\ny\n", encoding="utf-8")
    given = [arg.format(a=a, b=b) for arg in args]
    done = _run(served, tmp_path, *given)
    ref = tmp_path / "cache" / "wmt20" / "wmt20.de-en.ref"
    expected = f"mtcompute {args[0]}: error: {message.format(ref=ref)}\n"
    assert (status, b"", expected) == (done.status, done.stdout, done.stderr.decode())
