"""JSON in and out as the reference service's JavaScript does it.

* :func:`dumps` writes what ``JSON.stringify`` writes (ECMA-262 §25.5.2): compact, integral
  numbers without ``.0``, other numbers in their shortest round-trip form with JavaScript's
  exponent rules, non-ASCII as itself, lone surrogates escaped as ``\\udxxx``.
* :func:`loads` parses with the standard library, refusing ``NaN`` and ``Infinity`` (not JSON),
  reading integral numbers as ints (``4.0`` is 4, as JavaScript has one number type), numbers
  too large for a double as infinities (as ``JSON.parse`` does; validation then refuses them),
  and
  turning every failure, including nesting too deep for the parser, into :class:`JsonError`.

Pure string-to-value functions: no I/O.
"""

from __future__ import annotations

__all__ = ["JsonError", "dumps", "loads"]

import json
import math
import re
from collections.abc import Mapping, Sequence

from mtcompute.core.jsmath import number_to_string

_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
_encode_string = json.JSONEncoder(ensure_ascii=False).encode


class JsonError(ValueError):
    """Text that is not one JSON value (with a message saying where)."""


def _escape_surrogate(match: re.Match[str]) -> str:
    return f"\\u{ord(match.group()):04x}"


def _string(value: str) -> str:
    # The stdlib escapes exactly what JSON.stringify escapes (", \, control characters,
    # with \b \f \n \r \t short forms and lowercase \u00xx), except lone surrogates,
    # which well-formed JSON.stringify (ES2019) writes as escapes.
    text: str = _encode_string(value)
    if _LONE_SURROGATE.search(text):
        text = _LONE_SURROGATE.sub(_escape_surrogate, text)
    return text


def _write(value: object, out: list[str]) -> None:
    if isinstance(value, str):
        out.append(_string(value))
    elif value is None:
        out.append("null")
    elif value is True:
        out.append("true")
    elif value is False:
        out.append("false")
    elif isinstance(value, int):
        # an int past the largest double is Infinity in JavaScript, which JSON.stringify writes null
        out.append("null" if abs(value) >= _DOUBLE_OVERFLOW else number_to_string(value))
    elif isinstance(value, float):
        out.append(number_to_string(value) if math.isfinite(value) else "null")
    elif isinstance(value, Mapping):
        out.append("{")
        first = True
        for key, item in value.items():
            if not first:
                out.append(",")
            first = False
            out.append(_string(str(key)))
            out.append(":")
            _write(item, out)
        out.append("}")
    elif isinstance(value, Sequence):
        out.append("[")
        for i, item in enumerate(value):
            if i:
                out.append(",")
            _write(item, out)
        out.append("]")
    else:
        raise TypeError(f"not JSON-serializable: {type(value).__name__}")


def dumps(value: object) -> str:
    """Compact JSON text of ``value``, byte for byte what ``JSON.stringify`` writes."""
    out: list[str] = []
    _write(value, out)
    return "".join(out)


def _parse_float(text: str) -> int | float:
    value = float(text)
    return int(value) if value.is_integer() else value


# Integers at or past this magnitude round to Infinity as a JavaScript number (2^1024 - 2^970
# is the midpoint between the largest double and 2^1024).
_DOUBLE_OVERFLOW = 2**1024 - 2**970


def _parse_int(text: str) -> int | float:
    # An integer literal too large for a double is Infinity in JavaScript's JSON.parse, and so
    # here (then refused as "not a finite number"), never an exact huge int: the reference
    # service would see Infinity. 310+ digits always overflow; skip int() (and its digit cap).
    negative = text.startswith("-")
    if len(text) - negative > 309:
        return -math.inf if negative else math.inf
    value = int(text)
    if abs(value) >= _DOUBLE_OVERFLOW:
        return -math.inf if negative else math.inf
    return value


def _refuse_constant(name: str) -> object:
    raise JsonError(f"{name} is not JSON")


def loads(text: str | bytes) -> object:
    """Parse one JSON value; bytes must be UTF-8. Raises :class:`JsonError`, nothing else."""
    if isinstance(text, bytes | bytearray):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise JsonError(
                f"Expected UTF-8 JSON, got a byte that is not UTF-8 at offset {exc.start}."
            ) from None
    try:
        return json.loads(
            text, parse_float=_parse_float, parse_int=_parse_int, parse_constant=_refuse_constant
        )
    except JsonError as exc:
        raise JsonError(f"Expected JSON, got {exc}.") from None
    except json.JSONDecodeError as exc:
        raise JsonError(
            f"Expected JSON, got invalid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}."
        ) from None
    except RecursionError:
        raise JsonError("Expected JSON, got arrays or objects nested too deeply.") from None
    except ValueError as exc:  # e.g. an integer literal over the interpreter's digit limit
        raise JsonError(f"Expected JSON, got a value that cannot be read: {exc}.") from None
