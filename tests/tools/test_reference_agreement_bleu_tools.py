"""Reference agreement, the composite BLEU tools: bleu-sentence-compute, bleu-corpus-compute,
bleu-ngrams-count and bleu-brevity-penalty @1.0.0 against the JavaScript reference (its part for
them was written from their contract documents only).

Inputs, from a seeded ``random.Random``: random valid inputs, hand-written edge cases (shapes,
tokens, options, limits) and random near-valid mutations, whitespace-split real WMT lines (other
systems as extra references), and the contract examples. How the envelopes are compared:
:mod:`tests.reference.runner`.
"""

from __future__ import annotations

import itertools
import json
import random
from typing import Any

import pytest

from tests.reference.inputs import (
    INF,
    WEIRD_VALUES,
    common_shape_cases,
    deep_copy,
    integer_or_float,
    maybe_flag,
    mutated,
    rand_bleu_components,
    rand_epsilon,
    rand_size,
    with_key,
    without,
    wmt_draws,
    wmt_splitter,
)
from tests.reference.runner import (
    CONTRACTS_DIR,
    SEED,
    TOTAL,
    Case,
    V,
    assert_agree,
    assert_reproduces_examples,
    contract_examples,
    reference_run,
    select,
)
from tests.tools.test_tool_bleu_ngrams_count import unmatched_unigram_result

SC = "bleu-sentence-compute"


CB = "bleu-corpus-compute"


NC = "bleu-ngrams-count"


BP = "bleu-brevity-penalty"


BLEU_TOOLS = (SC, CB, NC, BP)


MAX_LENGTH = 10**9


def rand_score_options(rng: random.Random, inp: dict, smoothing_required: bool) -> dict:
    """max_order, smoothing, epsilon, effective_order and decimals, each drawn or left out."""
    if rng.random() < 0.6:
        inp["max_order"] = integer_or_float(rng, 1, 8)
    if smoothing_required or rng.random() < 0.7:
        inp["smoothing"] = rng.choice(["none", "method1", "method2", "method3"])
    if inp.get("smoothing") == "method1" and rng.random() < 0.6:
        inp["epsilon"] = rand_epsilon(rng)
    maybe_flag(rng, inp, "effective_order")
    if rng.random() < 0.35:
        d = rng.randint(0, 15)
        inp["decimals"] = d if rng.random() < 0.9 else float(d)
    if rng.random() < 0.1:
        keys = list(inp)
        rng.shuffle(keys)
        inp = {k: inp[k] for k in keys}
    return inp


def rand_bleu_sentence(rng: random.Random) -> dict:
    """A random valid bleu-sentence-compute input."""
    base = rand_bleu_components(rng)
    inp = {"hypothesis": base["hypothesis"], "references": base["references"]}
    return rand_score_options(rng, inp, smoothing_required=True)


def rand_segments(rng: random.Random) -> tuple[list, list]:
    """Hypotheses and per-segment references for the corpus tools."""
    count = rng.choice([1, 1, 2, 3, 5, 10, rng.randint(1, 60)])
    if rng.random() < 0.01:
        count = 4096
    hyps, refs = [], []
    for _ in range(count):
        seg = rand_bleu_components(rng)
        if count > 60:  # keep the big corpora small per segment
            seg["hypothesis"] = seg["hypothesis"][:3]
            seg["references"] = [r[:3] for r in seg["references"][:2]]
        hyps.append(seg["hypothesis"])
        refs.append(seg["references"])
    return hyps, refs


def rand_bleu_corpus(rng: random.Random) -> dict:
    """A random valid bleu-corpus-compute input."""
    hyps, refs = rand_segments(rng)
    return rand_score_options(rng, {"hypotheses": hyps, "references": refs}, False)


def rand_ngrams_count(rng: random.Random) -> dict:
    """A random valid bleu-ngrams-count input."""
    hyps, refs = rand_segments(rng)
    inp: dict[str, Any] = {"hypotheses": hyps, "references": refs}
    if rng.random() < 0.6:
        inp["max_order"] = integer_or_float(rng, 1, 8)
    maybe_flag(rng, inp, "include_ngrams")
    return inp


def rand_bp_length(rng: random.Random) -> int:
    """A length from 0 to 10^9, small and huge values both common."""
    return rand_size(rng, MAX_LENGTH)


def rand_brevity(rng: random.Random) -> dict:
    """A random valid bleu-brevity-penalty input (near-ties and huge lengths included)."""
    count = rng.choice([1, 1, 2, 3, 5, 10, rng.randint(1, 200)])
    if rng.random() < 0.005:
        count = 20_000
    scale = rng.choice([5, 60, 100_000, MAX_LENGTH])
    cands, refs = [], []
    for _ in range(count):
        c = rand_bp_length(rng) if scale == MAX_LENGTH else rng.randint(0, scale)
        cands.append(c)
        seg = []
        for _ in range(rng.choice([1, 1, 2, 3, 4, 8, rng.randint(1, 8)])):
            kind = rng.randrange(4)
            if kind == 0:  # near c: ties and off-by-one
                seg.append(min(MAX_LENGTH, max(0, c + rng.randint(-2, 2))))
            elif kind == 1:
                seg.append(rand_bp_length(rng) if scale == MAX_LENGTH else rng.randint(0, scale))
            elif kind == 2:
                seg.append(min(MAX_LENGTH, max(0, int(c * (0.7 + 0.6 * rng.random())))))
            else:
                seg.append(rng.choice([0, c, MAX_LENGTH]))
        refs.append(seg)
    inp: dict[str, Any] = {"candidate_lengths": cands, "reference_lengths": refs}
    if rng.random() < 0.4:
        inp["decimals"] = rng.randint(0, 15)
    if rng.random() < 0.05:
        inp["candidate_lengths"] = [float(x) for x in cands]
    return inp


SC_EXAMPLE = (
    contract_examples(SC)[0]["input"] if (CONTRACTS_DIR / f"{SC}@{V}.json").exists() else {}
)


CB_EXAMPLE = {
    "hypotheses": [["the", "cat", "sat", "on", "the", "mat"], ["a", "cat", "is", "on"]],
    "references": [[["the", "cat", "is", "on", "the", "mat"]], [["a", "cat"], ["a", "dog"]]],
    "smoothing": "method1",
    "epsilon": 0.1,
    "effective_order": True,
    "decimals": 10,
}


NC_EXAMPLE = {
    "hypotheses": [["the", "the", "cat"], ["a"]],
    "references": [[["the", "cat"]], [["b"], []]],
    "max_order": 2,
    "include_ngrams": True,
}


BP_EXAMPLE = {"candidate_lengths": [6, 6, 3], "reference_lengths": [[8], [6, 7], [2, 4]]}


def token_fault_cases(ex: dict, hyp_key: str, corpus: bool) -> list[dict]:
    """Every bad or boundary token, in a hypothesis and in a reference."""
    tokens = [
        *[None, 1, 1.0, True, [], {}, "", "\ud800", "a\udc00", "\udc00\ud800", "\ud83d\ude00"],
        *[" ", "\t", "\x00", "\u2028", '"', "\\", "a" * 128, "a" * 129, "é" * 64, "é" * 64 + "a"],
        *["😀" * 32, "😀" * 32 + "a", "€" * 42 + "ab", "€" * 43, "\ud800" * 129, "x" * 1000],
    ]
    out = []
    for tok in tokens:
        if corpus:
            out.append(with_key(ex, hyp_key, [["am"], ["am", tok, "a"]]))
            out.append(with_key(ex, "references", [[["I"]], [["I", "am", tok]]]))
            out.append(with_key(ex, "references", [[["I"], ["am", tok]], [["x"]]]))
            out.append(with_key(ex, hyp_key, [["am", tok], ["a"]]))
        else:
            out.append(with_key(ex, hyp_key, ["am", tok, "a"]))
            out.append(with_key(ex, "references", [["I", "am", tok]]))
            out.append(with_key(ex, "references", [["I"], ["am", tok], tok]))
    return out


def score_option_cases(ex: dict) -> list[dict]:
    """Bad and boundary max_order, smoothing, epsilon, effective_order, decimals, and the order
    of their checks (two faults at once)."""
    out = []
    values = [
        *WEIRD_VALUES,
        "none",
        "method2",
        "method3",
        "method5",
        "method7",
        "Method1",
        "method8",
    ]
    for key in ["max_order", "smoothing", "epsilon", "effective_order", "decimals"]:
        for bad in values:
            out.append(with_key(ex, key, bad))
    for eps in [0, 0.0, 1, 1.0, -0.0, 5e-324, 1 + 2**-52, -5e-324, 0.5, INF]:
        for sm in ["method1", "none", "method2", "method3", "method4"]:
            out.append(with_key(with_key(ex, "smoothing", sm), "epsilon", eps))
    out.append(with_key(without(ex, "smoothing"), "epsilon", 0.1))
    out.append(with_key(without(ex, "smoothing"), "epsilon", 2))
    for d in [0, 1, 15, 16, -1, 15.0, 0.5, True]:
        for sm in ["none", "method1", "method2", "method3"]:
            out.append(with_key(with_key(ex, "smoothing", sm), "decimals", d))
    for eo in [True, False]:
        for mo in [1, 2, 8]:
            for sm in ["none", "method1", "method2", "method3"]:
                out.append({**ex, "effective_order": eo, "max_order": mo, "smoothing": sm})
    keys = ["max_order", "smoothing", "epsilon", "effective_order", "decimals"]
    for a, b in itertools.pairwise(keys):
        out.append(with_key(with_key(ex, a, None), b, None))
        out.append(with_key(with_key(ex, a, "method4"), b, 99))
    out.append(with_key(with_key(ex, "smoothing", "method4"), "epsilon", "x"))
    out.append(with_key(with_key(ex, "max_order", 9), "smoothing", "method4"))
    return out


def bleu_sentence_adversarial() -> list[dict]:
    """Hand-written edge cases for bleu-sentence-compute."""
    ex = SC_EXAMPLE
    out = common_shape_cases(ex, ["hypothesis", "references", "smoothing"])
    out += token_fault_cases(ex, "hypothesis", corpus=False)
    for bad in [None, "a b", {}, 1, True, [[]], [["a"]], []]:
        out.append(with_key(ex, "hypothesis", bad))
    for bad in [None, "a", [], {}, 1, ["a"], [None], [[1]], [[""]], [["a"]] * 9, [["a"]] * 8]:
        out.append(with_key(ex, "references", bad))
    out += [
        with_key(ex, "references", [[]] * 8),
        with_key(ex, "references", [[None]] * 9),
        with_key(with_key(ex, "hypothesis", [""]), "references", [["a"]] * 9),
        with_key(with_key(ex, "references", [["a"]] * 9), "smoothing", "method4"),
    ]
    out += score_option_cases(ex)
    # edge statistics: empty hypothesis, m_1 = 0, short hypotheses, exact match, ties
    for hyp, refs in [
        ([], [[]]),
        ([], [["a", "b"]]),
        (["a"], [[]]),
        (["a"], [["b"]]),
        (["a"], [["a"]]),
        (["a", "b"], [["a", "b"]]),
        (["a", "b", "c"], [["a", "b", "c", "d"], ["a", "b"]]),
        (["a"] * 12, [["a"] * 3, ["a"] * 7]),
        (["x", "a", "b", "c", "d"], [["a", "b", "c", "d", "e"]]),
        (["a", "A", "é", "e\u0301"], [["A", "e\u0301"]]),
    ]:
        for sm in ["none", "method1", "method2", "method3"]:
            for eo in [False, True]:
                out.append(
                    {
                        "hypothesis": hyp,
                        "references": refs,
                        "smoothing": sm,
                        "effective_order": eo,
                        "max_order": 8 if eo else 4,
                    }
                )
    # the token and byte totals, and their place after the option checks
    base = {"smoothing": "none"}
    big = "b" * 128
    out += [
        {**base, "hypothesis": ["a"] * 5000, "references": [["a"] * 5000]},
        {**base, "hypothesis": ["a"] * 5000, "references": [["a"] * 5001]},
        {**base, "hypothesis": ["a"] * 5000, "references": [["a"] * 2500] * 2 + [[]] * 6},
        {**base, "hypothesis": ["a"] * 5000, "references": [["a"] * 5001], "max_order": 9},
        {**base, "hypothesis": ["a"] * 5000, "references": [["a"] * 5001], "decimals": 16},
        {**base, "hypothesis": ["a"] * 5000, "references": [["a"] * 5001], "epsilon": 0.1},
        {"hypothesis": ["a"] * 5000, "references": [["a"] * 5001], "smoothing": "method4"},
        {**base, "hypothesis": [big] * 1024, "references": [[big] * 1024]},
        {**base, "hypothesis": [big] * 1024, "references": [[big] * 1024, ["c"]]},
        {**base, "hypothesis": [big] * 1024, "references": [[big] * 1024, ["c"]], "epsilon": 1},
        {**base, "hypothesis": ["é" * 64] * 1024, "references": [["é" * 64] * 1024, ["x"]]},
        {**base, "hypothesis": ["a"] * 10001, "references": [["b" * 128] * 3000]},
    ]
    return out


def corpus_shape_cases(ex: dict, hyp_key: str = "hypotheses") -> list[dict]:
    """Segment lists and reference lists of every bad shape and size for the corpus tools."""
    out = token_fault_cases(ex, hyp_key, corpus=True)
    seg = [["a", "b"]]
    for bad in [
        None,
        "a",
        {},
        1,
        True,
        [],
        [None],
        ["a"],
        [[1]],
        [[""]],
        [seg] * 4096,
        [[]] * 4097,
    ]:
        out.append(with_key(ex, hyp_key, bad))
    for bad in [
        *[None, "a", {}, 1, [], [None], [[]], [["a"]], [[[1]]], [[[""]]], [[[]]] * 4097],
        [[["a"]] * 9, [["a"]]],
        [[["a"]] * 8, [["a"]] * 8],
        [[[]] * 8, [[]]],
        [[["a"]], []],
        [[["a"]], None],
        [[["a"]], [["a"], None]],
        [[["a"]], [["a"], "b"]],
        [[["a"]]],
        [[["a"]], [["a"]], [["a"]]],
        [[["a"]], [["a"]] * 9, [["a"]]],
        [[["a"]], [[]] * 9, [[""]]],
    ]:
        out.append(with_key(ex, "references", bad))
    out += [  # two faults: the validation order decides
        with_key(with_key(ex, hyp_key, [[""]]), "references", None),
        with_key(with_key(ex, hyp_key, [["a"]] * 4097), "references", None),
        with_key(with_key(ex, hyp_key, [["a"]]), "references", [[["a"]] * 9, [["a"]]]),
        with_key(with_key(ex, hyp_key, [["a"]]), "references", [[["a"]], []]),
        with_key(with_key(ex, hyp_key, [["a"]] * 3), "max_order", 0),
        with_key(with_key(ex, hyp_key, [["a"]] * 3), "references", [[[""]]]),
        with_key(ex, hyp_key, [[]] * 4096) | {"references": [[[]]] * 4096},
        with_key(ex, hyp_key, [["a"]] * 4096) | {"references": [[["a"], []]] * 4096},
    ]
    return out


def corpus_limit_cases(base: dict) -> list[dict]:
    """The 500000-token and 4194304-byte totals, exactly at and just over them."""
    big = "b" * 128
    n = 4096
    per = 500_000 // n  # 122 tokens per segment side
    rest = 500_000 - per * n * 2
    out = []
    hyps = [["a"] * per for _ in range(n)]
    refs = [[["a"] * per] for _ in range(n)]
    refs_at = [[r[0] + (["c"] * rest if i == 0 else [])] for i, r in enumerate(refs)]
    refs_over = [[r[0] + (["c"] * (rest + 1) if i == 0 else [])] for i, r in enumerate(refs)]
    out.append({**base, "hypotheses": hyps, "references": refs_at, "max_order": 1})
    out.append({**base, "hypotheses": hyps, "references": refs_over, "max_order": 1})
    out.append({**base, "hypotheses": hyps, "references": refs_over, "max_order": 9})
    seg_hyp = [[big] * 8] * 2048  # 2048 * 16 * 128 = 4194304 bytes
    out.append({**base, "hypotheses": seg_hyp, "references": [[[big] * 8]] * 2048, "max_order": 1})
    over = [[[big] * 8]] * 2047 + [[[big] * 8, ["c"]]]
    out.append({**base, "hypotheses": seg_hyp, "references": over, "max_order": 1})
    over2 = [[[big] * 8]] * 2047 + [[[big] * 7 + ["é" * 64 + "c"]]]
    out.append({**base, "hypotheses": seg_hyp, "references": over2, "max_order": 1})
    return out


def bleu_corpus_adversarial() -> list[dict]:
    """Hand-written edge cases for bleu-corpus-compute."""
    ex = CB_EXAMPLE
    out = common_shape_cases(ex, ["hypotheses", "references"])
    out += corpus_shape_cases(ex)
    out += score_option_cases(ex)
    limit_cases = corpus_limit_cases({})
    out += limit_cases
    out.append({**limit_cases[1], "smoothing": "method4"})  # checked before the totals
    out.append({**limit_cases[1], "epsilon": 0.5})  # the totals before the epsilon rule
    # corpus sums: m_1 = 0 overall, empty hypotheses, c = 0, r = 0
    for hyps, refs in [
        ([[], []], [[[]], [["a"]]]),
        ([["a"], []], [[[]], [[]]]),
        ([["a"], ["b"]], [[["c"]], [["d"]]]),
        ([["a", "b"], ["b"]], [[["a", "x"]], [["b"]]]),
        ([["a"] * 9, ["a"]], [[["a"] * 2, ["a"] * 3], [["a"]]]),
        ([["a", "b", "c", "d", "e"]] * 4, [[["a", "b", "c", "d", "e"]]] * 4),
    ]:
        for sm in ["none", "method1", "method2", "method3", None]:
            for eo in [False, True]:
                inp = {"hypotheses": hyps, "references": refs, "effective_order": eo}
                if sm:
                    inp["smoothing"] = sm
                out.append(inp | ({"max_order": 8} if eo else {}))
    return out


def ngrams_output_size_cases() -> list[dict]:
    """bleu-ngrams-count inputs whose compact result is 999,999, 1,000,000 and 1,000,001 bytes,
    spread over many segments (max_order 1, empty references, distinct tokens)."""

    def size(segs: list[list[str]]) -> int:
        text = json.dumps(unmatched_unigram_result(segs), ensure_ascii=False, separators=(",", ":"))
        return len(text.encode("utf-8"))

    out = []
    for target in (1_000_000, 1_000_001, 999_999):
        per_seg = 200
        tokens = [f"{i:05d}" + "\x01" * 10 for i in range(11_000)]

        def chunks(n: int, tokens: list[str] = tokens, per: int = per_seg) -> list[list[str]]:
            return [tokens[k : min(n, k + per)] for k in range(0, n, per)]

        lo, hi = 1, len(tokens)  # the most tokens whose result still fits: binary search
        while lo < hi:
            mid = (lo + hi + 1) // 2
            lo, hi = (mid, hi) if size(chunks(mid)) <= target else (lo, mid - 1)
        segs = chunks(lo)
        pad = target - size(segs)
        j = len(segs[-1]) - 1
        while pad > 0:
            room = min(pad, 128 - len(segs[-1][j].encode("utf-8")))
            segs[-1][j] += "x" * room
            pad -= room
            j -= 1
        assert size(segs) == target
        out.append(
            {
                "hypotheses": segs,
                "references": [[[]] for _ in segs],
                "max_order": 1,
                "include_ngrams": True,
            }
        )
    return out


def ngrams_count_adversarial() -> list[dict]:
    """Hand-written edge cases for bleu-ngrams-count."""
    ex = NC_EXAMPLE
    out = common_shape_cases(ex, ["hypotheses", "references"])
    out += corpus_shape_cases(ex)
    for key in ["max_order", "include_ngrams"]:
        for bad in WEIRD_VALUES:
            out.append(with_key(ex, key, bad))
    out.append(with_key(with_key(ex, "max_order", 0), "include_ngrams", "x"))
    out.append(with_key(with_key(ex, "max_order", 9), "include_ngrams", 1))
    limit_cases = corpus_limit_cases({})
    out += limit_cases
    out.append({**limit_cases[1], "include_ngrams": "yes"})  # include_ngrams before the totals
    out += ngrams_output_size_cases()
    out.append(  # the largest result without the tables: 4096 segments, 8 orders
        {
            "hypotheses": [["a"] * 10] * 4096,
            "references": [[["a"] * 10]] * 4096,
            "max_order": 8,
        }
    )
    out.append(
        {
            "hypotheses": [["a", "A", "é", "e\u0301", "a"], [], ["😀", "😀"]],
            "references": [[["A", "e\u0301"], ["a", "a"]], [["x"]], [["😀"], []]],
            "max_order": 8,
            "include_ngrams": True,
        }
    )
    return out


def brevity_adversarial() -> list[dict]:
    """Hand-written edge cases for bleu-brevity-penalty."""
    ex = BP_EXAMPLE
    out = common_shape_cases(ex, ["candidate_lengths", "reference_lengths"])
    lengths = [*WEIRD_VALUES, MAX_LENGTH, MAX_LENGTH + 1, float(MAX_LENGTH), 1e9 + 0.5, -0.0]
    for bad in lengths:
        out.append(with_key(ex, "candidate_lengths", [6, bad, 3]))
        out.append(with_key(ex, "reference_lengths", [[8], [6, bad], [2]]))
        out.append(with_key(ex, "reference_lengths", [[8], [6], bad]))
        out.append(with_key(ex, "decimals", bad))
    for key in ["candidate_lengths", "reference_lengths"]:
        for bad in [None, "1", 5, {}, True, [], [1] * 100_001, [[1]] * 100_001, [None] * 100_001]:
            out.append(with_key(ex, key, bad))
    for bad in [[[1] * 9, [1], [1]], [[1] * 8, [], [1]], [[1], [None] * 9, [1]], [[]] * 3]:
        out.append(with_key(ex, "reference_lengths", bad))
    out += [
        with_key(ex, "candidate_lengths", [6, 6]),
        with_key(ex, "candidate_lengths", [6, 6, 3, 1]),
        with_key(with_key(ex, "candidate_lengths", [6, 6]), "decimals", 16),
        with_key(with_key(ex, "candidate_lengths", [6, -1]), "reference_lengths", None),
        with_key(with_key(ex, "candidate_lengths", [MAX_LENGTH + 1, -1]), "decimals", 99),
        with_key(ex, "reference_lengths", [[MAX_LENGTH + 1, -1], [1], [1]]),
        with_key(ex, "reference_lengths", [[1] * 9, None, [1]]),
        with_key(ex, "reference_lengths", [[-1] * 9, [1], [1]]),
    ]
    # closest lengths, ties to the shorter one; c = 0, r = 0, c = r, c > r
    for c, refs in [
        (5, [4, 6]),
        (5, [6, 4]),
        (5, [5]),
        (5, [0]),
        (0, [0]),
        (0, [3]),
        (5, [3, 7]),
        (5, [7, 3, 7, 3]),
        (5, [10, 0]),
        (0, [0, 1]),
        (1, [0, 2]),
        (MAX_LENGTH, [0, MAX_LENGTH]),
        (0, [MAX_LENGTH]),
        (MAX_LENGTH - 1, [MAX_LENGTH]),
        (1, [MAX_LENGTH]),
        (MAX_LENGTH, [MAX_LENGTH - 1, MAX_LENGTH + 0]),
        (2, [1, 3, 3, 1, 2, 2, 4, 0]),
    ]:
        for d in [None, 0, 3, 15]:
            inp: dict[str, Any] = {"candidate_lengths": [c], "reference_lengths": [refs]}
            if d is not None:
                inp["decimals"] = d
            out.append(inp)
    n = 100_000
    out += [  # sums up to 10^14, 100000 segments and 8 references
        {"candidate_lengths": [MAX_LENGTH] * n, "reference_lengths": [[MAX_LENGTH]] * n},
        {
            "candidate_lengths": [MAX_LENGTH - 1] * 999,
            "reference_lengths": [[MAX_LENGTH] * 8] * 999,
        },
        {"candidate_lengths": [MAX_LENGTH - 7] * 99, "reference_lengths": [[0, MAX_LENGTH]] * 99},
        {"candidate_lengths": [1] * n, "reference_lengths": [[1]] * (n + 1)},
        {"candidate_lengths": [1] * (n + 1), "reference_lengths": None},
    ]
    return out


def bleu_tools_wmt_cases(rng: random.Random, count: int) -> list[Case]:
    """The four tools on whitespace-split real WMT lines (other systems as extra references)."""
    cases = []
    for k, name, refs, syss in wmt_draws(rng, count):
        n_lines = min(len(f) for f in refs + syss)
        split = wmt_splitter(rng, name)
        start = rng.randrange(n_lines)
        size = rng.choice([1, 2, 5, 10, 30, 100, 300])
        hyp_file = rng.choice(syss)
        ref_files = list(refs)
        if rng.random() < 0.3:  # other systems' outputs as extra references
            others = [s for s in syss if s is not hyp_file]
            ref_files += others[: rng.randint(0, 8 - len(ref_files))]
        ref_files = ref_files[:8]
        idx = range(start, min(n_lines, start + size))
        hyps = [split(hyp_file[i]) for i in idx]
        seg_refs = [[split(f[i]) for f in ref_files] for i in idx]
        tool = BLEU_TOOLS[k % 4]
        if tool == SC:
            inp: dict[str, Any] = {"hypothesis": hyps[0], "references": seg_refs[0]}
            inp = rand_score_options(rng, inp, smoothing_required=True)
        elif tool == CB:
            inp = rand_score_options(rng, {"hypotheses": hyps, "references": seg_refs}, False)
        elif tool == NC:
            inp = {"hypotheses": hyps, "references": seg_refs}
            if rng.random() < 0.5:
                inp["max_order"] = rng.randint(1, 8)
            if rng.random() < 0.3:
                inp["include_ngrams"] = True
        else:
            inp = {
                "candidate_lengths": [len(h) for h in hyps],
                "reference_lengths": [[len(r) for r in seg] for seg in seg_refs],
            }
            if rng.random() < 0.4:
                inp["decimals"] = rng.randint(0, 15)
        cases.append(Case(tool, V, inp, "wmt"))
    return cases


def shrink_for_mutation(inp: dict) -> dict:
    """A small copy of a corpus input, so that random mutations stay cheap."""
    out = dict(inp)
    for key in ("hypotheses", "references", "candidate_lengths", "reference_lengths"):
        if key in out:
            out[key] = out[key][:4]
    if "hypothesis" in out:
        out["hypothesis"] = out["hypothesis"][:8]
        out["references"] = [r[:8] for r in out["references"][:3]]
    return out


def build_bleu_tools_cases() -> list[Case]:
    """Every input of the four BLEU tools (seeded)."""
    rng = random.Random(SEED + 2)
    cases: list[Case] = []
    makers = {SC: rand_bleu_sentence, CB: rand_bleu_corpus, NC: rand_ngrams_count, BP: rand_brevity}
    shares = {SC: 0.12, CB: 0.07, NC: 0.05, BP: 0.08}
    adversarial = {
        SC: bleu_sentence_adversarial,
        CB: bleu_corpus_adversarial,
        NC: ngrams_count_adversarial,
        BP: brevity_adversarial,
    }
    for tool, maker in makers.items():
        n = max(1, int(TOTAL * shares[tool]))
        cases += [Case(tool, V, maker(rng), "random") for _ in range(n)]
        cases += [Case(tool, V, inp, "adversarial") for inp in adversarial[tool]()]
        examples = [ex["input"] for ex in contract_examples(tool)]
        for k in range(max(1, n // 2)):
            inp = deep_copy(rng.choice(examples)) if k % 3 == 0 else shrink_for_mutation(maker(rng))
            inp = mutated(rng, inp)
            cases.append(Case(tool, V, inp, "mutation"))
        cases += [Case(tool, V, inp, "example") for inp in examples]
    cases += bleu_tools_wmt_cases(rng, max(4, TOTAL // 20))
    return cases


@pytest.fixture(scope="module")
def bleu_tools_run() -> list[tuple[Case, str]]:
    """The four BLEU tools' cases with the reference's envelope for each (one Node run)."""
    return reference_run(build_bleu_tools_cases())


def test_reference_reproduces_bleu_tools_examples(bleu_tools_run):
    """The reference gives each example of the four contracts byte for byte."""
    assert_reproduces_examples(bleu_tools_run, BLEU_TOOLS)


@pytest.mark.parametrize("tool", BLEU_TOOLS)
def test_bleu_tools_random_agreement(bleu_tools_run, tool):
    """Random valid inputs and the contract examples give byte-identical envelopes."""
    assert_agree(select(bleu_tools_run, tool, "random", "example"))


@pytest.mark.parametrize("tool", BLEU_TOOLS)
def test_bleu_tools_adversarial_agreement(bleu_tools_run, tool):
    """Edge-case, limit and mutated inputs: the same result, or the same error code and path."""
    assert_agree(select(bleu_tools_run, tool, "adversarial", "mutation"))


@pytest.mark.parametrize("tool", BLEU_TOOLS)
def test_bleu_tools_wmt_agreement(bleu_tools_run, tool):
    """Whitespace-split real WMT lines agree byte for byte."""
    assert_agree(select(bleu_tools_run, tool, "wmt"))
