#!/usr/bin/env python3
"""Fuzz ``mtcompute.execute`` and ``mtcompute.execute_json`` for every tool in the registry.

Usage::

    python scripts/fuzz.py --seconds 600            # the time split evenly over the tools
    python scripts/fuzz.py --count 300 --seed 1     # 300 inputs per tool
    python scripts/fuzz.py --count 5000 --tool chrf-compute --tool bleu-smoothing-compute@1.0.0
    python scripts/fuzz.py --seconds 120 --engine atheris   # coverage-guided, execute_json bytes
    python scripts/fuzz.py --replay fuzz-failures/chrf-compute@1.0.0/mutant-0123abcd.json

The tools come from :func:`mtcompute.tools.list_tools` (the registry), so a new tool is fuzzed
with no change here. For each tool the hypothesis engine (the default) draws, in one stream:

* ``json``: arbitrary JSON values (nested; unicode with lone surrogates and astral code
  points; huge, tiny and signed-zero floats, NaN and infinities, big ints, booleans, null),
  mostly as objects keyed by the contract's field names;
* ``exotic``: a contract example with one node replaced by a Python value that is not JSON
  (tuple, set, bytes, Decimal, an int subclass, a dict with non-string keys, ...);
* ``schema``: values drawn from the contract's input schema (near the valid space);
* ``mutant``: a contract example after one to four random mutations (replace, delete or add
  keys, change types, boundary numbers around every minimum, maximum and contract limit,
  arrays grown to their limits and past them, strings with whitespace, lone surrogates,
  astral characters and exactly 128/129 UTF-8 bytes, duplicated elements);
* ``text``: JSON text for :func:`mtcompute.execute_json`: mutated bytes of an example
  (truncations, byte flips, inserted tokens), deep nesting, duplicate keys, NaN/Infinity and
  out-of-range literals, non-UTF-8 and UTF-16 bodies;
* ``id``: unknown tool ids and versions (and non-string ones), which must be ``not_found``.

Every envelope is checked: exactly ``{"result": ...}`` or ``{"error": {code, message,
path}}``; the code one of the four contract codes (``internal_error`` is a bug); the message
a non-empty str of at most 1,000 characters; the path a JSON Pointer that resolves in the
input (or whose parent does); the result valid against the contract's output schema after a
``dumps``/``json.loads`` round trip, its keys in the schema's order, and given only for an
input that satisfies the input schema; ``dumps`` encodable as UTF-8 and read back equal;
the same envelope when run twice; the same outcome from ``execute`` and from
``execute_json`` on the same value; and each input done within ``--bound`` seconds of CPU (a
watchdog ends the run, saving the input, if one takes ``--hard-limit`` seconds).

Output: per tool, inputs tried (by kind), failures and the slowest input. Failing inputs
(and each tool's slowest input) are saved under ``--out``; the exit status is 1 on any
failure. ``--replay FILE`` runs one saved input again and prints its envelope and problems.
"""

from __future__ import annotations

import argparse
import base64
import collections
import contextlib
import copy
import decimal
import enum
import fractions
import functools
import hashlib
import inspect
import json
import math
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

import mtcompute
from mtcompute.contracts import contract
from mtcompute.contracts.validate import MAX_FAULTS
from mtcompute.core.jsjson import JsonError
from mtcompute.envelope import Envelope
from mtcompute.errors import NotFound
from mtcompute.tools import list_tools

__all__ = [
    "CODES",
    "KINDS",
    "FuzzStats",
    "Fuzzer",
    "Target",
    "check_envelope",
    "fuzz_inputs",
    "main",
    "replay",
    "run",
    "selected_tools",
    "summary",
    "targets",
]

CODES = frozenset({"invalid_input", "limit_exceeded", "unsupported_input", "not_found"})
KINDS = ("json", "exotic", "schema", "mutant", "text", "id")
POINTER = re.compile(r"(?:/(?:[^~/]|~[01])*)*")
MAX_MESSAGE_CHARS = 1000
DEFAULT_BOUND = 2.0
DEFAULT_OUT = Path("fuzz-failures")
# Integers at or past this magnitude are Infinity once written as JSON text and read back
# (JavaScript's JSON.parse, and mtcompute.loads): execute and execute_json then differ.
_DOUBLE_OVERFLOW = 2**1024 - 2**970
# Arrays are never grown past this many items (the largest contract figure that is a count of
# items is 500,000 tokens); a bigger list only measures the machine.
_MAX_GROW = 600_000
# No generated value has more nodes than this: growing an array of arrays to a limit at two
# levels at once would otherwise build billions of nodes.
_MAX_NODES = 1_500_000
# Inputs with more nodes than this are run once (no second run, no execute_json comparison).
_RECHECK_NODES = 50_000


class _Missing(enum.Enum):
    MISSING = "missing"


MISSING = _Missing.MISSING


# --- Targets ---------------------------------------------------------------------------------


class Target:
    """One tool version with what the checks need from its contract.

    A plain class with a short ``repr``: hypothesis shows the arguments of the strategies
    built on it, and the schemas and validators are long.
    """

    __slots__ = (
        "count_limits",
        "examples",
        "input_schema",
        "input_validator",
        "limits",
        "output_schema",
        "output_validator",
        "tool_id",
        "version",
        "word_limits",
    )

    def __init__(self, tool_id: str, version: str) -> None:
        doc = contract(tool_id, version)
        self.tool_id = tool_id
        self.version = version
        self.input_schema: dict[str, Any] = doc["input_schema"]
        self.output_schema: dict[str, Any] = doc["output_schema"]
        examples = [e["input"] for e in doc.get("examples", []) if "input" in e]
        self.examples: tuple[Any, ...] = tuple(copy.deepcopy(examples)) or ({},)
        limits = {
            name: v
            for name, v in doc.get("limits", {}).items()
            if isinstance(v, int) and not isinstance(v, bool) and v > 0
        }
        # Every figure, as a number to put in a field ...
        self.limits: tuple[int, ...] = tuple(sorted(set(limits.values())))
        # ... and those that count items (segments, references, tokens, orders), as sizes
        # to grow arrays to; a byte or value limit is no array size.
        self.count_limits: tuple[int, ...] = tuple(
            sorted(
                {
                    v
                    for name, v in limits.items()
                    if "bytes" not in name and "value" not in name and v <= _MAX_GROW
                }
            )
        )
        # ... and those that count the words of one text (ter-compute's max segment words),
        # as lengths to write texts of words to.
        self.word_limits: tuple[int, ...] = tuple(
            sorted({v for name, v in limits.items() if name.endswith("segment_words")})
        )
        self.input_validator = Draft202012Validator(self.input_schema)
        self.output_validator = Draft202012Validator(self.output_schema)

    def __repr__(self) -> str:
        return f"Target({self.label!r})"

    @property
    def label(self) -> str:
        """``id@version``."""
        return f"{self.tool_id}@{self.version}"

    @property
    def output_keys(self) -> tuple[str, ...]:
        """The output schema's property names, in their order."""
        return tuple(self.output_schema.get("properties", {}))


def selected_tools(selected: Sequence[str] = ()) -> list[tuple[str, str]]:
    """(id, version) of every tool in the registry, or of those named ``id`` or ``id@version``."""
    found = [
        (tool.id, tool.version)
        for tool in list_tools()
        if not selected or any(name in (tool.id, f"{tool.id}@{tool.version}") for name in selected)
    ]
    unknown = [n for n in selected if not any(n in (i, f"{i}@{v}") for i, v in found)]
    if unknown:
        raise SystemExit(f"fuzz: no such tool in the registry: {', '.join(unknown)}")
    return found


def targets(selected: Sequence[str] = ()) -> list[Target]:
    """A :class:`Target` for each selected tool (``NotFound`` if one has no contract)."""
    return [Target(tool_id, version) for tool_id, version in selected_tools(selected)]


# --- The checks ------------------------------------------------------------------------------


def _pointer_tokens(pointer: str) -> list[str]:
    return [t.replace("~1", "/").replace("~0", "~") for t in pointer.split("/")[1:]]


def _resolves(value: object, tokens: Sequence[str]) -> bool:
    node = value
    for token in tokens:
        if isinstance(node, Mapping):
            matches = [k for k in node if isinstance(k, str) and k == token]
            if not matches:
                return False
            node = node[matches[0]]
        elif isinstance(node, Sequence) and not isinstance(node, str | bytes | bytearray):
            if not re.fullmatch(r"0|[1-9][0-9]*", token) or int(token) >= len(node):
                return False
            node = node[int(token)]
        else:
            return False
    return True


def _json_like(value: object, max_depth: int = 200) -> bool:
    """Whether ``value`` holds only dict/list/str/int/float/bool/None (of exactly those types),
    nested at most ``max_depth`` deep (so that recursive code may walk it)."""
    stack = [(value, 0)]
    while stack:
        node, level = stack.pop()
        if level > max_depth:
            return False
        kind = type(node)
        if kind is dict:
            if not all(type(k) is str for k in node):  # type: ignore[attr-defined]
                return False
            stack.extend((v, level + 1) for v in node.values())  # type: ignore[attr-defined]
        elif kind is list:
            stack.extend((v, level + 1) for v in node)  # type: ignore[attr-defined]
        elif kind not in (str, int, float, bool, type(None)):
            return False
    return True


def _has_huge_int(value: object) -> bool:
    stack = [value]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
        elif isinstance(node, int) and not isinstance(node, bool) and abs(node) >= _DOUBLE_OVERFLOW:
            return True
    return False


def _js_strings(value: object) -> object:
    """``value`` with each string as JavaScript sees it: a high surrogate code point followed
    by a low one is one astral character (Python keeps two code points, which no JSON text
    can give back; only a Python caller of execute can make them)."""
    if isinstance(value, str):
        return value.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")
    if isinstance(value, dict):
        return {_js_strings(k): _js_strings(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_js_strings(v) for v in value]
    return value


def check_envelope(target: Target, envelope: object, value: object = MISSING) -> list[str]:
    """Every way ``envelope`` breaks the envelope rules for ``target`` (empty when it is fine).

    ``value`` is the input as the tool saw it (``MISSING`` when unknown, e.g. JSON text that
    does not parse); with it the error path and the result are also checked against the input.
    """
    problems: list[str] = []
    if type(envelope) not in (dict, Envelope):  # what execute gives, or the dict it equals
        return [f"envelope is a {type(envelope).__name__}, not a dict"]
    if set(envelope) not in ({"result"}, {"error"}):
        return [f"envelope keys are {sorted(map(str, envelope))}, not exactly result or error"]
    try:
        text = mtcompute.dumps(envelope)
    except Exception as exc:
        return [f"dumps raised {type(exc).__name__}: {exc}"]
    if not isinstance(text, str):
        return [f"dumps returned a {type(text).__name__}"]
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        problems.append(f"dumps text is not encodable as UTF-8: {exc}")
    try:
        parsed = json.loads(text)
    except (ValueError, RecursionError) as exc:
        return [*problems, f"dumps text is not JSON: {exc}"]
    if _js_strings(parsed) != _js_strings(envelope):
        problems.append("dumps text read back differs from the envelope")
    if "error" in envelope:
        problems.extend(_check_error(envelope["error"], value))
    else:
        problems.extend(_check_result(target, envelope["result"], parsed.get("result"), value))
    return problems


def _check_error(error: object, value: object) -> list[str]:
    if not isinstance(error, dict):
        return [f"error is a {type(error).__name__}, not a dict"]
    if "faults" in error:  # an input with several faults lists them all, the error first
        faults = error["faults"]
        head = {k: v for k, v in error.items() if k != "faults"}
        if not isinstance(faults, list) or not 2 <= len(faults) <= MAX_FAULTS:
            return [f"error faults is not a list of 2 to {MAX_FAULTS} faults: {faults!r:.200}"]
        if faults[0] != head:
            return ["the first of the error's faults is not the error itself"]
        problems = [p for fault in faults[1:] for p in _check_error(fault, value)]
        return problems + _check_error(head, value)
    if set(error) != {"code", "message", "path"}:
        return [f"error keys are {sorted(map(str, error))}, not code, message, path"]
    problems = []
    code, message, path = error["code"], error["message"], error["path"]
    if code == "internal_error":
        problems.append(f"internal_error: {str(message)[:200]}")
    elif code not in CODES:
        problems.append(f"error code {code!r} is not one of {sorted(CODES)}")
    if not isinstance(message, str) or not message.strip():
        problems.append(f"error message {message!r} is not a non-empty string")
    elif len(message) > MAX_MESSAGE_CHARS:
        problems.append(f"error message is {len(message)} characters long (over 1000)")
    if not isinstance(path, str) or not POINTER.fullmatch(path):
        problems.append(f"error path {path!r} is not a JSON Pointer")
    elif value is not MISSING and code != "not_found":
        tokens = _pointer_tokens(path)
        try:
            if not (_resolves(value, tokens) or _resolves(value, tokens[:-1])):
                problems.append(
                    f"error path {path!r} resolves in the input neither it nor its parent"
                )
        except RecursionError:
            pass
    return problems


def _check_result(target: Target, result: object, parsed: object, value: object) -> list[str]:
    if not isinstance(result, dict):
        return [f"result is a {type(result).__name__}, not a dict"]
    problems = []
    keys = list(result)
    order = [k for k in target.output_keys if k in result]
    if keys != order:
        problems.append(f"result keys {keys} are not in the output schema's order {order}")
    errors = sorted(target.output_validator.iter_errors(parsed), key=lambda e: list(e.path))
    if errors:
        first = errors[0]
        where = "/" + "/".join(map(str, first.absolute_path))
        problems.append(f"result breaks the output schema at {where}: {first.message[:200]}")
    if (
        value is not MISSING
        and _nodes(value, _RECHECK_NODES) <= _RECHECK_NODES
        and _json_like(value)
    ):
        try:
            bad = next(target.input_validator.iter_errors(value), None)
        except RecursionError:
            bad = None
        if bad is not None:
            where = "/" + "/".join(map(str, bad.absolute_path))
            problems.append(
                f"result for an input that breaks the input schema at {where}: {bad.message[:200]}"
            )
    return problems


# --- Values ----------------------------------------------------------------------------------

NUMBERS: tuple[int | float, ...] = (
    0, 1, -1, 2, 4, 8, 9, 16, 17, 4.0, 1.0, 0.5, 0.1, -0.0, 1e-7, 1.5,
    1e308, -1e308, 1.7976931348623157e308, 5e-324, -5e-324, 2.2250738585072014e-308,
    2**31 - 1, 2**31, 2**32, 2**53, 2**53 + 1, 2**63 - 1, 2**63, 2**64, -(2**63),
    10**9, 10**9 + 1, 10**12, 10**12 + 1, 10**15, 10**16 + 1, 1e16, 1e300, 10**308,
    2**1023, 2**1024, 10**400, 10**5000, -(10**5000),
    math.inf, -math.inf, math.nan,
)  # fmt: skip

SPECIAL_CHARS = (
    " ", "\t", "\n", "\r", "\x0b", "\x0c", "\x1c", "\x1f", "\x85", "\u00a0", "\u1680",
    "\u2000", "\u200a", "\u2028", "\u2029", "\u202f", "\u205f", "\u3000", "\u200b", "\u200c",
    "\u200d", "\u2060", "\ufeff", "\u180e", "\x00", "\x7f", "\ud800", "\udbff", "\udc00",
    "\udfff", "\U0001f600", "\U0001f468\u200d\U0001f469", "\U0001f1eb\U0001f1f7",
    "\U00020000", "\U0001d400", "\U0010ffff", "\U00010000", "\uffff", "\ufffd", "e\u0301",
    "\u0301", "\u03c3", "\u03c2", "\u03a3", "\u0130", "\u00df", "\u212a", "\u05d0", "\u0915\u094d",
    "\u4e2d", "\\", '"', "/", "~", "~1", "%", "{", "[",
)  # fmt: skip

SPECIAL_STRINGS = (
    "", " ", "a", "A", "the", "cat", "mat", "é", "\ud800", "a\udfffb", "\U0001f600",
    "x" * 128, "x" * 129, "\u00e9" * 64, "\u00e9" * 64 + "a", "\U0001f600" * 32,
    "\U0001f600" * 32 + "a", "\u20ac" * 42 + "ab", "\u20ac" * 43, "\ud800" * 43,
    "null", "true", "0", "-0", "NaN", "Infinity", "1e308",
    "none", "method0", "method1", "method2", "method3", "method4", "method5", "method6",
    "method7", "method8", "Method1", "METHOD1", " method1", "method1 ", "chrF",
)  # fmt: skip

_VOCAB = ("a", "b", "the", "cat", "sat", "on", "mat", "\u00e9t\u00e9", "\u4e2d", "\U0001f600")


def _pick(values: Sequence[Any]) -> st.SearchStrategy[Any]:
    """``sampled_from`` that never shows its values (hypothesis cannot repr 10**5000)."""
    items = tuple(values)
    return st.integers(0, len(items) - 1).map(items.__getitem__)


def _choice(draw: st.DrawFn, items: Sequence[Any]) -> Any:
    """One of ``items`` (drawn as an index, so hypothesis never shows or copies the items)."""
    return items[draw(st.integers(0, len(items) - 1))]


@functools.cache
def _unicode_text(max_size: int = 12) -> st.SearchStrategy[str]:
    chars = st.one_of(
        st.characters(),
        st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF),
        st.characters(min_codepoint=0x10000, max_codepoint=0x10FFFF),
        st.sampled_from(SPECIAL_CHARS),  # some are clusters of several code points
    )
    return st.one_of(
        st.lists(chars, max_size=max_size).map("".join), st.sampled_from(SPECIAL_STRINGS)
    )


def _numbers() -> st.SearchStrategy[int | float]:
    return st.one_of(
        _pick(NUMBERS),
        st.integers(),
        st.integers(min_value=-(2**70), max_value=2**70),
        st.floats(),
        st.floats(min_value=0, max_value=1),
    )


def json_values(keys: Sequence[str] = (), max_leaves: int = 12) -> st.SearchStrategy[Any]:
    """Arbitrary JSON-like values; object keys come from ``keys`` half of the time."""
    return _json_values(tuple(keys), max_leaves)


@functools.cache
def _json_values(keys: tuple[str, ...], max_leaves: int) -> st.SearchStrategy[Any]:
    scalars = st.one_of(st.none(), st.booleans(), _numbers(), _unicode_text())
    key_strategy = st.one_of(st.sampled_from(keys), _unicode_text()) if keys else _unicode_text()
    return st.recursive(
        scalars,
        lambda children: st.one_of(
            st.lists(children, max_size=6),
            st.dictionaries(key_strategy, children, max_size=6),
        ),
        max_leaves=max_leaves,
    )


def _deep(depth: int, leaf: object, kind: str) -> object:
    value = leaf
    for _ in range(depth):
        value = [value] if kind == "list" else {"a": value}
    return value


def _schema_keys(schema: Mapping[str, Any]) -> list[str]:
    """Every property name anywhere in ``schema``."""
    keys: list[str] = []
    stack: list[Any] = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            keys.extend(k for k in node.get("properties", {}) if k not in keys)
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return keys


def _schema_numbers(schema: Mapping[str, Any]) -> list[int | float]:
    """Each minimum/maximum/size figure in ``schema``, with its neighbours."""
    found: set[int | float] = set()
    stack: list[Any] = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            for key in ("minimum", "maximum", "minItems", "maxItems", "minLength", "maxLength"):
                v = node.get(key)
                if isinstance(v, int | float) and not isinstance(v, bool):
                    found.update({v - 1, v, v + 1})
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return sorted(found)


@st.composite
def shaped_objects(draw: st.DrawFn, target: Target) -> object:
    """An object with the contract's top-level keys (some missing) holding arbitrary values."""
    keys = list(target.input_schema.get("properties", {}))
    values = json_values(_schema_keys(target.input_schema), max_leaves=4)
    chosen = draw(st.lists(st.sampled_from(keys), unique=True)) if keys else []
    obj = {k: draw(values) for k in chosen}
    if draw(st.booleans()):
        base = _copy(_choice(draw, target.examples))
        if isinstance(base, dict):
            base.update(obj)
            obj = base
    return obj


def from_schema(schema: Mapping[str, Any]) -> st.SearchStrategy[Any]:
    """Values of the JSON Schema subset the contracts use (type, properties, required, items,
    min/max, minItems/maxItems, minLength/maxLength, enum, const), small and near-valid."""
    return _from_schema_text(json.dumps(schema, sort_keys=True))


@functools.cache
def _from_schema_text(text: str) -> st.SearchStrategy[Any]:
    return _from_schema(json.loads(text))


def _from_schema(schema: Mapping[str, Any]) -> st.SearchStrategy[Any]:
    if "const" in schema:
        return st.just(schema["const"])
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    kinds = schema.get("type", "object")
    if isinstance(kinds, list):
        return st.one_of([from_schema({**schema, "type": k}) for k in kinds])
    if kinds == "null":
        return st.none()
    if kinds == "boolean":
        return st.booleans()
    if kinds in ("integer", "number"):
        low, high = schema.get("minimum"), schema.get("maximum")
        edges = [v for v in (low, high) if v is not None]
        if kinds == "integer":
            ranged: st.SearchStrategy[Any] = st.integers(low, high)
            small = st.integers(low if low is not None else -5, min(high or 12, 12))
            strategies = [small, ranged, ranged.map(float)]
        else:
            ranged = st.floats(low, high, allow_nan=False, allow_infinity=False)
            strategies = [ranged]
        if edges:
            strategies.append(st.sampled_from(edges))
        return st.one_of(strategies)
    if kinds == "string":
        low = schema.get("minLength", 0)
        high = schema.get("maxLength")
        words = st.sampled_from(_VOCAB)
        if high is None:  # free text (chrF): words and spaces
            return st.lists(st.one_of(words, st.sampled_from(SPECIAL_CHARS)), max_size=12).map(
                " ".join
            )
        return st.one_of(words, st.text(min_size=low, max_size=min(high, 8))).filter(
            lambda s: low <= len(s) <= high
        )
    if kinds == "array":
        low = schema.get("minItems", 0)
        high = schema.get("maxItems")
        cap = low + 6 if high is None else min(high, low + 6)
        items = from_schema(schema.get("items", {}))
        return st.lists(items, min_size=low, max_size=max(low, cap))
    # object
    props = schema.get("properties", {})
    required = set(schema.get("required", []))
    return st.fixed_dictionaries(
        {k: from_schema(s) for k, s in props.items() if k in required},
        optional={k: from_schema(s) for k, s in props.items() if k not in required},
    )


# --- Mutations of the contract examples ------------------------------------------------------


def _copy(value: Any) -> Any:
    """A deep copy, or the value itself when it is nested too deeply to copy."""
    try:
        return copy.deepcopy(value)
    except RecursionError:
        return value


def _nodes(value: object, cap: int = _MAX_NODES) -> int:
    """How many nodes ``value`` has, counting no further than ``cap``."""
    count = 0
    stack = [value]
    while stack and count <= cap:
        node = stack.pop()
        count += 1
        if isinstance(node, dict):
            stack.extend(node.values())
        elif isinstance(node, list | tuple):
            stack.extend(node)
    return count


def _paths(value: object) -> list[tuple[object, ...]]:
    out: list[tuple[object, ...]] = []
    stack: list[tuple[object, tuple[object, ...]]] = [(value, ())]
    while stack and len(out) < 5000:
        node, path = stack.pop()
        out.append(path)
        if isinstance(node, dict):
            stack.extend((v, (*path, k)) for k, v in node.items())
        elif isinstance(node, list):
            stack.extend((v, (*path, i)) for i, v in enumerate(node))
    return out


def _get(value: object, path: Sequence[object]) -> object:
    for part in path:
        value = value[part]  # type: ignore[index]
    return value


def _set(root: object, path: Sequence[object], new: object) -> object:
    if not path:
        return new
    _get(root, path[:-1])[path[-1]] = new  # type: ignore[index]
    return root


def _schema_at(schema: Mapping[str, Any], path: Sequence[object]) -> Mapping[str, Any]:
    node: Mapping[str, Any] = schema
    for part in path:
        if isinstance(part, int):
            node = node.get("items", {})
        else:
            node = node.get("properties", {}).get(part, {})
        if not isinstance(node, Mapping):
            return {}
    return node


# Units of a text written to a word limit: one word each (the tercom tokenizer splits "a,"
# in two when normalized, and "机" from its neighbours with asian_support), or two words
# that invite TER's block shifts.
_WORD_UNITS = ("a ", "b a ", "a, ", "机", "x-1 ", ". ")


def _string_variants(draw: st.DrawFn, text: str, word_limits: Sequence[int] = ()) -> str:
    choice = draw(st.integers(0, 8 if word_limits else 7))
    if choice == 8:  # words at and around a word limit, repeated so as to invite shifts
        unit = _choice(draw, _WORD_UNITS)
        size = _choice(draw, word_limits) + draw(st.integers(-1, 1))
        return unit * (size // max(1, len(unit.split())))
    if choice == 0:  # insert a special character
        pos = draw(st.integers(0, len(text)))
        return text[:pos] + _choice(draw, SPECIAL_CHARS) + text[pos:]
    if choice == 1:  # exactly at and just over 128 UTF-8 bytes, one to four bytes a character
        unit = _choice(draw, ["x", "\u00e9", "\u20ac", "\U0001f600"])
        size = len(unit.encode("utf-8"))
        return unit * (128 // size) + "x" * (128 % size + draw(st.integers(0, 1)))
    if choice == 2:  # up to the text byte limit of chrF (65,536) and past it
        size = _choice(draw, [65535, 65536, 65537, 70000])
        # surrogatepass: the text may hold a lone surrogate from an earlier mutation
        unit_bytes = len((text or "a").encode("utf-8", "surrogatepass"))
        return (text or "a") * (size // max(1, unit_bytes) + 1)
    if choice == 3:
        return _choice(draw, SPECIAL_STRINGS)
    if choice == 4:  # whitespace padding
        pad = _choice(draw, SPECIAL_CHARS[:18])
        return pad + text + pad
    if choice == 5:
        return text.upper() if draw(st.booleans()) else text * 2
    if choice == 6:
        return text + "\ud800" if draw(st.booleans()) else "\udfff" + text
    return draw(_unicode_text(40))


def _grow(
    draw: st.DrawFn, node: list[Any], schema: Mapping[str, Any], target: Target, budget: int
) -> list[Any]:
    """``node`` grown (or shrunk) to a size around its schema's bounds or a contract count
    limit, repeating its items; at most ``budget`` nodes in all."""
    sizes = {0, 1, 2, 3, 8, 9}
    for key in ("minItems", "maxItems"):
        if isinstance(schema.get(key), int):
            sizes.update({schema[key] - 1, schema[key], schema[key] + 1})
    for limit in target.count_limits:
        sizes.update({limit - 1, limit, limit + 1})
    size = _choice(draw, sorted(s for s in sizes if 0 <= s <= _MAX_GROW))
    items = node or [draw(from_schema(schema.get("items", {})))]
    unit = max(_nodes(item, budget) for item in items[:64])
    size = min(size, max(1, budget // max(1, unit)))
    if draw(st.booleans()):
        head = [_copy(items[i % len(items)]) for i in range(min(size, 64))]
        return head + [items[i % len(items)] for i in range(64, size)]
    return [items[0]] * size


def _as_text(node: Any) -> str:
    """``node`` as a string of at most 200 characters: its repr (a list or an object) or str;
    an int over Python's 4,300-digit conversion limit (also inside ``node``) as hexadecimal
    or as its type's name."""
    try:
        text = repr(node) if isinstance(node, list | dict) else str(node)
    except ValueError:
        text = hex(node) if isinstance(node, int) else type(node).__name__
    return text[:200]


def _retype(draw: st.DrawFn, node: Any) -> Any:
    """``node`` as another JSON type (a string, a list, an object, null, a boolean, ...)."""
    choice = draw(st.integers(0, 7))
    if choice == 0:
        return _as_text(node)
    if choice == 1:
        return [node]
    if choice == 2:
        return {"value": node}
    if choice == 3:
        return _choice(draw, [None, True, False, 0, "", [], {}])
    if choice == 4 and type(node) is int:
        return float(node) if abs(node) < 2**1023 else math.inf
    if choice == 4 and type(node) is float and math.isfinite(node):
        return int(node)
    if choice == 5 and isinstance(node, list):
        return dict(zip(map(str, range(len(node))), node, strict=True))
    if choice == 5 and isinstance(node, dict):
        return list(node.values())
    if choice == 6 and isinstance(node, str):
        return list(node)
    return 1.5


def _exotic(draw: st.DrawFn, node: object) -> object:
    choice = draw(st.integers(0, 11))

    class Int(int):
        pass

    class Str(str):
        pass

    class Floaty(float):
        pass

    if choice == 0:
        return tuple(node) if isinstance(node, list) else (node,)
    if choice == 1:
        return {1: node, None: 2, (1, 2): 3}
    if choice == 2:
        return node.encode("utf-8", "surrogatepass") if isinstance(node, str) else b"\xff"
    if choice == 3:
        return decimal.Decimal("4") if draw(st.booleans()) else decimal.Decimal("NaN")
    if choice == 4:
        return fractions.Fraction(1, 3)
    if choice == 5:
        return Int(node) if isinstance(node, int) and not isinstance(node, bool) else Int(4)
    if choice == 6:
        return Str(node) if isinstance(node, str) else Str("a")
    if choice == 7:
        return Floaty(0.5)
    if choice == 8:
        return frozenset({1, 2}) if draw(st.booleans()) else {"a"}
    if choice == 9:
        return complex(1, 1)
    if choice == 10:
        return collections.OrderedDict(node) if isinstance(node, dict) else range(3)
    return object()


@st.composite
def mutants(draw: st.DrawFn, target: Target, max_steps: int = 4) -> object:
    """A contract example after one to ``max_steps`` random mutations."""
    value = _copy(_choice(draw, target.examples))
    all_keys = _schema_keys(target.input_schema)
    numbers = _schema_numbers(target.input_schema) + [
        v for limit in target.limits for v in (limit - 1, limit, limit + 1)
    ]
    for _ in range(draw(st.integers(1, max_steps))):
        paths = _paths(value)
        path = _choice(draw, paths)
        node = _get(value, path)
        schema = _schema_at(target.input_schema, path)
        op = draw(st.integers(0, 12))
        if op == 0:  # replace with an arbitrary value
            value = _set(value, path, draw(json_values(all_keys, max_leaves=8)))
        elif op == 1 and path:  # delete
            parent = _get(value, path[:-1])
            del parent[path[-1]]  # type: ignore[attr-defined]
        elif op == 2 and isinstance(node, dict):  # add a key
            key = draw(st.one_of(st.sampled_from(all_keys or ["x"]), _unicode_text()))
            node[key] = draw(st.one_of(json_values(max_leaves=4), from_schema(schema)))
        elif op == 3:  # change the type
            value = _set(value, path, _retype(draw, node))
        elif op == 4:  # boundary numbers
            value = _set(value, path, draw(_pick([*numbers, *NUMBERS])))
        elif op == 5 and isinstance(node, list):  # grow to the limits and past them
            budget = _MAX_NODES - _nodes(value) + _nodes(node)
            value = _set(value, path, _grow(draw, node, schema, target, budget))
        elif op == 6 and isinstance(node, str):
            value = _set(value, path, _string_variants(draw, node, target.word_limits))
        elif op == 7 and isinstance(node, list) and node:  # duplicate elements
            i = draw(st.integers(0, len(node) - 1))
            node.insert(i, _copy(node[i]))
            if draw(st.booleans()) and 2 * _nodes(value) < _MAX_NODES:
                node.extend(_copy(node))
        elif op == 8 and isinstance(node, list):  # reorder / empty
            value = _set(value, path, _choice(draw, [node[::-1], [], node[:1]]))
        elif op == 9 and isinstance(node, dict) and node:  # rename a key
            old = _choice(draw, sorted(node))
            new_key = draw(
                st.sampled_from(
                    [old.upper(), " " + old, old + "\u200b", old[:-1], old + "s", old + "\ud800"]
                )
            )
            node[new_key] = node.pop(old)
        elif op == 10:  # nest deeply
            depth = _choice(draw, [2, 50, 990, 1000, 3000])
            value = _set(value, path, _deep(depth, node, _choice(draw, ["list", "dict"])))
            break  # nothing after this: the value is now too deep to walk cheaply
        elif op == 11:  # a value from the schema at this spot
            value = _set(value, path, draw(from_schema(schema)))
        elif op == 12 and isinstance(value, dict):  # every top-level array to one size
            size = _choice(draw, sorted({1, 2, 8, *target.count_limits})) + draw(st.integers(-1, 1))
            arrays = [k for k, v in value.items() if isinstance(v, list) and v]
            for key in arrays:
                item = value[key]
                unit = max(_nodes(x) for x in item[:64])
                n = min(max(0, size), _MAX_NODES // (len(arrays) * max(1, unit)))
                value[key] = [item[i % len(item)] for i in range(n)]
    return value


@st.composite
def exotics(draw: st.DrawFn, target: Target) -> object:
    """A contract example with one node replaced by a Python value that is not JSON."""
    value = _copy(_choice(draw, target.examples))
    path = _choice(draw, _paths(value))
    return _set(value, path, _exotic(draw, _get(value, path)))


# --- JSON text -------------------------------------------------------------------------------

TOKENS = (
    b"{", b"}", b"[", b"]", b",", b":", b'"', b"\\", b"NaN", b"Infinity", b"-Infinity", b"1e400",
    b"-1e400", b"-0", b"-0.0", b"4.0", b"1E2", b"01", b"0.1e-400", b"1" * 400, b"9" * 5000,
    b'"\\ud800"', b'"\\udfff\\ud800"', b'"\\ud83d\\ude00"', b"\\u0000", b"\x00", b"\xff",
    b"\xed\xa0\x80", b"\xc0\x80", b"\xef\xbb\xbf", b"\xc2\xa0", b"\xe2\x80\xa8", b"\t", b"  ",
    b"true", b"false", b"null", b'""', b"[]", b"{}", b"//", b"/*", b"'", b"\r\n",
)  # fmt: skip

_NUMBER_LITERAL = re.compile(rb"-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?")


@st.composite
def json_texts(draw: st.DrawFn, target: Target) -> bytes:
    """Request bodies for ``execute_json``: mutated example text and hostile JSON."""
    example = draw(st.one_of(st.sampled_from(target.examples), mutants(target, max_steps=2)))
    style = draw(st.integers(0, 2))
    try:
        text = json.dumps(example)  # the C encoder: fast on the grown arrays
        if len(text) < 100_000:  # the other writers are pure Python
            if style == 0:
                text = mtcompute.dumps(example)
            elif style == 2:
                text = json.dumps(example, indent=2, ensure_ascii=False)
        base = text.encode("utf-8", "surrogatepass")
    except (RecursionError, TypeError, ValueError, OverflowError):
        base = b"{}"
    shape = draw(st.integers(0, 9))
    if shape == 0:  # deep nesting, balanced or not, bare or under a real key
        depth = _choice(draw, [10, 500, 998, 999, 1000, 1001, 5000, 100_000])
        inner = b"[" * depth + b"]" * _choice(draw, [depth, 0, depth - 1])
        keys = list(target.input_schema.get("properties", {})) or ["a"]
        key = _choice(draw, keys).encode()
        return _choice(draw, [inner, b'{"' + key + b'":' + inner + b"}"])
    if shape == 1 and isinstance(example, dict) and example:  # duplicate keys
        items = list(example.items())
        key, _ = _choice(draw, items)
        other = draw(json_values(max_leaves=4))
        pairs = [*items, (key, other)] if draw(st.booleans()) else [(key, other), *items]
        try:
            return (
                "{" + ",".join(f"{json.dumps(k)}:{json.dumps(v)}" for k, v in pairs) + "}"
            ).encode()
        except (TypeError, ValueError, RecursionError):
            return base
    if shape == 2:  # other encodings
        text = base.decode("utf-8", "surrogatepass")
        codec = _choice(draw, ["utf-16", "utf-16-le", "utf-32", "latin-1", "cp1252"])
        body = text.encode(codec, "replace")
        return body if draw(st.booleans()) else b"\xef\xbb\xbf" + base
    if shape == 3:  # a number literal replaced
        literals = list(_NUMBER_LITERAL.finditer(base))
        if literals:
            m = _choice(draw, literals)
            lit = _choice(draw, [t for t in TOKENS if t[:1] in b"-0123456789NI"])
            return base[: m.start()] + lit + base[m.end() :]
    if shape == 4:  # whole bodies that are hostile on their own
        return draw(
            st.sampled_from(
                [b"", b" ", b"\n", b"null", b"[]", b'""', b"0", b"{} {}", b"{},", b"{", b"}",
                 b'{"a":1,}', b"NaN", b"\x00", b"\xff\xfe", b"{\"\\ud800\":1}", b"[" * 3 + b"1",
                 b'{"__proto__":{}}', b'{"constructor":1}', b"1" * 5000, b"-" + b"1" * 400,
                 b'"' + b"\\u" * 1000 + b'"']
            )
        )  # fmt: skip
    body = bytearray(base)
    for _ in range(draw(st.integers(1, 4))):
        op = draw(st.integers(0, 4))
        pos = draw(st.integers(0, len(body)))
        if op == 0:  # truncate
            del body[pos:]
        elif op == 1 and body:  # flip a byte
            i = min(pos, len(body) - 1)
            body[i] ^= draw(st.integers(1, 255))
        elif op == 2:  # insert a token
            body[pos:pos] = _choice(draw, TOKENS)
        elif op == 3:  # delete a range
            del body[pos : pos + draw(st.integers(1, 16))]
        else:  # duplicate a range
            end = pos + draw(st.integers(1, 64))
            body[pos:pos] = body[pos:end]
    return bytes(body)


@st.composite
def unknown_ids(draw: st.DrawFn, target: Target) -> tuple[object, object, object]:
    """An id/version pair (often unknown, sometimes not strings) and an example input."""
    tool_id = draw(
        st.one_of(
            st.just(target.tool_id),
            st.sampled_from(
                [target.tool_id.upper(), target.tool_id + " ", "", "chrf", "../etc", "\ud800"]
            ),
            _unicode_text(),
            st.sampled_from([None, 1, ["chrf-compute"], b"chrf-compute"]),
        )
    )
    version = draw(
        st.one_of(
            st.sampled_from(
                [target.version, "1.0", "v" + target.version, target.version + " ", "", "Latest",
                 "2.0.0", "1.0.0\x00"]
            ),
            _unicode_text(),
            st.sampled_from([None, 1, 1.0, ("1", "0", "0")]),
        )
    )  # fmt: skip
    return tool_id, version, _copy(_choice(draw, target.examples))


def fuzz_inputs(target: Target) -> st.SearchStrategy[tuple[str, Any]]:
    """The whole stream for one tool: ``(kind, payload)`` pairs, ``kind`` one of :data:`KINDS`."""
    keys = _schema_keys(target.input_schema)
    return st.one_of(
        json_values(keys).map(lambda v: ("json", v)),
        shaped_objects(target).map(lambda v: ("json", v)),
        exotics(target).map(lambda v: ("exotic", v)),
        from_schema(target.input_schema).map(lambda v: ("schema", v)),
        mutants(target).map(lambda v: ("mutant", v)),
        mutants(target).map(lambda v: ("mutant", v)),
        json_texts(target).map(lambda v: ("text", v)),
        json_texts(target).map(lambda v: ("text", v)),
        unknown_ids(target).map(lambda v: ("id", v)),
    )


# --- Running ---------------------------------------------------------------------------------


@dataclass
class FuzzStats:
    """What one tool's run did."""

    label: str
    tried: int = 0
    by_kind: collections.Counter[str] = field(default_factory=collections.Counter)
    failures: int = 0
    signatures: collections.Counter[str] = field(default_factory=collections.Counter)
    saved: list[Path] = field(default_factory=list)
    slowest: float = 0.0
    slowest_kind: str = ""
    slowest_payload: object = None
    slowest_result: float = 0.0  # the slowest input answered with a result (a valid one)
    elapsed: float = 0.0
    coverage: str = ""  # libFuzzer's final "cov: N ft: M" (atheris engine only)

    def as_dict(self) -> dict[str, object]:
        """The figures as JSON-ready data."""
        return {
            "tool": self.label,
            "tried": self.tried,
            "by_kind": dict(self.by_kind),
            "failures": self.failures,
            "signatures": dict(self.signatures),
            "saved": [str(p) for p in self.saved],
            "slowest_seconds": round(self.slowest, 4),
            "slowest_kind": self.slowest_kind,
            "slowest_result_seconds": round(self.slowest_result, 4),
            "elapsed_seconds": round(self.elapsed, 2),
            "coverage": self.coverage,
        }


class _Watchdog:
    """Ends the process (saving the input) when one input runs past the hard limit.

    A hang in C code holds the GIL, so nothing in the process could raise; a daemon thread can
    still print and exit, since a C loop that never releases the GIL is the one case this
    misses (then the outer timeout, CI's or the shell's, ends it).
    """

    _instance: _Watchdog | None = None

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._current: tuple[float, float, Callable[[], None]] | None = None
        thread = threading.Thread(target=self._loop, name="fuzz-watchdog", daemon=True)
        thread.start()

    @classmethod
    def get(cls) -> _Watchdog:
        if cls._instance is None:
            cls._instance = cls()
        return cls._instance

    @contextlib.contextmanager
    def watching(self, limit: float, on_hang: Callable[[], None]) -> Iterator[None]:
        with self._lock:
            self._current = (time.monotonic(), limit, on_hang)
        try:
            yield
        finally:
            with self._lock:
                self._current = None

    def _loop(self) -> None:
        while True:
            time.sleep(0.25)
            with self._lock:
                current = self._current
            if current is not None and time.monotonic() - current[0] > current[1]:
                try:
                    current[2]()
                finally:
                    os._exit(3)


class Fuzzer:
    """Runs inputs for one tool through the execute paths and checks each envelope."""

    def __init__(
        self,
        target: Target,
        *,
        bound: float = DEFAULT_BOUND,
        hard_limit: float = 60.0,
        out_dir: Path | None = None,
        keep_per_signature: int = 3,
        recheck_every: int = 2,
    ) -> None:
        self.target = target
        self.bound = bound
        self.hard_limit = max(hard_limit, bound)
        self.out_dir = out_dir
        self.keep_per_signature = keep_per_signature
        self.recheck_every = recheck_every
        self.stats = FuzzStats(target.label)

    # one input

    def _call(self, kind: str, payload: object) -> object:
        t = self.target
        if kind == "text":
            return mtcompute.execute_json(t.tool_id, t.version, payload)  # type: ignore[arg-type]
        if kind == "id":
            tool_id, version, value = payload  # type: ignore[misc]
            return mtcompute.execute(tool_id, version, value)
        return mtcompute.execute(t.tool_id, t.version, payload)

    def _seen_value(self, kind: str, payload: object) -> object:
        if kind == "text":
            try:
                return mtcompute.loads(payload)  # type: ignore[arg-type]
            except JsonError:
                return MISSING
        if kind == "id":
            return payload[2]  # type: ignore[index]
        return payload

    def check(self, kind: str, payload: object, envelope: object) -> list[str]:
        """The problems of one envelope (the checks that need no second call)."""
        t = self.target
        value = self._seen_value(kind, payload)
        problems = check_envelope(t, envelope, value)
        if not isinstance(envelope, dict):
            return problems
        error = envelope.get("error")
        code = error.get("code") if isinstance(error, dict) else None
        if kind == "id":
            tool_id, version, _ = payload  # type: ignore[misc]
            known = (
                type(tool_id) is str
                and type(version) is str
                and any(
                    (tool.id, tool.version) == (tool_id, version)
                    or (tool.id, "latest") == (tool_id, version)  # latest names the newest
                    for tool in list_tools()
                )
            )
            if not known and code != "not_found":
                problems.append(
                    f"unknown tool {tool_id!r}@{version!r} answered {code or 'a result'}"
                )
        elif kind == "text" and value is MISSING and code != "invalid_input":
            problems.append(f"a body that is not JSON answered {code or 'a result'}")
        return problems

    def run_one(self, kind: str, payload: object) -> list[str]:
        """Run one input, record it, save it if it fails; return its problems."""
        stats = self.stats
        stats.tried += 1
        stats.by_kind[kind] += 1
        watchdog = _Watchdog.get()
        # CPU time of the process (every thread): what the input costs, whatever else the
        # machine runs; a wall-clock hang is the watchdog's.
        start = time.process_time()
        with watchdog.watching(self.hard_limit, lambda: self._on_hang(kind, payload)):
            try:
                envelope = self._call(kind, payload)
            except KeyboardInterrupt:
                raise
            except BaseException as exc:
                envelope = exc
        elapsed = time.process_time() - start
        if isinstance(envelope, BaseException):
            problems = [f"raised {type(envelope).__name__}: {str(envelope)[:200]}"]
        else:
            try:
                problems = self.check(kind, payload, envelope)
                if not problems and stats.tried % self.recheck_every == 0:
                    problems = self._recheck(kind, payload, envelope)
            except Exception as exc:  # a bug of this script: report it, keep fuzzing
                problems = [f"the fuzzer's own check raised {type(exc).__name__}: {exc}"]
        if elapsed > self.bound:
            problems.append(f"took {elapsed:.2f} s of CPU (bound {self.bound} s)")
        if elapsed > stats.slowest:
            stats.slowest, stats.slowest_kind, stats.slowest_payload = elapsed, kind, payload
        if elapsed > stats.slowest_result and isinstance(envelope, dict) and "result" in envelope:
            stats.slowest_result = elapsed
        if problems:
            stats.failures += 1
            self._record(kind, payload, envelope, problems)
        return problems

    def _recheck(self, kind: str, payload: object, envelope: object) -> list[str]:
        """Same envelope twice; same outcome from execute and execute_json on one value.
        (Not for the largest inputs, where it would only slow the run down.)"""
        if kind != "text" and _nodes(payload, _RECHECK_NODES) > _RECHECK_NODES:
            return []
        try:
            again = self._call(kind, payload)
            first_text, again_text = mtcompute.dumps(envelope), mtcompute.dumps(again)
        except Exception as exc:
            return [f"second run raised {type(exc).__name__}: {exc}"]
        if first_text != again_text:
            return ["a second run of the same input gave a different envelope"]
        if kind not in ("json", "schema", "mutant") or not _json_like(payload):
            return []
        if _has_huge_int(payload) or _js_strings(payload) != payload:
            return []  # JSON text cannot carry these as they are: nothing to compare
        try:
            body = json.dumps(payload, allow_nan=False)
        except (ValueError, RecursionError):
            return []
        t = self.target
        via_text = mtcompute.execute_json(t.tool_id, t.version, body)
        assert isinstance(envelope, dict)
        if _outcome(envelope) != _outcome(via_text):
            return [
                f"execute gave {_outcome(envelope)} but execute_json of the same value gave "
                f"{_outcome(via_text)}"
            ]
        return []

    # saving

    def _record(self, kind: str, payload: object, envelope: object, problems: list[str]) -> None:
        signature = _signature(problems)
        self.stats.signatures[signature] += 1
        if self.out_dir is None or self.stats.signatures[signature] > self.keep_per_signature:
            return
        path = save_case(self.out_dir, self.target, kind, payload, envelope, problems)
        self.stats.saved.append(path)

    def _on_hang(self, kind: str, payload: object) -> None:
        problems = [f"still running after the hard limit of {self.hard_limit} s"]
        print(f"fuzz: {self.target.label}: {problems[0]}; ending the run", file=sys.stderr)
        if self.out_dir is not None:
            path = save_case(self.out_dir, self.target, kind, payload, None, problems)
            print(f"fuzz: saved the input to {path}", file=sys.stderr)


def _outcome(envelope: object) -> str:
    if not isinstance(envelope, dict):
        return repr(envelope)
    if "result" in envelope:
        return "result " + mtcompute.dumps(envelope["result"])
    error = envelope.get("error")
    if isinstance(error, dict):
        return f"{error.get('code')} at {error.get('path')!r}"
    return repr(envelope)


def _signature(problems: Sequence[str]) -> str:
    """A problem with its figures and quoted parts blanked, to group similar failures."""
    first = problems[0]
    first = re.sub(r"'[^']*'|\"[^\"]*\"", "…", first)
    return re.sub(r"\d+(\.\d+)?", "N", first)[:160]


def _encode_payload(kind: str, payload: object) -> dict[str, object]:
    if kind == "text":
        body = bytes(payload)  # type: ignore[call-overload]
        return {
            "body_base64": base64.b64encode(body).decode(),
            "body_preview": body[:2000].decode("utf-8", "backslashreplace"),
        }
    if kind == "id":
        tool_id, version, value = payload  # type: ignore[misc]
        return {
            "tool_id_repr": repr(tool_id),
            "version_repr": repr(version),
            **_encode_payload("value", value),
        }
    limit = sys.getrecursionlimit()
    try:
        sys.setrecursionlimit(max(limit, 20_000))
        if _json_like(payload, max_depth=5000):
            return {"input": payload, "input_json": json.dumps(payload)}
        return {"input_repr": repr(payload)[:100_000]}
    except (RecursionError, ValueError, MemoryError):
        return {"input_repr": "<too deep to write>"}
    finally:
        sys.setrecursionlimit(limit)


def save_case(
    out_dir: Path,
    target: Target,
    kind: str,
    payload: object,
    envelope: object,
    problems: Sequence[str],
    name: str | None = None,
) -> Path:
    """Write one input, its envelope and its problems as a JSON file; return its path."""
    record: dict[str, object] = {
        "tool_id": target.tool_id,
        "version": target.version,
        "kind": kind,
        "problems": list(problems),
        **_encode_payload(kind, payload),
    }
    try:
        record["envelope"] = (
            mtcompute.dumps(envelope) if isinstance(envelope, dict) else repr(envelope)
        )
    except Exception as exc:
        record["envelope"] = f"<dumps raised {type(exc).__name__}>"
    limit = sys.getrecursionlimit()
    try:
        sys.setrecursionlimit(max(limit, 20_000))
        text = json.dumps(record, indent=1)
    except (RecursionError, ValueError):
        record.pop("input", None)
        record.pop("input_json", None)
        text = json.dumps(record, indent=1)
    finally:
        sys.setrecursionlimit(limit)
    digest = hashlib.sha1(text.encode("utf-8", "surrogatepass")).hexdigest()[:12]
    folder = out_dir / target.label
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / (name or f"{kind}-{digest}.json")
    path.write_text(text, encoding="utf-8")
    return path


def load_case(path: Path) -> tuple[Target, str, object]:
    """The target, kind and payload of a saved case (a JSON-like input, or a body)."""
    record = json.loads(path.read_text(encoding="utf-8"))
    target = Target(record["tool_id"], record["version"])
    kind = record["kind"]
    if "body_base64" in record:
        payload: object = base64.b64decode(record["body_base64"])
    elif "input_json" in record:
        payload = json.loads(record["input_json"])
    elif "input" in record:
        payload = record["input"]
    else:
        raise ValueError(
            f"{path}: the input was not saved as JSON ({record.get('input_repr')!r:.80})"
        )
    if kind == "id":
        import ast  # noqa: PLC0415

        payload = (
            ast.literal_eval(record["tool_id_repr"]),
            ast.literal_eval(record["version_repr"]),
            payload,
        )
    return target, kind, payload


def replay(path: Path, *, bound: float = DEFAULT_BOUND) -> tuple[object, list[str]]:
    """Run a saved case again: its envelope and its problems now."""
    target, kind, payload = load_case(path)
    fuzzer = Fuzzer(target, bound=bound, recheck_every=1)
    problems = fuzzer.run_one(kind, payload)
    return fuzzer._call(kind, payload), problems


def fuzz_hypothesis(
    fuzzer: Fuzzer,
    *,
    count: int | None = None,
    deadline: float | None = None,
    seed: int = 0,
    chunk: int = 500,
) -> FuzzStats:
    """Feed ``fuzzer`` from :func:`fuzz_inputs` until ``count`` inputs or the ``deadline``
    (a :func:`time.monotonic` value). Generation only: nothing fails inside hypothesis, so
    one bad input does not stop the run, and every input is counted here."""
    stats = fuzzer.stats
    strategy = fuzz_inputs(fuzzer.target)
    started = time.monotonic()
    round_no = 0
    while True:
        left = None if count is None else count - stats.tried
        if (left is not None and left <= 0) or (
            deadline is not None and time.monotonic() >= deadline
        ):
            break
        size = chunk if left is None else min(chunk, left)

        @hypothesis_seed(seed * 1_000_003 + round_no)
        @settings(
            max_examples=size,
            database=None,
            deadline=None,
            phases=[Phase.generate],
            suppress_health_check=list(HealthCheck),
            print_blob=False,
        )
        @given(strategy)
        def step(case: tuple[str, Any]) -> None:
            if deadline is not None and time.monotonic() >= deadline:
                return
            fuzzer.run_one(*case)

        before = stats.tried
        step()
        round_no += 1
        if stats.tried == before:  # hypothesis found nothing more to draw
            break
    stats.elapsed += time.monotonic() - started
    return stats


# --- atheris ---------------------------------------------------------------------------------


def _instrument_package(prefix: str) -> int:
    """Add atheris coverage to every function of the loaded ``prefix`` modules."""
    import atheris  # noqa: PLC0415

    done = 0
    for name, module in list(sys.modules.items()):
        if module is None or not (name == prefix or name.startswith(prefix + ".")):
            continue
        for obj in list(vars(module).values()):
            candidates = [obj]
            if inspect.isclass(obj) and obj.__module__ == name:
                candidates = list(vars(obj).values())
            for func in candidates:
                if isinstance(func, staticmethod | classmethod):
                    func = func.__func__  # noqa: PLW2901
                if inspect.isfunction(func) and func.__module__ == name:
                    try:
                        atheris.instrument_func(func)
                        done += 1
                    except Exception:  # a builtin-like function cannot be instrumented
                        continue
    return done


def _atheris_dictionary(target: Target) -> str:
    words = {'"' + k + '"' for k in _schema_keys(target.input_schema)}
    stack: list[Any] = [target.input_schema]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            for v in node.get("enum", []):
                words.add(json.dumps(v))
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    words.update(str(n) for n in _schema_numbers(target.input_schema))
    words.update(str(n) for limit in target.limits for n in (limit, limit + 1))
    words.update(t.decode("latin-1") for t in TOKENS if len(t) < 64)
    lines = []
    for word in sorted(words):
        escaped = "".join(
            c if 0x20 <= ord(c) < 0x7F and c not in '"\\' else f"\\x{ord(c) & 0xFF:02X}"
            for c in word
        )
        lines.append(f'"{escaped}"')
    return "\n".join(lines) + "\n"


def _atheris_child(args: argparse.Namespace) -> None:
    """Inside the subprocess: libFuzzer over ``execute_json`` bytes for one tool."""
    import atheris  # noqa: PLC0415

    (target,) = targets([args.tool[0]])
    out_dir = Path(args.out)
    fuzzer = Fuzzer(target, bound=args.bound, hard_limit=args.hard_limit, out_dir=out_dir)
    stats_path = Path(args.atheris_stats)
    work = Path(tempfile.mkdtemp(prefix="mtcompute-atheris-"))
    corpus = work / "corpus"
    corpus.mkdir()
    seeds = list(target.examples)
    for i, example in enumerate(seeds):
        (corpus / f"example-{i}.json").write_text(mtcompute.dumps(example), encoding="utf-8")
        (corpus / f"example-{i}-indent.json").write_text(
            json.dumps(example, indent=1), encoding="utf-8"
        )
    extra = Path(__file__).resolve().parents[1] / "tests" / "fuzz_corpus" / target.label
    if extra.is_dir():
        for seed_file in extra.iterdir():
            if seed_file.is_file():
                (corpus / f"extra-{seed_file.name}").write_bytes(seed_file.read_bytes())
    dictionary = work / "json.dict"
    dictionary.write_text(_atheris_dictionary(target), encoding="utf-8")
    _instrument_package("mtcompute")

    def write_stats() -> None:
        stats_path.write_text(json.dumps(fuzzer.stats.as_dict()), encoding="utf-8")

    def one(data: bytes) -> None:
        before = fuzzer.stats.slowest
        problems = fuzzer.run_one("text", data)
        if fuzzer.stats.tried % 500 == 0 or fuzzer.stats.slowest > before:
            write_stats()
        if problems:
            write_stats()
            raise AssertionError(f"{target.label}: {problems}")

    libfuzzer_args = [
        sys.argv[0],
        str(corpus),
        f"-seed={args.seed or 1}",
        f"-dict={dictionary}",
        f"-timeout={math.ceil(args.hard_limit)}",
        f"-artifact_prefix={out_dir / target.label}/",
        "-rss_limit_mb=4096",
        "-max_len=65536",
        "-print_final_stats=1",
    ]
    (out_dir / target.label).mkdir(parents=True, exist_ok=True)
    if args.count is not None:
        libfuzzer_args.append(f"-runs={args.count}")
    if args.seconds is not None:
        libfuzzer_args.append(f"-max_total_time={max(1, math.floor(args.seconds))}")
    write_stats()
    atheris.Setup(libfuzzer_args, one)
    atheris.Fuzz()


def fuzz_atheris(
    target: Target,
    *,
    count: int | None,
    seconds: float | None,
    seed: int,
    bound: float,
    hard_limit: float,
    out_dir: Path,
) -> FuzzStats:
    """Run libFuzzer (atheris) for one tool in a subprocess; gather its figures."""
    stats_file = Path(tempfile.mkstemp(prefix="fuzz-stats-", suffix=".json")[1])
    command = [
        sys.executable, str(Path(__file__).resolve()), "--engine", "atheris", "--atheris-child",
        "--tool", target.label, "--seed", str(seed), "--bound", str(bound),
        "--hard-limit", str(hard_limit), "--out", str(out_dir), "--atheris-stats", str(stats_file),
    ]  # fmt: skip
    if count is not None:
        command += ["--count", str(count)]
    if seconds is not None:
        command += ["--seconds", str(seconds)]
    started = time.monotonic()
    proc = subprocess.run(
        command,
        capture_output=True,
        text=True,
        errors="replace",
        check=False,
        timeout=(seconds or 0) + hard_limit + 600 if seconds else None,
    )
    stats = FuzzStats(target.label)
    stats.elapsed = time.monotonic() - started
    try:
        data = json.loads(stats_file.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        data = {}
    finally:
        stats_file.unlink(missing_ok=True)
    final = re.findall(r"DONE\s+(cov: \d+ ft: \d+)", proc.stderr)
    stats.coverage = final[-1] if final else ""
    folder = out_dir / target.label
    if folder.is_dir() and not any(folder.iterdir()):
        folder.rmdir()
    done = re.findall(r"Done (\d+) runs", proc.stderr)
    stats.tried = int(done[-1]) if done else int(data.get("tried", 0))
    stats.by_kind["text"] = stats.tried
    stats.slowest = float(data.get("slowest_seconds", 0.0))
    stats.slowest_result = float(data.get("slowest_result_seconds", 0.0))
    stats.slowest_kind = "text"
    stats.saved = [Path(p) for p in data.get("saved", [])]
    stats.signatures.update(data.get("signatures", {}))
    stats.failures = int(data.get("failures", 0))
    if proc.returncode != 0:
        stats.failures = max(stats.failures, 1)
        tail = "\n".join(proc.stderr.splitlines()[-25:])
        stats.signatures[f"atheris exited {proc.returncode}"] += 1
        print(f"fuzz: atheris on {target.label} exited {proc.returncode}:\n{tail}", file=sys.stderr)
    return stats


# --- The command -----------------------------------------------------------------------------


def run(
    selected: Sequence[str] = (),
    *,
    count: int | None = None,
    seconds: float | None = None,
    seed: int = 0,
    engine: str = "hypothesis",
    bound: float = DEFAULT_BOUND,
    hard_limit: float = 60.0,
    out_dir: Path | None = DEFAULT_OUT,
    save_slowest: bool = False,
    log: Callable[[str], None] | None = None,
) -> list[FuzzStats]:
    """Fuzz each selected tool: ``count`` inputs per tool, or ``seconds`` split evenly."""
    if (count is None) == (seconds is None):
        raise ValueError("give exactly one of count and seconds")
    chosen = selected_tools(selected)
    results = []
    start = time.monotonic()
    for i, (tool_id, version) in enumerate(chosen):
        share = None
        if seconds is not None:
            share = max(0.5, (seconds - (time.monotonic() - start)) / (len(chosen) - i))
        try:
            target = Target(tool_id, version)
        except NotFound:  # a tool in the registry must have a contract to be checked against
            stats = FuzzStats(f"{tool_id}@{version}", failures=1)
            stats.signatures["the registry has this tool but no contract for it"] += 1
            results.append(stats)
            if log is not None:
                log(_row(stats))
            continue
        if engine == "atheris":
            stats = fuzz_atheris(
                target,
                count=count,
                seconds=share,
                seed=seed,
                bound=bound,
                hard_limit=hard_limit,
                out_dir=out_dir or DEFAULT_OUT,
            )
        else:
            fuzzer = Fuzzer(target, bound=bound, hard_limit=hard_limit, out_dir=out_dir)
            deadline = None if share is None else time.monotonic() + share
            stats = fuzz_hypothesis(fuzzer, count=count, deadline=deadline, seed=seed)
            if out_dir is not None and save_slowest and stats.tried:
                save_case(
                    out_dir, target, stats.slowest_kind, stats.slowest_payload, None,
                    [f"slowest input: {stats.slowest:.3f} s"], name="slowest.json",
                )  # fmt: skip
        results.append(stats)
        if log is not None:
            log(_row(stats))
    return results


_HEADER = f"{'tool':<34} {'inputs':>8} {'failures':>8} {'slowest_s':>9}  by kind"


def _row(stats: FuzzStats) -> str:
    kinds = " ".join(f"{k}={stats.by_kind[k]}" for k in KINDS if stats.by_kind[k])
    return (
        f"{stats.label:<34} {stats.tried:>8} {stats.failures:>8} {stats.slowest:>9.3f}  "
        f"{kinds} (slowest: {stats.slowest_kind}; slowest result: {stats.slowest_result:.3f} s; "
        f"{stats.elapsed:.0f} s)" + (f" [{stats.coverage}]" if stats.coverage else "")
    )


def summary(results: Iterable[FuzzStats]) -> str:
    """The totals, each failure signature and the first saved inputs."""
    results = list(results)
    lines = []
    total = sum(s.tried for s in results)
    failed = sum(s.failures for s in results)
    lines.append(f"total: {total} inputs, {failed} failures, {len(results)} tools")
    for s in results:
        for signature, n in s.signatures.most_common():
            lines.append(f"  FAIL {s.label}: {n} x {signature}")
        lines.extend(f"  saved {p}" for p in s.saved[:10])
    return "\n".join(lines)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    budget = parser.add_mutually_exclusive_group()
    budget.add_argument("--seconds", type=float, help="total time, split evenly over the tools")
    budget.add_argument("--count", type=int, help="inputs per tool")
    budget.add_argument("--replay", type=Path, metavar="FILE", help="run one saved case again")
    parser.add_argument("--tool", action="append", default=[], help="id or id@version (repeatable)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--engine", choices=["hypothesis", "atheris"], default="hypothesis")
    parser.add_argument("--bound", type=float, default=DEFAULT_BOUND, help="seconds per input")
    parser.add_argument("--hard-limit", type=float, default=60.0, help="watchdog, seconds")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="folder for failing inputs")
    parser.add_argument("--json", type=Path, help="also write the figures to this JSON file")
    parser.add_argument(
        "--save-slowest", action="store_true", help="also save each tool's slowest input"
    )
    parser.add_argument("--atheris-child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--atheris-stats", help=argparse.SUPPRESS)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """The command line; 0 when every input passed, 1 on any failure."""
    args = _parser().parse_args(argv)
    if args.atheris_child:
        _atheris_child(args)
        return 0
    if args.replay is not None:
        envelope, problems = replay(args.replay, bound=args.bound)
        print(mtcompute.dumps(envelope) if isinstance(envelope, dict) else repr(envelope))
        for problem in problems:
            print(f"PROBLEM: {problem}")
        return 1 if problems else 0
    if args.count is None and args.seconds is None:
        args.count = 300
    if args.engine == "atheris":
        try:
            import atheris  # noqa: F401, PLC0415
        except ImportError:
            print("fuzz: atheris is not installed (pip install atheris)", file=sys.stderr)
            return 2
    print(_HEADER, flush=True)
    results = run(
        args.tool,
        count=args.count,
        seconds=args.seconds,
        seed=args.seed,
        engine=args.engine,
        bound=args.bound,
        hard_limit=args.hard_limit,
        out_dir=args.out,
        save_slowest=args.save_slowest,
        log=lambda line: print(line, flush=True),
    )
    print(summary(results))
    if args.json is not None:
        args.json.write_text(json.dumps([s.as_dict() for s in results], indent=1), encoding="utf-8")
    return 1 if any(s.failures for s in results) else 0


if __name__ == "__main__":
    sys.exit(main())
