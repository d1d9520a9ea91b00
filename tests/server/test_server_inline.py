"""The fast execute path: each tool's cost estimate (mtcompute.tools._cost) admits on the event
loop only small inputs, the heaviest valid inputs go to a worker thread, the estimate grows
with the input, and the server takes the thread hop exactly when the estimate says so."""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable
from typing import Any

import anyio
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

import mtcompute
import mtcompute.server.executor as executor_module
from mtcompute import execute
from mtcompute._execute import INLINE_BUDGET, is_cheap
from mtcompute.contracts import contract
from mtcompute.core.jsjson import loads
from mtcompute.server.app import create_app
from mtcompute.server.mcp import _call_execute
from mtcompute.tools import get_tool, list_tools
from mtcompute.tools._cost import OVER, size
from tests import strategies as sts
from tests.conftest import load_script

TOOLS = [(tool.id, tool.version) for tool in list_tools()]
SEED_TOOLS = ["bleu-smoothing-compute", "bleu-sentence-components", "chrf-compute"]

# Each contract example: True where it runs on the event loop. The ones on a worker are those
# whose work is measured above the budget (a millisecond): the resampling tests, TER, every
# metric of sacrebleu-score at once, chrF with word n-grams over longer texts.
EXAMPLES_INLINE = {
    "bleu-brevity-penalty@1.0.0": [True],
    "bleu-corpus-compute@1.0.0": [True, True],
    "bleu-ngrams-count@1.0.0": [True, True],
    "bleu-sentence-components@1.0.0": [True],
    "bleu-sentence-compute@1.0.0": [True],
    "bleu-smoothing-compute@1.0.0": [True],
    "bleu-tokenize@1.0.0": [True, True, True],
    "chrf-components@1.0.0": [True, True, False],
    "chrf-compute@1.0.0": [True, True],
    "chrf-plus-plus-compute@1.0.0": [True, True],
    "paired-significance@1.0.0": [False, False, False],
    "sacrebleu-score@1.0.0": [False, False, True],
    "sacrebleu-score@1.1.0": [False, False, True, False, False],
    "system-ranking@1.0.0": [False, False, False],
    "system-ranking@1.1.0": [False, False, False, False, False],
    "ter-compute@1.0.0": [False, False, False],
    "wer-compute@1.0.0": [True, True, True, True],
}


def _words(count: int, width: int) -> list[str]:
    """``count`` distinct-ish tokens of ``width`` ASCII letters."""
    letters = "abcdefghijklmnopqrstuvwxyz"
    return ["".join(letters[(i // 26**k + k) % 26] for k in range(width)) for i in range(count)]


def _texts(segments: int, text_bytes: int) -> list[str]:
    """``segments`` texts of words, ``text_bytes`` ASCII bytes each."""
    words = " ".join(_words(text_bytes // 6 + 1, 5))[:text_bytes]
    return [words] * segments


def _heaviest() -> dict[str, object]:
    """Each tool's heaviest valid input: its limits' largest segments, texts, tokens, orders."""
    tokens = _words(61, 8)  # 4096 x 2 x 61 = 499,712 tokens of 8 bytes: under both limits
    sentence = _words(5000, 8)  # 10,000 tokens and 80,000 bytes in all
    chrf_texts = _texts(256, 128)  # 2 x 256 x 128 = 65,536 bytes
    sacre_texts = _texts(4096, 512)  # 4 MiB
    ter_texts = [" ".join(_words(1024, 4))] * 128  # 128 x 1024 words x 1 reference = 131,072
    wer_texts = _texts(512, 4096)  # 2 x 512 x 4096 = 4 MiB, texts of 4096 characters
    return {
        "bleu-brevity-penalty@1.0.0": {
            "candidate_lengths": [10**9] * 100_000,
            "reference_lengths": [[10**9] * 8] * 100_000,
            "decimals": 15,
        },
        "bleu-corpus-compute@1.0.0": {
            "hypotheses": [tokens] * 4096,
            "references": [[tokens]] * 4096,
            "max_order": 8,
            "smoothing": "method3",
        },
        "bleu-ngrams-count@1.0.0": {
            "hypotheses": [tokens] * 4096,
            "references": [[tokens]] * 4096,
            "max_order": 8,
        },
        "bleu-sentence-components@1.0.0": {
            "hypothesis": sentence,
            "references": [sentence],
            "max_order": 8,
        },
        "bleu-sentence-compute@1.0.0": {
            "hypothesis": sentence,
            "references": [sentence],
            "max_order": 8,
            "smoothing": "method1",
        },
        "bleu-smoothing-compute@1.0.0": {
            "matches": [10**12] * 8,
            "totals": [10**12] * 8,
            "candidate_length": 10**12,
            "reference_length": 10**12,
            "smoothing": "method3",
            "decimals": 15,
        },
        "bleu-tokenize@1.0.0": {"segments": _texts(4096, 1024), "tokenizer": "zh"},
        "chrf-components@1.0.0": {
            "hypotheses": chrf_texts,
            "references": chrf_texts,
            "char_order": 10,
            "word_order": 4,
            "averaging": "per_order_f",
        },
        "chrf-compute@1.0.0": {"hypotheses": chrf_texts, "references": chrf_texts},
        "chrf-plus-plus-compute@1.0.0": {"hypotheses": chrf_texts, "references": chrf_texts},
        # no estimate: any input goes to a worker; this one resamples 20,000 times
        "paired-significance@1.0.0": {
            **contract("paired-significance", "1.0.0")["examples"][0]["input"],
            "samples": 20_000,
        },
        "sacrebleu-score@1.0.0": {
            "hypotheses": sacre_texts,
            "references": [[t] for t in sacre_texts],
            "metrics": ["bleu", "chrf"],
        },
        "sacrebleu-score@1.1.0": {
            "hypotheses": ter_texts,
            "references": [[t] for t in ter_texts],
            "metrics": ["bleu", "chrf", "ter"],
        },
        # the measured worst case of its limits (docs/reliability.md's cost ceilings)
        "system-ranking@1.0.0": load_script("cost_ceilings").WORST[("system-ranking", "1.0.0")](),
        "system-ranking@1.1.0": load_script("cost_ceilings").WORST[("system-ranking", "1.1.0")](),
        "ter-compute@1.0.0": {"hypotheses": ter_texts, "references": [[t] for t in ter_texts]},
        "wer-compute@1.0.0": {
            "hypotheses": wer_texts,
            "references": wer_texts,
            "unit": "character",
            "lowercase": True,
            "remove_punctuation": True,
        },
    }


HEAVIEST = _heaviest()


def _examples(tool_id: str, version: str) -> list[Any]:
    return [example["input"] for example in contract(tool_id, version)["examples"]]


def test_contract_examples_inline_exactly_where_cheap() -> None:
    """Every seed tool's examples run on the event loop; every tool's examples are placed as
    the table says (the table covers the whole catalog)."""
    actual = {
        f"{tool_id}@{version}": [is_cheap(tool_id, version, raw) for raw in _examples(*key)]
        for key in TOOLS
        for tool_id, version in [key]
    }
    seeds = {k: v for k, v in actual.items() if k.split("@")[0] in SEED_TOOLS}
    assert (EXAMPLES_INLINE, True) == (actual, all(all(v) for v in seeds.values()))


@pytest.mark.parametrize("key", sorted(HEAVIEST))
def test_heaviest_valid_input_on_a_worker(key: str) -> None:
    """The heaviest input a tool's limits allow is valid and goes to a worker thread, except
    bleu-smoothing-compute's, whose work is bounded by its 8 orders (about 100 us)."""
    tool_id, version = key.split("@")
    raw = HEAVIEST[key]
    get_tool(tool_id, version).input.parse(raw)  # valid: raises on any fault
    expected = key == "bleu-smoothing-compute@1.0.0"
    assert expected == is_cheap(tool_id, version, raw)


def test_every_tool_has_a_heaviest_input() -> None:
    """The heaviest-input table covers the catalog (a new tool must add its row)."""
    assert sorted(f"{t}@{v}" for t, v in TOOLS) == sorted(HEAVIEST)


def _grown(raw: Any, factor: int) -> Any:
    """``raw`` with every list ``factor`` times as long and every string ``factor`` times
    repeated (words joined by a space), recursively: a larger input of the same shape."""
    if isinstance(raw, str):
        return " ".join([raw] * factor) if raw else raw
    if isinstance(raw, list):
        return [_grown(item, factor) for item in raw] * factor
    if isinstance(raw, dict):
        return {key: _grown(value, factor) for key, value in raw.items()}
    return raw


@pytest.mark.parametrize(("tool_id", "version"), TOOLS)
def test_estimate_grows_with_the_input(tool_id: str, version: str) -> None:
    """For every example, growing its lists and texts 1, 2, 3, 4 times never lowers the
    estimate and raises it in the end (a tool without an estimate: every example on a
    worker)."""
    tool = get_tool(tool_id, version)
    if tool.cost is None:
        examples = _examples(tool_id, version)
        assert [False] * len(examples) == [is_cheap(tool_id, version, raw) for raw in examples]
        return
    series = [
        [tool.estimate(_grown(raw, factor), 10**9) or 0 for factor in (1, 2, 3, 4)]
        for raw in _examples(tool_id, version)
    ]
    assert ([], []) == (
        [s for s in series if s != sorted(s)],
        [s for s in series if s[-1] <= s[0]],
    )


_TEXT_FORMS = {
    "compact": lambda value: mtcompute.dumps(value).encode("utf-8"),
    "ascii": lambda value: json.dumps(value, separators=(",", ":")).encode("ascii"),
    "indented": lambda value: json.dumps(value, indent=2, ensure_ascii=False).encode(
        "utf-8", "surrogatepass"
    ),
}


@settings(max_examples=400, deadline=None)
@given(sts.json_values(), st.sampled_from(sorted(_TEXT_FORMS)))
def test_a_json_text_has_at_least_size_bytes(value: object, form: str) -> None:
    """A JSON text never has fewer bytes than the size of the value read from it (so the
    length bounds a linear cost: Linear.of_json_length)."""
    text = _TEXT_FORMS[form](value)
    assume(form != "indented" or not re.search(rb"\xed[\xa0-\xbf]", text))  # not UTF-8
    assert size(loads(text), 10**9) <= len(text)


@pytest.mark.parametrize(("tool_id", "version"), TOOLS)
def test_estimate_from_the_json_length_never_undercounts(tool_id: str, version: str) -> None:
    """Given the length of the JSON text, every example's estimate is at least the walked
    one, and places it (on the loop or not) as the walk does."""
    tool = get_tool(tool_id, version)
    rows = []
    for raw in _examples(tool_id, version):
        length = len(mtcompute.dumps(raw).encode("utf-8"))
        walked = tool.estimate(raw, INLINE_BUDGET)
        bounded = tool.estimate(raw, INLINE_BUDGET, length)
        cheap = (walked is not None and walked <= INLINE_BUDGET,)
        rows.append((walked is None) == (bounded is None) and (walked or 0) <= (bounded or 0))
        rows.append(cheap == (bounded is not None and bounded <= INLINE_BUDGET,))
    assert [True] * len(rows) == rows


OPTIONS: list[tuple[str, str, str, list[object]]] = [
    ("bleu-corpus-compute", "1.0.0", "max_order", [1, 2, 4, 8]),
    ("bleu-ngrams-count", "1.0.0", "max_order", [1, 2, 4, 8]),
    ("bleu-ngrams-count", "1.0.0", "include_ngrams", [False, True]),
    ("bleu-sentence-components", "1.0.0", "max_order", [1, 4, 8]),
    ("bleu-sentence-components", "1.0.0", "include_ngrams", [False, True]),
    ("bleu-sentence-compute", "1.0.0", "max_order", [1, 4, 8]),
    ("bleu-tokenize", "1.0.0", "tokenizer", ["none", "13a", "zh", "ja-mecab"]),
    ("chrf-components", "1.0.0", "char_order", [1, 3, 6, 10]),
    ("chrf-components", "1.0.0", "word_order", [0, 1, 2, 4]),
    ("chrf-components", "1.0.0", "averaging", ["effective_order", "per_order_f"]),
    ("sacrebleu-score", "1.1.0", "metrics", [["bleu"], ["bleu", "chrf"], ["bleu", "chrf", "ter"]]),
]


@pytest.mark.parametrize(("tool_id", "version", "name", "values"), OPTIONS)
def test_estimate_grows_with_each_option(
    tool_id: str, version: str, name: str, values: list[object]
) -> None:
    """Options that add work (a higher order, n-gram tables, a slower tokenizer, more metrics)
    never lower the estimate of any example, and raise it from the first to the last value."""
    tool = get_tool(tool_id, version)
    series = [
        [tool.estimate({**raw, name: value}, 10**9) or 0 for value in values]
        for raw in _examples(tool_id, version)
    ]
    assert ([], []) == (
        [s for s in series if s != sorted(s)],
        [s for s in series if s[-1] <= s[0]],
    )


@pytest.mark.parametrize(
    "raw",
    [None, 3, "text", [], {"max_order": "8"}, {"max_order": 99}, {"include_ngrams": "yes"},
     {"hypotheses": {"a": 1}}, {"references": [[None]], "hypotheses": [5]}],
)  # fmt: skip
@pytest.mark.parametrize(("tool_id", "version"), TOOLS)
def test_estimate_never_fails_on_a_bad_input(tool_id: str, version: str, raw: object) -> None:
    """A malformed input gets an estimate (or none) without an exception, and the answer is
    the error envelope, whichever thread computes it."""
    tool = get_tool(tool_id, version)
    estimate = tool.estimate(raw, INLINE_BUDGET)
    assert (True, True) == (
        estimate is None or estimate >= 0,
        execute(tool_id, version, raw).is_error,
    )


def test_size_stops_at_the_cap() -> None:
    """size() counts values and characters exactly up to the cap, and answers cap + 1 past
    it without walking a long list (a million items, one step)."""

    class Untouchable(list[object]):
        def __iter__(self) -> Any:
            raise AssertionError("walked")

    huge = Untouchable([0] * 1_000_000)
    assert (1 + 3 + 1 + 1, 11, 11, 11) == (
        size({"abc": [7]}, 100),
        size({"abc": huge}, 10),
        size(huge, 10),
        size("x" * 50, 10),
    )


def test_unknown_tool_and_failing_estimate() -> None:
    """An unknown tool is cheap (its not_found costs nothing); a tool without an estimate,
    or past OVER, is not."""
    assert (True, False, False, True) == (
        is_cheap("no-such-tool", "1.0.0", {}),
        is_cheap("paired-significance", "1.0.0", {}),
        is_cheap("bleu-tokenize", "1.0.0", {"segments": ["a"], "tokenizer": "spm"}),
        OVER > INLINE_BUDGET,
    )


def _hops(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Record the tool and the worker ("moderate" or "heavy") of every worker-thread hop the
    executor takes."""
    hops: list[str] = []
    real = executor_module.anyio.to_thread.run_sync
    moderate, heavy = executor_module._lanes()

    async def recording(func: Callable[..., object], *args: Any, **kwargs: Any) -> object:
        if "limiter" in kwargs:  # not the app's other thread calls (closing the body worker)
            lane = {id(moderate): "moderate", id(heavy): "heavy"}[id(kwargs["limiter"])]
            hops.append(f"{args[1]} {lane}")  # (render, tool id, version, input)
        return await real(func, *args, **kwargs)

    monkeypatch.setattr(executor_module.anyio.to_thread, "run_sync", recording)
    return hops


def test_server_hops_to_a_worker_only_for_costly_inputs(monkeypatch: pytest.MonkeyPatch) -> None:
    """Over HTTP in-process: the seed examples answer without a worker-thread hop; a costly
    input goes to the moderate worker thread, one without an estimate to the heavy one, and a
    body over INLINE_BODY_BYTES to the body worker's process; every answer is the library's."""
    hops = _hops(monkeypatch)
    small = {"hypotheses": ["aa"], "references": ["ab"]}
    costly = {"hypotheses": ["a b c d " * 100], "references": ["a b"]}
    large = {"hypotheses": ["x" * executor_module.INLINE_BODY_BYTES], "references": ["x"]}
    inputs = [small, costly, large]
    paired = contract("paired-significance", "1.0.0")["examples"][2]
    app = create_app(access_log="off")
    with TestClient(app) as client:
        answers = [
            client.post("/v1/tools/chrf-compute/versions/1.0.0/execute", content=json.dumps(v))
            for v in inputs
        ]
        seeds = [
            client.post(f"/v1/tools/{tool}/versions/1.0.0/execute", json=raw)
            for tool in SEED_TOOLS
            for raw in _examples(tool, "1.0.0")
        ]
        resampled = client.post(
            "/v1/tools/paired-significance/versions/1.0.0/execute", json=paired["input"]
        )
        in_process = app.state.body_worker.answered
    expected = [execute("chrf-compute", "1.0.0", v).json_bytes() for v in inputs]
    assert (
        expected,
        ["chrf-compute moderate", "paired-significance heavy"],
        1,
        [200] * len(seeds),
        mtcompute.dumps({"result": paired["output"]}).encode(),
    ) == (
        [a.content for a in answers],
        hops,
        in_process,
        [a.status_code for a in seeds],
        resampled.content,
    )


def test_mcp_execute_takes_the_same_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """MCP's execute tool: a seed example without a hop, a costly input with one."""
    hops = _hops(monkeypatch)
    small = {"hypotheses": ["aa"], "references": ["ab"]}
    costly = {"hypotheses": ["a b c d " * 100], "references": ["a b"]}

    async def call() -> list[str]:
        out = []
        for value in (small, costly):
            arguments = {"id": "chrf-compute", "version": "1.0.0", "input": value}
            result = await _call_execute(arguments)
            out.append(result.content[0].text)  # type: ignore[union-attr]
        return out

    expected = [execute("chrf-compute", "1.0.0", v).json_text() for v in (small, costly)]
    assert (expected, ["chrf-compute moderate"]) == (anyio.run(call), hops)


def test_switch_interval_while_serving() -> None:
    """The app shortens the interpreter's switch interval while it serves, and restores it."""
    before = sys.getswitchinterval()
    with TestClient(create_app(access_log="off")):
        serving = sys.getswitchinterval()
    assert (executor_module.SWITCH_INTERVAL, before) == (serving, sys.getswitchinterval())
