"""Text checks shared by the core and the validators."""

from __future__ import annotations

__all__ = ["first_lone_surrogate"]


def first_lone_surrogate(text: str) -> int:
    """Index of the first lone surrogate (U+D800..U+DFFF) in ``text``, or -1.

    Strict UTF-8 can encode every code point except the surrogates, so the encoder's first
    failure is the first surrogate; it stops there.

    >>> first_lone_surrogate("ab\\ud800c"), first_lone_surrogate("abc"), first_lone_surrogate("")
    (2, -1, -1)
    """
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as error:
        return error.start
    return -1
