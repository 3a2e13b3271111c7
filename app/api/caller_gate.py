"""``RequireCaller``: an ASGI endpoint that lets a request through only for a caller the REST
API accepts — the same key check as every REST route (``get_caller``: ``Authorization:
Bearer`` or ``X-API-Key``; 401 ``missing_api_key`` / ``invalid_api_key``, 429
``rate_limited``, as problem+json). ``/mcp`` on the API's port is served through it, so an
MCP client without a valid key is refused before the MCP handshake, not at its first tool
call."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from starlette.requests import Request
from starlette.types import Receive, Scope, Send

from app.services.wiring import Services

Endpoint = Callable[[Scope, Receive, Send], Awaitable[None]]


def presented_key(request: Request) -> str | None:
    """The API key a request carries (``Authorization: Bearer`` first, then ``X-API-Key``)."""
    auth = request.headers.get("authorization", "")
    if auth[:7].lower() == "bearer " and auth[7:].strip():
        return auth[7:].strip()
    key = request.headers.get("x-api-key", "").strip()
    return key or None


class RequireCaller:
    """Authenticate, then run ``inner`` (an instance, so Starlette routes it as raw ASGI).

    Raises the auth errors, which the app's handlers answer as problem+json."""

    def __init__(self, inner: Endpoint) -> None:
        self.inner = inner

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        request = Request(scope)
        state = request.app.state
        async with state.session_factory() as session, session.begin():
            await Services(state.resources, session).auth().authenticate(presented_key(request))
        await self.inner(scope, receive, send)
