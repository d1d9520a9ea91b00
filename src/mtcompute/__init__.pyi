"""The package's public names for type checkers: :mod:`mtcompute` imports each on first use
(``__getattr__`` over ``_SOURCES``), so that importing the package loads none of them. A name
is re-exported by its ``as`` (the package's ``__all__`` is in ``__init__.py``)."""

from mtcompute._execute import execute as execute
from mtcompute._execute import execute_json as execute_json
from mtcompute.core.jsjson import dumps as dumps
from mtcompute.core.jsjson import loads as loads
from mtcompute.envelope import Envelope as Envelope
from mtcompute.errors import (
    InvalidInput as InvalidInput,
)
from mtcompute.errors import (
    LimitExceeded as LimitExceeded,
)
from mtcompute.errors import (
    MtcomputeError as MtcomputeError,
)
from mtcompute.errors import (
    NotFound as NotFound,
)
from mtcompute.errors import (
    UnsupportedInput as UnsupportedInput,
)
from mtcompute.metrics.bleu.corpus import (
    CorpusBleu as CorpusBleu,
)
from mtcompute.metrics.bleu.corpus import (
    corpus_bleu as corpus_bleu,
)
from mtcompute.metrics.bleu.corpus import (
    text_bleu_statistics as text_bleu_statistics,
)
from mtcompute.metrics.chrf.corpus import (
    CorpusChrf as CorpusChrf,
)
from mtcompute.metrics.chrf.corpus import (
    chrf_pairwise as chrf_pairwise,
)
from mtcompute.metrics.chrf.corpus import (
    corpus_chrf as corpus_chrf,
)
from mtcompute.metrics.ter.corpus import CorpusTer as CorpusTer
from mtcompute.metrics.ter.corpus import corpus_ter as corpus_ter
from mtcompute.metrics.wer.corpus import CorpusWer as CorpusWer
from mtcompute.metrics.wer.corpus import corpus_wer as corpus_wer
from mtcompute.tools.bleu_brevity_penalty import (
    BrevityPenaltyResult as BrevityPenaltyResult,
)
from mtcompute.tools.bleu_brevity_penalty import (
    bleu_brevity_penalty as bleu_brevity_penalty,
)
from mtcompute.tools.bleu_corpus_compute import (
    CorpusBleuResult as CorpusBleuResult,
)
from mtcompute.tools.bleu_corpus_compute import (
    bleu_corpus as bleu_corpus,
)
from mtcompute.tools.bleu_ngrams_count import (
    BleuNgramCounts as BleuNgramCounts,
)
from mtcompute.tools.bleu_ngrams_count import (
    BleuSegmentCounts as BleuSegmentCounts,
)
from mtcompute.tools.bleu_ngrams_count import (
    bleu_ngrams_count as bleu_ngrams_count,
)
from mtcompute.tools.bleu_sentence_components import (
    BleuSentenceComponents as BleuSentenceComponents,
)
from mtcompute.tools.bleu_sentence_components import (
    bleu_sentence_components as bleu_sentence_components,
)
from mtcompute.tools.bleu_sentence_compute import (
    SentenceBleuResult as SentenceBleuResult,
)
from mtcompute.tools.bleu_sentence_compute import (
    sentence_bleu as sentence_bleu,
)
from mtcompute.tools.bleu_smoothing_compute import (
    BleuSmoothingResult as BleuSmoothingResult,
)
from mtcompute.tools.bleu_smoothing_compute import (
    bleu_from_statistics as bleu_from_statistics,
)
from mtcompute.tools.bleu_tokenize import (
    TokenizeResult as TokenizeResult,
)
from mtcompute.tools.bleu_tokenize import (
    bleu_tokenize as bleu_tokenize,
)
from mtcompute.tools.chrf_components import (
    ChrfComponents as ChrfComponents,
)
from mtcompute.tools.chrf_components import (
    ChrfOrder as ChrfOrder,
)
from mtcompute.tools.chrf_components import (
    chrf_components as chrf_components,
)
from mtcompute.tools.chrf_compute import ChrfResult as ChrfResult
from mtcompute.tools.chrf_compute import chrf as chrf
from mtcompute.tools.chrf_plus_plus_compute import (
    ChrfPlusPlusResult as ChrfPlusPlusResult,
)
from mtcompute.tools.chrf_plus_plus_compute import (
    chrf_plus_plus as chrf_plus_plus,
)
from mtcompute.tools.sacrebleu_score import (
    SacrebleuResult as SacrebleuResult,
)
from mtcompute.tools.sacrebleu_score import (
    sacrebleu_score as sacrebleu_score,
)
from mtcompute.tools.system_ranking import (
    SystemRankingResult as SystemRankingResult,
)
from mtcompute.tools.system_ranking import (
    system_ranking as system_ranking,
)
from mtcompute.tools.ter_compute import (
    TerComputeResult as TerComputeResult,
)
from mtcompute.tools.ter_compute import (
    ter_compute as ter_compute,
)
from mtcompute.tools.wer_compute import (
    WerComputeResult as WerComputeResult,
)
from mtcompute.tools.wer_compute import (
    wer_compute as wer_compute,
)

__version__: str
