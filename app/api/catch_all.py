"""The last error handler: an exception no exception handler took becomes its problem+json
(503 ``datastore_unavailable`` when a datastore is unreachable, else 500 ``internal_error``)
as an ordinary response, and the keep-alive connection stays usable.

Starlette's own catch-all (``ServerErrorMiddleware``, where FastAPI puts the handler of
``Exception``) answers and then re-raises, and uvicorn closes the connection after such an
answer without ``Connection: close``: the client's next request on that connection got no
answer at all (seen as "1 × 500, 1 × no answer" while PostgreSQL was stopped under traffic,
docs/RELIABILITY.md). Plain ASGI, just inside ``RequestContextMiddleware`` (the answer
carries the request id, and the access log sees its status). Once a response has started,
the exception propagates: only closing the connection can tell the client it is cut short.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.api.errors import unexpected_problem


class CatchAll:
    """See the module docstring."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def tracked(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, receive, tracked)
        except Exception as exc:
            if started:
                raise
            response = await unexpected_problem(Request(scope), exc)
            await response(scope, receive, send)
