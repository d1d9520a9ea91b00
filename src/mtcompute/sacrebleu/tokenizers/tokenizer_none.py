"""sacreBLEU 2.6.0's ``tokenizers/tokenizer_none.py``: no tokenization."""

from __future__ import annotations

__all__ = ["NoneTokenizer"]

from mtcompute.sacrebleu.tokenizers.tokenizer_base import RegistryTokenizer


class NoneTokenizer(RegistryTokenizer):
    """The ``none`` tokenizer: the line as it is (BLEU still splits it on whitespace)."""

    NAME = "none"
