"""bleu-tokenize@1.0.0: raw text to the token lists sacreBLEU 2.6.0's BLEU counts.

sacreBLEU's ``BLEU._preprocess_segment`` (``str.lower`` when asked, then ``rstrip``, then the
tokenizer) followed by the ``str.split()`` of its n-gram extraction
(``metrics/helpers.extract_all_word_ngrams``), per segment; the tokenizers are
:mod:`mtcompute.tokenizers` (mteval-v13a for ``13a``, Papineni et al. 2002's reference
tokenization as WMT applies it). The token lists are the input of the pre-tokenized BLEU tools.
Validation follows the contract's order (its last semantics line).
"""

from __future__ import annotations

__all__ = ["TokenizeResult", "bleu_tokenize", "tokenize_segments"]

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from mtcompute.contracts import fields
from mtcompute.contracts.fields import TOKENIZE
from mtcompute.contracts.validate import Boolean, Field, InputSpec, contract_limits
from mtcompute.metrics.bleu.counts import tokenize_segments
from mtcompute.tokenizers import get_tokenizer
from mtcompute.tools import Tool
from mtcompute.tools._cost import TOKENIZER_COST, choice, size
from mtcompute.tools._results import Output
from mtcompute.tools._sacre_common import (
    available_tokenizer,
    indexed,
    no_lone_surrogates,
    text_bytes,
)

ID, VERSION = "bleu-tokenize", "1.0.0"
LIMITS = contract_limits(ID, VERSION)


def _segments(values: Mapping[str, Any]) -> Iterator[tuple[str, str]]:
    return indexed("segments", values)


INPUT = InputSpec(
    Field("segments", fields.texts(LIMITS["max_segments"])),
    text_bytes(LIMITS["max_text_bytes"], _segments),
    no_lone_surrogates(_segments),
    Field("tokenizer", TOKENIZE, default="13a"),
    available_tokenizer("tokenizer", "/tokenizer"),
    Field("lowercase", Boolean(), default=False),
)


@dataclass(frozen=True, slots=True)
class TokenizeResult(Output):
    """The tokenizer and its signature, whether the text was lowercased, and each segment's
    tokens in input order."""

    OUTPUT_KEYS = ("tokenizer", "signature", "lowercase", "segment_count", "tokens")

    tokenizer: str
    signature: str
    lowercase: bool
    tokens: tuple[list[str], ...]

    @property
    def segment_count(self) -> int:
        """The number of segments."""
        return len(self.tokens)


def _compute(values: Mapping[str, Any]) -> TokenizeResult:
    tokenizer = get_tokenizer(values["tokenizer"], "/tokenizer")
    tokens = tokenize_segments(values["segments"], tokenizer, values["lowercase"])
    return TokenizeResult(tokenizer.name, tokenizer.signature, values["lowercase"], tokens)


def bleu_tokenize(
    segments: Sequence[str], tokenizer: str = "13a", lowercase: bool = False
) -> TokenizeResult:
    """The tokens sacreBLEU 2.6.0's BLEU counts for each segment (bleu-tokenize@1.0.0), with
    the tool's validation and limits.

    Raises :class:`~mtcompute.errors.InvalidInput`, :class:`~mtcompute.errors.LimitExceeded`
    or :class:`~mtcompute.errors.UnsupportedInput` exactly where the tool would.

    >>> bleu_tokenize(["Hello, world!"]).tokens
    (['Hello', ',', 'world', '!'],)
    """
    return _compute(INPUT.call(**locals()))


def _cost(raw: object, cap: int) -> int:
    """Each character through the tokenizer once: the size times its tokenizer's weight."""
    return size(raw, cap) * choice(raw, "tokenizer", TOKENIZER_COST, "13a")


TOOL = Tool(ID, VERSION, INPUT, _compute, bleu_tokenize, _cost)
