#!/usr/bin/env python3
"""Schema-driven API testing: schemathesis against the served ``/openapi.json``.

Usage::

    python scripts/schemathesis_run.py --max-examples 50            # starts its own server
    python scripts/schemathesis_run.py --url http://127.0.0.1:8000 --max-examples 200 --seed 1
    python scripts/schemathesis_run.py --tool ter-compute --max-examples 500   # one tool's routes

Runs schemathesis's engine (its examples, coverage and fuzzing phases; stateful testing has no
links to follow here) over every operation of the live document, with positive and negative
data, and these checks on every response:

* ``not_a_server_error``: no 5xx;
* ``status_code_conformance``: the status is documented for the operation;
* ``content_type_conformance``: the Content-Type is the documented one;
* ``response_schema_conformance``: the body matches the documented schema of that status;
* ``response_headers_conformance``: documented headers are present and valid;
* ``negative_data_rejection``: a request that breaks the schema is refused with one of the
  documented error statuses (400, 413, 415, 422; 405 for a method the path lacks);
* ``unsupported_method`` and ``allow_header_conformance``: an undocumented method gets 405
  with an ``Allow`` header naming the documented ones.

``positive_data_acceptance`` is left out on purpose: the contracts have rules a JSON Schema
cannot state (``matches`` and ``totals`` of the same length, ``epsilon`` only with
``method1``, the total-token limits), so a schema-valid input may rightly get 400 or 413.

Prints the cases run per operation (by phase) and every failure with a curl line to
reproduce it; exits 1 on any failure or engine error, or when an operation ran no case.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import schemathesis
from schemathesis.engine import Status, events, from_schema

__all__ = [
    "CHECKS",
    "ERROR_STATUSES",
    "Failure",
    "OperationStats",
    "RunResult",
    "build_config",
    "main",
    "only_tools",
    "run",
    "serve",
]

CHECKS = (
    "not_a_server_error",
    "status_code_conformance",
    "content_type_conformance",
    "response_schema_conformance",
    "response_headers_conformance",
    "negative_data_rejection",
    "unsupported_method",
    "allow_header_conformance",
)
# The error statuses /openapi.json documents for the execute operations for an input that
# breaks the schema (every documented path is a tool version: no 404), and 405 for a method
# that a path does not have: what a request that breaks the schema may get.
ERROR_STATUSES = (400, 405, 413, 415, 422)
PHASES = ("examples", "coverage", "fuzzing", "stateful")


@dataclass(frozen=True)
class Failure:
    """One failed check on one case."""

    operation: str
    phase: str
    check: str
    title: str
    message: str
    reproduce: str

    def __str__(self) -> str:
        return (
            f"{self.operation} [{self.phase}] {self.check}: {self.title}\n"
            f"    {self.message.strip()[:1500]}\n    {self.reproduce[:3000]}"
        )


@dataclass
class OperationStats:
    """The cases one operation ran, by phase, and its failures."""

    label: str
    cases: collections.Counter[str] = field(default_factory=collections.Counter)
    failures: list[Failure] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    @property
    def total(self) -> int:
        """Cases over every phase."""
        return sum(self.cases.values())


@dataclass
class RunResult:
    """A whole run: per operation figures, engine errors and the stop reason."""

    operations: dict[str, OperationStats] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    stop_reason: str = ""
    seconds: float = 0.0
    version: str = schemathesis.__version__

    def operation(self, label: str) -> OperationStats:
        """The figures of ``label``, created empty on first use."""
        if label not in self.operations:
            self.operations[label] = OperationStats(label)
        return self.operations[label]

    @property
    def failures(self) -> list[Failure]:
        """Every failure of every operation."""
        return [f for op in self.operations.values() for f in op.failures]

    @property
    def ok(self) -> bool:
        """No failure, no engine error, and every operation ran at least one case."""
        return (
            not self.failures
            and not self.errors
            and not any(op.errors for op in self.operations.values())
            and bool(self.operations)
            and all(op.total > 0 for op in self.operations.values())
        )

    def as_dict(self) -> dict[str, object]:
        """JSON-ready figures."""
        return {
            "schemathesis_version": self.version,
            "stop_reason": self.stop_reason,
            "seconds": round(self.seconds, 2),
            "operations": {
                op.label: {
                    "cases": dict(op.cases),
                    "total": op.total,
                    "failures": [str(f) for f in op.failures],
                    "errors": op.errors,
                }
                for op in self.operations.values()
            },
            "errors": self.errors,
        }


def build_config(
    *,
    max_examples: int,
    seed: int | None = None,
    mode: str = "all",
    phases: Sequence[str] = ("examples", "coverage", "fuzzing", "stateful"),
    checks: Sequence[str] = CHECKS,
    request_timeout: float = 30.0,
) -> schemathesis.Config:
    """The schemathesis configuration: only ``checks``, both data modes by default."""
    check_config: dict[str, object] = {"enabled": False}
    for name in checks:
        entry: dict[str, object] = {"enabled": True}
        if name == "negative_data_rejection":
            entry["expected-statuses"] = list(ERROR_STATUSES)
        check_config[name] = entry
    data: dict[str, object] = {
        "generation": {"mode": mode, "max-examples": max_examples},
        "checks": check_config,
        "phases": {name: {"enabled": name in phases} for name in PHASES},
        "request-timeout": request_timeout,
        "workers": 1,
    }
    if seed is not None:
        data["seed"] = seed
    return schemathesis.Config.from_dict(data)


def _record_scenario(result: RunResult, event: events.ScenarioFinished) -> None:
    recorder = event.recorder
    stats = result.operation(recorder.label)
    phase = event.phase.value
    stats.cases[phase] += len(recorder.cases)
    seen: set[tuple[str, str, str]] = set()
    for checks in recorder.checks.values():
        for node in checks:
            if node.status != Status.FAILURE or node.failure_info is None:
                continue
            failure = node.failure_info.failure
            key = (node.name, failure.title, failure.message)
            if key in seen:
                continue
            seen.add(key)
            stats.failures.append(
                Failure(
                    operation=recorder.label,
                    phase=phase,
                    check=node.name,
                    title=failure.title,
                    message=failure.message,
                    reproduce=node.failure_info.code_sample,
                )
            )


def run(
    base_url: str,
    *,
    max_examples: int = 50,
    seed: int | None = None,
    mode: str = "all",
    phases: Sequence[str] = ("examples", "coverage", "fuzzing", "stateful"),
    checks: Sequence[str] = CHECKS,
    document: dict[str, object] | None = None,
) -> RunResult:
    """Run schemathesis against the server at ``base_url``, with the document it serves at
    ``/openapi.json`` (or ``document``, to test the harness with a doctored one)."""
    config = build_config(
        max_examples=max_examples, seed=seed, mode=mode, phases=phases, checks=checks
    )
    base_url = base_url.rstrip("/")
    if document is None:
        schema = schemathesis.openapi.from_url(f"{base_url}/openapi.json", config=config)
    else:
        schema = schemathesis.openapi.from_dict(document, config=config)
    schema.config.update(base_url=base_url)
    result = RunResult()
    # Every operation in the document is a row, also one the engine never reached.
    for operation in schema.get_all_operations():
        ok = operation.ok() if hasattr(operation, "ok") else operation
        result.operation(ok.label)
    started = time.monotonic()
    for event in from_schema(schema).execute():
        if isinstance(event, events.ScenarioFinished):
            _record_scenario(result, event)
        elif isinstance(event, events.NonFatalError):
            message = f"{event.label}: {type(event.value).__name__}: {event.value}"
            if event.label in result.operations:
                result.operations[event.label].errors.append(message)
            else:
                result.errors.append(message)
        elif isinstance(event, events.FatalError):
            result.errors.append(f"fatal: {type(event.exception).__name__}: {event.exception}")
        elif isinstance(event, events.EngineFinished):
            result.stop_reason = str(event.stop_reason.value)
    result.seconds = time.monotonic() - started
    return result


def only_tools(document: dict[str, Any], selected: Sequence[str]) -> dict[str, Any]:
    """``document`` with only the routes of the ``selected`` tools (``id`` or ``id@version``:
    each version's contract and execute routes); SystemExit naming a selection that matches
    no route."""
    paths: dict[str, Any] = document["paths"]
    kept: dict[str, Any] = {}
    for name in selected:
        tool_id, _, version = name.partition("@")
        base = f"/v1/tools/{tool_id}/versions/"
        found = {
            path: item
            for path, item in paths.items()
            if path.startswith(base)
            and (not version or path.removeprefix(base).split("/")[0] == version)
        }
        if not found:
            raise SystemExit(f"schemathesis_run: no route of the tool {name} in the document")
        kept.update(found)
    return {**document, "paths": kept}


def _document(base_url: str) -> dict[str, Any]:
    with urllib.request.urlopen(base_url.rstrip("/") + "/openapi.json", timeout=30) as response:
        document: dict[str, Any] = json.loads(response.read())
    return document


# --- A server of our own ---------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _mtcompute_command() -> list[str]:
    script = Path(sys.executable).with_name("mtcompute")
    if script.exists():
        return [str(script)]
    found = shutil.which("mtcompute")
    return [found] if found else [sys.executable, "-m", "mtcompute.cli"]


@contextmanager
def serve(timeout: float = 30.0) -> Iterator[str]:
    """``mtcompute serve`` on a free loopback port for the block; yields its base URL."""
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    command = [*_mtcompute_command(), "serve", "--port", str(port), "--log-level", "warning"]
    with tempfile.TemporaryFile() as log:
        proc = subprocess.Popen(
            command, stdout=subprocess.DEVNULL, stderr=log, env=dict(os.environ)
        )
        try:
            deadline = time.monotonic() + timeout
            while True:
                if proc.poll() is not None:
                    log.seek(0)
                    tail = log.read()[-2000:]
                    raise RuntimeError(f"server exited {proc.returncode}: {tail!r}")
                try:
                    with urllib.request.urlopen(url + "/healthz", timeout=1) as response:
                        if response.status == 200:
                            break
                except OSError:
                    if time.monotonic() > deadline:
                        raise RuntimeError(f"server did not answer within {timeout} s") from None
                    time.sleep(0.1)
            yield url
        finally:
            proc.terminate()
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


# --- The command -----------------------------------------------------------------------------


def report(result: RunResult) -> str:
    """Cases per operation by phase, then every failure and error."""
    width = max([9, *(len(label) for label in result.operations)])
    header = f"{'operation':<{width}} " + " ".join(f"{p:>8}" for p in PHASES)
    lines = [f"schemathesis {result.version}", header + f" {'total':>7} {'failures':>8}"]
    for label in sorted(result.operations):
        op = result.operations[label]
        counts = " ".join(f"{op.cases[p]:>8}" for p in PHASES)
        lines.append(f"{label:<{width}} {counts} {op.total:>7} {len(op.failures):>8}")
    total = sum(op.total for op in result.operations.values())
    lines.append(
        f"total: {total} cases over {len(result.operations)} operations, "
        f"{len(result.failures)} failures, in {result.seconds:.1f} s ({result.stop_reason})"
    )
    lines.extend(f"FAIL {failure}" for failure in result.failures)
    for op in result.operations.values():
        lines.extend(f"ERROR {error}" for error in op.errors)
        if op.total == 0:
            lines.append(f"ERROR {op.label}: no case ran")
    lines.extend(f"ERROR {error}" for error in result.errors)
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """The command line; 0 when every check passed on every operation."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", help="base URL of a running server (default: start one)")
    parser.add_argument("--max-examples", type=int, default=50, help="per operation and phase")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--mode", choices=["all", "positive", "negative"], default="all")
    parser.add_argument(
        "--phases", default=",".join(PHASES), help=f"comma-separated, of {', '.join(PHASES)}"
    )
    parser.add_argument("--json", type=Path, help="also write the figures to this JSON file")
    parser.add_argument(
        "--tool", action="append", default=[], help="only this tool's routes: id or id@version"
    )
    args = parser.parse_args(argv)
    phases = [p.strip() for p in args.phases.split(",") if p.strip()]
    options = {"max_examples": args.max_examples, "seed": args.seed, "mode": args.mode}

    def run_on(url: str) -> RunResult:
        document = only_tools(_document(url), args.tool) if args.tool else None
        return run(url, phases=phases, document=document, **options)

    if args.url:
        result = run_on(args.url)
    else:
        with serve() as url:
            result = run_on(url)
    print(report(result))
    if args.json is not None:
        args.json.write_text(json.dumps(result.as_dict(), indent=1), encoding="utf-8")
    return 0 if result.ok else 1


if __name__ == "__main__":
    sys.exit(main())
