"""sacreBLEU 2.6.0's Python API for BLEU, chrF/chrF++ and TER, so that existing code changes
one line: ``import mtcompute.sacrebleu as sacrebleu``.

The same names (``corpus_bleu``, ``raw_corpus_bleu``, ``sentence_bleu``, ``corpus_chrf``,
``sentence_chrf``, ``corpus_ter``, ``sentence_ter``, ``BLEU``, ``CHRF``, ``TER``), also where
sacreBLEU puts them (``.compat``, ``.metrics``, ``.metrics.bleu``, ``.metrics.chrf``,
``.metrics.ter``, ``.metrics.lib_ter``, the tokenizer classes under ``.tokenizers``, the
tercom tokenizer at ``.tokenizers.tokenizer_ter.TercomTokenizer``), the n-gram helpers
(``extract_word_ngrams``, ``extract_char_ngrams``, ``.metrics.helpers``), ``smart_open`` and
``SACREBLEU_DIR`` (``.utils``), and ``python -m mtcompute.sacrebleu`` for its command line,
with the same arguments,
score objects, signatures and numbers (float for float, int for int), computed by
:mod:`mtcompute.metrics` and the kernel under it; sacreBLEU itself is never imported.
References are laid out as sacreBLEU lays them out, one sequence per reference set, here and
only here in mtcompute.

``__version__`` is ``"2.6.0"``: the sacreBLEU version whose API and numbers this reproduces,
the one its signatures print (``version:2.6.0``) and what code that checks
``sacrebleu.__version__`` expects. mtcompute's own version is :data:`mtcompute.__version__`.

Paired significance tests are in :mod:`mtcompute.sacrebleu.significance` (``PairedTest``,
``Result``), as in sacreBLEU, and ``corpus_score(..., n_bootstrap=N)`` gives confidence
intervals; both draw and score as sacreBLEU does (:mod:`mtcompute.significance`), except
that ``SACREBLEU_SEED=0`` is a seed.

Test sets are sacreBLEU's too: ``DATASETS`` (its registry, shipped as data), ``get_source_file``,
``get_reference_files``, ``download_test_set``, ``get_available_testsets``,
``get_langpairs_for_testset``, over :mod:`mtcompute.testsets` and sacreBLEU's own cache.
spBLEU's tokenizers (``spm``, ``flores101``, ``flores200``, ``spBLEU-1K``) read the model
sacreBLEU caches, downloading it there first when it is missing, as sacreBLEU does.
Errors are those of sacreBLEU's type where it raises, with
clearer messages, and errors instead of wrong scores where it has none
(:mod:`mtcompute.sacrebleu._errors`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mtcompute.sacrebleu import compat
from mtcompute.sacrebleu.compat import *  # noqa: F403 (the function API: compat.__all__)
from mtcompute.sacrebleu.metrics import BLEU, CHRF, TER
from mtcompute.sacrebleu.metrics.helpers import extract_char_ngrams, extract_word_ngrams
from mtcompute.sacrebleu.utils import SACREBLEU_DIR, smart_open
from mtcompute.sacrebleu.version import __version__

if TYPE_CHECKING:  # at run time, __getattr__ below
    from mtcompute.sacrebleu.utils import (
        DATASETS,
        download_test_set,
        get_available_testsets,
        get_langpairs_for_testset,
        get_reference_files,
        get_source_file,
    )

__all__ = [
    "BLEU",
    "CHRF",
    "DATASETS",
    "SACREBLEU_DIR",
    "TER",
    "__version__",
    "download_test_set",
    "extract_char_ngrams",
    "extract_word_ngrams",
    "get_available_testsets",
    "get_langpairs_for_testset",
    "get_reference_files",
    "get_source_file",
    "smart_open",
]
__all__ += compat.__all__


def __getattr__(name: str) -> Any:
    """The test-set names of ``__all__`` (``DATASETS``, ``get_source_file``, ...), from
    :mod:`mtcompute.sacrebleu.utils` when first used: the registry and the downloader do not
    load with the metrics."""
    if name in __all__:
        from mtcompute.sacrebleu import utils  # noqa: PLC0415

        return getattr(utils, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
