"""BLEU tokenizers exactly as sacreBLEU 2.6.0 applies them: ``13a`` (mteval-v13a, WMT's
reference tokenization), ``zh``, ``char`` and ``none``.

Each takes one line and returns the tokenized line, tokens separated by single spaces
(``str.split()`` then gives the tokens BLEU counts). They reproduce sacreBLEU's operations in
its order (``tokenizers/tokenizer_13a.py``, ``tokenizer_re.py``, ``tokenizer_zh.py``,
``tokenizer_char.py``, ``tokenizer_none.py``), including the quirks of its ``zh`` range table;
unlike sacreBLEU they keep no cache (its ``lru_cache`` on methods is shared by every instance
and never freed).
"""

from __future__ import annotations

__all__ = ["TOKENIZERS", "tokenize_13a", "tokenize_char", "tokenize_none", "tokenize_zh"]

import re
from collections.abc import Callable
from functools import cache

# mteval-v13a's post-tokenization (sacreBLEU's TokenizerRegexp), in its order: punctuation
# and symbols apart; a period or comma apart unless it is preceded, or followed, by a digit;
# a dash after a digit apart.
# The first step's single characters are set apart by ``" ".join(pattern.split(line))``,
# which is ``pattern.sub(r" \1 ", line)`` without a template expanded in Python per match
# (the split keeps each one-character match between the texts around it). Its class is
# mteval's without the space (" -\&" becomes "!-\&"): a space made three changes no later
# step (a space is only ever the non-digit beside a period or comma, whichever of the
# three it is) and the final split joins them again. The other steps run only when the
# line holds the character they need.
_SYMBOL = re.compile(r"([\{-\~\[-\`!-\&\(-\+\:-\@\/])")
_PERIOD_COMMA_STEPS = (
    (re.compile(r"([^0-9])([\.,])"), r"\1 \2 "),
    (re.compile(r"([\.,])([^0-9])"), r" \1 \2"),
)
_DIGIT_DASH = re.compile(r"([0-9])(-)")


def _post_tokenize(line: str) -> str:
    line = " ".join(_SYMBOL.split(line))
    if "." in line or "," in line:
        for pattern, replacement in _PERIOD_COMMA_STEPS:
            line = pattern.sub(replacement, line)
    if "-" in line:
        line = _DIGIT_DASH.sub(r"\1 \2 ", line)
    return " ".join(line.split())


def tokenize_13a(line: str) -> str:
    """mteval-v13a as sacreBLEU writes it: ``<skipped>`` removed, ``-`` + newline joined,
    newlines as spaces, four entities unescaped, then the post-tokenization.

    >>> tokenize_13a("It's 3.5-times &quot;better&quot;.")
    'It\\'s 3.5 - times " better " .'
    """
    line = line.replace("<skipped>", "").replace("-\n", "").replace("\n", " ")
    if "&" in line:
        line = line.replace("&quot;", '"').replace("&amp;", "&")
        line = line.replace("&lt;", "<").replace("&gt;", ">")
    return _post_tokenize(f" {line} ")


# sacreBLEU's table of "Chinese" ranges, compared as it compares them: as str, with <=. Two
# entries were meant as astral ranges but are written with 4-digit escapes, so they are
# two-character strings ("\u2000" + "0", "\u2a6d" + "6"): for one character c,
# "\u20000" <= c <= "\u2a6d6" holds for U+2001..U+2A6D, and "\u2f800" <= c <= "\u2fa1d" for
# U+2F81..U+2FA1; the astral Extension B and Compatibility Supplement are not in the table.
_ZH_RANGES = (
    ("\u3400", "\u4db5"),
    ("\u4e00", "\u9fa5"),
    ("\u9fa6", "\u9fbb"),
    ("\uf900", "\ufa2d"),
    ("\ufa30", "\ufa6a"),
    ("\ufa70", "\ufad9"),
    ("\u20000", "\u2a6d6"),
    ("\u2f800", "\u2fa1d"),
    ("\uff00", "\uffef"),
    ("\u2e80", "\u2eff"),
    ("\u3000", "\u303f"),
    ("\u31c0", "\u31ef"),
    ("\u2f00", "\u2fdf"),
    ("\u2ff0", "\u2fff"),
    ("\u3100", "\u312f"),
    ("\u31a0", "\u31bf"),
    ("\ufe10", "\ufe1f"),
    ("\ufe30", "\ufe4f"),
    ("\u2600", "\u26ff"),
    ("\u2700", "\u27bf"),
    ("\u3200", "\u32ff"),
    ("\u3300", "\u33ff"),
)


def _single_characters(start: str, end: str) -> str:
    """The characters c with ``start <= c <= end`` (str comparison), as a regex class range.

    A one-character c is at least a longer ``start`` only when it is greater than its first
    character (the first character alone sorts before the longer string), and at most any
    ``end`` when it is at most its first character."""
    low = ord(start[0]) + (len(start) > 1)
    high = ord(end[0])
    return f"{re.escape(chr(low))}-{re.escape(chr(high))}"


@cache
def _zh_character() -> re.Pattern[str]:
    """The same table as one character class (one regex pass instead of 22 comparisons a
    character), its characters set apart by a split and a join as in _post_tokenize.
    Compiled when zh first needs it: its ranges cost 2.5 ms to compile, which every other
    tokenizer's command would pay at import."""
    return re.compile(f"([{''.join(_single_characters(*r) for r in _ZH_RANGES)}])")


def tokenize_zh(line: str) -> str:
    """sacreBLEU's ``zh``: the line stripped, each character of its table set apart by
    spaces, then 13a's post-tokenization (without 13a's entity and ``<skipped>`` steps).

    >>> tokenize_zh("我们的价格:$1,000.")
    '我 们 的 价 格 : $ 1,000.'
    """
    return _post_tokenize(" ".join(_zh_character().split(line.strip())))


def tokenize_char(line: str) -> str:
    """Every character a token (sacreBLEU's ``char``: the characters joined by spaces).

    >>> tokenize_char("ab c")
    'a b   c'
    """
    return " ".join(line)


def tokenize_none(line: str) -> str:
    """The line as it is (sacreBLEU's ``none``: BLEU then splits it on whitespace)."""
    return line


TOKENIZERS: dict[str, Callable[[str], str]] = {
    "13a": tokenize_13a,
    "zh": tokenize_zh,
    "char": tokenize_char,
    "none": tokenize_none,
}
"""The tokenizers by the name sacreBLEU's signature gives them (``tok:13a``)."""
