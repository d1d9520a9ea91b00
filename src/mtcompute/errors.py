"""Errors as data: one exception class per refusal, each with its code, HTTP status and exit code.

The tree::

    MtcomputeError                 base; carries code, message, path
    ├── InvalidInput               invalid_input       HTTP 400  CLI exit 1
    │   ├── UnsupportedMediaType   invalid_input       HTTP 415  (transport)
    │   └── RequestTimeout         invalid_input       HTTP 408  (transport)
    ├── LimitExceeded              limit_exceeded      HTTP 413  CLI exit 1
    │   ├── BodyTooLarge           limit_exceeded      HTTP 413  (transport)
    │   └── HeadersTooLarge        limit_exceeded      HTTP 431  (transport)
    ├── UnsupportedInput           unsupported_input   HTTP 422  CLI exit 1
    ├── NotFound                   not_found           HTTP 404  CLI exit 1
    ├── MethodNotAllowed           method_not_allowed  HTTP 405  (transport)
    ├── RateLimited                rate_limited        HTTP 429  (transport)
    ├── Unauthorized               unauthorized        HTTP 401  (transport)
    ├── Overloaded                 overloaded          HTTP 503  (transport)
    ├── Timeout                    timeout             HTTP 504  (transport)
    └── InternalError              internal_error      HTTP 500  CLI exit 1

The first four codes are the contracts' (docs/decisions.md, "The envelope"): a tool raises them.
The transport classes are the refusals of the service before any tool runs (docs/decisions.md,
"Transport errors"); each builds the message the service sends. ``InternalError`` is a bug,
in a tool (``execute()`` answers it) or in a request handler (the service answers it).

Each class carries its code, HTTP status and CLI exit status, so adapters map an error to a
response without ``if`` chains, and the lists the surfaces publish (the MCP tool description,
the OpenAPI document, the pages) are derived from :data:`TOOL_ERRORS`, :data:`EXECUTE_ERRORS`
and :data:`ERROR_CODES`. ``path`` is a JSON Pointer (RFC 6901) to the offending input field,
``""`` for the whole input.
"""

from __future__ import annotations

__all__ = [
    "ERRORS_BY_CODE",
    "ERROR_CODES",
    "EXECUTE_ERRORS",
    "TOOL_ERRORS",
    "TRANSPORT_ERRORS",
    "BodyTooLarge",
    "HeadersTooLarge",
    "InternalError",
    "InvalidInput",
    "LimitExceeded",
    "MethodNotAllowed",
    "MtcomputeError",
    "NotFound",
    "Overloaded",
    "RateLimited",
    "RequestTimeout",
    "Timeout",
    "Unauthorized",
    "UnsupportedInput",
    "UnsupportedMediaType",
    "json_pointer",
    "where",
]

from typing import ClassVar


def json_pointer(*parts: str | int) -> str:
    """Build a JSON Pointer from keys and indices, escaping ``~`` and ``/`` (RFC 6901 §3)."""
    return "".join("/" + str(part).replace("~", "~0").replace("/", "~1") for part in parts)


def where(path: str) -> str:
    """``at /beta``, or ``at the top level`` for the whole input: where a message says the
    fault is (here, below the field types, for the modules that phrase errors without them)."""
    return f"at {path}" if path else "at the top level"


class MtcomputeError(Exception):
    """A coded error: what the envelope's ``error`` object carries."""

    code: ClassVar[str] = "internal_error"
    http_status: ClassVar[int] = 500
    exit_code: ClassVar[int] = 1
    summary: ClassVar[str] = "a bug; please report"
    """What the code means, in a few words (the MCP ``execute`` description lists them)."""

    faults: tuple[MtcomputeError, ...] = ()
    """Every fault of the input when it has more than one, this error first (see
    :meth:`to_dict`); empty otherwise."""

    def __init__(self, message: str, path: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.path = path

    def fault(self) -> dict[str, str]:
        """This error alone: ``{"code", "message", "path"}``."""
        return {"code": self.code, "message": self.message, "path": self.path}

    def to_dict(self) -> dict[str, object]:
        """The ``error`` object of the envelope: code, message, path, and ``faults`` (each
        fault's code, message and path, this error first) when the input has more than one
        fault; an input with one fault gets exactly one error, as the contracts say."""
        error: dict[str, object] = {"code": self.code, "message": self.message, "path": self.path}
        if len(self.faults) > 1:
            error["faults"] = [fault.fault() for fault in self.faults]
        return error

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.message!r}, path={self.path!r})"

    def __reduce__(self) -> tuple[object, ...]:
        # Subclasses build their message from other arguments, so a copy or an unpickled
        # error is rebuilt from its message and path (and attributes), not from __init__.
        return (_rebuild, (type(self), self.message, self.path), self.__dict__)


def _rebuild(cls: type[MtcomputeError], message: str, path: str) -> MtcomputeError:
    error = cls.__new__(cls)
    MtcomputeError.__init__(error, message, path)
    return error


# -- the contracts' codes ----------------------------------------------------------------


class InvalidInput(MtcomputeError):
    """The input breaks the input schema or a behaviour rule of the contract."""

    code = "invalid_input"
    http_status = 400
    summary = "the input breaks the schema or a rule; path points at the field"


class LimitExceeded(MtcomputeError):
    """The input is well formed but larger than a figure in the contract's Limits."""

    code = "limit_exceeded"
    http_status = 413
    summary = "well formed but over a contract limit"


class UnsupportedInput(MtcomputeError):
    """A request for something the contract names as not supported."""

    code = "unsupported_input"
    http_status = 422
    summary = "a variant the contract names as unsupported; the message says what to use instead"


class NotFound(MtcomputeError):
    """No tool of that id, or no such version of it (or, over HTTP, no such path)."""

    code = "not_found"
    http_status = 404
    summary = "no tool of that id or version"


class InternalError(MtcomputeError):
    """A bug: a tool raised something that is not a coded error, or a request handler failed.

    With ``cause`` (what :func:`mtcompute.execute` caught from a tool), the message names the
    exception's type and asks for the input; without, it asks for the request.
    """

    code = "internal_error"
    http_status = 500
    summary = "a bug; please report"

    def __init__(self, cause: BaseException | None = None) -> None:
        if cause is None:
            super().__init__("Internal error; please report this request.")
        else:
            super().__init__(f"Internal error ({type(cause).__name__}); please report this input.")


# -- transport refusals (the service, before any tool runs) -------------------------------


class MethodNotAllowed(MtcomputeError):
    """A method the path does not have; ``allow`` names those it has (the ``Allow`` header)."""

    code = "method_not_allowed"
    http_status = 405
    summary = "another method on this path; the Allow header names those it has"

    def __init__(self, method: str, path: str, allow: str) -> None:
        super().__init__(f"Method {method} is not allowed on {path[:200]}; allowed: {allow}.")
        self.allow = allow


class UnsupportedMediaType(InvalidInput):
    """A request body whose Content-Type is not JSON."""

    http_status = 415
    summary = "the request body is not declared as JSON"

    def __init__(self, content_type: str) -> None:
        super().__init__(f"Expected Content-Type application/json, got {content_type[:64]!r}.")


class RequestTimeout(InvalidInput):
    """The request headers or body did not arrive within their deadline; the connection closes.

    ``part`` is ``"headers"`` or ``"body"``.
    """

    http_status = 408
    summary = "the request did not arrive within its deadline"

    def __init__(self, part: str, seconds: float) -> None:
        verb = "they did" if part == "headers" else "it did"
        super().__init__(
            f"Expected the request {part} within {seconds:g} s; {verb} not arrive in time, "
            "so the connection is closed."
        )


class BodyTooLarge(LimitExceeded):
    """A request body over the service's body cap, refused before (or as soon as) it passes it.

    ``declared`` is the Content-Length when that alone is over the cap, else ``None`` (the
    bytes were counted as they arrived).
    """

    summary = "the request body is over the service's body cap"

    def __init__(self, cap: int, declared: int | None = None) -> None:
        got = (
            "got more; the body was not read further"
            if declared is None
            else f"got {declared} (Content-Length)"
        )
        super().__init__(f"Expected a request body of at most {cap} bytes, {got}.")


class HeadersTooLarge(LimitExceeded):
    """Request line and headers over the head size cap; the connection closes."""

    http_status = 431
    summary = "the request headers are over the service's header cap"

    def __init__(self, cap: int) -> None:
        super().__init__(
            f"Expected request headers of at most {cap} bytes, got more; the connection is closed."
        )


class RateLimited(MtcomputeError):
    """429: the client sent more requests than the server's rate limit allows
    (``mtcompute serve --rate-limit``); ``retry_after`` is the ``Retry-After`` seconds."""

    code = "rate_limited"
    http_status = 429
    summary = "too many requests from this client; retry after Retry-After seconds"

    def __init__(self, limit: str, retry_after: int) -> None:
        super().__init__(
            f"Too many requests: at most {limit} per client; retry after {retry_after} s."
        )
        self.retry_after = retry_after


class Unauthorized(MtcomputeError):
    """401: executing needs an API key on this server (``mtcompute serve --api-keys``), and no
    valid one was sent."""

    code = "unauthorized"
    http_status = 401
    summary = "an API key is required to execute on this server"


class Overloaded(MtcomputeError):
    """503: the server has too much work waiting to take this request now (its queue for the
    request's kind of work is full), or it is shutting down; nothing of the request was
    computed. ``retry_after`` is the ``Retry-After`` seconds."""

    code = "overloaded"
    http_status = 503
    summary = "the server is too busy (or shutting down); retry after Retry-After seconds"

    def __init__(self, reason: str, retry_after: int = 1) -> None:
        super().__init__(f"Overloaded: {reason}; retry after {retry_after} s.")
        self.retry_after = retry_after


class Timeout(MtcomputeError):
    """504: the request's work did not finish within its deadline (``mtcompute serve
    --deadline``, or the one its cost estimate gives); the work was stopped (or, on a worker
    thread, its answer is dropped)."""

    code = "timeout"
    http_status = 504
    summary = "the work did not finish within the request's deadline"

    def __init__(self, seconds: float) -> None:
        super().__init__(
            f"Expected the work to finish within its deadline of {seconds:g} s; it did not, "
            "so it was stopped."
        )


TOOL_ERRORS: tuple[type[MtcomputeError], ...] = (
    InvalidInput,
    LimitExceeded,
    UnsupportedInput,
    NotFound,
)
"""The contracts' error classes, in the order the contract notes give the codes."""

EXECUTE_ERRORS: tuple[type[MtcomputeError], ...] = (*TOOL_ERRORS, InternalError)
"""The classes whose codes an :func:`mtcompute.execute` envelope can carry."""

TRANSPORT_ERRORS: tuple[type[MtcomputeError], ...] = (
    MethodNotAllowed,
    InternalError,
    UnsupportedMediaType,
    RequestTimeout,
    BodyTooLarge,
    HeadersTooLarge,
    RateLimited,
    Unauthorized,
    Overloaded,
    Timeout,
)
"""The service's own refusals (and its bug answer), beside the tools' errors."""

ERROR_CODES: tuple[str, ...] = tuple(
    dict.fromkeys(cls.code for cls in (*TOOL_ERRORS, *TRANSPORT_ERRORS))
)
"""Every code any surface answers: the contracts' four, then the service's own."""

ERRORS_BY_CODE: dict[str, type[MtcomputeError]] = {cls.code: cls for cls in TOOL_ERRORS}
"""The contracts' codes to their classes."""
