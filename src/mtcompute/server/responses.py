"""Starlette responses for JSON text, envelopes and errors: the one place a status is chosen.

Every JSON answer of the application goes through these, so that it has the same headers
(``content-type: application/json`` and the length) whichever route or middleware sends it.
"""

from __future__ import annotations

__all__ = ["JSON_TYPE", "envelope_response", "error_response", "json_response"]

from collections.abc import Mapping

from starlette.responses import Response

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
