"""``/console``: the memory console, a static browser app (``app/console/``: HTML, CSS and
JavaScript modules, no build step) that talks only to this service's public REST API with
the API key the user enters (kept in the tab's session storage).

The files carry a strict Content-Security-Policy (scripts, styles and requests to this origin
only; no inline script, no framing), so stored memory content — which the app renders as
text only — cannot run code in the page that holds the key. Not part of the OpenAPI
document: it is not an API.
"""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI
from starlette.responses import RedirectResponse, Response
from starlette.staticfiles import StaticFiles
from starlette.types import Scope

CONSOLE_DIR = Path(__file__).resolve().parents[2] / "console"

SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
        "img-src 'self' data:; form-action 'none'; frame-ancestors 'none'; base-uri 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    # The files are small; revalidating keeps an upgraded service from running stale code.
    "Cache-Control": "no-cache",
}


class ConsoleFiles(StaticFiles):
    """Static files with the console's security headers on every answer."""

    async def get_response(self, path: str, scope: Scope) -> Response:
        response = await super().get_response(path, scope)
        response.headers.update(SECURITY_HEADERS)
        return response


def mount(app: FastAPI) -> None:
    """Serve the console at ``/console/`` (``/console`` redirects there)."""

    @app.get("/console", include_in_schema=False)
    async def console_root() -> RedirectResponse:
        return RedirectResponse("/console/", status_code=308)

    app.mount("/console/", ConsoleFiles(directory=CONSOLE_DIR, html=True), name="console")
