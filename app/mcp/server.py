"""Builds the MCP server and runs it over stdio or streamable HTTP (``hindsight mcp``)."""

from __future__ import annotations

import inspect
import logging

from mcp.server.mcpserver import MCPServer
from mcp.server.transport_security import TransportSecuritySettings

from app import __version__
from app.core.config import McpSettings
from app.mcp.client import RestApi
from app.mcp.tools import TOOLS, HindsightTools

log = logging.getLogger("hindsight.mcp")

INSTRUCTIONS = """Long-term memory for this conversation's user. Recall (memory_recall) before
answering questions about the user or acting for them; store (memory_store) durable facts,
preferences and constraints the user states. Memories are scoped by user_id."""


def build_server(settings: McpSettings, api: RestApi | None = None) -> MCPServer:
    """An MCPServer whose tools call the REST API at ``settings.api_base_url``."""
    api = api or RestApi(
        settings.api_base_url,
        settings.api_key.get_secret_value() or None,
        settings.timeout_s,
    )
    server: MCPServer = MCPServer(
        name="hindsight",
        title="Hindsight memory",
        instructions=INSTRUCTIONS,
        version=__version__,
    )
    tools = HindsightTools(api)
    for name, hints in TOOLS.items():
        fn = getattr(tools, name)
        # The docstring, on one line, is the description the model reads.
        description = " ".join((inspect.getdoc(fn) or "").split())
        server.add_tool(fn, name=name, description=description, annotations=hints)
    return server


def run(settings: McpSettings) -> None:
    """Serve until stopped: stdio (one client, the parent process) or streamable HTTP at
    ``http://{host}:{port}/mcp`` (stateless, JSON responses: any replica answers any call),
    with ``GET /health`` for container health checks."""
    server = build_server(settings)
    if settings.transport == "stdio":
        server.run("stdio")
        return
    import uvicorn
    from starlette.requests import Request
    from starlette.responses import JSONResponse

    @server.custom_route("/health", methods=["GET"], include_in_schema=False)
    async def health(request: Request) -> JSONResponse:
        return JSONResponse({"status": "ok"})

    security = (
        TransportSecuritySettings(allowed_hosts=settings.allowed_hosts)
        if settings.allowed_hosts
        else None
    )
    app = server.streamable_http_app(
        stateless_http=True, json_response=True, transport_security=security, host=settings.host
    )
    log.warning(
        "MCP streamable HTTP on http://%s:%d/mcp → API %s",
        settings.host,
        settings.port,
        settings.api_base_url,
    )
    # log_config=None: uvicorn's lines go through our (JSON) logging like everything else.
    uvicorn.run(app, host=settings.host, port=settings.port, log_config=None, access_log=False)
