"""The tercom tokenizer as sacreBLEU 2.6.0 writes it (``tokenizers/tokenizer_ter.py``, its
``TercomTokenizer``; a re-implementation of tercom's ``Normalizer.java``), the text step of
TER (Snover et al. 2006).

Its operations in its order, with the same regular expressions (the standard library's
:mod:`re`, as sacreBLEU uses), the literal ones as :meth:`str.replace` (the same left-to-right,
non-overlapping replacements): lowercasing unless ``case_sensitive``; with ``normalized`` the
general and Western normalization, then with ``asian_support`` the CJK splitting; with
``no_punct`` the removal of ASCII punctuation, then with ``asian_support`` of CJK and
full-width punctuation; then whitespace collapsed to single spaces. Unlike sacreBLEU it keeps
no cache (its ``lru_cache`` on ``__call__`` is shared by every instance and never freed).

sacreBLEU's TER tokenizes a reference twice (``Metric._cache_references`` preprocesses each
line and ``TER._extract_reference_info`` preprocesses it again), a hypothesis once; the two
differ with ``normalized`` (``John's.`` gives ``john's .`` once, ``john 's .`` twice).
:mod:`mtcompute.metrics.ter.edits` applies the rule; this module tokenizes once per call.
"""

from __future__ import annotations

__all__ = ["TercomTokenizer"]

import functools
import re
from dataclasses import dataclass

Steps = tuple[tuple[str, str], ...]  # regular expressions and their replacements, in order

# The general (language-independent) and Western normalization, after the line breaks and the
# four entities: the line padded with one space each side, then these in this order.
_WESTERN_STEPS = (
    (r"([{-~[-` -&(-+:-@/])", r" \1 "),  # punctuation and symbols apart
    (r"'s ", r" 's "),  # possessives
    (r"'s$", r" 's"),
    (r"([^0-9])([\.,])", r"\1 \2 "),  # period, comma apart unless after a digit
    (r"([\.,])([^0-9])", r" \1 \2"),  # ... unless before a digit
    (r"([0-9])(-)", r"\1 \2 "),  # a dash after a digit apart
)

_ASIAN_PUNCT = r"([\u3001\u3002\u3008-\u3011\u3014-\u301f\uff61-\uff65\u30fb])"
_FULL_WIDTH_PUNCT = r"([\uff0e\uff0c\uff1f\uff1a\uff1b\uff01\uff02\uff08\uff09])"

# The CJK splitting, in sacreBLEU's order and with its ranges as written: ideographs
# (U+4E00-9FFF, U+3400-4DBF), strokes and radicals, compatibility blocks, "U+3200-3F22";
# Hiragana, Katakana and Katakana Phonetic Extensions only as a run that starts the line and
# ends it (sacreBLEU's patterns, whose ``^`` inside the alternatives never matches past the
# start, say so); then Asian and full-width punctuation.
_ASIAN_STEPS = (
    (r"([\u4e00-\u9fff\u3400-\u4dbf])", r" \1 "),
    (r"([\u31c0-\u31ef\u2e80-\u2eff])", r" \1 "),
    (r"([\u3300-\u33ff\uf900-\ufaff\ufe30-\ufe4f])", r" \1 "),
    (r"([\u3200-\u3f22])", r" \1 "),
    (r"(^|^[\u3040-\u309f])([\u3040-\u309f]+)(?=$|^[\u3040-\u309f])", r"\1 \2 "),
    (r"(^|^[\u30a0-\u30ff])([\u30a0-\u30ff]+)(?=$|^[\u30a0-\u30ff])", r"\1 \2 "),
    (r"(^|^[\u31f0-\u31ff])([\u31f0-\u31ff]+)(?=$|^[\u31f0-\u31ff])", r"\1 \2 "),
    (_ASIAN_PUNCT, r" \1 "),
    (_FULL_WIDTH_PUNCT, r" \1 "),
)

_PUNCT_STEPS = ((r"[\.,\?:;!\"\(\)]", ""),)
_ASIAN_PUNCT_STEPS = ((_ASIAN_PUNCT, ""), (_FULL_WIDTH_PUNCT, ""))


@functools.cache
def _compiled(steps: Steps) -> tuple[tuple[re.Pattern[str], str], ...]:
    """``steps`` with their patterns compiled, on first use (not at import: a process that
    imports TER without tokenizing with these options, ``mtcompute score -m chrf`` among them,
    compiles none of the eighteen)."""
    return tuple((re.compile(pattern), replacement) for pattern, replacement in steps)


def _apply(steps: Steps, line: str) -> str:
    for pattern, replacement in _compiled(steps):
        line = pattern.sub(replacement, line)
    return line


def _normalize_general_and_western(line: str) -> str:
    line = line.replace("\n-", "").replace("\n", " ")  # end-of-line hyphenation, line breaks
    line = line.replace("&quot;", '"').replace("&amp;", "&")
    line = line.replace("&lt;", "<").replace("&gt;", ">")
    return _apply(_WESTERN_STEPS, f" {line} ")


@dataclass(frozen=True, slots=True)
class TercomTokenizer:
    """sacreBLEU's ``TercomTokenizer`` with its four switches (its names and defaults); a call
    tokenizes one line, tokens separated by single spaces.

    >>> TercomTokenizer(normalized=True)("Jim's car (red).")
    "jim 's car ( red ) ."
    >>> TercomTokenizer(normalized=True, asian_support=True)("りの拳銃を持")
    'りの 拳 銃 を 持'
    """

    normalized: bool = False
    no_punct: bool = False
    asian_support: bool = False
    case_sensitive: bool = False

    def __call__(self, line: str) -> str:
        if not line:
            return ""
        if not self.case_sensitive:
            line = line.lower()
        if self.normalized:
            line = _normalize_general_and_western(line)
            if self.asian_support:
                line = _apply(_ASIAN_STEPS, line)
        if self.no_punct:
            line = _apply(_PUNCT_STEPS, line)
            if self.asian_support:
                line = _apply(_ASIAN_PUNCT_STEPS, line)
        return " ".join(line.split())

    def signature(self) -> str:
        """The ``tok`` field of TER's signature, as sacreBLEU's: ``tercom``."""
        return "tercom"
