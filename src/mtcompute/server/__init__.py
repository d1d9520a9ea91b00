"""Network surfaces: the ASGI app (HTTP API, MCP, pages) and how to run it.

- :mod:`~mtcompute.server.app`: the Starlette application and its routes (``create_app``);
- :mod:`~mtcompute.server.middleware`: access log, CORS, limits, body deadline, body cap;
- :mod:`~mtcompute.server.limits`: the rate limit and the API keys;
- :mod:`~mtcompute.server.access_log`: the access log's logging set-up (queue, JSON lines);
- :mod:`~mtcompute.server.responses`: JSON, envelope and error responses;
- :mod:`~mtcompute.server.mcp`: the MCP server (streamable HTTP at ``/mcp``, and stdio);
- :mod:`~mtcompute.server.openapi`: the OpenAPI document;
- :mod:`~mtcompute.server.pages`: the HTML catalog pages;
- :mod:`~mtcompute.server.protocol`: uvicorn's HTTP protocol with request-head limits.
"""
