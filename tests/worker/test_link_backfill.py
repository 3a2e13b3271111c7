"""The link backfill (app.services.memory.link_backfill, migration 0021): units stored before
the write path linked one user's units across write subjects were never decided against the
other agents' units, so recall showed one fact twice. The archival sweep decides them, a
batch per run, and marks them; units stored since are decided on write and never again."""

from __future__ import annotations

import asyncio
import uuid
from datetime import UTC, datetime

from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from app.core import migrate
from app.core.config import LifecycleSettings, Settings
from app.core.db import create_session_factory
from app.services.wiring import Resources, Services
from tests.conftest import new_database
from tests.services.recall.test_recall_collapse_links import recall, stored
from tests.worker.test_lifecycle_worker import embedder, metric, worker_for  # noqa: F401

VEGETARIAN = ("The user is a vegetarian.", "The user does not eat meat.")


async def as_before_the_upgrade(engine) -> None:  # type: ignore[no-untyped-def]
    """The state an earlier version left: no cross-subject links, every unit undecided."""
    async with engine.begin() as conn:
        await conn.execute(text("DELETE FROM memory_links"))
        await conn.execute(text("UPDATE memory_units SET links_decided = false"))


async def link_rows(engine) -> list[tuple[str, str, str]]:  # type: ignore[no-untyped-def]
    async with engine.connect() as conn:
        rows = await conn.execute(text("SELECT target_id, source_id, kind FROM memory_links"))
        return [(str(t), str(s), k) for t, s, k in rows]


async def undecided(engine) -> int:  # type: ignore[no-untyped-def]
    async with engine.connect() as conn:
        sql = "SELECT count(*) FROM memory_units WHERE NOT links_decided"
        return int((await conn.execute(text(sql))).scalar_one())


async def test_new_units_are_stored_decided(client, engine):
    await stored(client, "planner", VEGETARIAN[0])
    assert await undecided(engine) == 0


async def test_the_archive_run_links_units_stored_before(client, database_url, engine, embedder):  # noqa: F811
    old = await stored(client, "planner", VEGETARIAN[0])
    new = await stored(client, "concierge", VEGETARIAN[1])
    await stored(client, "concierge", "The user is allergic to cats.")
    await as_before_the_upgrade(engine)
    assert len(await recall(client, VEGETARIAN[0])) == 3  # one fact shown twice

    before = metric("hindsight_lifecycle_items_total", kind="links_backfilled")
    tasks = {p.name: p for p in worker_for(database_url, engine, embedder).periodic}
    await tasks["lifecycle.archive"].run()
    assert await link_rows(engine) == [(new, old, "duplicate")]  # the newer restates the older
    assert await undecided(engine) == 0
    assert metric("hindsight_lifecycle_items_total", kind="links_backfilled") == before + 1
    hits = await recall(client, VEGETARIAN[0])
    assert len(hits) == 2
    assert sorted([hits[0]["id"], *hits[0]["duplicates"]]) == sorted([old, new])

    await tasks["lifecycle.archive"].run()  # nothing left to decide: no second link
    assert len(await link_rows(engine)) == 1


async def test_a_change_told_to_another_agent_replaces_the_older(
    client,
    database_url,
    engine,
    embedder,  # noqa: F811
):
    berlin = await stored(client, "planner", "The user lives in Berlin.")
    munich = await stored(client, "concierge", "The user moved to Munich.")
    await as_before_the_upgrade(engine)
    tasks = {p.name: p for p in worker_for(database_url, engine, embedder).periodic}
    await tasks["lifecycle.archive"].run()
    assert await link_rows(engine) == [(munich, berlin, "replaces")]
    hits = await recall(client, "Where does the user live?")
    assert [h["id"] for h in hits[:2]] == [munich, berlin]


async def test_the_batch_bounds_a_run_and_zero_disables(client, engine, embedder):  # noqa: F811
    for i, agent in enumerate(("a", "b", "c")):
        await stored(client, agent, f"The user's locker number is {40 + i}.")
    await as_before_the_upgrade(engine)
    factory = create_session_factory(engine)
    for batch, decided, left in ((0, 0, 3), (2, 2, 1), (2, 1, 0), (2, 0, 0)):
        settings = Settings(lifecycle=LifecycleSettings(link_backfill_batch=batch))
        async with factory() as session, session.begin():
            services = Services(Resources(settings, embedder), session)
            report = await services.backfill_links(datetime.now(UTC))
        assert report.decided == decided
        assert await undecided(engine) == left


_UNIT = text(
    """
    INSERT INTO memory_units (id, namespace, user_id, type, value, confidence, source,
        value_hash, occurred_at, last_confirmed_at, embedding_model, value_embedding)
    SELECT :id, 'default', 'mig', 'fact', :value, 0.9, 'api', md5(:value), now(), now(),
        'test', CAST(array_fill(0.1, ARRAY[atttypmod]) AS vector)
      FROM pg_attribute
     WHERE attname = 'value_embedding' AND attrelid = 'memory_units'::regclass
    """
)


async def test_migration_0021_leaves_only_units_stored_before_it_undecided(engine, database_url):
    async with new_database(engine, database_url, "links") as url:
        await asyncio.to_thread(migrate.upgrade, url, "0020")
        mine = create_async_engine(url)
        try:
            async with mine.begin() as conn:
                await conn.execute(_UNIT, {"id": uuid.uuid4(), "value": "stored before"})
            await asyncio.to_thread(migrate.upgrade, url, "0021")
            async with mine.begin() as conn:
                await conn.execute(_UNIT, {"id": uuid.uuid4(), "value": "stored after"})
                rows = await conn.execute(text("SELECT value, links_decided FROM memory_units"))
                got = {value: decided for value, decided in rows}
        finally:
            await mine.dispose()
    assert got == {"stored before": False, "stored after": True}
