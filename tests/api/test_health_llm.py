"""``/health`` reports whether the configured LLM answers (tester list, item 5: nothing
checked it, so a wrong LLM__BASE_URL showed only as extraction jobs failing later). The probe
(``GET {base_url}/models``) runs in the background, at most once per TTL: neither the start-up
nor a ``/health`` waits for it, and an unreachable LLM is reported, not a failure."""

from __future__ import annotations

import asyncio
import socket
import time

import httpx

from app.services.health import LLMReachability
from tests.conftest import llm_settings, running_app


async def _settled(client: httpx.AsyncClient) -> httpx.Response:
    """/health once the first probe has answered (``llm`` no longer ``checking``)."""
    for _ in range(100):
        r = await client.get("/health")
        if r.json().get("llm") != "checking":
            return r
        await asyncio.sleep(0.05)
    raise AssertionError("the LLM probe never answered")


async def test_health_reports_a_reachable_llm_and_asks_it_once_per_ttl(database_url, fake_llm):
    async with running_app(llm_settings(database_url, fake_llm)) as (_, client):
        r = await _settled(client)
        assert (r.status_code, r.json()) == (200, {"status": "ok", "llm": "reachable"})
        for _ in range(10):
            assert (await client.get("/health")).json()["llm"] == "reachable"
            assert (await client.head("/health")).status_code == 200
    assert fake_llm.gets == ["/v1/models"]  # one probe for 22 /health within the TTL
    assert fake_llm.requests == []  # no chat, no tokens


async def test_a_refused_key_is_unauthorized_and_the_service_stays_ok(database_url, fake_llm):
    fake_llm.models_status = 401
    async with running_app(llm_settings(database_url, fake_llm)) as (_, client):
        r = await _settled(client)
        assert (r.status_code, r.json()) == (200, {"status": "ok", "llm": "unauthorized"})
        assert (await client.get("/ready")).status_code == 200


async def test_an_llm_nobody_listens_on_is_unreachable(database_url, fake_llm):
    with socket.socket() as s:  # a port of this machine nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    settings = llm_settings(database_url, fake_llm)
    settings = settings.model_copy(
        update={"llm": settings.llm.model_copy(update={"base_url": f"http://127.0.0.1:{port}/v1"})}
    )
    async with running_app(settings) as (_, client):
        r = await _settled(client)
        assert (r.status_code, r.json()) == (200, {"status": "ok", "llm": "unreachable"})


async def test_neither_the_start_nor_health_waits_for_a_slow_llm(database_url, fake_llm):
    fake_llm.models_delay_s = 1.5
    async with running_app(llm_settings(database_url, fake_llm)) as (_, client):
        start = time.perf_counter()
        r = await client.get("/health")
        assert time.perf_counter() - start < 1.0
        assert r.json() == {"status": "ok", "llm": "checking"}
        assert (await _settled(client)).json()["llm"] == "reachable"


async def test_a_stale_answer_is_refreshed_in_the_background():
    now = [0.0]
    answers = iter(["reachable", "unreachable"])
    asked: list[float] = []

    async def probe() -> str:
        asked.append(now[0])
        return next(answers)

    reach = LLMReachability(probe, ttl_s=60.0, clock=lambda: now[0])
    assert reach.state() == "checking"
    await asyncio.sleep(0)  # the background probe runs
    assert reach.state() == "reachable"
    now[0] = 59.0
    assert reach.state() == "reachable" and asked == [0.0]  # fresh: not asked again
    now[0] = 61.0
    assert reach.state() == "reachable"  # stale: answered at once, asked in the background
    await asyncio.sleep(0)
    assert reach.state() == "unreachable" and asked == [0.0, 61.0]
    await reach.close()
