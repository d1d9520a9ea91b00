"""sacrebleu-score@1.1.0: corpus BLEU, chrF, chrF++ and TER of raw text, exactly as sacreBLEU
2.6.0 (1.0.0, BLEU and chrF only, is :mod:`mtcompute.tools.sacrebleu_score_1_0_0`, built here).

BLEU is Papineni et al. 2002 (§2.1 clipped counts, §2.2.2 the corpus brevity penalty) with
sacreBLEU's tokenizers and Chen & Cherry 2014's smoothing (§2: floor, add-k, exp); chrF is
Popović 2015 §2, chrF++ Popović 2017 (word n-grams); TER is Snover et al. 2006 §2-3 (edits
with greedy block shifts). The computation is :mod:`mtcompute.metrics` and
:mod:`mtcompute.metrics.chrf.score` (statistics counted exactly, then sacreBLEU's float
steps); this module declares the input (references laid out per segment, as
bleu-corpus-compute's; one options object per metric, with sacreBLEU's names and defaults)
and writes the scores, their text, signature and statistics. Validation follows the
contract's order (its last semantics line). A version's answers never change: 1.1.0 adds
``ter`` to what 1.0.0 accepts, and answers every 1.0.0 input as 1.0.0 does.
"""

from __future__ import annotations

__all__ = [
    "BLEU_OPTIONS",
    "CHAR_ORDER",
    "CHRF_OPTIONS",
    "METRICS",
    "SMOOTH_METHOD",
    "TER_OPTIONS",
    "WORD_ORDER",
    "BleuScore",
    "ChrfOrder",
    "ChrfScore",
    "SacrebleuResult",
    "TerScore",
    "bleu_setup",
    "compute",
    "distinct_metrics",
    "input_spec",
    "nrefs",
    "options_of",
    "options_only_for",
    "sacrebleu_score",
    "ter_options",
]

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from mtcompute.contracts import fields
from mtcompute.contracts.fields import TOKENIZE
from mtcompute.contracts.validate import (
    Array,
    Boolean,
    Choice,
    Field,
    InputSpec,
    Rule,
    contract_limits,
)
from mtcompute.errors import InvalidInput
from mtcompute.metrics import _base as score_line
from mtcompute.metrics.bleu import score as sacre_bleu
from mtcompute.metrics.bleu.score import bleu_setup
from mtcompute.metrics.chrf.score import (
    ChrfOptions,
    chrf_score,
    chrf_signature_fields,
    chrf_statistics,
)
from mtcompute.metrics.ter import score as ter_scoring
from mtcompute.tools import Tool
from mtcompute.tools._cost import TOKENIZER_COST, choice, member, pair_products, size
from mtcompute.tools._results import Output, chrf_order, omitted_when_none
from mtcompute.tools._sacre_common import (
    Options,
    available_tokenizer,
    nrefs,
    ter_word_limits,
    text_steps,
)

ID, VERSION = "sacrebleu-score", "1.1.0"
LIMITS = contract_limits(ID, VERSION)

METRICS = ("bleu", "chrf", "ter")
"""The metrics of ``metrics``, in the result's order (1.0.0 has the first two)."""
SMOOTH_METHOD = fields.SMOOTH_METHOD
CHAR_ORDER = fields.CHRF_CHAR_ORDER
WORD_ORDER = fields.WORD_ORDER


def _smooth_value_needs_a_value(values: Mapping[str, Any]) -> None:
    fields.check_smooth_value(values["smooth_method"], values["smooth_value"], "/bleu/smooth_value")


BLEU_OPTIONS = Options(
    "bleu options",
    (
        Field("tokenize", TOKENIZE, default="13a"),
        available_tokenizer("tokenize", "/bleu/tokenize"),
        Field("lowercase", Boolean(), default=False),
        Field("smooth_method", SMOOTH_METHOD, default="exp"),
        Field("smooth_value", fields.SMOOTH_VALUE, default=None),
        Field("max_ngram_order", fields.MAX_ORDER, default=4),
        Field("effective_order", fields.EFFECTIVE_ORDER, default=False),
        Rule(_smooth_value_needs_a_value),
    ),
)
CHRF_OPTIONS = Options(
    "chrf options",
    (
        Field("char_order", CHAR_ORDER, default=6),
        Field("word_order", WORD_ORDER, default=0),
        Field("beta", fields.BETA, default=2),
        Field("lowercase", Boolean(), default=False),
        Field("whitespace", Boolean(), default=False),
        Field("eps_smoothing", Boolean(), default=False),
    ),
)
TER_OPTIONS = Options(
    "ter options",
    tuple(
        Field(name, Boolean(), default=False)
        for name in ("normalized", "no_punct", "asian_support", "case_sensitive")
    ),
)


def distinct_metrics(values: Mapping[str, Any]) -> None:
    """The rule that names a metric listed twice (here and in paired-significance)."""
    metrics = values["metrics"]
    for i, metric in enumerate(metrics):
        if metric in metrics[:i]:
            raise InvalidInput(
                f'Expected each metric once at /metrics, got "{metric}" again at /metrics/{i}.',
                f"/metrics/{i}",
            )


def options_only_for(metrics: Sequence[str]) -> Rule:
    """The rule that refuses a metric's options when ``metrics`` does not list it."""

    def check(values: Mapping[str, Any]) -> None:
        for metric in metrics:
            if values[metric] is not None and metric not in values["metrics"]:
                raise InvalidInput(
                    f"Expected {metric} options only with {metric} in metrics at /{metric}, "
                    f"got them with metrics {', '.join(values['metrics'])}.",
                    f"/{metric}",
                )

    return Rule(check)


_OPTIONS = {"bleu": BLEU_OPTIONS, "chrf": CHRF_OPTIONS, "ter": TER_OPTIONS}


def options_of(values: Mapping[str, Any], metric: str) -> Mapping[str, Any]:
    """The checked options object of ``metric`` (its defaults when the input has none);
    here and in paired-significance."""
    given: Mapping[str, Any] | None = values[metric]
    return given or _OPTIONS[metric].defaults


def ter_options(values: Mapping[str, Any]) -> ter_scoring.TerOptions | None:
    """The TER options of an input, ``None`` when its metrics do not include TER."""
    if "ter" not in values["metrics"]:
        return None
    return ter_scoring.TerOptions(**options_of(values, "ter"))


def input_spec(version: str) -> InputSpec:
    """The input of sacrebleu-score at ``version`` (1.0.0: bleu and chrf; 1.1.0: and ter,
    with TER's word limits), with that contract's limits."""
    limits = contract_limits(ID, version)
    metrics = METRICS if version != "1.0.0" else METRICS[:2]
    steps: list[Field[Any] | Rule] = [
        *text_steps(limits),
        Field(
            "metrics",
            Array(
                Choice(metrics),
                f"an array of metric names ({', '.join(metrics)})",
                "metric",
                1,
                len(metrics),
            ),
        ),
        Rule(distinct_metrics),
        *(Field(metric, _OPTIONS[metric], default=None) for metric in metrics),
        options_only_for(metrics),
    ]
    if "ter" in metrics:
        steps.append(ter_word_limits(limits, ter_options))
    return InputSpec(*steps)


INPUT = input_spec(VERSION)


# --- the result --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _MetricScore(Output):
    """What each metric's record opens with: sacreBLEU's name, score, score line and
    signature."""

    name: str
    score: float
    text: str
    signature: str


@dataclass(frozen=True, slots=True)
class BleuScore(_MetricScore):
    """sacreBLEU's BLEU score, its text and signature, and the statistics behind it."""

    counts: tuple[int | float, ...]
    totals: tuple[int | float, ...]
    precisions: tuple[float, ...]
    bp: float
    sys_len: int
    ref_len: int


@dataclass(frozen=True, slots=True)
class ChrfOrder(Output):
    """The corpus statistics of one chrF order: character (``char``) or word n-grams."""

    kind: str
    n: int
    hypothesis_ngrams: int
    reference_ngrams: int
    matches: int


@dataclass(frozen=True, slots=True)
class ChrfScore(_MetricScore):
    """sacreBLEU's chrF (chrF++) score, its text and signature, and the per-order counts."""

    orders: tuple[ChrfOrder, ...]


@dataclass(frozen=True, slots=True)
class TerScore(_MetricScore):
    """sacreBLEU's corpus TER, its text and signature, and the summed statistics."""

    num_edits: int
    ref_length: float


@dataclass(frozen=True, slots=True)
class SacrebleuResult(Output):
    """The number of segments and each metric asked for."""

    segment_count: int
    # omitted_when_none() is a dataclasses.field (default None), not a shared default value
    bleu: BleuScore | None = omitted_when_none()  # noqa: RUF009
    chrf: ChrfScore | None = omitted_when_none()  # noqa: RUF009
    ter: TerScore | None = omitted_when_none()  # noqa: RUF009


def _opening(result: score_line.Formatted, signature: str) -> tuple[str, float, str, str]:
    """The fields every metric's record opens with (:class:`_MetricScore`'s), in order."""
    return result.name, result.score, str(result), signature


def _bleu(
    hypotheses: Sequence[str], references: Sequence[Sequence[str]], raw: Mapping[str, Any]
) -> BleuScore:
    result, signature = sacre_bleu.bleu_of_options(hypotheses, references, raw, nrefs(references))
    return BleuScore(
        *_opening(result, signature),
        result.counts,
        result.totals,
        result.precisions,
        result.bp,
        result.sys_len,
        result.ref_len,
    )


def _chrf(
    hypotheses: Sequence[str], references: Sequence[Sequence[str]], raw: Mapping[str, Any]
) -> ChrfScore:
    options = ChrfOptions(**raw)
    total, _ = chrf_statistics(hypotheses, references, options)
    signature = score_line.format_signature(chrf_signature_fields(options, nrefs(references)))
    orders = tuple(
        ChrfOrder(*chrf_order(i, options.char_order), *total[3 * i : 3 * i + 3])
        for i in range(len(total) // 3)
    )
    return ChrfScore(*_opening(chrf_score(total, options), signature), orders)


def _ter(
    hypotheses: Sequence[str], references: Sequence[Sequence[str]], raw: Mapping[str, Any]
) -> TerScore:
    options = ter_scoring.TerOptions(**raw)
    result = ter_scoring.corpus_ter(hypotheses, references, options)
    fields_ = ter_scoring.ter_signature_fields(options, nrefs(references))
    signature = score_line.format_signature(fields_)
    return TerScore(*_opening(result, signature), result.num_edits, result.ref_length)


_Score = TypeVar("_Score", bound=_MetricScore)


def compute(values: Mapping[str, Any]) -> SacrebleuResult:
    """The result for checked values (of either version's input)."""
    hypotheses, references = values["hypotheses"], values["references"]

    def score(
        metric: str,
        scorer: Callable[[Sequence[str], Sequence[Sequence[str]], Mapping[str, Any]], _Score],
    ) -> _Score | None:
        """``metric``'s record when ``metrics`` lists it (``None`` otherwise)."""
        if metric not in values["metrics"]:
            return None
        return scorer(hypotheses, references, options_of(values, metric))

    return SacrebleuResult(
        len(hypotheses), score("bleu", _bleu), score("chrf", _chrf), score("ter", _ter)
    )


def sacrebleu_score(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str]],
    metrics: Sequence[str],
    *,
    bleu: Mapping[str, Any] | None = None,
    chrf: Mapping[str, Any] | None = None,
    ter: Mapping[str, Any] | None = None,
) -> SacrebleuResult:
    """sacreBLEU 2.6.0's corpus scores of raw text (sacrebleu-score@1.1.0): ``references[i]``
    holds the 1 to 8 reference strings of segment ``i``; ``bleu``, ``chrf`` and ``ter`` are
    the metrics' options with sacreBLEU's names (omitted: its defaults). Same validation and
    limits as the tool.

    Raises :class:`~mtcompute.errors.InvalidInput`, :class:`~mtcompute.errors.LimitExceeded`
    or :class:`~mtcompute.errors.UnsupportedInput` exactly where the tool would.

    >>> sacrebleu_score(["aa"], [["ab"]], ["chrf"]).chrf.text
    'chrF2 = 25.00'
    >>> sacrebleu_score(["The cat sat on mat."], [["The cat sat on the mat."]], ["ter"]).ter.text
    'TER = 16.67'
    """
    return compute(INPUT.call(**locals()))


def cost(raw: object, cap: int, *, ter: bool = True) -> int:
    """Each text through every metric named (all of them when ``metrics`` is not a list of
    metric names): BLEU's tokenizer, chrF's 3 units per size unit, and with ``ter`` TER's
    (as ter-compute's: 12 per size unit, then a unit per pair of characters aligned)."""
    metrics = member(raw, "metrics")
    named = set(METRICS if ter else METRICS[:2])
    if isinstance(metrics, list) and all(isinstance(m, str) and m in named for m in metrics):
        named = set(metrics)
    units = size(raw, cap)
    weight = 1 + (3 if "chrf" in named else 0) + (12 if "ter" in named else 0)
    if "bleu" in named:
        weight += choice(member(raw, "bleu"), "tokenize", TOKENIZER_COST, "13a")
    total = units * weight
    if "ter" in named and total <= cap:
        total += pair_products(member(raw, "hypotheses"), member(raw, "references"))
    return total


TOOL = Tool(ID, VERSION, INPUT, compute, sacrebleu_score, cost)
