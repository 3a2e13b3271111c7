"""``/redoc``: ReDoc from the files fastapi-offline ships, making no request off this service.

fastapi-offline's own ``/redoc`` page serves the script locally, but ReDoc's sidebar credit
("API docs by Redocly") loads its logo from ``https://cdn.redoc.ly`` — a URL inside the
bundle, with no option to turn it off (tester finding C21j). This page is the same HTML with
a Content-Security-Policy that allows images from this service only: the browser never asks
the CDN, and the credit hides an image that did not load (its text stays)."""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.openapi.docs import get_redoc_html
from starlette.responses import HTMLResponse

# Images from this service only (data: and blob: URLs are the page's own).
IMAGES_FROM_HERE = "img-src 'self' data: blob:"


def add_redoc(app: FastAPI, assets: str, path: str = "/redoc") -> None:
    """Serve ReDoc at ``path`` (not in the OpenAPI document), its script and favicon from the
    static files mounted at ``assets``."""

    @app.get(path, include_in_schema=False)
    async def redoc_html(request: Request) -> HTMLResponse:
        root = request.scope.get("root_path", "")
        page = get_redoc_html(
            openapi_url=f"{root}{app.openapi_url}",
            title=f"{app.title} - ReDoc",
            redoc_js_url=f"{root}{assets}/redoc.standalone.js",
            redoc_favicon_url=f"{root}{assets}/favicon.png",
            with_google_fonts=False,
        )
        page.headers["Content-Security-Policy"] = IMAGES_FROM_HERE
        return page
