"""``mtcompute serve``: every network surface (HTTP API, MCP over HTTP, OpenAPI, the catalog
pages) under uvicorn. The settings reach the app, and every worker process, through the
environment (``MTCOMPUTE_*``); uvicorn imports the app itself, from its import string."""

from __future__ import annotations

__all__ = ["add_parser", "run"]

import argparse
import os
import re

from mtcompute.cli._common import EXIT_OK, Subparsers, add_command, missing_extra, usage_error

_EPILOG = (
    "example:\n  mtcompute serve --port 8000\n"
    "  curl -X POST http://127.0.0.1:8000/v1/tools/chrf-compute/versions/1.0.0/execute \\\n"
    "    -H 'Content-Type: application/json' "
    '-d \'{"hypotheses":["aa"],"references":["ab"]}\''
)


_TEXTS = (  # help, description, epilog
    "serve the HTTP API, MCP (/mcp) and the catalog pages",
    "Serve every surface: the HTTP API (/v1/tools/...), MCP over streamable "
    "HTTP (/mcp), OpenAPI (/openapi.json) and the catalog pages (/).",
    _EPILOG,
)


def add_parser(subparsers: Subparsers) -> None:
    """Register ``serve`` and its options (address, workers, limits, CORS, logging)."""
    parser = add_command(subparsers, "serve", run, _TEXTS)
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    parser.add_argument(
        "--workers",
        type=int,
        default=1,
        help="server processes, each with its own compute workers (default 1)",
    )
    parser.add_argument(
        "--compute-workers",
        type=int,
        default=None,
        metavar="N",
        help="processes computing the large and heavy request bodies, per server process "
        "(default 2): at most N-1 take heavy work at once, so one is always free for light "
        "work, whatever the CPU count; each costs memory (about 15 MB idle, 40 to 100 MB "
        "once it has computed, up to 170 MB on the heaviest input)",
    )
    parser.add_argument(
        "--max-body-bytes",
        type=int,
        default=None,
        help="largest request body accepted (default 33554432, 32 MiB: the largest valid input "
        "of every contract); larger is 413 limit_exceeded, refused before it is read",
    )
    parser.add_argument(
        "--body-timeout",
        type=float,
        default=None,
        metavar="SECONDS",
        help="time a request body has to arrive whole (default 10), plus a second per "
        "--min-upload-rate bytes received, and the longest it may go without a byte; later "
        "is 408 and the connection is closed",
    )
    parser.add_argument(
        "--min-upload-rate",
        type=float,
        default=None,
        metavar="BYTES_PER_S",
        help="the upload rate a body must keep after --body-timeout: each byte received "
        "gives it 1/RATE s more (default 65536; 0: the whole body within --body-timeout)",
    )
    parser.add_argument(
        "--header-timeout",
        type=float,
        default=None,
        metavar="SECONDS",
        help="time the request line and headers have to arrive once a connection opens or "
        "a request starts (default 10); later is 408 and the connection is closed",
    )
    parser.add_argument(
        "--max-header-bytes",
        type=int,
        default=None,
        help="largest request line plus headers accepted (default 65536); larger is 431",
    )
    parser.add_argument(
        "--max-queue",
        type=int,
        default=None,
        metavar="N",
        help="requests to execute that may wait for each worker thread, and of each cost "
        "class (light, heavy) for the body worker pool, beside those it computes "
        "(default 64); more are 503 overloaded with Retry-After, refused before any work",
    )
    parser.add_argument(
        "--deadline",
        type=float,
        default=None,
        metavar="SECONDS",
        help="the most time a request to execute has from its admission to its answer, "
        "waiting included (default 60); it may compute for 4 times its estimated cost, at "
        "least 10 s, at most this; later is 504 timeout and its work is stopped (in the body "
        "worker) or its answer dropped",
    )
    parser.add_argument(
        "--shutdown-grace",
        type=float,
        default=30.0,
        metavar="SECONDS",
        help="on SIGTERM, time the requests already admitted have to finish (default 30); "
        "those still running or waiting then are answered 503 overloaded",
    )
    parser.add_argument(
        "--cors-origin",
        action="append",
        metavar="ORIGIN",
        help="allow cross-origin requests from ORIGIN (e.g. https://example.org); repeat for "
        "more. Default: no CORS headers at all",
    )
    parser.add_argument(
        "--rate-limit",
        metavar="COUNT/UNIT",
        default=None,
        help="requests allowed per client (its API key, else its address), e.g. 600/min "
        "(UNIT s, min or hour); more is 429 rate_limited with Retry-After, on every route. "
        "Default: no limit. Counted per worker process",
    )
    parser.add_argument(
        "--api-keys",
        metavar="FILE",
        default=None,
        help="require an API key to execute (Authorization: Bearer KEY or X-API-Key: KEY): "
        "FILE holds the SHA-256 hex digest of each accepted key, one per line. Pages, "
        "contracts and the catalog stay public. Default: no key needed",
    )
    parser.add_argument(
        "--public-url",
        metavar="URL",
        default=None,
        help="the base URL the pages write into their commands, e.g. https://mt.example.org. "
        "Default: the host a --trusted-proxy forwards, else the address the connection "
        "reached (http://127.0.0.1:8000 by default); never the Host header",
    )
    parser.add_argument(
        "--trusted-proxy",
        action="append",
        metavar="CIDR",
        help="a reverse proxy's address or network (e.g. 10.0.0.0/8); repeat for more. A "
        "request from it is taken to come from the client its X-Forwarded-For names (the "
        "rightmost address not a trusted proxy: the rate limit's client), with the scheme "
        "and host of X-Forwarded-Proto and X-Forwarded-Host (or Forwarded). Default: none, "
        "forwarded headers are ignored",
    )
    parser.add_argument(
        "--access-log",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="write one JSON line per request (default on, to stderr)",
    )
    parser.add_argument(
        "--access-log-file",
        metavar="PATH",
        default=None,
        help="append the access log to PATH instead of stderr",
    )
    parser.add_argument(
        "--log-level",
        default="info",
        choices=["critical", "error", "warning", "info", "debug"],
        help="log level (default info)",
    )


def _settings(args: argparse.Namespace) -> str | None:
    """Check the options and put them in the environment; the usage error, or None."""
    from mtcompute.server.limits import ApiKeys, RateLimit, parse_networks  # noqa: PLC0415
    from mtcompute.server.settings import NUMBERS, SettingError  # noqa: PLC0415

    if args.workers < 1:
        return "--workers must be at least 1"
    for number in NUMBERS:
        value = getattr(args, number.option[2:].replace("-", "_"))
        if value is None and number.env is not None and number.env in os.environ:
            # the variable, set and not overridden, is checked as the option would be
            try:
                number.parse(os.environ[number.env])
            except SettingError as error:
                return str(error)
        elif value is not None:
            if not number.valid(value):
                return f"{number.option} {number.rule}"
            if number.env is not None:
                os.environ[number.env] = repr(value)
    if args.cors_origin:
        for origin in args.cors_origin:
            if not re.fullmatch(r"https?://[^/\s,*]+", origin):
                return (
                    f"--cors-origin expects an origin such as https://example.org "
                    f"(scheme and host, optional port, no path), got {origin[:100]!r}"
                )
        os.environ["MTCOMPUTE_CORS_ORIGINS"] = ",".join(args.cors_origin)
    if args.rate_limit is not None:
        try:
            RateLimit.parse(args.rate_limit)
        except ValueError as exc:
            return f"--rate-limit: {exc}"
        os.environ["MTCOMPUTE_RATE_LIMIT"] = args.rate_limit
    if args.api_keys is not None:
        try:
            ApiKeys.load(args.api_keys)
        except ValueError as exc:
            return f"--api-keys: {exc}"
        os.environ["MTCOMPUTE_API_KEYS"] = os.path.abspath(args.api_keys)
    if args.public_url is not None:
        problem = _public_url_problem(args.public_url)
        if problem is not None:
            return problem
        os.environ["MTCOMPUTE_PUBLIC_URL"] = args.public_url.rstrip("/")
    if args.trusted_proxy:
        try:
            parse_networks(args.trusted_proxy)
        except ValueError as exc:
            return f"--trusted-proxy: {exc}"
        os.environ["MTCOMPUTE_TRUSTED_PROXIES"] = ",".join(p.strip() for p in args.trusted_proxy)
    if args.access_log is False:
        os.environ["MTCOMPUTE_ACCESS_LOG"] = "off"
    elif args.access_log_file is not None:
        os.environ["MTCOMPUTE_ACCESS_LOG"] = os.path.abspath(args.access_log_file)
    elif args.access_log is True or "MTCOMPUTE_ACCESS_LOG" not in os.environ:
        os.environ["MTCOMPUTE_ACCESS_LOG"] = "stderr"
    return None


def _public_url_problem(url: str) -> str | None:
    """The usage error of a --public-url that is not an http(s) URL with a host and no query,
    fragment or credentials; None when it is one."""
    from urllib.parse import urlsplit  # noqa: PLC0415

    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 (a bad port raises)
    except ValueError:
        parts = None
    if (
        parts is None
        or parts.scheme not in ("http", "https")
        or not parts.hostname
        or parts.query
        or parts.fragment
        or "@" in parts.netloc
        or any(c.isspace() or c in "\"'<>" for c in url)
    ):
        return (
            f"--public-url expects an http or https URL such as https://mt.example.org "
            f"(no query, fragment or credentials), got {url[:100]!r}"
        )
    return None


def _terminated(_signum: int, _frame: object) -> None:
    """SIGTERM: uvicorn re-raises it once it has shut down gracefully; end with status 0."""
    raise SystemExit(EXIT_OK)


def run(args: argparse.Namespace) -> int:
    """Apply the settings and run uvicorn until it is stopped."""
    problem = missing_extra("mtcompute serve") or _settings(args)
    if problem is not None:
        return usage_error(problem)
    # Imported here, not at the top: uvicorn (with asyncio) takes over 100 ms to import, and
    # every mtcompute command imports this module to build its parser (`mtcompute score` has a
    # 100 ms budget for its whole process); importlib.util and signal only serve here too.
    import importlib.util  # noqa: PLC0415
    import signal  # noqa: PLC0415

    import uvicorn  # noqa: PLC0415

    from mtcompute.server.log_config import log_config  # noqa: PLC0415

    # The request-head deadline and size cap need the httptools parser (uvicorn[standard]).
    http = (
        "mtcompute.server.protocol:GuardedHttpToolsProtocol"
        if importlib.util.find_spec("httptools") is not None
        else "auto"
    )
    signal.signal(signal.SIGTERM, _terminated)
    uvicorn.run(
        "mtcompute.server.app:create_app",
        factory=True,
        host=args.host,
        port=args.port,
        workers=args.workers,
        log_level=args.log_level,
        log_config=log_config(args.log_level),  # uvicorn's logs as JSON lines too
        access_log=False,  # the app writes its own JSON access log (MTCOMPUTE_ACCESS_LOG)
        # The app reads forwarded headers itself, from --trusted-proxy only (uvicorn would
        # believe any X-Forwarded-For from 127.0.0.1, FORWARDED_ALLOW_IPS's default).
        proxy_headers=False,
        http=http,
        timeout_graceful_shutdown=args.shutdown_grace,
    )
    return EXIT_OK
