"""The recall's exact path fetches through asyncpg itself (app.core.db.driver_fetch). A
connection whose backend went away just before that fetch (PostgreSQL stopping under traffic)
is a 503 ``datastore_unavailable``, as through SQLAlchemy's layer, and the pool replaces the
connection: the next recalls answer 200. Before, asyncpg's ``InternalClientError`` ("cannot
switch to state 12; another operation (2) is in progress") came out raw: a 500 (the
PostgreSQL-restart reliability test's one 500)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import asyncpg
import pytest

from app.core.db import asyncpg_dsn
from app.repositories.recall import repository as recall_repository
from tests.conftest import running_app


@pytest.fixture
async def killer(database_url: str) -> AsyncIterator[asyncpg.Connection]:
    conn = await asyncpg.connect(asyncpg_dsn(database_url))
    yield conn
    await conn.close()


@pytest.mark.parametrize("case", ["cold", "warm", "warm_unprepared"])
async def test_a_backend_gone_before_the_exact_fetch_is_a_503_then_recovers(
    settings, killer, monkeypatch, case
):
    real = recall_repository.exact_rows
    armed: list[bool] = []
    pids: list[int] = []

    async def terminated_first(conn, *args: Any, **kwargs: Any):  # type: ignore[no-untyped-def]
        if armed:
            armed.clear()
            driver = (await conn.get_raw_connection()).driver_connection
            pids.append(driver.get_server_pid())
            await killer.execute("SELECT pg_terminate_backend($1)", pids[-1])
        return await real(conn, *args, **kwargs)

    monkeypatch.setattr(recall_repository, "exact_rows", terminated_first)
    async with running_app(settings.model_copy(update={"db_pool_size": 1})) as (app, c):
        unit = {"user_id": "cl", "value": "门牌号是 4711"}
        r = await c.post("/store", json={"memories": [unit]})
        assert r.status_code == 200, r.text
        body = {"user_id": "cl", "query": "门禁密码是多少"}
        if case != "cold":  # the subject's profile cached: the fetch is the first statement
            assert (await c.post("/recall", json=body)).status_code == 200
        if case == "warm_unprepared":  # new connections: the statement is prepared anew
            await app.state.engine.dispose()
        armed.append(True)
        r = await c.post("/recall", json=body)
        assert pids, "the exact path ran"
        assert r.status_code == 503, r.text
        assert r.headers["content-type"].startswith("application/problem+json")
        assert r.json()["code"] == "datastore_unavailable" and r.headers["retry-after"]
        for _ in range(3):
            again = await c.post("/recall", json=body)
            assert again.status_code == 200, again.text
            assert again.json()["memories"][0]["value"] == "门牌号是 4711"
        # the dead connection left the pool
        alive = await killer.fetchval(
            "SELECT count(*) FROM pg_stat_activity WHERE pid = $1", pids[0]
        )
        assert alive == 0
        assert app.state.engine.pool.checkedout() == 0
