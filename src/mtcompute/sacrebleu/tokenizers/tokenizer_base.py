"""sacreBLEU 2.6.0's ``tokenizers/tokenizer_base.py``: the base class of the BLEU tokenizers,
and the one wrapper through which every tokenizer class of this package runs the tokenizer of
:mod:`mtcompute.tokenizers` that has its name."""

from __future__ import annotations

__all__ = ["BaseTokenizer"]

from typing import ClassVar

from mtcompute.errors import MtcomputeError, where
from mtcompute.sacrebleu._errors import TokenizerError
from mtcompute.tokenizers import Tokenizer, get_tokenizer


class BaseTokenizer:
    """A base dummy tokenizer to derive from (as sacreBLEU's)."""

    def signature(self) -> str:
        """What the BLEU signature prints after ``tok:``."""
        raise NotImplementedError()

    def __call__(self, line: str) -> str:
        """The tokenized line (tokens separated by whitespace)."""
        raise NotImplementedError()


class RegistryTokenizer(BaseTokenizer):
    """The tokenizer :func:`mtcompute.tokenizers.get_tokenizer` calls ``NAME``; one is built
    per instance, with no cache shared across instances (sacreBLEU's ``lru_cache`` is)."""

    NAME: ClassVar[str]

    def __init__(self) -> None:
        try:
            self._tokenizer: Tokenizer = self._registry()
        except MtcomputeError as error:
            # the registry's message names the field of a request ("at /tokenize"); here
            # the class is the place
            reason = error.message.replace(f" {where(error.path)}", "")
            raise TokenizerError(f"{type(self).__name__}: {reason}") from None

    def _registry(self) -> Tokenizer:
        """A new tokenizer of the registry (a subclass may give it options)."""
        return get_tokenizer(self.NAME)

    @property
    def tokenizer(self) -> Tokenizer:
        """The :class:`mtcompute.tokenizers.Tokenizer` this class wraps."""
        return self._tokenizer

    def signature(self) -> str:
        return self._tokenizer.signature

    def __call__(self, line: str) -> str:
        return self._tokenizer(line)
