"""The JavaScript reference and the comparison of its envelopes with the Python ones, for the
reference-agreement tests (tests/tools/test_reference_agreement_*.py).

tests/reference/mtcompute_ref.mjs implements the tools from their specification in the runtime
the contracts name (JavaScript). A family's cases are run through it once (:func:`reference_run`,
one Node process), then each test compares a group of them with Python's :func:`execute_json`
on the very same JSON text:

* on a result, the whole envelope as JSON text, byte for byte;
* on an error, the ``code`` and the ``path`` (messages are free text).

``MTCOMPUTE_AGREE_COUNT`` scales the number of random inputs (default 3000) and
``MTCOMPUTE_AGREE_SEED`` changes the seed. Without ``node`` on PATH the tests are skipped
(:func:`tests.conftest.require_program`), with the reason in the summary.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

import mtcompute
from tests.conftest import require_program

REPO = Path(__file__).resolve().parents[2]
REFERENCE_SCRIPT = "tests/reference/mtcompute_ref.mjs"
CONTRACTS_DIR = REPO / "src" / "mtcompute" / "contracts" / "data"

TOTAL = int(os.environ.get("MTCOMPUTE_AGREE_COUNT", "3000"))
SEED = int(os.environ.get("MTCOMPUTE_AGREE_SEED", "20250611"))
V = "1.0.0"


@dataclass
class Case:
    """One request: tool id, version, the Python input, and the group it belongs to."""

    tool: str
    version: str
    input: Any
    group: str


def to_js_json(value: Any) -> str:
    """JSON text for Node: ASCII only (lone surrogates as \\ud800 escapes), dict order kept,
    and +-inf written as 1e400 / -1e400 (which JSON.parse reads as +-Infinity, as Python's
    json.loads reads them as inf)."""
    try:  # the same text in one call when there is no infinity (the limit cases are 5 MB)
        return json.dumps(value, ensure_ascii=True, allow_nan=False, separators=(",", ":"))
    except ValueError:
        return _to_js_json(value)


def _to_js_json(value: Any) -> str:
    if isinstance(value, dict):
        return "{" + ",".join(json.dumps(k) + ":" + _to_js_json(v) for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ",".join(_to_js_json(v) for v in value) + "]"
    if isinstance(value, float) and math.isinf(value):
        return "1e400" if value > 0 else "-1e400"
    if isinstance(value, float) and math.isnan(value):
        raise ValueError("NaN has no JSON form")
    return json.dumps(value)


def run_reference(cases: list[Case]) -> list[str]:
    """Run the JavaScript reference once over all cases; one envelope text per case."""
    node = require_program("node")
    lines = [
        f'{{"id":{json.dumps(c.tool)},"version":{json.dumps(c.version)},'
        f'"input":{to_js_json(c.input)}}}'
        for c in cases
    ]
    proc = subprocess.run(
        [node, REFERENCE_SCRIPT],
        input=("\n".join(lines) + "\n").encode("ascii"),
        capture_output=True,
        cwd=REPO,
        timeout=600,
        check=False,
    )
    assert proc.returncode == 0, (
        f"the reference failed (exit {proc.returncode}): {proc.stderr.decode()[-2000:]}"
    )
    out = proc.stdout.decode("utf-8").split("\n")
    if out and out[-1] == "":
        out.pop()
    assert len(out) == len(cases), f"the reference wrote {len(out)} lines for {len(cases)} inputs"
    return out


def reference_run(cases: list[Case]) -> list[tuple[Case, str]]:
    """Each case with the reference's envelope text for it (one Node run)."""
    return list(zip(cases, run_reference(cases), strict=True))


def contract_examples(tool: str) -> list[dict]:
    """The examples of a shipped contract document."""
    doc = json.loads((CONTRACTS_DIR / f"{tool}@{V}.json").read_text(encoding="utf-8"))
    return doc["examples"]


def example_and_not_found_cases(examples: list[tuple[str, dict]]) -> list[Case]:
    """Each (tool, example input) as an "example" case, then under six unknown tool ids or
    versions as "not_found" cases."""
    cases = []
    for tool, inp in examples:
        cases.append(Case(tool, V, inp, "example"))
        for bad_tool, bad_version in (
            (tool, "1.0.1"),
            (tool, "1.0"),
            (tool, ""),
            (tool.upper(), V),
            ("no-such-tool", V),
            ("", V),
        ):
            cases.append(Case(bad_tool, bad_version, inp, "not_found"))
    return cases


def assert_reproduces_examples(run: list[tuple[Case, str]], tools: tuple[str, ...]) -> None:
    """The run's "example" cases are the contract examples of ``tools`` in order, and the
    reference gives each one's documented output byte for byte."""
    documented = [
        (
            ex["input"],
            json.dumps({"result": ex["output"]}, ensure_ascii=False, separators=(",", ":")),
        )
        for tool in tools
        for ex in contract_examples(tool)
    ]
    assert documented == [(case.input, text) for case, text in select(run, None, "example")]


def short(value: Any, limit: int = 700) -> str:
    """A readable, length-capped rendering for failure messages."""
    text = value if isinstance(value, str) else to_js_json(value)
    return text if len(text) <= limit else text[:limit] + f"... [{len(text)} chars]"


def disagreements(pairs: list[tuple[Case, str]]) -> list[str]:
    """Descriptions of the cases where Python and the reference disagree."""
    found = []
    for case, js_text in pairs:
        # Python gets the very JSON text Node got, through the service's own parser
        # (execute_json, as the CLI and HTTP use it): "\ud83d\ude00" is one astral character on
        # both sides, and a number too large for a double is Infinity on both sides.
        before = to_js_json(case.input)
        try:
            env = mtcompute.execute_json(case.tool, case.version, before)
            py_text = mtcompute.dumps(env)
        except Exception:
            found.append(
                f"{case.tool} {case.group}: Python raised for input {short(case.input)}\n"
                f"  reference: {short(js_text)}\n  {traceback.format_exc(limit=3)}"
            )
            continue
        problem = None
        js = json.loads(js_text)
        if "error" in js and js["error"]["code"] == "internal_error":
            problem = "the reference failed internally"
        elif "result" in js:
            if py_text != js_text:
                problem = "results differ"
        elif not (
            isinstance(env, dict) and set(env) == {"error"} and isinstance(env["error"], dict)
        ):
            problem = "reference gives an error, Python does not"
        else:
            err = env["error"]
            if err.get("code") != js["error"]["code"]:
                problem = "error codes differ"
            elif err.get("path") != js["error"]["path"]:
                problem = "error paths differ"
            elif not isinstance(err.get("message"), str) or not err["message"]:
                problem = "Python error has no message"
        if problem:
            found.append(
                f"{case.tool}@{case.version} {case.group}: {problem}\n"
                f"  input:     {short(case.input)}\n"
                f"  reference: {short(js_text)}\n  python:    {short(py_text)}"
            )
    return found


def assert_agree(pairs: list[tuple[Case, str]]) -> None:
    """Fail with the first few disagreements, if any."""
    assert pairs, "no cases were generated"
    found = disagreements(pairs)
    if found:
        shown = "\n".join(found[:6])
        pytest.fail(
            f"{len(found)} of {len(pairs)} inputs disagree with the JavaScript reference:\n{shown}",
            pytrace=False,
        )


def select(run: list[tuple[Case, str]], tool: str | None, *groups: str) -> list[tuple[Case, str]]:
    """The (case, reference text) pairs of one tool (None: every tool) and some groups."""
    return [(c, t) for c, t in run if (tool is None or c.tool == tool) and c.group in groups]
