"""On a loopback address, answer only requests addressed to this machine (DNS rebinding).

Keyless by default on 127.0.0.1, the API would otherwise serve a web page the developer opens:
``attacker.example`` resolving to 127.0.0.1 after its first load makes same-origin requests
(no CORS preflight) that read, plant and forget memory (tester finding C23; ``/mcp`` already
refused such a ``Host``). ``hindsight serve`` on a loopback address installs this middleware:
a ``Host`` other than ``localhost``, ``127.0.0.1``, ``[::1]`` (any port) or a name in
``ALLOWED_HOSTS`` is a 421 problem+json ``misdirected_request``; nothing is routed. On any
other address API keys are required, which a rebinding page does not have.
"""

from __future__ import annotations

from collections.abc import Iterable

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Receive, Scope, Send

from app.api.url_encoding import send_problem

LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1")


def host_name(host: str) -> str:
    """The name of a ``Host`` header without its port, lower case (``[::1]:8000`` → ``::1``)."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1 : host.find("]")] if "]" in host else host
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


class HostGuard:
    """Refuse requests whose ``Host`` is not one of ``allowed`` (names, no ports)."""

    def __init__(self, app: ASGIApp, allowed: Iterable[str]) -> None:
        self.app = app
        self.allowed = {host_name(h) for h in (*LOOPBACK_NAMES, *allowed)}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        given = Headers(scope=scope).get("host", "")
        if host_name(given) in self.allowed:
            await self.app(scope, receive, send)
            return
        detail = (
            f"Host {given[:100]!r} is not this server: on a loopback address the API answers "
            "requests to localhost, 127.0.0.1 or [::1] (a guard against DNS rebinding); add a "
            "name with ALLOWED_HOSTS"
        )
        await send_problem(scope, send, 421, "Misdirected request", detail, "misdirected_request")
