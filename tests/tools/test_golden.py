"""Golden tests: every contract example, through execute() and the CLI, compared as JSON text."""

from __future__ import annotations

import json
from importlib import resources

import pytest

import mtcompute
from tests.conftest import run_cli

SEED_OUTPUT = {
    # The seeds' responses in compact form, byte for byte (issue: "as the seeds print them").
    "bleu-smoothing-compute@1.0.0 > example 1": '{"result":{"bleu":0.8375922397,'
    '"brevity_penalty":1,"orders_used":4,"smoothed_matches":[9,7,5,3],'
    '"smoothed_totals":[10,8,6,4]}}',
    "bleu-sentence-components@1.0.0 > example 1": '{"result":{"candidate_length":6,'
    '"reference_length":8,"max_order":4,"matches":[4,2,1,0],"totals":[6,5,4,3]}}',
    "chrf-compute@1.0.0 > example 1": '{"result":{"metric":"chrF","char_order":6,'
    '"word_order":0,"beta":2,"lowercase":false,"segment_count":2,"score":"84.642149",'
    '"score_fraction":"7116866012380/84081820977","segment_scores":["84.411311","84.867055"]}}',
    "chrf-compute@1.0.0 > example 2": '{"result":{"metric":"chrF","char_order":6,'
    '"word_order":0,"beta":3,"lowercase":false,"segment_count":1,"score":"25.000000",'
    '"score_fraction":"25/1","segment_scores":["25.000000"]}}',
}


def _examples() -> list[tuple[str, str, str, object, str]]:
    cases = []
    data = resources.files("mtcompute.contracts") / "data"
    for entry in sorted(data.iterdir(), key=lambda e: e.name):
        contract = json.loads(entry.read_text(encoding="utf-8"))
        for i, example in enumerate(contract["examples"], 1):
            name = f"{contract['id']}@{contract['version']} > example {i}"
            expected = mtcompute.dumps({"result": example["output"]})
            cases.append((name, contract["id"], contract["version"], example["input"], expected))
    return cases


EXAMPLES = _examples()
IDS = [case[0] for case in EXAMPLES]


def test_every_seed_example_is_shipped() -> None:
    """The shipped contracts carry the four seed examples with the seeds' responses."""
    shipped = {name: expected for name, _, _, _, expected in EXAMPLES}
    assert SEED_OUTPUT == {name: shipped[name] for name in SEED_OUTPUT}


@pytest.mark.parametrize(("name", "tool_id", "version", "example", "expected"), EXAMPLES, ids=IDS)
def test_example_through_execute(
    name: str, tool_id: str, version: str, example: object, expected: str
) -> None:
    """execute() reproduces the contract example's response as JSON text."""
    assert expected == mtcompute.dumps(mtcompute.execute(tool_id, version, example))


@pytest.mark.parametrize(("name", "tool_id", "version", "example", "expected"), EXAMPLES, ids=IDS)
def test_example_through_cli(
    name: str, tool_id: str, version: str, example: object, expected: str
) -> None:
    """`mtcompute run` prints the example's response byte for byte and exits 0."""
    body = json.dumps(example, ensure_ascii=False).encode()
    proc = run_cli("run", tool_id, version, "--input", "-", stdin=body)
    assert (0, expected.encode() + b"\n", b"") == (proc.returncode, proc.stdout, proc.stderr)
