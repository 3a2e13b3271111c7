"""`EXTRACTION__OFFLINE_FALLBACK`: with an LLM configured, a job whose last attempt the LLM
failed runs the offline extractor instead of failing (tester hbreak5 F20: while the provider
was down every close failed and nothing was kept until someone retried it). A real HTTP
server on 127.0.0.1 speaks the OpenAI chat API with scripted failures."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest

from app.core.config import ExtractionSettings
from tests.conftest import count_rows, llm_settings, running_app, truncate_queue
from tests.fake_llm import FakeLLM, Reply, units_json
from tests.services.extraction.test_extract_llm import PEANUT

MESSAGES = [
    {"role": "user", "content": "I'm allergic to peanuts."},
    {"role": "assistant", "content": "Noted, no peanuts."},
]


@pytest.fixture
async def fallback_app(
    database_url: str, fake_llm_server: FakeLLM, engine
) -> AsyncIterator[httpx.AsyncClient]:  # type: ignore[no-untyped-def]
    await truncate_queue(engine)
    fake_llm_server.reset()
    settings = llm_settings(
        database_url, fake_llm_server, extraction=ExtractionSettings(offline_fallback=True)
    )
    async with running_app(settings) as (_, client):
        yield client


async def extract(client: httpx.AsyncClient, user: str) -> dict:  # type: ignore[type-arg]
    r = await client.post(
        "/extract?wait=true",
        json={"user_id": user, "messages": MESSAGES, "now": "2026-11-25T09:00:00Z"},
    )
    assert r.status_code == 200, r.text
    return r.json()


async def test_provider_down_on_every_attempt_falls_back_to_the_offline_extractor(
    fallback_app, fake_llm_server, engine
):  # type: ignore[no-untyped-def]
    fake_llm_server.default = Reply(status=503)
    job = await extract(fallback_app, "fb1")
    assert job["status"] == "succeeded", job
    assert job["extractor"] == "offline" and job["error"] is None
    history = job["error_history"]
    assert [e["code"] for e in history] == ["provider_error", "provider_error"]
    assert "fallback" not in history[0] and history[-1]["fallback"] == "offline"
    created = [u for u in job["units"] if u["outcome"] == "created"]
    assert any("peanut" in u["value"].lower() for u in created), job["units"]
    got = await fallback_app.get(f"/memories/{created[0]['memory_id']}")
    assert got.json()["metadata"]["extractor"] == "offline"
    assert await count_rows(engine) == len(created)


async def test_an_unusable_reply_on_the_last_attempt_falls_back(
    fallback_app, fake_llm_server, engine
):  # type: ignore[no-untyped-def]
    fake_llm_server.default = Reply(content=units_json(PEANUT)[:-40])  # truncated JSON
    job = await extract(fallback_app, "fb2")
    assert job["status"] == "succeeded" and job["extractor"] == "offline", job
    assert job["error_history"][-1]["code"] == "provider_bad_reply"
    assert job["error_history"][-1]["fallback"] == "offline"


async def test_a_failure_before_the_last_attempt_is_retried_with_the_llm(
    fallback_app, fake_llm_server, engine
):  # type: ignore[no-untyped-def]
    """Attempt 1 fails (503 twice: the request and its one retry), attempt 2 gets the LLM's
    answer: the LLM's units, no fallback."""
    fake_llm_server.push(Reply(status=503), Reply(status=503), Reply(content=units_json(PEANUT)))
    job = await extract(fallback_app, "fb3")
    assert job["status"] == "succeeded" and job["attempts"] == 2, job
    assert job["extractor"] == "llm:test-model"
    assert [e.get("fallback") for e in job["error_history"]] == [None]
    assert [u["value"] for u in job["units"]] == ["The user is allergic to peanuts."]
