"""Starlette responses for JSON text, envelopes and errors: the one place a status is chosen.

Every JSON answer of the application goes through these, so that it has the same headers
(``content-type: application/json`` and the length) whichever route or middleware sends it.
The execute route answers an :data:`Answer` (status and bytes) with :func:`send_answer`, the
ASGI messages a :func:`json_response` sends, without building it.
"""

from __future__ import annotations

__all__ = [
    "JSON_TYPE",
    "Answer",
    "envelope_answer",
    "envelope_response",
    "error_answer",
    "error_response",
    "json_response",
    "send_answer",
]

from collections.abc import Mapping

from starlette.responses import Response
from starlette.types import Send

from mtcompute.envelope import Envelope
from mtcompute.errors import MtcomputeError

JSON_TYPE = "application/json"


def json_response(
    text: str | bytes, status: int = 200, headers: Mapping[str, str] | None = None
) -> Response:
    """``text`` (JSON, or its UTF-8 bytes) as the body, with the JSON media type."""
    body = text if isinstance(text, bytes) else text.encode("utf-8")
    return Response(body, status, headers, media_type=JSON_TYPE)


def envelope_response(envelope: Envelope, headers: Mapping[str, str] | None = None) -> Response:
    """The envelope's JSON bytes with the envelope's HTTP status."""
    return Response(envelope.json_bytes(), envelope.http_status, headers, media_type=JSON_TYPE)


def error_response(error: MtcomputeError, headers: Mapping[str, str] | None = None) -> Response:
    """The error envelope of ``error``, with the error's HTTP status."""
    return envelope_response(Envelope.of_error(error), headers)


Answer = tuple[int, bytes]
"""An HTTP status and the JSON bytes of the body."""

_JSON_TYPE_BYTES = JSON_TYPE.encode("latin-1")


def envelope_answer(envelope: Envelope) -> Answer:
    """The envelope's HTTP status and JSON bytes."""
    return envelope.http_status, envelope.json_bytes()


def error_answer(error: MtcomputeError) -> Answer:
    """The status and bytes of the error envelope of ``error``."""
    return envelope_answer(Envelope.of_error(error))


async def send_answer(
    send: Send, answer: Answer, extra: tuple[tuple[bytes, bytes], ...] = ()
) -> None:
    """Send ``answer`` as ``json_response(body, status, headers)`` would: the same status,
    headers (``extra``: more, as lower-case name and value bytes) and body."""
    status, body = answer
    headers = [
        (b"content-length", str(len(body)).encode("latin-1")),
        (b"content-type", _JSON_TYPE_BYTES),
        *extra,
    ]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
