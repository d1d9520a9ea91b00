"""/docs: Swagger UI over /openapi.json, its files served by this server (the pinned
openapi-ui-bundles package, no CDN), under a CSP without 'unsafe-inline'."""

from __future__ import annotations

import re
from typing import Any

import httpx
from playwright.sync_api import Browser, ConsoleMessage

from mtcompute.server.api_docs import ASSETS, DOCS_CSP
from mtcompute.server.middleware import API_CSP
from tests.conftest import fresh_page

METHODS = {"get", "put", "post", "delete", "patch", "head", "options", "trace"}


def test_the_page_and_its_files_are_served_from_this_server(server_url: str) -> None:
    """GET /docs is HTML under DOCS_CSP (scripts and styles 'self' only, no inline script);
    every script, stylesheet and icon it names is a /docs/ file this server answers with its
    media type; any other name under /docs/ is the JSON 404."""
    page = httpx.get(f"{server_url}/docs", timeout=30)
    assert (200, "text/html; charset=utf-8", DOCS_CSP) == (
        page.status_code,
        page.headers["content-type"],
        page.headers["content-security-policy"],
    )
    assert "'unsafe-inline'" not in DOCS_CSP
    assert [] == re.findall(r"<script(?![^>]*\bsrc=)[^>]*>", page.text)
    named = re.findall(r'<(?:script src|link rel="(?:stylesheet|icon)" href)="([^"]+)"', page.text)
    assert sorted(f"/docs/{name}" for name in ASSETS) == sorted(named)
    for path in named:
        asset = httpx.get(server_url + path, timeout=30)
        assert (200, ASSETS[path.rsplit("/", 1)[1]], API_CSP) == (
            asset.status_code,
            asset.headers["content-type"],
            asset.headers["content-security-policy"],
        )
        assert len(asset.content) > 100
    missing = httpx.get(f"{server_url}/docs/index.html", timeout=30)
    assert (404, "not_found") == (missing.status_code, missing.json()["error"]["code"])


def test_swagger_ui_lists_every_operation_without_a_csp_error(
    server_url: str, browser: Browser
) -> None:
    """In Chromium, /docs renders the API's title and one block per operation of
    /openapi.json, and the console shows no Content-Security-Policy violation."""
    document: dict[str, Any] = httpx.get(f"{server_url}/openapi.json", timeout=30).json()
    operations = sorted(
        f"{method.upper()} {path}"
        for path, item in document["paths"].items()
        for method in item
        if method in METHODS
    )
    violations: list[str] = []

    def console(message: ConsoleMessage) -> None:
        if "Content Security Policy" in message.text or message.type == "error":
            violations.append(message.text)

    with fresh_page(browser, 30_000) as page:
        page.on("console", console)
        page.goto(f"{server_url}/docs")
        page.wait_for_selector(".opblock")
        title = page.locator(".info .title").inner_text()
        shown = page.locator(".opblock-summary").evaluate_all(
            "blocks => blocks.map(b => b.querySelector('.opblock-summary-method').innerText"
            " + ' ' + b.querySelector('.opblock-summary-path').getAttribute('data-path'))"
        )
    assert document["info"]["title"] in title
    assert (operations, []) == (sorted(shown), violations)
