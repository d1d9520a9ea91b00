"""sacreBLEU 2.6.0's ``tokenizers/tokenizer_ja_mecab.py``: Japanese with MeCab and the IPA
dictionary (``mtcompute[ja]``)."""

from __future__ import annotations

__all__ = ["TokenizerJaMecab"]

from mtcompute.sacrebleu.tokenizers.tokenizer_base import RegistryTokenizer


class TokenizerJaMecab(RegistryTokenizer):
    """The ``ja-mecab`` tokenizer (MeCab with ipadic)."""

    NAME = "ja-mecab"
