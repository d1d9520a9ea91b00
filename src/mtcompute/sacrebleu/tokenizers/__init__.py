"""sacreBLEU 2.6.0's ``tokenizers`` package: the BLEU tokenizers under its module and class
names (``tokenizer_13a.Tokenizer13a``, ...), each a thin wrapper over
:func:`mtcompute.tokenizers.get_tokenizer`. ``tokenizer_spm`` runs ``spm``, ``flores101`` and
``flores200`` and ``spBLEU-1K`` over the model sacreBLEU caches (downloaded there when
missing)."""

__all__ = ["BaseTokenizer"]

from mtcompute.sacrebleu.tokenizers.tokenizer_base import BaseTokenizer
