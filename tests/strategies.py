"""Hypothesis strategies for the whole test suite: the one strategies module (STYLE.md habit 8).

What it draws, and why:

* tokens: ASCII words, non-ASCII words (Latin with diacritics, Cyrillic, Greek with final
  sigma, Hebrew, Devanagari and Bengali with virama and nukta, CJK, combining marks, ZWJ/ZWNJ),
  astral code points (emoji, ZWJ sequences, flags, CJK Extension B, mathematical letters), and
  tokens of up to exactly 128 UTF-8 bytes (the bleu-sentence-components limit "max token
  bytes"). Half of the draws come from a small shared vocabulary so that hypotheses and
  references share n-grams often enough to make the statistics interesting. Tokens never hold
  a whitespace code point (sacreBLEU and NLTK tests split joined text on whitespace);
  :func:`spaced_tokens` adds tokens with spaces inside for the tools alone.
* token lists, hypothesis/references pairs whose references are built from slices of the
  hypothesis (so that higher-order n-grams match), and valid bleu-sentence-components inputs;
* texts: segments mixing tokens with runs of the 29 whitespace code points the chrF contract
  removes, and with look-alikes it keeps (U+200B, U+FEFF, ...); hypothesis/reference text
  pairs; valid chrf-compute inputs; small corpora over tiny alphabets (empty texts, repeated
  characters, 1 to 3 references a segment) for the sacreBLEU-backed tools;
* BLEU sufficient statistics (m_n <= l_n, m_1 = 0 implies every m_n = 0), realistic
  (l_n = max(0, c - n + 1)) or free (any counts up to the contract's 10^12), and valid
  bleu-smoothing-compute inputs;
* arbitrary JSON values, and valid inputs with one or two fields replaced or removed.
"""

from __future__ import annotations

import string
from typing import Any, NamedTuple

from hypothesis import strategies as st

__all__ = [
    "ASTRAL_WORDS",
    "MAX_TOKEN_BYTES",
    "NON_ASCII_WORDS",
    "NOT_WHITESPACE",
    "TOOL_FIELDS",
    "VALID_INPUTS",
    "WHITESPACE",
    "BleuCase",
    "bleu_cases",
    "bleu_segments",
    "bleu_sentence_inputs",
    "bleu_smoothing_inputs",
    "bleu_statistics",
    "chrf_inputs",
    "chrf_segments",
    "faulty_inputs",
    "fit_utf8",
    "json_values",
    "perturbed_inputs",
    "small_corpora",
    "spaced_tokens",
    "texts",
    "token_lists",
    "tokens",
    "variant_of",
]

MAX_TOKEN_BYTES = 128
MAX_COUNT = 10**12

# The 29 whitespace code points of the chrF contract, spelled out here from the contract text
# (not imported from src, so that a test built on them can catch a wrong list in src).
WHITESPACE = "".join(
    chr(c)
    for c in (
        *range(0x09, 0x0E),
        *range(0x1C, 0x20),
        0x20,
        0x85,
        0xA0,
        0x1680,
        *range(0x2000, 0x200B),
        0x2028,
        0x2029,
        0x202F,
        0x205F,
        0x3000,
    )
)
# Format characters that look like spaces but are kept as characters by the contract.
NOT_WHITESPACE = "\u200b\u200c\u200d\u2060\ufeff\u180e"

ASCII_WORDS = (
    "the", "The", "a", "cat", "sat", "on", "mat", "dog", "is", "not", ".", ",", "'s", "--",
)  # fmt: skip
NON_ASCII_WORDS = (
    "über", "Straße", "STRASSE", "café", "cafe\u0301", "naïve", "кошка", "Кошка", "собака",
    "ΣΟΦΟΣ", "σοφός", "Σ", "שלום", "עולם", "नमस्ते", "क़", "ক্ষ", "য়", "猫", "的", "日本語",
    "İstanbul", "ﬁ", "a\u200db", "x\u200cy", "e\u0301\u0301", "ǅ", "ῼ",
)  # fmt: skip
ASTRAL_WORDS = (
    "😀", "🐱", "👩\u200d💻", "👍🏽", "🇩🇪", "𝔘𝔫𝔦", "𠀀", "𐐷", "𐐏", "😀😀",
)  # fmt: skip
VOCABULARY = ASCII_WORDS + NON_ASCII_WORDS + ASTRAL_WORDS

_NO_SPACE = WHITESPACE  # excluded from every token alphabet


def fit_utf8(text: str, limit: int = MAX_TOKEN_BYTES) -> str:
    """``text`` cut at a code point boundary to at most ``limit`` UTF-8 bytes."""
    data = text.encode("utf-8")
    if len(data) <= limit:
        return text
    return data[:limit].decode("utf-8", "ignore")


_ascii_words = st.text(
    alphabet=string.ascii_letters + string.digits + string.punctuation, min_size=1, max_size=10
)
_non_ascii_chars = st.characters(
    min_codepoint=0x80,
    max_codepoint=0xFFFF,
    exclude_categories=("Cs", "Cc", "Zs", "Zl", "Zp"),
    exclude_characters=_NO_SPACE,
)
_non_ascii_words = st.text(alphabet=_non_ascii_chars, min_size=1, max_size=8)
_astral_chars = st.characters(
    min_codepoint=0x10000, max_codepoint=0x10FFFF, exclude_categories=("Cs",)
)
_astral_words = st.text(alphabet=_astral_chars, min_size=1, max_size=4)
_any_token_char = st.one_of(st.sampled_from(string.ascii_letters), _non_ascii_chars, _astral_chars)
# Exactly at the limit: 128 one-byte, 64 two-byte, 42 three-byte + 2, 32 four-byte characters.
_TOKENS_AT_LIMIT = ("a" * 128, "é" * 64, "中" * 42 + "ab", "😀" * 32, "ß" * 63 + "xy")
_long_tokens = st.one_of(
    st.sampled_from(_TOKENS_AT_LIMIT),
    st.text(alphabet=_any_token_char, min_size=16, max_size=128).map(fit_utf8),
)


def tokens() -> st.SearchStrategy[str]:
    """One token: non-empty, no whitespace, no lone surrogate, at most 128 UTF-8 bytes."""
    return st.one_of(
        st.sampled_from(VOCABULARY),
        st.one_of(_ascii_words, _non_ascii_words, _astral_words, _long_tokens),
    )


def spaced_tokens() -> st.SearchStrategy[str]:
    """Tokens that may hold whitespace inside (a token is any non-empty string)."""
    return st.one_of(
        tokens(),
        st.tuples(tokens(), st.sampled_from(WHITESPACE), tokens()).map("".join).map(fit_utf8),
    )


def token_lists(min_size: int = 0, max_size: int = 20) -> st.SearchStrategy[list[str]]:
    """A list of tokens (a hypothesis or a reference; may be empty)."""
    return st.lists(tokens(), min_size=min_size, max_size=max_size)


@st.composite
def variant_of(draw: st.DrawFn, base: list[str], max_pieces: int = 6) -> list[str]:
    """A token list made of slices of ``base`` and new tokens (so n-grams of ``base`` recur)."""
    out: list[str] = []
    for _ in range(draw(st.integers(0, max_pieces))):
        if base and draw(st.booleans()):
            start = draw(st.integers(0, len(base) - 1))
            length = draw(st.integers(1, len(base) - start))
            out.extend(base[start : start + length])
        else:
            out.extend(draw(token_lists(max_size=3)))
    return out


@st.composite
def bleu_segments(
    draw: st.DrawFn, max_references: int = 8, max_tokens: int = 20
) -> tuple[list[str], list[list[str]]]:
    """A hypothesis and 1..max_references references sharing n-grams with it."""
    hypothesis = draw(token_lists(max_size=max_tokens))
    references = draw(st.lists(variant_of(hypothesis), min_size=1, max_size=max_references))
    return hypothesis, references


class BleuCase(NamedTuple):
    """A hypothesis, its references and a max order."""

    hypothesis: list[str]
    references: list[list[str]]
    max_order: int


def bleu_cases() -> st.SearchStrategy[BleuCase]:
    """A :func:`bleu_segments` draw with a max order from 1 to 8."""
    return st.builds(lambda s, n: BleuCase(*s, n), bleu_segments(), st.integers(1, 8))


@st.composite
def bleu_sentence_inputs(draw: st.DrawFn) -> dict[str, Any]:
    """A valid bleu-sentence-components input (optional keys present or not)."""
    hypothesis, references = draw(bleu_segments())
    data: dict[str, Any] = {"hypothesis": hypothesis, "references": references}
    if draw(st.booleans()):
        # JSON integers: 4 and 4.0 are the same number.
        data["max_order"] = draw(st.integers(1, 8) | st.integers(1, 8).map(float))
    if draw(st.booleans()):
        data["include_ngrams"] = draw(st.booleans())
    return data


_whitespace_runs = st.text(alphabet=WHITESPACE, min_size=1, max_size=3)
_separators = st.one_of(
    st.just(" "), st.just(""), _whitespace_runs, st.sampled_from(NOT_WHITESPACE)
)


@st.composite
def _joined(draw: st.DrawFn, words: list[str]) -> str:
    parts = [draw(st.one_of(st.just(""), _whitespace_runs))]
    for word in words:
        parts.append(word)
        parts.append(draw(_separators))
    return "".join(parts)


def texts(max_words: int = 12) -> st.SearchStrategy[str]:
    """A segment of text: tokens separated by whitespace runs, look-alikes or nothing."""
    return token_lists(max_size=max_words).flatmap(_joined)


@st.composite
def chrf_segments(draw: st.DrawFn, max_words: int = 8) -> tuple[str, str]:
    """A hypothesis text and a reference text built from the same words (often overlapping)."""
    words = draw(token_lists(max_size=max_words))
    hypothesis = draw(variant_of(words, max_pieces=4).flatmap(_joined))
    reference = draw(variant_of(words, max_pieces=4).flatmap(_joined))
    return hypothesis, reference


def small_corpora(
    hypothesis: str, reference: str, max_size: int
) -> st.SearchStrategy[list[tuple[str, list[str]]]]:
    """1 to 4 segments: a text over the ``hypothesis`` alphabet and 1 to 3 over the
    ``reference`` one, each of at most ``max_size`` characters."""
    texts = st.text(reference, max_size=max_size)
    segment = st.tuples(
        st.text(hypothesis, max_size=max_size), st.lists(texts, min_size=1, max_size=3)
    )
    return st.lists(segment, min_size=1, max_size=4)


@st.composite
def chrf_inputs(draw: st.DrawFn, max_segments: int = 4) -> dict[str, Any]:
    """A valid chrf-compute input: 1..max_segments segment pairs, optional beta/lowercase."""
    pairs = draw(st.lists(chrf_segments(), min_size=1, max_size=max_segments))
    data: dict[str, Any] = {
        "hypotheses": [h for h, _ in pairs],
        "references": [r for _, r in pairs],
    }
    if draw(st.booleans()):
        data["beta"] = draw(st.integers(1, 16))
    if draw(st.booleans()):
        data["lowercase"] = draw(st.booleans())
    return data


@st.composite
def bleu_statistics(draw: st.DrawFn, min_orders: int = 1, max_orders: int = 8) -> dict[str, Any]:
    """Valid BLEU statistics: matches, totals, candidate_length, reference_length.

    m_n <= l_n, and m_1 = 0 implies every m_n = 0. Either realistic (one segment or a small
    corpus: l_n = max(0, c - n + 1) or corpus-like sums) or free (any counts up to 10^12).
    """
    n = draw(st.integers(min_orders, max_orders))
    kind = draw(st.sampled_from(["sentence", "corpus", "free"]))
    if kind == "sentence":
        c = draw(st.integers(0, 40))
        totals = [max(0, c - k) for k in range(n)]
        r = draw(st.integers(0, 50))
    elif kind == "corpus":
        c = draw(st.integers(0, 10**6))
        segments = draw(st.integers(1, 1000))
        totals = [max(0, c - k * segments) for k in range(n)]
        r = draw(st.integers(0, 10**6))
    else:
        totals = draw(st.lists(st.integers(0, MAX_COUNT), min_size=n, max_size=n))
        c = draw(st.integers(0, MAX_COUNT))
        r = draw(st.integers(0, MAX_COUNT))
    matches = [draw(st.integers(0, t)) for t in totals]
    if matches[0] == 0:
        matches = [0] * n
    return {"matches": matches, "totals": totals, "candidate_length": c, "reference_length": r}


@st.composite
def bleu_smoothing_inputs(draw: st.DrawFn) -> dict[str, Any]:
    """A valid bleu-smoothing-compute input (epsilon only with method1)."""
    data = draw(bleu_statistics())
    data["smoothing"] = draw(st.sampled_from(["none", "method1", "method2", "method3"]))
    if data["smoothing"] == "method1" and draw(st.booleans()):
        data["epsilon"] = draw(
            st.sampled_from([0, 1, 0.1, 0.5]) | st.floats(0, 1, allow_subnormal=False)
        )
    if draw(st.booleans()):
        data["effective_order"] = draw(st.booleans())
    if draw(st.booleans()):
        data["decimals"] = draw(st.integers(0, 15))
    return data


VALID_INPUTS: dict[str, st.SearchStrategy[dict[str, Any]]] = {
    "bleu-sentence-components": bleu_sentence_inputs(),
    "bleu-smoothing-compute": bleu_smoothing_inputs(),
    "chrf-compute": chrf_inputs(),
}
TOOL_FIELDS: dict[str, tuple[str, ...]] = {
    "bleu-sentence-components": ("hypothesis", "references", "max_order", "include_ngrams"),
    "bleu-smoothing-compute": (
        "matches",
        "totals",
        "candidate_length",
        "reference_length",
        "smoothing",
        "epsilon",
        "effective_order",
        "decimals",
    ),
    "chrf-compute": ("hypotheses", "references", "beta", "lowercase"),
}

_json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from([0, 1, -1, 4.0, 0.5, 1e12, 1e12 + 1, 10**12 + 1, 2**53 + 1, 1e308]),
    st.text(max_size=12),
    st.sampled_from(["", "\ud800", "a\udfffb", "none", "method1", "method4", "😀"]),
)


def json_values(max_leaves: int = 20) -> st.SearchStrategy[Any]:
    """Any JSON value as Python holds it (lone surrogates included, as JSON can escape them)."""
    return st.recursive(_json_scalars, _json_containers, max_leaves=max_leaves)


def _json_containers(children: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    # A named function, not a lambda: hypothesis inspects its source to check it recurses.
    return st.one_of(
        st.lists(children, max_size=5),
        st.dictionaries(st.text(max_size=10), children, max_size=5),
    )


def _replace_inside(value: Any, replacement: Any, index: int) -> Any:
    """``value`` with one element (an array item, or an item of an inner array) replaced."""
    if isinstance(value, list) and value:
        i = index % len(value)
        inner = value[i]
        copy = list(value)
        if isinstance(inner, list) and inner and index % 2:
            copy[i] = _replace_inside(inner, replacement, index // 2)
        else:
            copy[i] = replacement
        return copy
    return replacement


@st.composite
def perturbed_inputs(
    draw: st.DrawFn, tool_id: str, unknown_keys: bool = True, max_faults: int = 2
) -> dict[str, Any]:
    """A valid input of ``tool_id`` with 0..max_faults faults: a field (or an item inside it)
    replaced by any JSON value, a key removed, or (when ``unknown_keys``) an unknown key added."""
    data = dict(draw(VALID_INPUTS[tool_id]))
    fields = TOOL_FIELDS[tool_id]
    kinds = ["replace", "replace_inside", "remove"] + (["unknown"] if unknown_keys else [])
    for _ in range(draw(st.integers(0, max_faults))):
        kind = draw(st.sampled_from(kinds))
        key = draw(st.sampled_from(fields))
        if kind == "replace":
            data[key] = draw(json_values(max_leaves=6))
        elif kind == "replace_inside" and key in data:
            data[key] = _replace_inside(
                data[key], draw(json_values(max_leaves=4)), draw(st.integers(0, 64))
            )
        elif kind == "remove":
            data.pop(key, None)
        elif kind == "unknown":
            name = draw(st.text(min_size=1, max_size=8).filter(lambda k: k not in fields))
            data[name] = draw(json_values(max_leaves=4))
    return data


@st.composite
def faulty_inputs(draw: st.DrawFn, tool_id: str) -> dict[str, Any]:
    """A valid input of ``tool_id`` (every optional key present) whose fields are each, on
    their own, kept, replaced by any JSON value, or given a replaced inner item: inputs with
    several faults at once, all under known keys."""
    data = dict(draw(VALID_INPUTS[tool_id]))
    data.update({k: v for k, v in _FULL[tool_id].items() if k not in data})
    for key in TOOL_FIELDS[tool_id]:
        kind = draw(st.sampled_from(["keep", "replace", "replace_inside"]))
        if kind == "replace":
            data[key] = draw(json_values(max_leaves=4))
        elif kind == "replace_inside":
            data[key] = _replace_inside(
                data[key], draw(json_values(max_leaves=3)), draw(st.integers(0, 64))
            )
    return data


# Values for the optional keys a valid input may lack (faulty_inputs sets every key).
_FULL: dict[str, dict[str, Any]] = {
    "bleu-sentence-components": {"max_order": 4, "include_ngrams": False},
    "bleu-smoothing-compute": {"epsilon": 0.1, "effective_order": False, "decimals": 4},
    "chrf-compute": {"beta": 2, "lowercase": False},
}


@st.composite
def significance_relations(
    draw: st.DrawFn, most: int = 7
) -> tuple[list[int], set[tuple[int, int]]]:
    """An order of 1 to ``most`` systems (best first) and a relation "a is significantly
    better than b" that only ever points down the order (as a test's does: the better score)."""
    count = draw(st.integers(1, most))
    order = draw(st.permutations(range(count)))
    pairs = [(order[i], order[j]) for i in range(count) for j in range(i + 1, count)]
    chosen = draw(st.lists(st.booleans(), min_size=len(pairs), max_size=len(pairs)))
    return order, {pair for pair, on in zip(pairs, chosen, strict=True) if on}


@st.composite
def error_statistics(draw: st.DrawFn, most_systems: int = 5) -> list[list[tuple[int, int]]]:
    """WER-like per-segment (errors, reference length) of 2 to ``most_systems`` systems on
    the same 2 to 30 segments, each reference at least one unit long."""
    segments = draw(st.integers(2, 30))
    lengths = draw(st.lists(st.integers(1, 12), min_size=segments, max_size=segments))
    systems = draw(st.integers(2, most_systems))
    return [[(draw(st.integers(0, 2 * n)), n) for n in lengths] for _ in range(systems)]
