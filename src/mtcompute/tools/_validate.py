"""Validation building blocks shared by the tool modules.

Every check raises a coded error (:mod:`mtcompute.errors`) whose message says what was
expected, what was seen, and where (a JSON Pointer), in one sentence. Values are JSON values
as Python holds them (dict, list, str, int, float, bool, None); any other Python object is
refused with a message, never a traceback. Echoes of the input are bounded.

Numbers follow JavaScript and JSON Schema: an integer field takes any finite number with no
fractional part (``4.0`` is 4); ``True``/``False`` are never numbers; NaN and infinities are
refused.
"""

from __future__ import annotations

import math

from mtcompute.core.text import first_lone_surrogate
from mtcompute.errors import InvalidInput, LimitExceeded, MtcomputeError, json_pointer

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping, Sequence, Sized
    from typing import TypeGuard

__all__ = [
    "describe",
    "first_lone_surrogate",
    "quote",
    "require_array",
    "require_bool",
    "require_integer",
    "require_keys",
    "require_number",
    "require_object",
    "require_same_count",
    "require_string",
    "utf8_length",
]

_ECHO = 24  # characters of a string shown back in a message, at most
MAX_ECHOED_KEY = 256  # an unknown key longer than this is not repeated in the error's path


def _where(path: str) -> str:
    return f"at {path}" if path else "at the top level"


def quote(text: str) -> str:
    """``text`` in double quotes, cut to a few characters, non-ASCII escaped."""
    shown = text[:_ECHO].encode("ascii", "backslashreplace").decode("ascii")
    more = "..." if len(text) > _ECHO else ""
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


def _is_mapping(value: object) -> TypeGuard[Mapping[str, object]]:
    """Whether ``value`` is a mapping (a JSON object, or any Python ``Mapping``)."""
    if isinstance(value, dict):  # what JSON gives; spares importing collections.abc
        return True
    from collections.abc import Mapping  # noqa: PLC0415 - kept off `mtcompute score`'s start-up

    return isinstance(value, Mapping)


def require_object(value: object) -> Mapping[str, object]:
    """The whole input must be a JSON object with string keys."""
    if not _is_mapping(value):
        raise InvalidInput(f"Expected a JSON object as the input, got {describe(value)}.")
    for key in value:
        if not isinstance(key, str):
            raise InvalidInput(
                f"Expected string keys in the input object, got the key {describe(key)}."
            )
    return value


def require_keys(
    obj: Mapping[str, object], allowed: Sequence[str], required: Sequence[str]
) -> None:
    """Unknown keys first (in input order), then missing keys (in contract order)."""
    for key in obj:
        if key not in allowed:
            # The path names the key, unless the key is too long to echo back (then the whole
            # input is at fault): responses never carry more than a bounded slice of the input.
            raise InvalidInput(
                f"Unknown key {quote(key)} in the input; expected only {', '.join(allowed)}.",
                json_pointer(key) if len(key) <= MAX_ECHOED_KEY else "",
            )
    for key in required:
        if key not in obj:
            raise InvalidInput(f'Missing required key "{key}".', json_pointer(key))


def require_array(value: object, path: str, what: str) -> Sequence[object]:
    """A JSON array (a Python list or tuple)."""
    if not isinstance(value, list | tuple):
        raise InvalidInput(f"Expected {what} {_where(path)}, got {describe(value)}.", path)
    return value


def require_integer(
    value: object,
    path: str,
    minimum: int,
    maximum: int,
    over: type[MtcomputeError] = InvalidInput,
    limit_name: str | None = None,
) -> int:
    """An integer in [minimum, maximum]; above the maximum raises ``over``."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InvalidInput(f"Expected an integer {_where(path)}, got {describe(value)}.", path)
    if isinstance(value, float):
        if not value.is_integer():
            raise InvalidInput(f"Expected an integer {_where(path)}, got {describe(value)}.", path)
        value = int(value)
    if value < minimum:
        raise InvalidInput(
            f"Expected an integer of at least {minimum} {_where(path)}, got {describe(value)}.",
            path,
        )
    if value > maximum:
        suffix = f" (limit {limit_name})" if limit_name else ""
        raise over(
            f"Expected an integer of at most {maximum} {_where(path)}{suffix}, "
            f"got {describe(value)}.",
            path,
        )
    return value


def require_number(value: object, path: str, minimum: float, maximum: float) -> int | float:
    """A finite number in [minimum, maximum], returned as given."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InvalidInput(f"Expected a number {_where(path)}, got {describe(value)}.", path)
    if isinstance(value, float) and not math.isfinite(value):
        raise InvalidInput(f"Expected a finite number {_where(path)}, got {describe(value)}.", path)
    if not minimum <= value <= maximum:
        raise InvalidInput(
            f"Expected a number from {minimum:g} to {maximum:g} {_where(path)}, "
            f"got {describe(value)}.",
            path,
        )
    return value


def require_bool(value: object, path: str) -> bool:
    """``true`` or ``false``."""
    if value is not True and value is not False:
        raise InvalidInput(f"Expected true or false {_where(path)}, got {describe(value)}.", path)
    return value


def require_string(value: object, path: str, what: str = "a string") -> str:
    """A JSON string."""
    if not isinstance(value, str):
        raise InvalidInput(f"Expected {what} {_where(path)}, got {describe(value)}.", path)
    return value


def require_same_count(hypotheses: Sized, references: Sized) -> None:
    """As many references as hypotheses (the error is at /references)."""
    if len(hypotheses) != len(references):
        raise InvalidInput(
            f"Expected as many references as hypotheses ({len(hypotheses)}) at /references, "
            f"got {len(references)}.",
            "/references",
        )


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


def raise_limit(message: str, path: str = "") -> None:
    """Raise :class:`LimitExceeded` (a helper for one-line checks)."""
    raise LimitExceeded(message, path)
