"""mtcompute: exact, versioned machine-translation metric tools.

The entry point is :func:`execute` (any tool, any input, always an envelope); beside it, typed
functions with the same validation raise one exception class per error code, and batch APIs
without the service limits (:func:`corpus_chrf`, :func:`chrf_pairwise`, :func:`corpus_bleu`,
:func:`corpus_ter`, :func:`corpus_wer`).

Importing the package loads none of them: each name is imported from its module on first
use (PEP 562 ``__getattr__`` over ``_SOURCES``), so that a command or a script pays only for
what it uses.
"""

from __future__ import annotations

import importlib

from mtcompute._version import __version__

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
    "CorpusTer",
    "CorpusWer",
    "Envelope",
    "InvalidInput",
    "LimitExceeded",
    "MtcomputeError",
    "NotFound",
    "SacrebleuResult",
    "SentenceBleuResult",
    "SystemRankingResult",
    "TerComputeResult",
    "TokenizeResult",
    "UnsupportedInput",
    "WerComputeResult",
    "__version__",
    "bleu_brevity_penalty",
    "bleu_corpus",
    "bleu_from_statistics",
    "bleu_ngrams_count",
    "bleu_sentence_components",
    "bleu_tokenize",
    "chrf",
    "chrf_components",
    "chrf_pairwise",
    "chrf_plus_plus",
    "corpus_bleu",
    "corpus_chrf",
    "corpus_ter",
    "corpus_wer",
    "dumps",
    "execute",
    "execute_json",
    "loads",
    "sacrebleu_score",
    "sentence_bleu",
    "system_ranking",
    "ter_compute",
    "text_bleu_statistics",
    "wer_compute",
]

# Where each public name is defined: imported on first access, then kept in the module.
_SOURCES: dict[str, str] = {
    "BleuNgramCounts": "mtcompute.tools.bleu_ngrams_count",
    "BleuSegmentCounts": "mtcompute.tools.bleu_ngrams_count",
    "BleuSentenceComponents": "mtcompute.tools.bleu_sentence_components",
    "BleuSmoothingResult": "mtcompute.tools.bleu_smoothing_compute",
    "BrevityPenaltyResult": "mtcompute.tools.bleu_brevity_penalty",
    "ChrfComponents": "mtcompute.tools.chrf_components",
    "ChrfOrder": "mtcompute.tools.chrf_components",
    "ChrfPlusPlusResult": "mtcompute.tools.chrf_plus_plus_compute",
    "ChrfResult": "mtcompute.tools.chrf_compute",
    "CorpusBleu": "mtcompute.metrics.bleu.corpus",
    "CorpusBleuResult": "mtcompute.tools.bleu_corpus_compute",
    "CorpusChrf": "mtcompute.metrics.chrf.corpus",
    "CorpusTer": "mtcompute.metrics.ter.corpus",
    "CorpusWer": "mtcompute.metrics.wer.corpus",
    "Envelope": "mtcompute.envelope",
    "InvalidInput": "mtcompute.errors",
    "LimitExceeded": "mtcompute.errors",
    "MtcomputeError": "mtcompute.errors",
    "NotFound": "mtcompute.errors",
    "SacrebleuResult": "mtcompute.tools.sacrebleu_score",
    "SentenceBleuResult": "mtcompute.tools.bleu_sentence_compute",
    "SystemRankingResult": "mtcompute.tools.system_ranking",
    "TerComputeResult": "mtcompute.tools.ter_compute",
    "TokenizeResult": "mtcompute.tools.bleu_tokenize",
    "UnsupportedInput": "mtcompute.errors",
    "WerComputeResult": "mtcompute.tools.wer_compute",
    "bleu_brevity_penalty": "mtcompute.tools.bleu_brevity_penalty",
    "bleu_corpus": "mtcompute.tools.bleu_corpus_compute",
    "bleu_from_statistics": "mtcompute.tools.bleu_smoothing_compute",
    "bleu_ngrams_count": "mtcompute.tools.bleu_ngrams_count",
    "bleu_sentence_components": "mtcompute.tools.bleu_sentence_components",
    "bleu_tokenize": "mtcompute.tools.bleu_tokenize",
    "chrf": "mtcompute.tools.chrf_compute",
    "chrf_components": "mtcompute.tools.chrf_components",
    "chrf_pairwise": "mtcompute.metrics.chrf.corpus",
    "chrf_plus_plus": "mtcompute.tools.chrf_plus_plus_compute",
    "corpus_bleu": "mtcompute.metrics.bleu.corpus",
    "corpus_chrf": "mtcompute.metrics.chrf.corpus",
    "corpus_ter": "mtcompute.metrics.ter.corpus",
    "corpus_wer": "mtcompute.metrics.wer.corpus",
    "dumps": "mtcompute.core.jsjson",
    "execute": "mtcompute._execute",
    "execute_json": "mtcompute._execute",
    "loads": "mtcompute.core.jsjson",
    "sacrebleu_score": "mtcompute.tools.sacrebleu_score",
    "sentence_bleu": "mtcompute.tools.bleu_sentence_compute",
    "system_ranking": "mtcompute.tools.system_ranking",
    "ter_compute": "mtcompute.tools.ter_compute",
    "text_bleu_statistics": "mtcompute.metrics.bleu.corpus",
    "wer_compute": "mtcompute.tools.wer_compute",
}


def __getattr__(name: str) -> object:
    """Import a public name from its module on first access (PEP 562)."""
    try:
        module = _SOURCES[name]
    except KeyError:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    """The module's names, the public API included before its first use."""
    return sorted({*globals(), *__all__})
