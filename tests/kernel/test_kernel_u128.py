"""The kernel's 128-bit arithmetic (``src/mtcompute/_kernel/u128.h``) at its edges, through the
exact chrF exports.

``chrf_ratios`` and ``chrf_scores`` form chrF as the unreduced fraction
100 (1 + b^2) p q / (k (b^2 p S + q H)) in 128 bits (lcm form, see chrf.c), and hand a
segment back to Python (None, NaN) exactly where a count is out of range, an lcm passes
2^62, the fraction passes 128 bits, or (for the correctly rounded division) the denominator
reaches 2^127. ``kernel_terms`` is that rule in Python; the tests check the kernel against it
and against Python's exact fractions on counts that put the integers near 2^64, 2^127 and
2^128, on exact ties of the division, and on int64 sums that wrap. Every operation of u128.h
is checked against Python's int, native and portable (``-DMTK_PORTABLE_U128``: two 64-bit
halves, as MSVC builds it), and the portable kernel is built beside the installed one and must
give the same answers on the same workload.
"""

from __future__ import annotations

import math
import pickle
import random
import subprocess
import sys
import sysconfig
from array import array
from collections import defaultdict
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from mtcompute import native
from mtcompute.metrics.chrf.ngrams import ChrfStatistics, chrf_fraction, chrf_ratio
from tests.conftest import require_program
from tests.kernel.test_kernel_build import KERNEL, SOURCES, setup_constant

pytestmark = pytest.mark.skipif(not native.AVAILABLE, reason="built without the C kernel")

COUNT_LIMIT = 1 << 40  # an effective order's counts must stay below this (chrf.c's chrf_sums)
LCM_LIMIT = 1 << 62  # and the lcms of its counts below this (mtk_lcm_mults)

Case = tuple[ChrfStatistics, int]  # counts and beta


def kernel_terms(stats: ChrfStatistics, beta: int) -> tuple[int, int] | str:
    """The unreduced (numerator, denominator) the kernel forms for ``stats``, or why it hands
    them to Python: "count", "lcm" or "u128"."""
    eff = [
        (h, r, m)
        for h, r, m in zip(stats.hypothesis, stats.reference, stats.matches, strict=True)
        if h > 0 and r > 0
    ]
    if any(m < 0 or max(h, r, m) >= COUNT_LIMIT for h, r, m in eff):
        return "count"
    if not any(m for _, _, m in eff):
        return 0, 1
    big_h, big_s = math.lcm(*(h for h, _, _ in eff)), math.lcm(*(r for _, r, _ in eff))
    if max(big_h, big_s) >= LCM_LIMIT:
        return "lcm"
    p = sum(m * (big_h // h) for h, _, m in eff)
    q = sum(m * (big_s // r) for _, r, m in eff)
    b2 = beta * beta
    num, den = 100 * (1 + b2) * p * q, len(eff) * (b2 * p * big_s + q * big_h)
    return "u128" if max(num, den) >> 128 else (num, den)


def kind(terms: tuple[int, int] | str) -> str:
    """Which edge ``terms`` lies at."""
    if isinstance(terms, str):
        return terms
    num, den = terms
    if den >> 127:
        return "den >= 2^127"
    return "num >= 2^127" if num >> 127 else "num >= 2^64" if num >> 64 else "small"


def scaled(rng: random.Random, n: int) -> tuple[int, ...]:
    """n counts x * y for distinct small y: an lcm of x * lcm(y) that mostly fits."""
    ys = rng.sample(range(1, 25), n)
    x = rng.randint(1, 1 << rng.randint(0, 40 - max(ys).bit_length()))
    return tuple(x * y for y in ys)


def edge_cases() -> list[Case]:
    """Counts whose integers sweep across 2^64, 2^127 and 2^128: one match count stepping by
    2^(1/8) against counts whose lcms are near 2^62, one order stepping alone, and random
    scaled counts (valid or not)."""
    y = (1, 5, 7, 9, 11, 13, 16, 17, 19, 23)
    x = (LCM_LIMIT - 1) // math.lcm(*y)  # 30 bits: x * y < 2^40 and x * lcm(y) < 2^62
    hyp, ref = tuple(x * v for v in y), tuple(x * v for v in reversed(y))
    cases: list[Case] = []
    for e in range(8 * 40):
        m = int(2 ** (e / 8))
        for beta in (1, 2, 16):
            cases.append((ChrfStatistics(hyp, ref, (m,) + (0,) * (len(y) - 1)), beta))
            cases.append((ChrfStatistics(hyp, ref, (m // 3,) * len(y)), beta))
        cases.append((ChrfStatistics(((1 << 40) - 1,), ((1 << 40) - 3,), (m,)), 3))
    rng = random.Random(29)
    for _ in range(600):
        n = rng.randint(1, 12)
        hyp, ref = scaled(rng, n), scaled(rng, n)
        matches = tuple(
            rng.randint(0, min(h, r)) if rng.random() < 0.7 else rng.randrange(COUNT_LIMIT)
            for h, r in zip(hyp, ref, strict=True)
        )
        cases.append((ChrfStatistics(hyp, ref, matches), rng.randint(1, 16)))
    return cases


def counts_buffer(rows: list[ChrfStatistics]) -> bytes:
    """The chrf_counts buffer of ``rows``."""
    values = [x for s in rows for x in (*s.hypothesis, *s.reference, *s.matches)]
    return array("q", values).tobytes()


def score_text(x: float) -> str:
    """A float exactly, NaN included."""
    return "nan" if math.isnan(x) else x.hex()


def kernel_answers(kernel: Any, cases: list[Case]) -> list[tuple[object, str]]:
    """(chrf_ratios' pair or None, chrf_scores' float) of each case from ``kernel``, in order
    (one call per order count and beta)."""
    groups: dict[tuple[int, int], list[int]] = defaultdict(list)
    for i, (stats, beta) in enumerate(cases):
        groups[len(stats.hypothesis), beta].append(i)
    answers: list[tuple[object, str]] = [(None, "")] * len(cases)
    for (order, beta), where in groups.items():
        buffer = counts_buffer([cases[i][0] for i in where])
        _, ratios = kernel.chrf_ratios(buffer, order, beta)
        scores = kernel.chrf_scores(buffer, order, beta)
        for i, ratio, score in zip(where, ratios, scores, strict=True):
            answers[i] = (ratio, score_text(score))
    return answers


def expected_answer(stats: ChrfStatistics, beta: int) -> tuple[object, str]:
    """What the kernel must answer for one case: Python's exact values, or None / NaN where
    kernel_terms hands it back (and NaN from chrf_scores alone when den >= 2^127)."""
    terms = kernel_terms(stats, beta)
    if isinstance(terms, str):
        return None, "nan"
    score = "nan" if terms[1] >> 127 else score_text(float(chrf_fraction(stats, beta)))
    return chrf_ratio(stats, beta), score


def test_the_model_is_the_exact_chrf() -> None:
    """Where kernel_terms has a fraction, it is Python's exact chrF."""
    for stats, beta in edge_cases():
        terms = kernel_terms(stats, beta)
        if not isinstance(terms, str):
            assert (stats, Fraction(*terms)) == (stats, chrf_fraction(stats, beta))


def test_ratios_and_scores_at_the_128_bit_edges() -> None:
    """Every edge case gets Python's exact ratio and correctly rounded float, or None / NaN
    exactly where the rule hands it back; the cases reach every edge."""
    cases = edge_cases()
    kinds = {kind(kernel_terms(stats, beta)) for stats, beta in cases}
    assert {"small", "num >= 2^64", "num >= 2^127", "den >= 2^127", "u128", "lcm"} <= kinds
    expected = [expected_answer(stats, beta) for stats, beta in cases]
    assert expected == kernel_answers(native.ext, cases)


def tie_cases() -> list[Case]:
    """Eight orders of 2^39 hypothesis and 2^39 - 2^31 reference n-grams with p matches in
    all, beta 16: chrF is 6425 p / 2^48, a tie between two doubles for odd p from
    2^53 / 6425 on (6425 p has 54 bits), then an exact double (p even), then near the
    ties (one more hypothesis n-gram)."""
    lo = -(-(1 << 53) // 6425) | 1
    cases = []
    for p, extra in ((lo, 0), (lo + 2, 0), (lo + 4, 0), (lo + 1, 0), (lo, 1), (lo + 2, 1)):
        share = p // 8
        matches = (share,) * 7 + (p - 7 * share,)
        hyp = ((1 << 39) + extra,) + (1 << 39,) * 7
        cases.append((ChrfStatistics(hyp, ((1 << 39) - (1 << 31),) * 8, matches), 16))
    return cases


def test_division_ties_round_to_even() -> None:
    """chrf_scores rounds exact ties of its division to even, down and up, as float() of the
    Fraction does, and the values next to them as well."""
    cases = tie_cases()
    fractions = [chrf_fraction(stats, beta) for stats, beta in cases]
    ties = [f for f in fractions if f.denominator == 1 << 48 and f.numerator.bit_length() == 54]
    assert (3, {False, True}) == (len(ties), {float(f) > f for f in ties})
    assert [expected_answer(s, b) for s, b in cases] == kernel_answers(native.ext, cases)


def test_int64_sums_that_wrap_hand_the_total_back() -> None:
    """chrf_ratios' total sums the segments' counts in int64: a sum that leaves int64 (here
    wrapping to small, valid-looking counts) hands the total to Python (None); the segments
    are answered one by one as ever."""
    rows = [
        ChrfStatistics(((1 << 63) - 1,), ((1 << 63) - 1,), (0,)),
        ChrfStatistics(((1 << 63) - 1,), ((1 << 63) - 1,), (1,)),
        ChrfStatistics((4,), (4,), (1,)),
    ]
    negative = [
        ChrfStatistics((-(1 << 63),), (-(1 << 63),), (0,)),
        ChrfStatistics((-(1 << 63) + 3,), (-(1 << 63) + 3,), (2,)),
    ]
    for group in (rows, negative):
        total, ours = native.ext.chrf_ratios(counts_buffer(group), 1, 2)
        assert (None, [expected_answer(s, 2)[0] for s in group]) == (total, ours)


# --- u128.h itself against Python's int ------------------------------------------------------

HARNESS = r"""
#include <stdio.h>
#include "u128.h"
static void
put(u128 x)
{
    printf(" %016llx%016llx", (unsigned long long)u128_hi(x), (unsigned long long)u128_lo(x));
}
int
main(void)
{
    unsigned long long ah, al, bh, bl;
    int n;
    while (scanf("%llx %llx %llx %llx %d", &ah, &al, &bh, &bl, &n) == 5) {
        u128 a = u128_or(u128_shl(u128_of(ah), 64), u128_of(al));
        u128 b = u128_or(u128_shl(u128_of(bh), 64), u128_of(bl)), o, r;
        int64_t s;
        put(u128_add(a, b));
        put(u128_sub(a, b));
        put(u128_and(a, b));
        put(u128_shl(a, n));
        put(u128_shr(a, n));
        put(u128_mul64(al, bl));
        printf(" %d", u128_mul_overflow(a, b, &o));
        put(o);
        printf(" %d", u128_add_overflow(a, b, &o));
        put(o);
        printf(" %d %d %d %d", u128_lt(a, b), u128_eq(a, b), u128_is_zero(a), u128_clz(a));
        if (!u128_is_zero(b)) {
            put(u128_divmod(a, b, &r));
            put(r);
            put(u128_div(a, b));
            put(u128_mod(a, b));
        }
        if (al) printf(" %d %d", mtk_clz64(al), mtk_ctz64(al));
        printf(" %d", mtk_add_i64_overflow((int64_t)ah, (int64_t)bh, &s));
        printf(" %lld\n", (long long)s);
    }
    return 0;
}
"""

M64, M128 = (1 << 64) - 1, (1 << 128) - 1


def harness_inputs(count: int) -> list[tuple[int, int, int, int, int]]:
    """(a_hi, a_lo, b_hi, b_lo, shift) lines: halves at 0, 1, 2^32, 2^63, 2^64 - 1 and near
    them, or random of random width; a zero or a small high half often (64-bit operands,
    small divisors)."""
    rng = random.Random(128)
    edges = [0, 1, 2, 3, (1 << 32) - 1, 1 << 32, 1 << 62, (1 << 63) - 1, 1 << 63, M64 - 1, M64]

    def half() -> int:
        pick = rng.random()
        if pick < 0.3:
            return rng.choice(edges)
        return rng.getrandbits(rng.randint(0, 64) if pick < 0.6 else 64)

    lines = []
    for _ in range(count):
        ah, al, bh, bl = half(), half(), half(), half()
        ah, bh = (0 if rng.random() < 0.4 else ah), (0 if rng.random() < 0.4 else bh)
        if rng.random() < 0.2:
            bh, bl = 0, rng.randint(0, 1000)
        shift = rng.choice([0, 1, 31, 32, 33, 63, 64, 65, 126, 127, rng.randrange(128)])
        lines.append((ah, al, bh, bl, shift))
    return lines


def harness_expected(ah: int, al: int, bh: int, bl: int, n: int) -> str:
    """The harness's line for one input, from Python's int."""
    a, b = ah << 64 | al, bh << 64 | bl
    words = [(a + b) & M128, (a - b) & M128, a & b, (a << n) & M128, a >> n, al * bl]
    out = [f"{w:032x}" for w in words]
    for exact in (a * b, a + b):
        out += [str(int(exact > M128)), f"{exact & M128:032x}"]
    out += [str(int(a < b)), str(int(a == b)), str(int(a == 0)), str(128 - a.bit_length())]
    if b:
        out += [f"{w:032x}" for w in (a // b, a % b, a // b, a % b)]
    if al:
        out += [str(64 - al.bit_length()), str((al & -al).bit_length() - 1)]
    sa, sb = (ah ^ 1 << 63) - (1 << 63), (bh ^ 1 << 63) - (1 << 63)
    total = sa + sb
    out += [
        str(int(not -(1 << 63) <= total < 1 << 63)),
        str((total + (1 << 63)) % (1 << 64) - (1 << 63)),
    ]
    return " " + " ".join(out)


@pytest.mark.parametrize("defines", [[], ["-DMTK_PORTABLE_U128"]], ids=["native", "portable"])
def test_u128_operations_are_python_int_operations(tmp_path: Path, defines: list[str]) -> None:
    """Every operation of u128.h (and its 64-bit helpers), native and portable, gives what
    Python's int gives, at the edges of the halves and at random."""
    cc = require_program("cc")
    source, program = tmp_path / "harness.c", tmp_path / "harness"
    source.write_text(HARNESS, encoding="utf-8")
    flags = ["-O2", "-Wall", "-Wextra", "-Werror", *defines, f"-I{KERNEL}"]
    done = subprocess.run(
        [cc, *flags, str(source), "-o", str(program)], capture_output=True, text=True, check=False
    )
    assert (0, "") == (done.returncode, done.stderr[:2000])
    inputs = harness_inputs(20000)
    text = "".join(f"{ah:x} {al:x} {bh:x} {bl:x} {n}\n" for ah, al, bh, bl, n in inputs)
    ran = subprocess.run(
        [str(program)], input=text, capture_output=True, text=True, check=False, timeout=120
    )
    expected = [harness_expected(*line) for line in inputs]
    assert (0, expected) == (ran.returncode, ran.stdout.splitlines())


# --- the portable path, built beside the installed kernel ------------------------------------

PORTABLE_SCRIPT = """
import importlib.util, pickle, sys
spec = importlib.util.spec_from_file_location("_kernel", sys.argv[1])
kernel = importlib.util.module_from_spec(spec)
spec.loader.exec_module(kernel)
sys.path.insert(0, sys.argv[2])
from tests.kernel.test_kernel_u128 import workload_answers
cases, texts = pickle.load(sys.stdin.buffer)
sys.stdout.buffer.write(pickle.dumps(workload_answers(kernel, cases, texts)))
"""


def workload_answers(kernel: Any, cases: list[Case], texts: list[str]) -> object:
    """The answers of ``kernel`` on the edge and tie cases, and chrf_pairwise and
    chrf_counts on ``texts`` (floats as exact text)."""
    rows, pending = kernel.chrf_pairwise(texts, texts, 6, 2)
    counts, totals = kernel.chrf_counts(texts, texts[::-1], 6, True)
    return (
        kernel_answers(kernel, cases),
        [[score_text(x) for x in row] for row in rows],
        pending,
        counts,
        totals,
    )


def portable_texts() -> list[str]:
    """Texts for chrf_pairwise: short and varied, and long ones whose pairs pass 128 bits."""
    rng = random.Random(7)
    pool = "abcdefgh é中😀 \t"
    texts = ["", " ", "a", "abcdefg", "abcdefgh" * 10]
    texts += ["".join(rng.choice(pool) for _ in range(rng.randint(0, 90))) for _ in range(30)]
    texts += ["".join(rng.choice("abcdefgh") for _ in range(n)) for n in (3000, 2500)]
    return texts


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="builds with cc -shared")
def test_portable_path_gives_the_native_answers(tmp_path: Path) -> None:
    """The kernel compiled with -DMTK_PORTABLE_U128 (and setup.py's flags, -Werror among
    them) answers the edge cases, the ties and an all-pairs chrF workload exactly as the
    installed kernel does."""
    cc = require_program("cc")
    flags = setup_constant("KERNEL_FLAGS")
    assert isinstance(flags, list)
    target = tmp_path / f"_kernel{sysconfig.get_config_var('EXT_SUFFIX')}"
    include = sysconfig.get_paths()["include"]
    build = [cc, "-shared", "-fPIC", "-DMTK_PORTABLE_U128", *flags, f"-I{include}", f"-I{KERNEL}"]
    done = subprocess.run(
        [*build, *map(str, SOURCES), "-o", str(target)], capture_output=True, text=True, check=False
    )
    assert (0, "") == (done.returncode, done.stderr[:2000])
    cases, texts = edge_cases() + tie_cases(), portable_texts()
    repo = str(Path(__file__).resolve().parents[2])
    ran = subprocess.run(
        [sys.executable, "-c", PORTABLE_SCRIPT, str(target), repo],
        input=pickle.dumps((cases, texts)),
        capture_output=True,
        check=False,
        timeout=300,
    )
    assert (0, b"") == (ran.returncode, ran.stderr[-2000:])
    assert workload_answers(native.ext, cases, texts) == pickle.loads(ran.stdout)
