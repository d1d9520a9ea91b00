"""sacreBLEU 2.6.0's ``tokenizers`` package: the BLEU tokenizers under its module and class
names (``tokenizer_13a.Tokenizer13a``, ...), each a thin wrapper over
:func:`mtcompute.tokenizers.get_tokenizer`. ``spm``, ``flores101``, ``flores200`` and
``spBLEU-1K`` need a model that sacreBLEU downloads; mtcompute never downloads, so they have
no module here."""

__all__ = ["BaseTokenizer"]

from mtcompute.sacrebleu.tokenizers.tokenizer_base import BaseTokenizer
