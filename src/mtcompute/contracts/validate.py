"""One validation layer: field types, and inputs declared field by field in contract order.

A tool declares its input once, as an :class:`InputSpec`: its :class:`Field` objects in the
order of the contract's input schema, with :class:`Rule` steps (checks across fields) where
the contract's validation order puts them. :meth:`InputSpec.parse` reads a raw input against
the declaration in that order and the first fault wins. The same types check the batch APIs'
arguments (:mod:`mtcompute.batch`) and the ``score`` command's options, so one rule has one
message everywhere.

Every check raises a coded error (:mod:`mtcompute.errors`) whose message says what was
expected, where (a JSON Pointer), and what was seen, in one sentence:
``Expected an integer of at most 16 at /beta, got 17.`` A figure from the contract's
``limits`` is a :class:`Limit`; a value past it is ``limit_exceeded`` and the message names
the limit; any other breach is ``invalid_input``. Values are JSON values as Python holds them
(dict, list, str, int, float, bool, None); any other Python object is refused with a message,
never a traceback. Echoes of the input are bounded.

Numbers follow JavaScript and JSON Schema: an integer field takes any finite number with no
fractional part (``4.0`` is 4); ``True``/``False`` are never numbers; NaN and infinities are
refused.
"""

from __future__ import annotations

__all__ = [
    "REQUIRED",
    "Array",
    "Boolean",
    "Bound",
    "Choice",
    "Field",
    "FieldType",
    "InputSpec",
    "Integer",
    "Limit",
    "Number",
    "Rule",
    "Text",
    "Token",
    "check_no_lone_surrogate",
    "check_same_count",
    "contract_limits",
    "describe",
    "figure",
    "first_lone_surrogate",
    "one_to",
    "quote",
    "require_object",
    "same_count",
    "total_over",
    "utf8_length",
    "where",
]

import math
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence, Sized
from dataclasses import dataclass, field
from itertools import islice
from typing import Any, Generic, TypeGuard, TypeVar

from mtcompute.contracts import contract
from mtcompute.core.text import first_lone_surrogate
from mtcompute.errors import (
    InvalidInput,
    LimitExceeded,
    MtcomputeError,
    UnsupportedInput,
    json_pointer,
    where,
)

T = TypeVar("T")

ECHO = 24  # characters of a string shown back in a message, at most
MAX_ECHOED_KEY = 256  # an unknown key longer than this is not repeated in the error's path
MAX_FAULTS = 20  # the faults an error lists at most (a bounded answer to any input)


# --- message pieces -----------------------------------------------------------------------


def check_no_lone_surrogate(text: str, what: str, path: str) -> None:
    """``invalid_input`` at ``path`` naming the first lone surrogate of ``text``, if any
    (``what`` names the string: ``a token``)."""
    at = first_lone_surrogate(text)
    if at >= 0:
        raise InvalidInput(
            f"Expected {what} without lone surrogates {where(path)}, "
            f"got U+{ord(text[at]):04X} at index {at}.",
            path,
        )


def quote(text: str) -> str:
    """``text`` in double quotes, cut to a few characters, non-ASCII escaped."""
    shown = text[:ECHO].encode("ascii", "backslashreplace").decode("ascii")
    more = "..." if len(text) > ECHO else ""
    return f'"{shown}{more}"'


def describe(value: object) -> str:
    """A short, bounded description of a value for an error message."""
    if value is None:
        return "null"
    if value is True or value is False:
        return "true" if value else "false"
    if isinstance(value, int):
        if value.bit_length() < 64:
            return str(value)
        if value.bit_length() < 10_000:  # str() of a longer int hits the interpreter's limit
            return f"an integer of {len(str(abs(value)))} digits"
        return f"an integer of about {int(value.bit_length() * 0.30103)} digits"
    if isinstance(value, float):
        if math.isnan(value):
            return "NaN"
        if math.isinf(value):
            return "Infinity" if value > 0 else "-Infinity"
        return repr(value)
    if isinstance(value, str):
        return f"the string {quote(value)}"
    if _is_mapping(value):
        return "an object"
    if isinstance(value, list | tuple):
        return f"an array of {len(value)} item{'' if len(value) == 1 else 's'}"
    return f"a Python {type(value).__name__}"


def utf8_length(text: str) -> int:
    """UTF-8 bytes of ``text``, a lone surrogate counting 3 (as JavaScript's encoder writes
    U+FFFD for it)."""
    if text.isascii():
        return len(text)
    return len(text.encode("utf-8", "surrogatepass"))


def total_over(lengths: Iterable[int], limit: int) -> bool:
    """Whether the sum of ``lengths`` exceeds ``limit`` (stops early)."""
    total = 0
    for length in lengths:
        total += length
        if total > limit:
            return True
    return False


def _is_mapping(value: object) -> TypeGuard[Mapping[str, object]]:
    return isinstance(value, Mapping)


# --- limits -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Limit:
    """A figure of a contract's Limits: a value past it is ``limit_exceeded``, and the message
    names it (``(limit max segments)``)."""

    key: str
    value: int

    @property
    def name(self) -> str:
        """The limit as the contracts' prose names it: ``max segments``."""
        return self.key.replace("_", " ")


def contract_limits(tool_id: str, version: str) -> dict[str, Limit]:
    """The contract's ``limits`` object as :class:`Limit` values, by key."""
    figures: Mapping[str, int] = contract(tool_id, version)["limits"]
    return {key: Limit(key, value) for key, value in figures.items()}


Bound = int | Limit


def figure(bound: Bound) -> int:
    """The number a bound stands for."""
    return bound.value if isinstance(bound, Limit) else bound


# --- field types --------------------------------------------------------------------------


class FieldType(Generic[T]):
    """A JSON value's type and range: :meth:`parse` returns it checked (or raises), and
    :meth:`schema` is the JSON Schema it stands for (held against the contract by a test)."""

    def parse(self, value: object, path: str) -> T:
        """The value, checked; a coded error naming ``path`` otherwise."""
        raise NotImplementedError

    def parse_items(self, items: Sequence[object], path: str) -> list[T]:
        """Every item of an array, in order (the first fault wins)."""
        return [self.parse(item, f"{path}/{i}") for i, item in enumerate(items)]

    def schema(self) -> dict[str, object]:
        """The JSON Schema of the values this type accepts."""
        raise NotImplementedError


@dataclass(frozen=True, slots=True)
class Integer(FieldType[int]):
    """An integer in [minimum, maximum]; past a :class:`Limit` maximum, ``limit_exceeded``."""

    minimum: int
    maximum: Bound

    def parse(self, value: object, path: str) -> int:
        if type(value) is int and self.minimum <= value <= figure(self.maximum):
            return value  # the common case: an int in range passes every check below
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise InvalidInput(f"Expected an integer {where(path)}, got {describe(value)}.", path)
        if isinstance(value, float):
            if not value.is_integer():
                raise InvalidInput(
                    f"Expected an integer {where(path)}, got {describe(value)}.", path
                )
            value = int(value)
        if value < self.minimum:
            raise InvalidInput(
                f"Expected an integer of at least {self.minimum} {where(path)}, "
                f"got {describe(value)}.",
                path,
            )
        maximum = figure(self.maximum)
        if value > maximum:
            if isinstance(self.maximum, Limit):
                raise LimitExceeded(
                    f"Expected an integer of at most {maximum} {where(path)} "
                    f"(limit {self.maximum.name}), got {describe(value)}.",
                    path,
                )
            raise InvalidInput(
                f"Expected an integer of at most {maximum} {where(path)}, got {describe(value)}.",
                path,
            )
        return value

    def parse_items(self, items: Sequence[object], path: str) -> list[int]:
        # The whole list at once when every item is an int in range; else item by item,
        # which finds the first fault and its message (and reads 4.0 as 4).
        minimum, maximum = self.minimum, figure(self.maximum)
        if all(type(item) is int and minimum <= item <= maximum for item in items):
            return list(items)  # type: ignore[arg-type]  # all int, checked above
        return FieldType.parse_items(self, items, path)

    def schema(self) -> dict[str, object]:
        return {"type": "integer", "minimum": self.minimum, "maximum": figure(self.maximum)}


@dataclass(frozen=True, slots=True)
class Number(FieldType[int | float]):
    """A finite number in [minimum, maximum], returned as given."""

    minimum: float
    maximum: float

    def parse(self, value: object, path: str) -> int | float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise InvalidInput(f"Expected a number {where(path)}, got {describe(value)}.", path)
        if isinstance(value, float) and not math.isfinite(value):
            raise InvalidInput(
                f"Expected a finite number {where(path)}, got {describe(value)}.", path
            )
        if not self.minimum <= value <= self.maximum:
            raise InvalidInput(
                f"Expected a number from {self.minimum:g} to {self.maximum:g} {where(path)}, "
                f"got {describe(value)}.",
                path,
            )
        return value

    def schema(self) -> dict[str, object]:
        return {"type": "number", "minimum": self.minimum, "maximum": self.maximum}


@dataclass(frozen=True, slots=True)
class Boolean(FieldType[bool]):
    """``true`` or ``false``."""

    def parse(self, value: object, path: str) -> bool:
        if value is not True and value is not False:
            raise InvalidInput(
                f"Expected true or false {where(path)}, got {describe(value)}.", path
            )
        return value

    def schema(self) -> dict[str, object]:
        return {"type": "boolean"}


@dataclass(frozen=True, slots=True)
class Choice(FieldType[str]):
    """One of ``values`` (strings). A value in ``unsupported`` is ``unsupported_input``, with
    the message ``unsupported_message(value, path)`` (the contract names it as not supported)."""

    values: tuple[str, ...]
    unsupported: tuple[str, ...] = ()
    unsupported_message: Callable[[str, str], str] | None = None

    def parse(self, value: object, path: str) -> str:
        if isinstance(value, str) and value in self.unsupported:
            message = (
                self.unsupported_message(value, path)
                if self.unsupported_message
                else f"{value} is not supported {where(path)}."
            )
            raise UnsupportedInput(message, path)
        if isinstance(value, str) and value in self.values:
            return self.values[self.values.index(value)]
        raise InvalidInput(
            f"Expected one of {', '.join(self.values)} {where(path)}, got {describe(value)}.",
            path,
        )

    def schema(self) -> dict[str, object]:
        return {"type": "string", "enum": list(self.values)}


@dataclass(frozen=True, slots=True)
class Text(FieldType[str]):
    """A JSON string (any, lone surrogates included: the tools' own rules check those)."""

    def parse(self, value: object, path: str) -> str:
        if not isinstance(value, str):
            raise InvalidInput(f"Expected a string {where(path)}, got {describe(value)}.", path)
        return value

    def parse_items(self, items: Sequence[object], path: str) -> list[str]:
        # The whole list at once when every item is a string; else item by item (first fault).
        if all(isinstance(item, str) for item in items):
            return list(items)  # type: ignore[arg-type]  # all str, checked above
        return FieldType.parse_items(self, items, path)

    def schema(self) -> dict[str, object]:
        return {"type": "string"}


@dataclass(frozen=True, slots=True)
class Token(FieldType[str]):
    """A BLEU token: a non-empty string without lone surrogates, of at most ``max_bytes``
    UTF-8 bytes (a :class:`Limit`: longer is ``limit_exceeded``; ``None``: any length)."""

    max_bytes: Bound | None = None

    def parse(self, value: object, path: str) -> str:
        if not isinstance(value, str):
            raise InvalidInput(
                f"Expected a token (a non-empty string) {where(path)}, got {describe(value)}.",
                path,
            )
        if not value:
            raise InvalidInput(
                f"Expected a non-empty token {where(path)}, got the empty string.", path
            )
        check_no_lone_surrogate(value, "a token", path)
        if self.max_bytes is None:
            return value
        size = utf8_length(value)
        maximum = figure(self.max_bytes)
        if size > maximum:
            limit = f" (limit {self.max_bytes.name})" if isinstance(self.max_bytes, Limit) else ""
            raise LimitExceeded(
                f"Expected a token of at most {maximum} UTF-8 bytes {where(path)}{limit}, "
                f"got {size} bytes.",
                path,
            )
        return value

    def parse_items(self, items: Sequence[object], path: str) -> list[str]:
        # The whole list at once when every item passes (no Python loop per token); else
        # item by item, which finds the first fault and its message.
        if all(isinstance(item, str) for item in items):
            tokens: list[str] = list(items)  # type: ignore[arg-type]  # all str, checked above
            if "" not in tokens:
                joined = "".join(tokens)
                if self.max_bytes is None:
                    if joined.isascii() or first_lone_surrogate(joined) < 0:
                        return tokens
                elif joined.isascii():
                    if max(map(len, tokens), default=0) <= figure(self.max_bytes):
                        return tokens
                elif first_lone_surrogate(joined) < 0:
                    longest = max((len(t.encode("utf-8")) for t in tokens), default=0)
                    if longest <= figure(self.max_bytes):
                        return tokens
        return FieldType.parse_items(self, items, path)

    def schema(self) -> dict[str, object]:
        out: dict[str, object] = {"type": "string", "minLength": 1}
        if self.max_bytes is not None:
            out["maxLength"] = figure(self.max_bytes)
        return out


@dataclass(frozen=True, slots=True)
class Array(FieldType[list[T]]):
    """A JSON array (a Python list or tuple) of ``items``: the type, then at most
    ``max_items`` (a :class:`Limit`: more is ``limit_exceeded``), then at least ``min_items``,
    then every item in order.

    ``what`` is the array as a message names it (``an array of strings``), ``noun`` one of its
    items (``segment``), ``empty`` how an empty one is described (``none``).
    """

    items: FieldType[T]
    what: str
    noun: str = "item"
    min_items: int = 0
    max_items: Bound | None = None
    empty: str = "none"

    def parse(self, value: object, path: str) -> list[T]:
        items = self.check_shape(value, path)
        return self.items.parse_items(items, path)

    def check_shape(self, value: object, path: str) -> Sequence[object]:
        """The array's own checks (type, then count), not its items'."""
        if not isinstance(value, list | tuple):
            raise InvalidInput(f"Expected {self.what} {where(path)}, got {describe(value)}.", path)
        if self.max_items is not None and len(value) > figure(self.max_items):
            limit = f" (limit {self.max_items.name})" if isinstance(self.max_items, Limit) else ""
            raise (LimitExceeded if limit else InvalidInput)(
                f"Expected at most {figure(self.max_items)} {self.noun}s {where(path)}{limit}, "
                f"got {len(value)}.",
                path,
            )
        if len(value) < self.min_items:
            raise InvalidInput(
                f"Expected at least {self.min_items} {self.noun} {where(path)}, got {self.empty}.",
                path,
            )
        return value

    def schema(self) -> dict[str, object]:
        out: dict[str, object] = {"type": "array"}
        if self.min_items:
            out["minItems"] = self.min_items
        if self.max_items is not None:
            out["maxItems"] = figure(self.max_items)
        out["items"] = self.items.schema()
        return out


def one_to(bound: Bound, items: FieldType[T], what: str, noun: str) -> Array[T]:
    """An array of 1 to ``bound`` ``items``, each a ``noun`` in messages, the array named
    ``an array of 1 to {bound} {what}``."""
    return Array(items, f"an array of 1 to {figure(bound)} {what}", noun, 1, bound)


# --- an input, declared -------------------------------------------------------------------


class _Required:
    def __repr__(self) -> str:
        return "REQUIRED"


REQUIRED: Any = _Required()  # the default of a field the input must have


@dataclass(frozen=True, slots=True)
class Field(Generic[T]):
    """One key of the input object: its name, type, and the value used when it is omitted
    (:data:`REQUIRED`: it may not be omitted)."""

    name: str
    type: FieldType[T]
    default: object = REQUIRED

    @property
    def required(self) -> bool:
        """Whether the input must have this key."""
        return self.default is REQUIRED


@dataclass(frozen=True, slots=True)
class Rule:
    """A check across the fields parsed so far (``check(values)`` raises on a fault), run at
    its place in the contract's validation order."""

    check: Callable[[Mapping[str, Any]], None]


@dataclass(frozen=True, slots=True)
class InputSpec:
    """An input object declared in the contract's order: unknown keys first (in input order),
    then missing keys (in contract order), then every step in turn."""

    steps: tuple[Field[Any] | Rule, ...]
    fields: tuple[Field[Any], ...] = field(init=False)
    names: tuple[str, ...] = field(init=False, repr=False, compare=False)
    """The field names, in contract order."""
    # Derived once from the steps, not per input: the required names, and each step with
    # the JSON Pointer of its field ("" for a rule).
    _required: tuple[str, ...] = field(init=False, repr=False, compare=False)
    _plan: tuple[tuple[str | None, Callable[..., Any], str, object], ...] = field(
        init=False, repr=False, compare=False
    )
    """Per step, what :meth:`parse` does: ``(name, its type's parse, its pointer, its
    default)`` for a field, ``(None, the check, "", None)`` for a rule."""

    def __init__(self, *steps: Field[Any] | Rule) -> None:
        fields = tuple(s for s in steps if isinstance(s, Field))
        object.__setattr__(self, "steps", steps)
        object.__setattr__(self, "fields", fields)
        object.__setattr__(self, "names", tuple(f.name for f in fields))
        object.__setattr__(self, "_required", tuple(f.name for f in fields if f.required))
        plan = tuple(
            (s.name, s.type.parse, json_pointer(s.name), s.default)
            if isinstance(s, Field)
            else (None, s.check, "", None)
            for s in steps
        )
        object.__setattr__(self, "_plan", plan)

    def parse(self, raw: object) -> dict[str, Any]:
        """The checked values by field name (defaults for omitted optional fields). On the
        first fault, the coded error, carrying :meth:`faults` when there are several."""
        try:
            return self._parse(raw)
        except MtcomputeError as error:
            faults = self.faults(raw)
            if len(faults) > 1:
                error.faults = faults
            raise

    def _parse(self, raw: object) -> dict[str, Any]:
        obj = require_object(raw)
        allowed = self.names
        for key in obj:
            if key not in allowed:
                raise _unknown_key(key, allowed)
        for name in self._required:
            if name not in obj:
                raise _missing_key(name)
        values: dict[str, Any] = {}
        for step_name, parse, pointer, default in self._plan:
            if step_name is None:  # a rule: parse is its check
                parse(values)
            elif step_name in obj:
                values[step_name] = parse(obj[step_name], pointer)
            else:
                values[step_name] = default
        return values

    def faults(self, raw: object) -> tuple[MtcomputeError, ...]:
        """Every fault of ``raw``, at most :data:`MAX_FAULTS`, in the order :meth:`parse`
        meets them (its error first): unknown keys, missing keys, then each field's first
        fault; a rule is checked only while no fault is found, since it relates fields."""
        return tuple(islice(self._faults(raw), MAX_FAULTS))

    def _faults(self, raw: object) -> Iterator[MtcomputeError]:
        try:
            obj = require_object(raw)
        except MtcomputeError as error:
            yield error
            return
        found = False
        for key in obj:
            if key not in self.names:
                found = True
                yield _unknown_key(key, self.names)
        for name in self._required:
            if name not in obj:
                found = True
                yield _missing_key(name)
        values: dict[str, Any] = {}
        for step_name, parse, pointer, default in self._plan:
            try:
                if step_name is None:
                    if not found:
                        parse(values)
                elif step_name in obj:
                    values[step_name] = parse(obj[step_name], pointer)
                else:
                    values[step_name] = default
            except MtcomputeError as error:
                found = True
                yield error

    def call(self, **arguments: object) -> dict[str, Any]:
        """:meth:`parse` of a typed library function's arguments, one keyword per field (a
        tool's typed function is its signature, then ``INPUT.call(**locals())``, so that it
        checks exactly what ``execute`` checks): an argument that is ``None`` where an
        omitted field is ``None`` counts as omitted."""
        omitted_as_none = {f.name for f in self.fields if f.default is None}
        return self.parse(
            {k: v for k, v in arguments.items() if v is not None or k not in omitted_as_none}
        )


def _unknown_key(key: str, allowed: Sequence[str]) -> InvalidInput:
    # The path names the key, unless the key is too long to echo back (then the whole input
    # is at fault): responses never carry more than a bounded slice.
    return InvalidInput(
        f"Unknown key {quote(key)} in the input; expected only {', '.join(allowed)}.",
        json_pointer(key) if len(key) <= MAX_ECHOED_KEY else "",
    )


def _missing_key(name: str) -> InvalidInput:
    return InvalidInput(f'Missing required key "{name}".', json_pointer(name))


def require_object(value: object) -> Mapping[str, object]:
    """The whole input must be a JSON object with string keys."""
    if type(value) is not dict and not _is_mapping(value):
        raise InvalidInput(f"Expected a JSON object as the input, got {describe(value)}.")
    for key in value:
        if not isinstance(key, str):
            raise InvalidInput(
                f"Expected string keys in the input object, got the key {describe(key)}."
            )
    return value


def check_same_count(first: str, a: Sized, second: str, b: Sized, unit: str | None = None) -> None:
    """``b`` (the field ``second``) has as many items as ``a`` (the field ``first``).

    Two phrasings, both frozen in answers of version 1.0.0 tools: ``Expected references to
    have as many segments as hypotheses (2) at /references, got 1.`` with a ``unit``, and the
    chrF tools' ``Expected as many references as hypotheses (2) at /references, got 1.``
    without one.
    """
    if len(a) != len(b):
        expected = (
            f"{second} to have as many {unit} as {first}"
            if unit
            else f"as many {second} as {first}"
        )
        raise InvalidInput(
            f"Expected {expected} ({len(a)}) at /{second}, got {len(b)}.", f"/{second}"
        )


def same_count(first: str, second: str, unit: str | None = None) -> Rule:
    """The rule of :func:`check_same_count` on two parsed fields."""

    def check(values: Mapping[str, Any]) -> None:
        check_same_count(first, values[first], second, values[second], unit)

    return Rule(check)
