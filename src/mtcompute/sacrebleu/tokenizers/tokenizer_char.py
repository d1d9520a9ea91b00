"""sacreBLEU 2.6.0's ``tokenizers/tokenizer_char.py``: one token per character."""

from __future__ import annotations

__all__ = ["TokenizerChar"]

from mtcompute.sacrebleu.tokenizers.tokenizer_base import RegistryTokenizer


class TokenizerChar(RegistryTokenizer):
    """The ``char`` tokenizer: every character a token."""

    NAME = "char"
