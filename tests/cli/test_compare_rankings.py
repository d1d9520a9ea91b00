"""``mtcompute compare`` with WER and CER, ``--rank`` and ``--histogram``: WER and CER scores
against jiwer 4.0 (the oracle), their p-values against :mod:`mtcompute.significance` called
directly, the rankings (text, JSON and page) against ``rank_systems``, the direction of an
error rate on the page, the page's segment scores of the chosen metric, the errors, and the
progress bar's steps with ``--rank``."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from typing import Any

import jiwer
import pytest
import sacrebleu
from playwright.sync_api import Browser, ViewportSize

from mtcompute import significance as sg
from mtcompute._version import __version__
from mtcompute.metrics.wer.resample import WerMetric
from mtcompute.metrics.wer.text import WerOptions
from mtcompute.report.page import compare, render, segment_scores
from tests.cli.terminal import stderr_on_a_terminal
from tests.conftest import WMT, run_cli, wmt_lines

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts" / "compare"
PAIR = "generaltest2022/zh-en"
BASELINE = "HuaweiTSC"
SYSTEMS = ["JDExploreAcademy", "NiuTrans", "Online-B"]
LINES = 200  # the in-repo sample's segments


def _path(tmp: Path, name: str) -> str:
    """The first 200 lines of a zh-en file (the in-repo sample's), written under ``tmp``."""
    target = tmp / name
    if not target.exists():
        target.write_text("".join(f"{line}\n" for line in wmt_lines(f"{PAIR}/{name}")[:LINES]))
    return str(target)


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The zh-en reference and systems, 200 segments each."""
    tmp = tmp_path_factory.mktemp("zh-en")
    for name in ["ref.A.txt", *(f"sys.{s}.txt" for s in [BASELINE, *SYSTEMS])]:
        _path(tmp, name)
    return tmp


def _args(folder: Path) -> list[str]:
    systems = [str(folder / f"sys.{s}.txt") for s in SYSTEMS]
    base = str(folder / f"sys.{BASELINE}.txt")
    return ["compare", "-r", str(folder / "ref.A.txt"), "-b", base, "-H", *systems]


def _lines(folder: Path, name: str) -> list[str]:
    return (folder / name).read_text(encoding="utf-8").split("\n")[:-1]


@pytest.fixture(scope="module")
def ranked(folder: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], str]:
    """One run with BLEU, WER and CER, --rank, the JSON and the page."""
    page = tmp_path_factory.mktemp("page") / "report.html"
    args = [*_args(folder), "-m", "bleu", "wer", "cer", "--rank", "--samples", "300"]
    done = run_cli(*args, "--format", "json", "--report", str(page))
    assert (0, b"") == (done.returncode, done.stderr)
    return json.loads(done.stdout), page.read_text(encoding="utf-8")


# --- WER and CER -----------------------------------------------------------------------------


def test_wer_and_cer_scores_are_jiwers(folder: Path, ranked: tuple[dict[str, Any], str]) -> None:
    """Each system's WER and CER are jiwer 4.0's wer and cer of its lines, in percent."""
    document, _ = ranked
    refs = _lines(folder, "ref.A.txt")
    expected = []
    for name in [BASELINE, *SYSTEMS]:
        hyps = _lines(folder, f"sys.{name}.txt")
        expected.append((100 * jiwer.wer(refs, hyps), 100 * jiwer.cer(refs, hyps)))
    found = [
        (s["scores"]["wer"]["score"], s["scores"]["cer"]["score"]) for s in document["systems"]
    ]
    assert expected == found
    assert [("WER", "CER")] * 4 == [
        (s["scores"]["wer"]["name"], s["scores"]["cer"]["name"]) for s in document["systems"]
    ]


def test_wer_p_values_are_the_significance_module_s(
    folder: Path, ranked: tuple[dict[str, Any], str]
) -> None:
    """WER's scores, p-values, means and half widths are paired_bootstrap's on WerMetric's
    statistics, exactly."""
    document, _ = ranked
    refs = [[line] for line in _lines(folder, "ref.A.txt")]
    metric = WerMetric()
    stats = [metric.statistics(_lines(folder, f"sys.{n}.txt"), refs) for n in [BASELINE, *SYSTEMS]]
    direct = sg.paired_bootstrap([sg.Table(metric, stats)], samples=300)[0]
    assert [(r.score, r.p_value, r.mean, r.ci) for r in direct] == [
        tuple(s["scores"]["wer"][k] for k in ("score", "p_value", "mean", "ci"))
        for s in document["systems"]
    ]


# --- rankings --------------------------------------------------------------------------------


def test_json_rankings_are_rank_systems(folder: Path, ranked: tuple[dict[str, Any], str]) -> None:
    """The JSON's rankings are rank_systems' on the same statistics, method, samples and
    seed; BLEU's is the golden one of the zh-en sample."""
    document, _ = ranked
    names = [str(folder / f"sys.{n}.txt") for n in [BASELINE, *SYSTEMS]]
    refs = [[line] for line in _lines(folder, "ref.A.txt")]
    for key, metric in (
        ("bleu", sg.BleuMetric()),
        ("cer", WerMetric(WerOptions("character"))),
    ):
        stats = [metric.statistics(_lines(folder, Path(n).name), refs) for n in names]  # type: ignore[attr-defined]
        direct = sg.rank_systems(metric, stats, samples=300, seed=12345)
        found = document["rankings"][key]
        assert [
            (names[r.system], r.rank, r.top, r.bottom, r.cluster, r.score) for r in direct.systems
        ] == [
            (s["hypotheses"], s["rank"], s["top"], s["bottom"], s["cluster"], s["score"])
            for s in found["systems"]
        ]
        assert [
            (names[p.first], names[p.second], p.delta, p.p_value, p.significant, p.agreement)
            for p in direct.pairs
        ] == [
            (
                p["first"],
                p["second"],
                p["delta"],
                p["p_value"],
                p["significant"],
                p["human_agreement"],
            )
            for p in found["pairs"]
        ]
    bleu = document["rankings"]["bleu"]["systems"]
    assert [
        ("JDExploreAcademy", "1", 1),
        ("Online-B", "2-3", 2),
        (BASELINE, "2-3", 2),
        ("NiuTrans", "4", 3),
    ] == [(Path(s["hypotheses"]).name[4:-4], s["rank"], s["cluster"]) for s in bleu]
    assert (False, True) == (
        document["rankings"]["bleu"]["lower_is_better"],
        document["rankings"]["wer"]["lower_is_better"],
    )
    assert {None} == {p["human_agreement"] for p in document["rankings"]["wer"]["pairs"]}


def test_text_ranking_table(folder: Path) -> None:
    """--rank prints each metric's ranking after the table: rank ranges, clusters split by
    a rule, Δ and Kocmi et al.'s agreement against the baseline (n/a for WER)."""
    done = run_cli(*_args(folder), "-m", "bleu", "wer", "--rank", "--samples", "300")
    text = done.stdout.decode()
    assert 0 == done.returncode
    bleu = text[text.index("BLEU ranking") : text.index("WER ranking")]
    rows = [line.split() for line in bleu.splitlines()[3:] if line and not line.startswith("-")]
    assert [["1", "27.36", "1", "+3.36", "85.03%"], ["4", "21.32", "3", "-2.68", "82.19%"]] == [
        [row[0], *row[-4:]] for row in rows if "JDExplore" in row[1] or "NiuTrans" in row[1]
    ]
    assert 2 == sum(1 for line in bleu.splitlines() if re.fullmatch("-+", line))
    wer = text[text.index("WER ranking") :]
    assert ("lower is better" in wer.splitlines()[0], wer.count("n/a")) == (True, 3)


def test_without_rank_nothing_changes(folder: Path) -> None:
    """Without --rank the output has no ranking (text) and no "rankings" key (JSON)."""
    text = run_cli(*_args(folder), "-m", "bleu", "--samples", "50").stdout.decode()
    data = json.loads(
        run_cli(*_args(folder), "-m", "bleu", "--samples", "50", "--format", "json").stdout
    )
    assert ("ranking" in text, "rankings" in data) == (False, False)


def test_page_shows_the_rankings(ranked: tuple[dict[str, Any], str]) -> None:
    """The page has a ranking table per metric: rank range, system and cluster per row, a
    rule (cluster-start) where a new cluster begins, the agreement for BLEU, n/a for WER."""
    document, page = ranked
    section = page[page.index('id="rankings"') : page.index('id="intervals"')]
    for key in ("bleu", "wer", "cer"):
        found = document["rankings"][key]
        clusters = found["systems"][-1]["cluster"]
        assert f"{found['name']}: {clusters} cluster" in section
    ranks = re.findall(r'<td class="num rank">([^<]*)</td>', section)
    assert ranks == [
        s["rank"] for key in ("bleu", "wer", "cer") for s in document["rankings"][key]["systems"]
    ]
    starts = section.count('class="cluster-start')
    assert starts == sum(
        document["rankings"][k]["systems"][-1]["cluster"] - 1 for k in ("bleu", "wer", "cer")
    )
    agreements = re.findall(r'<td class="num agreement">([^<]*)</td>', section)
    assert agreements.count("n/a") == 6  # WER and CER: three systems each
    assert "85.03%" in agreements


def test_page_marks_lower_error_rates_as_better(ranked: tuple[dict[str, Any], str]) -> None:
    """A system whose WER is below the baseline's has its Δ marked up (better), one above
    marked down, and WER's caption says lower is better."""
    document, page = ranked
    wer = page[page.index("<figcaption>WER") : page.index("<figcaption>CER")]
    assert "(lower is better)" in wer.split("\n")[0]
    deltas = re.findall(r'<td class="num delta( up| down)?">([^<]*)</td>', wer)
    expected = [
        ("", "")
        if s["baseline"]
        else (
            " up"
            if s["scores"]["wer"]["score"] < document["systems"][0]["scores"]["wer"]["score"]
            else " down",
            "",
        )
        for s in document["systems"]
    ]
    assert [e[0] for e in expected] == [d[0] for d in deltas]


# --- the page's segment scores ---------------------------------------------------------------


def test_histogram_is_the_first_metric_without_chrf(
    folder: Path, ranked: tuple[dict[str, Any], str]
) -> None:
    """Without chrF among -m the histogram is of the first metric (here sentence BLEU, as
    sacreBLEU's sentence_bleu); its counts are the segments with a higher, equal and lower
    sentence BLEU than the baseline's."""
    _, page = ranked
    refs = _lines(folder, "ref.A.txt")
    scores = [
        [
            sacrebleu.sentence_bleu(h, [r]).score
            for h, r in zip(_lines(folder, f"sys.{n}.txt"), refs, strict=True)
        ]
        for n in [BASELINE, *SYSTEMS]
    ]
    assert "Each segment's sentence BLEU (sacreBLEU's sentence_bleu" in page.replace("&#39;", "'")
    for own in scores[1:]:
        diffs = [b - a for a, b in zip(scores[0], own, strict=True)]
        counts = (sum(d > 0 for d in diffs), sum(d == 0 for d in diffs), sum(d < 0 for d in diffs))
        assert (
            f'<span class="win-text">{counts[0]} higher</span> &middot; {counts[1]} equal '
            f'&middot; <span class="loss-text">{counts[2]} lower</span>'
        ) in page


def test_wer_histogram_counts_lower_rates_as_wins(folder: Path) -> None:
    """--histogram wer: each segment's WER (jiwer's of the one segment), a lower rate a win;
    a segment with an empty reference is left out."""
    hyps = [_lines(folder, f"sys.{n}.txt")[:40] for n in (BASELINE, "NiuTrans")]
    refs = _lines(folder, "ref.A.txt")[:40]
    refs[3] = ""
    comparison = compare(
        hyps,
        [[r] for r in refs],
        ["chrf", "wer"],
        names=["b.txt", "s.txt"],
        reference_names=["r.txt"],
        samples=20,
        segment_metric="wer",
    )
    rates = [
        [math.nan if not r else 100 * jiwer.wer(r, h) for h, r in zip(system, refs, strict=True)]
        for system in hyps
    ]
    assert [[repr(x) for x in row] for row in rates] == [
        [repr(x) for x in row] for row in comparison.sentence_scores
    ]
    diffs = [b - a for a, b in zip(rates[0], rates[1], strict=True) if not math.isnan(b - a)]
    page = render(comparison)
    wins, ties, losses = (
        sum(d < 0 for d in diffs),
        sum(d == 0 for d in diffs),
        sum(d > 0 for d in diffs),
    )
    assert (
        f'<span class="win-text">{wins} lower</span> &middot; {ties} equal &middot; '
        f'<span class="loss-text">{losses} higher</span>'
    ) in page
    assert "Each segment's segment WER (jiwer" in page.replace("&#39;", "'")


def test_segment_scores_of_ter_are_sacrebleus_sentence_ter(folder: Path) -> None:
    """TER's segment scores are sacreBLEU's sentence_ter."""
    hyps = _lines(folder, f"sys.{BASELINE}.txt")[:50]
    refs = _lines(folder, "ref.A.txt")[:50]
    metric = sg.TerMetric()
    expected = [sacrebleu.sentence_ter(h, [r]).score for h, r in zip(hyps, refs, strict=True)]
    assert expected == segment_scores(metric, metric.statistics(hyps, [[r] for r in refs]))


# --- errors and progress ---------------------------------------------------------------------


def test_errors(folder: Path, tmp_path: Path) -> None:
    """--histogram outside -m, WER with two reference files (usage, 2) and WER without a
    reference word (data, 1; the JSON envelope with --format json): whole messages."""
    args = _args(folder)
    done = run_cli(*args, "-m", "bleu", "--histogram", "ter")
    assert (2, "mtcompute compare: error: --histogram ter is not among --metric bleu\n") == (
        done.returncode,
        done.stderr.decode(),
    )
    two = [*args[:3], args[2], *args[3:]]
    done = run_cli(*two, "-m", "wer", "cer")
    assert (2, "mtcompute compare: error: --metric wer cer: one reference file, got 2\n") == (
        done.returncode,
        done.stderr.decode(),
    )
    empty = tmp_path / "empty.txt"
    empty.write_text("\n" * LINES)
    done = run_cli(*args[:2], str(empty), *args[3:], "-m", "wer", "--format", "json")
    message = (
        "Expected at least one reference with words after normalisation at /references (an "
        "error rate is over the reference's length), got none."
    )
    assert (1, {"error": {"code": "invalid_input", "message": message, "path": ""}}) == (
        done.returncode,
        json.loads(done.stdout),
    )


def test_progress_counts_the_ranking_steps(tmp_path: Path) -> None:
    """On a terminal, --rank adds one step per metric: (systems + 2) x metrics in all."""
    copies = 10_001 // (2 * LINES) + 1
    paths = []
    for name in ("ref.A.txt", f"sys.{BASELINE}.txt", "sys.NiuTrans.txt"):
        path = tmp_path / name
        path.write_text(
            "".join(f"{line}\n" for line in wmt_lines(f"{PAIR}/{name}")[:LINES]) * copies
        )
        paths.append(str(path))
    args = ["compare", "-r", paths[0], "-b", paths[1], "-H", paths[2], "--samples", "50"]
    args += ["-m", "chrf", "wer", "--rank"]
    proc, drawn = stderr_on_a_terminal(args, timeout=120)
    assert (0, True, True) == (proc.returncode, b"| 8/8 [" in drawn, b"<00:" in drawn)
    assert WMT.exists()


# --- score --paired-bs / --paired-ar / --ci with WER and CER ---------------------------------


def _score_json(folder: Path, *extra: str) -> dict[str, Any]:
    systems = [str(folder / f"sys.{n}.txt") for n in [BASELINE, "NiuTrans"]]
    args = ["score", "-r", str(folder / "ref.A.txt"), "-H", *systems, "--format", "json"]
    done = run_cli(*args, *extra)
    assert (0, b"") == (done.returncode, done.stderr)
    document: dict[str, Any] = json.loads(done.stdout)
    return document


@pytest.mark.parametrize("method", ["--paired-bs", "--paired-ar", "--ci"])
def test_score_tests_of_wer_and_cer_are_the_significance_module_s(
    folder: Path, method: str
) -> None:
    """score --paired-bs, --paired-ar and --ci with -m wer cer: each system's rate, p-value,
    mean and half width are mtcompute.significance's on WerMetric's statistics; the
    signature names the test."""
    n = {"--paired-bs": "300", "--paired-ar": "400", "--ci": "200"}[method]
    count = {"--paired-bs": "--paired-bs-n", "--paired-ar": "--paired-ar-n", "--ci": "--ci-n"}
    document = _score_json(folder, "-m", "wer", "cer", method, count[method], n)
    refs = [[line] for line in _lines(folder, "ref.A.txt")]
    for key, unit in (("wer", "word"), ("cer", "character")):
        metric = WerMetric(WerOptions(unit))  # type: ignore[arg-type]
        stats = [
            metric.statistics(_lines(folder, f"sys.{s}.txt"), refs) for s in [BASELINE, "NiuTrans"]
        ]
        if method == "--paired-bs":
            direct = sg.paired_bootstrap([sg.Table(metric, stats)], samples=300)[0]
        elif method == "--paired-ar":
            direct = sg.paired_approximate_randomization([sg.Table(metric, stats)], trials=400)[0]
        else:
            direct = [sg.bootstrap_confidence(metric, s, samples=200) for s in stats]
        found = [s["scores"][key] for s in document["systems"]]
        assert [(r.score, r.p_value, r.mean, r.ci) for r in direct] == [
            (f["score"], f["p_value"], f["mean"], f["ci"]) for f in found
        ]
        test = {"--paired-bs": "bs:300", "--paired-ar": "ar:400", "--ci": "bs:200"}[method]
        tail = f"|jiwer:4.0.0|{test}|seed:12345|mtcompute:{__version__}"
        assert found[0]["signature"].endswith(tail)


def test_score_test_without_reference_words_is_a_data_error(tmp_path: Path) -> None:
    """--paired-bs -m wer on references without a word: the library's refusal (exit 1)."""
    ref, base, own = (tmp_path / n for n in ("r.txt", "b.txt", "s.txt"))
    ref.write_text("\n \n")
    base.write_text("a b\nc\n")
    own.write_text("a\nc d\n")
    done = run_cli("score", "-r", str(ref), "-H", str(base), str(own), "-m", "wer", "--paired-bs")
    assert 1 == done.returncode
    assert b"Expected at least one reference with words after normalisation" in done.stderr


@pytest.mark.parametrize("quiet", [False, True])
def test_score_resampling_bar_on_a_terminal_only(tmp_path: Path, quiet: bool) -> None:
    """score --paired-bs over 10,000 segments: on a terminal a second bar counts the draws
    to their total with the time left (-q: none); in a pipe stderr stays empty."""
    copies = 10_001 // (2 * LINES) + 1
    paths = []
    for name in ("ref.A.txt", f"sys.{BASELINE}.txt", "sys.NiuTrans.txt"):
        path = tmp_path / name
        lines = wmt_lines(f"{PAIR}/{name}")[:LINES]
        path.write_text("".join(f"{line}\n" for line in lines) * copies)
        paths.append(str(path))
    args = ["score", "-r", paths[0], "-H", paths[1], paths[2], "-m", "wer"]
    args += ["--paired-bs", "--paired-bs-n", "300", *(["-q"] if quiet else [])]
    proc, drawn = stderr_on_a_terminal(args, timeout=120)
    if quiet:
        assert (0, b"") == (proc.returncode, drawn)
    else:
        piped = run_cli(*args)
        assert (0, b"", piped.stdout) == (proc.returncode, piped.stderr, proc.stdout)
        assert [True, True, True] == [
            b"resampling" in drawn,
            b"| 300/300 [" in drawn,
            b"draws/s]" in drawn or b"s/ draws]" in drawn,
        ]


def test_ranked_page_in_chromium(browser: Browser, ranked: tuple[dict[str, Any], str]) -> None:
    """Chromium renders the page with rankings without a console message or a request; the
    ranking tables show one row per system and metric, the cluster rules are drawn (a
    visible top border), and a phone screen needs no sideways scroll; screenshots go to
    tests/artifacts/compare/."""
    document, text = ranked
    path = ARTIFACTS / "ranked.html"
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    url = path.resolve().as_uri()
    context = browser.new_context(viewport=ViewportSize(width=1280, height=800))
    page = context.new_page()
    messages: list[str] = []
    requests: list[str] = []
    page.on("console", lambda message: messages.append(f"{message.type}: {message.text}"))
    page.on("pageerror", lambda error: messages.append(f"pageerror: {error}"))
    page.on("request", lambda request: requests.append(request.url))
    try:
        page.goto(url)
        headings = page.locator("h2").all_inner_texts()
        rows = page.locator("table.rank-table tbody tr").count()
        borders = page.locator("table.rank-table tr.cluster-start td").evaluate_all(
            "cells => cells.map(c => getComputedStyle(c).borderTopWidth)"
        )
        page.screenshot(path=str(ARTIFACTS / "ranked-desktop.png"), full_page=True)
        page.set_viewport_size(ViewportSize(width=375, height=812))
        page.screenshot(path=str(ARTIFACTS / "ranked-phone.png"), full_page=True)
        widths = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    finally:
        context.close()
    starts = sum(
        document["rankings"][k]["systems"][-1]["cluster"] - 1 for k in document["rankings"]
    )
    assert ([], [url], "Rankings and clusters", 12, {"2px"}, True) == (
        messages,
        requests,
        headings[1],
        rows,
        set(borders) if starts else {"2px"},
        widths[0] <= widths[1],
    )


def test_lowercase_wer_is_jiwers_with_lowercasing(folder: Path) -> None:
    """compare --lowercase -m wer: jiwer's wer with its ToLowerCase transform first."""
    done = run_cli(
        *_args(folder), "-m", "wer", "--lowercase", "--samples", "20", "--format", "json"
    )
    refs = [line.lower() for line in _lines(folder, "ref.A.txt")]
    expected = [
        100 * jiwer.wer(refs, [h.lower() for h in _lines(folder, f"sys.{n}.txt")])
        for n in [BASELINE, *SYSTEMS]
    ]
    scores = [s["scores"]["wer"]["score"] for s in json.loads(done.stdout)["systems"]]
    assert (0, expected) == (done.returncode, scores)
    plain = run_cli(*_args(folder), "-m", "wer", "--samples", "20", "--format", "json")
    assert scores != [s["scores"]["wer"]["score"] for s in json.loads(plain.stdout)["systems"]]
