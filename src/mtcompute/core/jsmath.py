"""Bit-exact Python ports of the numeric routines JavaScript (V8/Node) uses.

Why this module exists: the bleu-smoothing-compute contract defines its
results as what JavaScript computes, i.e. with ``Math.log`` / ``Math.exp``
and with JavaScript's number formatting.  Python's :func:`math.log` and
:func:`math.exp` call the C library (glibc's own implementations), which
differ from V8's in the last bit for some inputs, so a straightforward Python
computation would not reproduce the JavaScript doubles.

Sources ported:

* :func:`js_log` -- fdlibm ``__ieee754_log`` (``e_log.c``), as carried in
  V8's ``src/base/ieee754.cc`` (``ieee754::log``), which ``Math.log`` runs.
* :func:`js_exp` -- fdlibm ``__ieee754_exp`` (``e_exp.c``), as carried in
  V8's ``src/base/ieee754.cc`` (``ieee754::exp``, including V8's special case
  ``exp(1) == Math.E``), which ``Math.exp`` runs.
* :func:`to_fixed` / :func:`round_to_fixed` -- ECMA-262
  ``Number.prototype.toFixed``.
* :func:`number_to_string` -- ECMA-262 ``Number::toString`` (what
  ``String(x)`` and ``JSON.stringify`` write for a finite number).

The log/exp ports keep every C expression's operation order and
parenthesization: Python floats are IEEE-754 doubles with round-to-nearest
arithmetic, so the same sequence of operations yields the same bits.  The
high/low 32-bit word manipulation of fdlibm is done on the 64-bit pattern
obtained with :mod:`struct`.
"""

from __future__ import annotations

__all__ = [
    "js_exp",
    "js_log",
    "js_logs",
    "number_to_string",
    "round_to_fixed",
    "to_fixed",
]

import math
import struct
from collections.abc import Iterable

_DOUBLE = struct.Struct("<d")
_UINT64 = struct.Struct("<Q")


def _bits(x: float) -> int:
    """Return the IEEE-754 bit pattern of ``x`` as an unsigned 64-bit int."""
    bits: int = _UINT64.unpack(_DOUBLE.pack(x))[0]
    return bits


def _from_bits(bits: int) -> float:
    """Return the double whose IEEE-754 bit pattern is ``bits``."""
    value: float = _DOUBLE.unpack(_UINT64.pack(bits))[0]
    return value


# --------------------------------------------------------------------------
# log: fdlibm e_log.c / V8 ieee754::log
# --------------------------------------------------------------------------

_LN2_HI = _from_bits(0x3FE62E42FEE00000)  # 6.93147180369123816490e-01
_LN2_LO = _from_bits(0x3DEA39EF35793C76)  # 1.90821492927058770002e-10
_TWO54 = _from_bits(0x4350000000000000)  # 1.80143985094819840000e+16
_LG1 = _from_bits(0x3FE5555555555593)  # 6.666666666666735130e-01
_LG2 = _from_bits(0x3FD999999997FA04)  # 3.999999999940941908e-01
_LG3 = _from_bits(0x3FD2492494229359)  # 2.857142874366239149e-01
_LG4 = _from_bits(0x3FCC71C51D8E78AF)  # 2.222219843214978396e-01
_LG5 = _from_bits(0x3FC7466496CB03DE)  # 1.818357216161805012e-01
_LG6 = _from_bits(0x3FC39A09D078C69F)  # 1.531383769920937332e-01
_LG7 = _from_bits(0x3FC2F112DF3E5244)  # 1.479819860511658591e-01
_THIRD = 0.33333333333333333  # the literal used in e_log.c


def js_logs(values: Iterable[float]) -> list[float]:
    """``[js_log(x) for x in values]``."""
    return [js_log(x) for x in values]


def js_log(x: float) -> float:
    """Return ``Math.log(x)`` exactly as V8 computes it: the port of fdlibm e_log.c."""
    x = float(x)
    bits = _bits(x)
    hx = bits >> 32
    lx = bits & 0xFFFFFFFF
    if hx & 0x80000000:  # the C code reads the high word as int32_t
        hx -= 0x100000000

    k = 0
    if hx < 0x00100000:  # x < 2**-1022
        if ((hx & 0x7FFFFFFF) | lx) == 0:
            return -math.inf  # log(+-0) = -inf
        if hx < 0:
            return math.nan  # log(-#) = NaN
        k -= 54
        x *= _TWO54  # subnormal number, scale up x
        bits = _bits(x)
        hx = bits >> 32
    if hx >= 0x7FF00000:
        return x + x
    k += (hx >> 20) - 1023
    hx &= 0x000FFFFF
    i = (hx + 0x95F64) & 0x100000
    # SET_HIGH_WORD(x, hx | (i ^ 0x3FF00000)): normalize x or x/2
    x = _from_bits(((hx | (i ^ 0x3FF00000)) << 32) | (bits & 0xFFFFFFFF))
    k += i >> 20
    f = x - 1.0
    if (0x000FFFFF & (2 + hx)) < 3:  # -2**-20 <= f < 2**-20
        if f == 0.0:
            if k == 0:
                return 0.0
            dk = float(k)
            return dk * _LN2_HI + dk * _LN2_LO
        r = f * f * (0.5 - _THIRD * f)
        if k == 0:
            return f - r
        dk = float(k)
        return dk * _LN2_HI - ((r - dk * _LN2_LO) - f)
    s = f / (2.0 + f)
    dk = float(k)
    z = s * s
    i = hx - 0x6147A
    w = z * z
    j = 0x6B851 - hx
    t1 = w * (_LG2 + w * (_LG4 + w * _LG6))
    t2 = z * (_LG1 + w * (_LG3 + w * (_LG5 + w * _LG7)))
    i |= j
    r = t2 + t1
    if i > 0:
        hfsq = 0.5 * f * f
        if k == 0:
            return f - (hfsq - s * (hfsq + r))
        return dk * _LN2_HI - ((hfsq - (s * (hfsq + r) + dk * _LN2_LO)) - f)
    if k == 0:
        return f - s * (f - r)
    return dk * _LN2_HI - ((s * (f - r) - dk * _LN2_LO) - f)


# --------------------------------------------------------------------------
# exp: fdlibm e_exp.c / V8 ieee754::exp
# --------------------------------------------------------------------------

_HALF = (0.5, -0.5)
_O_THRESHOLD = _from_bits(0x40862E42FEFA39EF)  # 7.09782712893383973096e+02
_U_THRESHOLD = _from_bits(0xC0874910D52D3051)  # -7.45133219101941108420e+02
_LN2HI = (_from_bits(0x3FE62E42FEE00000), _from_bits(0xBFE62E42FEE00000))
_LN2LO = (_from_bits(0x3DEA39EF35793C76), _from_bits(0xBDEA39EF35793C76))
_INVLN2 = _from_bits(0x3FF71547652B82FE)  # 1.44269504088896338700e+00
_P1 = _from_bits(0x3FC555555555553E)  # 1.66666666666666019037e-01
_P2 = _from_bits(0xBF66C16C16BEBD93)  # -2.77777777770155933842e-03
_P3 = _from_bits(0x3F11566AAF25DE2C)  # 6.61375632143793436117e-05
_P4 = _from_bits(0xBEBBBD41C5D26BF1)  # -1.65339022054652515390e-06
_P5 = _from_bits(0x3E66376972BEA4D0)  # 4.13813679705723846039e-08
_E = _from_bits(0x4005BF0A8B145769)  # 2.718281828459045 (Math.E)
_HUGE = 1.0e300
_TWOM1000 = _from_bits(0x0170000000000000)  # 2**-1000
_TWO1023 = _from_bits(0x7FE0000000000000)  # 2**1023


def js_exp(x: float) -> float:
    """Return ``Math.exp(x)`` exactly as V8 computes it: the port of fdlibm e_exp.c."""
    x = float(x)
    bits = _bits(x)
    hx = bits >> 32
    xsb = (hx >> 31) & 1  # sign bit of x
    hx &= 0x7FFFFFFF  # high word of |x|
    hi = 0.0
    lo = 0.0
    k = 0

    # filter out non-finite argument
    if hx >= 0x40862E42:  # |x| >= 709.78...
        if hx >= 0x7FF00000:
            if ((hx & 0xFFFFF) | (bits & 0xFFFFFFFF)) != 0:
                return x + x  # NaN
            return x if xsb == 0 else 0.0  # exp(+-inf) = {inf, 0}
        if x > _O_THRESHOLD:
            return _HUGE * _HUGE  # overflow
        if x < _U_THRESHOLD:
            return _TWOM1000 * _TWOM1000  # underflow

    # argument reduction
    if hx > 0x3FD62E42:  # |x| > 0.5 ln2
        if hx < 0x3FF0A2B2:  # and |x| < 1.5 ln2
            if x == 1.0:
                return _E  # V8 special case
            hi = x - _LN2HI[xsb]
            lo = _LN2LO[xsb]
            k = 1 - xsb - xsb
        else:
            k = int(_INVLN2 * x + _HALF[xsb])  # C cast truncates toward 0
            t = float(k)
            hi = x - t * _LN2HI[0]  # t*ln2HI is exact here
            lo = t * _LN2LO[0]
        x = hi - lo
    elif hx < 0x3E300000:  # |x| < 2**-28
        if _HUGE + x > 1.0:
            return 1.0 + x  # trigger inexact
    else:
        k = 0

    # x is now in primary range
    t = x * x
    if k >= -1021:
        twopk = _from_bits((0x3FF00000 + (k << 20)) << 32)
    else:
        twopk = _from_bits((0x3FF00000 + ((k + 1000) << 20)) << 32)
    c = x - t * (_P1 + t * (_P2 + t * (_P3 + t * (_P4 + t * _P5))))
    if k == 0:
        return 1.0 - ((x * c) / (c - 2.0) - x)
    y = 1.0 - ((lo - (x * c) / (2.0 - c)) - hi)
    if k >= -1021:
        if k == 1024:
            return y * 2.0 * _TWO1023
        return y * twopk
    return y * twopk * _TWOM1000


# --------------------------------------------------------------------------
# Number formatting: ECMA-262 Number::toString and Number.prototype.toFixed
# --------------------------------------------------------------------------

_MAX_SAFE = 2**53


def _shortest_digits(x: float) -> tuple[str, int]:
    """Split positive finite ``x`` into shortest round-trip digits and ``n``.

    Returns ``(s, n)`` as in ECMA-262 Number::toString: ``s`` is the digit
    string without leading/trailing zeros (k = len(s) digits) and the value is
    ``int(s) * 10**(n - k)``.  ``repr`` gives the shortest round-tripping
    digits, choosing the closest one, which is what V8 produces as well.
    """
    text = repr(x)
    mantissa, _, exp_text = text.partition("e")
    exponent = int(exp_text) if exp_text else 0
    int_part, _, frac_part = mantissa.partition(".")
    digits = (int_part + frac_part).lstrip("0")
    stripped = digits.rstrip("0")
    e10 = exponent - len(frac_part) + (len(digits) - len(stripped))
    return stripped, e10 + len(stripped)


def _format_double(x: float) -> str:
    """Number::toString for a finite double (``-0`` written as ``"0"``)."""
    if x == 0.0:
        return "0"
    sign = "-" if x < 0.0 else ""
    s, n = _shortest_digits(abs(x))
    k = len(s)
    if k <= n <= 21:
        return sign + s + "0" * (n - k)
    if 0 < n <= 21:
        return sign + s[:n] + "." + s[n:]
    if -6 < n <= 0:
        return sign + "0." + "0" * (-n) + s
    e = n - 1
    exp_text = ("+" if e >= 0 else "-") + str(abs(e))
    if k == 1:
        return sign + s + "e" + exp_text
    return sign + s[0] + "." + s[1:] + "e" + exp_text


def number_to_string(x: float | int) -> str:
    """Return what ``JSON.stringify`` / ``String`` writes for the number ``x``.

    Python ints with ``|x| <= 2**53`` are written exactly; larger ints are
    written as the double JavaScript would hold (``float(x)``, rounded to
    nearest).  ``-0`` is written ``"0"``.  NaN, infinities and ints too large
    for a double raise ValueError (JSON has no representation for them);
    ``bool`` raises TypeError.
    """
    if isinstance(x, bool):
        raise TypeError("number_to_string() does not accept bool")
    if isinstance(x, int):
        if -_MAX_SAFE <= x <= _MAX_SAFE:
            return str(x)
        try:
            value = float(x)
        except OverflowError:
            raise ValueError(f"integer too large for a double: {x}") from None
        return _format_double(value)
    value = float(x)
    if not math.isfinite(value):
        raise ValueError(f"not a finite number: {value!r}")
    return _format_double(value)


def to_fixed(x: float, digits: int) -> str:
    """Return ``x.toFixed(digits)`` exactly as ECMA-262 specifies.

    The exact binary value of ``x`` is rounded to ``digits`` decimal places,
    ties going to the larger magnitude (the spec works on ``-x`` for negative
    ``x`` and prepends ``"-"``).  ``|x| >= 1e21`` gives ``Number::toString``.
    ``(-0).toFixed(2)`` is ``"0.00"`` while ``(-1e-7).toFixed(2)`` is
    ``"-0.00"``.  Non-finite ``x`` gives ``"NaN"``, ``"Infinity"`` or
    ``"-Infinity"`` as in JavaScript.  ``digits`` outside 0..100 raises
    ValueError (JavaScript's RangeError).
    """
    if isinstance(digits, bool) or not isinstance(digits, int):
        raise TypeError("digits must be an int")
    if not 0 <= digits <= 100:
        raise ValueError(f"toFixed() digits must be between 0 and 100: {digits}")
    value = float(x)
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0.0 else "-Infinity"
    sign = ""
    if value < 0.0:
        sign = "-"
        value = -value
    if value >= 1e21:
        return sign + _format_double(value)
    num, den = value.as_integer_ratio()  # exact; den is a power of two
    # n = floor(value * 10**digits + 1/2): nearest integer, ties to larger n
    n = (2 * num * 10**digits + den) // (2 * den)
    m = str(n)
    if digits != 0:
        k = len(m)
        if k <= digits:
            m = "0" * (digits + 1 - k) + m
            k = digits + 1
        m = m[: k - digits] + "." + m[k - digits :]
    return sign + m


def round_to_fixed(x: float, digits: int) -> float:
    """Return ``Number(x.toFixed(digits))``, i.e. ``float(to_fixed(x, digits))``."""
    return float(to_fixed(x, digits))
