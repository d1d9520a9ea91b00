"""What the BLEU tools' declarations and results share.

The BLEU tools are one pipeline with the sufficient statistics as the seam (Papineni et al.
2002 §2.1 for one segment, §2.1.1 and §2.2.2 for a corpus: sum the statistics, then score;
Chen & Cherry 2014 §2.2 for the smoothing):

* bleu-sentence-components and bleu-ngrams-count count (one segment, many segments);
* bleu-smoothing-compute scores statistics;
* bleu-sentence-compute and bleu-corpus-compute are counting followed by scoring, so they give
  exactly what calling the two steps in sequence gives.

This module declares their shared input steps once (a sentence or a corpus of token lists, the
scoring options, the total-size limits, the epsilon rule: :func:`counting_input` and
:func:`scoring_input` put them in order), so that one rule has one message everywhere, and
the result fields their results share (:class:`CountFields`, :class:`ScoreFields`,
:class:`SmoothedFields`). The counting is :mod:`mtcompute.metrics.bleu.counts` (the definition:
:func:`mtcompute.metrics.bleu.statistics.sentence_statistics`); the scoring is
:func:`mtcompute.metrics.bleu.statistics.smooth_and_score`.
"""

from __future__ import annotations

__all__ = [
    "DEFAULT_EPSILON",
    "EPSILON_RULE",
    "CountFields",
    "ScoreFields",
    "SmoothedFields",
    "corpus_steps",
    "counting_input",
    "score",
    "scored_fields",
    "scoring_fields",
    "scoring_input",
    "sentence_fields",
    "totals_rule",
]

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from mtcompute.contracts import fields
from mtcompute.contracts.validate import REQUIRED, Field, InputSpec, Limit, Rule, one_to, same_count
from mtcompute.errors import InvalidInput, LimitExceeded
from mtcompute.metrics.bleu.statistics import BleuStatistics, SmoothedBleu, Smoothing

DEFAULT_EPSILON = 0.1


# --- the inputs -------------------------------------------------------------------------------


def sentence_fields(limits: Mapping[str, Limit]) -> tuple[Field[Any], ...]:
    """hypothesis (a token list), then references (1 to 8 token lists)."""
    token_bytes = limits["max_token_bytes"]
    return (
        Field("hypothesis", fields.hypothesis_tokens(token_bytes)),
        Field("references", fields.references(limits["max_references"], token_bytes)),
    )


def corpus_steps(limits: Mapping[str, Limit]) -> tuple[Field[Any] | Rule, ...]:
    """hypotheses, then references (each: an array of at most ``max segments`` (limit), at
    least one, then each segment in order), then equal segment counts."""
    token_bytes, most = limits["max_token_bytes"], limits["max_segments"]
    hypotheses = one_to(most, fields.hypothesis_tokens(token_bytes), "token lists", "segment")
    per_segment = fields.references(limits["max_references"], token_bytes)
    references = one_to(most, per_segment, "reference lists", "segment")
    return (
        Field("hypotheses", hypotheses),
        Field("references", references),
        same_count("hypotheses", "references", "segments"),
    )


def scoring_fields(
    tool: str, reason: str, smoothing: Smoothing | None = "none"
) -> tuple[Field[Any], ...]:
    """smoothing (required when ``smoothing`` is None, else that default), epsilon (0-1;
    ``None`` when omitted), effective_order, decimals (0-15; ``None`` when omitted)."""
    return (
        Field(
            "smoothing",
            fields.smoothing(tool, reason),
            REQUIRED if smoothing is None else smoothing,
        ),
        Field("epsilon", fields.EPSILON, default=None),
        Field("effective_order", fields.EFFECTIVE_ORDER, default=False),
        Field("decimals", fields.DECIMALS, default=None),
    )


def _token_bytes(tokens: list[str]) -> int:
    joined = "".join(tokens)  # checked tokens: no lone surrogate
    return len(joined) if joined.isascii() else len(joined.encode("utf-8"))


def totals_rule(limits: Mapping[str, Limit], sides: str) -> Rule:
    """max total tokens, then max total token bytes, over the hypothesis or hypotheses and
    every reference (``sides`` names them in the message)."""
    max_tokens, max_bytes = limits["max_total_tokens"], limits["max_total_token_bytes"]

    def check(values: Mapping[str, Any]) -> None:
        if "hypotheses" in values:
            lists = [*values["hypotheses"], *(r for refs in values["references"] for r in refs)]
        else:
            lists = [values["hypothesis"], *values["references"]]
        token_count = sum(map(len, lists))
        if token_count > max_tokens.value:
            raise LimitExceeded(
                f"Expected at most {max_tokens.value} tokens in {sides} together "
                f"(limit {max_tokens.name}), got {token_count}."
            )
        token_bytes = sum(map(_token_bytes, lists))
        if token_bytes > max_bytes.value:
            raise LimitExceeded(
                f"Expected at most {max_bytes.value} UTF-8 bytes of tokens in all "
                f"(limit {max_bytes.name}), got {token_bytes}."
            )

    return Rule(check)


def _check_epsilon(values: Mapping[str, Any]) -> None:
    if values["epsilon"] is not None and values["smoothing"] != "method1":
        raise InvalidInput(
            f"Expected no epsilon with smoothing {values['smoothing']} at /epsilon "
            "(epsilon applies to method1 only), got one.",
            "/epsilon",
        )


EPSILON_RULE = Rule(_check_epsilon)  # epsilon is accepted only with method1


def counting_input(
    limits: Mapping[str, Limit],
    corpus: bool,
    *options: Field[Any],
    last: tuple[Rule, ...] = (),
) -> InputSpec:
    """A counting tool's input: the corpus (:func:`corpus_steps`) or the segment
    (:func:`sentence_fields`), max_order (4 when omitted), the ``options``, the totals
    (:func:`totals_rule`), then the ``last`` rules."""
    if corpus:
        texts, sides = corpus_steps(limits), "the hypotheses and references"
    else:
        texts, sides = sentence_fields(limits), "the hypothesis and references"
    return InputSpec(
        *texts,
        Field("max_order", fields.MAX_ORDER, default=4),
        *options,
        totals_rule(limits, sides),
        *last,
    )


def scoring_input(
    limits: Mapping[str, Limit],
    corpus: bool,
    tool: str,
    smoothing: Smoothing | None = "none",
) -> InputSpec:
    """A counting-then-scoring tool's input: :func:`counting_input` with the
    :func:`scoring_fields` as its options (methods 4 to 7 refused: the tool scores its
    statistics with bleu-smoothing-compute's methods) and the epsilon rule last."""
    statistics = "the corpus-summed statistics" if corpus else "a sentence's statistics"
    reason = (
        f"this version scores {statistics} with bleu-smoothing-compute's methods, "
        "and methods 4 to 7 are not among them"
    )
    return counting_input(
        limits, corpus, *scoring_fields(tool, reason, smoothing), last=(EPSILON_RULE,)
    )


# --- the results ------------------------------------------------------------------------------
# Mixins of result fields: a result dataclass (frozen, with slots) lists them as its bases and
# its fields, the output's keys, come in the reverse order of its bases (dataclass fields follow
# the method resolution order from its end). They hold no slots of their own (``__slots__ =
# ()``), so that a result may take several.


@dataclass(frozen=True)
class CountFields:
    """candidate_length, reference_length, matches, totals: BLEU statistics as results write
    them (one segment's or a corpus's sums)."""

    __slots__ = ()

    candidate_length: int
    reference_length: int
    matches: tuple[int, ...]
    totals: tuple[int, ...]


@dataclass(frozen=True)
class SmoothedFields(CountFields):
    """The statistics, then smoothed_matches and smoothed_totals: what was scored."""

    __slots__ = ()

    smoothed_matches: tuple[int | float, ...]
    smoothed_totals: tuple[int, ...]


@dataclass(frozen=True)
class ScoreFields:
    """bleu, brevity_penalty, orders_used: the score of bleu-smoothing-compute's rules."""

    __slots__ = ()

    bleu: float
    brevity_penalty: float
    orders_used: int


# --- scoring ---------------------------------------------------------------------------------


def score(stats: BleuStatistics, values: Mapping[str, Any]) -> SmoothedBleu:
    """bleu-smoothing-compute on (valid) statistics with the checked scoring options."""
    epsilon = DEFAULT_EPSILON if values["epsilon"] is None else values["epsilon"]
    return stats.score(values["smoothing"], epsilon, values["effective_order"], values["decimals"])


def scored_fields(stats: BleuStatistics, values: Mapping[str, Any]) -> dict[str, Any]:
    """:func:`score` of ``stats`` and ``stats`` themselves: the fields bleu-sentence-compute's
    and bleu-corpus-compute's results share, by name."""
    scored = score(stats, values)
    return {
        "bleu": scored.bleu,
        "brevity_penalty": scored.brevity_penalty,
        "orders_used": scored.orders_used,
        "candidate_length": stats.candidate_length,
        "reference_length": stats.reference_length,
        "matches": stats.matches,
        "totals": stats.totals,
        "smoothed_matches": scored.smoothed_matches,
        "smoothed_totals": scored.smoothed_totals,
    }
