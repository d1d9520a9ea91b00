"""Contracts as data, the tool registry, and the public API surface."""

from __future__ import annotations

import json
import pkgutil
from importlib import resources

import jsonschema
import pytest

import mtcompute
import mtcompute.tools
from mtcompute.contracts import contract, contract_ids
from mtcompute.tools import get_tool, list_tools
from tests.conftest import shared_file

KEYS = [
    "id",
    "version",
    "description",
    "supported_operations",
    "unsupported_operations",
    "semantics",
    "limits",
    "pricing",
    "input_schema",
    "output_schema",
    "examples",
    "execute_url",
]


KNOWN = ", ".join(sorted({tool_id for tool_id, _ in contract_ids()}))


def test_every_contract_has_a_tool_and_every_tool_a_contract() -> None:
    """The registry and the shipped contracts list the same tool versions."""
    assert list(contract_ids()) == [(t.id, t.version) for t in list_tools()]


@pytest.mark.parametrize(("tool_id", "version"), contract_ids(), ids=str)
def test_contract_shape(tool_id: str, version: str) -> None:
    """Each contract has the chrf seed's keys in its order, valid schemas and examples."""
    doc = contract(tool_id, version)
    assert KEYS == list(doc)
    assert (tool_id, version) == (doc["id"], doc["version"])
    assert f"/v1/tools/{tool_id}/versions/{version}/execute" == doc["execute_url"]
    jsonschema.Draft202012Validator.check_schema(doc["input_schema"])
    jsonschema.Draft202012Validator.check_schema(doc["output_schema"])
    for example in doc["examples"]:
        jsonschema.validate(example["input"], doc["input_schema"])
        jsonschema.validate(example["output"], doc["output_schema"])
        assert list(doc["output_schema"]["properties"])[: len(example["output"])] == list(
            example["output"]
        )


def test_chrf_contract_is_the_seed_field_for_field() -> None:
    """The chrf-compute document is the seed, byte for byte."""
    seed = shared_file("seeds/002_9b2153393840dc62.txt").read_bytes()
    shipped = resources.files("mtcompute.contracts") / "data" / "chrf-compute@1.0.0.json"
    assert seed == shipped.read_bytes()


@pytest.mark.parametrize(("tool_id", "version"), contract_ids(), ids=str)
def test_results_conform_to_the_output_schema(tool_id: str, version: str) -> None:
    """Results of execute() validate against the contract's output schema."""
    doc = contract(tool_id, version)
    for example in doc["examples"]:
        result = mtcompute.execute(tool_id, version, example["input"])["result"]
        jsonschema.validate(json.loads(mtcompute.dumps(result)), doc["output_schema"])


def test_tool_modules_are_discovered() -> None:
    """Every public module of mtcompute.tools defines TOOL and is registered."""
    names = [m.name for m in pkgutil.iter_modules(mtcompute.tools.__path__) if m.name[0] != "_"]
    assert len(names) == len(list_tools())


@pytest.mark.parametrize(
    ("tool_id", "version", "message"),
    [
        (
            "nope",
            "1.0.0",
            f'Expected a tool id from the catalog, got "nope"; known tools: {KNOWN}.',
        ),
        ("chrf-compute", "2.0.0", 'Expected a version of chrf-compute (1.0.0), got "2.0.0".'),
        (
            None,
            "1.0.0",
            f'Expected a tool id from the catalog, got "NoneType"; known tools: {KNOWN}.',
        ),
    ],
)
def test_not_found(tool_id: object, version: object, message: str) -> None:
    """Unknown ids and versions are not_found with a message listing what exists."""
    expected = {"error": {"code": "not_found", "message": message, "path": ""}}
    assert expected == mtcompute.execute(tool_id, version, {})  # type: ignore[arg-type]
    with pytest.raises(mtcompute.NotFound):
        get_tool(tool_id, version)


def test_public_api_all_is_sorted_and_complete() -> None:
    """__all__ is sorted and every name in it exists."""
    names = mtcompute.__all__
    assert sorted(names) == names
    assert [n for n in names if not hasattr(mtcompute, n)] == []


@pytest.mark.parametrize(
    ("cls", "code", "status"),
    [
        (mtcompute.InvalidInput, "invalid_input", 400),
        (mtcompute.LimitExceeded, "limit_exceeded", 413),
        (mtcompute.UnsupportedInput, "unsupported_input", 422),
        (mtcompute.NotFound, "not_found", 404),
    ],
)
def test_errors_carry_code_status_and_exit(
    cls: type[mtcompute.MtcomputeError], code: str, status: int
) -> None:
    """Each error class carries its code, HTTP status and CLI exit status."""
    assert (code, status, 1) == (cls.code, cls.http_status, cls.exit_code)


@pytest.mark.parametrize(("tool_id", "version"), contract_ids(), ids=str)
def test_a_huge_unknown_key_is_not_echoed_back(tool_id: str, version: str) -> None:
    """An unknown key of 1 MiB gets invalid_input with a bounded message and path ""."""
    example = contract(tool_id, version)["examples"][0]["input"]
    error = mtcompute.execute(tool_id, version, {**example, "k" * 2**20: 1})["error"]
    assert ("invalid_input", "") == (error["code"], error["path"])
    assert len(error["message"]) < 500
