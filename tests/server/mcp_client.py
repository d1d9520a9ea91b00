"""The SDK's MCP client on the test server, over either transport and in either protocol era:
the modules that drive the MCP surface through the SDK share one way of connecting and one
module-scoped ``client`` fixture."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager

import pytest
from mcp import Client, StdioServerParameters

from tests.conftest import cli_command


@asynccontextmanager
async def mcp_client(server_url: str, transport: str, mode: str) -> AsyncIterator[Client]:
    """An initialized SDK client in protocol ``mode`` (``legacy`` or ``auto``): on
    ``{server_url}/mcp`` when ``transport`` is ``http``, else (``stdio``) spawning
    ``mtcompute mcp``."""
    server: str | StdioServerParameters
    if transport == "http":
        server = f"{server_url}/mcp"
    else:
        command = cli_command()
        # The SDK passes the child only a few variables (HOME, PATH, ...); keep PYTHONPATH so
        # that the server imports the same mtcompute as this test run.
        env = {"PYTHONPATH": os.environ["PYTHONPATH"]} if "PYTHONPATH" in os.environ else None
        server = StdioServerParameters(command=command[0], args=[*command[1:], "mcp"], env=env)
    async with Client(server, mode=mode, read_timeout_seconds=30) as connected:
        yield connected


def client_fixture(connections: Sequence[object]) -> object:
    """A module-scoped ``client`` fixture, to be assigned to the name ``client``: one
    parameter per ``(transport, mode)`` of ``connections``, each connection opened once for
    the module and shared by its tests (the module needs a module-scoped ``anyio_backend``, so
    that one event loop serves them all)."""

    @pytest.fixture(scope="module", params=connections)
    async def client(request: pytest.FixtureRequest, server_url: str) -> AsyncIterator[Client]:
        """An initialized SDK client: on ``{server_url}/mcp``, or spawning ``mtcompute mcp``."""
        async with mcp_client(server_url, *request.param) as connected:
            yield connected

    return client
