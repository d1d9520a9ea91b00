"""The BLEU tokenizers against sacreBLEU 2.6.0's own (the oracle, imported only by tests):
every line of every WMT file in use, raw, right-stripped and lowercased; adversarial strings;
generated text; the zh range table's quirks."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a
from sacrebleu.tokenizers.tokenizer_char import TokenizerChar
from sacrebleu.tokenizers.tokenizer_none import NoneTokenizer
from sacrebleu.tokenizers.tokenizer_zh import TokenizerZh

from mtcompute.core.tokenizers import TOKENIZERS
from tests.conftest import WMT

SACREBLEU = {
    "13a": Tokenizer13a(),
    "zh": TokenizerZh(),
    "char": TokenizerChar(),
    "none": NoneTokenizer(),
}
NAMES = sorted(TOKENIZERS)
FILES = sorted(WMT.glob("*/*/*.txt"))

ADVERSARIAL = [
    "",
    " ",
    "Hello, world! It's 3.5-times &quot;better&quot;.",
    "The price: $1,000.50 (approx.)",
    "a<skipped>b",
    "line-\nbreak and\nnewline",
    "&amp;lt; &lt;&gt; &quot&quot; &amp&",
    "....,,,,..",
    "1.2.3 1,2,3 1-2 a-1 1- -1 1.a a.1 .5 5.",
    "\t\x0b\x0c\r\x1c\x1d\x1e\x1f\x85\xa0\u1680\u2000\u200a\u2028\u2029\u202f\u205f\u3000",
    "a\u200bb",
    "\U0001f600 \U00020000 \U0002a6d6 \U0002f800",
    "\u2000\u2001\u2a6d\u2a6e\u2f80\u2f81\u2fa1\u2fa2",
    "中文，English 混合。１２３ＡＢＣ",
    "{[(<>)]}~`^_|\\/@#%*+=",
]

PIECES = [
    *" \t\n.,-&;<>qaut0123456789$()[]{}~`'\"\u2000\u2001\u2a6d\u3000中文\u200b",
    *("&quot;", "&amp;", "&lt;", "&gt;", "<skipped>", "\U00020000", "é", "Ω"),
]
TEXT = st.lists(st.sampled_from(PIECES), max_size=30).map("".join)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(WMT)))
def test_every_wmt_line_is_tokenized_as_sacrebleu_does(path: object, name: str) -> None:
    """Each line of the file, raw, right-stripped and lowercased, gets sacreBLEU's tokens."""
    lines = path.read_text(encoding="utf-8").split("\n")  # type: ignore[attr-defined]
    ours, theirs = TOKENIZERS[name], SACREBLEU[name]
    variants = [v for line in lines for v in (line, line.rstrip(), line.lower())]
    assert [theirs(v) for v in variants] == [ours(v) for v in variants]


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("text", ADVERSARIAL)
def test_adversarial_strings_are_tokenized_as_sacrebleu_does(name: str, text: str) -> None:
    """Entities, <skipped>, runs of periods and commas, digits around punctuation, every
    whitespace code point, U+200B, CJK and astral characters."""
    assert SACREBLEU[name](text) == TOKENIZERS[name](text)


@pytest.mark.parametrize("name", NAMES)
@given(text=TEXT)
@settings(max_examples=300, deadline=None)
def test_generated_text_is_tokenized_as_sacrebleu_does(name: str, text: str) -> None:
    """Random strings over the characters the rules look at."""
    assert SACREBLEU[name](text) == TOKENIZERS[name](text)


def test_the_zh_table_quirks_are_kept() -> None:
    """Around the two ranges sacreBLEU writes with 4-digit escapes (U+2001..U+2A6D and
    U+2F81..U+2FA1 count as Chinese; U+2000 and the astral ones do not), every code point of
    the BMP and the two astral blocks meant, between two letters, as sacreBLEU tokenizes it."""
    points = [*range(0x10000), *range(0x20000, 0x2A6E0), *range(0x2F800, 0x2FA20)]
    texts = [f"a{chr(p)}b" for p in points if not 0xD800 <= p <= 0xDFFF]
    assert [SACREBLEU["zh"](t) for t in texts] == [TOKENIZERS["zh"](t) for t in texts]
    # U+2010 (in the quirk's U+2001..U+2A6D) is set apart; U+2A6E (just past it) is not
    assert ["a \u2010 b", "a\u2a6eb"] == [TOKENIZERS["zh"](t) for t in ("a\u2010b", "a\u2a6eb")]


def test_the_tokenizers_keep_no_cache() -> None:
    """No function of the module carries an lru_cache (sacreBLEU's is shared and never
    freed)."""
    assert [] == [name for name, f in TOKENIZERS.items() if hasattr(f, "cache_info")]
