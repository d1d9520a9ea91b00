"""``mtcompute run``: a tool on a JSON input, locally or on a running server; the envelope
on stdout as compact JSON (exit 0 with a result, 1 with an error)."""

from __future__ import annotations

__all__ = ["add_parser", "run"]

import argparse
import os
import sys

from mtcompute.cli._common import (
    EXIT_OK,
    EXIT_TOOL_ERROR,
    READ_ERRORS,
    Subparsers,
    add_command,
    read_failure,
    read_input,
    usage_error,
    write,
)

_EPILOG = """\
example:
  echo '{"hypotheses":["aa"],"references":["ab"],"beta":3}' \\
    | mtcompute run chrf-compute 1.0.0 --input -
  {"result":{"metric":"chrF","char_order":6,...,"score":"25.000000",...}}

The envelope is printed as compact JSON on stdout: {"result":{...}} (exit 0) or
{"error":{"code","message","path"}} (exit 1). Usage errors exit 2. With --base-url,
--api-key (default $MTCOMPUTE_API_KEY) is sent as "Authorization: Bearer KEY": a server
started with --api-keys needs it to run a tool.
"""


_TEXTS = (  # help, description, epilog
    "run a tool on a JSON input and print the envelope",
    "Run TOOL at VERSION on the JSON input read from FILE ('-' for stdin).",
    _EPILOG,
)


def add_parser(subparsers: Subparsers) -> None:
    """Register ``run TOOL VERSION --input FILE [--base-url URL] [--api-key KEY]``."""
    parser = add_command(subparsers, "run", run, _TEXTS)
    parser.add_argument("tool", metavar="TOOL", help="tool id, e.g. chrf-compute")
    parser.add_argument(
        "version", metavar="VERSION", help="tool version, e.g. 1.0.0, or latest (the newest)"
    )
    parser.add_argument(
        "--input", "-i", required=True, metavar="FILE", help="JSON input file, '-' for stdin"
    )
    parser.add_argument(
        "--base-url",
        metavar="URL",
        help="call a running mtcompute server (e.g. http://127.0.0.1:8000) instead of "
        "computing locally; prints the same envelope",
    )
    parser.add_argument(
        "--api-key",
        metavar="KEY",
        help="with --base-url: the API key, sent as Authorization: Bearer KEY "
        "(default: $MTCOMPUTE_API_KEY)",
    )


def run(args: argparse.Namespace) -> int:
    """Read the input, run the tool (here or on ``--base-url``), print the envelope."""
    from mtcompute._execute import execute_json  # noqa: PLC0415

    if args.api_key is not None and not args.base_url:
        return usage_error("--api-key needs --base-url: a local run needs no key")
    try:
        body = read_input(args.input)
    except READ_ERRORS as exc:
        return usage_error(f"cannot read --input {args.input}: {read_failure(exc)}")
    if args.base_url:
        # Imported here, not at the top: the HTTP client (urllib.request, with http.client,
        # ssl and email) takes about 25 ms to import, and every mtcompute command imports this
        # module to build its parser (`mtcompute score` has a 100 ms budget for its whole
        # process); only --base-url needs it.
        from mtcompute.client import RemoteError, check_api_key, execute_remote  # noqa: PLC0415

        given = os.environ.get("MTCOMPUTE_API_KEY", "") if args.api_key is None else args.api_key
        try:
            key = check_api_key(given)
            status, text = execute_remote(args.base_url, args.tool, args.version, body, api_key=key)
        except (RemoteError, ValueError) as exc:
            return usage_error(str(exc))
        write(text)
        if status == 401:  # the envelope says what the server wants; say how to give it here
            what = "refused the API key given" if key else "needs an API key to run a tool"
            sys.stderr.write(
                f"mtcompute run: the server {what}: pass --api-key KEY or set MTCOMPUTE_API_KEY\n"
            )
        return EXIT_TOOL_ERROR if text.startswith('{"error"') else EXIT_OK
    _say_latest(args.tool, args.version)
    envelope = execute_json(args.tool, args.version, body)
    write(envelope.json_text())
    return envelope.exit_code


def _say_latest(tool_id: str, version: str) -> None:
    """For the version ``latest``, name on stderr the version that runs (stdout keeps the
    envelope alone)."""
    import sys  # noqa: PLC0415

    from mtcompute.errors import NotFound  # noqa: PLC0415
    from mtcompute.tools import LATEST, get_tool  # noqa: PLC0415

    if version != LATEST:
        return
    try:
        tool = get_tool(tool_id, version)
    except NotFound:
        return  # the envelope says so
    sys.stderr.write(f"mtcompute run: {LATEST} is {tool.id}@{tool.version}\n")
