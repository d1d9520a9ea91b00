"""Reference agreement, the seed BLEU tools: bleu-smoothing-compute and
bleu-sentence-components @1.0.0 against the JavaScript reference (tests/reference/), which
implements them straight from the specification.

Inputs, from a seeded ``random.Random``: random valid inputs, hand-written edge cases and random
near-valid mutations, sentence statistics of whitespace-split real WMT lines, the contract
examples under unknown tool ids and versions, integer literals beyond the double range; and the
stored JavaScript vectors of bleu-smoothing-compute. How the envelopes are compared:
:mod:`tests.reference.runner`.
"""

from __future__ import annotations

import gzip
import json
import math
import random
from typing import Any

import pytest

import mtcompute
from tests.reference.inputs import (
    INF,
    MAX_COUNT,
    WEIRD_VALUES,
    common_shape_cases,
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
    REPO,
    SEED,
    TOTAL,
    Case,
    V,
    assert_agree,
    assert_reproduces_examples,
    example_and_not_found_cases,
    reference_run,
    select,
    to_js_json,
)

BS = "bleu-smoothing-compute"
BC = "bleu-sentence-components"
VECTORS_DIR = REPO / "tests" / "data" / "js"


# ---------------------------------------------------------------------------------------
# Random valid inputs
# ---------------------------------------------------------------------------------------


def rand_length(rng: random.Random) -> int:
    """A count or length from 0 to 10^12, small and huge values both common."""
    return rand_size(rng, MAX_COUNT)


def rand_bleu_smoothing(rng: random.Random) -> dict:
    """A random valid bleu-smoothing-compute input."""
    n_orders = rng.randint(1, 8)
    c = rand_length(rng)
    r_kind = rng.randrange(6)
    r = [
        c,
        0,
        min(MAX_COUNT, c + rng.randint(0, 10)),
        max(0, c - rng.randint(0, 10)),
        rand_length(rng),
        rand_length(rng),
    ][r_kind]
    t_kind = rng.randrange(4)
    segments = rng.randint(1, 1000)
    totals = []
    for n in range(n_orders):
        if t_kind == 0:
            totals.append(max(0, c - n))
        elif t_kind == 1:
            totals.append(max(0, c - segments * n))
        elif t_kind == 2:
            totals.append(rand_length(rng))
        else:
            totals.append(0 if rng.random() < 0.2 else rand_length(rng))
    all_zero = rng.random() < 0.08
    zero_rate = rng.choice([0, 0.1, 0.3, 0.6])
    matches = []
    for n, total in enumerate(totals):
        if all_zero or total == 0 or (n > 0 and rng.random() < zero_rate):
            matches.append(0)
            continue
        kind = rng.randrange(4)
        if kind == 0:
            matches.append(total)
        elif kind == 1:
            matches.append(rng.randint(0, total))
        elif kind == 2:
            matches.append(int(total * 0.7 ** (n + rng.random())))
        else:
            matches.append(min(total, int(math.exp(rng.random() * math.log(total + 1)))))
    if matches[0] == 0:
        matches = [0] * n_orders
    smoothing = rng.choice(["none", "method1", "method2", "method3"])
    inp: dict[str, Any] = {
        "matches": matches,
        "totals": totals,
        "candidate_length": c,
        "reference_length": r,
        "smoothing": smoothing,
    }
    if smoothing == "method1" and rng.random() < 0.6:
        inp["epsilon"] = rand_epsilon(rng)
    maybe_flag(rng, inp, "effective_order")
    if rng.random() < 0.35:
        inp["decimals"] = rng.randint(0, 15)
    if rng.random() < 0.1:  # integral floats are valid integers (4.0 is 4)
        inp["matches"] = [float(x) for x in matches]
        inp["totals"] = [float(x) for x in totals]
        inp["candidate_length"] = float(c)
        if "decimals" in inp:
            inp["decimals"] = float(inp["decimals"])
    if rng.random() < 0.1:
        keys = list(inp)
        rng.shuffle(keys)
        inp = {k: inp[k] for k in keys}
    return inp


# ---------------------------------------------------------------------------------------
# Adversarial and near-valid inputs
# ---------------------------------------------------------------------------------------


BS_EXAMPLE = {
    "matches": [9, 7, 5, 3],
    "totals": [10, 8, 6, 4],
    "candidate_length": 11,
    "reference_length": 11,
    "smoothing": "none",
    "decimals": 10,
}


BC_EXAMPLE = {
    "hypothesis": ["am", "I", "am", "a", "character", "sequence"],
    "references": [["I", "am", "a", "symbol", "string", "sequence", "a", "a"]],
}


def bleu_smoothing_adversarial() -> list[dict]:
    """Hand-written edge cases for bleu-smoothing-compute."""
    ex = BS_EXAMPLE
    req = ["matches", "totals", "candidate_length", "reference_length", "smoothing"]
    out = common_shape_cases(ex, req)
    for key in ["matches", "totals"]:
        for bad in [None, "1", 5, {}, True, [], [1] * 9, ["x"] * 9, [0] * 8, list(range(9))]:
            out.append(with_key(ex, key, bad))
        for bad in WEIRD_VALUES:
            for pos in (0, 3):
                arr = list(ex[key])
                arr[pos] = bad
                out.append(with_key(ex, key, arr))
        out.append(with_key(ex, key, [-1, None, 2, 3]))
        out.append(with_key(ex, key, [MAX_COUNT + 1, -1, 2, 3]))
    for key in ["candidate_length", "reference_length"]:
        for bad in WEIRD_VALUES:
            out.append(with_key(ex, key, bad))
    for bad in [
        "method4",
        "method5",
        "method6",
        "method7",
        "method8",
        "method0",
        "METHOD1",
        "Method1",
        "",
        " none",
        "none ",
        None,
        1,
        True,
        [],
        {},
        ["none"],
        "\ud800",
    ]:
        out.append(with_key(ex, "smoothing", bad))
    m1 = with_key(without(ex, "decimals"), "smoothing", "method1")
    for eps in [
        0,
        1,
        -0.0,
        0.0,
        1.0,
        5e-324,
        1e-300,
        0.1,
        -1e-300,
        -1,
        1.0000000000000002,
        2,
        True,
        False,
        None,
        "0.1",
        [],
        INF,
        -INF,
        0.30000000000000004,
    ]:
        out.append(with_key(m1, "epsilon", eps))
        out.append(with_key(with_key(m1, "matches", [9, 0, 5, 0]), "epsilon", eps))
        out.append(with_key(with_key(m1, "matches", [0, 0, 0, 0]), "epsilon", eps))
    for sm in ["none", "method2", "method3", "method4"]:
        out.append(with_key(with_key(ex, "smoothing", sm), "epsilon", 0.1))
        out.append(with_key(with_key(ex, "smoothing", sm), "epsilon", "x"))
    for eo in [True, False, 1, 0, None, "true", []]:
        out.append(with_key(ex, "effective_order", eo))
    for d in [0, 1, 14, 15, 16, -1, 4.0, 4.5, True, None, "4", INF, 1e300, -0.0]:
        out.append(with_key(ex, "decimals", d))
    # cross-field rules and their order
    out += [
        with_key(ex, "totals", [10, 8, 6]),
        with_key(with_key(ex, "totals", [10, 8, 6]), "matches", [11, 9, 7, 5]),
        with_key(ex, "totals", [10, 8, 6, 4, 2]),
        with_key(ex, "matches", [11, 7, 5, 3]),
        with_key(ex, "matches", [9, 7, 5, 5]),
        with_key(ex, "matches", [0, 0, 7, 3]),
        with_key(ex, "matches", [0, 9, 7, 3]),
        with_key(ex, "matches", [0, 0, 0, 1]),
        with_key(ex, "matches", [-0.0, 0, 0, 0]),
        with_key(ex, "matches", [0, 0, 0, 0]),
        with_key(with_key(ex, "matches", [0, 9, 7, 3]), "totals", [10, 8, 6, 2]),
        with_key(with_key(ex, "matches", [0, 0, 7, 3]), "epsilon", 0.1),
        with_key(with_key(ex, "totals", [10, 8, 6]), "decimals", 16),
        with_key(with_key(ex, "matches", [11, 7, 5, 3]), "smoothing", "method4"),
        with_key(with_key(ex, "matches", [11, 7, 5, 3]), "totals", "x"),
    ]
    # arithmetic edges: zero lengths, huge lengths, zero totals, every smoothing and effective order
    for sm in ["none", "method1", "method2", "method3"]:
        for eo in [None, True, False]:
            for matches, totals, c, r in [
                ([9, 7, 5, 3], [10, 8, 6, 4], 11, 11),
                ([9, 7, 5, 3], [10, 8, 6, 4], 0, 0),
                ([9, 7, 5, 3], [10, 8, 6, 4], 11, 0),
                ([9, 7, 5, 3], [10, 8, 6, 4], 1, MAX_COUNT),
                ([9, 7, 5, 3], [10, 8, 6, 4], MAX_COUNT, MAX_COUNT - 1),
                ([9, 7, 5, 3], [10, 8, 6, 4], MAX_COUNT - 1, MAX_COUNT),
                ([3, 0, 0, 0], [3, 2, 1, 0], 3, 5),
                ([3, 2, 0, 0, 0, 0, 0, 0], [3, 2, 1, 0, 0, 0, 0, 0], 3, 3),
                ([1], [1], 1, 1),
                ([0], [0], 0, 0),
                ([0, 0], [0, 0], 5, 5),
                ([5, 0, 3, 0, 1, 0, 0, 0], [9, 8, 7, 6, 5, 4, 3, 2], 9, 12),
                ([MAX_COUNT] * 8, [MAX_COUNT] * 8, MAX_COUNT, MAX_COUNT),
                ([1] * 8, [MAX_COUNT] * 8, MAX_COUNT, 1),
                ([1, 0, 1, 0], [MAX_COUNT, 1, MAX_COUNT, 0], 7, 9),
                ([2, 1, 0, 0], [2, 1, 0, 0], 2, 4),
            ]:
                inp = {
                    "matches": matches,
                    "totals": totals,
                    "candidate_length": c,
                    "reference_length": r,
                    "smoothing": sm,
                }
                if eo is not None:
                    inp["effective_order"] = eo
                out.append(inp)
                out.append(with_key(inp, "decimals", 15))
                out.append(with_key(inp, "decimals", 0))
    return out


def bleu_components_adversarial() -> list[dict]:
    """Hand-written edge cases for bleu-sentence-components."""
    ex = BC_EXAMPLE
    out = common_shape_cases(ex, ["hypothesis", "references"])
    tokens = [
        None,
        1,
        1.0,
        True,
        [],
        {},
        "",
        "\ud800",
        "a\udc00",
        "\udc00\ud800",
        "\ud83d\ude00",
        "😀",
        " ",
        "\t",
        "\x00",
        "\x01",
        "\x7f",
        "\u2028",
        '"',
        "\\",
        "a" * 128,
        "a" * 129,
        "é" * 64,
        "é" * 64 + "a",
        "😀" * 32,
        "😀" * 32 + "a",
        "€" * 42 + "ab",
        "€" * 43,
        "日" * 42 + "ab",
        "\ud800" * 129,
        "x" * 1000,
    ]
    for tok in tokens:
        out.append(with_key(ex, "hypothesis", ["am", tok, "a"]))
        out.append(with_key(ex, "references", [["I", "am", tok]]))
        out.append(with_key(ex, "references", [["I"], ["am", tok], tok]))
    for bad in [None, "a b", {}, 1, True, [[]], [["a"]]]:
        out.append(with_key(ex, "hypothesis", bad))
    out += [
        with_key(ex, "hypothesis", ["", "\ud800"]),
        with_key(ex, "hypothesis", ["a" * 129, ""]),
        with_key(ex, "hypothesis", [1, "a" * 200]),
        with_key(ex, "hypothesis", []),
        with_key(with_key(ex, "hypothesis", ["", "a"]), "references", None),
        with_key(with_key(ex, "hypothesis", ["a"]), "references", [["a"]] * 9),
    ]
    for bad in [
        None,
        "a",
        [],
        {},
        1,
        ["a"],
        [None],
        [[1]],
        [[""]],
        [["a"], "b"],
        [["a"]] * 9,
        [["a"]] * 8,
        [[]] * 8,
        [[], []],
        [[], ["a"]],
        [["x"] * 9] * 9,
        [[1]] * 9,
        [None] * 9,
        [["a"], ["a", "\ud800"]],
    ]:
        out.append(with_key(ex, "references", bad))
    for mo in [0, 1, 4, 8, 9, -1, 4.0, 4.5, 8.0, 1e300, True, False, None, "4", [], INF]:
        out.append(with_key(ex, "max_order", mo))
        out.append(with_key(with_key(ex, "max_order", mo), "include_ngrams", "x"))
    for inc in [True, False, 1, 0, None, "true"]:
        out.append(with_key(ex, "include_ngrams", inc))
    # closest reference length: ties go to the shorter one
    hyp = ["a", "b", "c", "d", "e"]
    for lens in [
        [4, 6],
        [6, 4],
        [5],
        [0],
        [3, 7],
        [7, 3],
        [10, 0],
        [0, 10],
        [5, 5, 4, 6],
        [2, 8, 8, 2],
    ]:
        out.append({"hypothesis": hyp, "references": [["a"] * n for n in lens]})
    out.append({"hypothesis": [], "references": [[]], "max_order": 8, "include_ngrams": True})
    out.append({"hypothesis": [], "references": [["a", "b"]], "include_ngrams": True})
    out.append(
        {
            "hypothesis": ["a"] * 12,
            "references": [["a"] * 3, ["a"] * 7],
            "max_order": 8,
            "include_ngrams": True,
        }
    )
    out.append(
        {
            "hypothesis": ["a", "A", "é", "e\u0301", "\u00e9"],
            "references": [["A", "e\u0301"]],
            "include_ngrams": True,
        }
    )
    # token count and byte limits, and their order after max_order / include_ngrams
    out.append({"hypothesis": ["a"] * 5000, "references": [["a"] * 5000]})
    out.append({"hypothesis": ["a"] * 5000, "references": [["a"] * 5001]})
    out.append({"hypothesis": ["a"] * 5000, "references": [["a"] * 2500] * 2 + [[]] * 6})
    out.append({"hypothesis": ["a"] * 5000, "references": [["a"] * 2500] * 2 + [["b"]]})
    out.append({"hypothesis": ["a"] * 5000, "references": [["a"] * 5001], "max_order": 9})
    out.append({"hypothesis": ["a"] * 5000, "references": [["a"] * 5001], "include_ngrams": 1})
    big = "b" * 128
    out.append({"hypothesis": [big] * 1024, "references": [[big] * 1024]})  # exactly 262144 bytes
    out.append(
        {"hypothesis": [big] * 1024, "references": [[big] * 1023 + [big[:-1]], ["c"]]}
    )  # 262144
    out.append({"hypothesis": [big] * 1024, "references": [[big] * 1024, ["c"]]})  # 262145
    out.append({"hypothesis": [big] * 1024, "references": [[big] * 1024, ["c"]], "max_order": 0})
    out.append({"hypothesis": ["é" * 64] * 1024, "references": [["é" * 64] * 1024, ["x"]]})
    out.append({"hypothesis": ["a"] * 10001, "references": [["b" * 128] * 3000]})
    out += output_size_edge_cases()
    return out


def output_size_edge_cases() -> list[dict]:
    """Inputs whose compact result JSON is exactly 1,000,000 and 1,000,001 UTF-8 bytes.

    max_order 1, one empty reference, distinct hypothesis tokens: the result is known in
    advance, so its size can be measured here. Each token holds ten U+0001 characters (one
    UTF-8 byte each in the input, six bytes each as \\u0001 in the output), so the output
    limit is reached below the token limits; the last token is padded to hit the size."""

    def result_size(tokens: list[str]) -> int:
        result = {
            "candidate_length": len(tokens),
            "reference_length": 0,
            "max_order": 1,
            "matches": [0],
            "totals": [len(tokens)],
            "ngrams": [
                {"order": 1, "ngram": [t], "count": 1, "max_reference_count": 0, "clipped_count": 0}
                for t in tokens
            ],
        }
        return len(json.dumps(result, ensure_ascii=False, separators=(",", ":")).encode("utf-8"))

    out = []
    for target in (1_000_000, 1_000_001, 999_999):
        n = 1000
        tokens = [f"{i:05d}" + "\x01" * 10 for i in range(n)]
        per_token = result_size(tokens[:2]) - result_size(tokens[:1])
        n = (target - result_size(tokens[:1])) // per_token  # about the right count
        tokens = [f"{i:05d}" + "\x01" * 10 for i in range(n)]
        while result_size(tokens) > target:
            tokens.pop()
        pad = target - result_size(tokens)
        j = len(tokens) - 1
        while pad > 0:  # spread the padding over the last tokens, at most 128 bytes each
            room = min(pad, 128 - len(tokens[j].encode("utf-8")))
            tokens[j] += "x" * room
            pad -= room
            j -= 1
        assert result_size(tokens) == target
        out.append(
            {"hypothesis": tokens, "references": [[]], "max_order": 1, "include_ngrams": True}
        )
    return out


# ---------------------------------------------------------------------------------------
# Real WMT segments
# ---------------------------------------------------------------------------------------


def wmt_cases(rng: random.Random, count: int) -> list[Case]:
    """Sentence BLEU statistics on whitespace-split real lines."""
    cases = []
    for _, name, refs, syss in wmt_draws(rng, count):
        i = rng.randrange(min(len(f) for f in refs + syss))
        split = wmt_splitter(rng, name)
        inp = {
            "hypothesis": split(rng.choice(syss)[i]),
            "references": [split(r[i]) for r in refs],
        }
        if rng.random() < 0.5:
            inp["max_order"] = rng.randint(1, 8)
        if rng.random() < 0.3:
            inp["include_ngrams"] = True
        cases.append(Case(BC, V, inp, "wmt"))
    return cases


# ---------------------------------------------------------------------------------------
# Every case, the reference run once, the tests
# ---------------------------------------------------------------------------------------


def build_cases() -> list[Case]:
    """Every input of this module, in a fixed order (seeded)."""
    rng = random.Random(SEED)
    cases: list[Case] = []
    makers = {BS: rand_bleu_smoothing, BC: rand_bleu_components}
    shares = {BS: 0.4, BC: 0.3}
    for tool, maker in makers.items():
        for _ in range(max(1, int(TOTAL * shares[tool]))):
            cases.append(Case(tool, V, maker(rng), "random"))
    for tool, examples in (
        (BS, bleu_smoothing_adversarial()),
        (BC, bleu_components_adversarial()),
    ):
        cases += [Case(tool, V, inp, "adversarial") for inp in examples]
    for tool, maker in makers.items():
        for _ in range(max(1, int(TOTAL * shares[tool] / 2))):
            inp = maker(rng)
            if tool == BC:  # keep mutated inputs small
                inp["hypothesis"] = inp["hypothesis"][:8]
                inp["references"] = [r[:8] for r in inp["references"][:3]]
            inp = mutated(rng, inp)
            cases.append(Case(tool, V, inp, "mutation"))
    cases += wmt_cases(rng, max(1, TOTAL // 10))
    cases += example_and_not_found_cases([(BS, BS_EXAMPLE), (BC, BC_EXAMPLE)])
    return cases


@pytest.fixture(scope="module")
def agreement_run() -> list[tuple[Case, str]]:
    """All cases with the reference's envelope text for each (one Node run)."""
    return reference_run(build_cases())


def test_reference_reproduces_contract_examples(agreement_run):
    """The JavaScript reference gives each contract example's documented output byte for byte."""
    bs_output = (
        '{"result":{"bleu":0.8375922397,"brevity_penalty":1,"orders_used":4,'
        '"smoothed_matches":[9,7,5,3],"smoothed_totals":[10,8,6,4]}}'
    )
    bc_output = (
        '{"result":{"candidate_length":6,"reference_length":8,"max_order":4,'
        '"matches":[4,2,1,0],"totals":[6,5,4,3]}}'
    )
    assert [bs_output, bc_output] == [text for _, text in select(agreement_run, None, "example")]
    assert_reproduces_examples(agreement_run, (BS, BC))


def test_bleu_smoothing_random_agreement(agreement_run):
    """Random valid bleu-smoothing-compute inputs give byte-identical envelopes."""
    assert_agree(select(agreement_run, BS, "random"))


def test_bleu_components_random_agreement(agreement_run):
    """Random valid bleu-sentence-components inputs give byte-identical envelopes."""
    assert_agree(select(agreement_run, BC, "random"))


def test_bleu_smoothing_adversarial_agreement(agreement_run):
    """Edge-case and mutated bleu-smoothing-compute inputs get the same result or code and path."""
    assert_agree(select(agreement_run, BS, "adversarial", "mutation"))


def test_bleu_components_adversarial_agreement(agreement_run):
    """Edge-case and mutated bleu-sentence-components inputs: same result, or same code and path."""
    assert_agree(select(agreement_run, BC, "adversarial", "mutation"))


def test_examples_and_not_found_agreement(agreement_run):
    """The contract examples agree, and unknown tools or versions are not_found on both sides."""
    assert_agree(select(agreement_run, None, "example", "not_found"))


def test_wmt_bleu_components_agreement(agreement_run):
    """Sentence BLEU statistics of whitespace-split real WMT lines agree byte for byte."""
    assert_agree(select(agreement_run, BC, "wmt"))


def test_huge_integer_literals_agreement():
    """Integer literals beyond the double range (JSON.parse gives Infinity) get the same error."""
    ex = BS_EXAMPLE
    huge = [10**309, 10**400, -(10**400)]
    inputs = [(BS, with_key(ex, "candidate_length", h)) for h in huge]
    inputs += [(BS, with_key(ex, "matches", [h, 7, 5, 3])) for h in huge]
    inputs += [(BS, with_key(ex, "decimals", h)) for h in huge]
    inputs += [(BC, with_key(BC_EXAMPLE, "max_order", h)) for h in huge]
    cases = [Case(tool, V, inp, "huge_integer") for tool, inp in inputs]
    assert_agree(reference_run(cases))


def test_bleu_smoothing_vectors_reproduce():
    """Python reproduces every stored JavaScript bleu-smoothing-compute vector byte for byte."""
    plain = VECTORS_DIR / "bleu_smoothing_vectors.jsonl"
    packed = VECTORS_DIR / "bleu_smoothing_vectors.jsonl.gz"
    if plain.exists():
        text = plain.read_text(encoding="utf-8")
    elif packed.exists():
        text = gzip.decompress(packed.read_bytes()).decode("utf-8")
    else:
        pytest.fail(
            f"missing {plain} (generate it: node tests/reference/generate_bleu_vectors.mjs)"
        )
    rows = [json.loads(line) for line in text.splitlines() if line.strip()]
    assert len(rows) >= 5000
    bad = []
    for row in rows:
        got = mtcompute.dumps(mtcompute.execute(BS, V, row["input"]))
        if got != row["output_text"]:
            bad.append(
                f"input:  {to_js_json(row['input'])}\n"
                f"  vector: {row['output_text']}\n  python: {got}"
            )
    if bad:
        pytest.fail(
            f"{len(bad)} of {len(rows)} vectors differ:\n" + "\n".join(bad[:6]), pytrace=False
        )
