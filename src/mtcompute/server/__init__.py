"""Network surfaces: the ASGI app (HTTP API, MCP, pages) and how to run it."""
