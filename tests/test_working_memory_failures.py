"""Working memory when Redis is down: the transcript (the durable copy) keeps every message,
and the window never holds one the transcript lacks."""

from __future__ import annotations

import httpx
from asgi_lifespan import LifespanManager

from app.core.config import Settings
from app.main import create_app
from tests.conftest import count_rows


async def test_redis_down_after_commit_is_503_and_transcript_keeps_the_message(
    database_url, engine
):
    # Nothing listens on port 1: every Redis command fails with a connection error.
    settings = Settings(database_url=database_url, redis_url="redis://127.0.0.1:1/0")
    app = create_app(settings)
    async with LifespanManager(app, startup_timeout=60):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            r = await client.post(
                "/working_memory/down/messages",
                json={"messages": [{"role": "user", "content": "remember the code 4471"}]},
            )
            assert r.status_code == 503, r.text
            assert r.headers["content-type"] == "application/problem+json"
            assert r.json()["code"] == "datastore_unavailable"
            assert "transcript as seqs 1..1" in r.json()["detail"]
            r = await client.get("/working_memory/down")
            assert r.status_code == 503 and r.json()["code"] == "datastore_unavailable"
    # The transcript committed before Redis was touched.
    assert await count_rows(engine, "transcript_messages") == 1
    assert await count_rows(engine, "working_memory_sessions") == 1
