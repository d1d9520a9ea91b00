"""sacreBLEU 2.6.0's ``tokenizers/tokenizer_spm.py``: spBLEU's SentencePiece tokenizers
(``mtcompute[spm]``) over :mod:`mtcompute.spm`. The model is the one sacreBLEU caches
(``$SACREBLEU/models``), or the file given as ``model`` (an mtcompute keyword); a missing
model raises :class:`~mtcompute.sacrebleu._errors.TokenizerError` saying where it looks,
where sacreBLEU downloads it."""

from __future__ import annotations

__all__ = [
    "SPM_MODELS",
    "Flores101Tokenizer",
    "Flores200Tokenizer",
    "TokenizerSPM",
    "spBLEU1KTokenizer",
]

import logging
import os

from mtcompute.sacrebleu.tokenizers.tokenizer_base import RegistryTokenizer
from mtcompute.spm import MODELS
from mtcompute.tokenizers import Tokenizer, get_tokenizer

sacrelogger = logging.getLogger("sacrebleu")

SPM_MODELS = {name: {"url": m.url, "signature": m.signature} for name, m in MODELS.items()}
"""sacreBLEU's table of the models: each name's URL and signature."""


class TokenizerSPM(RegistryTokenizer):
    """The ``spm`` tokenizer (``key``: ``spm``, ``flores101``, ``flores200``,
    ``spBLEU-1K``): the pieces of the model, joined by spaces; ``model``: a model file
    instead of sacreBLEU's cached one."""

    NAME = "spm"

    def __init__(self, key: str = "spm", model: str | os.PathLike[str] | None = None) -> None:
        self._key = key
        self._model = model
        self.name = SPM_MODELS[key]["signature"]
        if key == "spm":
            sacrelogger.warning(
                "Tokenizer 'spm' has been changed to 'flores101', and may be removed in the future."
            )
        super().__init__()

    def _registry(self) -> Tokenizer:
        return get_tokenizer(self._key, spm_model=self._model)


class Flores200Tokenizer(TokenizerSPM):
    """The ``flores200`` tokenizer (FLORES-200's SentencePiece model)."""

    def __init__(self, model: str | os.PathLike[str] | None = None) -> None:
        super().__init__("flores200", model)


class Flores101Tokenizer(TokenizerSPM):
    """The ``flores101`` tokenizer (FLORES-101's SentencePiece model)."""

    def __init__(self, model: str | os.PathLike[str] | None = None) -> None:
        super().__init__("flores101", model)


class spBLEU1KTokenizer(TokenizerSPM):  # noqa: N801 (sacreBLEU's name)
    """The ``spBLEU-1K`` tokenizer (the SentencePiece model of spBLEU-1K, 1,000 languages)."""

    def __init__(self, model: str | os.PathLike[str] | None = None) -> None:
        super().__init__("spBLEU-1K", model)
