"""mtcompute: exact, versioned machine-translation metric tools.

The entry point is :func:`execute` (any tool, any input, always an envelope); beside it, typed
functions with the same validation raise one exception class per error code.
"""

from mtcompute._execute import execute, execute_json
from mtcompute.core.jsjson import dumps, loads
from mtcompute.errors import (
    InvalidInput,
    LimitExceeded,
    MtcomputeError,
    NotFound,
    UnsupportedInput,
)
from mtcompute.tools.bleu_sentence_components import (
    BleuSentenceComponents,
    bleu_sentence_components,
)
from mtcompute.tools.bleu_smoothing_compute import BleuSmoothingResult, bleu_from_statistics
from mtcompute.tools.chrf_compute import ChrfResult, chrf

__version__ = "0.1.0"

__all__ = [
    "BleuSentenceComponents",
    "BleuSmoothingResult",
    "ChrfResult",
    "InvalidInput",
    "LimitExceeded",
    "MtcomputeError",
    "NotFound",
    "UnsupportedInput",
    "__version__",
    "bleu_from_statistics",
    "bleu_sentence_components",
    "chrf",
    "dumps",
    "execute",
    "execute_json",
    "loads",
]
