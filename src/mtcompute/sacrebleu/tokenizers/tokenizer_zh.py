"""sacreBLEU 2.6.0's ``tokenizers/tokenizer_zh.py``: the Chinese tokenizer."""

from __future__ import annotations

__all__ = ["TokenizerZh"]

from mtcompute.sacrebleu.tokenizers.tokenizer_base import RegistryTokenizer


class TokenizerZh(RegistryTokenizer):
    """The ``zh`` tokenizer: Chinese characters apart, the rest as ``13a``."""

    NAME = "zh"
