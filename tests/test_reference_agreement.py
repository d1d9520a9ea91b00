"""Differential tests: the Python mtcompute against an independent JavaScript reference.

tests/reference/mtcompute_ref.mjs implements the three seed contracts (bleu-smoothing-compute,
bleu-sentence-components, chrf-compute @1.0.0) straight from the specification, in the
runtime the contracts name (JavaScript), and chrf-plus-plus-compute and chrf-components
@1.0.0 from their issue's rules (written before their Python implementation; last section).
Every input built here is run through both; they must agree:

* on a result, the whole envelope as JSON text, byte for byte;
* on an error, the ``code`` and the ``path`` (messages are free text).

Inputs come from a seeded ``random.Random``: (a) random valid inputs, (b) adversarial and
near-valid inputs (hand-written edge cases plus random mutations of valid inputs), and
(c) real WMT segments from ../shared/data/wmt. The reference runs once, over all of them.
``MTCOMPUTE_AGREE_COUNT`` scales the number of random inputs (default 3000) and
``MTCOMPUTE_AGREE_SEED`` changes the seed.
Node.js is required: without ``node`` on PATH these tests fail (CI installs it).
"""

from __future__ import annotations

import gzip
import itertools
import json
import math
import os
import random
import shutil
import subprocess
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[1]
REFERENCE_SCRIPT = "tests/reference/mtcompute_ref.mjs"
CONTRACTS_DIR = REPO / "src" / "mtcompute" / "contracts" / "data"
VECTORS_DIR = REPO / "tests" / "data" / "js"
WMT_DIR = Path(__file__).resolve().parents[2] / "shared" / "data" / "wmt"

TOTAL = int(os.environ.get("MTCOMPUTE_AGREE_COUNT", "3000"))
SEED = int(os.environ.get("MTCOMPUTE_AGREE_SEED", "20250611"))

BS = "bleu-smoothing-compute"
BC = "bleu-sentence-components"
CF = "chrf-compute"
V = "1.0.0"
MAX_COUNT = 10**12
INF = float("inf")


@dataclass
class Case:
    """One request: tool id, version, the Python input, and the group it belongs to."""

    tool: str
    version: str
    input: Any
    group: str


# ---------------------------------------------------------------------------------------
# JSON for the reference
# ---------------------------------------------------------------------------------------


def to_js_json(value: Any) -> str:
    """JSON text for Node: ASCII only (lone surrogates as \\ud800 escapes), dict order kept,
    and +-inf written as 1e400 / -1e400 (which JSON.parse reads as +-Infinity, as Python's
    json.loads reads them as inf)."""
    if isinstance(value, dict):
        return "{" + ",".join(json.dumps(k) + ":" + to_js_json(v) for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ",".join(to_js_json(v) for v in value) + "]"
    if isinstance(value, float) and math.isinf(value):
        return "1e400" if value > 0 else "-1e400"
    if isinstance(value, float) and math.isnan(value):
        raise ValueError("NaN has no JSON form")
    return json.dumps(value)


def run_reference(cases: list[Case]) -> list[str]:
    """Run the JavaScript reference once over all cases; one envelope text per case."""
    node = shutil.which("node")
    if node is None:
        pytest.fail(
            "node (Node.js) is not on PATH: the reference-agreement tests need it to run "
            f"{REFERENCE_SCRIPT}; install Node.js 20 or later"
        )
    lines = [
        f'{{"id":{json.dumps(c.tool)},"version":{json.dumps(c.version)},'
        f'"input":{to_js_json(c.input)}}}'
        for c in cases
    ]
    proc = subprocess.run(
        [node, REFERENCE_SCRIPT],
        input=("\n".join(lines) + "\n").encode("ascii"),
        capture_output=True,
        cwd=REPO,
        timeout=600,
        check=False,
    )
    assert proc.returncode == 0, (
        f"the reference failed (exit {proc.returncode}): {proc.stderr.decode()[-2000:]}"
    )
    out = proc.stdout.decode("utf-8").split("\n")
    if out and out[-1] == "":
        out.pop()
    assert len(out) == len(cases), f"the reference wrote {len(out)} lines for {len(cases)} inputs"
    return out


# ---------------------------------------------------------------------------------------
# Random valid inputs
# ---------------------------------------------------------------------------------------


def rand_length(rng: random.Random) -> int:
    """A count or length from 0 to 10^12, small and huge values both common."""
    kind = rng.randrange(6)
    if kind == 0:
        return rng.randint(0, 5)
    if kind == 1:
        return rng.randint(0, 60)
    if kind == 2:
        return rng.randint(0, 100_000)
    if kind == 3:
        return min(MAX_COUNT, int(math.exp(rng.random() * math.log(MAX_COUNT + 1))))
    if kind == 4:
        return MAX_COUNT - rng.randint(0, 3)
    return rng.randint(0, MAX_COUNT)


def rand_epsilon(rng: random.Random) -> float:
    """An epsilon in [0, 1], including the edges and tiny or subnormal values."""
    return rng.choice(
        [
            rng.random(),
            rng.random(),
            0,
            1,
            0.0,
            1.0,
            0.1,
            0.5,
            1e-7,
            0.000001,
            5e-324,
            2.2250738585072014e-308,
            math.exp(-rng.random() * 700),
            round(rng.random(), rng.randint(1, 4)),
            1 - 2**-53,
        ]
    )


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
    eo = rng.randrange(3)
    if eo:
        inp["effective_order"] = eo == 1
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


TOKEN_POOL = [
    *["the", "a", "cat", "sat", "on", "mat", ".", ",", "The", "dog", "is", "was"],
    *["é", "naïve", "über", "日本", "語", "мир", "שלום", "नमस्ते"],
    *["😀", "𝒜", "𠀀", "e\u0301", "\u00e9", "İ", "ß", "\ufeff", "\u200b"],
    *["a b", "\t", "\u00a0", '"', "\\", "\x01", "\x7f", "\u2028", "<", "&", "'", "\n", "\x00"],
    *["\uffff", "\ufffe", "\U0010ffff", "\ue000", "\x1f", "/", "</script>"],
]


def rand_token(rng: random.Random) -> str:
    """A token: mostly from a small pool (so n-grams match), sometimes long or multi-byte."""
    k = rng.random()
    if k < 0.85:
        return rng.choice(TOKEN_POOL[:20]) if rng.random() < 0.8 else rng.choice(TOKEN_POOL)
    if k < 0.95:
        return "".join(rng.choice(TOKEN_POOL) for _ in range(rng.randint(1, 4)))
    unit = rng.choice(["a", "é", "€", "😀"])
    width = len(unit.encode("utf-8"))
    return unit * rng.randint(1, 128 // width)


def perturb(rng: random.Random, seq: list, make) -> list:
    """A copy of seq with random deletions, insertions, substitutions and swaps."""
    out = list(seq)
    for _ in range(rng.randint(0, 1 + len(out) // 3)):
        op = rng.randrange(4)
        if op == 0 and out:
            del out[rng.randrange(len(out))]
        elif op == 1:
            out.insert(rng.randint(0, len(out)), make())
        elif op == 2 and out:
            out[rng.randrange(len(out))] = make()
        elif op == 3 and len(out) > 1:
            i = rng.randrange(len(out) - 1)
            out[i], out[i + 1] = out[i + 1], out[i]
    return out


def rand_bleu_components(rng: random.Random) -> dict:
    """A random valid bleu-sentence-components input."""
    hyp = [] if rng.random() < 0.05 else [rand_token(rng) for _ in range(rng.randint(1, 25))]
    refs = []
    for _ in range(rng.choice([1, 1, 2, 3, 4, 8, rng.randint(1, 8)])):
        if rng.random() < 0.08:
            refs.append([])
        elif rng.random() < 0.8:
            refs.append(perturb(rng, hyp, lambda: rand_token(rng)))
        else:
            refs.append([rand_token(rng) for _ in range(rng.randint(0, 25))])
    inp: dict[str, Any] = {"hypothesis": hyp, "references": refs}
    if rng.random() < 0.7:
        inp["max_order"] = rng.randint(1, 8) if rng.random() < 0.9 else float(rng.randint(1, 8))
    k = rng.randrange(3)
    if k:
        inp["include_ngrams"] = k == 1
    return inp


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
        inp["beta"] = rng.randint(1, 16) if rng.random() < 0.9 else float(rng.randint(1, 16))
    k = rng.randrange(3)
    if k:
        inp["lowercase"] = k == 1
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

WEIRD_VALUES = [
    None,
    True,
    False,
    0,
    -1,
    1,
    8,
    9,
    15,
    16,
    17,
    4.0,
    4.5,
    -0.0,
    0.5,
    1e-7,
    MAX_COUNT,
    MAX_COUNT + 1,
    float(MAX_COUNT),
    1e12 + 0.5,
    2**53 + 1,
    1e300,
    INF,
    -INF,
    "",
    "a",
    "4",
    "\ud800",
    "\udc00",
    "😀",
    "method1",
    "method4",
    "x" * 129,
    "é" * 65,
    [],
    [1],
    [[]],
    ["a"],
    {},
    {"a": 1},
]


def with_key(d: dict, key: str, value: Any, position: int | None = None) -> dict:
    """A copy of d with key set to value (inserted at position when it is new)."""
    items = [(k, v) for k, v in d.items() if k != key]
    if key in d and position is None:
        return {k: (value if k == key else v) for k, v in d.items()}
    pos = len(items) if position is None else min(position, len(items))
    items.insert(pos, (key, value))
    return dict(items)


def without(d: dict, *keys: str) -> dict:
    """A copy of d without keys."""
    return {k: v for k, v in d.items() if k not in keys}


def common_shape_cases(example: dict, required: list[str]) -> list[dict]:
    """Non-object inputs, unknown keys (with JSON Pointer escapes) and missing keys."""
    out: list[Any] = [None, [], [example], "x", 1, 1.5, True, ""]
    for key in [
        "foo",
        "",
        "a/b",
        "m~n",
        "~1",
        "é",
        "\ud800",
        "__proto__",
        "constructor",
        "1",
        "Matches",
    ]:
        out.append(with_key(example, key, 1))
        out.append(with_key(example, key, 1, position=0))
    out.append(
        with_key(with_key(example, "zz", 1, 0), "1", 2)
    )  # "1" after "zz": input order decides
    out.append(with_key(with_key(example, "b", 1), "a", 2))
    for key in required:
        out.append(without(example, key))
    out.append(without(example, *required))
    out.append({})
    for key in required:  # unknown key and missing key together: unknown is reported first
        out.append(with_key(without(example, key), "zzz", 1))
    return out


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


def random_mutation(rng: random.Random, inp: Any) -> Any:
    """A copy of inp with one near-valid fault: a value changed, removed, added or corrupted."""
    inp = _deep_copy(inp)
    paths: list[tuple] = [()]

    def walk(node: Any, path: tuple) -> None:
        if isinstance(node, dict):
            for k, v in node.items():
                paths.append((*path, k))
                walk(v, (*path, k))
        elif isinstance(node, list):
            for i, v in enumerate(node):
                paths.append((*path, i))
                walk(v, (*path, i))

    walk(inp, ())
    path = rng.choice(paths)
    parent = None
    node = inp
    for p in path:
        parent, node = node, node[p]
    op = rng.randrange(7)

    def replace(value: Any) -> Any:
        if not path:
            return value
        parent[path[-1]] = value
        return inp

    if op == 0:
        return replace(rng.choice(WEIRD_VALUES))
    if op == 1 and path:
        del parent[path[-1]]
        return inp
    if op == 2 and isinstance(node, list):
        node.insert(rng.randint(0, len(node)), rng.choice(WEIRD_VALUES))
        return inp
    if op == 3 and isinstance(inp, dict):
        key = rng.choice(
            ["extra", "1", "", "a/b", "~", "beta", "matches", "references", "epsilon", "decimals"]
        )
        if key in inp:
            key = key + "_"
        return with_key(inp, key, rng.choice(WEIRD_VALUES), rng.randint(0, len(inp)))
    if op == 4 and isinstance(node, list) and node:
        target = rng.choice([9, 257, len(node) + 1, 0])
        grown = [node[i % len(node)] for i in range(target)]
        return replace(grown)
    if op == 5 and isinstance(node, str):
        pos = rng.randint(0, len(node))
        extra = rng.choice(["\ud800", "\udc00", "", "x" * 129, "é" * 70, "😀"])
        return replace(node[:pos] + extra + node[pos:] if extra else "")
    if op == 6 and isinstance(node, (int, float)) and not isinstance(node, bool):
        return replace(
            rng.choice(
                [node + 0.5, -node - 1, float(node), node + MAX_COUNT, MAX_COUNT + 1, 0, 17, 9]
            )
        )
    return replace(rng.choice(WEIRD_VALUES))


def _deep_copy(value: Any) -> Any:
    """A deep copy of plain JSON-like data (dicts keep their order)."""
    if isinstance(value, dict):
        return {k: _deep_copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_deep_copy(v) for v in value]
    return value


# ---------------------------------------------------------------------------------------
# Real WMT segments
# ---------------------------------------------------------------------------------------


def read_lines(path: Path) -> list[str]:
    """The segments of one file (split on \\n; no final empty line)."""
    text = path.read_text(encoding="utf-8")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def wmt_pairs() -> list[tuple[str, list[list[str]], list[list[str]]]]:
    """(pair name, reference files' lines, system files' lines) for each WMT pair folder."""
    pairs = []
    for folder in sorted(p for p in WMT_DIR.glob("*/*") if p.is_dir()):
        for suffix in (".txt", ".tok.txt"):
            refs = sorted(
                p
                for p in folder.glob("ref.*" + suffix)
                if (suffix == ".tok.txt") == p.name.endswith(".tok.txt")
            )
            syss = sorted(
                p
                for p in folder.glob("sys.*" + suffix)
                if (suffix == ".tok.txt") == p.name.endswith(".tok.txt")
            )
            if refs and syss:
                pairs.append(
                    (
                        f"{folder.parent.name}/{folder.name}{suffix}",
                        [read_lines(p) for p in refs],
                        [read_lines(p) for p in syss],
                    )
                )
    return pairs


def wmt_cases(rng: random.Random, n_chrf: int, n_bleu: int) -> list[Case]:
    """chrF on chunks of real lines; sentence BLEU statistics on whitespace-split real lines."""
    if not WMT_DIR.is_dir():
        return []
    pairs = wmt_pairs()
    cases = []
    for _ in range(n_chrf):
        name, refs, syss = rng.choice(pairs)
        ref = rng.choice(refs)
        hyp = rng.choice(syss + refs)
        n = min(len(ref), len(hyp))
        start = rng.randrange(n)
        size = rng.choice([1, 1, 2, 5, 10, 30, 100])
        hs, rs = hyp[start : start + size], ref[start : start + size]
        while len(hs) > 1 and sum(len(t.encode()) for t in hs + rs) > 65536:
            hs, rs = hs[:-1], rs[:-1]
        inp: dict[str, Any] = {"hypotheses": hs, "references": rs}
        if rng.random() < 0.5:
            inp["beta"] = rng.choice([1, 2, 3])
        if rng.random() < 0.4:
            inp["lowercase"] = rng.random() < 0.7
        cases.append(Case(CF, V, inp, "wmt"))
    for _ in range(n_bleu):
        name, refs, syss = rng.choice(pairs)
        i = rng.randrange(min(len(f) for f in refs + syss))
        cjk = any(x in name for x in ("-ja", "-zh"))
        if cjk and rng.random() < 0.7:
            split = lambda s: [ch for ch in s if not ch.isspace()]  # noqa: E731
        else:
            split = str.split
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
# Building every case, running the reference once, comparing
# ---------------------------------------------------------------------------------------


def build_cases() -> list[Case]:
    """Every input of this module, in a fixed order (seeded)."""
    rng = random.Random(SEED)
    cases: list[Case] = []
    makers = {BS: rand_bleu_smoothing, BC: rand_bleu_components, CF: rand_chrf}
    shares = {BS: 0.4, BC: 0.3, CF: 0.3}
    for tool, maker in makers.items():
        for _ in range(max(1, int(TOTAL * shares[tool]))):
            cases.append(Case(tool, V, maker(rng), "random"))
    for tool, examples in (
        (BS, bleu_smoothing_adversarial()),
        (BC, bleu_components_adversarial()),
        (CF, chrf_adversarial()),
    ):
        cases += [Case(tool, V, inp, "adversarial") for inp in examples]
    for tool, maker in makers.items():
        for _ in range(max(1, int(TOTAL * shares[tool] / 2))):
            inp = maker(rng)
            if tool == BC:  # keep mutated inputs small
                inp["hypothesis"] = inp["hypothesis"][:8]
                inp["references"] = [r[:8] for r in inp["references"][:3]]
            inp = random_mutation(rng, inp)
            if rng.random() < 0.3:
                inp = random_mutation(rng, inp)
            cases.append(Case(tool, V, inp, "mutation"))
    cases += wmt_cases(rng, max(1, TOTAL // 15), max(1, TOTAL // 10))
    for tool, inp in ((BS, BS_EXAMPLE), (BC, BC_EXAMPLE), (CF, CF_EXAMPLE), (CF, CF_EXAMPLE_2)):
        cases.append(Case(tool, V, inp, "example"))
        for bad_tool, bad_version in (
            (tool, "1.0.1"),
            (tool, "1.0"),
            (tool, ""),
            (tool.upper(), V),
            ("no-such-tool", V),
            ("", V),
        ):
            cases.append(Case(bad_tool, bad_version, inp, "not_found"))
    return cases


@pytest.fixture(scope="module")
def mtcompute():
    """The Python implementation under test."""
    try:
        import mtcompute as module
    except ImportError as exc:  # pragma: no cover - environment problem
        pytest.fail(f"cannot import mtcompute (run with PYTHONPATH=src or install it): {exc}")
    return module


@pytest.fixture(scope="module")
def agreement_run():
    """All cases with the reference's envelope text for each (one Node run)."""
    cases = build_cases()
    try:
        return list(zip(cases, run_reference(cases), strict=True))
    except pytest.fail.Exception as exc:  # e.g. no node: every test then fails with this message
        return exc


def short(value: Any, limit: int = 700) -> str:
    """A readable, length-capped rendering for failure messages."""
    text = value if isinstance(value, str) else to_js_json(value)
    return text if len(text) <= limit else text[:limit] + f"... [{len(text)} chars]"


def disagreements(mt, pairs: list[tuple[Case, str]]) -> list[str]:
    """Descriptions of the cases where Python and the reference disagree."""
    found = []
    for case, js_text in pairs:
        # Python gets the very JSON text Node got, through the service's own parser
        # (execute_json, as the CLI and HTTP use it): "\ud83d\ude00" is one astral character on
        # both sides, and a number too large for a double is Infinity on both sides.
        before = to_js_json(case.input)
        try:
            env = mt.execute_json(case.tool, case.version, before)
            py_text = mt.dumps(env)
        except Exception:
            found.append(
                f"{case.tool} {case.group}: Python raised for input {short(case.input)}\n"
                f"  reference: {short(js_text)}\n  {traceback.format_exc(limit=3)}"
            )
            continue
        problem = None
        js = json.loads(js_text)
        if "error" in js and js["error"]["code"] == "internal_error":
            problem = "the reference failed internally"
        elif "result" in js:
            if py_text != js_text:
                problem = "results differ"
        elif not (
            isinstance(env, dict) and set(env) == {"error"} and isinstance(env["error"], dict)
        ):
            problem = "reference gives an error, Python does not"
        else:
            err = env["error"]
            if err.get("code") != js["error"]["code"]:
                problem = "error codes differ"
            elif err.get("path") != js["error"]["path"]:
                problem = "error paths differ"
            elif not isinstance(err.get("message"), str) or not err["message"]:
                problem = "Python error has no message"
        if problem:
            found.append(
                f"{case.tool}@{case.version} {case.group}: {problem}\n"
                f"  input:     {short(case.input)}\n"
                f"  reference: {short(js_text)}\n  python:    {short(py_text)}"
            )
    return found


def assert_agree(mt, pairs: list[tuple[Case, str]]) -> None:
    """Fail with the first few disagreements, if any."""
    assert pairs, "no cases were generated"
    found = disagreements(mt, pairs)
    if found:
        shown = "\n".join(found[:6])
        pytest.fail(
            f"{len(found)} of {len(pairs)} inputs disagree with the JavaScript reference:\n{shown}",
            pytrace=False,
        )


def select(run, tool: str | None, *groups: str) -> list[tuple[Case, str]]:
    """The (case, reference text) pairs of one tool and some groups."""
    if isinstance(run, BaseException):
        pytest.fail(str(run), pytrace=False)
    return [(c, t) for c, t in run if (tool is None or c.tool == tool) and c.group in groups]


# ---------------------------------------------------------------------------------------
# Tests
# ---------------------------------------------------------------------------------------


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
    expected = {
        (BS, to_js_json(BS_EXAMPLE)): bs_output,
        (BC, to_js_json(BC_EXAMPLE)): bc_output,
    }
    for path in sorted(CONTRACTS_DIR.glob("*@*.json")):  # the shipped contracts, when present
        doc = json.loads(path.read_text(encoding="utf-8"))
        for ex in doc.get("examples", []):
            want = json.dumps({"result": ex["output"]}, ensure_ascii=False, separators=(",", ":"))
            # keyed by tool too: chrf-plus-plus-compute's first example is chrf-compute's input
            expected[(doc["id"], to_js_json(ex["input"]))] = want
    examples = select(agreement_run, None, "example")
    assert len(examples) == 4
    checked = 0
    for case, js_text in examples:
        want = expected.get((case.tool, to_js_json(case.input)))
        if want is not None:
            assert js_text == want, f"{case.tool}: reference {js_text} != documented {want}"
            checked += 1
    assert checked >= 2


def test_bleu_smoothing_random_agreement(mtcompute, agreement_run):
    """Random valid bleu-smoothing-compute inputs give byte-identical envelopes."""
    assert_agree(mtcompute, select(agreement_run, BS, "random"))


def test_bleu_components_random_agreement(mtcompute, agreement_run):
    """Random valid bleu-sentence-components inputs give byte-identical envelopes."""
    assert_agree(mtcompute, select(agreement_run, BC, "random"))


def test_chrf_random_agreement(mtcompute, agreement_run):
    """Random valid chrf-compute inputs give byte-identical envelopes."""
    assert_agree(mtcompute, select(agreement_run, CF, "random"))


def test_bleu_smoothing_adversarial_agreement(mtcompute, agreement_run):
    """Edge-case and mutated bleu-smoothing-compute inputs get the same result or code and path."""
    assert_agree(mtcompute, select(agreement_run, BS, "adversarial", "mutation"))


def test_bleu_components_adversarial_agreement(mtcompute, agreement_run):
    """Edge-case and mutated bleu-sentence-components inputs: same result, or same code and path."""
    assert_agree(mtcompute, select(agreement_run, BC, "adversarial", "mutation"))


def test_chrf_adversarial_agreement(mtcompute, agreement_run):
    """Edge-case and mutated chrf-compute inputs get the same result or error code and path."""
    assert_agree(mtcompute, select(agreement_run, CF, "adversarial", "mutation"))


def test_examples_and_not_found_agreement(mtcompute, agreement_run):
    """The contract examples agree, and unknown tools or versions are not_found on both sides."""
    assert_agree(mtcompute, select(agreement_run, None, "example", "not_found"))


def test_wmt_chrf_agreement(mtcompute, agreement_run):
    """chrF on chunks of real WMT hypothesis/reference lines agrees byte for byte."""
    if not WMT_DIR.is_dir():
        pytest.skip(f"WMT data not found at {WMT_DIR}")
    assert_agree(mtcompute, select(agreement_run, CF, "wmt"))


def test_wmt_bleu_components_agreement(mtcompute, agreement_run):
    """Sentence BLEU statistics of whitespace-split real WMT lines agree byte for byte."""
    if not WMT_DIR.is_dir():
        pytest.skip(f"WMT data not found at {WMT_DIR}")
    assert_agree(mtcompute, select(agreement_run, BC, "wmt"))


def test_huge_integer_literals_agreement(mtcompute):
    """Integer literals beyond the double range (JSON.parse gives Infinity) get the same error."""
    ex = BS_EXAMPLE
    huge = [10**309, 10**400, -(10**400)]
    inputs = [(BS, with_key(ex, "candidate_length", h)) for h in huge]
    inputs += [(BS, with_key(ex, "matches", [h, 7, 5, 3])) for h in huge]
    inputs += [(BS, with_key(ex, "decimals", h)) for h in huge]
    inputs += [(BC, with_key(BC_EXAMPLE, "max_order", h)) for h in huge]
    inputs += [(CF, with_key(CF_EXAMPLE, "beta", h)) for h in huge]
    cases = [Case(tool, V, inp, "huge_integer") for tool, inp in inputs]
    assert_agree(mtcompute, list(zip(cases, run_reference(cases), strict=True)))


def test_bleu_smoothing_vectors_reproduce(mtcompute):
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


# ---------------------------------------------------------------------------------------
# chrf-plus-plus-compute and chrf-components (word n-grams, configurable orders, averaging)
# ---------------------------------------------------------------------------------------

PP = "chrf-plus-plus-compute"
CC = "chrf-components"
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
        inp["beta"] = rng.randint(1, 16) if rng.random() < 0.9 else float(rng.randint(1, 16))
    k = rng.randrange(3)
    if k:
        inp["lowercase"] = k == 1
    return inp


def rand_components(rng: random.Random) -> dict:
    """A random valid chrf-components input (every option drawn or left out)."""
    inp = rand_chrf_words(rng)
    if rng.random() < 0.8:
        inp["char_order"] = rng.randint(1, 10) if rng.random() < 0.9 else float(rng.randint(1, 10))
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
    if not WMT_DIR.is_dir():
        return []
    pairs = wmt_pairs()
    cases = []
    for k in range(count):
        _, refs, syss = rng.choice(pairs)
        ref, hyp = rng.choice(refs), rng.choice(syss)
        start = rng.randrange(len(ref))
        size = rng.choice([1, 2, 5, 10, 30, 100])
        hs, rs = hyp[start : start + size], ref[start : start + size]
        while len(hs) > 1 and sum(len(t.encode()) for t in hs + rs) > 65536:
            hs, rs = hs[:-1], rs[:-1]
        inp: dict[str, Any] = {"hypotheses": hs, "references": rs}
        if rng.random() < 0.4:
            inp["beta"] = rng.choice([1, 2, 3])
        if rng.random() < 0.4:
            inp["lowercase"] = rng.random() < 0.7
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
            inp = random_mutation(rng, inp)
            if rng.random() < 0.3:
                inp = random_mutation(rng, inp)
            cases.append(Case(tool, V, inp, "mutation"))
        doc = json.loads((CONTRACTS_DIR / f"{tool}@{V}.json").read_text(encoding="utf-8"))
        cases += [Case(tool, V, ex["input"], "example") for ex in doc["examples"]]
    cases += chrf_words_wmt_cases(rng, max(1, TOTAL // 15))
    return cases


@pytest.fixture(scope="module")
def chrf_words_run():
    """The chrF++ and chrf-components cases with the reference's envelope for each."""
    cases = build_chrf_words_cases()
    try:
        return list(zip(cases, run_reference(cases), strict=True))
    except pytest.fail.Exception as exc:
        return exc


def test_reference_reproduces_chrf_words_examples(chrf_words_run):
    """The reference gives each chrf-plus-plus-compute and chrf-components example's output
    byte for byte (it was written from the issue's rules, before the Python implementation)."""
    expected = []
    for tool in (PP, CC):
        doc = json.loads((CONTRACTS_DIR / f"{tool}@{V}.json").read_text(encoding="utf-8"))
        expected += [
            json.dumps({"result": ex["output"]}, ensure_ascii=False, separators=(",", ":"))
            for ex in doc["examples"]
        ]
    assert expected == [text for _, text in select(chrf_words_run, None, "example")]


def test_chrf_plus_plus_agreement(mtcompute, chrf_words_run):
    """chrf-plus-plus-compute: random, edge-case, mutated and real WMT inputs get the same
    result byte for byte, or the same error code and path."""
    groups = ("random", "adversarial", "mutation", "wmt", "example")
    assert_agree(mtcompute, select(chrf_words_run, PP, *groups))


def test_chrf_components_agreement(mtcompute, chrf_words_run):
    """chrf-components: random, edge-case, mutated and real WMT inputs get the same result
    byte for byte, or the same error code and path."""
    groups = ("random", "adversarial", "mutation", "wmt", "example")
    assert_agree(mtcompute, select(chrf_words_run, CC, *groups))


# ---------------------------------------------------------------------------------------
# bleu-sentence-compute, bleu-corpus-compute, bleu-ngrams-count, bleu-brevity-penalty
# (the reference's part for them was written from their contract documents only)
# ---------------------------------------------------------------------------------------

SC = "bleu-sentence-compute"
CB = "bleu-corpus-compute"
NC = "bleu-ngrams-count"
BP = "bleu-brevity-penalty"
BLEU_TOOLS = (SC, CB, NC, BP)
MAX_LENGTH = 10**9


def contract_examples(tool: str) -> list[dict]:
    """The examples of a shipped contract document."""
    doc = json.loads((CONTRACTS_DIR / f"{tool}@{V}.json").read_text(encoding="utf-8"))
    return doc["examples"]


def rand_score_options(rng: random.Random, inp: dict, smoothing_required: bool) -> dict:
    """max_order, smoothing, epsilon, effective_order and decimals, each drawn or left out."""
    if rng.random() < 0.6:
        inp["max_order"] = rng.randint(1, 8) if rng.random() < 0.9 else float(rng.randint(1, 8))
    if smoothing_required or rng.random() < 0.7:
        inp["smoothing"] = rng.choice(["none", "method1", "method2", "method3"])
    if inp.get("smoothing") == "method1" and rng.random() < 0.6:
        inp["epsilon"] = rand_epsilon(rng)
    eo = rng.randrange(3)
    if eo:
        inp["effective_order"] = eo == 1
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
        inp["max_order"] = rng.randint(1, 8) if rng.random() < 0.9 else float(rng.randint(1, 8))
    k = rng.randrange(3)
    if k:
        inp["include_ngrams"] = k == 1
    return inp


def rand_bp_length(rng: random.Random) -> int:
    """A length from 0 to 10^9, small and huge values both common."""
    kind = rng.randrange(6)
    if kind == 0:
        return rng.randint(0, 5)
    if kind == 1:
        return rng.randint(0, 60)
    if kind == 2:
        return rng.randint(0, 100_000)
    if kind == 3:
        return min(MAX_LENGTH, int(math.exp(rng.random() * math.log(MAX_LENGTH + 1))))
    if kind == 4:
        return MAX_LENGTH - rng.randint(0, 3)
    return rng.randint(0, MAX_LENGTH)


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

    def result(segs: list[list[str]]) -> dict:
        return {
            "segment_count": len(segs),
            "max_order": 1,
            "candidate_length": sum(len(s) for s in segs),
            "reference_length": 0,
            "matches": [0],
            "totals": [sum(len(s) for s in segs)],
            "segments": [
                {
                    "candidate_length": len(s),
                    "reference_length": 0,
                    "matches": [0],
                    "totals": [len(s)],
                    "ngrams": [
                        {
                            "order": 1,
                            "ngram": [t],
                            "count": 1,
                            "max_reference_count": 0,
                            "clipped_count": 0,
                        }
                        for t in s
                    ],
                }
                for s in segs
            ],
        }

    def size(segs: list[list[str]]) -> int:
        text = json.dumps(result(segs), ensure_ascii=False, separators=(",", ":"))
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
    if not WMT_DIR.is_dir():
        return []
    pairs = wmt_pairs()
    cases = []
    for k in range(count):
        name, refs, syss = rng.choice(pairs)
        n_lines = min(len(f) for f in refs + syss)
        cjk = any(x in name for x in ("-ja", "-zh"))
        if cjk and rng.random() < 0.7:
            split = lambda s: [ch for ch in s if not ch.isspace()]  # noqa: E731
        else:
            split = str.split
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
            if k % 3 == 0:
                inp = _deep_copy(rng.choice(examples))
            else:
                inp = shrink_for_mutation(maker(rng))
            inp = random_mutation(rng, inp)
            if rng.random() < 0.3:
                inp = random_mutation(rng, inp)
            cases.append(Case(tool, V, inp, "mutation"))
        cases += [Case(tool, V, inp, "example") for inp in examples]
    cases += bleu_tools_wmt_cases(rng, max(4, TOTAL // 20))
    return cases


@pytest.fixture(scope="module")
def bleu_tools_run():
    """The four BLEU tools' cases with the reference's envelope for each (one Node run)."""
    cases = build_bleu_tools_cases()
    try:
        return list(zip(cases, run_reference(cases), strict=True))
    except pytest.fail.Exception as exc:
        return exc


def test_reference_reproduces_bleu_tools_examples(bleu_tools_run):
    """The reference gives each example of the four contracts byte for byte."""
    expected = []
    for tool in BLEU_TOOLS:
        expected += [
            json.dumps({"result": ex["output"]}, ensure_ascii=False, separators=(",", ":"))
            for ex in contract_examples(tool)
        ]
    assert expected == [text for _, text in select(bleu_tools_run, None, "example")]


@pytest.mark.parametrize("tool", BLEU_TOOLS)
def test_bleu_tools_random_agreement(mtcompute, bleu_tools_run, tool):
    """Random valid inputs and the contract examples give byte-identical envelopes."""
    assert_agree(mtcompute, select(bleu_tools_run, tool, "random", "example"))


@pytest.mark.parametrize("tool", BLEU_TOOLS)
def test_bleu_tools_adversarial_agreement(mtcompute, bleu_tools_run, tool):
    """Edge-case, limit and mutated inputs: the same result, or the same error code and path."""
    assert_agree(mtcompute, select(bleu_tools_run, tool, "adversarial", "mutation"))


@pytest.mark.parametrize("tool", BLEU_TOOLS)
def test_bleu_tools_wmt_agreement(mtcompute, bleu_tools_run, tool):
    """Whitespace-split real WMT lines agree byte for byte."""
    if not WMT_DIR.is_dir():
        pytest.skip(f"WMT data not found at {WMT_DIR}")
    assert_agree(mtcompute, select(bleu_tools_run, tool, "wmt"))
