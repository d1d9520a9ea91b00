"""What every tool in the registry must do, for every example of its contract and for faulty
variants of each example (an unknown key, each required key left out, the input as an array).

* A result envelope is ``{"result": ...}`` with exactly the output schema's keys in its order
  (an optional key only when the result has it); an error envelope is ``{"error": ...}`` with
  ``code``, ``message`` and ``path`` in that order.
* ``execute`` never changes its input.
* ``execute_json`` on the input's JSON text (str or UTF-8 bytes) gives what ``execute`` gives.
* The same input gets the same answer twice.

And what each tool test module (tests/tools/test_tool_*.py) declares on its harness
(:meth:`tests.harness.ToolHarness.declare`), checked here once for every tool:

* Each row of its error table (one fault per code per field) gets its code, path and whole
  message; the typed function, called with the row's keys where it takes them, raises the same.
* Its typed function raises one exception class per code, with the envelope's path and message.
* execute leaves the module's chosen input as given.
* Each semantics line of the contract has a test.

Ids read "chrf-compute@1.0.0 > example 2", "chrf-compute@1.0.0 > example 2 without
hypotheses" and "chrf-compute@1.0.0 > beta > invalid_input > negative".
"""

from __future__ import annotations

import copy
import importlib
import inspect
import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, NamedTuple

import pytest

import mtcompute
from mtcompute.contracts import contract
from mtcompute.errors import MtcomputeError
from mtcompute.tools import get_tool, list_tools
from tests.harness import HARNESSES, ErrorRow, ToolHarness


class Case(NamedTuple):
    """One input for one tool version."""

    name: str
    tool: str
    version: str
    input: object


def _cases() -> tuple[list[Case], list[Case]]:
    """(every contract example, the faulty variants of every example), in registry order."""
    examples, faults = [], []
    for tool in list_tools():
        doc = contract(tool.id, tool.version)
        for i, example in enumerate(doc["examples"], 1):
            name = f"{tool.id}@{tool.version} > example {i}"
            raw: dict[str, Any] = example["input"]
            examples.append(Case(name, tool.id, tool.version, raw))
            variants: list[tuple[str, object]] = [("+ unknown key", {**raw, "zz_unknown": 1})]
            for key in doc["input_schema"]["required"]:
                variants.append((f"without {key}", {k: v for k, v in raw.items() if k != key}))
            variants.append(("as an array", [raw]))
            faults += [Case(f"{name} {what}", tool.id, tool.version, v) for what, v in variants]
    return examples, faults


EXAMPLES, FAULTS = _cases()
EVERY = EXAMPLES + FAULTS
ERROR_CODES = {"invalid_input", "limit_exceeded", "unsupported_input"}


def cases(chosen: list[Case]) -> pytest.MarkDecorator:
    """Parametrize a test over ``chosen`` cases, with their names as ids."""
    return pytest.mark.parametrize("case", chosen, ids=[c.name for c in chosen])


def execute(case: Case) -> dict[str, Any]:
    """The envelope of ``execute`` for the case."""
    return mtcompute.execute(case.tool, case.version, case.input)


def test_every_tool_has_examples_and_faults_here() -> None:
    """Every registered tool version has at least one example and its faulty variants here."""
    tools = [(t.id, t.version) for t in list_tools()]
    assert (tools, tools) == (
        sorted({(c.tool, c.version) for c in EXAMPLES}),
        sorted({(c.tool, c.version) for c in FAULTS}),
    )


@cases(EXAMPLES)
def test_result_envelope_has_the_output_schemas_keys_in_order(case: Case) -> None:
    """An example gets {"result": ...} with the output schema's keys, in the schema's order."""
    envelope = execute(case)
    schema = contract(case.tool, case.version)["output_schema"]
    result = envelope.get("result", {})
    assert isinstance(result, dict), envelope
    expected = [k for k in schema["properties"] if k in schema["required"] or k in result]
    assert (["result"], expected) == (list(envelope), list(result))


@cases(FAULTS)
def test_error_envelope_is_code_message_path(case: Case) -> None:
    """A faulty input gets {"error": {"code", "message", "path"}}: a known code, a message,
    and "" or a JSON Pointer as the path."""
    envelope = execute(case)
    error = envelope.get("error", {})
    assert isinstance(error, dict), envelope
    assert (["error"], ["code", "message", "path"]) == (list(envelope), list(error))
    code, message, path = error["code"], error["message"], error["path"]
    assert (True, True, True) == (
        code in ERROR_CODES,
        isinstance(message, str) and message.endswith("."),
        isinstance(path, str) and (path == "" or path.startswith("/")),
    ), error


@cases(EVERY)
def test_execute_leaves_the_input_as_given(case: Case) -> None:
    """execute does not change its input: equal to a deep copy, the same JSON text."""
    before, text = copy.deepcopy(case.input), json.dumps(case.input)
    execute(case)
    assert (before, text) == (case.input, json.dumps(case.input))


@cases(EVERY)
def test_execute_json_agrees_with_execute(case: Case) -> None:
    """execute_json on the input's JSON text, as str and as UTF-8 bytes, gives execute's
    envelope."""
    body = mtcompute.dumps(case.input)
    expected = mtcompute.dumps(execute(case))
    assert [expected, expected] == [
        mtcompute.dumps(mtcompute.execute_json(case.tool, case.version, b))
        for b in (body, body.encode("utf-8"))
    ]


@cases(EVERY)
def test_the_same_input_gets_the_same_answer_twice(case: Case) -> None:
    """Two calls on the same input give the same envelope, as JSON text."""
    assert mtcompute.dumps(execute(case)) == mtcompute.dumps(execute(case))


@cases(EXAMPLES)
def test_the_typed_function_agrees_with_execute(case: Case) -> None:
    """The tool's typed library function, called with the example's keys as keyword arguments,
    returns the result execute gives, or raises the error execute reports (same code, message
    and path)."""
    envelope = execute(case)
    try:
        result = get_tool(case.tool, case.version).function(**case.input)
        actual: dict[str, object] = {"result": result.to_dict()}
    except MtcomputeError as error:
        actual = {"error": error.to_dict()}
    assert mtcompute.dumps(envelope) == mtcompute.dumps(actual)


# --- what each tool test module declares on its harness -------------------------------------


def _harnesses() -> list[ToolHarness]:
    """The harness of every tool test module, each module imported once (by its name, as
    pytest imports it)."""
    for path in sorted(Path(__file__).parent.glob("test_tool_*.py")):
        importlib.import_module(f"tests.tools.{path.stem}")
    names = [h.name for h in HARNESSES]
    assert len(names) == len(set(names)), names
    return list(HARNESSES)


HARNESSED = _harnesses()
DECLARED = [h for h in HARNESSED if h.checks]
ERROR_ROWS = [(h, row) for h in DECLARED for row in h.declared.errors]
TYPED_FAULTS = [(h, code) for h in DECLARED for code in h.declared.typed_faults]
UNCHANGED = [h for h in DECLARED if h.declared.unchanged is not None]


def takes(function: Callable[..., object], raw: object) -> bool:
    """``function`` takes ``raw``'s keys as its arguments: every required argument is there,
    and no key it does not know."""
    if not isinstance(raw, Mapping):
        return False
    parameters = inspect.signature(function).parameters
    required = {n for n, p in parameters.items() if p.default is inspect.Parameter.empty}
    return required <= set(raw) <= set(parameters)


@pytest.mark.parametrize(
    ("harness", "row"),
    ERROR_ROWS,
    ids=[f"{h.name} > {row[0]} > {row[1]} > {row[2]}" for h, row in ERROR_ROWS],
)
def test_error_table(harness: ToolHarness, row: ErrorRow) -> None:
    """Each fault gets its code, path and whole message; the typed function, called with the
    input's keys where it takes them, raises the same."""
    _field, code, _case, raw, path, message = row
    assert (code, path, message) == harness.error(raw)
    function = get_tool(*harness.tool).function
    if takes(function, raw):
        assert isinstance(raw, Mapping)
        harness.assert_raises_as_envelope(code, raw, function)


@pytest.mark.parametrize(
    ("harness", "code"), TYPED_FAULTS, ids=[f"{h.name} > {code}" for h, code in TYPED_FAULTS]
)
def test_typed_function_raises_the_codes_exception(harness: ToolHarness, code: str) -> None:
    """The typed function (the registry's) raises one exception class per code, with the
    envelope's code, path and message."""
    function = get_tool(*harness.tool).function
    harness.assert_raises_as_envelope(code, harness.declared.typed_faults[code], function)


@pytest.mark.parametrize("harness", UNCHANGED, ids=[h.name for h in UNCHANGED])
def test_the_input_is_left_as_given(harness: ToolHarness) -> None:
    """execute leaves the module's chosen input as it was."""
    harness.assert_not_mutated(harness.declared.unchanged)


@pytest.mark.parametrize("harness", DECLARED, ids=[h.name for h in DECLARED])
def test_every_semantics_line_has_a_test(harness: ToolHarness) -> None:
    """Each semantics line of the contract has its test (in the tool's module, or here)."""
    harness.assert_every_semantics_line_tested()
