"""Adapters to the libraries where researchers compute metrics, one module per library and
each an extra: :mod:`~mtcompute.adapters.torchmetrics` (``mtcompute[torchmetrics]``),
:mod:`~mtcompute.adapters.hf_evaluate` (``mtcompute[evaluate]``) and
:mod:`~mtcompute.adapters.pandas` (``mtcompute[pandas]``). Nothing in the package imports
them: a user imports the one for the library at hand.

Here: the metrics the adapters name, each with its batch API and that API's fixed keywords.
"""

from __future__ import annotations

__all__ = ["METRICS", "corpus_function"]

from collections.abc import Callable
from typing import Any

from mtcompute.metrics.bleu.corpus import corpus_bleu
from mtcompute.metrics.chrf.corpus import corpus_chrf
from mtcompute.metrics.ter.corpus import corpus_ter
from mtcompute.metrics.wer.corpus import corpus_wer

METRICS: dict[str, tuple[Callable[..., Any], dict[str, Any]]] = {
    "bleu": (corpus_bleu, {}),
    "chrf": (corpus_chrf, {}),
    "chrf++": (corpus_chrf, {"word_order": 2}),
    "ter": (corpus_ter, {}),
    "wer": (corpus_wer, {"unit": "word"}),
    "cer": (corpus_wer, {"unit": "character"}),
}


def corpus_function(metric: str, where: str = "metric") -> Callable[..., Any]:
    """The batch API of ``metric`` (a name of :data:`METRICS`) with its fixed keywords
    bound; ``where`` names the setting in the error for an unknown name."""
    if metric not in METRICS:
        raise ValueError(f"{where}: expected one of {', '.join(METRICS)}, got {metric!r}")
    corpus, fixed = METRICS[metric]

    def bound(*args: Any, **options: Any) -> Any:
        return corpus(*args, **fixed, **options)

    return bound
