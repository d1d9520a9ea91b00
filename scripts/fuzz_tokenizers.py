#!/usr/bin/env python3
"""Random strings through every BLEU tokenizer, against sacreBLEU 2.6.0's own (the oracle).

Usage::

    python scripts/fuzz_tokenizers.py                          # 1,000,000 strings a tokenizer
    python scripts/fuzz_tokenizers.py --count 2000 --seed 7
    python scripts/fuzz_tokenizers.py --tokenizer intl --tokenizer ja-mecab

For each tokenizer (``13a``, ``intl``, ``zh``, ``char``, ``none``, ``ja-mecab``,
``ko-mecab``; the MeCab ones need the extras ``mtcompute[ja]`` and ``mtcompute[ko]``), the
strings come from one seeded stream (the seed and the tokenizer's name), built of pieces drawn
mostly from an adversarial alphabet: the characters and strings the rules look at
(ASCII punctuation, digits, the four entities, ``<skipped>``, ``-`` + newline, runs of ``.``
and ``,``), every whitespace code point, U+200B, U+001C-U+001F, the edges of the zh range
table and its quirks, Unicode punctuation, symbols and numbers (intl's classes), mixed scripts
(kana, kanji, Hangul, Cyrillic, Hebrew, Devanagari, combining marks), astral characters, NUL,
and now and then any code point at all (lone surrogates included, except for MeCab, whose
binding refuses them as sacreBLEU's does: that case is tested on its own).

A string agrees when both give the same tokenized line, or when sacreBLEU raises and mtcompute
refuses it with one of its own errors. Output: per tokenizer, strings tried, differences,
seconds, and the first differences; the exit status is 1 on any difference, 2 when a
tokenizer asked for cannot run here.
"""

# ruff: noqa: RUF001 - the alphabet is made of look-alike characters on purpose

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a
from sacrebleu.tokenizers.tokenizer_base import BaseTokenizer
from sacrebleu.tokenizers.tokenizer_char import TokenizerChar
from sacrebleu.tokenizers.tokenizer_intl import TokenizerV14International
from sacrebleu.tokenizers.tokenizer_ja_mecab import TokenizerJaMecab
from sacrebleu.tokenizers.tokenizer_ko_mecab import TokenizerKoMecab
from sacrebleu.tokenizers.tokenizer_none import NoneTokenizer
from sacrebleu.tokenizers.tokenizer_zh import TokenizerZh

from mtcompute.errors import MtcomputeError
from mtcompute.tokenizers import get_tokenizer

SACREBLEU: dict[str, Callable[[], BaseTokenizer]] = {
    "13a": Tokenizer13a,
    "intl": TokenizerV14International,
    "zh": TokenizerZh,
    "char": TokenizerChar,
    "none": NoneTokenizer,
    "ja-mecab": TokenizerJaMecab,
    "ko-mecab": TokenizerKoMecab,
}
"""sacreBLEU's tokenizer class for each name fuzzed."""

MECAB = ("ja-mecab", "ko-mecab")

WHITESPACE = "".join(chr(c) for c in range(0x110000) if chr(c).isspace())
"""Every code point ``str.isspace`` (and so ``str.split``/``strip``) treats as whitespace."""

# The edges of sacreBLEU's zh table: each range's first and last character and the ones just
# outside, and the quirk's bounds (U+2000/U+2001, U+2A6D/U+2A6E, U+2F80/U+2F81, U+2FA1/U+2FA2).
ZH_EDGES = (
    "\u33ff\u3400\u4db5\u4db6\u4dff\u4e00\u9fa5\u9fa6\u9fbb\u9fbc\uf8ff\uf900\ufa2d\ufa2e"
    "\ufa30\ufa6a\ufa6b\ufa70\ufad9\ufada\u1fff\u2000\u2001\u2a6d\u2a6e\u2f7f\u2f80\u2f81"
    "\u2fa1\u2fa2\ufeff\uff00\uffef\ufff0\u2e7f\u2e80\u2eff\u2f00\u2fdf\u2fe0\u2ff0\u2fff"
    "\u3000\u303f\u3040\u31bf\u31c0\u31ef\u31f0\u3100\u312f\u3130\u319f\u31a0\ufe0f\ufe10"
    "\ufe1f\ufe20\ufe2f\ufe30\ufe4f\ufe50\u25ff\u2600\u26ff\u2700\u27bf\u27c0\u3200\u32ff"
    "\u3300\u33ff"
)
ASTRAL = (
    "\U00010000\U0001f600\U0001f1fa\U0001f1f8\U0001d400\U0001d7ce\U00020000\U00020001"
    "\U0002a6d6\U0002a6d7\U0002f800\U0002fa1d\U0002fa1e\U000e0001\U0010ffff\U00010140"
)
UNICODE_PUNCTUATION = (
    "¡¿«»‐‑‒–—―‘’‚“”„†‡•…‰′″‹›‼⁇⁈⁉、。〃〈〉《》「」『』【】〔〕〜・﹏"
    "！＂＃％＆＇（）＊，－．／：；？＠［＼］＿｛｝｡｢｣､･"
)
UNICODE_SYMBOLS = (
    "$¢£¤¥¦§¨©¬®¯°±´¶¸×÷˂˅˜€₹₽℃№™Ω℮←↑→↔∀∂∑−√∞≈≠≤≥⌘■□▲●★☃♥♪✓❤〒〓"
    "＄＋＜＝＞＾｀｜～￠￡￥\U0001f4a9\U0001f44d"
)
UNICODE_NUMBERS = (
    "²³¹¼½¾٠١٢٣٤٥٦٧٨٩۰۱०१२३৪৫๑๒໑༡၁០᠐ⅠⅡⅫⅰ①②⑴⒈⓪〇〡〢〸０１２３４５６７８９\U00010107\U0001d7ce"
)
SCRIPTS = (
    "あいうえおかがきぎっゃゅょんアイウエオカガキギッャュョンーヽヾゝゞ日本語漢字東京大学"
    "가나다라마바사아자차카타파하한국어안녕세요ㄱㄴㄷㅏㅑᄀ깍"
    "abcxyzABCXYZéèçñßøåÆŒ"
    "абвгдеёжзийАБВГДЕЁЖЗ"
    "אבגדהוזחטיךכ"
    "अआइईकखगघ्ऽ"
    "অআইঈকখগঘ্"
    "ابتثجحخ"
    "\u0301\u0308\u0327\u200c\u200d\u200e\u200f\u202a\u202e\u2060\ufe0f"
)
ASCII = "".join(chr(c) for c in range(0x20, 0x7F))
CONTROLS = "\x00\x01\x07\x08\x1b\x1c\x1d\x1e\x1f\x7f\u200b\ufeff\ufffd\ufffe\uffff"
STRINGS = (
    "&quot;",
    "&amp;",
    "&lt;",
    "&gt;",
    "&apos;",
    "&quot",
    "&amp;quot;",
    "<skipped>",
    "<skipped",
    "-\n",
    "...",
    ",,,",
    ".,.,",
    "1,000.50",
    "3.5",
    "2024.",
    "-1",
    "1-",
    "a.b",
    "U.S.",
    "e.g.,",
    "$1,000",
    "10%",
    "1/2",
    "&#39;",
    "\r\n",
)

ALPHABET: tuple[tuple[str, ...], ...] = (
    tuple(ASCII),
    tuple("0123456789.,-"),
    tuple(STRINGS),
    tuple(WHITESPACE),
    tuple(CONTROLS),
    tuple(ZH_EDGES),
    tuple(ASTRAL),
    tuple(UNICODE_PUNCTUATION),
    tuple(UNICODE_SYMBOLS),
    tuple(UNICODE_NUMBERS),
    tuple(SCRIPTS),
)
"""The adversarial alphabet, in groups (a piece's group is drawn first, then the piece)."""

ADVERSARIAL: tuple[str, ...] = (
    "",
    " ",
    "Hello, world! It's 3.5-times &quot;better&quot;.",
    "The price: $1,000.50 (approx.)",
    "a<skipped>b",
    "<skipped><skipped>",
    "line-\nbreak and\nnewline",
    "&amp;lt; &lt;&gt; &quot&quot; &amp& &apos;",
    "....,,,,..",
    ". , . , ... ,,, .,., ,.,.",
    "1.2.3 1,2,3 1-2 a-1 1- -1 1.a a.1 .5 5. ,5 5, 1.,2 1,.2",
    "In 2024. In 1,000. Up 3.5%. (1999), [2000].",
    WHITESPACE,
    f"a{'a'.join(WHITESPACE)}a",
    "a\u200bb \u200b",
    "a\x1cb\x1dc\x1ed\x1ff \x1c\x1d\x1e\x1f",
    "a\x00b",
    "\U0001f600 \U00020000 \U0002a6d6 \U0002f800 \U0010ffff",
    "\u2000\u2001\u2a6d\u2a6e\u2f80\u2f81\u2fa1\u2fa2",
    ZH_EDGES,
    "中文，English 混合。１２３ＡＢＣ",
    "{[(<>)]}~`^_|\\/@#%*+=",
    "今日は良い天気です。東京大学の「研究」、2024年3.5%増。",
    "안녕하세요, 세계! 한국어 형태소 분석기입니다. 1,000원.",
    "¡Hola! ¿Qué tal? «Bien» — “quoted” ‘single’ …",
    "€5 £3 ¥100 $2 © ® ™ ° ± × ÷ √ ∞ ≈ ≠",
    "x² ½ Ⅻ ① ١٢٣.٤٥٦ ०.१ 3.5² 1,5½",
    "Привет, мир! Это тест. שלום, עולם. नमस्ते, दुनिया। হ্যালো।",
    "e\u0301 a\u0308. b\u200dc d\u200ce \u202eRTL\u202c",
)
"""Hand-written strings over the cases the rules treat specially (the tests use them too)."""


def random_text(rng: random.Random, *, surrogates: bool, max_pieces: int = 24) -> str:
    """One string of up to ``max_pieces`` pieces, each from the adversarial alphabet (mostly)
    or any code point (1 in 16; lone surrogates only if ``surrogates``)."""
    pieces = []
    for _ in range(rng.randrange(max_pieces + 1)):
        if rng.randrange(16) == 0:
            point = rng.randrange(0x110000)
            if not surrogates and 0xD800 <= point <= 0xDFFF:
                point -= 0x800
            pieces.append(chr(point))
        else:
            pieces.append(rng.choice(rng.choice(ALPHABET)))
    return "".join(pieces)


@dataclass
class Outcome:
    """One tokenizer's run: strings tried, those both refused, and the differences
    (input, sacreBLEU's answer, mtcompute's)."""

    name: str
    count: int = 0
    refused: int = 0
    differences: list[tuple[str, str, str]] = field(default_factory=list)
    seconds: float = 0.0

    def add(self, text: str, ours: Callable[[str], str], theirs: Callable[[str], str]) -> None:
        """Tokenize ``text`` with both and count the agreement (the same line, or sacreBLEU
        raising and mtcompute refusing with one of its errors) or the difference."""
        self.count += 1
        try:
            expected = theirs(text)
        except Exception as error:  # sacreBLEU's failure is what mtcompute must match
            try:
                got = ours(text)
            except MtcomputeError:
                self.refused += 1
                return
            self.differences.append((text, repr(error), got))
            return
        try:
            got = ours(text)
        except Exception as error:  # any failure of mtcompute's is a difference
            self.differences.append((text, expected, repr(error)))
            return
        if expected != got:
            self.differences.append((text, expected, got))


def fuzz(
    name: str,
    count: int,
    seed: int,
    ours: Callable[[str], str] | None = None,
    theirs: Callable[[str], str] | None = None,
) -> Outcome:
    """``count`` strings through mtcompute's tokenizer ``name`` (or ``ours``) and
    sacreBLEU's (or ``theirs``): the hand-written :data:`ADVERSARIAL` ones, then seeded random
    ones."""
    ours = ours if ours is not None else get_tokenizer(name)
    theirs = theirs if theirs is not None else SACREBLEU[name]()
    rng = random.Random(f"{seed}:{name}")
    surrogates = name not in MECAB
    outcome = Outcome(name)
    start = time.perf_counter()
    for index in range(count):
        if index < len(ADVERSARIAL):
            text = ADVERSARIAL[index]
        else:
            text = random_text(rng, surrogates=surrogates)
        outcome.add(text, ours, theirs)
    outcome.seconds = time.perf_counter() - start
    return outcome


def main(argv: Sequence[str] | None = None) -> int:
    """Fuzz the tokenizers asked for; 0 when all agree, 1 on a difference, 2 when one asked
    for cannot run here."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=1_000_000, help="strings per tokenizer")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--tokenizer",
        action="append",
        choices=list(SACREBLEU),
        help="a tokenizer to fuzz (repeatable; default: all of them)",
    )
    parser.add_argument("--show", type=int, default=5, help="differences printed per tokenizer")
    args = parser.parse_args(argv)
    if args.count < 0:
        parser.error("--count must be at least 0")
    status = 0
    for name in args.tokenizer or list(SACREBLEU):
        try:
            outcome = fuzz(name, args.count, args.seed)
        except (MtcomputeError, RuntimeError) as error:
            print(f"{name}: not run: {error}".rstrip())
            status = max(status, 2)
            continue
        print(
            f"{name}: {outcome.count} strings, {len(outcome.differences)} differences, "
            f"{outcome.refused} refused by both, {outcome.seconds:.1f} s",
            flush=True,
        )
        for text, expected, got in outcome.differences[: args.show]:
            print(f"  input {text!r}\n    sacreBLEU {expected!r}\n    mtcompute {got!r}")
        if outcome.differences:
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
