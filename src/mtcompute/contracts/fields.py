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
    "DECIMALS",
    "EFFECTIVE_ORDER",
    "EPSILON",
    "MAX_ORDER",
    "STATISTICS_ONLY_REASON",
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
    figure,
)
from mtcompute.core.bleu import SMOOTHINGS, UNSUPPORTED_SMOOTHINGS

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
    return Array(
        reference_tokens(max_token_bytes),
        f"an array of 1 to {figure(max_references)} token lists",
        "reference",
        1,
        max_references,
    )
