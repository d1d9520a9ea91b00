"""``/docs``: the HTTP API's interactive documentation, Swagger UI reading ``/openapi.json``.

Swagger UI's files come from the pinned package ``openapi-ui-bundles`` (the ``server``
extra; Swagger UI 5, which reads OpenAPI 3.1) and are served from this server under
``/docs/``: no CDN, nothing loaded from elsewhere. The page runs no inline script: its
start-up is a file too (``templates/api_docs_init.js``; the page is
``templates/api_docs.html``), so its Content-Security-Policy
(:data:`DOCS_CSP`) allows scripts and styles from this origin only ('self'), without
'unsafe-inline'; "Try it out" requests go to this server only (``connect-src 'self'``).
"""

from __future__ import annotations

__all__ = ["ASSETS", "DOCS_CSP", "DOCS_PATH", "routes"]

from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import Final

from openapi_ui_bundles import swagger_ui
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

from mtcompute.errors import NotFound
from mtcompute.server.responses import error_response

DOCS_PATH: Final = "/docs"

ASSETS: Final[dict[str, str]] = {
    "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
    "swagger-ui.css": "text/css; charset=utf-8",
    "init.js": "text/javascript; charset=utf-8",
    "favicon-32x32.png": "image/png",
}
"""The files under ``/docs/`` (only these names) and their media types: Swagger UI's, and
``init.js``, its start-up (templates/api_docs_init.js: an inline script would need a hash or
'unsafe-inline')."""

_TEMPLATES: Final = files("mtcompute.server") / "templates"

DOCS_CSP: Final = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
)
"""The page's Content-Security-Policy: its scripts and styles are this server's files;
Swagger UI's icons are ``data:`` images in its CSS."""

_CACHE: Final = "public, max-age=3600"


@cache
def _asset(name: str) -> bytes:
    """The bytes of an asset or of the page (read once)."""
    if name == "init.js":
        return (_TEMPLATES / "api_docs_init.js").read_bytes()
    if name == "api_docs.html":
        return (_TEMPLATES / name).read_bytes()
    return (Path(swagger_ui.static_path) / name).read_bytes()


async def docs_page(request: Request) -> Response:
    """GET /docs: the Swagger UI page."""
    del request
    return HTMLResponse(
        _asset("api_docs.html"),
        headers={"Content-Security-Policy": DOCS_CSP, "Cache-Control": _CACHE},
    )


async def docs_asset(request: Request) -> Response:
    """GET /docs/{name}: one of :data:`ASSETS`, verbatim."""
    name = request.path_params["name"]
    if name not in ASSETS:
        return error_response(NotFound(f"No such path: {request.url.path[:200]}."))
    return Response(_asset(name), media_type=ASSETS[name], headers={"Cache-Control": _CACHE})


def routes() -> list[Route]:
    """The page's route and its files' route."""
    return [
        Route(DOCS_PATH, docs_page, methods=["GET"]),
        Route(DOCS_PATH + "/{name}", docs_asset, methods=["GET"]),
    ]
