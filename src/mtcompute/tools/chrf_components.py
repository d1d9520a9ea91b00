"""chrf-components@1.0.0: chrF/chrF++ broken down per order (Popović 2015 §2, Popović 2017 §2).

Per order (character orders 1..char_order, then word orders 1..word_order): the n-gram counts
summed over segments, whether the order is effective, and its exact precision, recall and F;
then the averaged precision and recall, the score and each segment's score, under one of two
averagings (:func:`mtcompute.metrics.chrf.statistics.chrf_by_order`): ``effective_order``
(chrf-compute's rule) or ``per_order_f`` (chrF++.py / sacreBLEU ``eps_smoothing``).
``sacrebleu_compatible`` zeroes a segment's hypothesis count for an order its reference
lacks, as sacreBLEU 2.x does.

Validation: chrf-compute's order (its :func:`text_steps`, ``beta`` and ``lowercase``), then
char_order, word_order, averaging, sacrebleu_compatible.
"""

from __future__ import annotations

__all__ = ["ChrfComponents", "ChrfOrder", "chrf_components"]

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from mtcompute.contracts.validate import Boolean, Choice, Field, InputSpec, Integer, contract_limits
from mtcompute.metrics.chrf.ngrams import AVERAGINGS, Averaging
from mtcompute.metrics.chrf.statistics import chrf_by_order
from mtcompute.tools import Tool
from mtcompute.tools._cost import integer, member, size
from mtcompute.tools._results import Output, chrf_order
from mtcompute.tools.chrf_compute import BETA, LOWERCASE, ExactScores, text_steps

ID, VERSION = "chrf-components", "1.0.0"
INPUT = InputSpec(
    *text_steps(contract_limits(ID, VERSION)),
    BETA,
    LOWERCASE,
    Field("char_order", Integer(1, 10), default=6),
    Field("word_order", Integer(0, 4), default=0),
    Field("averaging", Choice(AVERAGINGS), default="effective_order"),
    Field("sacrebleu_compatible", Boolean(), default=False),
)


@dataclass(frozen=True, slots=True)
class ChrfOrder(Output):
    """One order: corpus counts and its exact precision, recall and F (``None``: undefined)."""

    OUTPUT_KEYS = (
        "kind",
        "n",
        "hypothesis_ngrams",
        "reference_ngrams",
        "matches",
        "effective",
        "precision",
        "recall",
        "f",
    )

    kind: str
    n: int
    hypothesis_ngrams: int
    reference_ngrams: int
    matches: int
    precision: Fraction | None
    recall: Fraction | None
    f: Fraction | None

    @property
    def effective(self) -> bool:
        """Whether both sides have an n-gram of this order."""
        return self.hypothesis_ngrams > 0 and self.reference_ngrams > 0


@dataclass(frozen=True, slots=True)
class ChrfComponents(ExactScores, Output):
    """The per-order breakdown, averages, corpus score and segment scores."""

    OUTPUT_KEYS = (
        "char_order",
        "word_order",
        "beta",
        "lowercase",
        "averaging",
        "sacrebleu_compatible",
        "segment_count",
        "orders",
        "precision",
        "recall",
        "score",
        "score_fraction",
        "segment_scores",
    )

    char_order: int
    word_order: int
    beta: int
    lowercase: bool
    averaging: Averaging
    sacrebleu_compatible: bool
    orders: tuple[ChrfOrder, ...]
    precision: Fraction | None
    recall: Fraction | None
    ratio: tuple[int, int]
    segment_ratios: tuple[tuple[int, int], ...]


def _compute(values: Mapping[str, Any]) -> ChrfComponents:
    beta, lowercase = values["beta"], values["lowercase"]
    char_order, word_order = values["char_order"], values["word_order"]
    averaging, compatible = values["averaging"], values["sacrebleu_compatible"]
    total, scored, segments = chrf_by_order(
        values["hypotheses"],
        values["references"],
        beta,
        char_order,
        word_order,
        lowercase,
        averaging,
        compatible,
    )
    orders = tuple(
        ChrfOrder(
            *chrf_order(i, char_order),
            h,
            r,
            m,
            o.precision,
            o.recall,
            o.f,
        )
        for i, (h, r, m, o) in enumerate(
            zip(total.hypothesis, total.reference, total.matches, scored.orders, strict=True)
        )
    )
    return ChrfComponents(
        char_order,
        word_order,
        beta,
        lowercase,
        averaging,
        compatible,
        orders,
        scored.precision,
        scored.recall,
        scored.score.as_integer_ratio(),
        tuple(score.as_integer_ratio() for score in segments),
    )


def chrf_components(
    hypotheses: Sequence[str],
    references: Sequence[str],
    beta: int = 2,
    lowercase: bool = False,
    char_order: int = 6,
    word_order: int = 0,
    averaging: Averaging = "effective_order",
    sacrebleu_compatible: bool = False,
) -> ChrfComponents:
    """The per-order chrF breakdown (chrf-components@1.0.0), with the tool's validation.

    >>> result = chrf_components(["The cat sat."], ["The cat sat on the mat."], 2, False, 3, 1)
    >>> result.score, str(result.recall), [o.matches for o in result.orders]
    ('59.383919', '4619/8568', [10, 9, 8, 4])
    """
    return _compute(INPUT.call(**locals()))


def _cost(raw: object, cap: int) -> int:
    """Each text once per character and word order, exact fractions per order (three times
    as many with ``per_order_f``): the size times 2 + (orders) x (2, or 3 per order)."""
    orders = integer(raw, "char_order", 6, 10) + integer(raw, "word_order", 0, 4)
    per_order = member(raw, "averaging") not in (None, "effective_order")
    return size(raw, cap) * (2 + orders * (3 if per_order else 2))


TOOL = Tool(ID, VERSION, INPUT, _compute, chrf_components, _cost)
