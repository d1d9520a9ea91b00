"""sacreBLEU's answers to the suite's whole-file questions, recorded.

The differential tests ask sacreBLEU 2.6.0 the same questions on every run: the statistics or
scores of every WMT system under fixed options. Its answers do not change, and recomputing
them is most of the suite's time on the full data. So a comparison names its question by a
key (a label, the parameters, and a digest of the input texts) and :func:`assert_sacrebleu`
looks the key up in ``tests/data/sacrebleu_oracle.jsonl``:

- recorded: our answer's digest must equal the recorded digest of sacreBLEU's answer; when it
  differs, sacreBLEU is computed live and compared with ``==``, so a failure shows the real
  difference (and an answer that is equal but renders differently still passes);
- not recorded (new data, new parameters, generated inputs): sacreBLEU is computed live.

Where the answer is small (a score, a printed line, a signature), :func:`answer` gives it
itself, from ``tests/data/sacrebleu_answers.jsonl``, for tests that go on computing with it.

``MTCOMPUTE_ORACLE=live`` ignores the records (every answer computed live, as before they
existed); ``MTCOMPUTE_ORACLE=record`` computes every answer live, compares it, and appends the
digest of sacreBLEU's answer (or the answer), never ours, for each key not yet recorded:
``MTCOMPUTE_ORACLE=record make test`` with the full data beside the clone, and again on the
in-repo sample, refreshes the file. A digest is SHA-256 over a canonical rendering of the
answer (tuples as lists, numpy scalars as Python numbers, floats by ``repr``, which
round-trips, bytes in hex).
"""

from __future__ import annotations

import hashlib
import json
import os
import warnings
from collections.abc import Callable, Iterable
from functools import cache
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")

RECORDS = Path(__file__).resolve().parent / "data" / "sacrebleu_oracle.jsonl"
VALUES = Path(__file__).resolve().parent / "data" / "sacrebleu_answers.jsonl"
MODES = ("recorded", "live", "record")


def sacrebleu_lines(path: Path) -> tuple[str, ...]:
    """The lines of a file as sacreBLEU's command reads them: split on ``\\n`` only."""
    text = path.read_text(encoding="utf-8")
    lines = text.split("\n")
    if text.endswith("\n"):
        lines.pop()
    return tuple(lines)


def mode() -> str:
    """``MTCOMPUTE_ORACLE``: recorded (the default), live or record."""
    value = os.environ.get("MTCOMPUTE_ORACLE", "recorded")
    if value not in MODES:
        raise ValueError(f"MTCOMPUTE_ORACLE={value!r}: expected one of {', '.join(MODES)}")
    return value


def _canonical(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _canonical(v) for k, v in sorted(value.items(), key=lambda kv: str(kv[0]))}
    if isinstance(value, list | tuple):
        return [_canonical(v) for v in value]
    if isinstance(value, bool | int | str) or value is None:
        return value
    if isinstance(value, float):  # numpy's float64 too, whose repr is not a float's
        return {"float": repr(float(value))}
    if isinstance(value, bytes):
        return {"bytes": value.hex()}
    if hasattr(value, "item"):  # a numpy scalar
        return _canonical(value.item())
    raise TypeError(f"no canonical rendering for {type(value).__name__}")


def digest(value: Any) -> str:
    """SHA-256 of the canonical rendering of an answer."""
    text = json.dumps(_canonical(value), ensure_ascii=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("ascii")).hexdigest()


def texts_digest(*parts: Any) -> str:
    """SHA-256 over nested sequences of texts (None kept distinct from ""), each text
    length-prefixed, so that no two different inputs share a digest by concatenation."""
    h = hashlib.sha256()

    def feed(item: Any) -> None:
        if item is None:
            h.update(b"N")
        elif isinstance(item, str):
            data = item.encode("utf-8", "surrogatepass")
            h.update(b"S%d:" % len(data))
            h.update(data)
        elif isinstance(item, bool | int | float):
            h.update(b"V" + repr(item).encode("ascii") + b";")
        else:
            items = list(item)
            h.update(b"L%d[" % len(items))
            for x in items:
                feed(x)
            h.update(b"]")

    for part in parts:
        feed(part)
    return h.hexdigest()


def key(label: str, params: Any, texts: Iterable[Any]) -> str:
    """The key of a question: its label, its parameters (JSON-able) and its input texts."""
    text = json.dumps([label, _canonical(params), texts_digest(texts)], separators=(",", ":"))
    return hashlib.sha256(text.encode("ascii")).hexdigest()


@cache
def records() -> dict[str, str]:
    """The recorded digests by key (a key recorded twice must agree with itself)."""
    out: dict[str, str] = {}
    if not RECORDS.exists():
        return out
    for number, line in enumerate(RECORDS.read_text(encoding="ascii").splitlines(), 1):
        entry = json.loads(line)
        previous = out.setdefault(entry["key"], entry["digest"])
        if previous != entry["digest"]:
            raise ValueError(f"{RECORDS}:{number}: key {entry['key']} recorded with two digests")
    return out


def _append(question: str, answer: str) -> None:
    line = json.dumps({"key": question, "digest": answer}, separators=(",", ":")) + "\n"
    # One write of a short line on an O_APPEND descriptor: pytest-xdist's workers append
    # to the same file without interleaving.
    fd = os.open(RECORDS, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        os.write(fd, line.encode("ascii"))
    finally:
        os.close(fd)


def assert_sacrebleu(
    ours: T, label: str, params: Any, texts: Iterable[Any], sacrebleu: Callable[[], T]
) -> None:
    """``ours == sacrebleu()``, answered by the records where they hold this question."""
    question = key(label, params, texts)
    current = mode()
    recorded = records().get(question) if current == "recorded" else None
    if recorded is not None and recorded == digest(ours):
        return
    expected = sacrebleu()
    if current == "record" and question not in records():
        _append(question, digest(expected))
    assert expected == ours
    if recorded is not None:  # equal, yet not as recorded: the record costs a live run
        warnings.warn(f"{RECORDS.name}: the record of {label!r} is stale", stacklevel=2)


def _decoded(value: Any) -> Any:
    if isinstance(value, dict):
        if value.keys() == {"float": None}.keys():
            return float(value["float"])
        return {k: _decoded(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_decoded(v) for v in value]
    return value


@cache
def values() -> dict[str, Any]:
    """The recorded answers by key, for questions whose answer is small (:func:`answer`)."""
    out: dict[str, Any] = {}
    if not VALUES.exists():
        return out
    for line in VALUES.read_text(encoding="ascii").splitlines():
        entry = json.loads(line)
        out[entry["key"]] = _decoded(entry["value"])
    return out


def answer(label: str, params: Any, texts: Iterable[Any], sacrebleu: Callable[[], Any]) -> Any:
    """sacreBLEU's answer to a question whose answer is small (a score, a printed line): the
    recorded one (tuples come back as lists, floats exactly, by ``repr``), else computed live
    (and recorded under ``MTCOMPUTE_ORACLE=record``). For a comparison that can state its
    answer only as a digest, use :func:`assert_sacrebleu`."""
    question = key(label, params, texts)
    current = mode()
    if current == "recorded" and question in values():
        return values()[question]
    result = sacrebleu()
    if current == "record" and question not in values():
        line = json.dumps({"key": question, "value": _canonical(result)}, separators=(",", ":"))
        fd = os.open(VALUES, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            os.write(fd, (line + "\n").encode("ascii"))  # one write: see _append
        finally:
            os.close(fd)
    return _decoded(_canonical(result))
