"""`/docs` (Swagger UI) and `/redoc` work on a machine without internet: every script, style
and font they load comes from this service (fastapi-offline ships the files), and a real
headless browser whose every request off 127.0.0.1 is refused renders each operation.

The browser half skips, saying why, where /usr/bin/chromium or the playwright package is
missing (.ci/run installs Chromium with apt-get, best effort); the HTML half always runs."""

from __future__ import annotations

import re
from collections.abc import Iterator
from urllib.parse import urlsplit

import httpx
import pytest

from app.core.config import Settings
from app.main import create_app
from tests.browser import ROOT, launch, needs_browser, sync_playwright
from tests.live_api import serve


@pytest.fixture(autouse=True)
def clean_tables() -> Iterator[None]:
    """Nothing is written here; and Playwright's sync API runs its own event loop in this
    thread, where the suite's async table-cleaning fixture could not run."""
    yield


@pytest.fixture(scope="module")
def api_url(settings: Settings) -> Iterator[str]:
    with serve(create_app(settings)) as url:
        yield url


def _operation_count() -> int:
    import json

    paths = json.loads((ROOT / "docs" / "openapi.json").read_text(encoding="utf-8"))["paths"]
    return sum(1 for ops in paths.values() for method in ops if method != "parameters")


@pytest.mark.parametrize("page", ["/docs", "/redoc"])
def test_docs_pages_load_only_files_of_this_service(api_url: str, page: str) -> None:
    html = httpx.get(f"{api_url}{page}", timeout=10)
    assert html.status_code == 200 and "text/html" in html.headers["content-type"]
    assets = re.findall(r"""(?:src|href)=["']([^"']+)["']""", html.text)
    assert any(a.endswith(".js") for a in assets), assets
    for asset in assets:
        assert asset.startswith("/"), f"{page} loads {asset} from elsewhere"
        answer = httpx.get(f"{api_url}{asset}", timeout=10)
        assert answer.status_code == 200 and answer.content, asset
    assert "cdn" not in html.text.lower() and "fonts.googleapis" not in html.text
    if page == "/redoc":  # the bundle names cdn.redoc.ly for its credit's logo: not fetched
        assert html.headers["content-security-policy"] == "img-src 'self' data: blob:"


@needs_browser
def test_docs_render_with_no_network(api_url: str) -> None:
    origin = urlsplit(api_url).netloc
    refused: list[str] = []

    def only_this_service(route, request) -> None:  # type: ignore[no-untyped-def]
        if urlsplit(request.url).netloc == origin:
            route.continue_()
        else:
            refused.append(request.url)
            route.abort("internetdisconnected")

    with sync_playwright() as pw:
        browser = launch(pw)
        try:
            context = browser.new_context()
            context.route("**/*", only_this_service)
            page = context.new_page()
            page.set_default_timeout(30_000)

            page.goto(f"{api_url}/docs")
            page.locator(".opblock").first.wait_for()
            assert page.locator(".opblock").count() == _operation_count()
            assert page.locator(".opblock-summary-path", has_text="/recall").count() == 1
            page.locator(".info .title", has_text="Hindsight").wait_for()

            page.goto(f"{api_url}/redoc")
            page.locator("h1", has_text="Hindsight").wait_for()
            page.locator("[data-section-id='operation/recall_memories']").wait_for(state="attached")
            assert page.locator("[data-section-id^='operation/']").count() == _operation_count()
        finally:
            browser.close()
    # Not one request off this service: ReDoc's sidebar credit ("API docs by Redocly") asked
    # for its logo from cdn.redoc.ly (tester finding C21j); /redoc's Content-Security-Policy
    # now keeps the browser from asking.
    assert refused == []
