"""Any metric's corpus API run from its options object (:func:`corpus_result`): what the
score command's chunks and the Dask partitions call, whatever metric they hold. The corpus
APIs themselves are each metric's: :mod:`mtcompute.metrics.bleu.corpus`,
:mod:`mtcompute.metrics.chrf.corpus` (chrF, chrF++, and all-pairs sentence chrF),
:mod:`mtcompute.metrics.ter.corpus`; what adds their results up in chunks is
:class:`mtcompute.metrics._corpus.ResultSum`.
"""

from __future__ import annotations

__all__ = ["AnyResult", "corpus_result"]

from collections.abc import Iterable, Sequence

from mtcompute.metrics.bleu.corpus import CorpusBleu, corpus_bleu
from mtcompute.metrics.bleu.score import BleuOptions
from mtcompute.metrics.chrf.corpus import CorpusChrf, corpus_chrf
from mtcompute.metrics.chrf.score import ChrfOptions
from mtcompute.metrics.ter.corpus import CorpusTer, corpus_ter
from mtcompute.metrics.ter.score import TerOptions

AnyResult = CorpusBleu | CorpusChrf | CorpusTer


def corpus_result(
    hypotheses: Iterable[str],
    references: Iterable[str] | Iterable[Sequence[str]],
    options: BleuOptions | ChrfOptions | TerOptions,
    *,
    rules: str = "sacrebleu",
    segment_scores: bool = False,
) -> AnyResult:
    """:func:`corpus_bleu`, :func:`corpus_chrf` (with ``rules``) or :func:`corpus_ter`, as
    ``options`` names the metric, with its settings (chrF's ``char_order`` is always 6
    here). What runs a metric from its options object (the score command's chunks, the Dask
    partitions) calls this.

    >>> print(corpus_result(["aa"], ["ab"], ChrfOptions(beta=3)))  # doctest: +ELLIPSIS
    chrF3|nrefs:1|case:mixed|eff:yes|nc:6|nw:0|space:no|version:2.6.0|mtcompute:... = 25.00
    """
    keywords = options.corpus_keywords()
    if isinstance(options, BleuOptions):
        return corpus_bleu(hypotheses, references, **keywords, segment_scores=segment_scores)
    if isinstance(options, ChrfOptions):
        return corpus_chrf(
            hypotheses, references, **keywords, rules=rules, segment_scores=segment_scores
        )
    return corpus_ter(hypotheses, references, **keywords, segment_scores=segment_scores)
