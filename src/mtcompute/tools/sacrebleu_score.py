"""sacrebleu-score@1.0.0: corpus BLEU, chrF and chrF++ of raw text, exactly as sacreBLEU 2.6.0.

BLEU is Papineni et al. 2002 (§2.1 clipped counts, §2.2.2 the corpus brevity penalty) with
sacreBLEU's tokenizers and Chen & Cherry 2014's smoothing (§2: floor, add-k, exp); chrF is
Popović 2015 §2, chrF++ Popović 2017 (word n-grams). The computation is
:mod:`mtcompute.scoring` (statistics counted exactly, then sacreBLEU's float steps); this
module declares the input (references laid out per segment, as bleu-corpus-compute's; one
options object per metric, with sacreBLEU's names and defaults) and writes the scores, their
text, signature and statistics. Validation follows the contract's order (its last semantics
line).
"""

from __future__ import annotations

__all__ = [
    "BLEU_OPTIONS",
    "CHAR_ORDER",
    "CHRF_OPTIONS",
    "METRICS",
    "SMOOTH_METHOD",
    "WORD_ORDER",
    "BleuScore",
    "ChrfOrder",
    "ChrfScore",
    "SacrebleuResult",
    "nrefs",
    "sacrebleu_score",
]

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from mtcompute import scoring
from mtcompute.contracts import fields
from mtcompute.contracts.validate import (
    Array,
    Boolean,
    Choice,
    Field,
    InputSpec,
    Rule,
    contract_limits,
    same_count,
)
from mtcompute.errors import InvalidInput
from mtcompute.tokenizers import TOKENIZE, get_tokenizer
from mtcompute.tools import Tool
from mtcompute.tools._results import Output, omitted_when_none
from mtcompute.tools._sacre_common import (
    Options,
    available_tokenizer,
    hypotheses,
    hypotheses_and_references,
    no_lone_surrogates,
    nrefs,
    references_per_segment,
    text_bytes,
)

ID, VERSION = "sacrebleu-score", "1.0.0"
LIMITS = contract_limits(ID, VERSION)

METRICS = Choice(("bleu", "chrf"))
"""A metric's name in ``metrics``."""
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


def _distinct_metrics(values: Mapping[str, Any]) -> None:
    metrics = values["metrics"]
    for i, metric in enumerate(metrics):
        if metric in metrics[:i]:
            raise InvalidInput(
                f'Expected each metric once at /metrics, got "{metric}" again at /metrics/{i}.',
                f"/metrics/{i}",
            )


def _options_only_for_metrics(values: Mapping[str, Any]) -> None:
    for metric in ("bleu", "chrf"):
        if values[metric] is not None and metric not in values["metrics"]:
            raise InvalidInput(
                f"Expected {metric} options only with {metric} in metrics at /{metric}, "
                f"got them with metrics {', '.join(values['metrics'])}.",
                f"/{metric}",
            )


_MOST, _REFERENCES = LIMITS["max_segments"], LIMITS["max_references"]
INPUT = InputSpec(
    Field("hypotheses", hypotheses(_MOST)),
    Field("references", references_per_segment(_MOST, _REFERENCES)),
    same_count("hypotheses", "references", "segments"),
    text_bytes(LIMITS["max_text_bytes"], hypotheses_and_references),
    no_lone_surrogates(hypotheses_and_references),
    Field("metrics", Array(METRICS, "an array of metric names (bleu, chrf)", "metric", 1, 2)),
    Rule(_distinct_metrics),
    Field("bleu", BLEU_OPTIONS, default=None),
    Field("chrf", CHRF_OPTIONS, default=None),
    Rule(_options_only_for_metrics),
)


# --- the result --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class BleuScore(Output):
    """sacreBLEU's BLEU score, its text and signature, and the statistics behind it."""

    name: str
    score: float
    text: str
    signature: str
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
class ChrfScore(Output):
    """sacreBLEU's chrF (chrF++) score, its text and signature, and the per-order counts."""

    name: str
    score: float
    text: str
    signature: str
    orders: tuple[ChrfOrder, ...]


@dataclass(frozen=True, slots=True)
class SacrebleuResult(Output):
    """The number of segments and each metric asked for."""

    segment_count: int
    # omitted_when_none() is a dataclasses.field (default None), not a shared default value
    bleu: BleuScore | None = omitted_when_none()  # noqa: RUF009
    chrf: ChrfScore | None = omitted_when_none()  # noqa: RUF009


def _bleu(
    hypotheses: Sequence[str], references: Sequence[Sequence[str]], raw: Mapping[str, Any]
) -> BleuScore:
    options = scoring.BleuOptions(**raw)
    tokenizer = get_tokenizer(options.tokenize, "/bleu/tokenize")
    total, _ = scoring.bleu_statistics(hypotheses, references, options, tokenizer=tokenizer)
    result = scoring.bleu_score(total, options)
    fields_ = scoring.bleu_signature_fields(options, nrefs(references), tokenizer.signature)
    return BleuScore(
        result.name,
        result.score,
        str(result),
        scoring.format_signature(fields_),
        result.counts,
        result.totals,
        result.precisions,
        result.bp,
        result.sys_len,
        result.ref_len,
    )


def _orders(statistics: Sequence[int], char_order: int) -> tuple[ChrfOrder, ...]:
    orders = []
    for i in range(len(statistics) // 3):
        kind, n = ("char", i + 1) if i < char_order else ("word", i - char_order + 1)
        orders.append(ChrfOrder(kind, n, *statistics[3 * i : 3 * i + 3]))
    return tuple(orders)


def _chrf(
    hypotheses: Sequence[str], references: Sequence[Sequence[str]], raw: Mapping[str, Any]
) -> ChrfScore:
    options = scoring.ChrfOptions(**raw)
    total, _ = scoring.chrf_statistics(hypotheses, references, options)
    result = scoring.chrf_score(total, options)
    fields_ = scoring.chrf_signature_fields(options, nrefs(references))
    return ChrfScore(
        result.name,
        result.score,
        str(result),
        scoring.format_signature(fields_),
        _orders(total, options.char_order),
    )


def _compute(values: Mapping[str, Any]) -> SacrebleuResult:
    hypotheses, references, metrics = values["hypotheses"], values["references"], values["metrics"]
    bleu = chrf = None
    if "bleu" in metrics:
        bleu = _bleu(hypotheses, references, values["bleu"] or BLEU_OPTIONS.defaults)
    if "chrf" in metrics:
        chrf = _chrf(hypotheses, references, values["chrf"] or CHRF_OPTIONS.defaults)
    return SacrebleuResult(len(hypotheses), bleu, chrf)


def sacrebleu_score(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str]],
    metrics: Sequence[str],
    *,
    bleu: Mapping[str, Any] | None = None,
    chrf: Mapping[str, Any] | None = None,
) -> SacrebleuResult:
    """sacreBLEU 2.6.0's corpus scores of raw text (sacrebleu-score@1.0.0): ``references[i]``
    holds the 1 to 8 reference strings of segment ``i``; ``bleu`` and ``chrf`` are the
    metrics' options with sacreBLEU's names (omitted: its defaults). Same validation and
    limits as the tool.

    Raises :class:`~mtcompute.errors.InvalidInput`, :class:`~mtcompute.errors.LimitExceeded`
    or :class:`~mtcompute.errors.UnsupportedInput` exactly where the tool would.

    >>> sacrebleu_score(["aa"], [["ab"]], ["chrf"]).chrf.text
    'chrF2 = 25.00'
    """
    return _compute(INPUT.call(**locals()))


TOOL = Tool(ID, VERSION, INPUT, _compute, sacrebleu_score)
