"""The search's "no tool does this" answer on every network surface, through real clients:
HTTP (``GET /v1/tools?q=`` against a running server), MCP (``search_catalog`` through the
SDK's client), and the home page's search box in headless Chromium. Each shows the one
answer :func:`mtcompute.search.search_answer` builds (the CLI's is in
tests/cli/test_search_cli.py)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from mcp import Client
from playwright.sync_api import Browser, expect

import mtcompute
from mtcompute.search import search_answer
from mtcompute.server.app import search_body
from tests.conftest import fresh_page

NOT_DONE_QUERY = "BERTScore entre mes traductions et les références"
"""French, for a thing no tool does: the answer is supported false, its reason BERTScore's."""
REASON = "BERTScore compares contextual embeddings of a neural model; no tool here computes it."
METRICS = ["BLEU", "chrF", "chrF++", "TER", "WER", "CER"]


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    """One asyncio loop for the module's MCP test."""
    return "asyncio"


def _summary(answer: dict[str, Any], key: str) -> tuple[Any, ...]:
    """(supported, reason, not-done names, metrics, whether any result is a fit)."""
    return (
        answer["supported"],
        answer["reason"],
        [thing["name"] for thing in answer["not_done"]],
        answer["metrics"],
        any(not result["alternative"] for result in answer[key]),
    )


EXPECTED = (False, REASON, ["BERTScore"], METRICS, False)


def test_http_search_says_no_tool_does_this(server_url: str) -> None:
    """GET /v1/tools?q= answers supported false with the reason, the catalog's metrics and
    only alternatives, each with its links: the bytes of search_body."""
    with httpx.Client(base_url=server_url, timeout=30) as client:
        response = client.get("/v1/tools", params={"q": NOT_DONE_QUERY})
    body = response.json()
    assert (200, mtcompute.dumps(search_body(NOT_DONE_QUERY)), EXPECTED, True) == (
        response.status_code,
        response.text,
        _summary(body, "tools"),
        all("links" in tool for tool in body["tools"]),
    )


@pytest.mark.anyio
async def test_mcp_search_catalog_says_no_tool_does_this(server_url: str) -> None:
    """search_catalog through the SDK's client answers the same, as structured content and
    as text, at most 5 results (its default limit)."""
    async with Client(f"{server_url}/mcp", read_timeout_seconds=30) as client:
        result = await client.call_tool("search_catalog", {"query": NOT_DONE_QUERY})
    expected = search_answer(NOT_DONE_QUERY, 5).as_json()
    text = result.content[0].text if result.content[0].type == "text" else ""
    assert (expected, mtcompute.dumps(expected), False, EXPECTED) == (
        result.structured_content,
        text,
        result.is_error,
        _summary(result.structured_content or {}, "results"),
    )


def test_page_search_box_says_no_tool_does_this(browser: Browser, server_url: str) -> None:
    """Typing the query in the search box of / and pressing Enter shows that no tool does
    it, the reason, the catalog's metrics, and the nearest tools marked as alternatives; the
    page fits a phone without sideways scroll."""
    with fresh_page(browser, 10_000, java_script_enabled=False) as page:
        page.goto(server_url + "/")
        page.get_by_label("Search the catalog").fill(NOT_DONE_QUERY)
        page.get_by_label("Search the catalog").press("Enter")
        page.wait_for_url("**/?q=*")
        notice = page.get_by_role("status")
        expect(notice).to_contain_text("No tool here does this.")
        notice_text = notice.inner_text()
        cards = page.locator(".results .card")
        labels = cards.locator(".meta .label").all_inner_texts()
        count = cards.count()
        first_note = cards.first.locator(".note").inner_text()
        page.set_viewport_size({"width": 375, "height": 812})
        widths: list[int] = page.evaluate(
            "[document.documentElement.scrollWidth, window.innerWidth]"
        )
    answer = search_answer(NOT_DONE_QUERY)
    assert (
        True,
        True,
        True,
        ["Alternative, not a fit"] * count,
        answer.results[0].note,
        True,
    ) == (
        REASON in notice_text,
        f"The catalog computes: {', '.join(METRICS)}." in notice_text,
        count > 0,
        labels,
        first_note,
        widths[0] <= widths[1],
    )
