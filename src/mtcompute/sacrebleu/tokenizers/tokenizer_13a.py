"""sacreBLEU 2.6.0's ``tokenizers/tokenizer_13a.py``: mteval-v13a's tokenization, WMT's default."""

from __future__ import annotations

__all__ = ["Tokenizer13a"]

from mtcompute.sacrebleu.tokenizers.tokenizer_base import RegistryTokenizer


class Tokenizer13a(RegistryTokenizer):
    """The ``13a`` tokenizer (mteval-v13a)."""

    NAME = "13a"
