"""sacreBLEU 2.6.0's ``tokenizers/tokenizer_intl.py``: mteval-v14's international tokenization."""

from __future__ import annotations

__all__ = ["TokenizerV14International"]

from mtcompute.sacrebleu.tokenizers.tokenizer_base import RegistryTokenizer


class TokenizerV14International(RegistryTokenizer):
    """The ``intl`` tokenizer (mteval-v14 ``--international-tokenization``)."""

    NAME = "intl"
