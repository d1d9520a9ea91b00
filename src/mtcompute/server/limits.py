"""Safe public limits: per-client rate limiting and optional API keys for execute.

- :class:`RateLimit` (``600/min``): each client gets a token bucket of ``count`` requests
  refilled evenly over ``period`` seconds (a burst of ``count`` at once, then ``count`` per
  period). A client is its API key when it sends a valid one, else its address; an unknown
  key does not make a new client (else a client could mint buckets). A request over the limit
  gets 429, ``Retry-After`` (whole seconds until one request is allowed again) and the
  ``rate_limited`` envelope, on every route (on ``/mcp`` inside a JSON-RPC error). Buckets are
  per worker process: with ``--workers N`` a client may get up to N times the limit.
- :class:`ApiKeys` (``--api-keys FILE``): one SHA-256 hex digest per line (blank lines and
  ``#`` comments skipped); only digests are kept, so the file holds no key. When configured, a
  key (``Authorization: Bearer KEY`` or ``X-API-Key: KEY``) is required to execute: a ``POST``
  of an execute route without a valid key gets 401 with ``WWW-Authenticate: Bearer`` and the
  ``unauthorized`` envelope; on ``/mcp`` only a ``tools/call`` of ``execute`` needs it (the
  request is marked :data:`KEY_MISSING` and the MCP server answers that call with the same
  envelope as a tool error). Discovery stays public: pages, contracts, the catalog and its
  search, OpenAPI, ``/healthz``, and MCP ``initialize``, ``tools/list`` and the catalog
  tools. Keys are never logged (the access log writes no header).
- Trusted proxies (``--trusted-proxy CIDR``, :func:`parse_networks`): a request from one of
  them counts for the client it forwarded (``X-Forwarded-For``), not for the proxy
  (:class:`mtcompute.server.middleware.ForwardedMiddleware`). ``/healthz`` and ``/readyz`` are
  not counted.

The refusals are :class:`~mtcompute.errors.RateLimited` and
:class:`~mtcompute.errors.Unauthorized`, beside the service's other transport errors. Standard
library only (``mtcompute
serve`` imports it to check its options before uvicorn starts).
"""

from __future__ import annotations

__all__ = [
    "CLIENT_KEY",
    "KEY_MISSING",
    "KEY_REQUIRED_MESSAGE",
    "ApiKeys",
    "Network",
    "RateLimit",
    "TokenBuckets",
    "client_of",
    "parse_networks",
    "presented_key",
]

import hashlib
import ipaddress
import math
import re
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Final

_UNITS: Final = {
    "s": 1.0,
    "sec": 1.0,
    "second": 1.0,
    "m": 60.0,
    "min": 60.0,
    "minute": 60.0,
    "h": 3600.0,
    "hour": 3600.0,
}
_PERIOD_NAMES: Final = {1.0: "second", 60.0: "minute", 3600.0: "hour"}
_DIGEST: Final = re.compile(r"[0-9a-f]{64}")
KEY_MISSING: Final = "mtcompute.key_missing"
"""The ASGI scope entry (``True``) of a ``/mcp`` request without a valid key on a keyed server:
the MCP server refuses ``execute`` on it and answers discovery."""
KEY_REQUIRED_MESSAGE: Final = (
    'An API key is required to execute on this server: send "Authorization: Bearer KEY" '
    '(or "X-API-Key: KEY").'
)
"""The message of the ``unauthorized`` refusal, on every surface."""
CLIENT_KEY: Final = "mtcompute.client_key"
"""The ASGI scope entry of a request that presented a valid API key: its client (the key's),
set by :class:`~mtcompute.server.middleware.LimitsMiddleware` (:func:`client_of`)."""
MAX_CLIENTS: Final = 100_000  # buckets kept; beyond it, full (idle) buckets are dropped


@dataclass(frozen=True, slots=True)
class RateLimit:
    """``count`` requests per ``period`` seconds."""

    count: int
    period: float

    @classmethod
    def parse(cls, text: str) -> RateLimit:
        """``600/min``, ``10/s``, ``5000/hour``; ValueError with the expected form."""
        match = re.fullmatch(r"\s*([0-9]{1,9})\s*/\s*([a-z]+)\s*", text)
        if match is None or match.group(2) not in _UNITS or int(match.group(1)) < 1:
            raise ValueError(
                f"expected COUNT/UNIT with COUNT at least 1 and UNIT s, min or hour "
                f"(e.g. 600/min), got {text[:100]!r}"
            )
        return cls(int(match.group(1)), _UNITS[match.group(2)])

    @property
    def text(self) -> str:
        """``600 per minute``."""
        return f"{self.count} per {_PERIOD_NAMES.get(self.period, f'{self.period:g} s')}"


class TokenBuckets:
    """A token bucket per client: :meth:`take` one request, or the seconds to wait."""

    def __init__(self, limit: RateLimit, clock: Callable[[], float] = time.monotonic) -> None:
        self.limit = limit
        self._rate = limit.count / limit.period  # tokens per second
        self._clock = clock
        self._buckets: dict[str, tuple[float, float]] = {}  # client -> (tokens, at)
        self._lock = threading.Lock()

    def take(self, client: str) -> int:
        """0 when the request is allowed (a token taken), else the whole seconds to wait."""
        with self._lock:
            now = self._clock()
            tokens, at = self._buckets.get(client, (float(self.limit.count), now))
            tokens = min(float(self.limit.count), tokens + (now - at) * self._rate)
            if tokens >= 1:
                self._buckets[client] = (tokens - 1, now)
                if len(self._buckets) > MAX_CLIENTS:
                    self._prune(now)
                return 0
            self._buckets[client] = (tokens, now)
            return max(1, math.ceil((1 - tokens) / self._rate))

    def _prune(self, now: float) -> None:
        """Drop the buckets that have refilled (their clients are as if new)."""
        full = [
            client
            for client, (tokens, at) in self._buckets.items()
            if tokens + (now - at) * self._rate >= self.limit.count
        ]
        for client in full:
            del self._buckets[client]


def presented_key(headers: Mapping[str, str]) -> str | None:
    """The key of ``Authorization: Bearer KEY`` or else ``X-API-Key: KEY``, if any."""
    authorization = headers.get("authorization", "")
    scheme, _, credentials = authorization.partition(" ")
    if scheme.lower() == "bearer" and credentials.strip():
        return credentials.strip()
    key = headers.get("x-api-key", "").strip()
    return key or None


class ApiKeys:
    """The SHA-256 digests of the accepted keys."""

    def __init__(self, digests: frozenset[str]) -> None:
        self.digests = digests

    @classmethod
    def load(cls, path: str) -> ApiKeys:
        """The digests of ``path``; ValueError naming the file and line of a bad one."""
        try:
            text = Path(path).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise ValueError(f"cannot read the API keys file {path}: {exc}") from exc
        digests = set()
        for number, raw in enumerate(text.splitlines(), start=1):
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            if not _DIGEST.fullmatch(line.lower()):
                raise ValueError(
                    f"{path}, line {number}: expected a SHA-256 digest (64 hex digits), "
                    f"got {len(line)} characters"
                )
            digests.add(line.lower())
        if not digests:
            raise ValueError(f"{path}: no SHA-256 digest in the file")
        return cls(frozenset(digests))

    @staticmethod
    def digest(key: str) -> str:
        """The SHA-256 hex digest of a key (UTF-8), as the keys file holds it."""
        return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()

    def client(self, key: str | None) -> str | None:
        """``key:DIGEST`` for a valid key (the rate limiter's client), else None."""
        if key is None:
            return None
        digest = self.digest(key)
        return f"key:{digest}" if digest in self.digests else None


Network = ipaddress.IPv4Network | ipaddress.IPv6Network
"""An IP network (a trusted proxy's)."""


def parse_networks(values: Iterable[str]) -> tuple[Network, ...]:
    """The networks of ``values`` (``10.0.0.0/8``, ``192.0.2.7``, ``2001:db8::/32``);
    ValueError naming a bad one."""
    networks = []
    for value in values:
        try:
            networks.append(ipaddress.ip_network(value.strip(), strict=False))
        except ValueError:
            raise ValueError(
                f"expected an IP address or a CIDR network such as 10.0.0.0/8, "
                f"got {value.strip()[:100]!r}"
            ) from None
    return tuple(networks)


def client_of(scope: Mapping[str, object]) -> str:
    """The client a request counts for, as the rate limit keys it: its valid API key
    (:data:`CLIENT_KEY`), else its address (the forwarded one from a trusted proxy); the
    scheduler takes heavy work a client at a time by it."""
    key = scope.get(CLIENT_KEY)
    if isinstance(key, str):
        return key
    address = scope.get("client")
    host = address[0] if isinstance(address, list | tuple) and address else ""
    return f"address:{host}"
