"""The envelope every surface answers: ``{"result": {...}}`` or ``{"error": {...}}``.

:class:`Envelope` is that dict (it equals, indexes and serializes as the plain dict the
library has always returned) and it knows how each surface renders it: the HTTP status, the
CLI exit status and the compact JSON bytes (docs/decisions.md, "The envelope"). Adapters ask the
object instead of looking a code up again.
"""

from __future__ import annotations

__all__ = ["EXIT_OK", "Envelope"]

from mtcompute.core.jsjson import dumps, dumps_bytes
from mtcompute.errors import MtcomputeError

EXIT_OK = 0
"""The CLI's exit status for a result."""


class Envelope(dict[str, object]):
    """``{"result": result}`` or ``{"error": error.to_dict()}``, with how to render it.

    Build one with :meth:`of_result` or :meth:`of_error` (``Envelope(result)`` and
    ``Envelope(error=error)`` say the same). As a dict it is exactly the
    envelope (``Envelope.of_result(r) == {"result": r}``); the properties describe it:

    >>> envelope = Envelope.of_error(MtcomputeError("boom"))
    >>> (envelope.is_error, envelope.http_status, envelope.exit_code)
    (True, 500, 1)
    >>> envelope.json_bytes()
    b'{"error":{"code":"internal_error","message":"boom","path":""}}'
    """

    __slots__ = ("_error",)

    def __init__(self, result: object = None, *, error: MtcomputeError | None = None) -> None:
        if error is None:
            super().__init__(result=result)
        else:
            super().__init__(error=error.to_dict())
        self._error = error

    @classmethod
    def of_result(cls, result: object) -> Envelope:
        """The success envelope ``{"result": result}``."""
        return cls(result)

    @classmethod
    def of_error(cls, error: MtcomputeError) -> Envelope:
        """The failure envelope ``{"error": {"code", "message", "path"}}`` of ``error``."""
        return cls(error=error)

    @property
    def error(self) -> MtcomputeError | None:
        """The error this envelope reports, or ``None`` for a result."""
        return self._error

    @property
    def is_error(self) -> bool:
        """True for an error envelope (MCP's ``isError``)."""
        return self._error is not None

    @property
    def http_status(self) -> int:
        """200 for a result, else the error's status (400, 404, 413, 422, 500, ...)."""
        return 200 if self._error is None else self._error.http_status

    @property
    def exit_code(self) -> int:
        """The CLI's exit status: 0 for a result, else the error's (1)."""
        return EXIT_OK if self._error is None else self._error.exit_code

    def json_text(self) -> str:
        """The compact JSON text, as :func:`mtcompute.dumps` writes it."""
        return dumps(self)

    def json_bytes(self) -> bytes:
        """The compact JSON as UTF-8 bytes: what HTTP sends and ``mtcompute run`` prints."""
        return dumps_bytes(dict(self))  # a plain dict: the kernel's writer takes exact types
