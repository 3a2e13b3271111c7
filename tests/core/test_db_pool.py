"""app.core.db's checkout liveness (it replaced ``pool_pre_ping``): a pooled connection the
server closed is replaced at the next checkout without an error, and one idle for longer than
``PING_AFTER_IDLE_S`` is pinged first."""

from __future__ import annotations

import asyncio

from sqlalchemy import text

from app.core import db


async def _pid(engine) -> int:  # type: ignore[no-untyped-def]
    async with engine.connect() as conn:
        return int((await conn.execute(text("SELECT pg_backend_pid()"))).scalar_one())


async def test_a_connection_closed_by_the_server_is_replaced_at_checkout(database_url, engine):
    mine = db.create_engine(database_url, pool_size=1)
    try:
        async with mine.connect() as conn:
            first = int((await conn.execute(text("SELECT pg_backend_pid()"))).scalar_one())
            driver = (await conn.get_raw_connection()).driver_connection
        async with engine.connect() as other:
            await other.execute(text("SELECT pg_terminate_backend(:p)"), {"p": first})
        for _ in range(100):  # asyncpg notices the closed socket while the connection idles
            if driver.is_closed():
                break
            await asyncio.sleep(0.02)
        assert driver.is_closed()
        second = await _pid(mine)  # no error: the closed connection was replaced
        assert second != first
        assert await _pid(mine) == second  # and the new one is reused
    finally:
        await mine.dispose()


async def test_an_idle_connection_is_pinged_and_reused(database_url, monkeypatch):
    mine = db.create_engine(database_url, pool_size=1)
    pings: list[object] = []
    try:
        first = await _pid(mine)
        async with mine.connect() as conn:  # checked out within the idle limit: no ping
            raw = await conn.get_raw_connection()
            cls = type(raw.dbapi_connection)
        original = cls.ping
        monkeypatch.setattr(cls, "ping", lambda self: (pings.append(self), original(self))[1])
        assert await _pid(mine) == first and not pings
        monkeypatch.setattr(db, "PING_AFTER_IDLE_S", 0.0)
        await asyncio.sleep(0.01)
        assert await _pid(mine) == first and len(pings) == 1
    finally:
        await mine.dispose()
