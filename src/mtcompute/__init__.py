"""mtcompute: exact, versioned machine-translation metric tools.

The entry point is :func:`execute` (any tool, any input, always an envelope); beside it, typed
functions with the same validation raise one exception class per error code, and batch APIs
without the service limits (:func:`corpus_chrf`, :func:`chrf_pairwise`, :func:`corpus_bleu`).

Names are imported on first use (PEP 562), so that a command such as ``mtcompute score``
loads only the modules it needs.
"""

from __future__ import annotations

# Only type checkers import typing here: at run time it would cost `mtcompute score` more
# start-up than the scoring itself (mypy and pyright take a module-level TYPE_CHECKING as true).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from mtcompute._execute import execute, execute_json
    from mtcompute.batch import CorpusBleu, CorpusChrf, chrf_pairwise, corpus_bleu, corpus_chrf
    from mtcompute.core.jsjson import dumps, loads
    from mtcompute.errors import (
        InvalidInput,
        LimitExceeded,
        MtcomputeError,
        NotFound,
        UnsupportedInput,
    )
    from mtcompute.tools.bleu_brevity_penalty import BrevityPenaltyResult, bleu_brevity_penalty
    from mtcompute.tools.bleu_corpus_compute import CorpusBleuResult, bleu_corpus
    from mtcompute.tools.bleu_ngrams_count import (
        BleuNgramCounts,
        BleuSegmentCounts,
        bleu_ngrams_count,
    )
    from mtcompute.tools.bleu_sentence_components import (
        BleuSentenceComponents,
        bleu_sentence_components,
    )
    from mtcompute.tools.bleu_sentence_compute import SentenceBleuResult, sentence_bleu
    from mtcompute.tools.bleu_smoothing_compute import BleuSmoothingResult, bleu_from_statistics
    from mtcompute.tools.chrf_components import ChrfComponents, ChrfOrder, chrf_components
    from mtcompute.tools.chrf_compute import ChrfResult, chrf
    from mtcompute.tools.chrf_plus_plus_compute import ChrfPlusPlusResult, chrf_plus_plus

_LAZY = {
    "BleuNgramCounts": "mtcompute.tools.bleu_ngrams_count",
    "BleuSegmentCounts": "mtcompute.tools.bleu_ngrams_count",
    "BleuSentenceComponents": "mtcompute.tools.bleu_sentence_components",
    "BleuSmoothingResult": "mtcompute.tools.bleu_smoothing_compute",
    "BrevityPenaltyResult": "mtcompute.tools.bleu_brevity_penalty",
    "ChrfComponents": "mtcompute.tools.chrf_components",
    "ChrfOrder": "mtcompute.tools.chrf_components",
    "ChrfPlusPlusResult": "mtcompute.tools.chrf_plus_plus_compute",
    "ChrfResult": "mtcompute.tools.chrf_compute",
    "CorpusBleu": "mtcompute.batch",
    "CorpusBleuResult": "mtcompute.tools.bleu_corpus_compute",
    "CorpusChrf": "mtcompute.batch",
    "InvalidInput": "mtcompute.errors",
    "LimitExceeded": "mtcompute.errors",
    "MtcomputeError": "mtcompute.errors",
    "NotFound": "mtcompute.errors",
    "SentenceBleuResult": "mtcompute.tools.bleu_sentence_compute",
    "UnsupportedInput": "mtcompute.errors",
    "bleu_brevity_penalty": "mtcompute.tools.bleu_brevity_penalty",
    "bleu_corpus": "mtcompute.tools.bleu_corpus_compute",
    "bleu_from_statistics": "mtcompute.tools.bleu_smoothing_compute",
    "bleu_ngrams_count": "mtcompute.tools.bleu_ngrams_count",
    "bleu_sentence_components": "mtcompute.tools.bleu_sentence_components",
    "chrf": "mtcompute.tools.chrf_compute",
    "chrf_components": "mtcompute.tools.chrf_components",
    "chrf_pairwise": "mtcompute.batch",
    "chrf_plus_plus": "mtcompute.tools.chrf_plus_plus_compute",
    "corpus_bleu": "mtcompute.batch",
    "corpus_chrf": "mtcompute.batch",
    "dumps": "mtcompute.core.jsjson",
    "execute": "mtcompute._execute",
    "execute_json": "mtcompute._execute",
    "loads": "mtcompute.core.jsjson",
    "sentence_bleu": "mtcompute.tools.bleu_sentence_compute",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'mtcompute' has no attribute {name!r}")
    import importlib  # noqa: PLC0415 - with warnings, 0.7 ms of start-up `mtcompute score` skips

    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)


__version__ = "0.1.0"

__all__ = [
    "BleuNgramCounts",
    "BleuSegmentCounts",
    "BleuSentenceComponents",
    "BleuSmoothingResult",
    "BrevityPenaltyResult",
    "ChrfComponents",
    "ChrfOrder",
    "ChrfPlusPlusResult",
    "ChrfResult",
    "CorpusBleu",
    "CorpusBleuResult",
    "CorpusChrf",
    "InvalidInput",
    "LimitExceeded",
    "MtcomputeError",
    "NotFound",
    "SentenceBleuResult",
    "UnsupportedInput",
    "__version__",
    "bleu_brevity_penalty",
    "bleu_corpus",
    "bleu_from_statistics",
    "bleu_ngrams_count",
    "bleu_sentence_components",
    "chrf",
    "chrf_components",
    "chrf_pairwise",
    "chrf_plus_plus",
    "corpus_bleu",
    "corpus_chrf",
    "dumps",
    "execute",
    "execute_json",
    "loads",
    "sentence_bleu",
]
