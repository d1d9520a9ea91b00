"""The bare endpoint for the HTTP rows of ``benchmarks/run.py``.

A minimal Starlette app on the same stack as ``mtcompute serve`` (Starlette under uvicorn, one
worker, the same uvicorn defaults): ``POST /execute`` reads the whole body and answers a fixed
small JSON object, so the measured rate is the server stack's ceiling on this machine. Run by
``run.py`` as ``python -m uvicorn bare_app:app --app-dir benchmarks``.
"""

from __future__ import annotations

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

BODY = b'{"result":{"ok":true}}'


async def execute(request: Request) -> Response:
    """Read the body (as the real endpoint does), then answer the fixed JSON."""
    await request.body()
    return Response(BODY, media_type="application/json")


async def healthz(_request: Request) -> Response:
    """Readiness probe used by ``run.py`` before it starts the clock."""
    return Response(b'{"ok":true}', media_type="application/json")


app = Starlette(
    routes=[
        Route("/execute", execute, methods=["POST"]),
        Route("/healthz", healthz, methods=["GET"]),
    ]
)
