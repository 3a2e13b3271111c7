"""Request body size limit (``MAX_BODY_BYTES``): a larger body gets 413 problem+json with code
``payload_too_large`` and never reaches a handler, so nothing is parsed or written.

A pure ASGI middleware: a declared ``Content-Length`` over the limit is refused before the
body is read; a body without one (chunked) is counted as it streams and refused at the first
byte past the limit.
"""

from __future__ import annotations

import json

from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

PROBLEM_JSON = "application/problem+json"


def _too_large_detail(limit: int) -> str:
    return f"The request body is larger than {limit} bytes (MAX_BODY_BYTES)."


class BodySizeLimit:
    """Refuse HTTP request bodies larger than ``max_bytes``."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = _content_length(scope)
        if declared is not None and declared > self.max_bytes:
            await self._refuse(scope, send)
            return

        received = 0

        async def limited_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_bytes:
                    # Raised inside the handler's body read: FastAPI passes HTTPException on,
                    # and app.api.errors renders it as problem+json (payload_too_large).
                    raise HTTPException(413, _too_large_detail(self.max_bytes))
            return message

        await self.app(scope, limited_receive, send)

    async def _refuse(self, scope: Scope, send: Send) -> None:
        body = json.dumps(
            {
                "type": "about:blank",
                "title": "Payload too large",
                "status": 413,
                "detail": _too_large_detail(self.max_bytes),
                "code": "payload_too_large",
                "instance": scope.get("path", ""),
                # Set by app.api.observability (outside this middleware).
                "request_id": scope.get("state", {}).get("request_id"),
            }
        ).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [
                    (b"content-type", PROBLEM_JSON.encode()),
                    (b"content-length", str(len(body)).encode()),
                    (b"connection", b"close"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})


def _content_length(scope: Scope) -> int | None:
    for name, value in scope.get("headers", ()):
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None
