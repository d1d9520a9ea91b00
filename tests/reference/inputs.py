"""Seeded generators shared by the reference-agreement families
(tests/tools/test_reference_agreement_*.py): values that break a field, shape faults common to
every tool, random near-valid mutations, tokens and bleu-sentence-components inputs (used by
the seed BLEU tools and by the four composite ones), epsilons, and the real WMT files.

They draw from a ``random.Random`` (seeded by the caller) rather than from hypothesis: the
reference runs once over a fixed list of inputs, so the list must be built up front.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterator
from typing import Any

from tests.conftest import WMT
from tests.harness import read_lines

MAX_COUNT = 10**12
INF = float("inf")


def rand_size(rng: random.Random, top: int) -> int:
    """A count or length from 0 to ``top``, small and huge values both common."""
    kind = rng.randrange(6)
    if kind == 0:
        return rng.randint(0, 5)
    if kind == 1:
        return rng.randint(0, 60)
    if kind == 2:
        return rng.randint(0, 100_000)
    if kind == 3:
        return min(top, int(math.exp(rng.random() * math.log(top + 1))))
    if kind == 4:
        return top - rng.randint(0, 3)
    return rng.randint(0, top)


def integer_or_float(rng: random.Random, low: int, high: int) -> int | float:
    """An integer from low to high, one time in ten as the integral float (4.0 is 4)."""
    return rng.randint(low, high) if rng.random() < 0.9 else float(rng.randint(low, high))


def maybe_flag(rng: random.Random, inp: dict, key: str) -> None:
    """Set ``key`` to true or false, or leave it out (one chance in three each)."""
    k = rng.randrange(3)
    if k:
        inp[key] = k == 1


def mutated(rng: random.Random, inp: Any) -> Any:
    """``inp`` with one random near-valid fault, and three times in ten a second one."""
    inp = random_mutation(rng, inp)
    if rng.random() < 0.3:
        inp = random_mutation(rng, inp)
    return inp


def wmt_chrf_input(
    rng: random.Random, hyp: list[str], ref: list[str], start: int, size: int, beta_share: float
) -> dict[str, Any]:
    """Lines ``start`` to ``start + size`` of a system and a reference as a chrF input, cut
    back (to one line at least) to the tools' 65,536 bytes of text; beta 1 to 3 in
    ``beta_share`` of the draws, lowercase in 4 of 10."""
    hs, rs = hyp[start : start + size], ref[start : start + size]
    while len(hs) > 1 and sum(len(t.encode()) for t in hs + rs) > 65536:
        hs, rs = hs[:-1], rs[:-1]
    inp: dict[str, Any] = {"hypotheses": hs, "references": rs}
    if rng.random() < beta_share:
        inp["beta"] = rng.choice([1, 2, 3])
    if rng.random() < 0.4:
        inp["lowercase"] = rng.random() < 0.7
    return inp


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
        inp["max_order"] = integer_or_float(rng, 1, 8)
    maybe_flag(rng, inp, "include_ngrams")
    return inp


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


def random_mutation(rng: random.Random, inp: Any) -> Any:
    """A copy of inp with one near-valid fault: a value changed, removed, added or corrupted."""
    inp = deep_copy(inp)
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


def deep_copy(value: Any) -> Any:
    """A deep copy of plain JSON-like data (dicts keep their order)."""
    if isinstance(value, dict):
        return {k: deep_copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [deep_copy(v) for v in value]
    return value


def _characters(line: str) -> list[str]:
    """The non-whitespace characters of a line, one token each."""
    return [ch for ch in line if not ch.isspace()]


def wmt_splitter(rng: random.Random, name: str) -> Callable[[str], list[str]]:
    """How to make tokens of a WMT pair's lines: whitespace-split, or for a pair into Japanese
    or Chinese seven times in ten one token per character."""
    cjk = any(x in name for x in ("-ja", "-zh"))
    return _characters if cjk and rng.random() < 0.7 else str.split


def wmt_files() -> list[tuple[str, list[list[str]], list[list[str]]]]:
    """(pair name, reference files' lines, system files' lines) for each WMT pair folder."""
    pairs = []
    for folder in sorted(p for p in WMT.glob("*/*") if p.is_dir()):
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


def wmt_draws(
    rng: random.Random, count: int
) -> Iterator[tuple[int, str, list[list[str]], list[list[str]]]]:
    """``count`` draws from :func:`wmt_files` (read once), one pair folder each, drawn as the
    caller asks for the next: (draw number from 0, pair name, reference files' lines, system
    files' lines)."""
    pairs = wmt_files()
    for k in range(count):
        name, refs, syss = rng.choice(pairs)
        yield k, name, refs, syss
