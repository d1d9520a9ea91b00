"""Tests for mtcompute.core.jsmath against vectors computed by Node (V8).

The vector files are written by tests/data/js/generate_vectors.mjs.
"""

from __future__ import annotations

import gzip
import math
import struct
from collections.abc import Callable, Iterable, Iterator
from decimal import ROUND_HALF_UP, Decimal, localcontext
from functools import cache
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mtcompute.core.jsmath import (
    js_exp,
    js_log,
    js_logs,
    number_to_string,
    round_to_fixed,
    to_fixed,
)

DATA_DIR = Path(__file__).parents[1] / "data" / "js"


def _from_hex(text: str) -> float:
    value: float = struct.unpack(">d", bytes.fromhex(text))[0]
    return value


def _to_hex(x: float) -> str:
    if math.isnan(x):
        return "7ff8000000000000"
    return struct.pack(">d", x).hex()


def _rows(name: str) -> Iterator[list[str]]:
    with gzip.open(DATA_DIR / name, "rt", encoding="utf-8") as fh:
        for line in fh:
            if line.startswith("#"):
                continue
            yield line.rstrip("\n").split(" ")


@cache
def _float_pairs(name: str) -> tuple[tuple[float, str], ...]:
    return tuple((_from_hex(x), y) for x, y in _rows(name))


def _mismatches(name: str, func: Callable[[float], float]) -> list[tuple[str, str, str]]:
    out = []
    for x, expected in _float_pairs(name):
        actual = _to_hex(func(x))
        if actual != expected:
            out.append((_to_hex(x), expected, actual))
    return out


def test_log_vectors_bit_exact() -> None:
    """js_log matches Node's Math.log bit for bit on every vector."""
    assert len(_float_pairs("log.txt.gz")) >= 100_000
    expected: list[tuple[str, str, str]] = []
    assert expected == _mismatches("log.txt.gz", js_log)[:20]


def test_exp_vectors_bit_exact() -> None:
    """js_exp matches Node's Math.exp bit for bit on every vector."""
    assert len(_float_pairs("exp.txt.gz")) >= 100_000
    expected: list[tuple[str, str, str]] = []
    assert expected == _mismatches("exp.txt.gz", js_exp)[:20]


_ANY_DOUBLE = st.integers(0, 2**64 - 1).map(
    lambda bits: struct.unpack("<d", struct.pack("<Q", bits))[0]
)


def _assert_vectors(
    rows: Iterable[list[str]],
    compute: Callable[[list[str]], str],
    expect: Callable[[list[str]], str] = lambda row: row[-1],
) -> None:
    """``compute(row)`` equals ``expect(row)`` (the row's last field) on every row: the first
    20 rows where it does not, each with what it computed, are none."""
    bad = []
    for row in rows:
        actual = compute(row)
        if actual != expect(row):
            bad.append((*row, actual))
    no_mismatches: list[tuple[str, ...]] = []
    assert no_mismatches == bad[:20]


def test_to_fixed_vectors() -> None:
    """to_fixed matches Node's Number.prototype.toFixed on every vector."""
    rows = list(_rows("to_fixed.txt.gz"))
    assert len(rows) >= 20_000
    _assert_vectors(rows, lambda row: to_fixed(_from_hex(row[0]), int(row[1])))


def test_round_to_fixed_vectors() -> None:
    """round_to_fixed equals Number(x.toFixed(d)) on every vector."""
    _assert_vectors(
        _rows("to_fixed.txt.gz"),
        lambda row: _to_hex(round_to_fixed(_from_hex(row[0]), int(row[1]))),
        lambda row: _to_hex(float(row[2])),
    )


def test_number_to_string_vectors() -> None:
    """number_to_string matches Node's JSON.stringify on every double vector."""
    rows = list(_rows("number_to_string.txt.gz"))
    assert len(rows) >= 20_000
    _assert_vectors(rows, lambda row: number_to_string(_from_hex(row[0])))


def test_number_to_string_int_vectors() -> None:
    """number_to_string of Python ints matches JSON.stringify(Number(BigInt(i)))."""
    _assert_vectors(_rows("int_to_string.txt.gz"), lambda row: number_to_string(int(row[0])))


def test_python_math_differs_from_js() -> None:
    """math.log / math.exp differ from the JS values on some vector inputs."""
    log_diff = len(_mismatches("log.txt.gz", _python_log))
    exp_diff = len(_mismatches("exp.txt.gz", _python_exp))
    assert log_diff > 0
    assert exp_diff > 0


def _python_log(x: float) -> float:
    """math.log with JavaScript's special-case results, so only finite differ."""
    if math.isnan(x) or x < 0.0:
        return math.nan
    if x == 0.0:
        return -math.inf
    return math.log(x)


def _python_exp(x: float) -> float:
    """math.exp with overflow mapped to inf, as JavaScript does."""
    try:
        return math.exp(x)
    except OverflowError:
        return math.inf


# ------------------------------------------------------------- readable cases


@pytest.mark.parametrize(
    ("x", "expected"),
    [
        (1.0, 0.0),
        (0.0, -math.inf),
        (-0.0, -math.inf),
        (math.inf, math.inf),
        (math.e, 1.0),
        (2.0, 0.6931471805599453),
        (0.5, -0.6931471805599453),
        (5e-324, -744.4400719213812),
    ],
)
def test_js_log_readable(x: float, expected: float) -> None:
    """js_log gives the familiar values for simple inputs."""
    assert expected == js_log(x)


def test_js_log_nan_cases() -> None:
    """js_log of a negative number, -inf or NaN is NaN."""
    expected = [True, True, True]
    assert expected == [math.isnan(js_log(v)) for v in (-1.0, -math.inf, math.nan)]


@pytest.mark.parametrize(
    ("x", "expected"),
    [
        (0.0, 1.0),
        (-0.0, 1.0),
        (1.0, math.e),
        (-math.inf, 0.0),
        (math.inf, math.inf),
        (710.0, math.inf),
        (-746.0, 0.0),
        (-745.0, 5e-324),
        (709.782712893384, 1.7976931348622732e308),
    ],
)
def test_js_exp_readable(x: float, expected: float) -> None:
    """js_exp gives the familiar values for simple and extreme inputs."""
    assert expected == js_exp(x)


@pytest.mark.parametrize(
    ("x", "digits", "expected"),
    [
        (0.5, 0, "1"),
        (1.5, 0, "2"),
        (2.5, 0, "3"),
        (-2.5, 0, "-3"),
        (1.005, 2, "1.00"),
        (0.125, 2, "0.13"),
        (0.0, 2, "0.00"),
        (-0.0, 2, "0.00"),
        (-0.0000001, 2, "-0.00"),
        (0.0000000000000005, 15, "0.000000000000001"),
        (1e21, 2, "1e+21"),
        (-1e21, 2, "-1e+21"),
        (123.456, 1, "123.5"),
        (0.1, 20, "0.10000000000000000555"),
    ],
)
def test_to_fixed_readable(x: float, digits: int, expected: str) -> None:
    """to_fixed follows ECMA-262 rounding on ties, signs and large values."""
    assert expected == to_fixed(x, digits)


def test_to_fixed_rejects_bad_digits() -> None:
    """to_fixed raises ValueError for digits outside 0..100 (RangeError in JS)."""
    with pytest.raises(ValueError, match="between 0 and 100"):
        to_fixed(1.0, 101)


def test_round_to_fixed_readable() -> None:
    """round_to_fixed parses the toFixed string back into a float."""
    expected = (0.13, 1.0, -0.0)
    assert expected == (
        round_to_fixed(0.125, 2),
        round_to_fixed(1.005, 2),
        round_to_fixed(-0.0000001, 2),
    )
    assert math.copysign(1.0, round_to_fixed(-0.0000001, 2)) == -1.0


@pytest.mark.parametrize(
    ("x", "expected"),
    [
        (1.0, "1"),
        (100.0, "100"),
        (1e21, "1e+21"),
        (1e16, "10000000000000000"),
        (1e-7, "1e-7"),
        (1e-6, "0.000001"),
        (1.5e300, "1.5e+300"),
        (-0.0, "0"),
        (0.1 + 0.2, "0.30000000000000004"),
        (123.456, "123.456"),
        (-1.25e-10, "-1.25e-10"),
        (5e-324, "5e-324"),
        (100, "100"),
        (2**53, "9007199254740992"),
        (2**53 + 1, "9007199254740992"),
        (10**21, "1e+21"),
        (-(10**22), "-1e+22"),
    ],
)
def test_number_to_string_readable(x: float, expected: str) -> None:
    """number_to_string writes what JSON.stringify writes."""
    assert expected == number_to_string(x)


@pytest.mark.parametrize("x", [math.nan, math.inf, -math.inf, 2**1024])
def test_number_to_string_rejects_non_finite(x: float) -> None:
    """number_to_string raises ValueError for values JSON cannot hold."""
    with pytest.raises(ValueError, match=r"finite|too large"):
        number_to_string(x)


# ------------------------------------------------------------- properties


@given(st.floats(allow_nan=False, allow_infinity=False))
def test_number_to_string_round_trips(x: float) -> None:
    """Parsing number_to_string(x) gives back x (-0 becomes 0)."""
    assert x == float(number_to_string(x))


@given(
    st.floats(min_value=-1e20, max_value=1e20, allow_nan=False),
    st.integers(min_value=0, max_value=30),
)
def test_to_fixed_is_exact_half_up_rounding(x: float, digits: int) -> None:
    """to_fixed equals exact round-half-away-from-zero of the binary value."""
    quantum = Decimal(1).scaleb(-digits)
    with localcontext(prec=200):
        expected = f"{Decimal(x).quantize(quantum, rounding=ROUND_HALF_UP):f}"
    if expected.startswith("-") and x == 0.0:
        expected = expected[1:]  # (-0).toFixed(d) has no sign
    assert expected == to_fixed(x, digits)


@settings(max_examples=200, deadline=None)
@given(xs=st.lists(st.one_of(st.floats(), _ANY_DOUBLE), max_size=8))
def test_js_logs_is_js_log_of_each(xs: list[float]) -> None:
    """js_logs gives js_log of each value, in order."""
    assert [_to_hex(js_log(x)) for x in xs] == [_to_hex(y) for y in js_logs(xs)]
