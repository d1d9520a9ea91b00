"""The fuzzer (scripts/fuzz.py): a short pass over every tool in the registry, and its checks.

The pass runs the script's own code (imported, not copied): arbitrary JSON values, inputs that
are not JSON at all, values drawn from the input schema, mutated contract examples, mutated
JSON text through ``execute_json`` and unknown tool ids, each envelope checked against the
envelope rules and the contract's output schema. The check tests feed the checker broken
envelopes, so that a pass means something. ``python scripts/fuzz.py --seconds 600`` is the
long run.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mtcompute
from mtcompute.tools import list_tools
from tests.conftest import load_script
from tests.tools.test_reference_agreement_bleu import BS_EXAMPLE

COUNT = 300  # inputs per tool in the short pass
BOUND = 5.0  # seconds per input: generous, CI machines are shared


fuzz = load_script("fuzz")
TOOLS = [f"{tool.id}@{tool.version}" for tool in list_tools()]


def _failures(stats: Any) -> str:
    lines = [f"{n} x {signature}" for signature, n in stats.signatures.most_common()]
    lines += [Path(p).read_text(encoding="utf-8")[:2000] for p in stats.saved[:3]]
    return "\n".join(lines)


# --- The short pass --------------------------------------------------------------------------


@pytest.mark.parametrize("tool", TOOLS)
def test_short_fuzz_pass(tool: str, tmp_path: Path) -> None:
    """Every kind of fuzz input for this tool gets a valid envelope, in time, and no error."""
    (stats,) = fuzz.run([tool], count=COUNT, seed=1, bound=BOUND, out_dir=tmp_path)
    assert stats.tried == COUNT
    assert stats.failures == 0, _failures(stats)
    assert stats.slowest <= BOUND


def test_every_kind_of_input_is_drawn(tmp_path: Path) -> None:
    """One short run draws each kind of input: JSON, exotic, schema, mutant, text and ids."""
    (stats,) = fuzz.run(["bleu-smoothing-compute"], count=400, seed=7, out_dir=tmp_path)
    assert set(fuzz.KINDS) == {kind for kind, n in stats.by_kind.items() if n > 0}


def test_registry_is_what_gets_fuzzed() -> None:
    """The fuzzer's targets are exactly the registry's tool versions, with their contracts."""
    targets = fuzz.targets()
    assert TOOLS == [t.label for t in targets]
    assert all(t.examples and t.output_keys for t in targets)


# --- The checks catch broken envelopes ---------------------------------------------------------


SMOOTHING = "bleu-smoothing-compute"
GOOD_INPUT = {k: v for k, v in BS_EXAMPLE.items() if k != "decimals"}
GOOD_RESULT = {
    "bleu": 0.5,
    "brevity_penalty": 1,
    "orders_used": 4,
    "smoothed_matches": [9, 7, 5, 3],
    "smoothed_totals": [10, 8, 6, 4],
}


def _error(code: str = "invalid_input", message: str = "Bad.", path: str = "") -> dict[str, Any]:
    return {"error": {"code": code, "message": message, "path": path}}


def _faults(*faults: dict[str, Any]) -> dict[str, Any]:
    """An error envelope of ``_error()`` listing ``faults``."""
    return {"error": {**_error()["error"], "faults": [f["error"] for f in faults]}}


BROKEN = [
    ("not a dict", ["result"], "not a dict"),
    ("both keys", {"result": GOOD_RESULT, **_error()}, "not exactly result or error"),
    ("no key", {}, "not exactly result or error"),
    ("internal error", _error("internal_error", "Internal error (KeyError)"), "internal_error"),
    ("unknown code", _error("bad_input"), "is not one of"),
    ("empty message", _error(message=""), "non-empty"),
    ("message not str", _error(message=None), "non-empty"),  # type: ignore[arg-type]
    ("huge message", _error(message="x" * 5000), "over 1000"),
    ("path no slash", _error(path="matches"), "not a JSON Pointer"),
    ("path bad escape", _error(path="/a~2b"), "not a JSON Pointer"),
    ("path nowhere", _error(path="/nope/deeper"), "resolves in the input neither"),
    ("error extra key", {"error": {**_error()["error"], "hint": "x"}}, "not code, message"),
    ("one fault listed", _faults(_error()), "2 to"),
    ("faults not first", _faults(_error(path="/m"), _error()), "not the error itself"),
    ("a bad fault", _faults(_error(), _error("bad_input")), "is not one of"),
    ("result missing key", {"result": {**GOOD_RESULT, "bleu": None}}, "output schema"),
    ("result out of range", {"result": {**GOOD_RESULT, "bleu": 1.5}}, "output schema"),
    ("result wrong order", {"result": dict(reversed(GOOD_RESULT.items()))}, "schema's order"),
    ("result nan", {"result": {**GOOD_RESULT, "bleu": float("nan")}}, "read back differs"),
    ("result not json", {"result": {**GOOD_RESULT, "bleu": object()}}, "dumps raised"),
]  # fmt: skip


@pytest.mark.parametrize(("name", "envelope", "expected"), BROKEN, ids=[b[0] for b in BROKEN])
def test_check_catches_broken_envelopes(name: str, envelope: object, expected: str) -> None:
    """The envelope check reports each way an envelope can break the rules."""
    target = fuzz.Target(SMOOTHING, "1.0.0")
    problems = fuzz.check_envelope(target, envelope, GOOD_INPUT)
    assert any(expected in p for p in problems), problems


def test_check_catches_result_for_schema_breaking_input() -> None:
    """A result for an input that breaks the input schema is reported."""
    target = fuzz.Target(SMOOTHING, "1.0.0")
    problems = fuzz.check_envelope(target, {"result": GOOD_RESULT}, {**GOOD_INPUT, "x": 1})
    assert any("breaks the input schema" in p for p in problems), problems


def test_check_passes_the_contract_examples() -> None:
    """Each contract example's envelope, as execute gives it, passes every check."""
    for target in fuzz.targets():
        for example in target.examples:
            envelope = mtcompute.execute(target.tool_id, target.version, example)
            assert [] == fuzz.check_envelope(target, envelope, example), target.label


def test_check_accepts_error_paths_to_missing_keys() -> None:
    """An error path naming a missing key (its parent exists) is a valid path."""
    target = fuzz.Target(SMOOTHING, "1.0.0")
    envelope = _error(path="/smoothing")
    assert [] == fuzz.check_envelope(target, envelope, {"matches": [1]})


# --- The runner records, times, saves and replays failures -------------------------------------


def test_runner_saves_and_replays_a_failing_input(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A failing input is counted, saved to the folder, and replays the same way."""
    monkeypatch.setattr(mtcompute, "execute", lambda *_: _error("internal_error", "Boom."))
    fuzzer = fuzz.Fuzzer(fuzz.Target(SMOOTHING, "1.0.0"), out_dir=tmp_path)
    problems = fuzzer.run_one("mutant", GOOD_INPUT)
    assert any("internal_error" in p for p in problems)
    assert fuzzer.stats.failures == 1
    (saved,) = fuzzer.stats.saved
    assert saved.parent == tmp_path / "bleu-smoothing-compute@1.0.0"
    assert GOOD_INPUT == json.loads(saved.read_text(encoding="utf-8"))["input"]
    _, replayed = fuzz.replay(saved)
    assert any("internal_error" in p for p in replayed)
    monkeypatch.undo()
    assert ([], "result") == (fuzz.replay(saved)[1], next(iter(fuzz.replay(saved)[0])))


def test_runner_saves_a_failing_body(tmp_path: Path) -> None:
    """A JSON text input is saved as bytes and loads back byte for byte."""
    target = fuzz.Target(SMOOTHING, "1.0.0")
    body = b'{"matches": [1e400], "\xff": 1}'
    path = fuzz.save_case(tmp_path, target, "text", body, None, ["example"])
    assert (target.label, "text", body) == (
        fuzz.load_case(path)[0].label,
        *fuzz.load_case(path)[1:],
    )


def test_runner_reports_an_exception(monkeypatch: pytest.MonkeyPatch) -> None:
    """An exception out of execute is a failure, not a crash of the fuzzer."""

    def boom(*_: object) -> dict[str, object]:
        raise ValueError("boom")

    monkeypatch.setattr(mtcompute, "execute", boom)
    fuzzer = fuzz.Fuzzer(fuzz.Target(SMOOTHING, "1.0.0"))
    assert ["raised ValueError: boom"] == fuzzer.run_one("json", None)


def test_runner_reports_a_slow_input(monkeypatch: pytest.MonkeyPatch) -> None:
    """An input over the time bound is a failure, and the slowest input is kept."""
    real = mtcompute.execute

    def slow(*args: Any) -> dict[str, object]:
        end = time.process_time() + 0.05  # the bound is on CPU time: spin, do not sleep
        while time.process_time() < end:
            pass
        return real(*args)

    monkeypatch.setattr(mtcompute, "execute", slow)
    fuzzer = fuzz.Fuzzer(fuzz.Target(SMOOTHING, "1.0.0"), bound=0.01)
    problems = fuzzer.run_one("mutant", GOOD_INPUT)
    assert any(p.startswith("took ") for p in problems), problems
    assert fuzzer.stats.slowest >= 0.05
    assert GOOD_INPUT == fuzzer.stats.slowest_payload


def test_runner_keeps_the_slowest_result_apart(monkeypatch: pytest.MonkeyPatch) -> None:
    """The slowest input answered with a result is kept apart from the slowest of all: a slow
    error does not count, a fast result does."""
    real = mtcompute.execute

    def slow_errors(tool_id: Any, version: Any, value: Any) -> Any:
        envelope = real(tool_id, version, value)
        if "error" in envelope:
            end = time.process_time() + 0.05
            while time.process_time() < end:
                pass
        return envelope

    monkeypatch.setattr(mtcompute, "execute", slow_errors)
    fuzzer = fuzz.Fuzzer(fuzz.Target(SMOOTHING, "1.0.0"))
    fuzzer.run_one("mutant", {**GOOD_INPUT, "smoothing": "method9"})
    fuzzer.run_one("mutant", GOOD_INPUT)
    stats = fuzzer.stats
    assert (True, True) == (stats.slowest >= 0.05, 0 < stats.slowest_result < stats.slowest)
    assert stats.as_dict()["slowest_result_seconds"] == round(stats.slowest_result, 4)


def test_texts_are_written_to_the_word_limits(tmp_path: Path) -> None:
    """For a contract with a per-text word limit (ter-compute's max segment words), the string
    mutations write texts of words at and around it, which the tool counts as it aligns."""
    target = fuzz.Target("ter-compute", "1.0.0")
    seen: set[str] = set()

    @given(st.data())
    @settings(max_examples=300, deadline=None, database=None)
    def draw(data: st.DataObject) -> None:
        text = fuzz._string_variants(data.draw, "a b", target.word_limits)
        envelope = mtcompute.execute(
            "ter-compute", "1.0.0", {"hypotheses": [text], "references": [["a"]]}
        )
        if (
            "error" in envelope
            and "(limit max segment words), got 1025." in envelope["error"]["message"]
        ):
            seen.add("over")
        elif "result" in envelope and len(text.split()) in (1023, 1024):
            seen.add("at")

    draw()
    assert ((1024,), {"at", "over"}) == (target.word_limits, seen)


def test_runner_reports_execute_and_execute_json_disagreeing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The recheck catches execute and execute_json answering one value differently."""
    monkeypatch.setattr(mtcompute, "execute_json", lambda *_: _error("not_found", "No."))
    fuzzer = fuzz.Fuzzer(fuzz.Target(SMOOTHING, "1.0.0"), recheck_every=1)
    problems = fuzzer.run_one("mutant", GOOD_INPUT)
    assert any("execute_json of the same value" in p for p in problems), problems


def test_unknown_tool_must_be_not_found(monkeypatch: pytest.MonkeyPatch) -> None:
    """An unknown tool id answered with anything but not_found is a failure."""
    fuzzer = fuzz.Fuzzer(fuzz.Target(SMOOTHING, "1.0.0"))
    assert [] == fuzzer.run_one("id", ("no-such-tool", "1.0.0", GOOD_INPUT))
    monkeypatch.setattr(mtcompute, "execute", lambda *_: _error("invalid_input"))
    problems = fuzzer.run_one("id", ("no-such-tool", "1.0.0", GOOD_INPUT))
    assert any("answered invalid_input" in p for p in problems), problems


def test_main_exit_status(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The command exits 0 on a clean run and 1 (naming the failure) on a failing one."""
    args = ["--count", "20", "--tool", "chrf-compute", "--out", str(tmp_path), "--seed", "3"]
    assert 0 == fuzz.main(args)
    assert "chrf-compute@1.0.0" in capsys.readouterr().out
    monkeypatch.setattr(mtcompute, "execute", lambda *_: _error("internal_error", "Boom."))
    monkeypatch.setattr(mtcompute, "execute_json", lambda *_: _error("internal_error", "Boom."))
    assert 1 == fuzz.main(args)
    out = capsys.readouterr().out
    assert "FAIL chrf-compute@1.0.0" in out
    assert list((tmp_path / "chrf-compute@1.0.0").glob("*.json"))


def test_atheris_engine(tmp_path: Path) -> None:
    """The coverage-guided engine (optional: atheris) runs execute_json bytes and counts them."""
    pytest.importorskip("atheris")
    (stats,) = fuzz.run(["chrf-compute"], count=3000, engine="atheris", out_dir=tmp_path)
    assert stats.failures == 0, _failures(stats)
    assert stats.tried == 3000


@given(st.data(), st.sampled_from(["a\udfffb", "\ud800", "é😀", ""]))
@settings(max_examples=200, deadline=None)
def test_string_variants_take_any_text(data: st.DataObject, text: str) -> None:
    """The string mutations accept texts holding lone surrogates (an earlier mutation may
    have put one there): a 600 s run once stopped on strict UTF-8 in the long-text variant."""
    assert isinstance(fuzz._string_variants(data.draw, text), str)


def test_a_huge_int_becomes_text() -> None:
    """A mutation that turns a node into text takes an int past Python's 4,300-digit str()
    limit, alone or inside a list (a run of the fuzzer stopped there)."""
    huge = 10**5000
    assert (hex(huge)[:200], "list", "7") == tuple(
        fuzz._as_text(node) for node in (huge, [huge], 7)
    )
