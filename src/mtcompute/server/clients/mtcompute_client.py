#!/usr/bin/env python3
"""mtcompute command-line client: one file, Python 3.8 or newer, standard library only.

It calls a running mtcompute server and prints exactly the bytes the server sent::

    python3 mtcompute_client.py run TOOL VERSION --input FILE|- --base-url URL [--api-key KEY]
    python3 mtcompute_client.py list [--json] --base-url URL
    python3 mtcompute_client.py describe TOOL VERSION --base-url URL

``--base-url`` may be left out when ``MTCOMPUTE_BASE_URL`` is set, and ``--api-key`` when
``MTCOMPUTE_API_KEY`` is; the key goes out as ``Authorization: Bearer KEY`` (a server started
with ``--api-keys`` needs one to run a tool; listing and contracts are public). Exit status, as
``mtcompute run``: 0 with a result (or the catalog, or a contract), 1 with an error envelope
(printed on stdout), 2 on a usage error: bad arguments, an unreadable input, a server that
cannot be reached or that does not answer as mtcompute does (one line on stderr).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import urllib.error
import urllib.parse
import urllib.request
from typing import NoReturn

PROG = "mtcompute_client.py"
TIMEOUT = 60.0  # seconds
EXIT_OK, EXIT_TOOL_ERROR, EXIT_USAGE = 0, 1, 2

_EPILOG = """\
example:
  python3 mtcompute_client.py run chrf-compute 1.0.0 --input input.json \\
    --base-url http://127.0.0.1:8000

--base-url defaults to $MTCOMPUTE_BASE_URL, --api-key to $MTCOMPUTE_API_KEY (sent as
"Authorization: Bearer KEY"; a server started with --api-keys needs it to run a tool).
Exit status: 0 with a result, 1 with an error envelope (printed on stdout), 2 on a usage
error (message on stderr).
"""


class UsageError(Exception):
    """A usage error: one line on stderr, exit status 2."""

    def __init__(self, message: str, prog: str = PROG) -> None:
        super().__init__(message)
        self.prog = prog


class _Parser(argparse.ArgumentParser):
    """argparse with its errors as one line (no usage block), raised as :class:`UsageError`."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(message, self.prog)


def build_parser() -> argparse.ArgumentParser:
    """The parser: ``run``, ``list`` and ``describe``, each with ``--base-url`` and
    ``--api-key``."""
    parser = _Parser(
        prog=PROG,
        description="Call a running mtcompute server: run a tool, list the catalog, print "
        "a contract.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    commands = parser.add_subparsers(
        dest="command", required=True, metavar="COMMAND", parser_class=_Parser
    )
    run = commands.add_parser(
        "run",
        help="run a tool on a JSON input and print the envelope",
        description="Run TOOL at VERSION on the JSON input read from FILE ('-' for stdin) and "
        'print the envelope the server sent: {"result":{...}} (exit 0) or '
        '{"error":{"code","message","path"}} (exit 1).',
    )
    run.add_argument("tool", metavar="TOOL")
    run.add_argument("version", metavar="VERSION")
    run.add_argument(
        "--input", "-i", required=True, metavar="FILE", help="JSON input file, '-' for stdin"
    )
    listing = commands.add_parser(
        "list",
        help="list the tools and versions",
        description="List every tool id, version and one-line description.",
    )
    listing.add_argument(
        "--json", action="store_true", help="print the catalog JSON the server sent"
    )
    describe = commands.add_parser(
        "describe",
        help="print a tool's contract (JSON)",
        description="Print the machine-readable contract of TOOL at VERSION, as the server "
        "sent it.",
    )
    describe.add_argument("tool", metavar="TOOL")
    describe.add_argument("version", metavar="VERSION")
    for command in (run, listing, describe):
        command.add_argument(
            "--base-url",
            metavar="URL",
            default=os.environ.get("MTCOMPUTE_BASE_URL", ""),
            help="the mtcompute server (default: $MTCOMPUTE_BASE_URL)",
        )
        command.add_argument(
            "--api-key",
            metavar="KEY",
            default=os.environ.get("MTCOMPUTE_API_KEY", ""),
            help="the API key, sent as Authorization: Bearer KEY (default: $MTCOMPUTE_API_KEY)",
        )
    return parser


def _base_url(args: argparse.Namespace) -> str:
    base: str = args.base_url
    prog = f"{PROG} {args.command}"
    if not base:
        raise UsageError(
            "the following arguments are required: --base-url (or set MTCOMPUTE_BASE_URL)", prog
        )
    parsed = urllib.parse.urlsplit(base)
    if parsed.scheme not in ("http", "https") or not parsed.netloc:
        raise UsageError(f"--base-url must be an http(s) URL, got {base!r}", prog)
    return base.rstrip("/")


def _api_key(args: argparse.Namespace) -> str:
    """The key to send ("" for none), checked to fit an HTTP header; never echoed."""
    key: str = args.api_key.strip()
    if any(not "!" <= char <= "~" for char in key):
        raise UsageError(
            "--api-key (or MTCOMPUTE_API_KEY) must be printable ASCII without spaces "
            f"(got {len(key)} characters, not shown)",
            f"{PROG} {args.command}",
        )
    return key


def _read_input(name: str) -> bytes:
    try:
        if name == "-":
            return sys.stdin.buffer.read()
        with open(name, "rb") as handle:
            return handle.read()
    except OSError as exc:
        raise UsageError(f"cannot read --input {name}: {exc.strerror or exc}") from None


def _request(base: str, path: str, key: str, body: bytes | None = None) -> tuple[int, bytes]:
    """(status, body) of one request, with the key (if any) as a bearer token;
    :class:`UsageError` when the server cannot be reached."""
    headers = {} if body is None else {"Content-Type": "application/json"}
    if key:
        headers["Authorization"] = f"Bearer {key}"
    method = "GET" if body is None else "POST"
    request = urllib.request.Request(base + path, data=body, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT) as response:
            return int(response.status), bytes(response.read())
    except urllib.error.HTTPError as exc:
        return int(exc.code), bytes(exc.read())
    except (urllib.error.URLError, OSError) as exc:
        reason = getattr(exc, "reason", exc)
        raise UsageError(f"cannot reach {base}: {reason}") from None


def _not_mtcompute(url: str, body: bytes, what: str) -> UsageError:
    head = body[:600].decode("utf-8", "replace")[:200]
    return UsageError(f"{url} did not answer with {what}: {head!r}")


def _print(data: bytes) -> None:
    sys.stdout.buffer.write(data + b"\n")
    sys.stdout.flush()


def _tool_path(tool: str, version: str) -> str:
    quote = urllib.parse.quote
    return f"/v1/tools/{quote(tool, safe='')}/versions/{quote(version, safe='')}"


def run(args: argparse.Namespace) -> int:
    """``run``: POST the input to the tool's execute URL, print the envelope."""
    base = _base_url(args)
    key = _api_key(args)
    body = _read_input(args.input)
    path = _tool_path(args.tool, args.version) + "/execute"
    status, answer = _request(base, path, key, body)
    if not answer.startswith((b'{"result"', b'{"error"')):
        raise _not_mtcompute(base + path, answer, "an mtcompute envelope")
    _print(answer)
    if status == 401:  # the envelope says what the server wants; say how to give it here
        what = "refused the API key given" if key else "needs an API key to run a tool"
        sys.stderr.write(
            f"{PROG} run: the server {what}: pass --api-key KEY or set MTCOMPUTE_API_KEY\n"
        )
    return EXIT_TOOL_ERROR if answer.startswith(b'{"error"') else EXIT_OK


def _superseded(tool: dict[str, object]) -> str:
    """`` (superseded by VERSION)`` for a superseded version, as ``mtcompute list`` ends it."""
    newer = tool.get("superseded_by")
    return f" (superseded by {newer})" if newer else ""


def list_tools(args: argparse.Namespace) -> int:
    """``list``: the catalog as aligned columns (``--json``: the catalog JSON as sent)."""
    base = _base_url(args)
    status, answer = _request(base, "/v1/tools", _api_key(args))
    try:
        tools = json.loads(answer.decode("utf-8"))["tools"] if status == 200 else None
    except (ValueError, KeyError, TypeError):
        tools = None
    if not isinstance(tools, list):
        raise _not_mtcompute(base + "/v1/tools", answer, "an mtcompute catalog")
    if args.json:
        _print(answer)
        return EXIT_OK
    width = max((len(str(tool["id"])) for tool in tools), default=0)
    lines = "".join(
        f"{tool['id']:<{width}}  {tool['version']}  {tool['description']}{_superseded(tool)}\n"
        for tool in tools
    )
    sys.stdout.buffer.write(lines.encode("utf-8"))
    sys.stdout.flush()
    return EXIT_OK


def describe(args: argparse.Namespace) -> int:
    """``describe``: print the contract as sent (a not_found envelope: exit 1)."""
    base = _base_url(args)
    path = _tool_path(args.tool, args.version)
    status, answer = _request(base, path, _api_key(args))
    expected = b"{" if status == 200 else b'{"error"'
    if not answer.startswith(expected):
        raise _not_mtcompute(base + path, answer, "an mtcompute contract")
    _print(answer)
    return EXIT_OK if status == 200 else EXIT_TOOL_ERROR


COMMANDS = {"run": run, "list": list_tools, "describe": describe}


def main(argv: list[str] | None = None) -> int:
    """Parse ``argv`` (default ``sys.argv[1:]``), run the command, return the exit status."""
    try:
        args = build_parser().parse_args(argv)
        return COMMANDS[args.command](args)
    except UsageError as exc:
        sys.stderr.write(f"{exc.prog}: error: {exc}\n")
        return EXIT_USAGE
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
