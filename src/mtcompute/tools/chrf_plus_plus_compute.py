"""chrf-plus-plus-compute@1.0.0: exact chrF++ (Popović 2017 §2), corpus and per segment.

Character 1- to 6-grams as chrf-compute, word unigrams and bigrams of
:func:`mtcompute.core.chrf_words.split_words`, the 8 orders averaged together under
chrf-compute's effective-order rule, counts summed over segments literally. Input, limits,
validation order and output shape are chrf-compute's (its :func:`parse_texts` and
:func:`check_texts`), with ``metric`` "chrF++" and ``word_order`` 2.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from mtcompute.core.chrf import chrf_fraction
from mtcompute.core.chrf_words import corpus_statistics
from mtcompute.tools import Tool
from mtcompute.tools._validate import require_bool, require_integer, require_keys, require_object
from mtcompute.tools.chrf_compute import ScoredTexts, check_texts, parse_texts

__all__ = ["ChrfPlusPlusResult", "chrf_plus_plus"]

ID, VERSION = "chrf-plus-plus-compute", "1.0.0"
FIELDS = ("hypotheses", "references", "beta", "lowercase")
REQUIRED = FIELDS[:2]
CHAR_ORDER = 6
WORD_ORDER = 2


@dataclass(frozen=True, slots=True)
class ChrfPlusPlusResult(ScoredTexts):
    """Corpus chrF++ with its exact fraction, and chrF++ of each segment alone."""

    METRIC: ClassVar[str] = "chrF++"
    WORD_ORDER: ClassVar[int] = WORD_ORDER


def _compute(raw: object) -> ChrfPlusPlusResult:
    obj = require_object(raw)
    require_keys(obj, FIELDS, REQUIRED)
    hypotheses = parse_texts(obj["hypotheses"], "hypotheses")
    references = parse_texts(obj["references"], "references")
    check_texts(hypotheses, references)
    beta = require_integer(obj["beta"], "/beta", 1, 16) if "beta" in obj else 2
    lowercase = require_bool(obj["lowercase"], "/lowercase") if "lowercase" in obj else False
    total, segments = corpus_statistics(hypotheses, references, CHAR_ORDER, WORD_ORDER, lowercase)
    return ChrfPlusPlusResult(
        beta,
        lowercase,
        chrf_fraction(total, beta),
        tuple(chrf_fraction(s, beta) for s in segments),
    )


def chrf_plus_plus(
    hypotheses: Sequence[str],
    references: Sequence[str],
    beta: int = 2,
    lowercase: bool = False,
) -> ChrfPlusPlusResult:
    """Exact corpus and segment chrF++ (chrf-plus-plus-compute@1.0.0), with the tool's checks.

    >>> chrf_plus_plus(["The cat sat."], ["The cat sat on the mat."]).score
    '49.405777'
    """
    return _compute(
        {"hypotheses": hypotheses, "references": references, "beta": beta, "lowercase": lowercase}
    )


TOOL = Tool(ID, VERSION, lambda raw: _compute(raw).to_dict())
