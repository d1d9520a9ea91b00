"""Errors as data: one exception class per contract error code.

The tree::

    MtcomputeError                 base; carries code, message, path
    ├── InvalidInput               invalid_input      HTTP 400  CLI exit 1
    ├── LimitExceeded              limit_exceeded     HTTP 413  CLI exit 1
    ├── UnsupportedInput           unsupported_input  HTTP 422  CLI exit 1
    └── NotFound                   not_found          HTTP 404  CLI exit 1

Each class carries its code, HTTP status and CLI exit status (CONTRACT-NOTES "The
envelope"), so adapters map an error to a response without ``if`` chains. ``path`` is a
JSON Pointer (RFC 6901) to the offending input field, ``""`` for the whole input.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing is imported only by the type checker (CLI start-up time)
if TYPE_CHECKING:
    from typing import ClassVar

__all__ = [
    "ERRORS_BY_CODE",
    "InvalidInput",
    "LimitExceeded",
    "MtcomputeError",
    "NotFound",
    "UnsupportedInput",
    "json_pointer",
]


def json_pointer(*parts: str | int) -> str:
    """Build a JSON Pointer from keys and indices, escaping ``~`` and ``/`` (RFC 6901 §3)."""
    return "".join("/" + str(part).replace("~", "~0").replace("/", "~1") for part in parts)


class MtcomputeError(Exception):
    """A coded tool error: what the envelope's ``error`` object carries."""

    code: ClassVar[str] = "internal_error"
    http_status: ClassVar[int] = 500
    exit_code: ClassVar[int] = 1

    def __init__(self, message: str, path: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.path = path

    def to_dict(self) -> dict[str, str]:
        """The ``error`` object of the envelope: code, message, path."""
        return {"code": self.code, "message": self.message, "path": self.path}

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.message!r}, path={self.path!r})"


class InvalidInput(MtcomputeError):
    """The input breaks the input schema or a behaviour rule of the contract."""

    code = "invalid_input"
    http_status = 400


class LimitExceeded(MtcomputeError):
    """The input is well formed but larger than a figure in the contract's Limits."""

    code = "limit_exceeded"
    http_status = 413


class UnsupportedInput(MtcomputeError):
    """A request for something the contract names as not supported."""

    code = "unsupported_input"
    http_status = 422


class NotFound(MtcomputeError):
    """No tool of that id, or no such version of it."""

    code = "not_found"
    http_status = 404


ERRORS_BY_CODE: dict[str, type[MtcomputeError]] = {
    cls.code: cls for cls in (InvalidInput, LimitExceeded, UnsupportedInput, NotFound)
}
