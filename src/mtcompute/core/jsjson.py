"""JSON in and out as the reference service's JavaScript does it.

* :func:`dumps` writes what ``JSON.stringify`` writes (ECMA-262 §25.5.2): compact, integral
  numbers without ``.0``, other numbers in their shortest round-trip form with JavaScript's
  exponent rules, non-ASCII as itself, lone surrogates escaped as ``\\udxxx``.
* :func:`loads` parses with the standard library, refusing ``NaN`` and ``Infinity`` (not JSON),
  reading integral numbers as ints (``4.0`` is 4, as JavaScript has one number type), numbers
  too large for a double as infinities (as ``JSON.parse`` does; validation then refuses them),
  and
  turning every failure, including nesting too deep for the parser, into :class:`JsonError`.

Pure string-to-value functions: no I/O. :func:`dumps` writes with the compiled kernel's
``js_dumps`` when it is built and active (:mod:`mtcompute.native`), the same text (tests hold
the two equal on generated values), and with the Python writer here otherwise.
"""

from __future__ import annotations

__all__ = ["JsonError", "dumps", "dumps_bytes", "loads"]

import json
import math
import re
from collections.abc import Mapping, Sequence

from mtcompute import native
from mtcompute.core.jsmath import number_to_string
from mtcompute.native import twin

_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
# What json.JSONEncoder(ensure_ascii=False).encode returns for a str: the C escaper itself.
_encode_string = json.encoder.encode_basestring
_MAX_SAFE = 2**53  # ints up to this magnitude are written as str() writes them


class JsonError(ValueError):
    """Text that is not one JSON value (with a message saying where)."""


def _escape_surrogate(match: re.Match[str]) -> str:
    return f"\\u{ord(match.group()):04x}"


def _string(value: str) -> str:
    # The stdlib escapes exactly what JSON.stringify escapes (", \, control characters,
    # with \b \f \n \r \t short forms and lowercase \u00xx), except lone surrogates,
    # which well-formed JSON.stringify (ES2019) writes as escapes. ASCII text has none.
    text: str = _encode_string(value)
    if not value.isascii() and _LONE_SURROGATE.search(text):
        text = _LONE_SURROGATE.sub(_escape_surrogate, text)
    return text


def _int(value: int) -> str:
    if -_MAX_SAFE <= value <= _MAX_SAFE:
        return str(value)  # what number_to_string writes for a safe integer
    # an int past the largest double is Infinity in JavaScript, which JSON.stringify writes null
    return "null" if abs(value) >= _DOUBLE_OVERFLOW else number_to_string(value)


def _float(value: float) -> str:
    if not math.isfinite(value):
        return "null"
    # repr gives the shortest round-trip digits that number_to_string also starts from; when
    # it is positional (1e-4 <= |x| < 1e16) and not integral ("3.0"), number_to_string writes
    # exactly those characters (tests/test_jsjson.py holds the two equal on many floats).
    text = repr(value)
    if "e" in text or value.is_integer():
        return number_to_string(value)
    return text


def _write(value: object, out: list[str]) -> None:
    # The exact types JSON values have come first (one type() test each), then dicts (no
    # dict is also a str, number, bool or None); subclasses, other mappings and sequences
    # take the general tests below, in their original order.
    kind = type(value)
    if kind is str:
        out.append(_string(value))  # type: ignore[arg-type]  # type() is str
    elif kind is int:
        out.append(_int(value))  # type: ignore[arg-type]  # type() is int
    elif kind is float:
        out.append(_float(value))  # type: ignore[arg-type]  # type() is float
    elif kind is list or kind is tuple:
        _write_sequence(value, out)  # type: ignore[arg-type]  # type() is list or tuple
    elif isinstance(value, dict):
        _write_mapping(value, out)
    elif isinstance(value, str):
        out.append(_string(value))
    elif value is None:
        out.append("null")
    elif value is True:
        out.append("true")
    elif value is False:
        out.append("false")
    elif isinstance(value, int):
        out.append(_int(value))
    elif isinstance(value, float):
        out.append(_float(value))
    elif isinstance(value, Mapping):
        _write_mapping(value, out)
    elif isinstance(value, Sequence):
        _write_sequence(value, out)
    else:
        raise TypeError(f"not JSON-serializable: {type(value).__name__}")


def _write_mapping(value: Mapping[object, object], out: list[str]) -> None:
    separator = "{"
    for key, item in value.items():
        out.append(separator + _string(key if type(key) is str else str(key)) + ":")
        _write(item, out)
        separator = ","
    out.append("{}" if separator == "{" else "}")


def _write_sequence(value: Sequence[object], out: list[str]) -> None:
    # Arrays of only strings or only safe integers (the common outputs) in one join each.
    if all(type(item) is str for item in value):
        out.append("[" + ",".join(map(_string, value)) + "]")  # type: ignore[arg-type]  # all str
        return
    if all(type(item) is int and -_MAX_SAFE <= item <= _MAX_SAFE for item in value):
        out.append("[" + ",".join(map(str, value)) + "]")
        return
    separator = "["
    for item in value:
        out.append(separator)
        _write(item, out)
        separator = ","
    out.append("[]" if separator == "[" else "]")


def _dumps(value: object) -> str:
    """:func:`dumps` in Python: the definition, for every value (the kernel's ``js_dumps``
    writes the same text for the values of exact JSON types, and declines the others)."""
    out: list[str] = []
    _write(value, out)
    return "".join(out)


def _dumps_bytes(value: object) -> bytes:
    return _dumps(value).encode("utf-8")


@twin(_dumps)
def dumps(value: object) -> str:
    """Compact JSON text of ``value``, byte for byte what ``JSON.stringify`` writes."""
    data = native.ext.js_dumps(value)  # the kernel's writer, for values of exact JSON types
    return _dumps(value) if data is None else data.decode("utf-8")


@twin(_dumps_bytes)
def dumps_bytes(value: object) -> bytes:
    """:func:`dumps` as UTF-8 bytes (what HTTP sends and the CLI prints)."""
    data = native.ext.js_dumps(value)
    return _dumps_bytes(value) if data is None else data


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


# Two decoders built once (json.loads with hooks builds one per call). An integer literal of
# fewer than 309 digits is int(literal), which _parse_int returns for it too, so the hook is
# needed only where the text has a run of 309 digits (a longer literal may be there).
_DECODER = json.JSONDecoder(
    parse_float=_parse_float, parse_int=_parse_int, parse_constant=_refuse_constant
)
_DECODER_SHORT_INTS = json.JSONDecoder(parse_float=_parse_float, parse_constant=_refuse_constant)
# A run of 309 digits is looked for in two passes, each linear: a run of 16 (rare in JSON:
# most texts stop there, in the quicker pass), then one of 309 tried from a run's first
# digit only (the lookbehind). One search for 309 digits starts again at every digit of each
# shorter run: quadratic in the runs' length (a 30 MB body of 308-digit runs, under the
# server's 32 MiB cap, took 6.8 s; now 0.3 s).
_DIGIT_RUN = re.compile("[0-9]{16}")
_LONG_DIGITS = re.compile("(?<![0-9])[0-9]{309}")


def _long_digits(text: str) -> bool:
    """Whether ``text`` holds a run of 309 digits or more."""
    return _DIGIT_RUN.search(text) is not None and _LONG_DIGITS.search(text) is not None


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
        if text.startswith("\ufeff"):  # refused as json.loads refuses it
            raise json.JSONDecodeError("Unexpected UTF-8 BOM (decode using utf-8-sig)", text, 0)
        decoder = _DECODER if _long_digits(text) else _DECODER_SHORT_INTS
        return decoder.decode(text)
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
