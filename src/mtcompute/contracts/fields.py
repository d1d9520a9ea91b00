"""Field types that several tools and the batch APIs share, declared once.

The chrF family's texts and ``beta``; the BLEU family's tokens, token lists, references per
segment, ``max_order`` and the scoring options of bleu-smoothing-compute (``smoothing``,
``epsilon``, ``effective_order``, ``decimals``). A tool passes the figures of its own
contract's ``limits`` (:func:`~mtcompute.contracts.validate.contract_limits`); the batch APIs,
which have no service limits, pass none.
"""

from __future__ import annotations

__all__ = [
    "BETA",
    "CHRF_CHAR_ORDER",
    "DECIMALS",
    "EFFECTIVE_ORDER",
    "EPSILON",
    "MAX_ORDER",
    "RULES",
    "SMOOTH_METHOD",
    "SMOOTH_VALUE",
    "STATISTICS_ONLY_REASON",
    "TOKENIZE",
    "WORD_ORDER",
    "check_smooth_value",
    "hypothesis_tokens",
    "reference_tokens",
    "references",
    "smoothing",
    "texts",
]

from mtcompute.contracts.validate import (
    Array,
    Boolean,
    Bound,
    Choice,
    Integer,
    Number,
    Text,
    Token,
    describe,
    one_to,
    where,
)
from mtcompute.errors import InvalidInput
from mtcompute.metrics.bleu.statistics import (
    BLEU_SMOOTHING,
    SMOOTH_DEFAULTS,
    SMOOTHINGS,
    UNSUPPORTED_SMOOTHINGS,
)
from mtcompute.tokenizer_names import DOWNLOADING, NAMES

# --- chrF -----------------------------------------------------------------------------------

BETA = Integer(1, 16)


def texts(max_segments: Bound | None = None) -> Array[str]:
    """Aligned segments of text: an array of at least one string (at most ``max_segments``)."""
    return Array(Text(), "an array of strings", "segment", 1, max_segments, "an empty array")


# --- BLEU -----------------------------------------------------------------------------------

MAX_ORDER = Integer(1, 8)
EPSILON = Number(0, 1)
EFFECTIVE_ORDER = Boolean()
DECIMALS = Integer(0, 15)

# Why method4-7 are refused where only sufficient statistics are scored (bleu-smoothing-compute
# and the library's corpus_bleu).
STATISTICS_ONLY_REASON = (
    "it needs the source or corpus context that sufficient statistics do not carry"
)


def smoothing(tool: str | None, reason: str) -> Choice:
    """none or Chen and Cherry method1-3; method4-7 are ``unsupported_input`` with ``reason``
    (naming ``tool`` when given)."""
    by = f" by {tool}" if tool else ""

    def unsupported(value: str, path: str) -> str:
        return (
            f"Chen and Cherry {value} is not supported{by} at {path}: "
            f"{reason}; use none, method1, method2 or method3."
        )

    return Choice(SMOOTHINGS, UNSUPPORTED_SMOOTHINGS, unsupported)


def hypothesis_tokens(max_token_bytes: Bound) -> Array[str]:
    """One hypothesis: a token list (it may be empty)."""
    return Array(Token(max_token_bytes), "a token list (an array)")


def reference_tokens(max_token_bytes: Bound) -> Array[str]:
    """One reference: a token list (it may be empty)."""
    return Array(Token(max_token_bytes), "a reference token list (an array)")


def references(max_references: Bound, max_token_bytes: Bound) -> Array[list[str]]:
    """The references of one segment: 1 to ``max_references`` token lists."""
    return one_to(max_references, reference_tokens(max_token_bytes), "token lists", "reference")


# --- the sacreBLEU-rules family (sacrebleu-score, the batch APIs, mtcompute score) ----------

RULES = Choice(("sacrebleu", "contract"))
"""``rules``: sacreBLEU 2.6.0's numbers, or the catalog contracts' exact chrF corpus rule."""
CHRF_CHAR_ORDER = Integer(1, 10)
"""chrF's ``char_order`` (the catalog's chrF range, chrf-components')."""
WORD_ORDER = Integer(0, 4)
"""chrF's ``word_order``: word n-gram orders (2 is chrF++), chrf-components' range."""
SMOOTH_METHOD = Choice(BLEU_SMOOTHING)
"""sacreBLEU's BLEU ``smooth_method``: none, floor, add-k or exp."""
SMOOTH_VALUE = Number(0, 100)
"""``smooth_value``: floor's value (sacreBLEU's default 0.1) or add-k's k (default 1)."""


def _downloading_message(name: str, path: str) -> str:
    return (
        f"The {name} tokenizer {where(path)} needs a SentencePiece model that sacreBLEU "
        "downloads; the catalog's tools never download models. Use 13a, intl, zh, char, "
        "none, ja-mecab or ko-mecab."
    )


TOKENIZE = Choice(NAMES, DOWNLOADING, _downloading_message)
"""sacreBLEU's ``tokenize``: a name of :data:`~mtcompute.tokenizer_names.NAMES`; the
downloading ones unsupported (:func:`mtcompute.tokenizers.get_tokenizer` checks it)."""


def check_smooth_value(method: str, value: float | None, path: str) -> None:
    """A ``smooth_value`` is given only to a method that takes one (floor, add-k), and
    floor's is at most 1 (a larger one would make a precision over 100 percent)."""
    if value is None:
        return
    if SMOOTH_DEFAULTS[method] is None:
        raise InvalidInput(
            f"Expected no smooth_value with smooth_method {method} {where(path)} "
            "(smooth_value applies to floor and add-k only), got one.",
            path,
        )
    if method == "floor" and value > 1:
        raise InvalidInput(
            f"Expected a smooth_value from 0 to 1 with smooth_method floor {where(path)}, "
            f"got {describe(value)}.",
            path,
        )
