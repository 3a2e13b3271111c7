"""On a loopback address the API answers only requests addressed to this machine (tester
finding C23: keyless on 127.0.0.1, a web page could read, plant and forget memory through
DNS rebinding; /mcp already refused a foreign Host)."""

from __future__ import annotations

import httpx
import pytest

from app.api.host_guard import HostGuard, host_name
from app.core.config import Settings
from tests.conftest import count_rows, running_app


@pytest.mark.parametrize(
    ("header", "name"),
    [("localhost:8000", "localhost"), ("127.0.0.1", "127.0.0.1"), ("[::1]:8000", "::1"),
     ("Attacker.Example:8000", "attacker.example"), ("::1", "::1")],
)  # fmt: skip
def test_host_name(header: str, name: str) -> None:
    assert host_name(header) == name


async def test_a_foreign_host_is_refused_and_changes_nothing(settings: Settings, engine):
    async with running_app(settings) as (app, _):
        guarded = HostGuard(app, allowed=["memory.internal"])
        transport = httpx.ASGITransport(app=guarded)
        async with httpx.AsyncClient(transport=transport, base_url="http://attacker.example") as c:
            body = {"memories": [{"user_id": "dev", "value": "planted by a web page"}]}
            r = await c.post("/store", json=body)
            assert r.status_code == 421 and r.headers["content-type"] == "application/problem+json"
            problem = r.json()
            assert problem["code"] == "misdirected_request"
            assert "'attacker.example'" in problem["detail"]
            assert "ALLOWED_HOSTS" in problem["detail"]
            assert await count_rows(engine) == 0
            for base in ("http://127.0.0.1:8000", "http://localhost", "http://memory.internal"):
                r = await c.get("/health", headers={"host": base.split("//")[1]})
                assert r.status_code == 200, (base, r.text)
