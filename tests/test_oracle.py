"""tests/oracle.py: recorded sacreBLEU answers stand in for sacreBLEU only where they match, a
mismatch is decided by sacreBLEU itself, and the record files are well formed."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from tests import oracle


@pytest.fixture
def records(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Empty record files of this test's own, in the recorded mode."""
    monkeypatch.setattr(oracle, "RECORDS", tmp_path / "digests.jsonl")
    monkeypatch.setattr(oracle, "VALUES", tmp_path / "answers.jsonl")
    monkeypatch.setenv("MTCOMPUTE_ORACLE", "recorded")
    oracle.records.cache_clear()
    oracle.values.cache_clear()
    yield tmp_path
    oracle.records.cache_clear()
    oracle.values.cache_clear()


def _record(path: Path, question: str, answer: object) -> None:
    entry = {"key": question, "digest": oracle.digest(answer)}
    path.write_text(json.dumps(entry) + "\n", encoding="ascii")


def _never() -> list[int]:
    raise AssertionError("sacreBLEU was asked although the record answers")


def test_a_matching_record_answers_without_sacrebleu(records: Path) -> None:
    """Our answer's digest equal to the recorded one: sacreBLEU is not run."""
    _record(records / "digests.jsonl", oracle.key("q", {"n": 1}, ["a b"]), [1, 2.5])
    oracle.assert_sacrebleu([1, 2.5], "q", {"n": 1}, ["a b"], _never)


def test_a_mismatch_is_decided_by_sacrebleu(records: Path) -> None:
    """A wrong answer against a record fails on sacreBLEU's own live answer."""
    _record(records / "digests.jsonl", oracle.key("q", {}, ["a"]), [1, 2])
    calls: list[int] = []

    def live() -> list[int]:
        calls.append(1)
        return [1, 2]

    with pytest.raises(AssertionError):
        oracle.assert_sacrebleu([1, 3], "q", {}, ["a"], live)
    assert [1] == calls


def test_other_texts_or_parameters_are_another_question(records: Path) -> None:
    """The same label on other texts or parameters is not answered by the record."""
    _record(records / "digests.jsonl", oracle.key("q", {"n": 1}, ["a"]), [7])
    for params, texts in (({"n": 2}, ["a"]), ({"n": 1}, ["b"]), ({"n": 1}, ["a", None])):
        with pytest.raises(AssertionError, match="sacreBLEU was asked"):
            oracle.assert_sacrebleu([7], "q", params, texts, _never)


def test_live_mode_ignores_the_records(records: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """MTCOMPUTE_ORACLE=live asks sacreBLEU even where a record matches."""
    _record(records / "digests.jsonl", oracle.key("q", {}, ["a"]), [1])
    monkeypatch.setenv("MTCOMPUTE_ORACLE", "live")
    with pytest.raises(AssertionError, match="sacreBLEU was asked"):
        oracle.assert_sacrebleu([1], "q", {}, ["a"], _never)


def test_record_mode_writes_sacrebleus_answer_not_ours(
    records: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Recording appends the digest of sacreBLEU's answer, after comparing it with ours."""
    monkeypatch.setenv("MTCOMPUTE_ORACLE", "record")
    with pytest.raises(AssertionError):
        oracle.assert_sacrebleu([2], "q", {}, ["a"], lambda: [1])
    entry = json.loads((records / "digests.jsonl").read_text(encoding="ascii"))
    assert {"key": oracle.key("q", {}, ["a"]), "digest": oracle.digest([1])} == entry


def test_answers_come_back_exactly(records: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A recorded answer is returned as recorded (floats by repr, tuples as lists), and the
    live answer has the same shape."""
    value = (0.1 + 0.2, 3, "BLEU = 1.00", [1e-300, -0.0])
    monkeypatch.setenv("MTCOMPUTE_ORACLE", "record")
    live = oracle.answer("a", [], ["x"], lambda: value)
    oracle.values.cache_clear()
    monkeypatch.setenv("MTCOMPUTE_ORACLE", "recorded")
    recorded = oracle.answer("a", [], ["x"], lambda: pytest.fail("not recorded"))
    assert [0.30000000000000004, 3, "BLEU = 1.00", [1e-300, -0.0]] == live == recorded
    assert "-0.0" == repr(recorded[3][1])


def test_digests_tell_ints_from_floats_but_not_tuples_from_lists() -> None:
    """1 and 1.0, True and 1 render apart; a tuple as its list; numpy scalars as Python's."""
    assert oracle.digest([1]) != oracle.digest([1.0])
    assert oracle.digest([True]) != oracle.digest([1])
    assert oracle.digest((1, (2.5, "a"))) == oracle.digest([1, [2.5, "a"]])
    assert oracle.digest([np.int64(3), np.float64(0.5)]) == oracle.digest([3, 0.5])


def test_texts_digest_is_not_fooled_by_concatenation() -> None:
    """Texts are length-prefixed: ["ab", "c"] and ["a", "bc"] differ, as do None and ""."""
    assert oracle.texts_digest(["ab", "c"]) != oracle.texts_digest(["a", "bc"])
    assert oracle.texts_digest([None]) != oracle.texts_digest([""])
    assert oracle.texts_digest([["a"], []]) != oracle.texts_digest([[], ["a"]])


def test_a_key_recorded_with_two_digests_is_refused(records: Path) -> None:
    """Two digests for one key: an error naming the file's line."""
    path = records / "digests.jsonl"
    lines = [json.dumps({"key": "k", "digest": d}) for d in ("0" * 64, "1" * 64)]
    path.write_text("\n".join(lines) + "\n", encoding="ascii")
    with pytest.raises(ValueError, match="two digests") as caught:
        oracle.records()
    assert f"{path}:2: key k recorded with two digests" == str(caught.value)


def test_the_shipped_records_are_well_formed() -> None:
    """Every line of the shipped files: a 64-hex key and a 64-hex digest (or a JSON value),
    each key with one answer."""
    hexes = re.compile("[0-9a-f]{64}")
    for path, field in ((oracle.RECORDS, "digest"), (oracle.VALUES, "value")):
        seen: dict[str, object] = {}
        for line in path.read_text(encoding="ascii").splitlines():
            entry = json.loads(line)
            assert {"key", field} == set(entry)
            assert hexes.fullmatch(entry["key"])
            assert field == "value" or hexes.fullmatch(entry[field])
            assert seen.setdefault(entry["key"], entry[field]) == entry[field]
