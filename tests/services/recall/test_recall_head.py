"""Recall's head statement (the answer columns of the best candidates and their close pairs,
one round trip) and its access log, written after the answer and gathered over
RECALL__ACCESS_LOG_DELAY_MS (issue 29): the same pairs and columns as the statements they
replaced, accesses written together, at shutdown too, and an access that reaches the log
even when its first attempt fails."""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

from app.core.db import create_engine, create_session_factory
from app.repositories.recall.repository import RecallRepository
from app.services.recall.access import Access, AccessLog


async def store(client, user: str, *values: str) -> list[uuid.UUID]:  # type: ignore[no-untyped-def]
    body = {"memories": [{"user_id": user, "value": v} for v in values]}
    r = await client.post("/store", json=body)
    assert r.status_code == 200, r.text
    return [uuid.UUID(x["id"]) for x in r.json()["results"]]


# The pairs statement the head statement replaced (2026-12-06): its answer is the reference.
_OLD_PAIRS = text(
    """
    SELECT a.id, b.id, 1 - (a.value_embedding <=> b.value_embedding) AS cosine
      FROM memory_units a
      JOIN memory_units b ON a.id < b.id
     WHERE a.id = ANY(CAST(:ids AS uuid[])) AND b.id = ANY(CAST(:ids AS uuid[]))
       AND (a.value_hash = b.value_hash
            OR (a.value_embedding <=> b.value_embedding) <= CAST(:max_distance AS float8))
    """
)


@pytest.mark.parametrize("min_cosine", [0.8, 0.9, 0.97])
async def test_head_reads_the_columns_and_pairs_of_the_statements_it_replaced(
    client, engine: AsyncEngine, min_cosine: float
) -> None:
    ids = await store(
        client,
        "u1",
        "The user prefers window seats",
        "The user prefers a window seat",
        "The user has two kids",
        "The user has 2 kids",
        "The user likes green tea",
        "The user keeps bees in Lyon",
    )
    # A repeated value stored apart (another subject, moved): the same hash, a pair at any floor.
    [twin] = await store(client, "u2", "The user likes green tea")
    async with engine.begin() as conn:
        await conn.execute(
            text("UPDATE memory_units SET user_id = 'u1' WHERE id = :i"), {"i": twin}
        )
    gone = uuid.uuid4()  # never stored: left out
    asked = [*ids, twin, gone]
    factory = create_session_factory(engine)
    async with factory() as session:
        repo = RecallRepository(session)
        units, pairs = await repo.head(asked, min_cosine)
        assert units == await repo.units(asked)  # the answer columns, as the units statement
        old = await session.execute(_OLD_PAIRS, {"ids": asked, "max_distance": 1.0 - min_cosine})
        want = {(a, b): c for a, b, c in old}
    assert set(units) == {*ids, twin}
    got = {(p.a, p.b): p.cosine for p in pairs}
    assert got == want  # the same pairs, the same cosines (bit for bit)
    assert (min(ids[4], twin), max(ids[4], twin)) in got
    for p in pairs:  # each side's value, type and entity keys from its own row
        for side, unit in (("a", units[p.a]), ("b", units[p.b])):
            assert getattr(p, f"{side}_value") == unit.value
            assert getattr(p, f"{side}_type") == unit.type
    async with engine.connect() as conn:
        keys = dict((await conn.execute(text("SELECT id, entity_keys FROM memory_units"))).all())
    assert all(p.a_keys == list(keys[p.a]) and p.b_keys == list(keys[p.b]) for p in pairs)


async def test_an_api_recall_logs_its_access_after_the_answer(client, engine) -> None:
    """The API's recall has no ``access`` stage: its access log is written after the
    answer, in a transaction of its own (the ASGI test transport returns once that ran)."""
    ids = await store(client, "u1", "The user's dentist is Dr. Okafor")
    r = await client.post("/recall", json={"query": "dentist", "user_id": "u1"})
    assert r.status_code == 200
    answer = r.json()
    assert [m["id"] for m in answer["memories"]] == [str(ids[0])]
    assert "access" not in answer["stages_ms"] and "collapse" in answer["stages_ms"]
    async with engine.connect() as conn:
        logged = (await conn.execute(text("SELECT unit_id FROM memory_access_log"))).all()
    assert [row.unit_id for row in logged] == ids
    r = await client.post(
        "/recall", json={"query": "dentist", "user_id": "u1", "record_access": False}
    )
    async with engine.connect() as conn:
        n = (await conn.execute(text("SELECT count(*) FROM memory_access_log"))).scalar()
    assert n == 1  # an inspection is no access


class _FailingFirst:
    """A session factory whose first ``fails`` sessions cannot connect (OSError, as a
    refused connection), then the real one's."""

    def __init__(self, real: Callable[[], Any], fails: int) -> None:
        self.real, self.fails = real, fails

    def __call__(self) -> Any:
        if self.fails:
            self.fails -= 1
            raise OSError("connection refused")
        return self.real()


async def test_the_access_log_is_tried_again_after_a_failure(client, engine, caplog) -> None:
    ids = await store(client, "u1", "The user speaks Basque", "The user keeps bees")
    at = datetime.now(UTC)
    factory = create_session_factory(engine)
    log = AccessLog(_FailingFirst(factory, 2))  # type: ignore[arg-type]
    assert await log.write([Access(ids, at, None)])
    async with engine.connect() as conn:
        rows = (
            await conn.execute(text("SELECT unit_id, accessed_at FROM memory_access_log"))
        ).all()
    assert sorted(r.unit_id for r in rows) == sorted(ids) and {r.accessed_at for r in rows} == {at}

    caplog.set_level(logging.ERROR, "hindsight.recall")
    assert not await AccessLog(_FailingFirst(factory, 3)).write([Access(ids, at, None)])  # type: ignore[arg-type]
    assert "recall access log lost after 3 attempts" in caplog.text


async def test_an_unreachable_database_loses_the_access_without_raising(
    client, database_url: str, caplog
) -> None:
    ids = await store(client, "u1", "The user speaks Basque")
    url = database_url.replace("@/hindsight?", "@/no_such_database?")
    assert url != database_url
    engine = create_engine(url, 1)
    try:
        caplog.set_level(logging.ERROR, "hindsight.recall")
        log = AccessLog(create_session_factory(engine))
        assert not await log.write([Access(ids, datetime.now(UTC), None)])
    finally:
        await engine.dispose()
    assert "lost after 3 attempts" in caplog.text


async def _log_rows(engine: AsyncEngine) -> list[Any]:
    async with engine.connect() as conn:
        sql = text("SELECT unit_id, accessed_at FROM memory_access_log ORDER BY accessed_at")
        return list((await conn.execute(sql)).all())


async def test_accesses_gathered_over_the_delay_are_written_together(client, engine) -> None:
    first, second, soon = await store(
        client, "u1", "The user speaks Basque", "The user keeps bees", "The gate number is 4412"
    )
    gone = uuid.uuid4()  # never stored (or deleted meanwhile): skipped, no error
    async with engine.begin() as conn:
        await conn.execute(
            text("UPDATE memory_units SET expires_at = now() + interval '2 hours' WHERE id = :i"),
            {"i": soon},
        )
    async with engine.connect() as conn:
        before = dict((await conn.execute(text("SELECT id, expires_at FROM memory_units"))).all())
    factory = create_session_factory(engine)
    log = AccessLog(factory, delay_s=0.3)
    # Accessed just now: "about to expire" is measured from the access (a fixed date here
    # made the test fail from 24 h after it, once now + 2 h passed the date + EXPIRY_GUARD).
    t0 = datetime.now(UTC).replace(microsecond=0) - timedelta(minutes=2)
    t1 = t0 + timedelta(minutes=1)
    far = datetime.now(UTC) + timedelta(days=30)
    await log.add(Access([first, soon, gone], t0, far))
    await log.add(Access([second, soon, soon], t1, far))  # a unit twice in one answer: once
    assert log.pending == 2 and await _log_rows(engine) == []  # not yet
    await asyncio.sleep(0.6)
    assert log.pending == 0
    rows = await _log_rows(engine)
    assert sorted((r.unit_id, r.accessed_at) for r in rows) == sorted(
        [(first, t0), (soon, t0), (second, t1), (soon, t1)]
    )
    async with engine.connect() as conn:
        expiry = dict((await conn.execute(text("SELECT id, expires_at FROM memory_units"))).all())
    assert expiry[soon] == far  # about to expire: extended once, by its latest access
    assert expiry[first] == before[first]  # not about to expire: left to the sweep

    # What is still waiting when the process stops is written by close().
    await log.add(Access([second], t1, None))
    assert log.pending == 1
    await log.close()
    assert log.pending == 0 and len(await _log_rows(engine)) == 5


async def test_close_waits_for_a_write_under_way(client, engine) -> None:
    # Tester F-D: close() cancelled the timer while it was writing (its batch already taken
    # from the queue), and that batch was lost without a word.
    (unit,) = await store(client, "u1", "The user speaks Basque")
    log = AccessLog(create_session_factory(engine), delay_s=0.05)
    at = datetime(2026, 12, 6, 8, 0, tzinfo=UTC)
    async with engine.connect() as locker:
        held = await locker.begin()
        await locker.execute(text("LOCK TABLE memory_access_log IN SHARE MODE"))
        await log.add(Access([unit], at, None))
        await asyncio.sleep(0.3)  # the timer has fired: its write waits for the lock
        assert log.pending == 0
        closing = asyncio.create_task(log.close())
        await asyncio.sleep(0.2)
        assert not closing.done()  # waiting for the write, not cancelling it
        await held.rollback()
    await asyncio.wait_for(closing, 10)
    assert [(r.unit_id, r.accessed_at) for r in await _log_rows(engine)] == [(unit, at)]


async def test_an_access_added_during_a_write_is_written_without_another_recall(
    client, engine
) -> None:
    # Tester F-H: it waited in the queue until the next recall (or the shutdown).
    first, second = await store(client, "u1", "The user speaks Basque", "The user keeps bees")
    log = AccessLog(create_session_factory(engine), delay_s=0.05)
    # Accessed just now: "about to expire" is measured from the access (a fixed date here
    # made the test fail from 24 h after it, once now + 2 h passed the date + EXPIRY_GUARD).
    t0 = datetime.now(UTC).replace(microsecond=0) - timedelta(minutes=2)
    t1 = t0 + timedelta(minutes=1)
    async with engine.connect() as locker:
        held = await locker.begin()
        await locker.execute(text("LOCK TABLE memory_access_log IN SHARE MODE"))
        await log.add(Access([first], t0, None))
        await asyncio.sleep(0.3)  # that write waits for the lock
        await log.add(Access([second], t1, None))
        assert log.pending == 1
        await held.rollback()
    for _ in range(100):
        if log.pending == 0 and len(await _log_rows(engine)) == 2:
            break
        await asyncio.sleep(0.05)
    assert [(r.unit_id, r.accessed_at) for r in await _log_rows(engine)] == [
        (first, t0),
        (second, t1),
    ]
