"""The key-change listener (app/repositories/key_events.py) reconnects after any error: its
connection terminated, and then an error type asyncpg raises while a server goes away
(``InternalClientError``), which once ended the listener for good (a revoked key then kept
working in other processes until ``AUTH__CACHE_TTL_S``)."""

from __future__ import annotations

import asyncio

import asyncpg
from sqlalchemy import text

from app.core.db import asyncpg_dsn
from app.repositories.api_keys import KEYS_CHANNEL
from app.repositories.key_events import KeyChangeListener
from tests.conftest import new_database


async def _until(predicate, timeout_s: float = 10.0) -> bool:  # type: ignore[no-untyped-def]
    deadline = asyncio.get_running_loop().time() + timeout_s
    while not predicate():
        if asyncio.get_running_loop().time() > deadline:
            return False
        await asyncio.sleep(0.02)
    return True


async def test_the_listener_survives_a_lost_connection_and_an_unexpected_error(
    engine, database_url, monkeypatch
):
    async with new_database(engine, database_url, "keyev") as url:
        calls: list[int] = []
        listener = KeyChangeListener(url, lambda: calls.append(1))
        await listener.start()
        admin = await asyncpg.connect(asyncpg_dsn(url))
        try:
            assert await _until(listener.connected.is_set)
            assert len(calls) == 1  # dropped once on connecting

            real = asyncpg.Connection.add_listener
            failures: list[int] = []

            async def once_broken(self, channel, callback):  # type: ignore[no-untyped-def]
                if not failures:
                    failures.append(1)
                    raise asyncpg.InternalClientError("cannot switch to state 12")
                return await real(self, channel, callback)

            monkeypatch.setattr(asyncpg.Connection, "add_listener", once_broken)
            await admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
            assert await _until(lambda: bool(failures) and listener.connected.is_set())
            assert listener._task is not None and not listener._task.done()
            assert len(calls) == 2  # dropped again once listening again
            await admin.execute(f"NOTIFY {KEYS_CHANNEL}")
            assert await _until(lambda: len(calls) == 3)
        finally:
            await admin.close()
            await listener.stop()
    async with engine.connect() as conn:  # the shared server still answers
        assert (await conn.execute(text("SELECT 1"))).scalar_one() == 1
