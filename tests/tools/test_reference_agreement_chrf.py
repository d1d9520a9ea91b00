"""Reference agreement, the chrF tools: chrf-compute @1.0.0 (implemented by the JavaScript
reference straight from the specification), chrf-plus-plus-compute and chrf-components @1.0.0
(implemented there from their issue's rules, before their Python implementation).

Inputs, from a seeded ``random.Random``: random valid inputs, hand-written edge cases and random
near-valid mutations, chunks of real WMT lines, the contract examples (chrf-compute's also under
unknown tool ids and versions) and integer literals beyond the double range. How the envelopes
are compared: :mod:`tests.reference.runner`.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest

from tests.reference.inputs import (
    INF,
    WEIRD_VALUES,
    common_shape_cases,
    integer_or_float,
    maybe_flag,
    mutated,
    perturb,
    with_key,
    wmt_chrf_input,
    wmt_draws,
)
from tests.reference.runner import (
    SEED,
    TOTAL,
    Case,
    V,
    assert_agree,
    assert_reproduces_examples,
    contract_examples,
    example_and_not_found_cases,
    reference_run,
    select,
)

CF = "chrf-compute"
PP = "chrf-plus-plus-compute"
CC = "chrf-components"


# ---------------------------------------------------------------------------------------
# chrf-compute: random, adversarial and real WMT inputs
# ---------------------------------------------------------------------------------------


CHAR_POOL = (
    list("abcdefghij") * 3
    + list("ABCDEFGHIJ")
    + [" ", " ", " ", ".", ",", "-"]
    + ["\t", "\n", "\r", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x1f", "\x85", "\xa0", "\u1680"]
    + ["\u2000", "\u2005", "\u200a", "\u2028", "\u2029", "\u202f", "\u205f", "\u3000"]
    + ["\u200b", "\ufeff", "\u180e", "\u200d", "\u00ad"]
    + ["é", "É", "e\u0301", "ß", "ẞ", "İ", "ı", "Σ", "σ", "ς", "Ω", "ǅ", "Ꭰ", "ﬁ", "Ⅻ"]
    + ["😀", "𝒜", "𐐀", "𠀀", "日", "本", "ж", "Ж", "ש", "ह", "\u094d"]
)


def rand_text(rng: random.Random, max_len: int = 60) -> str:
    """A text segment of random characters (whitespace of every listed kind included)."""
    return "".join(rng.choice(CHAR_POOL) for _ in range(rng.randint(0, max_len)))


def rand_chrf(rng: random.Random) -> dict:
    """A random valid chrf-compute input."""
    count = rng.choice([1, 1, 2, 3, 5, 8, rng.randint(1, 40), 256 if rng.random() < 0.05 else 4])
    max_len = 8 if count > 40 else 60
    hyps = [rand_text(rng, max_len) for _ in range(count)]
    refs = []
    for h in hyps:
        if rng.random() < 0.8:
            refs.append("".join(perturb(rng, list(h), lambda: rng.choice(CHAR_POOL))))
        else:
            refs.append(rand_text(rng, max_len))
    inp: dict[str, Any] = {"hypotheses": hyps, "references": refs}
    if rng.random() < 0.6:
        inp["beta"] = integer_or_float(rng, 1, 16)
    maybe_flag(rng, inp, "lowercase")
    return inp


CF_EXAMPLE = {
    "hypotheses": [
        "The relationship between cats and dogs is not exactly friendly.",
        "a good bookshop is just a genteel black hole that knows how to read.",
    ],
    "references": [
        "The relationship between dogs and cats is not exactly friendly.",
        "A good bookshop is just a genteel Black Hole that knows how to read.",
    ],
}


CF_EXAMPLE_2 = {"hypotheses": ["aa"], "references": ["ab"], "beta": 3}


def chrf_adversarial() -> list[dict]:
    """Hand-written edge cases for chrf-compute."""
    ex = CF_EXAMPLE
    out = common_shape_cases(ex, ["hypotheses", "references"])
    for key in ["hypotheses", "references"]:
        for bad in [
            None,
            "abc",
            {},
            1,
            True,
            [],
            ["a"] * 257,
            [1] * 257,
            ["a"] * 256,
            ["a", None],
            [None, "\ud800"],
            [["a"]],
            ["a", 1],
            [""],
            ["\ud800"],
            ["a\udc00b"],
            ["\udc00\ud800"],
            ["\ud83d\ude00"],
        ]:
            out.append(with_key(ex, key, bad))
    out += [
        {"hypotheses": None, "references": None},
        {"hypotheses": ["a"] * 257, "references": None},
        {"hypotheses": ["a", "b"], "references": [1, 2, 3]},
        {"hypotheses": ["a", "b"], "references": ["a", "b", "c"]},
        {"hypotheses": ["a", "b", "c"], "references": ["a"]},
        {"hypotheses": ["a" * 40000, "b"], "references": ["c" * 40000]},
        {"hypotheses": ["a" * 40000], "references": ["c" * 40000]},
        {"hypotheses": ["a" * 32768], "references": ["b" * 32768]},
        {"hypotheses": ["a" * 32768], "references": ["b" * 32769]},
        {"hypotheses": ["é" * 16384], "references": ["ab" * 16384]},
        {"hypotheses": ["é" * 16384], "references": ["ab" * 16384 + "c"]},
        {"hypotheses": ["😀" * 8192], "references": ["😀" * 8192]},
        {"hypotheses": ["😀" * 8192], "references": ["😀" * 8192 + "a"]},
        {"hypotheses": ["a" * 65533 + "\ud800"], "references": [""]},
        {"hypotheses": ["a" * 65534 + "\ud800"], "references": [""]},
        {"hypotheses": [""], "references": ["a" * 65533 + "\udc00"]},
        {"hypotheses": ["\ud800" * 21845], "references": ["a"]},
        {"hypotheses": ["\ud800" * 21846], "references": ["a"]},
        {"hypotheses": ["\ud800\ud800\udc00"], "references": ["a"]},
        {"hypotheses": ["ok", "b\ud800"], "references": ["\ud800", "c"]},
        {"hypotheses": ["ok", "fine"], "references": ["c", "\udfff"]},
        {"hypotheses": ["\ud800"], "references": ["a"], "beta": 0},
        {"hypotheses": ["a"], "references": ["a"], "beta": 0, "lowercase": "x"},
        {"hypotheses": ["a" * 65537], "references": ["\ud800"], "beta": 0},
        # 65536 bytes before lowercasing (more after: İ lowercases to i + U+0307)
        {"hypotheses": ["İ" * 16384], "references": ["İ" * 16384], "lowercase": True},
        {"hypotheses": ["İ" * 16384], "references": ["İ" * 16384 + "a"], "lowercase": True},
        {"hypotheses": ["\uffff\ufffe\U0010ffff\ue000"], "references": ["\uffff\U0010ffff"]},
    ]
    for beta in [
        0,
        1,
        2,
        3,
        16,
        17,
        -1,
        2.0,
        2.5,
        16.0,
        True,
        False,
        None,
        "2",
        [],
        INF,
        1e300,
        -0.0,
    ]:
        out.append(with_key(ex, "beta", beta))
    for lc in [True, False, 1, 0, None, "true", []]:
        out.append(with_key(ex, "lowercase", lc))
    pairs = [
        ("", ""),
        ("", "abc"),
        ("abc", ""),
        ("a", "a"),
        ("ab", "ab"),
        ("abcdef", "abcdef"),
        ("abcdefg", "abcdefg"),
        ("a b c", "abc"),
        ("\t\n\r\x0b\x0c\x1c\x1d\x1e\x1f \x85\xa0\u1680", ""),
        (
            "\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000",
            " ",
        ),
        ("a\u200bb", "ab"),
        ("a\ufeffb", "ab"),
        ("a\u180eb", "ab"),
        ("a\u200db", "ab"),
        ("\u00e9t\u00e9", "e\u0301te\u0301"),
        ("ΟΔΟΣ", "οδος"),
        ("Σ", "σ"),
        ("ΑΣ", "ας"),
        ("ΑΣ.", "ας."),
        ("ΑΣ'Β", "ασ'β"),
        ("Α'Σ", "α'ς"),
        ("ΣΑ", "σα"),
        ("ΑΣ Β", "ας β"),
        ("Α\u0301Σ", "ά ς"),
        ("İstanbul", "i̇stanbul"),
        ("ẞ", "ß"),
        ("ǅ", "ǆ"),
        ("Ꭰ", "ꭰ"),
        ("𐐀", "𐐨"),
        ("ﬁ", "fi"),
        ("Ⅻ", "ⅻ"),
        ("K", "k"),
        ("Å", "å"),
        ("ΆΈΉ", "άέή"),
        ("aaaaaaaaaa", "aaa"),
        ("aa", "ab"),
        ("ab", "ba"),
        ("😀😀😀", "😀😀"),
        ("日本語のテキスト", "日本語テキスト"),
    ]
    for h, r in pairs:
        for lc in (False, True):
            out.append({"hypotheses": [h], "references": [r], "lowercase": lc})
            out.append({"hypotheses": [r], "references": [h], "lowercase": lc, "beta": 1})
    out.append(
        {
            "hypotheses": [h for h, _ in pairs],
            "references": [r for _, r in pairs],
            "lowercase": True,
        }
    )
    out.append(
        {"hypotheses": [h for h, _ in pairs], "references": [r for _, r in pairs], "beta": 16}
    )
    out.append({"hypotheses": ["abcdefgh", "xyzw"], "references": ["abcdefgh", "xy"]})
    # exact ties at the 7th decimal (ties go to even): 2379/128 = 18.5859375 -> 18.585938,
    # 4875/128 = 38.0859375 -> 38.085938, 925/128 = 7.2265625 -> 7.226562, 25/128 -> 0.195312
    out.append(
        {"hypotheses": ["b", "bc ca", "abacabc"], "references": ["a cbb", "  ", " ba "], "beta": 11}
    )
    out.append({"hypotheses": [" cb  ", "ca "], "references": [" baaa", "ca"], "beta": 5})
    out.append({"hypotheses": ["cbcb"], "references": ["acacc ac"], "beta": 6})
    out.append({"hypotheses": ["c bcb", "cbcb"], "references": ["cb", "acacc ac"], "beta": 10})
    out.append({"hypotheses": ["a"], "references": ["a" + "b" * 1022], "beta": 1})
    out.append({"hypotheses": ["a" + "b" * 1022], "references": ["a"], "beta": 1})
    out.append({"hypotheses": ["x"] * 256, "references": ["x"] * 256})
    out.append({"hypotheses": [""] * 256, "references": [""] * 256})
    return out


def wmt_cases(rng: random.Random, count: int) -> list[Case]:
    """chrF on chunks of real lines."""
    cases = []
    for _, _, refs, syss in wmt_draws(rng, count):
        ref = rng.choice(refs)
        hyp = rng.choice(syss + refs)
        n = min(len(ref), len(hyp))
        start = rng.randrange(n)
        size = rng.choice([1, 1, 2, 5, 10, 30, 100])
        cases.append(Case(CF, V, wmt_chrf_input(rng, hyp, ref, start, size, 0.5), "wmt"))
    return cases


def build_cases() -> list[Case]:
    """Every chrf-compute input, in a fixed order (seeded)."""
    rng = random.Random(SEED)
    cases = [Case(CF, V, rand_chrf(rng), "random") for _ in range(max(1, int(TOTAL * 0.3)))]
    cases += [Case(CF, V, inp, "adversarial") for inp in chrf_adversarial()]
    for _ in range(max(1, int(TOTAL * 0.3 / 2))):
        cases.append(Case(CF, V, mutated(rng, rand_chrf(rng)), "mutation"))
    cases += wmt_cases(rng, max(1, TOTAL // 15))
    cases += example_and_not_found_cases([(CF, CF_EXAMPLE), (CF, CF_EXAMPLE_2)])
    return cases


@pytest.fixture(scope="module")
def agreement_run() -> list[tuple[Case, str]]:
    """All chrf-compute cases with the reference's envelope text for each (one Node run)."""
    return reference_run(build_cases())


def test_reference_reproduces_contract_examples(agreement_run):
    """The JavaScript reference gives each chrf-compute example's documented output byte for
    byte."""
    assert_reproduces_examples(agreement_run, (CF,))


def test_chrf_random_agreement(agreement_run):
    """Random valid chrf-compute inputs give byte-identical envelopes."""
    assert_agree(select(agreement_run, CF, "random"))


def test_chrf_adversarial_agreement(agreement_run):
    """Edge-case and mutated chrf-compute inputs get the same result or error code and path."""
    assert_agree(select(agreement_run, CF, "adversarial", "mutation"))


def test_examples_and_not_found_agreement(agreement_run):
    """The contract examples agree, and unknown tools or versions are not_found on both sides."""
    assert_agree(select(agreement_run, None, "example", "not_found"))


def test_wmt_chrf_agreement(agreement_run):
    """chrF on chunks of real WMT hypothesis/reference lines agrees byte for byte."""
    assert_agree(select(agreement_run, CF, "wmt"))


def test_huge_integer_literals_agreement():
    """Integer literals beyond the double range (JSON.parse gives Infinity) get the same error."""
    huge = [10**309, 10**400, -(10**400)]
    inputs = [(CF, with_key(CF_EXAMPLE, "beta", h)) for h in huge]
    cases = [Case(tool, V, inp, "huge_integer") for tool, inp in inputs]
    assert_agree(reference_run(cases))


# ---------------------------------------------------------------------------------------
# chrf-plus-plus-compute and chrf-components (word n-grams, configurable orders, averaging)
# ---------------------------------------------------------------------------------------


PUNCT = list("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")


WORD_POOL = [
    "The", "the", "cat", "sat", "on", "mat", "(hi)", "hi", ".", ",", "...", "'s", "--", "a!?",
    "\u00aba\u00bb", "\u00e9,", "\U0001f600.", "x\u200b!", "\u0130.", "\u039f\u0394\u039f\u03a3.",
    "\u03bf\u03b4\u03bf\u03c2", "\uff01", "(", ")", "\u05e9\u05dc\u05d5\u05dd",
    "\u0928\u092e\u0938\u094d\u0924\u0947", "\u65e5\u672c\u8a9e", "ab", "abc", "a",
]  # fmt: skip


SPACES = [" ", " ", " ", "  ", "\t", "\n", "\xa0", "\u3000", "\u2028", "\x1c", "", "\u200b"]


PP_EXAMPLE = CF_EXAMPLE


CC_EXAMPLE = {
    "hypotheses": ["The cat sat."],
    "references": ["The cat sat on the mat."],
    "char_order": 3,
    "word_order": 1,
}


def rand_word(rng: random.Random) -> str:
    """A word from the pool or random characters, with punctuation added at either end."""
    word = rng.choice(WORD_POOL) if rng.random() < 0.7 else rand_text(rng, 5)
    if rng.random() < 0.3:
        word = "".join(rng.choice(PUNCT) for _ in range(rng.randint(1, 2))) + word
    if rng.random() < 0.3:
        word += "".join(rng.choice(PUNCT) for _ in range(rng.randint(1, 2)))
    return word


def rand_words(rng: random.Random, max_words: int = 12) -> list[str]:
    """A list of random words."""
    return [rand_word(rng) for _ in range(rng.randint(0, max_words))]


def join_words(rng: random.Random, words: list[str]) -> str:
    """Words joined by random separators (whitespace runs, nothing, or look-alikes)."""
    return rng.choice(["", " ", "\t"]) + "".join(w + rng.choice(SPACES) for w in words)


def rand_chrf_words(rng: random.Random) -> dict:
    """A random valid chrf-plus-plus-compute input (texts of words and punctuation)."""
    count = rng.choice([1, 1, 2, 3, 5, 8, rng.randint(1, 40), 256 if rng.random() < 0.03 else 4])
    max_words = 3 if count > 40 else 12
    hyps, refs = [], []
    for _ in range(count):
        words = rand_words(rng, max_words)
        hyps.append(join_words(rng, words))
        if rng.random() < 0.8:
            refs.append(join_words(rng, perturb(rng, words, lambda: rand_word(rng))))
        else:
            refs.append(join_words(rng, rand_words(rng, max_words)))
    inp: dict[str, Any] = {"hypotheses": hyps, "references": refs}
    if rng.random() < 0.5:
        inp["beta"] = integer_or_float(rng, 1, 16)
    maybe_flag(rng, inp, "lowercase")
    return inp


def rand_components(rng: random.Random) -> dict:
    """A random valid chrf-components input (every option drawn or left out)."""
    inp = rand_chrf_words(rng)
    if rng.random() < 0.8:
        inp["char_order"] = integer_or_float(rng, 1, 10)
    if rng.random() < 0.8:
        inp["word_order"] = rng.randint(0, 4)
    if rng.random() < 0.7:
        inp["averaging"] = rng.choice(["effective_order", "per_order_f"])
    if rng.random() < 0.6:
        inp["sacrebleu_compatible"] = rng.random() < 0.6
    return inp


def chrf_words_adversarial(tool: str) -> list[dict]:
    """Hand-written edge cases: shapes, bad values of every option, two faults, limits."""
    ex = CC_EXAMPLE if tool == CC else PP_EXAMPLE
    out = common_shape_cases(ex, ["hypotheses", "references"])
    keys = ["hypotheses", "references", "beta", "lowercase"]
    if tool == CC:
        keys += ["char_order", "word_order", "averaging", "sacrebleu_compatible"]
    extra = ["effective_order", "per_order_f", "Effective_order", -0.0, 10, 11, 4, 5, 10.0]
    for key in keys:
        for bad in [*WEIRD_VALUES, *extra]:
            out.append(with_key(ex, key, bad))
    for a, b in itertools.pairwise(keys):  # two neighbouring faults at once
        out.append(with_key(with_key(ex, a, None), b, None))
        out.append(with_key(with_key(ex, a, "\ud800"), b, 99))
    big = ["a" * 32_768, "\u00e9" * 16_384]
    out += [
        {"hypotheses": big[:1], "references": big[1:]},
        {"hypotheses": big[:1], "references": [big[1] + "b"]},
        {"hypotheses": ["x."] * 256, "references": ["x ."] * 256},
        {"hypotheses": ["x"] * 257, "references": ["x"] * 257},
        {"hypotheses": ["", " ", "\t."], "references": ["", "", "."]},
        {"hypotheses": ["abcdefgh", "xyzw"], "references": ["abcdefgh", "xy"]},
        {"hypotheses": ["(hi)", "..."], "references": ["( hi )", ". . ."]},
    ]
    if tool == CC:
        options = [
            {"char_order": 10, "word_order": 4, "averaging": "per_order_f"},
            {"char_order": 1, "word_order": 0, "averaging": "per_order_f"},
            {"sacrebleu_compatible": True, "averaging": "per_order_f", "word_order": 2},
            {"sacrebleu_compatible": True, "char_order": 10, "word_order": 4},
        ]
        out += [{**inp, **o} for inp in out[-7:] for o in options]
    return out


def chrf_words_wmt_cases(rng: random.Random, count: int) -> list[Case]:
    """Both tools on chunks of real WMT lines, with random options."""
    cases = []
    for k, _, refs, syss in wmt_draws(rng, count):
        ref, hyp = rng.choice(refs), rng.choice(syss)
        start = rng.randrange(len(ref))
        size = rng.choice([1, 2, 5, 10, 30, 100])
        inp = wmt_chrf_input(rng, hyp, ref, start, size, 0.4)
        if k % 2:
            cases.append(Case(PP, V, inp, "wmt"))
            continue
        inp["char_order"] = rng.randint(1, 10)
        inp["word_order"] = rng.randint(0, 4)
        inp["averaging"] = rng.choice(["effective_order", "per_order_f"])
        inp["sacrebleu_compatible"] = rng.random() < 0.5
        cases.append(Case(CC, V, inp, "wmt"))
    return cases


def build_chrf_words_cases() -> list[Case]:
    """Every chrf-plus-plus-compute and chrf-components input (seeded)."""
    rng = random.Random(SEED + 1)
    cases: list[Case] = []
    share = max(1, TOTAL // 6)
    for tool, maker in ((PP, rand_chrf_words), (CC, rand_components)):
        cases += [Case(tool, V, maker(rng), "random") for _ in range(share)]
        cases += [Case(tool, V, inp, "adversarial") for inp in chrf_words_adversarial(tool)]
        for _ in range(share // 2):
            inp = maker(rng)
            inp["hypotheses"], inp["references"] = inp["hypotheses"][:6], inp["references"][:6]
            inp = mutated(rng, inp)
            cases.append(Case(tool, V, inp, "mutation"))
        cases += [Case(tool, V, ex["input"], "example") for ex in contract_examples(tool)]
    cases += chrf_words_wmt_cases(rng, max(1, TOTAL // 15))
    return cases


@pytest.fixture(scope="module")
def chrf_words_run() -> list[tuple[Case, str]]:
    """The chrF++ and chrf-components cases with the reference's envelope for each."""
    return reference_run(build_chrf_words_cases())


def test_reference_reproduces_chrf_words_examples(chrf_words_run):
    """The reference gives each chrf-plus-plus-compute and chrf-components example's output
    byte for byte (it was written from the issue's rules, before the Python implementation)."""
    assert_reproduces_examples(chrf_words_run, (PP, CC))


def test_chrf_plus_plus_agreement(chrf_words_run):
    """chrf-plus-plus-compute: random, edge-case, mutated and real WMT inputs get the same
    result byte for byte, or the same error code and path."""
    groups = ("random", "adversarial", "mutation", "wmt", "example")
    assert_agree(select(chrf_words_run, PP, *groups))


def test_chrf_components_agreement(chrf_words_run):
    """chrf-components: random, edge-case, mutated and real WMT inputs get the same result
    byte for byte, or the same error code and path."""
    groups = ("random", "adversarial", "mutation", "wmt", "example")
    assert_agree(select(chrf_words_run, CC, *groups))
