"""The validation layer: each tool's declared input against its contract, and one message per
rule across the tools and the batch APIs."""

from __future__ import annotations

from typing import Any

import pytest

from mtcompute import corpus_bleu, corpus_chrf, execute
from mtcompute.contracts import contract
from mtcompute.contracts.validate import Array, Integer, Limit, Token
from mtcompute.errors import MtcomputeError
from mtcompute.tools import Tool, list_tools
from tests.conftest import run_cli

TOOLS = list_tools()
IDS = [f"{tool.id}@{tool.version}" for tool in TOOLS]
SCHEMA_KEYS = ("type", "minimum", "maximum", "enum", "minItems", "maxItems", "minLength", "items")


def _shape(schema: dict[str, Any]) -> dict[str, Any]:
    """The parts of a JSON Schema that a field type states (descriptions left out)."""
    out = {key: schema[key] for key in SCHEMA_KEYS if key in schema}
    if "items" in out:
        out["items"] = _shape(out["items"])
    return out


@pytest.mark.parametrize("tool", TOOLS, ids=IDS)
def test_declared_fields_are_the_contract_properties_in_order(tool: Tool) -> None:
    """A tool declares exactly its contract's input properties, in the schema's order, and
    requires exactly the schema's required keys."""
    schema = contract(tool.id, tool.version)["input_schema"]
    assert list(schema["properties"]) == list(tool.input.names)
    assert sorted(schema["required"]) == sorted(f.name for f in tool.input.fields if f.required)


@pytest.mark.parametrize("tool", TOOLS, ids=IDS)
def test_declared_types_state_the_contract_schema(tool: Tool) -> None:
    """Each field's type states the schema the contract gives it: type, bounds, enum, item
    counts, recursively (a token's maxLength is its UTF-8 byte limit, which the schema writes
    as maxLength)."""
    properties = contract(tool.id, tool.version)["input_schema"]["properties"]
    for field in tool.input.fields:
        assert _shape(properties[field.name]) == _shape(field.type.schema()), field.name


def _limits_in(value: object) -> list[Limit]:
    found: list[Limit] = []
    if isinstance(value, Limit):
        found.append(value)
    elif isinstance(value, Array):
        found += _limits_in(value.max_items) + _limits_in(value.items)
    elif isinstance(value, Integer):
        found += _limits_in(value.maximum)
    elif isinstance(value, Token):
        found += _limits_in(value.max_bytes)
    return found


@pytest.mark.parametrize("tool", TOOLS, ids=IDS)
def test_declared_limits_are_the_contract_figures(tool: Tool) -> None:
    """Every limit a field type enforces is a figure of the tool's own contract, by name."""
    figures = contract(tool.id, tool.version)["limits"]
    for field in tool.input.fields:
        for limit in _limits_in(field.type):
            assert figures[limit.key] == limit.value, (field.name, limit)


def _error(call: Any) -> tuple[str, str, str]:
    with pytest.raises(MtcomputeError) as caught:
        call()
    return caught.value.code, caught.value.message, caught.value.path


CHRF_INPUT = {"hypotheses": ["a b"], "references": ["a c"]}
BLEU_INPUT = {"hypotheses": [["a", "b"]], "references": [[["a", "c"]]]}


@pytest.mark.parametrize(
    ("tool", "data", "library"),
    [
        (
            "chrf-compute",
            {**CHRF_INPUT, "beta": 17},
            lambda: corpus_chrf(["a b"], ["a c"], beta=17),
        ),
        ("chrf-compute", {**CHRF_INPUT, "beta": 0}, lambda: corpus_chrf(["a b"], ["a c"], beta=0)),
        (
            "chrf-compute",
            {**CHRF_INPUT, "lowercase": 1},
            lambda: corpus_chrf(["a b"], ["a c"], lowercase=1),  # type: ignore[arg-type]
        ),
        (
            "bleu-corpus-compute",
            {**BLEU_INPUT, "max_order": 9},
            lambda: corpus_bleu([["a", "b"]], [[["a", "c"]]], tokenize=None, max_order=9),
        ),
        (
            "bleu-corpus-compute",
            {"hypotheses": [["a", ""]], "references": [[["a"]]]},
            lambda: corpus_bleu([["a", ""]], [[["a"]]], tokenize=None),
        ),
        (
            "bleu-corpus-compute",
            {"hypotheses": [["a"]], "references": [[]]},
            lambda: corpus_bleu([["a"]], [[]], tokenize=None),
        ),
    ],
    ids=["beta 17", "beta 0", "lowercase 1", "max_order 9", "empty token", "no refs"],
)
def test_a_rule_has_one_message_in_the_tool_and_the_batch_api(
    tool: str, data: dict[str, Any], library: Any
) -> None:
    """The batch API refuses what the tool refuses with the same code, message and path."""
    error = execute(tool, "1.0.0", data)["error"]
    assert (error["code"], error["message"], error["path"]) == _error(library)


SACRE_INPUT = {"hypotheses": ["a b"], "references": [["a c"]]}


@pytest.mark.parametrize(
    ("options", "library", "field"),
    [
        (
            {"bleu": {"smooth_method": "floor", "smooth_value": 2}},
            lambda: corpus_bleu(["a b"], ["a c"], smooth_method="floor", smooth_value=2),
            "smooth_value",
        ),
        (
            {"bleu": {"smooth_value": 0.5}},
            lambda: corpus_bleu(["a b"], ["a c"], smooth_value=0.5),
            "smooth_value",
        ),
        (
            {"bleu": {"smooth_method": "floor", "smooth_value": 101}},
            lambda: corpus_bleu(["a b"], ["a c"], smooth_method="floor", smooth_value=101),
            "smooth_value",
        ),
        (
            {"bleu": {"smooth_method": "method1"}},
            lambda: corpus_bleu(["a b"], ["a c"], smooth_method="method1"),
            "smooth_method",
        ),
        (
            {"bleu": {"tokenize": "13b"}},
            lambda: corpus_bleu(["a b"], ["a c"], tokenize="13b"),
            "tokenize",
        ),
        (
            {"chrf": {"word_order": 5}},
            lambda: corpus_chrf(["a b"], ["a c"], word_order=5),
            "word_order",
        ),
        ({"chrf": {"beta": 0}}, lambda: corpus_chrf(["a b"], ["a c"], beta=0), "beta"),
    ],
    ids=[
        "floor 2",
        "exp with a value",
        "floor 101",
        "method1",
        "13b",
        "word_order 5",
        "beta 0",
    ],
)
def test_a_sacrebleu_rule_has_one_message_in_the_tool_and_the_batch_api(
    options: dict[str, Any], library: Any, field: str
) -> None:
    """sacrebleu-score and the batch API refuse a sacreBLEU option with one code and one
    message, the tool naming the option inside its metric's object."""
    ((metric, values),) = options.items()
    error = execute(
        "sacrebleu-score", "1.0.0", {**SACRE_INPUT, "metrics": [metric], metric: values}
    )["error"]
    code, message, path = _error(library)
    assert (error["code"], error["message"], error["path"]) == (
        code,
        message.replace(f"/{field}", f"/{metric}/{field}"),
        f"/{metric}{path}",
    )


@pytest.mark.parametrize(
    ("option", "value", "tool", "data"),
    [
        ("--beta", "17", "chrf-compute", {**CHRF_INPUT, "beta": 17}),
        ("--max-order", "0", "bleu-corpus-compute", {**BLEU_INPUT, "max_order": 0}),
    ],
    ids=["beta", "max-order"],
)
def test_the_score_command_refuses_an_option_in_the_tools_words(
    option: str, value: str, tool: str, data: dict[str, Any]
) -> None:
    """``mtcompute score`` refuses an option value with the tool's message for that field,
    naming the option where the tool names the JSON Pointer (a usage error, exit 2)."""
    proc = run_cli("score", "-H", "-", "-r", "-", option, value)
    message = execute(tool, "1.0.0", data)["error"]["message"]
    expected = message.replace(f"at /{option[2:].replace('-', '_')}", f"at {option}")
    assert (2, f"mtcompute score: error: argument {option}: {expected}") == (
        proc.returncode,
        proc.stderr.decode().strip().splitlines()[-1],
    )
