"""``mtcompute compare`` and its report (``mtcompute.report``): the command as a subprocess on
the WMT en-de systems, its numbers against :mod:`mtcompute.significance` called directly
(float ``==``), its errors as whole messages, and the HTML page: self-contained (no URL it
could fetch), its text escaped, and rendered in headless Chromium without a console error or
a request, with screenshots in ``tests/artifacts/compare/``."""

from __future__ import annotations

import argparse
import gzip
import json
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from typing import Any, ClassVar

import pytest
import sacrebleu
from playwright.sync_api import Browser, ConsoleMessage, ViewportSize

from mtcompute import significance as sg
from mtcompute.cli import build_parser
from mtcompute.metrics.chrf.resample import ChrfMetric
from mtcompute.metrics.chrf.score import ChrfOptions
from mtcompute.report import DEFAULT_SEED
from mtcompute.report.page import SHOWN_CHARACTERS, compare, render, sentence_chrf
from tests.cli.terminal import stderr_on_a_terminal
from tests.conftest import WMT, WMT_IS_SAMPLE, run_cli, wmt_lines

PAIR = "generaltest2022/en-de"
BASELINE = "JDExploreAcademy"
SYSTEMS = ["Online-B", "Online-W", "OpenNMT", "PROMT"]
ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts" / "compare"
DESKTOP = ViewportSize(width=1280, height=800)
PHONE = ViewportSize(width=375, height=812)


def _path(system: str) -> str:
    return str(WMT / PAIR / f"sys.{system}.txt")


REFERENCE = str(WMT / PAIR / "ref.A.txt")
ARGS = ["compare", "-r", REFERENCE, "-b", _path(BASELINE), "-H", *map(_path, SYSTEMS)]


def _direct(
    metrics: list[sg.BleuMetric | ChrfMetric | sg.TerMetric],
    method: str = "bootstrap",
    samples: int = 1000,
    seed: int = 12345,
) -> list[list[sg.Result]]:
    """mtcompute.significance on the en-de systems, called directly (native arithmetic)."""
    refs = [[line] for line in wmt_lines(f"{PAIR}/ref.A.txt")]
    hyps = [wmt_lines(f"{PAIR}/sys.{name}.txt") for name in [BASELINE, *SYSTEMS]]
    tables = [sg.Table(m, [m.statistics(h, refs) for h in hyps]) for m in metrics]
    if method == "bootstrap":
        return sg.paired_bootstrap(tables, samples=samples, seed=seed)
    return sg.paired_approximate_randomization(tables, trials=samples, confidence=1000, seed=seed)


def _json_rows(document: dict[str, Any], metric: str) -> list[tuple[Any, ...]]:
    return [
        tuple(s["scores"][metric][k] for k in ("score", "p_value", "mean", "ci"))
        for s in document["systems"]
    ]


def _rows(results: list[sg.Result]) -> list[tuple[Any, ...]]:
    return [(r.score, r.p_value, r.mean, r.ci) for r in results]


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], Path]:
    """One run of the command on the five en-de systems (BLEU and chrF, the bootstrap):
    its JSON and the report it wrote."""
    page = tmp_path_factory.mktemp("compare") / "report.html"
    done = run_cli(*ARGS, "-m", "bleu", "chrf", "--format", "json", "--report", str(page))
    assert (0, b"") == (done.returncode, done.stderr)
    return json.loads(done.stdout), page


# --- the numbers -----------------------------------------------------------------------------


def test_json_equals_the_significance_module(report: tuple[dict[str, Any], Path]) -> None:
    """The JSON's scores, p-values, means and half widths are paired_bootstrap's, exactly."""
    document, _ = report
    bleu, chrf = _direct([sg.BleuMetric(), ChrfMetric()])
    assert (_rows(bleu), _rows(chrf)) == (
        _json_rows(document, "bleu"),
        _json_rows(document, "chrf"),
    )


def test_default_seed_is_the_significance_module_s() -> None:
    """mtcompute.report's default seed (kept where numpy is not imported) is significance's."""
    assert sg.DEFAULT_SEED == DEFAULT_SEED


def test_the_command_line_does_not_import_the_report() -> None:
    """Building the parser imports neither numpy nor Jinja2 (the start-up budget)."""
    code = "import sys, mtcompute.cli; mtcompute.cli.build_parser(); print(sorted(m for m in "
    code += "('numpy', 'jinja2', 'mtcompute.report.page') if m in sys.modules))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, check=False)
    assert (b"[]\n", b"") == (done.stdout, done.stderr)


def test_json_describes_the_run(report: tuple[dict[str, Any], Path]) -> None:
    """The JSON names the method, samples, seed, files, metrics, the signatures (those
    `mtcompute score` prints for the same settings) and significance marks."""
    document, _ = report
    bleu = _direct([sg.BleuMetric()])[0]
    scored = run_cli(
        "score", "-H", _path(BASELINE), "-r", REFERENCE, "-m", "bleu", "chrf", "--format", "json"
    )
    scores = json.loads(scored.stdout)["systems"][0]["scores"]
    assert {
        "method": "bootstrap",
        "samples": 1000,
        "seed": 12345,
        "baseline": _path(BASELINE),
        "references": [REFERENCE],
        "segment_count": len(wmt_lines(f"{PAIR}/ref.A.txt")),
        "metrics": ["bleu", "chrf"],
        "signatures": {metric: scores[metric]["signature"] for metric in ("bleu", "chrf")},
        "names": [_path(s) for s in [BASELINE, *SYSTEMS]],
        "baseline_flags": [True, False, False, False, False],
        "significant": [None] + [r.p_value is not None and r.p_value <= 0.05 for r in bleu[1:]],
    } == {
        **{k: v for k, v in document.items() if k != "systems"},
        "names": [s["hypotheses"] for s in document["systems"]],
        "baseline_flags": [s["baseline"] for s in document["systems"]],
        "significant": [s["scores"]["bleu"]["significant"] for s in document["systems"]],
    }


def _cells(result: sg.Result) -> list[str]:
    """The words of one metric's cell in the text table."""
    words = [f"{result.score:.2f}", f"({result.mean:.2f}", "±", f"{result.ci:.2f})"]
    if result.p_value is not None:
        mark = "*" if result.p_value <= 0.05 else ""
        words += ["p", "=", f"{result.p_value:.4f}{mark}"]
    return words


def test_text_table_prints_the_significance_numbers() -> None:
    """Each line of the text table holds the system and, per metric, its score, mean ± half
    width and p-value (with * at p <= 0.05) as paired_bootstrap gives them."""
    done = run_cli(*ARGS, "-m", "bleu", "chrf++")
    bleu, chrf = _direct([sg.BleuMetric(), ChrfMetric(ChrfOptions(word_order=2))])
    names = [f"{_path(BASELINE)} (baseline)", *map(_path, SYSTEMS)]
    expected = [
        "paired bootstrap resampling: 1000 resamples, seed 12345; "
        f"{len(wmt_lines(f'{PAIR}/ref.A.txt'))} segments; * p <= 0.05",
        "",
        " ".join(["system", "BLEU", "chrF2++"]),
        *(
            " ".join([name, *_cells(b), *_cells(c)])
            for name, b, c in zip(names, bleu, chrf, strict=True)
        ),
    ]
    lines = done.stdout.decode().splitlines()
    assert (0, expected) == (done.returncode, lines[:2] + [" ".join(x.split()) for x in lines[2:]])


def test_approximate_randomization_and_seed_zero() -> None:
    """--method ar with --seed 0 gives paired_approximate_randomization's numbers at seed 0
    (0 is a seed: not the default's draws)."""
    done = run_cli(*ARGS, "-m", "ter", "--method", "ar", "--samples", "500", "--seed", "0")
    ter = _direct([sg.TerMetric()], "ar", 500, 0)[0]
    default = _direct([sg.TerMetric()], "ar", 500)[0]
    done_json = run_cli(
        *ARGS, "-m", "ter", "--method", "ar", "--samples", "500", "--seed", "0", "--format", "json"
    )
    document = json.loads(done_json.stdout)
    assert (0, _rows(ter), True) == (
        done.returncode,
        _json_rows(document, "ter"),
        _rows(ter) != _rows(default),
    )


@pytest.mark.skipif(WMT_IS_SAMPLE, reason="the issue's figures are on the full en-de data")
def test_issue_figures(report: tuple[dict[str, Any], Path]) -> None:
    """Issue 13's bootstrap p-values of BLEU and chrF (seed 12345) on the full en-de data."""
    document, _ = report
    assert [[31, 2, 1, 1], [43, 166, 1, 1]] == [
        [round(row[1] * 1001) for row in _json_rows(document, metric)[1:]]
        for metric in ("bleu", "chrf")
    ]


# --- errors ----------------------------------------------------------------------------------


@pytest.fixture
def files(tmp_path: Path) -> dict[str, str]:
    """Small files: a reference, a baseline and a system of three lines, one of two lines,
    one that is not UTF-8 on its second line."""
    contents = {
        "ref.txt": b"the cat sat\non the mat\ntoday\n",
        "base.txt": b"the cat\non a mat\ntoday\n",
        "sys.txt": b"a cat sat\non the mat\nnow\n",
        "short.txt": b"the cat\non a mat\n",
        "bad.txt": b"the cat\non \xff mat\ntoday\n",
    }
    for name, data in contents.items():
        (tmp_path / name).write_bytes(data)
    return {name: str(tmp_path / name) for name in contents}


def _usage() -> str:
    """The compare sub-command's usage text, as argparse prints it before an error."""
    parser = build_parser()
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return str(action.choices["compare"].format_usage())


ERRORS = [
    (
        "missing file",
        ["-r", "{ref.txt}", "-b", "{base.txt}", "-H", "{nope.txt}"],
        2,
        "mtcompute compare: error: cannot read {nope.txt}: No such file or directory\n",
    ),
    (
        "different line counts",
        ["-r", "{ref.txt}", "-b", "{base.txt}", "-H", "{short.txt}"],
        1,
        "mtcompute compare: error: the files have different numbers of lines: "
        "{base.txt} has 3, {short.txt} has 2; every file needs one line per segment\n",
    ),
    (
        "not UTF-8",
        ["-r", "{ref.txt}", "-b", "{base.txt}", "-H", "{bad.txt}"],
        1,
        "mtcompute compare: error: {bad.txt}: line 2 is not valid UTF-8: byte 0xff at byte "
        "offset 11 of the file (offset 3 in the line): invalid start byte\n",
    ),
    (
        "a system twice",
        ["-r", "{ref.txt}", "-b", "{base.txt}", "-H", "{sys.txt}", "{base.txt}"],
        2,
        "mtcompute compare: error: {base.txt} is given more than once as a system (the "
        "baseline and each system are compared as different outputs)\n",
    ),
    (
        "a metric twice",
        ["-r", "{ref.txt}", "-b", "{base.txt}", "-H", "{sys.txt}", "-m", "chrf", "chrf"],
        2,
        "mtcompute compare: error: --metric chrf is given more than once\n",
    ),
    (
        "report not writable",
        ["-r", "{ref.txt}", "-b", "{base.txt}", "-H", "{sys.txt}", "--report", "{no/r.html}"],
        2,
        "mtcompute compare: error: cannot write --report {no/r.html}: No such file or directory\n",
    ),
    (
        "bad method",
        ["-r", "{ref.txt}", "-b", "{base.txt}", "-H", "{sys.txt}", "--method", "x"],
        2,
        "USAGE"
        "mtcompute compare: error: argument --method: invalid choice: 'x' (choose from "
        "'bootstrap', 'ar')\n",
    ),
    (
        "negative seed",
        ["-r", "{ref.txt}", "-b", "{base.txt}", "-H", "{sys.txt}", "--seed", "-1"],
        2,
        "USAGE"
        "mtcompute compare: error: argument --seed: expected a non-negative integer, "
        "got '-1'\n",
    ),
    (
        "zero samples",
        ["-r", "{ref.txt}", "-b", "{base.txt}", "-H", "{sys.txt}", "--samples", "0"],
        2,
        "USAGEmtcompute compare: error: argument --samples: expected a positive integer, got '0'\n",
    ),
    (
        "no baseline",
        ["-r", "{ref.txt}", "-H", "{sys.txt}"],
        2,
        "USAGEmtcompute compare: error: the following arguments are required: --baseline/-b\n",
    ),
]


@pytest.mark.parametrize(
    ("name", "args", "code", "message"), ERRORS, ids=[case[0] for case in ERRORS]
)
def test_errors(
    files: dict[str, str],
    monkeypatch: pytest.MonkeyPatch,
    name: str,
    args: list[str],
    code: int,
    message: str,
) -> None:
    """Bad files and options: the exit status and the whole message on stderr, nothing on
    stdout."""
    monkeypatch.setenv("COLUMNS", "100")
    folder = str(Path(files["ref.txt"]).parent)

    def fill(text: str) -> str:
        for key, path in files.items():
            text = text.replace("{" + key + "}", path)
        return text.replace("{nope.txt}", folder + "/nope.txt").replace(
            "{no/r.html}", folder + "/no/r.html"
        )

    done = run_cli("compare", *map(fill, args))
    expected = fill(message).replace("USAGE", _usage())
    assert (code, b"", expected) == (done.returncode, done.stdout, done.stderr.decode())


def test_data_error_as_json(files: dict[str, str]) -> None:
    """With --format json a data error is the error envelope on stdout (exit 1)."""
    done = run_cli(
        "compare", "-r", files["ref.txt"], "-b", files["base.txt"], "-H", files["short.txt"]
    )
    done_json = run_cli(
        "compare",
        "-r",
        files["ref.txt"],
        "-b",
        files["base.txt"],
        "-H",
        files["short.txt"],
        "--format",
        "json",
    )
    message = done.stderr.decode().removeprefix("mtcompute compare: error: ").rstrip("\n")
    expected = {"error": {"code": "invalid_input", "message": message, "path": ""}}
    assert (1, expected, b"") == (
        done_json.returncode,
        json.loads(done_json.stdout),
        done_json.stderr,
    )


# --- the page --------------------------------------------------------------------------------


class _Resources(HTMLParser):
    """Every tag with the attributes through which a browser could fetch something."""

    FETCHING: ClassVar[set[str]] = {
        "src",
        "srcset",
        "href",
        "xlink:href",
        "action",
        "formaction",
        "poster",
        "data",
    }

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.fetching: list[tuple[str, str, str | None]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        self.fetching += [(tag, k, v) for k, v in attrs if k in self.FETCHING]


def _resources(page: str) -> _Resources:
    parser = _Resources()
    parser.feed(page)
    parser.close()
    return parser


def test_page_fetches_nothing(report: tuple[dict[str, Any], Path]) -> None:
    """The page has no src or outside href, no link, script, img or iframe tag, and no CSS
    url() or @import: nothing a browser would fetch."""
    page = report[1].read_text(encoding="utf-8")
    found = _resources(page)
    outside = [(t, k, v) for t, k, v in found.fetching if not (k == "href" and v and v[0] == "#")]
    tags = sorted({t for t in found.tags if t in ("link", "script", "img", "iframe", "object")})
    assert ([], [], False, False) == (outside, tags, "url(" in page, "@import" in page)


def test_the_checks_can_fail() -> None:
    """The resource check sees an image, a stylesheet link and an outside href."""
    found = _resources('<img src="x.png"><link href="s.css"><a href="https://example.com">')
    assert [
        ("img", "src", "x.png"),
        ("link", "href", "s.css"),
        ("a", "href", "https://example.com"),
    ] == found.fetching


def test_page_shows_the_table_numbers(report: tuple[dict[str, Any], Path]) -> None:
    """Each metric's table on the page shows every system's score, mean ± half width and
    p-value (with its mark) as the JSON gives them."""
    document, path = report
    page = path.read_text(encoding="utf-8")
    missing = []
    for system in document["systems"]:
        for score in system["scores"].values():
            cells = [
                f'<td class="num score">{score["score"]:.2f}</td>',
                f'<td class="num interval">{score["mean"]:.2f} ± {score["ci"]:.2f}</td>',
            ]
            if score["p_value"] is not None:
                p = f"{score['p_value']:.4f}"
                cells.append(p + ('<span class="sig"' if score["significant"] else "</td>"))
            missing += [cell for cell in cells if cell not in page]
    assert [] == missing


def test_sentence_chrf_is_sacrebleu_s() -> None:
    """The page's segment scores are sacreBLEU's sentence_chrf (first 100 en-de segments)."""
    hyps = wmt_lines(f"{PAIR}/sys.{BASELINE}.txt")[:100]
    refs = wmt_lines(f"{PAIR}/ref.A.txt")[:100]
    statistics = ChrfMetric().statistics(hyps, [[r] for r in refs])
    expected = [sacrebleu.sentence_chrf(h, [r]).score for h, r in zip(hyps, refs, strict=True)]
    assert expected == sentence_chrf(statistics)


def test_page_counts_wins_ties_and_losses(report: tuple[dict[str, Any], Path]) -> None:
    """Each histogram's caption counts the segments whose sentence chrF2 is higher, equal and
    lower than the baseline's."""
    page = report[1].read_text(encoding="utf-8")
    refs = [[line] for line in wmt_lines(f"{PAIR}/ref.A.txt")]
    scores = [
        sentence_chrf(ChrfMetric().statistics(wmt_lines(f"{PAIR}/sys.{name}.txt"), refs))
        for name in [BASELINE, *SYSTEMS]
    ]
    expected = []
    for own in scores[1:]:
        diffs = [b - a for a, b in zip(scores[0], own, strict=True)]
        higher, equal = sum(d > 0 for d in diffs), sum(d == 0 for d in diffs)
        lower = sum(d < 0 for d in diffs)
        expected.append(
            f'<p class="counts"><span class="win-text">{higher} higher</span> &middot; {equal} '
            f'equal &middot; <span class="loss-text">{lower} lower</span></p>'
        )
    assert [] == [text for text in expected if text not in page]


def _tiny(baseline: list[str], system: list[str], reference: list[str]) -> str:
    comparison = compare(
        [baseline, system],
        [[r] for r in reference],
        ["chrf"],
        names=["base.txt", "sys.txt"],
        reference_names=["ref.txt"],
        samples=10,
    )
    return render(comparison)


def test_page_escapes_segment_text() -> None:
    """Markup in the segments is shown as text: no tag of theirs reaches the page."""
    hostile = '<img src="https://example.com/x.png"> & <script>alert(1)</script>'
    page = _tiny([hostile, "b"], ["x", "b"], ["a", "b"])
    found = _resources(page)
    assert ([], [], True) == (
        [f for f in found.fetching if f[1] != "href"],
        [t for t in found.tags if t in ("img", "script")],
        "&lt;img src=&#34;https://example.com/x.png&#34;&gt; &amp; &lt;script&gt;" in page,
    )


def test_page_highlights_words_found_in_the_reference() -> None:
    """The words of a translation that occur in the reference are marked, the others not."""
    page = _tiny(["the dog lay there"], ["the cat sat there"], ["a cat sat on the mat"])
    marked = "<mark>the</mark> <mark>cat</mark> <mark>sat</mark> there"
    assert (True, True) == (marked in page, "<mark>the</mark> dog lay there" in page)


def test_page_in_chromium(browser: Browser, report: tuple[dict[str, Any], Path]) -> None:
    """Chromium renders the page without a console message or an error and requests nothing
    but the page; its sections and charts show, a phone screen needs no sideways scroll, and
    desktop and phone screenshots go to tests/artifacts/compare/."""
    url = report[1].resolve().as_uri()
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    messages: list[str] = []
    requests: list[str] = []
    page.on("console", lambda message: messages.append(_console(message)))
    page.on("pageerror", lambda error: messages.append(f"pageerror: {error}"))
    page.on("request", lambda request: requests.append(request.url))
    try:
        page.goto(url)
        headings = page.locator("h2").all_inner_texts()
        charts = page.locator("figure.chart svg").count(), page.locator("figure.hist svg").count()
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "report-desktop.png"), full_page=True)
        page.set_viewport_size(PHONE)
        page.screenshot(path=str(ARTIFACTS / "report-phone.png"), full_page=True)
        widths = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    finally:
        context.close()
    assert (
        [],
        [url],
        [
            "Scores and significance",
            "Scores with their 95% intervals",
            "Segment by segment",
            "Largest wins and losses",
            "About these numbers",
        ],
        (2, 4),
        True,
    ) == (messages, requests, headings, charts, widths[0] <= widths[1])


def _console(message: ConsoleMessage) -> str:
    return f"{message.type}: {message.text}"


# -- progress ------------------------------------------------------------------------------


def _long_pair(tmp_path: Path) -> list[str]:
    """compare's arguments on two systems repeated past 10,000 segments in all."""
    copies = 5_001 // len(wmt_lines(f"{PAIR}/ref.A.txt")) + 1
    paths = []
    for name, source in (("ref", REFERENCE), ("base", _path(BASELINE)), ("sys", _path("PROMT"))):
        path = tmp_path / name
        path.write_bytes(Path(source).read_bytes() * copies)
        paths.append(str(path))
    return ["compare", "-r", paths[0], "-b", paths[1], "-H", paths[2], "--samples", "100"]


@pytest.mark.parametrize("quiet", [False, True])
def test_progress_on_a_terminal_with_eta_unless_quiet(tmp_path: Path, quiet: bool) -> None:
    """On a terminal: the steps (each system and metric counted, each metric resampled) with
    their rate and the time left, and the same output as without; --quiet draws nothing."""
    args = [*_long_pair(tmp_path), "-m", "bleu", "chrf", *(["--quiet"] if quiet else [])]
    plain = run_cli(*args)
    proc, drawn = stderr_on_a_terminal(args, timeout=120)
    assert (0, plain.stdout) == (proc.returncode, proc.stdout)
    if quiet:
        assert b"" == drawn
    else:
        assert [True, True, True] == [b"| 6/6 [" in drawn, b"<00:" in drawn, b"steps/s]" in drawn]


# -- BLEU's tokenizer, lowercase, compressed files ---------------------------------------------

ZH = "generaltest2022/en-zh"


def _zh(*extra: str) -> dict[str, Any]:
    """compare's JSON on two en-zh systems (BLEU and chrF, 200 resamples) with ``extra``."""
    folder = WMT / ZH
    args = ["-r", str(folder / "ref.A.txt"), "-b", str(folder / "sys.HuaweiTSC.txt")]
    args += ["-H", str(folder / "sys.Online-B.txt"), "-m", "bleu", "chrf"]
    done = run_cli("compare", *args, "--samples", "200", "--format", "json", *extra)
    assert (0, b"") == (done.returncode, done.stderr)
    document: dict[str, Any] = json.loads(done.stdout)
    return document


def _scores(document: dict[str, Any], metric: str) -> list[float]:
    return [system["scores"][metric]["score"] for system in document["systems"]]


def test_language_pair_chooses_bleus_tokenizer_as_sacrebleu() -> None:
    """-l en-zh is --tokenize zh (sacreBLEU's choice for a zh target): sacreBLEU's numbers,
    the zh signature; chrF is unchanged; without either, 13a."""
    by_pair, named, plain = _zh("-l", "en-zh"), _zh("--tokenize", "zh"), _zh()
    refs = [wmt_lines(f"{ZH}/ref.A.txt")]
    expected = [
        sacrebleu.BLEU(trg_lang="zh").corpus_score(wmt_lines(f"{ZH}/sys.{name}.txt"), refs).score
        for name in ("HuaweiTSC", "Online-B")
    ]
    assert (expected, by_pair) == (_scores(by_pair, "bleu"), named)
    assert "|tok:zh|" in by_pair["signatures"]["bleu"]
    assert "|tok:13a|" in plain["signatures"]["bleu"]
    assert _scores(plain, "chrf") == _scores(by_pair, "chrf")
    assert _scores(plain, "bleu") != _scores(by_pair, "bleu")


def test_lowercase_is_sacrebleus_lowercase_for_bleu_and_chrf() -> None:
    """--lowercase: sacreBLEU's lowercase=True for BLEU and chrF, and their signatures say so."""
    document = _zh("--lowercase", "--tokenize", "zh")
    refs = [wmt_lines(f"{ZH}/ref.A.txt")]
    hyps = [wmt_lines(f"{ZH}/sys.{name}.txt") for name in ("HuaweiTSC", "Online-B")]
    bleu = sacrebleu.BLEU(lowercase=True, tokenize="zh")
    chrf = sacrebleu.CHRF(lowercase=True)
    assert (
        [bleu.corpus_score(h, refs).score for h in hyps],
        [chrf.corpus_score(h, refs).score for h in hyps],
        ["|case:lc|", "|case:lc|"],
    ) == (
        _scores(document, "bleu"),
        _scores(document, "chrf"),
        [
            s[s.index("|case") : s.index("|", s.index("|case") + 1) + 1]
            for s in document["signatures"].values()
        ],
    )


def test_gzipped_files_read_as_the_plain_ones(tmp_path: Path) -> None:
    """Files named *.gz are decompressed (as sacreBLEU reads them): the same JSON, bar names;
    a truncated one is a usage error naming the file, never a traceback."""
    paths = []
    for name in ("ref.A.txt", "sys.HuaweiTSC.txt", "sys.Online-B.txt"):
        path = tmp_path / f"{name}.gz"
        path.write_bytes(gzip.compress((WMT / ZH / name).read_bytes()))
        paths.append(str(path))
    args = ["compare", "-r", paths[0], "-b", paths[1], "-H", paths[2], "-m", "bleu", "chrf"]
    done = run_cli(*args, "--samples", "200", "--format", "json")
    document = json.loads(done.stdout)
    plain = _zh()
    assert [_scores(plain, "bleu"), _scores(plain, "chrf")] == [
        _scores(document, "bleu"),
        _scores(document, "chrf"),
    ]
    (tmp_path / "cut.gz").write_bytes(Path(paths[0]).read_bytes()[:500])
    cut = run_cli("compare", "-r", str(tmp_path / "cut.gz"), "-b", paths[1], "-H", paths[2])
    assert (2, b"") == (cut.returncode, cut.stdout)
    assert cut.stderr.decode().startswith(
        f"mtcompute compare: error: cannot read {tmp_path}/cut.gz: "
    )


def test_long_segments_are_cut_on_the_page() -> None:
    """A segment of 200,000 characters shows its first SHOWN_CHARACTERS and how many were
    cut: the page stays small (it held every character before)."""
    long_base, long_ref = "x" * 200_000, "z" * 200_000
    comparison = compare(
        [["a b c", long_base], ["a b d", long_ref]],
        [["a b c"], [long_ref]],
        ["chrf"],
        names=["base.txt", "sys.txt"],
        reference_names=["ref.txt"],
        samples=10,
    )
    page = render(comparison)
    assert len(page) < 60_000
    assert [True, True, True] == [
        f"({200_000 - SHOWN_CHARACTERS} more characters)" in page,
        "x" * SHOWN_CHARACTERS in page and "x" * (SHOWN_CHARACTERS + 1) not in page,
        "z" * SHOWN_CHARACTERS in page and "z" * (SHOWN_CHARACTERS + 1) not in page,
    ]
