"""Discovery over MCP: what an agent reads before its first call, through the SDK's client.

An agent that reads only the server instructions and ``tools/list`` must pick a tool that
takes raw text for raw sentences, and get the number sacreBLEU gives; and what it reads must
stay small: ``tools/list`` under 6,000 characters (docs/mcp.md gives the figures).
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

import httpx
import mcp_types as types
import pytest
import sacrebleu
from mcp import Client

from mtcompute.server.mcp_tools import instructions, tool_definitions
from tests.server.catalog_reading import newest, schema_kind
from tests.server.mcp_client import client_fixture

pytestmark = pytest.mark.anyio

CONNECTIONS = [
    pytest.param(("http", "legacy"), id="http-legacy"),
    pytest.param(("http", "auto"), id="http-auto"),
    pytest.param(("stdio", "auto"), id="stdio-auto"),
]

# Raw sentences, as a user has them: punctuation attached, contractions, quotes.
HYPOTHESES = [
    "The cat sat on the mat.",
    "It is raining in Berlin today, isn't it?",
    'He said: "We will not go."',
    "The committee approved the budget on Tuesday.",
]
REFERENCES = [
    "The cat sat on a mat.",
    "It's raining in Berlin today, isn't it?",
    'He said: "We won\'t go."',
    "On Tuesday the committee approved the budget.",
]
TASK_WORDS = ("corpus", "BLEU")  # the task: corpus BLEU of raw sentences

# What the instructions said before issue 26 (abridged): an agent reading them finds no tool
# for raw text, and sends sentences to the token tools.
OLD_INSTRUCTIONS = (
    "mtcompute: exact, deterministic machine-translation metrics (BLEU and chrF scores and "
    "their components) as versioned tools with machine-readable contracts. BLEU tools take "
    "tokenized text; nothing here tokenizes, normalizes or fetches text."
)

# The input schemas' structure (names, types, required, limits), descriptions left out: the
# lean tools/list shortened prose only.
INPUT_STRUCTURE = {
    "execute": {
        "type": "object",
        "properties": {
            "id": {"type": "string"},
            "version": {"type": "string"},
            "input": {"type": "object"},
        },
        "required": ["id", "version", "input"],
        "additionalProperties": False,
    },
    "list_catalog": {"type": "object", "properties": {}, "additionalProperties": False},
    "get_contract": {
        "type": "object",
        "properties": {"id": {"type": "string"}, "version": {"type": "string"}},
        "required": ["id", "version"],
        "additionalProperties": False,
    },
    "search_catalog": {
        "type": "object",
        "properties": {
            "query": {"type": "string", "minLength": 1, "maxLength": 500},
            "limit": {"type": "integer", "minimum": 1, "maximum": 50},
        },
        "required": ["query"],
        "additionalProperties": False,
    },
}
MAX_TOOLS_LIST = 6000


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    return "asyncio"


client = client_fixture(CONNECTIONS)


def choose_tool(
    instructions: str, tools: Sequence[types.Tool], task_words: Sequence[str]
) -> tuple[str, str] | None:
    """The catalog tool an agent picks for raw sentences, from the instructions and
    ``tools/list`` alone, deterministically:

    1. the instructions say which label the tools for raw sentences are listed under;
    2. the MCP tool that runs catalog tools is the one whose input takes id, version, input;
    3. its description's line for that label lists ``id@version (summary)`` entries;
    4. the entry whose summary has the most task words wins (the first on a tie).

    ``None`` when any step finds nothing.
    """
    label = re.search(r'Raw sentences go to an? "([^"]+)" tool', instructions)
    runner = next(
        (t for t in tools if set(t.input_schema.get("required", [])) == {"id", "version", "input"}),
        None,
    )
    if label is None or runner is None:
        return None
    line = next(
        (
            line
            for line in (runner.description or "").splitlines()
            if line.removeprefix("- ").startswith(label[1] + ":")
        ),
        "",
    )
    entries = re.findall(r"([a-z0-9-]+)@([0-9.]+) \(([^)]*)\)", line)
    scored = [
        (sum(word.lower() in summary.lower() for word in task_words), -index, tool_id, version)
        for index, (tool_id, version, summary) in enumerate(entries)
    ]
    best = max(scored, default=None)
    return None if best is None or best[0] == 0 else (best[2], best[3])


def raw_input(schema: dict[str, Any], metric: str) -> dict[str, Any]:
    """The input an agent writes from a contract's input schema for the raw sentences: the
    required fields, hypotheses as strings, references in the shape the schema asks for."""
    properties = schema["properties"]
    value: dict[str, Any] = {}
    for name in schema["required"]:
        if name == "hypotheses":
            value[name] = HYPOTHESES
        elif name == "references":
            nested = properties[name]["items"].get("type") == "array"
            value[name] = [[ref] for ref in REFERENCES] if nested else REFERENCES
        elif name == "metrics":
            value[name] = [metric]
    return value


def test_the_chooser_finds_nothing_in_the_old_instructions() -> None:
    """The chooser is not a constant: the old instructions give it nothing to go on."""
    execute = types.Tool(
        name="execute",
        description="- sacrebleu-score@1.1.0: Score raw MT output exactly as sacreBLEU.",
        input_schema=INPUT_STRUCTURE["execute"],
    )
    assert None is choose_tool(OLD_INSTRUCTIONS, [execute], TASK_WORDS)


def test_the_chooser_picks_the_ranking_tool_for_a_ranking() -> None:
    """With a ranking task's words the same chooser, on the same texts, picks system-ranking
    (the raw-text tools' summaries tell a ranking from a pair's p-values)."""
    chosen = choose_tool(instructions(), tool_definitions(), ("rank", "systems", "clusters"))
    assert ("system-ranking", newest("system-ranking")) == chosen


async def test_an_agent_picks_a_raw_text_tool_for_raw_sentences(client: Client) -> None:
    """From the instructions and tools/list alone the chooser picks the raw-text scorer
    (its contract's input is raw text), and execute on the raw sentences gives a BLEU above
    0 equal to sacreBLEU's; the same sentences sent to a token tool, one token per sentence
    (what the old instructions led to), give 0."""
    listed = (await client.list_tools()).tools
    chosen = choose_tool(client.instructions or "", listed, TASK_WORDS)
    assert ("sacrebleu-score", newest("sacrebleu-score")) == chosen
    tool_id, version = chosen
    document = await client.call_tool("get_contract", {"id": tool_id, "version": version})
    assert document.structured_content is not None
    schema = document.structured_content["input_schema"]
    answer = await client.call_tool(
        "execute", {"id": tool_id, "version": version, "input": raw_input(schema, "bleu")}
    )
    token_tool = await client.call_tool(
        "execute",
        {
            "id": "bleu-corpus-compute",
            "version": newest("bleu-corpus-compute"),
            "input": {
                "hypotheses": [[h] for h in HYPOTHESES],
                "references": [[[r]] for r in REFERENCES],
            },
        },
    )
    assert answer.structured_content is not None
    assert token_tool.structured_content is not None
    score = answer.structured_content["result"]["bleu"]["score"]
    expected = sacrebleu.corpus_bleu(HYPOTHESES, [REFERENCES]).score
    assert ("raw text", False, expected, 0.0) == (
        schema_kind(schema),
        answer.is_error,
        score,
        token_tool.structured_content["result"]["bleu"],
    )
    assert score > 0


async def test_tools_list_is_lean(client: Client) -> None:
    """tools/list, as the client holds it, is under 6,000 characters of JSON written as
    it is sent (compact; in the newest protocol era with the server info it carries); each
    description fits one screen; field descriptions are short; the input schemas keep their
    structure; execute's description says the full contract is one get_contract away."""
    listed = await client.list_tools()
    text = json.dumps(
        listed.model_dump(mode="json", by_alias=True, exclude_none=True),
        separators=(",", ":"),
        ensure_ascii=False,
    )
    tools = {tool.name: tool for tool in listed.tools}
    long_fields = [
        (name, field)
        for name, tool in tools.items()
        for field, schema in tool.input_schema.get("properties", {}).items()
        if len(schema.get("description", "")) > 60
    ]
    structure = {
        name: {
            **tool.input_schema,
            "properties": {
                field: {k: v for k, v in schema.items() if k != "description"}
                for field, schema in tool.input_schema.get("properties", {}).items()
            },
        }
        for name, tool in tools.items()
    }
    description = tools["execute"].description or ""
    assert (True, [], [], INPUT_STRUCTURE, True) == (
        len(text) < MAX_TOOLS_LIST,
        [n for n, t in tools.items() if len(t.description or "") > 1200],
        long_fields,
        structure,
        "get_contract" in description and len(description.splitlines()) <= 12,
    )


def test_tools_list_response_is_under_6k_characters(server_url: str) -> None:
    """The tools/list response body on the wire (a POST to /mcp) is under 6,000 characters,
    and the instructions with it (what an agent reads to discover) under 7,500."""
    headers = {"accept": "application/json, text/event-stream", "content-type": "application/json"}
    listing = httpx.post(
        server_url + "/mcp",
        content=b'{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
        headers=headers,
        timeout=30,
    )
    hello = {"protocolVersion": "2025-11-25", "capabilities": {}}
    initialize = httpx.post(
        server_url + "/mcp",
        json={
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {**hello, "clientInfo": {"name": "measure", "version": "1"}},
        },
        headers=headers,
        timeout=30,
    )
    instructions = initialize.json()["result"]["instructions"]
    tools = listing.json()["result"]["tools"]
    assert (200, 4, True, True) == (
        listing.status_code,
        len(tools),
        len(listing.text) < MAX_TOOLS_LIST,
        len(listing.text) + len(instructions) < 7500,
    )
