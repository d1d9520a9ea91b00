"""JSON in and out as JavaScript does it: JSON.stringify output, strict parsing."""

from __future__ import annotations

import json
import math
import subprocess

import pytest

import mtcompute
from mtcompute.core.jsjson import JsonError, dumps, loads
from tests.conftest import require_program

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
