"""Builds the MCP server and runs it over stdio or streamable HTTP (``hindsight mcp``)."""

from __future__ import annotations

import inspect
import logging
import os
import signal
from collections.abc import Mapping
from typing import Any

import httpx
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from mcp.server.transport_security import TransportSecuritySettings
from mcp.types import ListToolsResult
from pydantic import ValidationError
from starlette.types import ASGIApp

from app import __version__
from app.core import graceful
from app.core.config import McpSettings
from app.core.graceful import STOP_SIGNALS
from app.mcp.arguments import (
    in_tool_terms,
    invalid_arguments,
    problems,
    summary,
    tool_error,
    unknown,
)
from app.mcp.client import RestApi
from app.mcp.pin import (
    PIN_HEADER,
    PinError,
    context_headers,
    headers_of,
    pinned_user,
    unpinned_argument,
    without_user_id,
)
from app.mcp.tools import TOOLS, HindsightTools

log = logging.getLogger("hindsight.mcp")

INSTRUCTIONS = """Long-term memory for this conversation's user. Recall (memory_recall) before
answering questions about the user or acting for them; store (memory_store) durable facts,
preferences and constraints the user states. Memories are scoped by user_id (a server
pinned to one user takes no user_id: every call acts for that user)."""


class HindsightMCPServer(MCPServer):
    """MCPServer whose wrong, missing or unknown tool arguments get the code-prefixed tool
    error of app/mcp/arguments.py instead of a raw validation dump, and whose API refusals
    (422) name the tool's arguments, not the REST fields. On a connection pinned to one user
    (app/mcp/pin.py: ``pin`` over stdio, the request's header over HTTP) the tools are
    listed without ``user_id`` and every call acts for that user."""

    def __init__(self, *args: Any, pin: str | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.pin = pin or None
        # Tool → its description without the argument summary (written again when pinned).
        self.described: dict[str, str] = {}

    def _pinned(self, headers: Mapping[str, str] | None) -> bool:
        try:
            return pinned_user(headers, self.pin) is not None
        except PinError:
            return True  # its calls fail (invalid_pin); list what a pinned caller sees

    def _schema(self, parameters: dict[str, Any], pin: str | None) -> dict[str, Any]:
        return without_user_id(parameters) if pin else parameters

    async def _handle_list_tools(self, ctx: Any, params: Any) -> ListToolsResult:
        listed = await super()._handle_list_tools(ctx, params)
        if not self._pinned(headers_of(getattr(ctx, "request", None))):
            return listed
        tools = []
        for tool in listed.tools:
            schema = without_user_id(tool.input_schema)
            description = f"{self.described.get(tool.name, '')} {summary(schema)}".strip()
            tools.append(tool.model_copy(update={"input_schema": schema,
                                                 "description": description}))  # fmt: skip
        return ListToolsResult(tools=tools)

    async def call_tool(self, name: str, arguments: dict[str, Any], context: Any = None) -> Any:
        tool = self._tool_manager.get_tool(name)
        if tool is None:
            names = ", ".join(t.name for t in self._tool_manager.list_tools())
            return tool_error(
                "unknown_tool", 404, "Unknown tool", f"no tool {name!r}; tools: {names}"
            )
        try:
            pin = pinned_user(context_headers(context), self.pin)
        except PinError as exc:
            return tool_error("invalid_pin", 400, "Invalid user pin", f"{name}: {exc}")
        if pin is not None and "user_id" in tool.parameters.get("properties", {}):
            refused = unpinned_argument(arguments.get("user_id"), pin)
            if refused is not None:
                return tool_error("pinned_user", 403, "Pinned to one user", f"{name}: {refused}")
            arguments = {**arguments, "user_id": pin}
        schema = self._schema(tool.parameters, pin)
        messages = unknown(name, tool.parameters, arguments)
        if messages:
            return invalid_arguments(name, messages, schema)
        try:
            return in_tool_terms(name, await super().call_tool(name, arguments, context))
        except ToolError as exc:
            if isinstance(exc.__cause__, ValidationError):
                found = problems(exc.__cause__.errors())
                return invalid_arguments(name, found, schema)
            raise


def lent_key(settings: McpSettings) -> str | None:
    """The key tool calls carry when the caller sends none: ``MCP__API_KEY`` over stdio (the
    one client is the process that started the server). Over streamable HTTP never (tester
    finding B28): a keyless HTTP caller would otherwise act in that key's namespace, so each
    caller's own ``Authorization`` passes through and a keyless one gets the API's 401."""
    if settings.transport != "stdio":
        return None
    return settings.api_key.get_secret_value() or None


def stdio_pin(settings: McpSettings) -> str | None:
    """The user ``MCP__USER_ID`` pins every call to, over stdio only (app/mcp/pin.py): over
    streamable HTTP each caller pins its own calls with the ``X-Hindsight-User-Id`` header."""
    if settings.transport != "stdio":
        return None
    return settings.user_id or None


def build_server(settings: McpSettings, api: RestApi | None = None) -> MCPServer:
    """An MCPServer whose tools call the REST API at ``settings.api_base_url``, with
    :func:`lent_key` as the default key and :func:`stdio_pin` as the pinned user (neither
    when ``api`` is given: the API's own in-process ``/mcp``, an HTTP server)."""
    pin = stdio_pin(settings) if api is None else None
    api = api or RestApi(settings.api_base_url, lent_key(settings), settings.timeout_s)
    server = HindsightMCPServer(
        name="hindsight",
        title="Hindsight memory",
        instructions=INSTRUCTIONS,
        version=__version__,
        pin=pin,
    )
    tools = HindsightTools(api, pin)
    for name, hints in TOOLS.items():
        fn = getattr(tools, name)
        # The docstring, on one line, is the description the model reads.
        description = " ".join((inspect.getdoc(fn) or "").split())
        server.described[name] = description
        server.add_tool(fn, name=name, description=description, annotations=hints)
        tool = server._tool_manager.get_tool(name)
        assert tool is not None
        # The argument names in the description too: a model reading only it still knows.
        tool.description = f"{description} {summary(tool.parameters)}"
    return server


# The in-process REST API's base URL: a name only, never resolved (the ASGI transport calls
# the app object directly).
IN_PROCESS_BASE_URL = "http://hindsight.in-process"


def _security(settings: McpSettings) -> TransportSecuritySettings | None:
    return (
        TransportSecuritySettings(allowed_hosts=settings.allowed_hosts)
        if settings.allowed_hosts
        else None
    )


def in_process(api: ASGIApp, settings: McpSettings, host: str) -> StreamableHTTPSessionManager:
    """The streamable HTTP MCP server that the API mounts at its own ``/mcp``.

    Still a client of the REST API: each tool call is an HTTP request to ``api`` (the API's
    ASGI app, reached through httpx's ASGI transport, no socket), carrying the MCP caller's own
    ``Authorization``/``X-API-Key``, so it meets the same middleware, auth, namespace scoping
    and validation as a request from outside. ``host`` is the API's listen address: on a
    loopback one the transport refuses other ``Host`` headers (DNS rebinding), as does
    ``settings.allowed_hosts`` when set. Run the returned manager (``async with
    manager.run()``) for the app's life and hand it each request (``handle_request``)."""
    rest = RestApi(
        IN_PROCESS_BASE_URL, None, settings.timeout_s, transport=httpx.ASGITransport(app=api)
    )
    server = build_server(settings, rest)
    server.streamable_http_app(
        stateless_http=True, json_response=True, transport_security=_security(settings), host=host
    )
    return server.session_manager


async def _stdio_until_stopped(server: MCPServer) -> None:
    """The stdio transport until stdin closes or a stop signal arrives. On a signal the
    process exits 0 at once: stdin is read in a thread that no cancellation reaches, and there
    is nothing to release (a tool call in flight is abandoned; its REST call completes or
    rolls back on the API's side)."""
    import anyio

    async with anyio.create_task_group() as group:

        async def watch() -> None:
            with anyio.open_signal_receiver(*STOP_SIGNALS) as received:
                log.info("MCP server listening on stdio")  # stop signals are handled from here
                async for sig in received:
                    log.warning("received %s: MCP server stopped", signal.Signals(sig).name)
                    logging.shutdown()
                    os._exit(0)

        group.start_soon(watch)
        await server.run_stdio_async()
        group.cancel_scope.cancel()


def run(settings: McpSettings, shutdown_timeout_s: float = 8.0) -> None:
    """Serve until stopped: stdio (one client, the parent process) or streamable HTTP at
    ``http://{host}:{port}/mcp`` (stateless, JSON responses: any replica answers any call),
    with ``GET /health`` for container health checks. SIGTERM, SIGINT and SIGHUP stop it
    cleanly (exit 0); over HTTP, calls in flight get ``shutdown_timeout_s`` to finish."""
    server = build_server(settings)
    if settings.transport == "stdio":
        import anyio

        anyio.run(_stdio_until_stopped, server)
        log.warning("MCP server stopped")
        return
    from starlette.requests import Request
    from starlette.responses import JSONResponse

    async def health(request: Request) -> JSONResponse:
        return JSONResponse({"status": "ok"})

    server.custom_route("/health", methods=["GET"], include_in_schema=False)(health)
    if settings.api_key.get_secret_value():
        log.warning("MCP__API_KEY is ignored over streamable HTTP: each caller sends its own key")
    if settings.user_id:
        log.warning(
            "MCP__USER_ID is ignored over streamable HTTP: each caller pins its user with the "
            "%s header",
            PIN_HEADER,
        )

    app = server.streamable_http_app(
        stateless_http=True,
        json_response=True,
        transport_security=_security(settings),
        host=settings.host,
    )
    log.warning(
        "MCP streamable HTTP on http://%s:%d/mcp → API %s",
        settings.host,
        settings.port,
        settings.api_base_url,
    )
    graceful.serve(app, settings.host, settings.port, shutdown_timeout_s)
    log.warning("MCP server stopped")
