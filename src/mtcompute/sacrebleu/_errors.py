"""The exceptions of :mod:`mtcompute.sacrebleu`: each is an instance of the type sacreBLEU
2.6.0 raises at the same place (so that an existing ``except`` clause still catches it) and of
the type the fault really is, with a message that names the argument, what was expected and
what was given.

=========================  ==================================  ==============================
class                      bases                               sacreBLEU raises there
=========================  ==================================  ==============================
:class:`ArgumentError`     ``ValueError``, ``AssertionError``  ``assert`` (``smooth_method``)
:class:`UnknownTokenizer`  ``ValueError``, ``KeyError``        ``KeyError`` (``tokenize``)
:class:`TokenizerError`    ``RuntimeError``                    ``RuntimeError`` (MeCab missing)
``TypeError``              (built in)                          ``TypeError`` (argument types)
:class:`EmptyInput`        ``ValueError``, ``IndexError``      ``IndexError`` (``hyps[0]``)
:class:`LengthMismatch`    ``ValueError``                      nothing: it scores a prefix
:class:`MissingReference`  ``ValueError``                      ``TypeError`` or nothing
=========================  ==================================  ==============================

sacreBLEU pairs hypotheses with references through ``zip``, which silently drops the tail of
the longer side, and a segment whose references are all ``None`` crashes it (``TypeError``) or
gets a reference length of -1; the facade refuses such input instead of giving a wrong score.
"""

from __future__ import annotations

__all__ = [
    "ArgumentError",
    "EmptyInput",
    "LengthMismatch",
    "MissingReference",
    "TokenizerError",
    "UnknownTokenizer",
]


class ArgumentError(ValueError, AssertionError):
    """A constructor argument out of its range (sacreBLEU checks it with ``assert``)."""


class UnknownTokenizer(ValueError, KeyError):
    """A ``tokenize`` name that sacreBLEU does not know (sacreBLEU: ``KeyError``)."""

    def __str__(self) -> str:
        # KeyError's __str__ shows the repr of its argument; this message is a sentence.
        return str(self.args[0]) if self.args else ""


class TokenizerError(RuntimeError):
    """A tokenizer sacreBLEU knows that cannot run here: a model it would download, or an
    optional dependency that is not installed (sacreBLEU: ``RuntimeError`` for MeCab)."""


class EmptyInput(ValueError, IndexError):
    """No hypotheses, or no references, where sacreBLEU reads the first one."""


class LengthMismatch(ValueError):
    """Hypotheses and reference streams of different lengths."""


class MissingReference(ValueError):
    """A segment whose references are all ``None``."""
