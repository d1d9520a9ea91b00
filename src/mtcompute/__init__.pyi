"""The package's public names for type checkers: :mod:`mtcompute` imports each on first use
(``__getattr__`` over ``_SOURCES``), so that importing the package loads none of them."""

from mtcompute._execute import execute, execute_json
from mtcompute.batch import CorpusTer, corpus_ter
from mtcompute.core.jsjson import dumps, loads
from mtcompute.envelope import Envelope
from mtcompute.errors import (
    InvalidInput,
    LimitExceeded,
    MtcomputeError,
    NotFound,
    UnsupportedInput,
)
from mtcompute.metrics.bleu.corpus import (
    CorpusBleu,
    corpus_bleu,
    text_bleu_statistics,
)
from mtcompute.metrics.chrf.corpus import (
    CorpusChrf,
    chrf_pairwise,
    corpus_chrf,
)
from mtcompute.tools.bleu_brevity_penalty import (
    BrevityPenaltyResult,
    bleu_brevity_penalty,
)
from mtcompute.tools.bleu_corpus_compute import (
    CorpusBleuResult,
    bleu_corpus,
)
from mtcompute.tools.bleu_ngrams_count import (
    BleuNgramCounts,
    BleuSegmentCounts,
    bleu_ngrams_count,
)
from mtcompute.tools.bleu_sentence_components import (
    BleuSentenceComponents,
    bleu_sentence_components,
)
from mtcompute.tools.bleu_sentence_compute import (
    SentenceBleuResult,
    sentence_bleu,
)
from mtcompute.tools.bleu_smoothing_compute import (
    BleuSmoothingResult,
    bleu_from_statistics,
)
from mtcompute.tools.bleu_tokenize import (
    TokenizeResult,
    bleu_tokenize,
)
from mtcompute.tools.chrf_components import (
    ChrfComponents,
    ChrfOrder,
    chrf_components,
)
from mtcompute.tools.chrf_compute import ChrfResult, chrf
from mtcompute.tools.chrf_plus_plus_compute import (
    ChrfPlusPlusResult,
    chrf_plus_plus,
)
from mtcompute.tools.sacrebleu_score import (
    SacrebleuResult,
    sacrebleu_score,
)
from mtcompute.tools.ter_compute import (
    TerComputeResult,
    ter_compute,
)

__version__: str

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
    "Envelope",
    "InvalidInput",
    "LimitExceeded",
    "MtcomputeError",
    "NotFound",
    "SacrebleuResult",
    "SentenceBleuResult",
    "TerComputeResult",
    "TokenizeResult",
    "UnsupportedInput",
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
    "dumps",
    "execute",
    "execute_json",
    "loads",
    "sacrebleu_score",
    "sentence_bleu",
    "ter_compute",
    "text_bleu_statistics",
]
