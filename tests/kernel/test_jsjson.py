"""JSON in and out as JavaScript does it: JSON.stringify output, strict parsing."""

from __future__ import annotations

import json
import math
import re
import subprocess

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import mtcompute
from mtcompute import native
from mtcompute.core import jsjson
from mtcompute.core.jsjson import JsonError, dumps, loads
from mtcompute.core.jsmath import number_to_string
from tests.conftest import kernel_switch, require_program
from tests.strategies import json_values

CASES = [
    {"a": 1.0, "b": -0.0, "c": 0.1, "d": 1e21, "e": 1e-7, "f": 123456789012345680000.0},
    [0.8375922397, 1, 2**53, 5e-324, 1.7976931348623157e308, -1.5e-10],
    {"s": 'quote " backslash \\ newline \n tab \t bell \x07 del \x7f'},
    {"s": "non-ASCII é 中文 😀 \u2028 \u2029 \ufeff", "lone": "\ud800x\udfff"},
    {"nested": [[], {}, [None, True, False]], "z": "", "ключ": "значение"},
]


def test_dumps_matches_node_json_stringify() -> None:
    """dumps() writes exactly what Node's JSON.stringify writes for the same values (skipped
    without Node.js)."""
    payload = json.dumps(CASES)  # ASCII-escaped, so lone surrogates survive the trip
    node = subprocess.run(
        [
            require_program("node"),
            "-e",
            "const v = JSON.parse(require('fs').readFileSync(0, 'utf8'));"
            "process.stdout.write(v.map(x => JSON.stringify(x)).join('\\n'))",
        ],
        input=payload.encode(),
        capture_output=True,
        check=True,
        timeout=30,
    )
    expected = node.stdout.decode("utf-8").split("\n")
    assert expected == [dumps(case) for case in CASES]


def test_ints_past_the_largest_double_are_written_null() -> None:
    """An int JavaScript would hold as Infinity is written null, as JSON.stringify does."""
    assert "[null,-1,null]" == dumps([10**400, -1, -(2**1024)])


def test_integral_floats_are_written_as_integers() -> None:
    """1.0 is written 1, like JSON.stringify; -0 is written 0."""
    assert "[1,0,100,1e+21]" == dumps([1.0, -0.0, 100.0, 1e21])


def test_loads_reads_integral_numbers_as_ints() -> None:
    """4.0 is 4; 1e2 is 100; 0.5 stays a float."""
    assert [4, 100, 0.5] == loads("[4.0, 1e2, 0.5]")
    assert [int, int, float] == [type(v) for v in loads("[4.0, 1e2, 0.5]")]  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("NaN", "Expected JSON, got NaN is not JSON."),
        ("[Infinity]", "Expected JSON, got Infinity is not JSON."),
        ("[-Infinity]", "Expected JSON, got -Infinity is not JSON."),
        (
            "{",
            "Expected JSON, got invalid JSON at line 1 column 2: "
            "Expecting property name enclosed in double quotes.",
        ),
        ("", "Expected JSON, got invalid JSON at line 1 column 1: Expecting value."),
        ("[1] [2]", "Expected JSON, got invalid JSON at line 1 column 5: Extra data."),
        ("[" * 100_000 + "]" * 100_000, "Expected JSON, got arrays or objects nested too deeply."),
    ],
    ids=["NaN", "Infinity", "-Infinity", "unclosed", "empty", "two values", "deep"],
)
def test_loads_refuses_what_is_not_json(text: str, message: str) -> None:
    """NaN, Infinity, broken text and pathological nesting raise JsonError with a message."""
    with pytest.raises(JsonError) as info:
        loads(text)
    assert message == str(info.value)


def test_loads_refuses_bytes_that_are_not_utf8() -> None:
    """A byte that is not UTF-8 is named by its offset."""
    with pytest.raises(JsonError) as info:
        loads(b'["\xff"]')
    assert "Expected UTF-8 JSON, got a byte that is not UTF-8 at offset 2." == str(info.value)


def test_integer_literals_too_large_for_a_double_are_infinity() -> None:
    """As in JSON.parse, an integer past the largest double reads as Infinity (no crash at
    any length), and the largest double itself stays exact."""
    largest = int(1.7976931348623157e308)
    values = loads(f"[{'1' * 5000}, -{'9' * 400}, {largest}, {2**1024 - 2**970}]")
    assert [math.inf, -math.inf, largest, math.inf] == values


def test_execute_json_never_raises_on_hostile_text() -> None:
    """execute_json answers every hostile body with an invalid_input envelope."""
    bodies = [b"\xff", b"[" * 200_000, b"1" * 5000, b"NaN", b'{"hypotheses": ["\\ud800"]']
    codes = {mtcompute.execute_json("chrf-compute", "1.0.0", b)["error"]["code"] for b in bodies}  # type: ignore[index]
    assert {"invalid_input"} == codes


def test_execute_never_raises_on_odd_python_values() -> None:
    """Wrong types, NaN, huge ints, deep nesting, surrogates, non-JSON objects: envelopes."""
    deep: list[object] = []
    for _ in range(100_000):
        deep = [deep]
    odd = [
        None,
        1,
        "x",
        float("nan"),
        10**5000,
        deep,
        {"hypotheses": deep, "references": []},
        {1: 2},
        {"hypotheses": ["\udc80"], "references": ["a"]},
        object(),
        b"bytes",
        {"hypotheses": ("a",), "references": ("a",)},
    ]
    envelopes = [mtcompute.execute("chrf-compute", "1.0.0", value) for value in odd]
    assert all(set(e) in ({"result"}, {"error"}) for e in envelopes)
    assert "internal_error" not in {e.get("error", {}).get("code") for e in envelopes}  # type: ignore[union-attr]


# --- the fast paths of dumps write what the general path writes ----------------------------

_SURROGATE = re.compile("[\ud800-\udfff]")


def _general_dumps(value: object) -> str:
    """dumps as written before its fast paths: the stdlib escaper, then number_to_string."""
    if isinstance(value, str):
        text = json.JSONEncoder(ensure_ascii=False).encode(value)
        return _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
    if value is None or value is True or value is False:
        return {None: "null", True: "true", False: "false"}[value]
    if isinstance(value, int):
        return "null" if abs(value) >= 2**1024 - 2**970 else number_to_string(value)
    if isinstance(value, float):
        return number_to_string(value) if math.isfinite(value) else "null"
    if isinstance(value, dict):
        return (
            "{"
            + ",".join(f"{_general_dumps(k)}:{_general_dumps(v)}" for k, v in value.items())
            + "}"
        )
    assert isinstance(value, list | tuple)
    return "[" + ",".join(_general_dumps(item) for item in value) + "]"


_NUMBERS = st.one_of(
    st.floats(),
    st.floats(min_value=1e-5, max_value=1e17),
    st.floats(min_value=-1e17, max_value=-1e-5),
    st.integers(),
    st.integers(min_value=2**53 - 4, max_value=2**53 + 4),
    st.sampled_from([2**1024 - 2**970, 2**1024 - 2**970 - 1, -(2**1024)]),
)
_JSON_LIKE = st.recursive(
    st.none() | st.booleans() | _NUMBERS | st.text(),
    lambda inner: (
        st.lists(inner, max_size=4).map(lambda x: x)
        | st.lists(inner, max_size=4).map(tuple)
        | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=12,
)

_EDGE_FLOATS = [
    1e-4,
    9.999999999999999e-05,
    0.00010000000000000002,
    1e16,
    9999999999999998.0,
    1e15 + 0.5,
    0.1,
    -0.5,
    0.30000000000000004,
    5e-324,
    -5e-324,
    2.2250738585072014e-308,
    1.7976931348623157e308,
    123456789.12345679,
    1e21,
    1e-7,
    0.0,
    -0.0,
    2.0**53,
    2.0**53 + 2,
    0.8375922397,
    math.inf,
    -math.inf,
    math.nan,
]


@pytest.mark.parametrize("x", _EDGE_FLOATS, ids=repr)
def test_fast_float_matches_number_to_string_on_edges(x: float) -> None:
    """Floats at the edges of repr's positional range are written as number_to_string does."""
    assert _general_dumps(x) == dumps(x)
    assert _general_dumps(-x) == dumps(-x)


@settings(max_examples=1000, deadline=None)
@given(st.floats())
def test_fast_float_matches_number_to_string(x: float) -> None:
    """Any float is written as number_to_string writes it (null when not finite)."""
    assert _general_dumps(x) == dumps(x)


@settings(max_examples=500, deadline=None)
@given(st.text())
def test_fast_string_matches_the_general_escaper(text: str) -> None:
    """Any string, lone surrogates and control characters included, is escaped as before."""
    assert _general_dumps(text) == dumps(text)


@settings(max_examples=300, deadline=None)
@given(_JSON_LIKE)
def test_fast_paths_match_the_general_writer(value: object) -> None:
    """Nested JSON-like values are written byte for byte as the general writer writes them."""
    assert _general_dumps(value) == dumps(value)


def _general_loads(text: str) -> object:
    """loads as written before its prebuilt decoders: json.loads with the hooks each call."""
    return json.loads(
        text,
        parse_float=jsjson._parse_float,
        parse_int=jsjson._parse_int,
        parse_constant=jsjson._refuse_constant,
    )


def _typed(value: object) -> object:
    """``value`` with the type of every number beside it (1 and 1.0 differ)."""
    if isinstance(value, dict):
        return {k: _typed(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_typed(v) for v in value]
    return (type(value).__name__, value)


@pytest.mark.parametrize("digits", [15, 16, 308, 309, 310, 400, 5000], ids=lambda d: f"{d} digits")
def test_loads_reads_long_integer_literals_as_before(digits: int) -> None:
    """Integer literals around and past 309 digits are read as the per-call hooks read them."""
    for literal in ("9" * digits, "1" + "0" * (digits - 1), "-" + "9" * digits):
        text = f'{{"n":[{literal}],"s":"{"7" * 400}"}}'
        assert _typed(_general_loads(text)) == _typed(loads(text))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 320), st.sampled_from(["", "a", ",", "-", ".", " "]))))
def test_long_digit_runs_are_found_as_by_their_lengths(runs: list[tuple[int, str]]) -> None:
    """The check that picks the decoder with the integer hook finds a run of 309 digits or
    more exactly where there is one, whatever surrounds the runs."""
    text = "".join("7" * length + after for length, after in runs)
    longest = max((len(run) for run in re.findall("[0-9]+", text)), default=0)
    assert (longest >= 309) == jsjson._long_digits(text)


def test_loads_refuses_a_byte_order_mark_as_json_loads_does() -> None:
    """A leading U+FEFF is invalid JSON at line 1 column 1, as json.loads says."""
    expected = (
        "Expected JSON, got invalid JSON at line 1 column 1: "
        "Unexpected UTF-8 BOM (decode using utf-8-sig)."
    )
    with pytest.raises(JsonError) as error:
        loads("\ufeff{}")
    assert expected == str(error.value)


@settings(max_examples=300, deadline=None)
@given(_JSON_LIKE)
def test_loads_reads_what_the_per_call_hooks_read(value: object) -> None:
    """JSON text of nested values (huge ints included) parses to the same typed values."""
    try:
        text = json.dumps(value, ensure_ascii=False, allow_nan=False)
    except ValueError:  # NaN or an infinity somewhere: not JSON text
        assume(False)
    assert _typed(_general_loads(text)) == _typed(loads(text))


# --- the kernel's writer (js_dumps) writes what the Python writer writes -------------------

needs_kernel = pytest.mark.skipif(not native.AVAILABLE, reason="built without the C kernel")


def _exact(value: object) -> bool:
    """Whether the kernel's writer takes ``value``: exact JSON types only, str keys, strings
    without surrogates, ints within 2^53."""
    kind = type(value)
    if kind is str:
        return not _SURROGATE.search(value)  # type: ignore[arg-type]  # type() is str
    if kind is int:
        return abs(value) <= 2**53  # type: ignore[arg-type]  # type() is int
    if kind is float or value is None or value is True or value is False:
        return True
    if kind is list or kind is tuple:
        return all(map(_exact, value))  # type: ignore[call-overload]  # a list or tuple
    if kind is dict:
        return all(type(k) is str and _exact(k) and _exact(v) for k, v in value.items())  # type: ignore[attr-defined]
    return False


@needs_kernel
@settings(max_examples=1500, deadline=None)
@given(st.one_of(_JSON_LIKE, json_values()))
def test_kernel_writer_is_the_python_writer(value: object) -> None:
    """js_dumps writes the Python writer's bytes for every value of exact JSON types, and
    declines (None) exactly the others."""
    expected = jsjson._dumps(value).encode("utf-8") if _exact(value) else None
    assert expected == native.ext.js_dumps(value)


class _Items(dict[str, object]):
    """A dict subclass (the Python writer's general path)."""


@needs_kernel
@pytest.mark.parametrize(
    "value",
    [
        _Items(a=1),
        {"a": _Items(b=[1])},
        {1: 2},
        [2**53 + 1],
        ["a\udfffb"],
        {"\ud800": 1},
        range(3),
        [[[[1]]]] * 3,
        json.loads("[" * 300 + "]" * 300),
    ],
    ids=repr,
)
def test_dumps_is_the_python_writer_where_the_kernel_declines(value: object) -> None:
    """What js_dumps declines (subclasses, other keys, large ints, surrogates, other
    sequences, deep nesting) dumps writes with the Python writer, the same text as with the
    kernel off."""
    with kernel_switch(False):
        pure = dumps(value)
    assert (pure, pure) == (dumps(value), jsjson._dumps(value))


@needs_kernel
def test_envelope_bytes_come_from_the_kernel_writer() -> None:
    """An envelope's bytes are the kernel writer's, and the same with the kernel off."""
    envelope = mtcompute.execute(
        "chrf-compute", "1.0.0", {"hypotheses": ["é"], "references": ["e"]}
    )
    with kernel_switch(False):
        pure = envelope.json_bytes()
    assert (pure, pure) == (envelope.json_bytes(), native.ext.js_dumps(dict(envelope)))
