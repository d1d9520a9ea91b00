"""ter-compute@1.0.0: translation edit rate of raw text, exactly as sacreBLEU 2.6.0.

TER is Snover et al. 2006 ("A Study of Translation Edit Rate with Targeted Human
Annotation", §2-3): the fewest edits (insertions, deletions, substitutions and block shifts,
the shifts chosen greedily) that turn a hypothesis into a reference, over the average
reference length. The computation is :mod:`mtcompute.metrics.ter` (``statistics`` over the
compiled kernel, the score and signature fields of ``score``): per segment the fewest edits
over its references and their average length, summed for the corpus; a segment's own score
is sacreBLEU's ``sentence_score``, that segment's statistics scored alone (the corpus sums
are ``metrics.ter.edits.sum_statistics``, sacreBLEU's addition in segment order). This
module declares the input (references laid out per segment, sacreBLEU's four TER options),
bounds the work (each text's words, and the words aligned in all) and writes the result.
Validation follows the contract's order (its last semantics line).
"""

from __future__ import annotations

__all__ = ["TerComputeResult", "TerSegment", "ter_compute", "ter_words"]

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from mtcompute.contracts.validate import Boolean, Field, InputSpec, contract_limits
from mtcompute.metrics import _base as score_line
from mtcompute.metrics.ter import edits as ter
from mtcompute.metrics.ter import score as ter_scoring
from mtcompute.tools import Tool
from mtcompute.tools._cost import member, pair_products, size
from mtcompute.tools._results import Output
from mtcompute.tools._sacre_common import nrefs, ter_word_limits, ter_words, text_steps

ID, VERSION = "ter-compute", "1.0.0"
LIMITS = contract_limits(ID, VERSION)
OPTIONS = ("case_sensitive", "normalized", "no_punct", "asian_support")
"""sacreBLEU's TER options, in the contract's order (each omitted false)."""


def _options(values: Mapping[str, Any]) -> ter_scoring.TerOptions:
    return ter_scoring.TerOptions(**{name: values[name] for name in OPTIONS})


INPUT = InputSpec(
    *text_steps(LIMITS),
    *(Field(name, Boolean(), default=False) for name in OPTIONS),
    ter_word_limits(LIMITS, _options),
)


@dataclass(frozen=True, slots=True)
class TerSegment(Output):
    """One segment: its fewest edits over its references, their average length, and its
    sentence TER."""

    edits: int
    ref_length: float
    score: float


@dataclass(frozen=True, slots=True)
class TerComputeResult(Output):
    """sacreBLEU's corpus TER, its text and signature, the summed statistics, and each
    segment's."""

    score: float
    text: str
    signature: str
    num_edits: int
    ref_length: float
    segment_count: int
    segments: tuple[TerSegment, ...]


def _compute(values: Mapping[str, Any]) -> TerComputeResult:
    hyps, refs = values["hypotheses"], values["references"]
    options = _options(values)
    statistics = ter_scoring.ter_statistics(hyps, refs, options)
    num_edits, ref_length = ter.sum_statistics(statistics)
    total = ter_scoring.ter_score(num_edits, ref_length)
    signature = score_line.format_signature(ter_scoring.ter_signature_fields(options, nrefs(refs)))
    segments = tuple(
        TerSegment(edits, length, ter_scoring.ter_score(edits, length).score)
        for edits, length in statistics
    )
    return TerComputeResult(
        total.score, str(total), signature, num_edits, ref_length, len(hyps), segments
    )


def ter_compute(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str]],
    *,
    case_sensitive: bool = False,
    normalized: bool = False,
    no_punct: bool = False,
    asian_support: bool = False,
) -> TerComputeResult:
    """sacreBLEU 2.6.0's TER of raw text (ter-compute@1.0.0): ``references[i]`` holds the 1
    to 8 reference strings of segment ``i``; the options are sacreBLEU's ``TER`` arguments.
    Same validation and limits as the tool.

    Raises :class:`~mtcompute.errors.InvalidInput` or
    :class:`~mtcompute.errors.LimitExceeded` exactly where the tool would.

    >>> ter_compute(["The cat sat on mat."], [["The cat sat on the mat."]]).text
    'TER = 16.67'
    """
    return _compute(INPUT.call(**locals()))


def _cost(raw: object, cap: int) -> int:
    """Tokenizing each text (12 units per size unit), then aligning each hypothesis with each
    of its references: a unit per pair of their characters (words are fewer)."""
    units = 12 * size(raw, cap)
    if units > cap:
        return units
    return units + pair_products(member(raw, "hypotheses"), member(raw, "references"))


TOOL = Tool(ID, VERSION, INPUT, _compute, ter_compute, _cost)
