"""pandas helpers: the corpus score of a DataFrame's hypothesis and reference columns, and
each row's sentence score as a Series (the extra ``mtcompute[pandas]``).

``metric`` is one of :data:`~mtcompute.adapters.METRICS` (``bleu``, ``chrf``, ``chrf++``,
``ter``, ``wer``, ``cer``); ``reference`` names one column, or several (each row's references,
in order; WER and CER take one); the other keywords are the batch API's
(:func:`mtcompute.corpus_bleu`'s ``tokenize``...). A cell that is not a string (a missing
value) is refused, naming its column and row.

>>> import pandas as pd
>>> frame = pd.DataFrame({"hypothesis": ["the cat sat on mat", "a dog"],
...                       "reference": ["the cat sat on the mat", "a dog"]})
>>> print(corpus_score(frame, "chrf"))  # doctest: +ELLIPSIS
chrF2|nrefs:1|case:mixed|eff:yes|nc:6|nw:0|space:no|version:2.6.0|mtcompute:... = 69.11
>>> sentence_scores(frame, "ter").round(2).tolist()
[16.67, 0.0]
"""

from __future__ import annotations

__all__ = ["corpus_score", "sentence_scores"]

from collections.abc import Sequence
from typing import Any

import pandas as pd

from mtcompute.adapters import corpus_function


def _texts(frame: pd.DataFrame, column: str) -> list[str]:
    """The column's cells, each a string (else the error names the column and the row)."""
    if column not in frame.columns:
        raise KeyError(f"no column {column!r}: the frame has {', '.join(map(repr, frame))}")
    cells: list[str] = list(frame[column])
    for label, cell in zip(frame.index, cells, strict=True):
        if not isinstance(cell, str):
            missing = pd.api.types.is_scalar(cell) and pd.isna(cell)
            got = "a missing value" if missing else repr(cell)
            raise ValueError(f"column {column!r}, row {label!r}: expected a string, got {got}")
    return cells


def _inputs(
    frame: pd.DataFrame, hypothesis: str, reference: str | Sequence[str]
) -> tuple[list[str], list[Any]]:
    """The hypotheses and each row's references (a string per row for one column)."""
    hyps = _texts(frame, hypothesis)
    if isinstance(reference, str):
        return hyps, _texts(frame, reference)
    streams = [_texts(frame, column) for column in reference]
    return hyps, [list(refs) for refs in zip(*streams, strict=True)]


def corpus_score(
    frame: pd.DataFrame,
    metric: str = "bleu",
    *,
    hypothesis: str = "hypothesis",
    reference: str | Sequence[str] = "reference",
    **options: Any,
) -> Any:
    """The corpus result of the frame's rows (``CorpusBleu``, ``CorpusChrf``, ``CorpusTer``
    or ``CorpusWer``: ``.score``, ``.signature``, ``str()`` the sacreBLEU line)."""
    hyps, refs = _inputs(frame, hypothesis, reference)
    return corpus_function(metric)(hyps, refs, **options)


def sentence_scores(
    frame: pd.DataFrame,
    metric: str = "bleu",
    *,
    hypothesis: str = "hypothesis",
    reference: str | Sequence[str] = "reference",
    **options: Any,
) -> pd.Series:
    """Each row's sentence score (the batch API's ``segment_scores``: sentence BLEU, chrF,
    TER, WER in percent) as a float Series on the frame's index, named after the metric."""
    hyps, refs = _inputs(frame, hypothesis, reference)
    result = corpus_function(metric)(hyps, refs, segment_scores=True, **options)
    return pd.Series(result.segment_scores, index=frame.index, name=metric, dtype="float64")
