"""Working memory when Redis is down: 503 with Retry-After and nothing written (a retry then
appends once), and the window never holds a message the transcript lacks."""

from __future__ import annotations

from app.core.config import Settings
from tests.conftest import count_rows, running_app


async def test_redis_down_is_503_and_writes_nothing(database_url, engine):
    # Nothing listens on port 1: every Redis command fails with a connection error.
    settings = Settings(database_url=database_url, redis_url="redis://127.0.0.1:1/0")
    async with running_app(settings) as (_, client):
        r = await client.post(
            "/working_memory/down/messages",
            json={"messages": [{"role": "user", "content": "remember the code 4471"}]},
        )
        assert r.status_code == 503, r.text
        assert r.headers["content-type"] == "application/problem+json"
        assert r.json()["code"] == "datastore_unavailable"
        assert r.headers["retry-after"] == "2"
        r = await client.get("/working_memory/down")
        assert r.status_code == 503 and r.json()["code"] == "datastore_unavailable"
    # Redis is asked before anything is written: the retry will be the only copy.
    assert await count_rows(engine, "transcript_messages") == 0
    assert await count_rows(engine, "working_memory_sessions") == 0
