"""The console's files as served (no browser needed): the mount, its security headers, its
absence from the OpenAPI document, every module it imports present, and the files shipped
in the wheel (package data) and the Docker image (.dockerignore)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from app.api.routers.console import CONSOLE_DIR

ROOT = Path(__file__).resolve().parents[2]
IMPORT = re.compile(r"""^import .* from "(\.{1,2}/[^"]+)";""", re.M)


async def test_console_is_served_with_a_strict_policy(app_client):
    r = await app_client.get("/console")
    assert r.status_code == 308 and r.headers["location"] == "/console/"
    r = await app_client.get("/console/")
    assert r.status_code == 200
    assert r.headers["content-type"] == "text/html; charset=utf-8"
    assert '<meta charset="utf-8">' in r.text
    policy = r.headers["content-security-policy"]
    assert "script-src 'self'" in policy and "frame-ancestors 'none'" in policy
    assert "unsafe-inline" not in policy
    assert r.headers["x-content-type-options"] == "nosniff"
    assert r.headers["referrer-policy"] == "no-referrer"
    js = await app_client.get("/console/js/main.js")
    assert js.status_code == 200 and js.headers["content-type"].startswith("text/javascript")
    assert js.headers["content-security-policy"] == policy


async def test_a_missing_console_file_is_a_problem_404(app_client):
    r = await app_client.get("/console/js/nope.js")
    assert r.status_code == 404
    assert r.headers["content-type"].startswith("application/problem+json")
    assert r.json()["code"] == "not_found"


async def test_console_is_not_in_the_openapi_document(app_client):
    paths = (await app_client.get("/openapi.json")).json()["paths"]
    assert not [p for p in paths if p.startswith("/console")]


def test_every_imported_module_exists_and_no_markup_is_parsed_from_data():
    sources = sorted(CONSOLE_DIR.rglob("*.js"))
    assert sources
    for source in sources:
        text = source.read_text(encoding="utf-8")
        for target in IMPORT.findall(text):
            assert (source.parent / target).resolve().is_file(), (source, target)
        # Data is rendered as text nodes only (app/console/js/dom.js).
        assert "innerHTML" not in text and "insertAdjacentHTML" not in text, source
        assert "eval(" not in text, source


def test_console_files_ship_in_the_wheel_and_the_image():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = project["tool"]["setuptools"]["package-data"]["app"]
    shipped = {p for pattern in patterns for p in (ROOT / "app").glob(pattern)}
    missing = [p for p in CONSOLE_DIR.rglob("*") if p.is_file() and p not in shipped]
    assert missing == [], f"add to [tool.setuptools.package-data] in pyproject.toml: {missing}"
    # The image copies app/ whole; .dockerignore must not drop the console's file types.
    ignore = (ROOT / ".dockerignore").read_text(encoding="utf-8").split()
    assert "!app/" in ignore
    assert not [p for p in ignore if p.endswith((".js", ".css", ".html", "console", "console/"))]
