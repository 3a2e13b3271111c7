"""URLs must be UTF-8 once percent-decoded: 400 problem+json ``bad_request`` otherwise.

The server decodes the path and the query string with replacement characters, so without
this check ``/working_memory/%FF`` and ``/working_memory/%FE`` would both be the session
``"\\ufffd"`` (two clients' messages in one session), and ``?user_id=%FF`` would read a user
nobody named. Request bodies get the same answer (``body is not valid UTF-8``,
app/api/errors.py). A pure ASGI middleware: nothing is routed, parsed or written.
"""

from __future__ import annotations

import json
from urllib.parse import unquote_to_bytes

from starlette.types import ASGIApp, Receive, Scope, Send

PROBLEM_JSON = "application/problem+json"


def invalid_part(scope: Scope) -> str | None:
    """``"path"`` or ``"query string"`` when that part is not UTF-8 once percent-decoded."""
    raw_path = scope.get("raw_path")
    path = raw_path.split(b"?", 1)[0] if isinstance(raw_path, bytes) else b""
    for name, raw in (("path", path), ("query string", scope.get("query_string", b""))):
        try:
            unquote_to_bytes(raw).decode("utf-8")
        except UnicodeDecodeError:
            return name
    return None


class Utf8Url:
    """Refuse requests whose path or query string is not UTF-8 once percent-decoded."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        part = invalid_part(scope) if scope["type"] == "http" else None
        if part is None:
            await self.app(scope, receive, send)
            return
        detail = f"the {part} is not valid UTF-8 once percent-decoded: percent-encode text as UTF-8"
        await send_problem(scope, send, 400, "Bad request", detail, "bad_request")


async def send_problem(
    scope: Scope, send: Send, status: int, title: str, detail: str, code: str
) -> None:
    """Answer with a problem+json body from a pure ASGI middleware (nothing routed): the
    shape app/api/errors.py gives every other error."""
    body = json.dumps(
        {
            "type": "about:blank",
            "title": title,
            "status": status,
            "detail": detail,
            "code": code,
            "instance": scope.get("path", ""),
            # Set by app.api.observability (outside these middlewares).
            "request_id": scope.get("state", {}).get("request_id"),
        }
    ).encode()
    headers = [
        (b"content-type", PROBLEM_JSON.encode()),
        (b"content-length", str(len(body)).encode()),
    ]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
