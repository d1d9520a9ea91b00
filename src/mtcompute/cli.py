"""The ``mtcompute`` command: a thin adapter over :func:`mtcompute.execute`.

Exit status: 0 when a result is printed, 1 on a tool error (the envelope is still printed on
stdout), 2 on a usage error (message on stderr). Imports are kept lazy so that start-up stays
close to Python's own: argparse (with gettext and re) is imported only to build the full
parser, which a well-formed ``mtcompute score`` command line does not need
(:func:`mtcompute.score.parse_fast`).
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing; mypy reads it as True
if TYPE_CHECKING:
    import argparse
    from collections.abc import Sequence
    from typing import NoReturn

    from mtcompute.score import Args

__all__ = ["main"]

EXIT_OK, EXIT_TOOL_ERROR, EXIT_USAGE = 0, 1, 2

_EPILOG_RUN = """\
example:
  echo '{"hypotheses":["aa"],"references":["ab"],"beta":3}' \\
    | mtcompute run chrf-compute 1.0.0 --input -
  {"result":{"metric":"chrF","char_order":6,...,"score":"25.000000",...}}

The envelope is printed as compact JSON on stdout: {"result":{...}} (exit 0) or
{"error":{"code","message","path"}} (exit 1). Usage errors exit 2.
"""


def _usage_error(message: str) -> int:
    sys.stderr.write(f"mtcompute: error: {message}\n")
    return EXIT_USAGE


def _write(text: str) -> None:
    sys.stdout.buffer.write(text.encode("utf-8", "surrogatepass") + b"\n")
    sys.stdout.flush()


def _read_input(name: str) -> bytes:
    if name == "-":
        return sys.stdin.buffer.read()
    with open(name, "rb") as handle:
        return handle.read()


def _cmd_run(args: argparse.Namespace) -> int:
    try:
        body = _read_input(args.input)
    except OSError as exc:
        return _usage_error(f"cannot read --input {args.input}: {exc.strerror or exc}")
    if args.base_url:
        from mtcompute.client import RemoteError, execute_remote  # noqa: PLC0415

        try:
            text = execute_remote(args.base_url, args.tool, args.version, body)
        except RemoteError as exc:
            return _usage_error(str(exc))
        _write(text)
        return EXIT_TOOL_ERROR if text.startswith('{"error"') else EXIT_OK
    from mtcompute import dumps, execute_json  # noqa: PLC0415

    envelope = execute_json(args.tool, args.version, body)
    _write(dumps(envelope))
    return EXIT_OK if "result" in envelope else EXIT_TOOL_ERROR


def _cmd_list(args: argparse.Namespace) -> int:
    from mtcompute.contracts import contract  # noqa: PLC0415
    from mtcompute.tools import list_tools  # noqa: PLC0415

    tools = list_tools()
    if args.json:
        from mtcompute import dumps  # noqa: PLC0415

        _write(
            dumps(
                [
                    {
                        "id": t.id,
                        "version": t.version,
                        "description": contract(t.id, t.version)["description"],
                    }
                    for t in tools
                ]
            )
        )
        return EXIT_OK
    width = max(len(t.id) for t in tools)
    for t in tools:
        _write(f"{t.id:<{width}}  {t.version}  {contract(t.id, t.version)['description']}")
    return EXIT_OK


def _cmd_describe(args: argparse.Namespace) -> int:
    from mtcompute.contracts import contract_text  # noqa: PLC0415
    from mtcompute.errors import NotFound  # noqa: PLC0415
    from mtcompute.tools import get_tool  # noqa: PLC0415

    try:
        get_tool(args.tool, args.version)
    except NotFound as exc:
        from mtcompute import dumps  # noqa: PLC0415

        _write(dumps({"error": exc.to_dict()}))
        return EXIT_TOOL_ERROR
    _write(contract_text(args.tool, args.version))
    return EXIT_OK


def _cmd_serve(args: argparse.Namespace) -> int:
    import importlib.util  # noqa: PLC0415
    import os  # noqa: PLC0415
    import re  # noqa: PLC0415
    import signal  # noqa: PLC0415

    import uvicorn  # noqa: PLC0415

    # Settings reach the app (and every worker process) through the environment.
    if args.max_body_bytes is not None:
        if args.max_body_bytes < 1:
            return _usage_error("--max-body-bytes must be at least 1")
        os.environ["MTCOMPUTE_MAX_BODY_BYTES"] = str(args.max_body_bytes)
    if args.workers < 1:
        return _usage_error("--workers must be at least 1")
    for option, value, env in (
        ("--body-timeout", args.body_timeout, "MTCOMPUTE_BODY_TIMEOUT"),
        ("--header-timeout", args.header_timeout, "MTCOMPUTE_HEADER_TIMEOUT"),
    ):
        if value is not None:
            if not 0 < value < float("inf"):
                return _usage_error(f"{option} must be a finite number of seconds above 0")
            os.environ[env] = repr(value)
    if args.max_header_bytes is not None:
        if args.max_header_bytes < 1024:
            return _usage_error("--max-header-bytes must be at least 1024")
        os.environ["MTCOMPUTE_MAX_HEADER_BYTES"] = str(args.max_header_bytes)
    if args.cors_origin:
        for origin in args.cors_origin:
            if not re.fullmatch(r"https?://[^/\s,*]+", origin):
                return _usage_error(
                    f"--cors-origin expects an origin such as https://example.org "
                    f"(scheme and host, optional port, no path), got {origin[:100]!r}"
                )
        os.environ["MTCOMPUTE_CORS_ORIGINS"] = ",".join(args.cors_origin)
    if args.access_log is False:
        os.environ["MTCOMPUTE_ACCESS_LOG"] = "off"
    elif args.access_log_file is not None:
        os.environ["MTCOMPUTE_ACCESS_LOG"] = os.path.abspath(args.access_log_file)
    elif args.access_log is True or "MTCOMPUTE_ACCESS_LOG" not in os.environ:
        os.environ["MTCOMPUTE_ACCESS_LOG"] = "stderr"
    # The request-head deadline and size cap need the httptools parser (uvicorn[standard]).
    http = (
        "mtcompute.server.protocol:GuardedHttpToolsProtocol"
        if importlib.util.find_spec("httptools") is not None
        else "auto"
    )

    def _terminated(_signum: int, _frame: object) -> None:
        # uvicorn re-raises SIGTERM once it has shut down gracefully; end with status 0.
        raise SystemExit(EXIT_OK)

    signal.signal(signal.SIGTERM, _terminated)
    uvicorn.run(
        "mtcompute.server.app:create_app",
        factory=True,
        host=args.host,
        port=args.port,
        workers=args.workers,
        log_level=args.log_level,
        access_log=False,  # the app writes its own JSON access log (MTCOMPUTE_ACCESS_LOG)
        http=http,
        timeout_graceful_shutdown=30,
    )
    return EXIT_OK


def _cmd_mcp(_args: argparse.Namespace) -> int:
    from mtcompute.server.mcp import run_stdio  # noqa: PLC0415

    run_stdio()
    return EXIT_OK


def build_parser() -> argparse.ArgumentParser:
    """The argument parser (one sub-command per verb, each with an example)."""
    import argparse  # noqa: PLC0415 - not at import: `mtcompute score` usually parses without it

    class _Parser(argparse.ArgumentParser):
        def error(self, message: str) -> NoReturn:
            self.print_usage(sys.stderr)
            self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\n")

    parser = _Parser(
        prog="mtcompute",
        description="Exact machine-translation metric tools (BLEU, chrF), by versioned contract.",
        epilog="examples:\n  mtcompute list\n  mtcompute describe chrf-compute 1.0.0\n"
        "  mtcompute run chrf-compute 1.0.0 --input input.json\n"
        "Run 'mtcompute COMMAND --help' for each command.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version="mtcompute 0.1.0")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    run = sub.add_parser(
        "run",
        help="run a tool on a JSON input and print the envelope",
        description="Run TOOL at VERSION on the JSON input read from FILE ('-' for stdin).",
        epilog=_EPILOG_RUN,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    run.add_argument("tool", metavar="TOOL", help="tool id, e.g. chrf-compute")
    run.add_argument("version", metavar="VERSION", help="tool version, e.g. 1.0.0")
    run.add_argument(
        "--input", "-i", required=True, metavar="FILE", help="JSON input file, '-' for stdin"
    )
    run.add_argument(
        "--base-url",
        metavar="URL",
        help="call a running mtcompute server (e.g. http://127.0.0.1:8000) instead of "
        "computing locally; prints the same envelope",
    )
    run.set_defaults(func=_cmd_run)

    lst = sub.add_parser(
        "list",
        help="list the tools and versions",
        description="List every tool id, version and one-line description.",
        epilog="example:\n  mtcompute list\n  mtcompute list --json",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    lst.add_argument("--json", action="store_true", help="print the list as JSON")
    lst.set_defaults(func=_cmd_list)

    describe = sub.add_parser(
        "describe",
        help="print a tool's contract (JSON)",
        description="Print the machine-readable contract of TOOL at VERSION, as shipped.",
        epilog="example:\n  mtcompute describe bleu-smoothing-compute 1.0.0",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    describe.add_argument("tool", metavar="TOOL")
    describe.add_argument("version", metavar="VERSION")
    describe.set_defaults(func=_cmd_describe)

    serve = sub.add_parser(
        "serve",
        help="serve the HTTP API, MCP (/mcp) and the catalog pages",
        description="Serve every surface: the HTTP API (/v1/tools/...), MCP over streamable "
        "HTTP (/mcp), OpenAPI (/openapi.json) and the catalog pages (/).",
        epilog="example:\n  mtcompute serve --port 8000\n"
        "  curl -X POST http://127.0.0.1:8000/v1/tools/chrf-compute/versions/1.0.0/execute \\\n"
        "    -H 'Content-Type: application/json' "
        '-d \'{"hypotheses":["aa"],"references":["ab"]}\'',
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    serve.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    serve.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    serve.add_argument("--workers", type=int, default=1, help="worker processes (default 1)")
    serve.add_argument(
        "--max-body-bytes",
        type=int,
        default=None,
        help="largest request body accepted (default 33554432, 32 MiB: the largest valid input "
        "of every contract); larger is 413 limit_exceeded, refused before it is read",
    )
    serve.add_argument(
        "--body-timeout",
        type=float,
        default=None,
        metavar="SECONDS",
        help="time a request body has to arrive whole (default 10); later is 408 and the "
        "connection is closed",
    )
    serve.add_argument(
        "--header-timeout",
        type=float,
        default=None,
        metavar="SECONDS",
        help="time the request line and headers have to arrive once a connection opens or "
        "a request starts (default 10); later is 408 and the connection is closed",
    )
    serve.add_argument(
        "--max-header-bytes",
        type=int,
        default=None,
        help="largest request line plus headers accepted (default 65536); larger is 431",
    )
    serve.add_argument(
        "--cors-origin",
        action="append",
        metavar="ORIGIN",
        help="allow cross-origin requests from ORIGIN (e.g. https://example.org); repeat for "
        "more. Default: no CORS headers at all",
    )
    serve.add_argument(
        "--access-log",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="write one JSON line per request (default on, to stderr)",
    )
    serve.add_argument(
        "--access-log-file",
        metavar="PATH",
        default=None,
        help="append the access log to PATH instead of stderr",
    )
    serve.add_argument(
        "--log-level",
        default="info",
        choices=["critical", "error", "warning", "info", "debug"],
        help="log level (default info)",
    )
    serve.set_defaults(func=_cmd_serve)

    mcp = sub.add_parser(
        "mcp",
        help="run the MCP server over stdio (for desktop agents)",
        description="Run the MCP server on stdin/stdout. Tools: execute, list_catalog, "
        "get_contract.",
        epilog='example (an MCP client config):\n  {"command": "mtcompute", "args": ["mcp"]}',
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    mcp.set_defaults(func=_cmd_mcp)

    from mtcompute.score import add_parser as add_score_parser  # noqa: PLC0415

    add_score_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``mtcompute`` console script."""
    if argv is None:
        argv = sys.argv[1:]
    args: Args | None = None
    if argv and argv[0] == "score":
        # The common, well-formed score command lines skip argparse (see score.parse_fast);
        # anything else, help and usage errors included, goes through the full parser.
        from mtcompute.score import parse_fast  # noqa: PLC0415

        args = parse_fast(argv[1:])
    if args is None:
        args = build_parser().parse_args(argv)
    try:
        code: int = args.func(args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return EXIT_OK
    return code


if __name__ == "__main__":
    sys.exit(main())
