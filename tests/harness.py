"""The shared harness of the tool tests (tests/tools/test_tool_*.py): one tool version, one
base input, and the envelope read as a result or as an error.

Each tool test module names its tool and a valid base input once::

    TOOL = ("chrf-compute", "1.0.0")
    HARNESS = ToolHarness(TOOL, {"hypotheses": ["ab"], "references": ["abc"]})
    run, input_with, error = HARNESS.run, HARNESS.input_with, HARNESS.error

and writes its tests with ``run(beta=3)`` (the result for the base input with ``beta`` 3),
``input_with(references=...)`` (the base input without ``references``) and ``error(raw)``
(code, path and message of the error for ``raw``). Each module then declares its tables once::

    HARNESS.declare(ERRORS, typed_faults=TYPED_FAULTS, unchanged=input_with(beta=3.0))

and the registry-wide tests of tests/tools/test_every_tool.py check them for every tool: each
error row's code, path and message, the typed function's (the registry's) exception per code,
the input left as given, and a test for every semantics line.

Also here, because several tool test modules (and the reference-agreement tests) read them:
the real WMT data (the pairs, a file's lines, the BLEU tools' tokenized corpora, the chrF
tools' texts in tool-sized chunks) and sacreBLEU 2.6.0 set up as the BLEU tools' reference.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, TypeVar

import pytest
from sacrebleu.metrics import BLEU

import mtcompute
from mtcompute.contracts import contract
from tests.conftest import ISSUE_REFERENCES, WMT

__all__ = [
    "COMMON_FAULTS",
    "EXCEPTIONS",
    "HARNESSES",
    "SACRE_METHOD",
    "ErrorRow",
    "ToolChecks",
    "ToolHarness",
    "WmtCorpus",
    "close",
    "contract_whitespace",
    "error_table",
    "no_download",
    "read_lines",
    "result_of",
    "sacre_bleu",
    "sacre_score",
    "sacre_streams",
    "scored",
    "tool_chunks",
    "wmt_corpora",
    "wmt_pairs",
    "wmt_system",
    "wmt_tokens",
]

# The exception class of the typed functions for each error code of an envelope.
EXCEPTIONS: dict[str, type[mtcompute.MtcomputeError]] = {
    "invalid_input": mtcompute.InvalidInput,
    "limit_exceeded": mtcompute.LimitExceeded,
    "unsupported_input": mtcompute.UnsupportedInput,
}

MAX_TOKEN_BYTES = 128  # the BLEU tools' "max token bytes"

TestFunction = TypeVar("TestFunction", bound=Callable[..., None])

# One row of a tool's error table: field, code, case, raw input, path, whole message.
ErrorRow = tuple[str, str, str, object, str, str]


# The faults that several tools word alike: (field, case) -> (code, the keys changed in the base
# input or None for the input null, path, whole message). The rows on references change a base
# input whose references are the issue's example (ISSUE_REFERENCES: two segments); "text bytes"
# puts 4194361 bytes in all.
_MAX_ORDER = "Expected an integer of at %s at /max_order, got %s."
_ONE_OVER = ["é" * (4_194_304 // 4)] * 2
_NO_EPSILON = ("invalid_input", {"epsilon": 0.1}, "/epsilon", "Expected no epsilon with smoothing "
               "none at /epsilon (epsilon applies to method1 only), got one.")  # fmt: skip
COMMON_FAULTS: dict[tuple[str, str], tuple[str, dict[str, Any] | None, str, str]] = {
    ("input", "null"): ("invalid_input", None, "",
                        "Expected a JSON object as the input, got null."),
    ("epsilon", "with smoothing omitted"): _NO_EPSILON,
    ("epsilon", "without method1"): _NO_EPSILON,
    ("total tokens", "500001"): ("limit_exceeded",
        {"hypotheses": [["a"] * 250_000, ["b"]], "references": [[["c"] * 250_000], [[]]]}, "",
        "Expected at most 500000 tokens in the hypotheses and references together "
        "(limit max total tokens), got 500001."),
    ("total tokens", "10001"): ("limit_exceeded",
        {"hypothesis": ["a"] * 5000, "references": [["b"] * 5000, ["c"]]}, "",
        "Expected at most 10000 tokens in the hypothesis and references together "
        "(limit max total tokens), got 10001."),
    ("total token bytes", "262145"): ("limit_exceeded",
        {"hypothesis": ["h" * 128] * 1024, "references": [["r" * 128] * 1024, ["s"]]}, "",
        "Expected at most 262144 UTF-8 bytes of tokens in all (limit max total token bytes), "
        "got 262145."),
    ("max_order", "0"): ("invalid_input", {"max_order": 0}, "/max_order",
                         _MAX_ORDER % ("least 1", 0)),
    ("max_order", "9"): ("invalid_input", {"max_order": 9}, "/max_order",
                         _MAX_ORDER % ("most 8", 9)),
    ("max_order", "2.5"): ("invalid_input", {"max_order": 2.5}, "/max_order",
                           "Expected an integer at /max_order, got 2.5."),
    ("smoothing", "unknown method"): ("invalid_input", {"smoothing": "add-k"}, "/smoothing",
        'Expected one of none, method1, method2, method3 at /smoothing, got the string "add-k".'),
    ("decimals", "16"): ("invalid_input", {"decimals": 16}, "/decimals",
                         "Expected an integer of at most 15 at /decimals, got 16."),
    ("hypotheses", "empty"): ("invalid_input", {"hypotheses": []}, "/hypotheses",
                              "Expected at least 1 segment at /hypotheses, got none."),
    ("hypotheses", "not an array"): ("invalid_input", {"hypotheses": "a"}, "/hypotheses",
        'Expected an array of 1 to 4096 strings at /hypotheses, got the string "a".'),
    ("hypotheses", "4097"): ("limit_exceeded", {"hypotheses": ["a"] * 4097}, "/hypotheses",
        "Expected at most 4096 segments at /hypotheses (limit max segments), got 4097."),
    ("references", "segment not an array"): ("invalid_input", {"references": ["a", "b"]},
        "/references/0",
        'Expected an array of 1 to 8 reference strings at /references/0, got the string "a".'),
    ("references", "9 references"): ("limit_exceeded",
        {"references": [ISSUE_REFERENCES[0], ["a"] * 9]}, "/references/1",
        "Expected at most 8 references at /references/1 (limit max references), got 9."),
    ("references", "no reference"): ("invalid_input", {"references": [ISSUE_REFERENCES[0], []]},
        "/references/1", "Expected at least 1 reference at /references/1, got none."),
    ("references", "different counts"): ("invalid_input", {"references": ISSUE_REFERENCES[:1]},
        "/references", "Expected references to have as many segments as hypotheses (2) at "
        "/references, got 1."),
    ("references", "text bytes"): ("limit_exceeded", {"references": [_ONE_OVER, ["a"]]}, "",
        "Expected at most 4194304 UTF-8 bytes of text in all (limit max text bytes), got 4194361."),
    ("references", "lone surrogate"): ("invalid_input",
        {"references": [ISSUE_REFERENCES[0], ["a", "\udfff"]]}, "/references/1/1",
        "Expected text without lone surrogates at /references/1/1, got U+DFFF at index 0."),
}  # fmt: skip


def no_download(tokenizer: str, path: str) -> str:
    """The whole message refusing a tokenizer whose model sacreBLEU would download."""
    return (
        f"The {tokenizer} tokenizer at {path} needs a SentencePiece model that sacreBLEU "
        "downloads; the catalog's tools never download models. Use 13a, intl, zh, char, "
        "none, ja-mecab or ko-mecab."
    )


def result_of(tool: str, data: object, version: str = "1.0.0") -> dict[str, Any]:
    """The result object of ``tool``@``version`` for ``data`` (failing on an error envelope)."""
    envelope = mtcompute.execute(tool, version, data)
    assert "result" in envelope, envelope
    result: dict[str, Any] = envelope["result"]
    return result


# Every harness made, in the order its module was imported (test_every_tool.py reads them).
HARNESSES: list[ToolHarness] = []


@dataclass(frozen=True)
class ToolChecks:
    """What a tool module declares for the registry-wide tests (test_every_tool.py)."""

    # One fault per code per field, with its whole message; the typed function (the tool's
    # in the registry) is called with each row it takes and must raise as the envelope says.
    errors: Sequence[ErrorRow] = ()
    typed_faults: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)  # code: input
    unchanged: object = None  # an input that execute must leave as given


@dataclass(frozen=True)
class ToolHarness:
    """One tool version and the valid base input its tests change one key at a time."""

    tool: tuple[str, str]
    base: Mapping[str, Any]
    semantics_tests: dict[int, str] = field(default_factory=dict)  # line index: test name
    checks: list[ToolChecks] = field(default_factory=list)  # at most one, see declare()

    def __post_init__(self) -> None:
        HARNESSES.append(self)

    @property
    def name(self) -> str:
        """The tool version as the test ids name it: "chrf-compute@1.0.0"."""
        return "@".join(self.tool)

    @property
    def declared(self) -> ToolChecks:
        """What the module declared (nothing if it declared nothing)."""
        return self.checks[0] if self.checks else ToolChecks()

    def declare(
        self, errors: Sequence[ErrorRow], *, errors_line: int | None = None, **checks: Any
    ) -> None:
        """Declare the tool's tables for the registry-wide tests (``errors`` and the other
        fields of ToolChecks); ``errors_line`` is the semantics line the error table covers,
        if it is one."""
        assert not self.checks, f"{self.name} declared twice"
        self.checks.append(ToolChecks(errors, **checks))
        if errors_line is not None:
            self.semantics_line(errors_line)(_error_table_test)

    def input_with(self, **changes: Any) -> dict[str, Any]:
        """The base input with ``changes`` (a key set to ``...`` is removed)."""
        data = {**self.base, **changes}
        return {k: v for k, v in data.items() if v is not ...}

    def missing(self, key: str) -> ErrorRow:
        """The error table's row for the base input without the required ``key``."""
        path = f"/{key}"
        message = f'Missing required key "{key}".'
        return key, "invalid_input", "missing", self.input_with(**{key: ...}), path, message

    def common(self, field: str, *cases: str) -> list[ErrorRow]:
        """The error table's rows for ``field``'s ``cases`` as :data:`COMMON_FAULTS` words
        them, on this tool's base input."""
        rows: list[ErrorRow] = []
        for case in cases:
            code, changes, path, message = COMMON_FAULTS[field, case]
            raw = None if changes is None else self.input_with(**changes)
            rows.append((field, code, case, raw, path, message))
        return rows

    def run(self, **changes: Any) -> dict[str, Any]:
        """The result object for the base input with ``changes``."""
        return result_of(self.tool[0], self.input_with(**changes), self.tool[1])

    def outputs(self, key: str, *changes: Mapping[str, Any]) -> list[Any]:
        """The result's ``key`` for the base input with each of ``changes`` in turn."""
        return [self.run(**c)[key] for c in changes]

    def orders_used(self, data: Mapping[str, Any], max_order: int) -> list[Any]:
        """A BLEU tool's orders_used for the base input with ``data``: as given, with
        effective_order, with effective_order and method2, and with ``max_order``."""
        effective = {**data, "effective_order": True}
        return self.outputs(
            "orders_used",
            data,
            effective,
            {**effective, "smoothing": "method2"},
            {**data, "max_order": max_order},
        )

    def smoothed(self, methods: Iterable[str], **changes: Any) -> dict[str, tuple[Any, Any]]:
        """{method: (smoothed_matches, smoothed_totals)} of a BLEU tool's result for the base
        input with ``changes`` and each smoothing method."""
        results = {m: self.run(**changes, smoothing=m) for m in methods}
        return {m: (r["smoothed_matches"], r["smoothed_totals"]) for m, r in results.items()}

    def error(self, raw: object) -> tuple[str, str, str]:
        """(code, path, message) of the error envelope for ``raw``."""
        envelope = mtcompute.execute(*self.tool, raw)
        assert "error" in envelope, envelope
        e = envelope["error"]
        return e["code"], e["path"], e["message"]

    def assert_codes(self, cases: Sequence[tuple[object, tuple[str, str]]]) -> None:
        """Each raw input of ``cases`` gives an error envelope with its (code, path)."""
        assert [expected for _, expected in cases] == [self.error(raw)[:2] for raw, _ in cases]

    def validation_pair_test(
        self, pairs: Sequence[tuple[str, object, str, str, str]]
    ) -> Callable[..., None]:
        """The test of ``pairs`` (case, a raw input that breaks two rules, and the code, path
        and message of its error), one test per case: bind it to a ``test_`` name."""

        @pytest.mark.parametrize(
            ("case", "raw", "code", "path", "message"), pairs, ids=[p[0] for p in pairs]
        )
        def test_validation_order_pair(
            case: str, raw: object, code: str, path: str, message: str
        ) -> None:
            """Two faults at once: the earlier check in the contract's order gives the error."""
            assert (code, path, message) == self.error(raw)

        return test_validation_order_pair

    def typed_example(self, function: Callable[..., Any]) -> tuple[Any, Any]:
        """(output, typed result): the contract's first example's output, and the typed
        ``function`` called with that example's input keys."""
        example = contract(*self.tool)["examples"][0]
        return example["output"], function(**example["input"])

    def corpus_order_cases(self, **fault: Any) -> list[tuple[object, str]]:
        """(raw input, error path): the first validation order cases of the tools on texts
        with references per segment (sacrebleu-score, ter-compute), each with ``fault`` (a
        later option's fault) too; the base input's references are two segments'."""
        first = self.base["references"][0]
        return [
            ({"zz": 1}, "/zz"),
            ({"hypotheses": 1}, "/references"),  # every missing key before any value
            (self.input_with(hypotheses=["\ud800"] * 4097, **fault), "/hypotheses"),
            (self.input_with(references=[["\ud800"]], **fault), "/references"),  # counts first
            (self.input_with(references=[_ONE_OVER, ["\ud800"]], **fault), ""),  # bytes first
            (self.input_with(references=[first, ["\ud800"]], **fault), "/references/1/0"),
        ]

    def assert_paths(self, cases: Sequence[tuple[object, str]]) -> None:
        """Each raw input of ``cases`` gives an error envelope with its path."""
        assert [path for _, path in cases] == [self.error(raw)[1] for raw, _ in cases]

    def assert_raises_as_envelope(
        self, code: str, raw: Mapping[str, Any], function: Callable[..., object]
    ) -> None:
        """The typed ``function`` called with ``raw``'s keys raises the class of ``code``,
        with the code, path and message of the envelope for ``raw``."""
        with pytest.raises(EXCEPTIONS[code]) as info:
            function(**raw)
        raised = info.value
        assert (code, self.error(raw)) == (raised.code, (raised.code, raised.path, raised.message))

    def assert_not_mutated(self, raw: object) -> dict[str, Any]:
        """execute leaves ``raw`` as it was: the same JSON text (Python's, which tells 4.0 from
        4 and keeps the key order) before and after; the envelope."""
        before = json.dumps(raw)
        envelope = mtcompute.execute(*self.tool, raw)
        assert before == json.dumps(raw)
        return envelope

    def assert_frozen(self, result: object, name: str) -> None:
        """A typed result is frozen: setting its field ``name`` raises AttributeError."""
        with pytest.raises(AttributeError):
            setattr(result, name, getattr(result, name))

    def semantics_line(self, index: int) -> Callable[[TestFunction], TestFunction]:
        """Mark a test as the one for the contract's semantics line ``index`` (from 0)."""

        def mark(test: TestFunction) -> TestFunction:
            assert index not in self.semantics_tests, (index, self.semantics_tests[index])
            self.semantics_tests[index] = test.__name__
            return test

        return mark

    def assert_every_semantics_line_tested(self) -> None:
        """Each semantics line of the contract has a test marked with :meth:`semantics_line`."""
        assert list(range(len(contract(*self.tool)["semantics"]))) == sorted(self.semantics_tests)


def _error_table_test() -> None:
    """Stands for test_every_tool.py's error table test when a semantics line is marked."""


_error_table_test.__name__ = "test_every_tool.test_error_table"


def error_table(rows: Sequence[ErrorRow]) -> pytest.MarkDecorator:
    """Parametrize a test over a tool's error table, with ids "field > code > case"."""
    return pytest.mark.parametrize(
        ("field", "code", "case", "raw", "path", "message"),
        rows,
        ids=[f"{row[0]} > {row[1]} > {row[2]}" for row in rows],
    )


def scored(result: Mapping[str, Any]) -> tuple[str, str, list[str]]:
    """(score, score_fraction, segment_scores) of a chrF result."""
    return result["score"], result["score_fraction"], result["segment_scores"]


def contract_whitespace(line: str) -> set[str]:
    """The whitespace code points a chrF semantics line lists (U+XXXX and U+XXXX-U+YYYY)."""
    listed = line.split("whitespace code point:")[1].split("(the Python", maxsplit=1)[0]
    points: set[str] = set()
    for first, last in re.findall(r"U\+([0-9A-F]{4})(?:-U\+([0-9A-F]{4}))?", listed):
        points.update(chr(c) for c in range(int(first, 16), int(last or first, 16) + 1))
    return points


def wmt_pairs() -> list[str]:
    """Every pair directory under the WMT folder, as "testset/pair"."""
    return sorted(str(p.relative_to(WMT)) for p in WMT.glob("*/*") if p.is_dir())


def read_lines(path: Path) -> list[str]:
    """The segments of one file: its text split on \\n, without a final empty line."""
    lines = path.read_text(encoding="utf-8").split("\n")
    return lines[:-1] if lines[-1] == "" else lines


# --- real WMT data: the BLEU tools' tokenized corpora, the chrF tools' texts ---------------


def wmt_tokens(line: str) -> list[str]:
    """Whitespace-split tokens of a WMT line (Python's str.split(), as sacreBLEU's
    tokenize='none'), a token over 128 UTF-8 bytes (unsegmented Chinese and Japanese) cut into
    pieces of at most 128 bytes at code point boundaries."""
    out: list[str] = []
    for token in line.split():
        data = token.encode("utf-8")
        while len(data) > MAX_TOKEN_BYTES:
            cut = MAX_TOKEN_BYTES
            while data[cut] & 0xC0 == 0x80:  # not inside a UTF-8 sequence
                cut -= 1
            out.append(data[:cut].decode("utf-8"))
            data = data[cut:]
        out.append(data.decode("utf-8"))
    return out


@dataclass(frozen=True)
class WmtCorpus:
    """One system's output and the references of its pair, tokenized."""

    name: str
    hypotheses: list[list[str]]
    references: list[list[list[str]]]  # references[i][j]: reference j of segment i


@cache
def wmt_corpora(pair: str) -> tuple[WmtCorpus, ...]:
    """Every system of a pair against all its references (tokenized files with tokenized
    references: newstest2015-nltk100 has both)."""
    folder = WMT / pair
    corpora = []
    for tok in ("", ".tok"):
        refs = [
            read_lines(p)
            for p in sorted(folder.glob("ref.*.txt"))
            if p.name.endswith(".tok.txt") == bool(tok)
        ]
        for system in sorted(folder.glob("sys.*.txt")):
            if system.name.endswith(".tok.txt") != bool(tok):
                continue
            lines = read_lines(system)
            assert all(len(r) == len(lines) for r in refs)
            corpora.append(
                WmtCorpus(
                    f"{pair}/{system.name}",
                    [wmt_tokens(line) for line in lines],
                    [[wmt_tokens(r[i]) for r in refs] for i in range(len(lines))],
                )
            )
    return tuple(corpora)


@cache
def wmt_system(pair: str, k: int) -> tuple[str, tuple[str, ...], tuple[str, ...]]:
    """(name, hypotheses, references) of the pair's k-th system (modulo the number of systems)
    against its first reference; untokenized files only."""
    folder = WMT / pair
    systems = sorted(p for p in folder.glob("sys.*.txt") if not p.name.endswith(".tok.txt"))
    reference = sorted(p for p in folder.glob("ref.*.txt") if not p.name.endswith(".tok.txt"))[0]
    system = systems[k % len(systems)]
    hypotheses, references = tuple(read_lines(system)), tuple(read_lines(reference))
    assert len(hypotheses) == len(references)
    return f"{pair}/{system.name}", hypotheses, references


def tool_chunks(hypotheses: Sequence[str], references: Sequence[str]) -> Iterator[range]:
    """Consecutive index ranges within the tool's limits: at most 256 segments and 65,536
    UTF-8 bytes of text (every WMT segment fits alone)."""
    start, size = 0, 0
    for i, (h, r) in enumerate(zip(hypotheses, references, strict=True)):
        length = len(h.encode()) + len(r.encode())
        if i - start == 256 or size + length > 65_536:
            yield range(start, i)
            start, size = i, 0
        size += length
    if start < len(hypotheses):
        yield range(start, len(hypotheses))


# --- sacreBLEU 2.6.0 as the BLEU tools' reference ---------------------------------------------

SACRE_METHOD = {"none": "none", "method1": "floor", "method2": "add-k", "method3": "exp"}


@cache
def sacre_bleu(
    smoothing: str,
    epsilon: float | None = None,
    max_order: int = 4,
    effective_order: bool = False,
) -> BLEU:
    """sacreBLEU 2.6.0 BLEU with tokenize='none' and the mapped smoothing: none, floor
    (smooth_value epsilon, default 0.1), add-k (smooth_value 1), exp."""
    value = {"method1": 0.1 if epsilon is None else epsilon, "method2": 1}.get(smoothing)
    return BLEU(
        tokenize="none",
        smooth_method=SACRE_METHOD[smoothing],
        smooth_value=value,
        max_ngram_order=max_order,
        effective_order=effective_order,
        force=True,
    )


def sacre_streams(references: Sequence[Sequence[Sequence[str]]]) -> list[list[str]]:
    """Per-segment reference lists as sacreBLEU's reference streams (stream j = reference j of
    every segment; all segments have the same number of references here)."""
    count = len(references[0])
    assert all(len(refs) == count for refs in references)
    return [[" ".join(refs[j]) for refs in references] for j in range(count)]


def close(expected: float, actual: float) -> bool:
    """Equal up to the last bits of the float steps (sacreBLEU: percent, C library log/exp)."""
    return math.isclose(expected, actual, rel_tol=1e-12, abs_tol=0.0)


def sacre_score(corpus: WmtCorpus, smoothing: str, **options: Any) -> Any:
    """sacreBLEU's corpus_score of a corpus with the mapped smoothing and options."""
    return sacre_bleu(smoothing, **options).corpus_score(
        [" ".join(h) for h in corpus.hypotheses], sacre_streams(corpus.references)
    )
