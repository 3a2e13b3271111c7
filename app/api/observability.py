"""Request ids, one JSON access-log line per request, and latency metrics per route.

``RequestContextMiddleware`` is plain ASGI (no BaseHTTPMiddleware: it must not buffer
streamed bodies). For every HTTP request it

- takes the caller's ``X-Request-ID`` when it is a sane token (≤ 128 characters of
  ``[A-Za-z0-9._:-]``) or makes a new one (32 hex digits), puts it in the logging context
  and in ``request.state.request_id`` (problem+json bodies carry it as ``request_id``),
  and returns it in the ``X-Request-ID`` response header;
- observes ``hindsight_http_request_duration_seconds`` by route *template*
  (``/memories/{memory_id}``, never the raw path, so label cardinality stays bounded);
- logs ``http request`` with method, route, status, duration and the caller's key prefix.
"""

from __future__ import annotations

import logging
import re
import time
import uuid
from contextvars import Token
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.core.logging import request_id_var
from app.core.metrics import HTTP_REQUEST_SECONDS

log = logging.getLogger("hindsight.access")
_SANE_ID = re.compile(r"^[A-Za-z0-9._:-]{1,128}$")
REQUEST_ID_HEADER = "x-request-id"


def _route_template(scope: Scope) -> str:
    route = scope.get("route")
    path = getattr(route, "path", None)
    return path if isinstance(path, str) else "<unmatched>"


class RequestContextMiddleware:
    """See the module docstring."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        incoming = ""
        for name, value in scope.get("headers", []):
            if name == b"x-request-id":
                incoming = value.decode("latin-1")
                break
        request_id = incoming if _SANE_ID.match(incoming) else uuid.uuid4().hex
        scope.setdefault("state", {})["request_id"] = request_id
        token: Token[str | None] | None = request_id_var.set(request_id)
        status = 500
        start = time.perf_counter()

        async def send_with_id(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                headers = list(message.get("headers", []))
                headers.append((b"x-request-id", request_id.encode("latin-1")))
                message = {**message, "headers": headers}
            await send(message)

        try:
            await self.app(scope, receive, send_with_id)
        except BaseException:
            # Leave the id in the logging context: the error handler outside this
            # middleware logs the traceback next, and that line should carry it too.
            token = None
            raise
        finally:
            elapsed = time.perf_counter() - start
            route = _route_template(scope)
            HTTP_REQUEST_SECONDS.labels(scope.get("method", ""), route, str(status)).observe(
                elapsed
            )
            caller: Any = scope.get("state", {}).get("caller")
            log.info(
                "http request",
                extra={
                    "method": scope.get("method"),
                    "route": route,
                    "status": status,
                    "duration_ms": round(elapsed * 1000, 2),
                    "key_prefix": getattr(caller, "key_prefix", None),
                },
            )
            if token is not None:
                request_id_var.reset(token)
