"""Working memory when Redis is down: 503 with Retry-After and nothing written (a retry then
appends once), and the window never holds a message the transcript lacks."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import httpx
import pytest
import redis as redis_sync
from asgi_lifespan import LifespanManager
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from app.core.config import Settings
from app.main import create_app
from tests.conftest import count_rows, running_app
from tests.processes import RedisServer


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


@asynccontextmanager
async def _row_locked(database_url: str, session_id: str) -> AsyncIterator[None]:
    """Hold the session's row lock from another connection: an append then blocks in its
    seq allocation, after it asked Redis and before its transaction commits."""
    engine = create_async_engine(database_url)
    try:
        async with engine.connect() as conn:
            await conn.execute(
                text("SELECT 1 FROM working_memory_sessions WHERE session_id = :s FOR UPDATE"),
                {"s": session_id},
            )
            yield
            await conn.rollback()
    finally:
        await engine.dispose()


async def _wait_for_lock_waiter(engine) -> None:
    for _ in range(200):  # at most ~4 s
        async with engine.connect() as conn:
            waiting = await conn.scalar(
                text("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'")
            )
        if waiting:
            return
        await asyncio.sleep(0.02)
    raise AssertionError("the append never waited for the row lock")


async def _window(client, session: str) -> list[int]:
    r = await client.get(f"/working_memory/{session}")
    assert r.status_code == 200, r.text
    return [m["seq"] for m in r.json()["messages"]]


@pytest.mark.parametrize("comes_back", ["with its data", "empty"])
async def test_redis_killed_after_the_commit_is_a_200_and_the_window_catches_up(
    database_url, engine, tmp_path, comes_back
):
    # A real redis-server killed between an append's Redis check and its window write: the
    # transcript committed, so the answer is 200 (a 503 invited a retry that appended the
    # message twice), and the window gets the message once Redis is back.
    redis = RedisServer(str(tmp_path) if comes_back == "with its data" else None).start()
    settings = Settings(database_url=database_url, redis_url=redis.url)
    app = create_app(settings)
    try:
        async with LifespanManager(app, startup_timeout=60):
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url="http://t") as client:
                first = {"messages": [{"role": "user", "content": "my gate is B12"}]}
                r = await client.post("/working_memory/k1/messages", json=first)
                assert r.status_code == 200 and r.json()["seqs"] == [1]
                second = {"messages": [{"role": "user", "content": "boarding at 9:40"}]}
                async with _row_locked(database_url, "k1"):
                    append = asyncio.create_task(
                        client.post("/working_memory/k1/messages", json=second)
                    )
                    await _wait_for_lock_waiter(engine)
                    if comes_back == "with its data":
                        redis_sync.Redis(port=redis.port).save()  # the window holds seq 1
                    redis.kill()
                r = await append
                assert r.status_code == 200, r.text
                assert r.json()["seqs"] == [2] and r.json()["session"]["messages"] == 2
                runtime = app.state.resources.working_memory
                assert len(runtime.stale) == 1  # marked stale in this process
                # Still down: a read is a 503, and nothing is lost meanwhile.
                r = await client.get("/working_memory/k1")
                assert r.status_code == 503
                redis.start()
                assert await _window(client, "k1") == [1, 2]
                assert len(runtime.stale) == 0
                # A third append lands normally; every message is in the window once.
                third = {"messages": [{"role": "user", "content": "seat 14A"}]}
                r = await client.post("/working_memory/k1/messages", json=third)
                assert r.status_code == 200 and r.json()["seqs"] == [3]
                assert await _window(client, "k1") == [1, 2, 3]
    finally:
        redis.kill()
    assert await count_rows(engine, "transcript_messages") == 3


async def test_a_stale_window_is_written_back_without_a_read(database_url, engine):
    # The background retry writes the missing message as soon as Redis answers again.
    redis = RedisServer().start()
    app = create_app(Settings(database_url=database_url, redis_url=redis.url))
    try:
        async with LifespanManager(app, startup_timeout=60):
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url="http://t") as client:
                body = {"messages": [{"role": "user", "content": "the code is 4471"}]}
                r = await client.post("/working_memory/k2/messages", json=body)
                assert r.status_code == 200
                async with _row_locked(database_url, "k2"):
                    append = asyncio.create_task(
                        client.post("/working_memory/k2/messages", json=body)
                    )
                    await _wait_for_lock_waiter(engine)
                    redis.kill()
                assert (await append).status_code == 200
                runtime = app.state.resources.working_memory
                assert len(runtime.stale) == 1
                redis.start()  # empty: the window is gone, the transcript restores it
                for _ in range(100):  # at most ~5 s; the retry runs every 0.25 s
                    if not len(runtime.stale):
                        break
                    await asyncio.sleep(0.05)
                assert len(runtime.stale) == 0
                assert await _window(client, "k2") == [1, 2]
    finally:
        redis.kill()
