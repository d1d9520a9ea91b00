"""A minimal HTTP client for a running mtcompute server (``mtcompute run --base-url``).

Standard library only, so the CLI stays light. The server's response body is the envelope
text, byte for byte what a local run prints; HTTP error statuses still carry an envelope.
"""

from __future__ import annotations

__all__ = ["RemoteError", "execute_remote"]

import urllib.error
import urllib.parse
import urllib.request


class RemoteError(Exception):
    """The server could not be reached or did not answer with an envelope."""


def execute_remote(
    base_url: str, tool_id: str, version: str, body: bytes, timeout: float = 60.0
) -> str:
    """POST ``body`` to the tool's execute URL and return the envelope text."""
    parsed = urllib.parse.urlsplit(base_url)
    if parsed.scheme not in ("http", "https") or not parsed.netloc:
        raise RemoteError(f"--base-url must be an http(s) URL, got {base_url!r}")
    path = (
        f"/v1/tools/{urllib.parse.quote(tool_id, safe='')}"
        f"/versions/{urllib.parse.quote(version, safe='')}/execute"
    )
    url = base_url.rstrip("/") + path
    request = urllib.request.Request(
        url, data=body, method="POST", headers={"Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            raw: bytes = response.read()
    except urllib.error.HTTPError as exc:
        raw = exc.read()
    except (urllib.error.URLError, OSError) as exc:
        reason = getattr(exc, "reason", exc)
        raise RemoteError(f"cannot reach {base_url}: {reason}") from None
    text = raw.decode("utf-8", "replace")
    if not (text.startswith(('{"result"', '{"error"'))):
        raise RemoteError(f"{url} did not answer with an mtcompute envelope: {text[:200]!r}")
    return text
