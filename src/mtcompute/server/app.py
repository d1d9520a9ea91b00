"""The ASGI application: HTTP API, MCP (streamable HTTP at ``/mcp``) and catalog pages.

Every route is a thin adapter over the one execute path (:func:`mtcompute.execute`): read
the body, parse it, execute off the event loop, answer the envelope it returns (its status
and JSON bytes, exactly what ``mtcompute run`` prints). Every error, including unknown paths
and methods, is a JSON envelope, never HTML. The tool versions come from the catalog
(:mod:`mtcompute.catalog`), the error classes from :mod:`mtcompute.errors`.

Around the routes (outermost first; :mod:`mtcompute.server.middleware`):

- for a request from a trusted proxy (``MTCOMPUTE_TRUSTED_PROXIES``, CIDR networks), the
  client address, scheme and host it forwarded (the rate limit keys on that client, the pages'
  base URL is built from that host);
- the access log (:mod:`mtcompute.server.access_log`), when ``MTCOMPUTE_ACCESS_LOG`` says
  where (``mtcompute serve`` turns it on);
- the security headers (Content-Security-Policy, X-Content-Type-Options, Referrer-Policy,
  X-Frame-Options) on every response, the error handler's included; a page sets its own
  Content-Security-Policy (its inline script and style by hash), ``Cache-Control`` and
  ``Vary``;
- CORS, off unless origins are configured (``MTCOMPUTE_CORS_ORIGINS``, comma-separated):
  then Starlette's ``CORSMiddleware`` for exactly those origins, GET and POST, the headers
  ``Content-Type``, ``MCP-Protocol-Version``, ``Authorization`` and ``X-API-Key``, with a
  refused preflight answered by the JSON envelope;
- the body deadline: a request body that has not fully arrived ``MTCOMPUTE_BODY_TIMEOUT``
  seconds (default 10) after the request started, plus a second per
  ``MTCOMPUTE_MIN_UPLOAD_RATE`` bytes received (default 64 KiB: a minimum upload rate), or
  that goes ``MTCOMPUTE_BODY_TIMEOUT`` seconds without a byte, gets ``408`` with the
  ``invalid_input`` envelope and the connection is closed; this holds on every route,
  ``/mcp`` included;
- the body cap (``MTCOMPUTE_MAX_BODY_BYTES``): a body over it gets ``413``, the
  ``limit_exceeded`` envelope (on ``/mcp``, inside a JSON-RPC error), on every route;
- the execute route (:class:`ExecuteRoute`), ahead of the router: the one route of the hot
  path, in plain ASGI.

The request-head deadline and size cap live in the HTTP protocol
(:mod:`mtcompute.server.protocol`), before the application sees a request.

The pages write a base URL into their commands: ``MTCOMPUTE_PUBLIC_URL`` when set, else the
host a trusted proxy forwarded, else the address the connection reached; never the ``Host``
header. ``/healthz`` is liveness (the process computes), ``/readyz`` readiness (a body
worker process can compute, not too many requests wait).

No route reads a file named by a request or runs anything: tool ids and versions are looked
up in the registry, and contracts are read only for registered (id, version) pairs.

Versions: ``GET /v1/tools/{id}`` lists an id's versions with their status; ``latest`` in place
of a version (contract, execute and page routes) is the id's newest version, resolved by the
registry. Every answer of a known tool version names it in the ``Mtcompute-Tool`` header
(``id@version``), so a ``latest`` request says which version was served or ran; the bytes
are those of the concrete version.
"""

from __future__ import annotations

__all__ = [
    "DEFAULT_BODY_TIMEOUT",
    "DEFAULT_MAX_BODY_BYTES",
    "TOOL_HEADER",
    "catalog",
    "create_app",
    "tool_listing",
]

import asyncio
import contextlib
import os
import sys
from collections.abc import AsyncIterator
from typing import Any

import anyio
import anyio.to_thread
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send

from mtcompute._execute import execute
from mtcompute.catalog import CatalogEntry, catalog_entries, catalog_entry, tool_entries
from mtcompute.core.jsjson import JsonError, dumps, loads
from mtcompute.envelope import Envelope
from mtcompute.errors import (
    InternalError,
    InvalidInput,
    MethodNotAllowed,
    NotFound,
    Overloaded,
    Timeout,
    UnsupportedMediaType,
)
from mtcompute.search import MAX_QUERY_LENGTH, search_answer
from mtcompute.server import api_docs
from mtcompute.server.access_log import AccessLog, open_access_log
from mtcompute.server.executor import (
    DEFAULT_COMPUTE_WORKERS,
    DEFAULT_DEADLINE,
    DEFAULT_MAX_QUEUE,
    RETRY_AFTER,
    SWITCH_INTERVAL,
    BodyWorker,
    NotReady,
    configure,
    execute_body,
    execute_value,
    fix_mmap_threshold,
    in_body_worker,
    readiness,
)
from mtcompute.server.limits import (
    ApiKeys,
    Network,
    RateLimit,
    TokenBuckets,
    client_of,
    parse_networks,
)
from mtcompute.server.mcp import (
    body_refusal,
    mcp_http_app,
    protocol_versions,
    refusal,
    tool_titles,
)
from mtcompute.server.middleware import (
    DEFAULT_MIN_UPLOAD_RATE,
    EXECUTE_PATH,
    FORWARDED_HOST,
    AccessLogMiddleware,
    BodyCapMiddleware,
    BodyDeadlineMiddleware,
    ForwardedMiddleware,
    JsonCORSMiddleware,
    LimitsMiddleware,
    SecurityHeadersMiddleware,
    route_path,
)
from mtcompute.server.openapi import openapi_document
from mtcompute.server.page_data import page_security_policy
from mtcompute.server.pages import (
    CLIENT_FILES,
    CLIENTS_PATH,
    MCP_SETUP_PATH,
    client_file,
    clients_page,
    index_page,
    mcp_setup_page,
    tool_page,
)
from mtcompute.server.responses import (
    JSON_TYPE,
    Answer,
    envelope_answer,
    error_answer,
    error_response,
    json_response,
    send_answer,
)
from mtcompute.server.settings import from_environment
from mtcompute.tools._cost import request_cost

# 32 MiB: admits the largest valid input of every contract in the catalog in compact JSON,
# escapes included (bleu-corpus-compute: 500,000 tokens, 4 MiB of token bytes, each byte a
# control character written \u0001: 26,784,747 bytes). MTCOMPUTE_MAX_BODY_BYTES overrides.
DEFAULT_MAX_BODY_BYTES = 32 << 20
DEFAULT_BODY_TIMEOUT = 10.0  # seconds; MTCOMPUTE_BODY_TIMEOUT overrides
CORS_METHODS = ("GET", "POST")
# The request headers a browser may send cross-origin: JSON bodies, MCP's version header and
# the API key (Authorization: Bearer, or X-API-Key); the refusals' headers and the version
# that answered, which it may read.
CORS_HEADERS = ("content-type", "mcp-protocol-version", "authorization", "x-api-key")
TOOL_HEADER = "mtcompute-tool"
"""The response header naming the tool version served or run, ``id@version``."""
CORS_EXPOSED = ("retry-after", "www-authenticate", TOOL_HEADER)


def _is_json_content_type(value: str | None) -> bool:
    if value is None:
        return True  # no header at all: browsers' cross-site forms always send one
    media = value.split(";", 1)[0].strip().lower()
    return media == JSON_TYPE or (media.startswith("application/") and media.endswith("+json"))


def _entry(request: Request) -> CatalogEntry:
    """The catalog entry of the path's tool id and version (``latest``: the newest; or
    NotFound)."""
    return catalog_entry(request.path_params["tool_id"], request.path_params["version"])


def _tool_header(entry: CatalogEntry) -> dict[str, str]:
    """The :data:`TOOL_HEADER` of an answer about ``entry``."""
    return {TOOL_HEADER: entry.ref}


class ExecuteEndpoint:
    """``POST /v1/tools/{id}/versions/{version}/execute``, in plain ASGI: the body is the
    input, the answer its envelope.

    In order: an unknown tool or version is 404; a Content-Type that is not JSON is 415;
    the body is read (the body cap and deadline around it apply) and classed from its bytes
    (:func:`~mtcompute.tools._cost.request_cost`); a body over
    :data:`~mtcompute.server.executor.INLINE_BODY_BYTES`, or a heavy one, goes whole to the
    body worker pool, in its client's turn; a smaller light one is parsed here (not JSON:
    400) and executed where its cost estimate says
    (:func:`~mtcompute.server.executor.execute_value`). A client that leaves before its
    body is in gets no answer; one that leaves while its request waits or computes gets none
    either, and its work is dropped (or stopped, in the body worker). A full queue is 503
    ``overloaded`` with ``Retry-After``, a deadline passed 504 ``timeout``.

    The router reaches it as the execute route's endpoint, and :class:`ExecuteRoute` ahead of
    the router (the same object, for the common case).
    """

    def __init__(self, body_worker: BodyWorker) -> None:
        self.body_worker = body_worker

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        match = EXECUTE_PATH.fullmatch(route_path(scope))
        assert match is not None  # routed here by this path only
        try:
            entry = catalog_entry(*match.groups())  # "latest" resolves to the newest
        except NotFound as exc:
            await send_answer(send, error_answer(exc))
            return
        header = (TOOL_HEADER.encode("latin-1"), entry.ref.encode("utf-8"))
        try:
            answer = await self._answer(scope, receive, entry)
        except Overloaded as exc:
            retry = (b"retry-after", str(exc.retry_after).encode("latin-1"))
            await send_answer(send, error_answer(exc), (header, retry))
            return
        except Timeout as exc:
            answer = error_answer(exc)
        if answer is not None:  # the version that ran, named in the header
            await send_answer(send, answer, (header,))

    async def _answer(self, scope: Scope, receive: Receive, entry: CatalogEntry) -> Answer | None:
        content_type = _header(scope, b"content-type")
        if content_type is not None and not _is_json_content_type(content_type):
            return error_answer(UnsupportedMediaType(content_type))
        body = await _read_body(receive)
        if body is None:  # the client left
            return None
        try:
            return await self._compute(scope, receive, entry, body)
        except asyncio.CancelledError:
            # Not the client leaving (that ends _compute with None): the server is stopping
            # and its grace period is over (uvicorn cancels what still runs). The envelope,
            # not uvicorn's plain-text 500; the task ends with it.
            raise Overloaded("the server is shutting down", RETRY_AFTER) from None

    async def _compute(
        self, scope: Scope, receive: Receive, entry: CatalogEntry, body: bytes
    ) -> Answer | None:
        cost = request_cost(entry.id, body)  # from the bytes, before any work
        if in_body_worker(body, cost):  # large or heavy: parsed, computed in the process
            client = client_of(scope)
            worker = self.body_worker
            return await execute_body(worker, entry.id, entry.version, body, receive, client, cost)
        try:
            value = loads(body)
        except JsonError as exc:
            return error_answer(InvalidInput(str(exc)))
        # On the event loop when the tool's cost estimate says it is cheap, else on a worker.
        return await execute_value(
            entry.id, entry.version, value, envelope_answer, len(body), receive, cost
        )


class ExecuteRoute:
    """The execute route ahead of the router: a POST to an execute path goes straight to its
    :class:`ExecuteEndpoint`, every other request on to ``app`` (the router; another method on
    an execute path gets its 405 there).

    The innermost middleware, so that everything around the routes (the body cap and
    deadline, the limits, CORS, the access log, the error handler) holds for it as for every
    route; what it skips is the router's matching, the exception middleware and Starlette's
    request objects, which together cost more than computing a seed example.
    """

    def __init__(self, app: ASGIApp, endpoint: ExecuteEndpoint) -> None:
        self.app = app
        self.endpoint = endpoint

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            scope["type"] == "http"
            and scope["method"] == "POST"
            and EXECUTE_PATH.fullmatch(route_path(scope))
        ):
            await self.endpoint(scope, receive, send)
        else:
            await self.app(scope, receive, send)


def _header(scope: Scope, name: bytes) -> str | None:
    """The request's first header ``name`` (lowercase bytes), decoded as Latin-1, or None."""
    for key, value in scope["headers"]:
        if key == name:
            return str(value.decode("latin-1"))
    return None


async def _read_body(receive: Receive) -> bytes | None:
    """The whole request body, or None when the client disconnects first."""
    chunks = []
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return None
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            return b"".join(chunks)


async def contract_endpoint(request: Request) -> Response:
    """GET /v1/tools/{id}/versions/{version}: the contract document as shipped (``latest``:
    the newest version's, named in the :data:`TOOL_HEADER`)."""
    try:
        entry = _entry(request)
    except NotFound as exc:
        return error_response(exc)
    return json_response(entry.text, headers=_tool_header(entry))


def _listed(entry: CatalogEntry, base_url: str) -> dict[str, Any]:
    """A tool version as the listings show it: id, version, description, status (and
    superseded_by), links."""
    return {**entry.summary(), **entry.version_status(), "links": entry.links(base_url)}


def catalog(base_url: str = "") -> list[dict[str, Any]]:
    """One entry per tool version: id, version, description, status and links."""
    return [_listed(entry, base_url) for entry in catalog_entries()]


def tool_listing(tool_id: str, base_url: str = "") -> dict[str, Any]:
    """``{"id", "latest", "versions"}``: the versions of ``tool_id``, oldest first, each as
    :func:`catalog` lists it; ``latest`` is the newest version (NotFound for an unknown id)."""
    entries = tool_entries(tool_id)
    return {
        "id": tool_id,
        "latest": entries[-1].version,
        "versions": [_listed(entry, base_url) for entry in entries],
    }


def search_body(query: str, base_url: str = "") -> dict[str, Any]:
    """``GET /v1/tools?q=``'s answer: the search's answer (``supported``, ``reason``,
    ``not_done``, ``metrics``), its ranked tools under ``tools``, each with its links."""
    answer = search_answer(query)
    body = answer.as_json("tools")
    body["tools"] = [
        {**data, "links": result.hit.entry.links(base_url)}
        for data, result in zip(body["tools"], answer.results, strict=True)
    ]
    return body


def query_error(query: str) -> InvalidInput | None:
    """The refusal of a search query over :data:`~mtcompute.search.MAX_QUERY_LENGTH`."""
    if len(query) <= MAX_QUERY_LENGTH:
        return None
    return InvalidInput(
        f'Expected the query parameter "q" to have at most {MAX_QUERY_LENGTH} characters, '
        f"got {len(query)}."
    )


async def catalog_endpoint(request: Request) -> Response:
    """GET /v1/tools: the catalog; with ``?q=`` (not blank), the search's answer:
    ``{"query", "supported", "reason", "not_done", "metrics", "tools": [{id, version,
    description, score, matched, alternative, links}]}``."""
    query = request.query_params.get("q", "")
    if not query.strip():
        return json_response(dumps({"tools": catalog()}))
    refusal = query_error(query)
    if refusal is not None:
        return error_response(refusal)
    return json_response(dumps(search_body(query)))


async def tool_endpoint(request: Request) -> Response:
    """GET /v1/tools/{id}: the tool's versions with their status (:func:`tool_listing`)."""
    try:
        listing = tool_listing(request.path_params["tool_id"])
    except NotFound as exc:
        return error_response(exc)
    return json_response(dumps(listing))


async def openapi_endpoint(request: Request) -> Response:
    """GET /openapi.json: OpenAPI 3.1 built from the contracts."""
    return json_response(request.app.state.openapi_text)


async def healthz(_request: Request) -> Response:
    """GET /healthz: liveness: the process is up and can compute (a tiny chrF)."""
    envelope = execute("chrf-compute", "1.0.0", {"hypotheses": ["a"], "references": ["a"]})
    ok = not envelope.is_error
    return json_response(dumps({"status": "ok" if ok else "failing"}), 200 if ok else 503)


async def readyz(request: Request) -> Response:
    """GET /readyz: readiness: ``{"status": "ready"}`` when a body worker process can compute
    and no more than :data:`~mtcompute.server.executor.READY_MAX_WAITING` requests wait for a
    worker; else 503 with the ``internal_error`` envelope saying why
    (:func:`~mtcompute.server.executor.readiness`)."""
    problem = readiness(request.app.state.body_worker)
    if problem is None:
        return json_response(dumps({"status": "ready"}))
    return error_response(NotReady(problem))


PAGE_VARY = "Forwarded, X-Forwarded-Host, X-Forwarded-Proto"
"""The request headers a page may be built from (its base URL, from a trusted proxy)."""
PAGE_CACHE_CONTROL = "public, max-age=300"
"""Pages change only with the server's version or settings: caches may keep them 5 minutes."""


def _base_url(request: Request) -> str:
    """The base URL the pages write into their commands, never from the ``Host`` header: the
    configured ``public_url``; else the scheme and host a trusted proxy forwarded
    (:class:`~mtcompute.server.middleware.ForwardedMiddleware`); else the address the
    connection reached (the server's own socket: ``http://127.0.0.1:8000`` by default)."""
    public_url: str | None = request.app.state.public_url
    if public_url:
        return public_url
    scheme = "https" if request.url.scheme in ("https", "wss") else "http"
    host = request.scope.get(FORWARDED_HOST)
    if host is not None:
        return f"{scheme}://{host}"
    server = request.scope.get("server")
    if not server or server[1] is None:  # a Unix socket: no address to name
        return f"{scheme}://127.0.0.1"
    name, port = str(server[0]), int(server[1])
    name = f"[{name}]" if ":" in name else name
    default = {"http": 80, "https": 443}[scheme]
    return f"{scheme}://{name}" + ("" if port == default else f":{port}")


def _page(html: str, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    """A page: its HTML with the pages' Content-Security-Policy, ``Cache-Control`` and
    ``Vary`` (:data:`PAGE_CACHE_CONTROL`, :data:`PAGE_VARY`)."""
    page_headers = {
        "content-security-policy": page_security_policy(),
        "cache-control": PAGE_CACHE_CONTROL,
        "vary": PAGE_VARY,
        **(headers or {}),
    }
    return HTMLResponse(html, status, page_headers)


async def index_endpoint(request: Request) -> Response:
    """GET /: the catalog page; ``?q=`` searches it (a GET form, no script needed)."""
    query = request.query_params.get("q", "")
    status = 400 if query_error(query) is not None else 200
    html = index_page(_base_url(request), query, key_needed=request.app.state.key_needed)
    return _page(html, status)


async def tool_page_endpoint(request: Request) -> Response:
    """GET /tools/{id}/{version}: a tool's page with a try-it form (``latest``: the newest
    version's page, named in the :data:`TOOL_HEADER`)."""
    try:
        entry = _entry(request)
    except NotFound as exc:
        return error_response(exc)
    html = tool_page(
        entry.id, entry.version, _base_url(request), key_needed=request.app.state.key_needed
    )
    return _page(html, headers=_tool_header(entry))


async def clients_endpoint(request: Request) -> Response:
    """GET /clients/cli/: the command-line clients page."""
    return _page(clients_page(_base_url(request), key_needed=request.app.state.key_needed))


async def client_file_endpoint(request: Request) -> Response:
    """GET /clients/cli/{name}: a shipped client file, verbatim (only the known names)."""
    name = request.path_params["name"]
    if name not in CLIENT_FILES:
        return error_response(NotFound(f"No such path: {request.url.path[:200]}."))
    return Response(client_file(name), media_type=CLIENT_FILES[name][0])


async def mcp_setup_endpoint(request: Request) -> Response:
    """GET /clients/mcp/: the MCP setup page (endpoint, transports, client configuration)."""
    html = mcp_setup_page(
        _base_url(request),
        tool_titles(),
        protocol_versions(),
        key_needed=request.app.state.key_needed,
    )
    return _page(html)


async def _http_exception(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    if exc.status_code == NotFound.http_status:
        return error_response(NotFound(f"No such path: {request.url.path[:200]}."))
    if exc.status_code == MethodNotAllowed.http_status:
        allow = (exc.headers or {}).get("Allow", "")
        return error_response(
            MethodNotAllowed(request.method, request.url.path, allow),
            headers={"Allow": allow} if allow else None,
        )
    # Any other refusal Starlette raises (none on these routes today) keeps its status.
    envelope = Envelope.of_error(InvalidInput(str(exc.detail)))
    return json_response(envelope.json_text(), exc.status_code)


async def _server_error(_request: Request, _exc: Exception) -> Response:
    return error_response(InternalError())


class _App(Starlette):
    """Starlette with the security headers outside the error handlers, then the access log
    outside everything, and the forwarded addresses of trusted proxies outside that."""

    access_log: AccessLog | None = None
    trusted_proxies: tuple[Network, ...] = ()

    def build_middleware_stack(self) -> ASGIApp:
        app: ASGIApp = SecurityHeadersMiddleware(super().build_middleware_stack())
        if self.access_log is not None:
            app = AccessLogMiddleware(app, self.access_log.logger)
        if self.trusted_proxies:
            app = ForwardedMiddleware(app, self.trusted_proxies)
        return app


def _comma_list(value: str | None) -> list[str]:
    return [o.strip() for o in (value or "").split(",") if o.strip()]


def _public_url(value: str | None) -> str | None:
    """The configured public URL without its trailing slash; None when not set."""
    value = (value or "").strip().rstrip("/")
    return value or None


def create_app(
    max_body_bytes: int | None = None,
    *,
    body_timeout: float | None = None,
    cors_origins: list[str] | None = None,
    access_log: str | None = None,
    rate_limit: str | None = None,
    api_keys: str | None = None,
    public_url: str | None = None,
    trusted_proxies: list[str] | None = None,
    max_queue: int | None = None,
    deadline: float | None = None,
    min_upload_rate: float | None = None,
    compute_workers: int | None = None,
) -> Starlette:
    """The application. Each setting defaults to its environment variable, then its default:

    - ``max_body_bytes``: ``MTCOMPUTE_MAX_BODY_BYTES``, 32 MiB;
    - ``body_timeout``: ``MTCOMPUTE_BODY_TIMEOUT``, 10 seconds;
    - ``cors_origins``: ``MTCOMPUTE_CORS_ORIGINS`` (comma-separated), none (CORS off);
    - ``access_log``: ``MTCOMPUTE_ACCESS_LOG``: off, ``stderr`` or a file path; off;
    - ``rate_limit``: ``MTCOMPUTE_RATE_LIMIT`` (``600/min``): requests per client; no limit;
    - ``api_keys``: ``MTCOMPUTE_API_KEYS``, a file of SHA-256 digests: keys then required
      to execute (discovery stays public); none (execute is free, no key needed);
    - ``public_url``: ``MTCOMPUTE_PUBLIC_URL``, the base URL the pages write into their
      commands (``https://mt.example.org``); none (a trusted proxy's forwarded host, else the
      address the connection reached);
    - ``trusted_proxies``: ``MTCOMPUTE_TRUSTED_PROXIES`` (comma-separated), the IP networks of
      the proxies whose forwarded client, scheme and host are believed; none;
    - ``max_queue``: ``MTCOMPUTE_MAX_QUEUE``, the requests that may wait for each worker
      thread, and of each cost class for the body worker pool, beyond those it
      computes; more are 503 ``overloaded``; 64;
    - ``deadline``: ``MTCOMPUTE_DEADLINE``, the most seconds a request to execute has from
      its admission to its answer (the time it may compute comes from its estimated cost,
      at most this); later is 504 ``timeout``; 60;
    - ``min_upload_rate``: ``MTCOMPUTE_MIN_UPLOAD_RATE``, bytes per second: each received
      byte of a body gives it ``1 / min_upload_rate`` seconds more than ``body_timeout``,
      but never ``body_timeout`` without a byte (0: the whole body within
      ``body_timeout``); 65536;
    - ``compute_workers``: ``MTCOMPUTE_COMPUTE_WORKERS``, the body worker processes
      (:class:`~mtcompute.server.executor.BodyWorker`), at least 1; 2.
    """
    if max_body_bytes is None:
        max_body_bytes = from_environment("MTCOMPUTE_MAX_BODY_BYTES", DEFAULT_MAX_BODY_BYTES)
    if body_timeout is None:
        body_timeout = from_environment("MTCOMPUTE_BODY_TIMEOUT", DEFAULT_BODY_TIMEOUT)
    if cors_origins is None:
        cors_origins = _comma_list(os.environ.get("MTCOMPUTE_CORS_ORIGINS"))
    if access_log is None:
        access_log = os.environ.get("MTCOMPUTE_ACCESS_LOG")
    if rate_limit is None:
        rate_limit = os.environ.get("MTCOMPUTE_RATE_LIMIT")
    if api_keys is None:
        api_keys = os.environ.get("MTCOMPUTE_API_KEYS")
    if public_url is None:
        public_url = os.environ.get("MTCOMPUTE_PUBLIC_URL")
    if trusted_proxies is None:
        trusted_proxies = _comma_list(os.environ.get("MTCOMPUTE_TRUSTED_PROXIES"))
    if max_queue is None:
        max_queue = from_environment("MTCOMPUTE_MAX_QUEUE", DEFAULT_MAX_QUEUE)
    if deadline is None:
        deadline = from_environment("MTCOMPUTE_DEADLINE", DEFAULT_DEADLINE)
    if min_upload_rate is None:
        min_upload_rate = from_environment("MTCOMPUTE_MIN_UPLOAD_RATE", DEFAULT_MIN_UPLOAD_RATE)
    if compute_workers is None:
        compute_workers = from_environment("MTCOMPUTE_COMPUTE_WORKERS", DEFAULT_COMPUTE_WORKERS)
    buckets = TokenBuckets(RateLimit.parse(rate_limit)) if rate_limit else None
    keys = ApiKeys.load(api_keys) if api_keys else None
    log = open_access_log(access_log)
    # Host names this server is reached by, besides loopback (MCP's DNS-rebinding check),
    # e.g. MTCOMPUTE_ALLOWED_HOSTS="mt.example.org,mt.example.org:*" behind a proxy.
    hosts = [h.strip() for h in os.environ.get("MTCOMPUTE_ALLOWED_HOSTS", "").split(",")]
    body_worker = BodyWorker(processes=compute_workers)  # under ADMISSION (the lifespan's)
    mcp_app, mcp_lifespan = mcp_http_app(
        allowed_hosts=[h for h in hosts if h], body_worker=body_worker
    )
    execute_endpoint = ExecuteEndpoint(body_worker)

    @contextlib.asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        interval = sys.getswitchinterval()
        sys.setswitchinterval(SWITCH_INTERVAL)  # the loop's turn sooner (server.executor)
        fix_mmap_threshold()  # large bodies' memory back to the system once freed
        admission = configure(max_queue, deadline)  # the worker threads' limits, while serving
        body_worker.start()
        try:
            async with mcp_lifespan():
                yield
        finally:
            sys.setswitchinterval(interval)
            configure(admission.max_queue, admission.deadline)
            await anyio.to_thread.run_sync(body_worker.close)
            if log is not None:
                await anyio.to_thread.run_sync(log.close)

    tool_path = "/v1/tools/{tool_id}/versions/{version}"
    routes = [  # the execute route first: the router tries each in turn (no two overlap)
        Route(tool_path + "/execute", execute_endpoint, methods=["POST"]),
        Route("/", index_endpoint, methods=["GET"]),
        Route("/healthz", healthz, methods=["GET"]),
        Route("/readyz", readyz, methods=["GET"]),
        Route("/openapi.json", openapi_endpoint, methods=["GET"]),
        Route("/v1/tools", catalog_endpoint, methods=["GET"]),
        Route("/v1/tools/{tool_id}", tool_endpoint, methods=["GET"]),
        Route(tool_path, contract_endpoint, methods=["GET"]),
        Route("/tools/{tool_id}/{version}", tool_page_endpoint, methods=["GET"]),
        Route(CLIENTS_PATH, clients_endpoint, methods=["GET"]),
        Route(CLIENTS_PATH + "{name}", client_file_endpoint, methods=["GET"]),
        Route(MCP_SETUP_PATH, mcp_setup_endpoint, methods=["GET"]),
        Route("/mcp", mcp_app, methods=["GET", "POST", "DELETE"]),
        *api_docs.routes(),  # /docs: Swagger UI over /openapi.json
    ]
    middleware = [
        Middleware(BodyDeadlineMiddleware, timeout=body_timeout, min_rate=min_upload_rate),
        Middleware(BodyCapMiddleware, cap=max_body_bytes, refusals={"/mcp": body_refusal}),
        Middleware(ExecuteRoute, endpoint=execute_endpoint),
    ]
    if buckets is not None or keys is not None:
        middleware.insert(
            0, Middleware(LimitsMiddleware, buckets=buckets, keys=keys, refusals={"/mcp": refusal})
        )
    if cors_origins:
        middleware.insert(
            0,
            Middleware(
                JsonCORSMiddleware,
                allow_origins=cors_origins,
                allow_methods=CORS_METHODS,
                allow_headers=CORS_HEADERS,
                expose_headers=CORS_EXPOSED,
            ),
        )
    app = _App(
        routes=routes,
        middleware=middleware,
        exception_handlers={HTTPException: _http_exception, Exception: _server_error},
        lifespan=lifespan,
    )
    app.access_log = log
    app.trusted_proxies = parse_networks(trusted_proxies)
    app.state.public_url = _public_url(public_url)
    app.state.body_worker = body_worker
    app.state.max_body_bytes = max_body_bytes
    app.state.body_timeout = body_timeout
    app.state.cors_origins = cors_origins
    app.state.key_needed = keys is not None
    app.state.openapi_text = dumps(
        openapi_document(key_needed=keys is not None, public_url=app.state.public_url)
    )
    return app
