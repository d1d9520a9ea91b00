"""sacreBLEU 2.6.0's ``tokenizers/tokenizer_ter.py``: the tercom tokenizer of TER (a
re-implementation of tercom's ``Normalizer.java``), a thin wrapper over
:class:`mtcompute.metrics.ter.tokenizer.TercomTokenizer`."""

from __future__ import annotations

__all__ = ["TercomTokenizer"]

from mtcompute.metrics.ter import tokenizer as ter_tokenizer
from mtcompute.sacrebleu.tokenizers.tokenizer_base import BaseTokenizer


class TercomTokenizer(BaseTokenizer):
    """sacreBLEU's ``TercomTokenizer``: its four switches, their names, defaults and private
    attributes (``_normalized``, ...); a call tokenizes one line (tokens apart by single
    spaces). No cache is kept (sacreBLEU's ``lru_cache`` on ``__call__`` is shared by every
    instance and changes no result).

    :param normalized: the general and Western normalization (and, with ``asian_support``,
        CJK characters apart).
    :param no_punct: remove punctuation (with ``asian_support``, CJK and full-width too).
    :param asian_support: the CJK steps of ``normalized`` and ``no_punct``.
    :param case_sensitive: do not lowercase.
    """

    ASIAN_PUNCT = r"([\u3001\u3002\u3008-\u3011\u3014-\u301f\uff61-\uff65\u30fb])"
    FULL_WIDTH_PUNCT = r"([\uff0e\uff0c\uff1f\uff1a\uff1b\uff01\uff02\uff08\uff09])"

    def __init__(
        self,
        normalized: bool = False,
        no_punct: bool = False,
        asian_support: bool = False,
        case_sensitive: bool = False,
    ) -> None:
        self._normalized = normalized
        self._no_punct = no_punct
        self._asian_support = asian_support
        self._case_sensitive = case_sensitive
        self._tokenizer = ter_tokenizer.TercomTokenizer(
            normalized=bool(normalized),
            no_punct=bool(no_punct),
            asian_support=bool(asian_support),
            case_sensitive=bool(case_sensitive),
        )

    @property
    def tokenizer(self) -> ter_tokenizer.TercomTokenizer:
        """The :class:`mtcompute.metrics.ter.tokenizer.TercomTokenizer` this class wraps."""
        return self._tokenizer

    def __call__(self, line: str) -> str:
        return self._tokenizer(line)

    def signature(self) -> str:
        return "tercom"
