"""What every metric's resampling terms share: the :class:`Metric` protocol the
significance tests (:mod:`mtcompute.significance`) run a metric through without knowing
which it is, and the numpy steps that give sacreBLEU's float types.
"""

from __future__ import annotations

__all__ = ["Array", "Metric", "each_segment", "float_type", "typed"]

from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypeVar

import numpy as np
import numpy.typing as npt

Array = npt.NDArray[Any]
S = TypeVar("S")


class Metric(Protocol):
    """What the tests need of a metric: statistics in, the score of summed statistics out.

    ``scores`` scores each row of a matrix of summed statistics exactly as sacreBLEU's
    ``_compute_score_from_stats`` does when handed that numpy row: float32 rows with float32
    arithmetic, int64 and float64 rows in float64 (int64 rows with its in-place add-k, which
    truncates). It returns what ``numpy.array`` makes of those scores: float32 when every
    score is a float32, else float64."""

    @property
    def name(self) -> str:
        """sacreBLEU's score name (``BLEU``, ``chrF2``, ``chrF2++``, ``TER``)."""
        ...

    @property
    def curve(self) -> str:
        """The name of Kocmi et al.'s agreement curve for this metric and its settings
        (:data:`mtcompute.metrics.agreement.KOCMI_2024`): the score name, but spBLEU101 or
        spBLEU200 for BLEU over the FLORES SentencePiece models; a name without a curve gets
        no estimate."""
        ...

    @property
    def width(self) -> int:
        """The number of statistics per segment."""
        ...

    @property
    def lower_is_better(self) -> bool:
        """Whether a lower score is the better one (the error rates: TER, WER, CER), for the
        tests' directions (which system is the better, the rankings)."""
        ...

    def score(self, totals: Sequence[int | float]) -> float:
        """The score of summed statistics (Python numbers, as sacreBLEU sums its lists)."""
        ...

    def scores(self, sums: Array) -> Array:
        """The score of each row of summed statistics (see the class docstring)."""
        ...


def each_segment(
    count: Callable[..., tuple[object, list[S] | None]],
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str]],
    options: object,
) -> list[S]:
    """Each segment's statistics: ``count`` (a metric's statistics function, which sums them
    and, with ``per_segment``, lists each segment's) with ``options``."""
    _, each = count(hypotheses, references, options, per_segment=True)
    assert each is not None
    return each


def float_type(sums: Array) -> type[np.floating[Any]]:
    """The float type sacreBLEU's arithmetic takes for these rows: float32 for float32
    rows, else float64."""
    return np.float32 if sums.dtype == np.float32 else np.float64


def typed(values: Array, is32: Array, ft: type[np.floating[Any]]) -> Array:
    """``numpy.array`` of scores of which ``is32`` are numpy float32 (with float32 rows) and
    the rest Python floats: float32 when all are, else float64."""
    if ft is np.float32 and len(values) and bool(is32.all()):
        return values.astype(np.float32)
    return values
