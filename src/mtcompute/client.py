"""A minimal HTTP client for a running mtcompute server (``mtcompute run --base-url``).

Standard library only, so the CLI stays light. The server's response body is the envelope
text, byte for byte what a local run prints; HTTP error statuses still carry an envelope.
An API key, when given, goes out as ``Authorization: Bearer KEY`` (a server started with
``--api-keys`` needs one to execute).
"""

from __future__ import annotations

__all__ = ["RemoteError", "check_api_key", "execute_remote"]

import urllib.error
import urllib.parse
import urllib.request


class RemoteError(Exception):
    """The server could not be reached or did not answer with an envelope."""


def check_api_key(key: str) -> str:
    """``key`` without surrounding blanks ("" for none); :class:`ValueError` (without the key,
    which is a secret) when it cannot be an HTTP header value."""
    key = key.strip()
    if any(not "!" <= char <= "~" for char in key):
        raise ValueError(
            "--api-key (or MTCOMPUTE_API_KEY) must be printable ASCII without spaces "
            f"(got {len(key)} characters, not shown)"
        )
    return key


def execute_remote(
    base_url: str,
    tool_id: str,
    version: str,
    body: bytes,
    timeout: float = 60.0,
    *,
    api_key: str = "",
) -> tuple[int, str]:
    """POST ``body`` to the tool's execute URL (with ``api_key`` as a bearer token when not
    empty); the HTTP status and the envelope text."""
    parsed = urllib.parse.urlsplit(base_url)
    if parsed.scheme not in ("http", "https") or not parsed.netloc:
        raise RemoteError(f"--base-url must be an http(s) URL, got {base_url!r}")
    path = (
        f"/v1/tools/{urllib.parse.quote(tool_id, safe='')}"
        f"/versions/{urllib.parse.quote(version, safe='')}/execute"
    )
    url = base_url.rstrip("/") + path
    headers = {"Content-Type": "application/json"}
    if api_key:
        headers["Authorization"] = f"Bearer {api_key}"
    request = urllib.request.Request(url, data=body, method="POST", headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            raw: bytes = response.read()
            status = int(response.status)
    except urllib.error.HTTPError as exc:
        raw = exc.read()
        status = int(exc.code)
    except (urllib.error.URLError, OSError) as exc:
        reason = getattr(exc, "reason", exc)
        raise RemoteError(f"cannot reach {base_url}: {reason}") from None
    text = raw.decode("utf-8", "replace")
    if not (text.startswith(('{"result"', '{"error"'))):
        raise RemoteError(f"{url} did not answer with an mtcompute envelope: {text[:200]!r}")
    return status, text
