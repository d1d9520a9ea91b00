"""system-ranking@1.1.0: which of N systems are really better than which? All-pairs paired
significance tests, the systems grouped into clusters and rank ranges as the WMT findings
give them, and for each pair the estimated accuracy of agreeing with human judgement.

Every pair is tested on the same draws by paired bootstrap resampling (Koehn 2004, §3-4,
with sacreBLEU's centred-delta p-value) or approximate randomization (Riezler & Maxwell 2005,
§3); a cluster's systems are each significantly better than every system of every lower
cluster (WMT findings); a pair's agreement is Kocmi et al. 2024 ("Navigating the Metrics
Maze", accuracy = a / (1 + exp(-b·|Δ|))), where they fitted a curve. The computation is
:func:`mtcompute.significance.rank_systems` in its native arithmetic (exact sums, float64
scores), the same call as ``mtcompute compare --rank``, over the statistics of
:mod:`mtcompute.metrics`. This module declares the input (the systems, references per segment,
one metric with sacrebleu-score's options, or WER or CER with wer-compute's, the test), bounds
the work (:data:`LIMITS`: the TER words as ter-compute bounds them, WER's and CER's units and
alignments, the draws, and the samples times segments times systems or pairs) and writes the
result. Validation follows the contract's order (its last semantics line).

1.1.0 adds the metrics ``wer`` and ``cer`` (one reference per segment); 1.0.0
(:mod:`mtcompute.tools.system_ranking_1_0_0`) is :func:`input_spec` of its version and the
same computation.
"""

from __future__ import annotations

__all__ = [
    "DEFAULT_SAMPLES",
    "DEFAULT_THRESHOLD",
    "METHODS",
    "PairTest",
    "RankedSystem",
    "SystemRankingResult",
    "compute",
    "input_spec",
    "system_ranking",
]

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from mtcompute.contracts.validate import (
    Array,
    Choice,
    Field,
    InputSpec,
    Limit,
    Number,
    Rule,
    contract_limits,
    where,
)
from mtcompute.errors import InvalidInput, LimitExceeded
from mtcompute.metrics import DEFAULT_SEED
from mtcompute.metrics.ter import score as ter_scoring
from mtcompute.metrics.wer.corpus import no_reference_unit
from mtcompute.metrics.wer.text import WerOptions, units
from mtcompute.tools import Tool, _systems
from mtcompute.tools._results import Output
from mtcompute.tools._sacre_common import nrefs, ter_word_limits
from mtcompute.tools._systems import DEFAULT_SAMPLES, METHODS, WER_OPTIONS, WER_UNITS
from mtcompute.tools.sacrebleu_score import METRICS as SACREBLEU_METRICS
from mtcompute.tools.sacrebleu_score import options_of as sacrebleu_options

ID, VERSION = "system-ranking", "1.1.0"
LIMITS = contract_limits(ID, VERSION)
METRICS = (*SACREBLEU_METRICS, *WER_UNITS)
"""``metric``: sacreBLEU's bleu, chrf, ter (1.0.0's), then wer and cer."""

DEFAULT_THRESHOLD = 0.05
"""A p-value at most this marks a significant difference (sacreBLEU's ``*``)."""
_TEST = {"bootstrap": "bootstrap", "approximate_randomization": "ar"}  # rank_systems' names


def _same_counts(values: Mapping[str, Any]) -> None:
    """Every system has as many segments as references (each system in order)."""
    _systems.same_segments(values, "references")


def _options_of(values: Mapping[str, Any], name: str) -> Mapping[str, Any]:
    """The checked options object of metric ``name`` (its defaults when the input has none)."""
    if name in WER_OPTIONS:
        given: Mapping[str, Any] | None = values[name]
        return given or WER_OPTIONS[name].defaults
    return sacrebleu_options(values, name)


def _options_only_for_the_metric(values: Mapping[str, Any]) -> None:
    for name in METRICS:
        if values.get(name) is not None and name != values["metric"]:
            raise InvalidInput(
                f"Expected {name} options only with metric {name} at /{name}, got them with "
                f"metric {values['metric']}.",
                f"/{name}",
            )


def _ter_options(values: Mapping[str, Any]) -> ter_scoring.TerOptions | None:
    if values["metric"] != "ter":
        return None
    return ter_scoring.TerOptions(**_options_of(values, "ter"))


def _one_reference(values: Mapping[str, Any]) -> None:
    """WER and CER: one reference per segment (the first segment with more is the error)."""
    name = values["metric"]
    if name not in WER_UNITS:
        return
    for i, texts in enumerate(values["references"]):
        if len(texts) != 1:
            raise InvalidInput(
                f"Expected one reference per segment with metric {name} at /references/{i} "
                f"(WER and CER have one reference), got {len(texts)}.",
                f"/references/{i}",
            )


def _wer_options(values: Mapping[str, Any]) -> WerOptions | None:
    name = values["metric"]
    if name not in WER_UNITS:
        return None
    return WerOptions(WER_UNITS[name], **_options_of(values, name))


def _check_units(values: Mapping[str, Any]) -> None:
    """WER and CER: each text at most ``max segment units`` units after normalisation (each
    system's hypotheses, then references, in order), at least one reference unit in all
    (wer-compute's checks), then the units aligned (each hypothesis's and its reference's,
    summed over every system) and the unit pairs (their products, summed) within their
    limits: the alignments' work."""
    options = _wer_options(values)
    if options is None:
        return
    limit = LIMITS["max_segment_units"]
    noun = "words" if options.unit == "word" else "characters"
    refs = [len(units(texts[0], options)) for texts in values["references"]]
    hyps = [[len(units(t, options)) for t in s["hypotheses"]] for s in values["systems"]]
    counts = [(f"/systems/{s}/hypotheses", row) for s, row in enumerate(hyps)]
    for key, row in [*counts, ("/references", refs)]:
        for i, count in enumerate(row):
            if count > limit.value:
                path = f"{key}/{i}/0" if key == "/references" else f"{key}/{i}"
                raise LimitExceeded(
                    f"Expected at most {limit.value} {noun} at {path} after normalisation "
                    f"(limit {limit.name}), got {count}.",
                    path,
                )
    if not any(refs):
        raise no_reference_unit(options)
    aligned = sum(h + r for row in hyps for h, r in zip(row, refs, strict=True))
    pairs = sum(h * r for row in hyps for h, r in zip(row, refs, strict=True))
    for count, name, what in (
        (aligned, "max_aligned_units", "units aligned (each hypothesis's and its reference's"),
        (pairs, "max_unit_pairs", "unit pairs (each hypothesis's units times its reference's"),
    ):
        if count > LIMITS[name].value:
            raise LimitExceeded(
                f"Expected at most {LIMITS[name].value} {what}, summed over every system; "
                f"limit {LIMITS[name].name}), got {count}."
            )


def _tested(method: str, systems: int) -> tuple[int, str]:
    """What one resample or trial scores: each system (one bootstrap of all the systems) or
    each pair of systems (approximate randomization tests each pair), and its name."""
    if method == "bootstrap":
        return systems, "systems"
    return systems * (systems - 1) // 2, "pairs of systems"


def _work(limits: Mapping[str, Limit], values: Mapping[str, Any]) -> None:
    """The random draws (samples times segments), with approximate randomization the pair
    tests (samples times pairs: each trial scores both sides of every pair), then the
    resampled sums (samples times segments times the systems or pairs), within ``limits``."""
    method, samples = values["method"], _systems.samples_of(values)
    segments = len(values["references"])
    tested, noun = _tested(method, len(values["systems"]))
    _systems.check_draws(limits, samples, segments)
    pair_tests, work = limits["max_pair_tests"], limits["max_work"]
    if method != "bootstrap" and samples * tested > pair_tests.value:
        raise LimitExceeded(
            f"Expected at most {pair_tests.value} for samples times pairs of systems with "
            f"method {method} (limit {pair_tests.name}), got {samples} x {tested} = "
            f"{samples * tested}."
        )
    if samples * segments * tested > work.value:
        raise LimitExceeded(
            f"Expected at most {work.value} for samples times segments times {noun} with "
            f"method {method} (limit {work.name}), got {samples} x {segments} x {tested} = "
            f"{samples * segments * tested}."
        )


@dataclass(frozen=True, slots=True)
class _Systems(Array[dict[str, Any]]):
    """2 to ``max systems`` systems: a ranking compares systems (the count named as given)."""

    def check_shape(self, value: object, path: str) -> Sequence[object]:
        if isinstance(value, list | tuple) and len(value) < self.min_items:
            raise InvalidInput(
                f"Expected at least {self.min_items} systems {where(path)} (a ranking compares "
                f"systems), got {len(value) or 'none'}.",
                path,
            )
        return Array.check_shape(self, value, path)


def input_spec(version: str) -> InputSpec:
    """The input of system-ranking at ``version`` (1.0.0: bleu, chrf and ter; 1.1.0: and wer
    and cer, with their units' limits), with that contract's limits."""
    limits = contract_limits(ID, version)
    metrics = METRICS if version != "1.0.0" else SACREBLEU_METRICS
    most = limits["max_systems"]
    steps: list[Field[Any] | Rule] = [
        Field(
            "systems",
            _Systems(
                _systems.system_fields(limits),
                f"an array of 2 to {most.value} systems (name and hypotheses)",
                "system",
                2,
                most,
            ),
        ),
        *_systems.system_steps(limits, Rule(_same_counts), _systems.system_texts),
        Field("metric", Choice(metrics)),
        *(_systems.metric_field(name) for name in SACREBLEU_METRICS),
        *(Field(name, WER_OPTIONS[name], default=None) for name in metrics if name in WER_OPTIONS),
        Rule(_options_only_for_the_metric),
    ]
    if version != "1.0.0":
        steps.append(Rule(_one_reference))
    steps += [
        Field("method", Choice(METHODS), default="bootstrap"),
        *_systems.run_fields(limits),
        Field("threshold", Number(0, 1), default=DEFAULT_THRESHOLD),
        ter_word_limits(limits, _ter_options, _systems.system_texts),
    ]
    if version != "1.0.0":
        steps.append(Rule(_check_units))
    steps.append(Rule(partial(_work, limits)))
    return InputSpec(*steps)


INPUT = input_spec(VERSION)


# --- the result --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RankedSystem(Output):
    """A system in the ranking: its name and score, its rank range (``top``-``bottom``, as
    WMT's findings print it) and its cluster (1: the best)."""

    name: str
    score: float
    rank: str
    top: int
    bottom: int
    cluster: int


@dataclass(frozen=True, slots=True)
class PairTest(Output):
    """The paired test of two systems (``first`` before ``second`` in the input's order):
    ``delta`` is second's score minus first's, ``better`` the name of the better score (None
    when equal), ``significant`` whether it is significantly better, ``human_agreement``
    Kocmi et al.'s estimated accuracy in percent (None where they fitted no curve)."""

    first: str
    second: str
    delta: float
    p_value: float
    better: str | None
    significant: bool
    human_agreement: float | None


@dataclass(frozen=True, slots=True)
class SystemRankingResult(Output):
    """The metric (name, signature, direction), the test run, the systems best first and
    every pair's test."""

    metric: str
    signature: str
    lower_is_better: bool
    method: str
    samples: int
    seed: int
    threshold: float
    segment_count: int
    systems: tuple[RankedSystem, ...]
    pairs: tuple[PairTest, ...]


def compute(values: Mapping[str, Any]) -> SystemRankingResult:
    """The result of checked values (of either version: 1.0.0 never has wer or cer)."""
    _systems.need_significance("The rankings")
    from mtcompute import significance  # noqa: PLC0415

    systems, refs = values["systems"], values["references"]
    method, samples, seed = values["method"], _systems.samples_of(values), values["seed"]
    name = values["metric"]
    metric, fields = _systems.significance_metric(name, _options_of(values, name), nrefs(refs))
    statistics = [metric.statistics(system["hypotheses"], refs) for system in systems]
    ranking = significance.rank_systems(
        metric,
        statistics,
        method=_TEST[method],  # type: ignore[arg-type]
        samples=samples,
        seed=seed,
        threshold=values["threshold"],
    )
    names = [system["name"] for system in systems]
    return SystemRankingResult(
        metric=ranking.metric,
        signature=_systems.paired_signature(fields, method, samples, seed),
        lower_is_better=ranking.lower_is_better,
        method=method,
        samples=samples,
        seed=seed,
        threshold=values["threshold"],
        segment_count=len(refs),
        systems=tuple(
            RankedSystem(names[r.system], r.score, r.rank, r.top, r.bottom, r.cluster)
            for r in ranking.systems
        ),
        pairs=tuple(
            PairTest(
                names[p.first],
                names[p.second],
                p.delta,
                p.p_value,
                None if p.better is None else names[p.better],
                p.significant,
                p.agreement,
            )
            for p in ranking.pairs
        ),
    )


def system_ranking(
    systems: Sequence[Mapping[str, Any]],
    references: Sequence[Sequence[str]],
    metric: str,
    *,
    bleu: Mapping[str, Any] | None = None,
    chrf: Mapping[str, Any] | None = None,
    ter: Mapping[str, Any] | None = None,
    wer: Mapping[str, Any] | None = None,
    cer: Mapping[str, Any] | None = None,
    method: str = "bootstrap",
    samples: int | None = None,
    seed: int = DEFAULT_SEED,
    threshold: float = DEFAULT_THRESHOLD,
) -> SystemRankingResult:
    """All-pairs significance of 2 to 16 systems on one metric, their WMT clusters and rank
    ranges, and each pair's estimated human agreement (system-ranking@1.1.0): ``systems``
    are ``{"name": ..., "hypotheses": [...]}`` objects, ``references[i]`` holds the 1 to 8
    reference strings of segment ``i``, ``metric`` is ``bleu``, ``chrf`` or ``ter`` (chrF++:
    ``chrf`` with ``word_order`` 2) with sacrebleu-score's options, or ``wer`` or ``cer``
    (one reference per segment; scores in percent) with wer-compute's normalisations
    (``lowercase``, ``remove_punctuation``, ``collapse_whitespace``); ``method`` is
    ``bootstrap`` or ``approximate_randomization``, ``samples`` omitted 1000 or 10000.
    Same validation and limits as the tool; the numbers are ``mtcompute compare --rank``'s.

    Raises :class:`~mtcompute.errors.InvalidInput`, :class:`~mtcompute.errors.LimitExceeded`
    or :class:`~mtcompute.errors.UnsupportedInput` exactly where the tool would.

    >>> result = system_ranking(
    ...     [{"name": "A", "hypotheses": ["a b c d", "e f"]},
    ...      {"name": "B", "hypotheses": ["a b c d", "e g"]}],
    ...     [["a b c d"], ["e f"]], "chrf", samples=99)
    >>> [(s.name, s.rank, s.cluster) for s in result.systems]
    [('A', '1-2', 1), ('B', '1-2', 1)]
    """
    return compute(INPUT.call(**locals()))


TOOL = Tool(ID, VERSION, INPUT, compute, system_ranking)
