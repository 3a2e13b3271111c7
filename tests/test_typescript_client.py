"""The TypeScript client (`clients/typescript`, ESM; types generated from docs/openapi.json
by openapi-typescript, requests by openapi-fetch): its committed types are what the generator
makes from the document today (drift fails here), they type-check with tsc, and node's test
runner passes its tests against the real service over HTTP.

Skips, saying why, where node or npm is absent, or where `npm ci` cannot install the pinned
packages (package-lock.json) from the npm registry."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.core.config import AuthSettings, Settings, WorkerSettings
from app.main import create_app
from tests.live_api import serve

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "clients" / "typescript"
NODE, NPM = shutil.which("node"), shutil.which("npm")

pytestmark = pytest.mark.skipif(
    NODE is None or NPM is None, reason="needs node and npm (apt-get install nodejs npm)"
)


def run(*command: str, timeout: float = 180, env: dict[str, str] | None = None):  # type: ignore[no-untyped-def]
    return subprocess.run(
        list(command), cwd=PACKAGE, capture_output=True, text=True, timeout=timeout,
        env={**os.environ, **(env or {})},
    )  # fmt: skip


@pytest.fixture(scope="module")
def installed() -> Path:
    """node_modules from package-lock.json (npm ci once; kept between runs)."""
    if not (PACKAGE / "node_modules" / "openapi-fetch").exists():
        out = run(NPM or "npm", "ci", "--no-audit", "--no-fund", timeout=300)
        if out.returncode != 0:
            pytest.skip(f"npm ci could not install the pinned packages: {out.stderr[-500:]}")
    return PACKAGE / "node_modules" / ".bin"


@pytest.fixture(scope="module")
def api_url(settings: Settings) -> Iterator[str]:
    app = create_app(settings.model_copy(update={
        "auth": AuthSettings(required="true", cache_ttl_s=0),
        "worker": WorkerSettings(in_process=True, poll_interval_s=0.2)}))  # fmt: skip
    with serve(app) as url:
        yield url


def test_types_are_generated_from_the_current_document(installed, tmp_path):
    fresh = tmp_path / "schema.d.ts"
    out = run(str(installed / "openapi-typescript"), "../../docs/openapi.json",
              "--default-non-nullable", "false", "--output", str(fresh))  # fmt: skip
    assert out.returncode == 0, out.stdout + out.stderr
    assert fresh.read_text() == (PACKAGE / "src" / "schema.d.ts").read_text(), (
        "clients/typescript/src/schema.d.ts is stale: `npm run generate` in clients/typescript"
    )


def test_types_check(installed):
    out = run(str(installed / "tsc"), "-p", "tsconfig.json")
    assert out.returncode == 0, out.stdout + out.stderr


async def test_node_tests_pass_against_the_service(installed, api_url, make_api_key):
    key = await make_api_key("ts-client")
    out = run(NODE or "node", "--test", "test/client.test.js",
              env={"HINDSIGHT_URL": api_url, "HINDSIGHT_API_KEY": key})  # fmt: skip
    assert out.returncode == 0, out.stdout + out.stderr
    assert "# pass 5" in out.stdout and "# fail 0" in out.stdout, out.stdout
