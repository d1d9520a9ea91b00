"""Every fault of an input at once: ``error.faults`` when there are several, the first fault
(the one the contracts fix) still the error itself."""

from __future__ import annotations

import copy
from typing import Any

import pytest

import mtcompute
from mtcompute.contracts import contract
from mtcompute.contracts.validate import MAX_FAULTS
from mtcompute.tools import get_tool, list_tools

TOOLS = [(tool.id, tool.version) for tool in list_tools()]


def first_example_input(tool_id: str, version: str) -> dict[str, Any]:
    """The input of the contract's first example that answers a result."""
    examples = contract(tool_id, version)["examples"]
    good = next(e for e in examples if "output" in e)
    return copy.deepcopy(good["input"])


def error_of(tool_id: str, version: str, raw: object) -> dict[str, Any]:
    envelope = mtcompute.execute(tool_id, version, raw)
    assert envelope.is_error, envelope
    error: dict[str, Any] = envelope["error"]  # type: ignore[assignment]
    return error


@pytest.mark.parametrize(("tool_id", "version"), TOOLS, ids=[f"{t}@{v}" for t, v in TOOLS])
def test_two_faults_are_both_listed_the_first_is_the_error(tool_id: str, version: str) -> None:
    """An unknown key and a missing required key: two faults, in that order, the first being
    the error the envelope already reported."""
    raw = first_example_input(tool_id, version)
    required = contract(tool_id, version)["input_schema"]["required"]
    missing = required[-1]
    del raw[missing]
    raw["no_such_key"] = 1
    error = error_of(tool_id, version, raw)
    head = {k: error[k] for k in ("code", "message", "path")}
    assert (2, head, "/no_such_key", f"/{missing}") == (
        len(error["faults"]),
        error["faults"][0],
        error["faults"][0]["path"],
        error["faults"][1]["path"],
    )


@pytest.mark.parametrize(("tool_id", "version"), TOOLS, ids=[f"{t}@{v}" for t, v in TOOLS])
def test_one_fault_is_one_error_without_a_list(tool_id: str, version: str) -> None:
    """An input with one fault answers exactly the one error: no ``faults`` key."""
    raw = first_example_input(tool_id, version)
    raw["no_such_key"] = 1
    error = error_of(tool_id, version, raw)
    assert ["code", "message", "path"] == list(error)


def test_every_field_fault_is_listed_in_contract_order() -> None:
    """Each bad field of chrf-compute is one fault, in the contract's field order."""
    raw = {"hypotheses": "x", "references": 5, "beta": "a", "lowercase": 1}
    error = error_of("chrf-compute", "1.0.0", raw)
    paths = [fault["path"] for fault in error["faults"]]
    assert ["/hypotheses", "/references", "/beta", "/lowercase"] == paths


def test_rules_are_judged_only_when_the_fields_are_sound() -> None:
    """A rule relating fields (equal counts) is not checked once a field is at fault: the
    faults are the bad field's alone."""
    raw = {"hypotheses": ["a", 5], "references": ["a"]}
    error = error_of("chrf-compute", "1.0.0", raw)
    assert ("/hypotheses/1", False) == (error["path"], "faults" in error)


def test_a_rule_fault_comes_at_the_rule_s_place() -> None:
    """chrf-compute checks equal counts right after the references: that fault is first,
    the bad beta after it."""
    raw = {"hypotheses": ["a", "b"], "references": ["a"], "beta": 0}
    error = error_of("chrf-compute", "1.0.0", raw)
    assert ["/references", "/beta"] == [fault["path"] for fault in error["faults"]]


def test_the_list_is_bounded() -> None:
    """However many faults an input has, at most MAX_FAULTS are listed."""
    raw: dict[str, object] = {f"k{i}": i for i in range(5 * MAX_FAULTS)}
    error = error_of("chrf-compute", "1.0.0", raw)
    assert (MAX_FAULTS, "/k0") == (len(error["faults"]), error["faults"][0]["path"])


def test_the_library_function_raises_the_first_fault_with_the_list() -> None:
    """The typed library functions check through the same spec: the exception carries the
    faults too, and its code and message are the first fault's."""
    with pytest.raises(mtcompute.InvalidInput) as caught:
        mtcompute.chrf(hypotheses="x", references=5)  # type: ignore[arg-type]
    error = caught.value
    assert ("/hypotheses", ["/hypotheses", "/references"]) == (
        error.path,
        [fault.path for fault in error.faults],
    )


def test_faults_survive_pickling() -> None:
    """The server's worker processes send errors back pickled: the list comes with them."""
    import pickle

    with pytest.raises(mtcompute.InvalidInput) as caught:
        get_tool("chrf-compute", "1.0.0").run({"hypotheses": "x", "references": 5})
    again = pickle.loads(pickle.dumps(caught.value))
    assert caught.value.to_dict() == again.to_dict()
