"""The comparison report's page (:class:`~mtcompute.report.comparison.Comparison`, re-exported
here with :func:`compare`): :func:`render` turns a comparison into one HTML5 document: the
Jinja2 templates of ``report/templates/`` (autoescaped), the CSS written into the page, the
charts inline SVG drawn by the template from the coordinates computed here. No script, no
font, no request of any kind.
"""

from __future__ import annotations

__all__ = [
    "Comparison",
    "agreement_text",
    "compare",
    "progress_steps",
    "render",
    "segment_scores",
    "sentence_chrf",
]

import math
import re
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

from mtcompute._version import __version__
from mtcompute.report import (
    CONFIDENCE_SAMPLES,
    THRESHOLD,
    is_significant,
)
from mtcompute.report.comparison import (
    LOWER_IS_BETTER,
    Comparison,
    compare,
    progress_steps,
    segment_scores,
    sentence_chrf,
)

if TYPE_CHECKING:
    from jinja2 import Environment

EXAMPLES = 5
"""Segments shown per system among its largest wins, and as many among its losses."""
SHOWN_CHARACTERS = 600
"""The characters of a segment the examples show at most: a longer one is cut, an ellipsis
and the count of characters left out ending it (a 1 MB line would otherwise be a page)."""

_WORD = re.compile(r"(\w+)")


_SEGMENT_TEXTS = {
    "bleu": "sentence BLEU (sacreBLEU's sentence_bleu: exponential smoothing, effective order)",
    "chrf": "sentence chrF2 (sacreBLEU's sentence_chrf)",
    "chrf++": "sentence chrF2++ (sacreBLEU's sentence_chrf)",
    "ter": "sentence TER (sacreBLEU's sentence_ter)",
    "wer": "segment WER (jiwer's rate of the one segment; a segment whose reference has no "
    "word has none and is left out)",
    "cer": "segment CER (jiwer's rate of the one segment; a segment whose reference has no "
    "character has none and is left out)",
}
"""What the page's segment scores are, by metric."""


# --- the page's data: Python computes, the templates draw ------------------------------------


@dataclass(frozen=True, slots=True)
class Tick:
    """An axis tick: its position and its label."""

    x: float
    label: str


@dataclass(frozen=True, slots=True)
class Cell:
    """One system's result for one metric, as the table prints it."""

    score: str
    delta: str
    interval: str
    p_value: str
    significant: bool | None
    better: bool | None


@dataclass(frozen=True, slots=True)
class ScoreRow:
    """One system in a score chart: its row and the x of its score and interval ends."""

    label: str
    y: float
    score_x: float
    low_x: float
    high_x: float
    baseline: bool
    significant: bool | None
    text: str


@dataclass(frozen=True, slots=True)
class ScoreChart:
    """One metric's chart of scores with their intervals."""

    metric: str
    lower_is_better: bool
    width: int
    height: int
    left: int
    right: int
    top: int
    bottom: int
    baseline_x: float
    ticks: tuple[Tick, ...]
    rows: tuple[ScoreRow, ...]


@dataclass(frozen=True, slots=True)
class Bar:
    """One histogram bin: its rectangle, its sign (-1, 0, 1) and what it holds."""

    x: float
    y: float
    width: float
    height: float
    sign: int
    title: str


@dataclass(frozen=True, slots=True)
class Histogram:
    """One system's distribution of sentence-level differences from the baseline."""

    label: str
    wins: int
    ties: int
    losses: int
    mean: str
    bars: tuple[Bar, ...]
    zero_x: float
    ticks: tuple[Tick, ...]
    width: int  # the drawing's size and axes (_HIST_WIDTH, _HIST_HEIGHT, _HIST_PAD)
    height: int
    left: int
    right: int
    top: int
    axis_y: float


@dataclass(frozen=True, slots=True)
class Token:
    """A piece of a segment and whether it is a word found in the reference."""

    text: str
    matched: bool


@dataclass(frozen=True, slots=True)
class Example:
    """One segment side by side: baseline, system, reference(s), their sentence scores."""

    line: int
    delta: str
    baseline: tuple[Token, ...]
    system: tuple[Token, ...]
    references: tuple[str, ...]
    baseline_score: str
    system_score: str


@dataclass(frozen=True, slots=True)
class SystemExamples:
    """One system's largest wins and losses against the baseline."""

    label: str
    name: str
    wins: tuple[Example, ...]
    losses: tuple[Example, ...]


def _system_label(name: str) -> str:
    """The short name of a system file: its base name without ``sys.`` and ``.txt``."""
    base = name.replace("\\", "/").rsplit("/", 1)[-1]
    base = base.removeprefix("sys.")
    return base.removesuffix(".txt") or name


def _short(text: str, most: int = 20) -> str:
    """``text`` cut to ``most`` characters, an ellipsis ending a cut one (a chart's label)."""
    return text if len(text) <= most else text[: most - 1] + "\u2026"


def _number(value: float, digits: int = 2) -> str:
    """``value`` to ``digits`` decimals with a true minus sign."""
    return f"{value:.{digits}f}".replace("-", "\u2212")


def _signed(value: float) -> str:
    text = _number(value)
    return text if text.startswith("\u2212") else "+" + text


def _nice_step(span: float, target: int) -> float:
    """A step of 1, 2 or 5 times a power of ten giving about ``target`` steps over ``span``."""
    raw = span / max(target, 1)
    power = 10.0 ** math.floor(math.log10(raw)) if raw > 0 else 1.0
    for factor in (1.0, 2.0, 5.0, 10.0):
        if raw <= factor * power:
            return factor * power
    return 10.0 * power


def _tick_label(value: float, step: float) -> str:
    decimals = max(0, -math.floor(math.log10(step))) if step < 1 else 0
    return _number(value, decimals)


def _cells(comparison: Comparison) -> list[list[Cell]]:
    """``cells[s][m]``: the table's texts of system ``s`` and metric ``m``."""
    cells: list[list[Cell]] = [[] for _ in comparison.names]
    for m, row in enumerate(comparison.results):
        base = row[0].score
        lower = comparison.lower_is_better(m)
        for s, result in enumerate(row):
            difference = result.score - base
            better = None if s == 0 or difference == 0 else (difference < 0) == lower
            interval = (
                f"{_number(result.mean)} \u00b1 {_number(result.ci)}"
                if result.mean is not None and result.ci is not None
                else "\u2014"
            )
            cells[s].append(
                Cell(
                    score=_number(result.score),
                    delta="" if s == 0 else _signed(difference),
                    interval=interval,
                    p_value="" if result.p_value is None else f"{result.p_value:.4f}",
                    significant=is_significant(result.p_value),
                    better=better,
                )
            )
    return cells


_CHART_WIDTH, _ROW_HEIGHT, _LEFT, _RIGHT, _TOP, _BOTTOM = 640, 34, 170, 24, 12, 34


def _score_chart(comparison: Comparison, m: int) -> ScoreChart:
    row = comparison.results[m]
    spans = [
        (r.score, r.score) if r.mean is None or r.ci is None else (r.mean - r.ci, r.mean + r.ci)
        for r in row
    ]
    low = min(min(a, r.score) for (a, _), r in zip(spans, row, strict=True))
    high = max(max(b, r.score) for (_, b), r in zip(spans, row, strict=True))
    step = _nice_step(max(high - low, 1e-9), 5)
    lo, hi = math.floor(low / step) * step, math.ceil(high / step) * step
    if hi <= lo:
        lo, hi = lo - step, hi + step
    width = _CHART_WIDTH - _LEFT - _RIGHT

    def x(value: float) -> float:
        return round(_LEFT + (value - lo) / (hi - lo) * width, 2)

    ticks = []
    value = lo
    while value <= hi + step / 2:
        ticks.append(Tick(x(value), _tick_label(value, step)))
        value += step
    rows = []
    for s, (result, (a, b)) in enumerate(zip(row, spans, strict=True)):
        rows.append(
            ScoreRow(
                label=_short(_system_label(comparison.names[s])),
                y=_TOP + s * _ROW_HEIGHT + _ROW_HEIGHT / 2,
                score_x=x(result.score),
                low_x=x(a),
                high_x=x(b),
                baseline=s == 0,
                significant=is_significant(result.p_value),
                text=f"{comparison.metric_names[m]} {_number(result.score)}, bootstrap "
                f"{_number((a + b) / 2)} \u00b1 {_number((b - a) / 2)}",
            )
        )
    return ScoreChart(
        metric=comparison.metric_names[m],
        lower_is_better=comparison.lower_is_better(m),
        width=_CHART_WIDTH,
        height=_TOP + len(row) * _ROW_HEIGHT + _BOTTOM,
        left=_LEFT,
        right=_CHART_WIDTH - _RIGHT,
        top=_TOP,
        bottom=_TOP + len(row) * _ROW_HEIGHT,
        baseline_x=x(row[0].score),
        ticks=tuple(ticks),
        rows=tuple(rows),
    )


_HIST_WIDTH, _HIST_HEIGHT, _HIST_PAD, _HIST_AXIS, _BINS, _COVERED = 320, 170, 8, 22, 25, 0.99


def _differences(comparison: Comparison, s: int) -> list[float]:
    """System ``s``'s segment scores minus the baseline's (NaN where either has none)."""
    base, own = comparison.sentence_scores[0], comparison.sentence_scores[s]
    return [b - a for a, b in zip(base, own, strict=True)]


def _direction(comparison: Comparison) -> int:
    """1 when a higher segment score is better, -1 for an error rate."""
    return -1 if comparison.sentence_metric in LOWER_IS_BETTER else 1


def _histograms(comparison: Comparison) -> list[Histogram]:
    """A histogram per system of its segment scores minus the baseline's, on shared bins
    (centred on multiples of one step, zero in the middle bin) and one count scale; a bar's
    sign says whether its segments are wins (1) or losses (-1) in the metric's direction.
    Segments without a score (WER's empty references) are left out."""
    direction = _direction(comparison)
    diffs = [
        [d for d in _differences(comparison, s) if not math.isnan(d)]
        for s in range(1, len(comparison.names))
    ]
    spread = sorted(abs(d) for row in diffs for d in row)
    # the range holds 99% of the differences; the outer bins take the rest
    largest = spread[min(len(spread) - 1, math.ceil(_COVERED * len(spread)) - 1)] if spread else 0
    step = _nice_step(max(2 * largest, 1.0), _BINS)
    half = max(1, math.ceil(largest / step - 0.5))
    bins = range(-half, half + 1)
    counts = [[0] * len(bins) for _ in diffs]
    for row, count in zip(diffs, counts, strict=True):
        for d in row:
            count[min(max(math.floor(d / step + 0.5), -half), half) + half] += 1
    tallest = max((max(c) for c in counts), default=1) or 1
    plot = _HIST_WIDTH - 2 * _HIST_PAD
    bar_width = plot / len(bins)
    height = _HIST_HEIGHT - _HIST_AXIS - _HIST_PAD

    def x(value: float) -> float:
        return round(_HIST_PAD + (value / step + half + 0.5) * bar_width, 2)

    tick_step = _nice_step(half * step, 3)
    tick_values = [k * tick_step for k in range(-3, 4) if abs(k * tick_step) <= (half + 0.5) * step]
    ticks = tuple(Tick(x(v), _tick_label(v, tick_step)) for v in tick_values)
    out = []
    for s, (row, count) in enumerate(zip(diffs, counts, strict=True), start=1):
        bars = []
        for j, n in zip(bins, count, strict=True):
            if not n:
                continue
            h = round(height * n / tallest, 2)
            bars.append(
                Bar(
                    x=round(_HIST_PAD + (j + half) * bar_width + 0.5, 2),
                    y=round(_HIST_PAD + height - h, 2),
                    width=round(bar_width - 1, 2),
                    height=h,
                    sign=((j > 0) - (j < 0)) * direction,
                    title=f"{n} segment{'s' * (n != 1)} with a difference "
                    + (
                        f"below {_number((j + 0.5) * step, 1)}"
                        if j == -half
                        else f"of {_number((j - 0.5) * step, 1)} or more"
                        if j == half
                        else f"of {_number((j - 0.5) * step, 1)} to {_number((j + 0.5) * step, 1)}"
                    ),
                )
            )
        out.append(
            Histogram(
                label=_system_label(comparison.names[s]),
                wins=sum(d * direction > 0 for d in row),
                ties=sum(d == 0 for d in row),
                losses=sum(d * direction < 0 for d in row),
                mean=_signed(sum(row) / len(row)) if row else "\u2014",
                bars=tuple(bars),
                zero_x=x(0.0),
                ticks=ticks,
                width=_HIST_WIDTH,
                height=_HIST_HEIGHT,
                left=_HIST_PAD,
                right=_HIST_WIDTH - _HIST_PAD,
                top=_HIST_PAD,
                axis_y=_HIST_PAD + height,
            )
        )
    return out


def _tokens(text: str, words: set[str]) -> tuple[Token, ...]:
    """``text`` in pieces, its words (``\\w+``) marked when one of ``words``."""
    pieces = _WORD.split(text)
    return tuple(
        Token(piece, i % 2 == 1 and piece in words) for i, piece in enumerate(pieces) if piece
    )


def _shown(text: str) -> str:
    """``text`` as the examples show it: at most :data:`SHOWN_CHARACTERS`, then what was cut.

    >>> _shown("a" * 601).endswith(" (1 more character)"), _shown("a" * 600) == "a" * 600
    (True, True)
    """
    cut = len(text) - SHOWN_CHARACTERS
    if cut <= 0:
        return text
    return f"{text[:SHOWN_CHARACTERS]}… ({cut} more character{'s' * (cut != 1)})"


def _example(comparison: Comparison, s: int, i: int) -> Example:
    references = tuple(_shown(ref) for ref in comparison.references[i])
    words = {w for ref in references for w in _WORD.findall(ref)}
    base, own = comparison.sentence_scores[0][i], comparison.sentence_scores[s][i]
    return Example(
        line=i + 1,
        delta=_signed(own - base),
        baseline=_tokens(_shown(comparison.hypotheses[0][i]), words),
        system=_tokens(_shown(comparison.hypotheses[s][i]), words),
        references=references,
        baseline_score=_number(base),
        system_score=_number(own),
    )


def _examples(comparison: Comparison) -> list[SystemExamples]:
    out = []
    direction = _direction(comparison)
    for s in range(1, len(comparison.names)):
        # gains in the metric's direction; a segment without a score is neither win nor loss
        diffs = [0.0 if math.isnan(d) else d * direction for d in _differences(comparison, s)]
        order = sorted(range(len(diffs)), key=lambda i: (-diffs[i], i))
        wins = [i for i in order[:EXAMPLES] if diffs[i] > 0]
        losses = [i for i in sorted(range(len(diffs)), key=lambda i: (diffs[i], i)) if diffs[i] < 0]
        out.append(
            SystemExamples(
                label=_system_label(comparison.names[s]),
                name=comparison.names[s],
                wins=tuple(_example(comparison, s, i) for i in wins),
                losses=tuple(_example(comparison, s, i) for i in losses[:EXAMPLES]),
            )
        )
    return out


@dataclass(frozen=True, slots=True)
class RankRow:
    """One system in a ranking table: its rank range, name, score, cluster, whether it
    starts a new cluster, and its difference from the baseline with Kocmi et al.'s estimated
    agreement with humans (empty for the baseline; "n/a" where no curve was fitted)."""

    rank: str
    label: str
    name: str
    score: str
    cluster: int
    starts_cluster: bool
    baseline: bool
    delta: str
    agreement: str


@dataclass(frozen=True, slots=True)
class RankTable:
    """One metric's ranking as the page shows it."""

    metric: str
    lower_is_better: bool
    clusters: int
    rows: tuple[RankRow, ...]


def agreement_text(value: float | None) -> str:
    """Kocmi et al.'s estimated accuracy as the outputs print it: ``63.99%``, or ``n/a``."""
    return "n/a" if value is None else f"{value:.2f}%"


def _rank_tables(comparison: Comparison) -> list[RankTable]:
    tables = []
    for ranking in comparison.rankings:
        rows = []
        previous = 0
        base = next(r.score for r in ranking.systems if r.system == 0)
        for ranked in ranking.systems:
            s = ranked.system
            pair = None if s == 0 else ranking.pair(0, s)
            rows.append(
                RankRow(
                    rank=ranked.rank,
                    label=_system_label(comparison.names[s]),
                    name=comparison.names[s],
                    score=_number(ranked.score),
                    cluster=ranked.cluster,
                    starts_cluster=ranked.cluster > max(previous, 1),
                    baseline=s == 0,
                    delta="" if pair is None else _signed(ranked.score - base),
                    agreement="" if pair is None else agreement_text(pair.agreement),
                )
            )
            previous = ranked.cluster
        tables.append(
            RankTable(
                metric=ranking.metric,
                lower_is_better=ranking.lower_is_better,
                clusters=ranking.systems[-1].cluster,
                rows=tuple(rows),
            )
        )
    return tables


@cache
def _templates() -> Environment:
    """The page's Jinja2 environment (Jinja2 is the extra mtcompute[report]: imported by the
    page alone, so that `compare` without --report runs without it)."""
    from jinja2 import (  # noqa: PLC0415
        Environment,
        PackageLoader,
        StrictUndefined,
        select_autoescape,
    )

    return Environment(
        loader=PackageLoader("mtcompute.report", "templates"),
        autoescape=select_autoescape(["html"], default_for_string=True, default=True),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )


def render(comparison: Comparison) -> str:
    """The comparison as one self-contained HTML5 page (``report/templates/report.html``)."""
    return (
        _templates()
        .get_template("report.html")
        .render(
            c=comparison,
            labels=[_system_label(name) for name in comparison.names],
            cells=_cells(comparison),
            charts=[_score_chart(comparison, m) for m in range(len(comparison.metrics))],
            histograms=_histograms(comparison),
            segment_text=_SEGMENT_TEXTS[comparison.sentence_metric],
            segment_name=comparison.metric_names[
                comparison.metrics.index(comparison.sentence_metric)
            ]
            if comparison.sentence_scores
            else "",
            segment_lower=comparison.sentence_metric in LOWER_IS_BETTER,
            rankings=_rank_tables(comparison),
            examples=_examples(comparison),
            threshold=THRESHOLD,
            confidence_samples=CONFIDENCE_SAMPLES,
            version=__version__,
        )
    )
