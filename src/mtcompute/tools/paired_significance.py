"""paired-significance@1.0.0: is a system really better than the baseline? Paired significance
tests of raw text, exactly as sacreBLEU 2.6.0's ``PairedTest``.

Paired bootstrap resampling is Koehn 2004 ("Statistical Significance Tests for Machine
Translation Evaluation", §3-4) with sacreBLEU's centred-delta p-value and its bootstrap mean
and 95% interval; approximate randomization is Riezler & Maxwell 2005 ("On Some Pitfalls in
Automatic Evaluation and Significance Testing for MT", §3). The metrics are sacrebleu-score's
(BLEU, Papineni et al. 2002; chrF, Popović 2015; TER, Snover et al. 2006), with its options
object per metric, declared once in :mod:`mtcompute.tools.sacrebleu_score`.

The computation is :mod:`mtcompute.metrics` (each system's per-segment statistics, through the
metrics of :mod:`mtcompute.significance`) and :mod:`mtcompute.significance`
(:func:`~mtcompute.significance.paired_bootstrap` and
:func:`~mtcompute.significance.paired_approximate_randomization` in ``"sacrebleu"``
arithmetic: sacreBLEU's draws, its float32 bootstrap sums and its formulas, so every number is
sacreBLEU's as a Python float). This module declares the input (the baseline, the named
systems, references laid out per segment), bounds the work (:data:`LIMITS`: the TER words as
ter-compute bounds them, the samples times segments times systems, and the bootstrap sums kept
where float32 adds integers exactly) and writes the result with sacreBLEU's signatures.
Validation follows the contract's order (its last semantics line).
"""

from __future__ import annotations

__all__ = [
    "DEFAULT_SAMPLES",
    "METHODS",
    "BaselineScore",
    "MetricComparison",
    "PairedSignificanceResult",
    "SystemScore",
    "paired_significance",
]

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from mtcompute.contracts.validate import (
    Choice,
    Field,
    InputSpec,
    Rule,
    check_same_count,
    contract_limits,
    one_to,
)
from mtcompute.errors import LimitExceeded
from mtcompute.metrics import DEFAULT_SEED
from mtcompute.tools import Tool, _systems
from mtcompute.tools._results import Output, omitted_when_none
from mtcompute.tools._sacre_common import hypotheses, indexed, nrefs, ter_word_limits
from mtcompute.tools._systems import DEFAULT_SAMPLES, METHODS

# The metrics and their options exactly as sacrebleu-score@1.1.0 declares and checks them (one
# declaration: its fields, the metric list's rules and its TER options by name).
from mtcompute.tools.sacrebleu_score import (
    METRICS,
    distinct_metrics,
    options_of,
    options_only_for,
    ter_options,
)

# The significance tests need numpy (the extra mtcompute[significance]): imported by the
# computation, so that the registry lists this tool, and checks its input, without it.
if TYPE_CHECKING:
    from mtcompute import significance

ID, VERSION = "paired-significance", "1.0.0"
LIMITS = contract_limits(ID, VERSION)

_FLOAT32_EXACT = 2**24  # float32 adds non-negative integers exactly up to this total

SYSTEM = _systems.system_fields(LIMITS)
"""One system: its name and its output, one string per segment."""


def _same_counts(values: Mapping[str, Any]) -> None:
    _systems.same_segments(values, "baseline")
    check_same_count("baseline", values["baseline"], "references", values["references"], "segments")


def _texts(values: Mapping[str, Any]) -> Iterator[tuple[str, str]]:
    """Every text with its JSON Pointer: the baseline, each system's hypotheses, then each
    segment's references."""
    yield from indexed("baseline", values)
    yield from _systems.system_texts(values)


def _work(values: Mapping[str, Any]) -> None:
    """The random draws (samples times segments), then the resampled sums (times systems)."""
    samples, segments = _systems.samples_of(values), len(values["baseline"])
    systems = len(values["systems"])
    _systems.check_draws(LIMITS, samples, segments)
    work = LIMITS["max_work"]
    if samples * segments * systems > work.value:
        raise LimitExceeded(
            f"Expected at most {work.value} for samples times segments times systems "
            f"(limit {work.name}), got {samples} x {segments} x {systems} = "
            f"{samples * segments * systems}."
        )


_SYSTEMS = "systems (name and hypotheses)"
INPUT = InputSpec(
    Field("baseline", hypotheses(LIMITS)),
    Field("systems", one_to(LIMITS["max_systems"], SYSTEM, _SYSTEMS, "system")),
    *_systems.system_steps(LIMITS, Rule(_same_counts), _texts),
    _systems.metric_field("metrics"),
    Rule(distinct_metrics),
    *(_systems.metric_field(name) for name in METRICS),
    options_only_for(METRICS),
    Field("method", Choice(METHODS)),
    *_systems.run_fields(LIMITS),
    ter_word_limits(LIMITS, ter_options, _texts),
    Rule(_work),
)


# --- the result --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class BaselineScore(Output):
    """The baseline's score and, with the bootstrap, its resampled mean and 95% half width."""

    score: float
    mean: float | None = omitted_when_none()
    ci: float | None = omitted_when_none()


@dataclass(frozen=True, slots=True)
class SystemScore(Output):
    """A system's score, the p-value of its comparison with the baseline and, with the
    bootstrap, its resampled mean and 95% half width."""

    name: str
    score: float
    p_value: float
    mean: float | None = omitted_when_none()
    ci: float | None = omitted_when_none()


@dataclass(frozen=True, slots=True)
class MetricComparison(Output):
    """One metric: its name and signature (with the test's samples and seed, as sacreBLEU's
    ``PairedTest`` prints it), the baseline's score and each system's."""

    name: str
    signature: str
    baseline: BaselineScore
    systems: tuple[SystemScore, ...]


@dataclass(frozen=True, slots=True)
class PairedSignificanceResult(Output):
    """The test run (method, samples, seed), the segments, and each metric asked for."""

    method: str
    samples: int
    seed: int
    segment_count: int
    # omitted_when_none() is a dataclasses.field (default None), not a shared default value
    bleu: MetricComparison | None = omitted_when_none()  # noqa: RUF009
    chrf: MetricComparison | None = omitted_when_none()  # noqa: RUF009
    ter: MetricComparison | None = omitted_when_none()  # noqa: RUF009


def _path(system: int, segment: int) -> str:
    return f"/baseline/{segment}" if system == 0 else f"/systems/{system - 1}/hypotheses/{segment}"


def _check_resample_sums(table: significance.Table) -> None:
    """With the bootstrap, a resample may draw one segment N times: N times the largest
    statistic of a segment must stay within float32's exact integers (limit max resample
    sum), so that sacreBLEU's float32 sums are the exact sums."""
    import numpy as np  # noqa: PLC0415

    limit = LIMITS["max_resample_sum"]
    for s, statistics in enumerate(table.statistics):
        matrix = np.asarray(statistics, dtype=np.float64)
        segment, column = np.unravel_index(int(np.argmax(matrix)), matrix.shape)
        largest = matrix[segment, column].item()
        if len(matrix) * largest > limit.value:
            shown = int(largest) if largest.is_integer() else largest
            raise LimitExceeded(
                f"Expected at most {limit.value} for the segments times the largest "
                f"statistic of one segment with method bootstrap (limit {limit.name}; "
                f"float32 adds integers exactly up to it), got {len(matrix)} x {shown} for "
                f"{table.metric.name} at {_path(s, int(segment))}.",
                _path(s, int(segment)),
            )


def _p_value(result: significance.Result) -> float:
    """A system's p-value (every comparison has one; only the baseline's result has none)."""
    if result.p_value is None:
        raise ValueError("a comparison without a p-value")
    return result.p_value


def _compute(values: Mapping[str, Any]) -> PairedSignificanceResult:
    _systems.need_significance("The paired tests")
    from mtcompute import significance  # noqa: PLC0415

    baseline, systems, refs = values["baseline"], values["systems"], values["references"]
    method, samples, seed = values["method"], _systems.samples_of(values), values["seed"]
    texts = [baseline, *(system["hypotheses"] for system in systems)]
    tables, signatures = [], []
    for name in METRICS:
        if name in values["metrics"]:
            options = options_of(values, name)
            metric, fields = _systems.significance_metric(name, options, nrefs(refs))
            table = significance.Table(metric, [metric.statistics(hyps, refs) for hyps in texts])
            if method == "bootstrap":
                _check_resample_sums(table)
            tables.append((name, table))
            signatures.append(_systems.paired_signature(fields, method, samples, seed))
    if method == "bootstrap":
        results = significance.paired_bootstrap(
            [table for _, table in tables], samples=samples, seed=seed, arithmetic="sacrebleu"
        )
    else:
        results = significance.paired_approximate_randomization(
            [table for _, table in tables], trials=samples, seed=seed, arithmetic="sacrebleu"
        )
    comparisons: dict[str, MetricComparison] = {}
    for (name, table), signature, row in zip(tables, signatures, results, strict=True):
        base, *others = row
        comparisons[name] = MetricComparison(
            table.metric.name,
            signature,
            BaselineScore(base.score, base.mean, base.ci),
            tuple(
                SystemScore(system["name"], r.score, _p_value(r), r.mean, r.ci)
                for system, r in zip(systems, others, strict=True)
            ),
        )
    return PairedSignificanceResult(method, samples, seed, len(baseline), **comparisons)


def paired_significance(
    baseline: Sequence[str],
    systems: Sequence[Mapping[str, Any]],
    references: Sequence[Sequence[str]],
    metrics: Sequence[str],
    method: str,
    *,
    bleu: Mapping[str, Any] | None = None,
    chrf: Mapping[str, Any] | None = None,
    ter: Mapping[str, Any] | None = None,
    samples: int | None = None,
    seed: int = DEFAULT_SEED,
) -> PairedSignificanceResult:
    """sacreBLEU 2.6.0's paired significance test of each system against the baseline
    (paired-significance@1.0.0): ``systems`` are ``{"name": ..., "hypotheses": [...]}``
    objects, ``references[i]`` holds the 1 to 8 reference strings of segment ``i``,
    ``method`` is ``bootstrap`` or ``approximate_randomization``; ``bleu``, ``chrf`` and
    ``ter`` are sacrebleu-score's options; ``samples`` omitted is sacreBLEU's 1000 or 10000;
    ``seed`` is always honoured (0 too). Same validation and limits as the tool.

    Raises :class:`~mtcompute.errors.InvalidInput`, :class:`~mtcompute.errors.LimitExceeded`
    or :class:`~mtcompute.errors.UnsupportedInput` exactly where the tool would.

    >>> result = paired_significance(
    ...     ["a b c d", "e f"], [{"name": "B", "hypotheses": ["a b c d", "e g"]}],
    ...     [["a b c d"], ["e f"]], ["chrf"], "approximate_randomization", samples=99)
    >>> result.chrf.signature
    'nrefs:1|ar:99|seed:12345|case:mixed|eff:yes|nc:6|nw:0|space:no|version:2.6.0'
    >>> result.chrf.systems[0].p_value
    0.01
    """
    return _compute(INPUT.call(**locals()))


TOOL = Tool(ID, VERSION, INPUT, _compute, paired_significance)
