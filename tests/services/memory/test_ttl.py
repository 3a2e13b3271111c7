"""TTL by type at write, archival of expired units, access log and expiry extension."""

from __future__ import annotations

import asyncio
import uuid
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import text

from app.core.config import LifecycleSettings, Settings, TtlSettings
from app.core.db import create_engine, create_session_factory, has_connection
from app.repositories.recall.repository import RecallRepository
from app.services.memory.ttl import default_expiry, expiry_for
from app.services.wiring import Resources, Services
from tests.services.lifecycle.test_lifecycle import store

NOW = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)
DAY = timedelta(days=1)


@pytest.mark.parametrize(
    ("kind", "days"),
    [
        ("fact", 180),
        ("constraint", 180),
        ("preference", 90),
        ("action", 30),
        ("result", 30),
        ("event", 30),
    ],
)
def test_default_expiry_per_type(kind, days):
    assert default_expiry(kind, NOW, NOW, TtlSettings()) == NOW + days * DAY


def archiver(session, lifecycle: LifecycleSettings | None = None):  # type: ignore[no-untyped-def]
    settings = Settings(lifecycle=lifecycle or LifecycleSettings())
    return Services(Resources(settings), session).archiver()


def test_time_bound_units_expire_after_their_anchor():
    settings = TtlSettings()
    trip = NOW + 10 * DAY
    assert default_expiry("event", trip, NOW, settings) == trip + 30 * DAY
    assert default_expiry("fact", trip, NOW, settings) == trip + 180 * DAY
    # a past event stored late (a backfill) is not expired on arrival, and what happened
    # lives as a fact does (tester hbreak5 F35: a replayed history was gone a month later)
    assert default_expiry("event", NOW - 365 * DAY, NOW, settings) == NOW + 180 * DAY
    assert default_expiry("event", NOW - 2 * DAY, NOW, settings) == NOW + 180 * DAY
    assert default_expiry("event", NOW - DAY / 2, NOW, settings) == NOW + 30 * DAY  # today's
    assert default_expiry("fact", None, NOW, settings) == NOW + 180 * DAY


def test_settings_and_overrides():
    settings = TtlSettings(preference_days=0, event_days=7)
    assert default_expiry("preference", None, NOW, settings) is None
    assert default_expiry("event", NOW + DAY, NOW, settings) == NOW + 8 * DAY
    assert expiry_for("fact", None, NOW, settings, ttl_days_override=2) == NOW + 2 * DAY
    fixed = NOW + 5 * DAY
    assert expiry_for("fact", None, NOW, settings, expires_at=fixed) == fixed


def _close(iso: str, expected: datetime, slack: timedelta = timedelta(minutes=5)) -> bool:
    return abs(datetime.fromisoformat(iso) - expected) < slack


async def test_store_sets_expiry_by_type(client):
    now = datetime.now(UTC)
    trip = now + 10 * DAY
    res = await store(
        client,
        {"user_id": "u1", "value": "The user is allergic to shellfish", "type": "constraint"},
        {"user_id": "u1", "value": "The user prefers window seats", "type": "preference"},
        {
            "user_id": "u1",
            "value": "The user flies to Oslo",
            "type": "event",
            "occurred_at": trip.isoformat(),
        },
        {"user_id": "u1", "value": "The user booked a hotel", "type": "action", "ttl_days": 2},
        {"user_id": "u1", "value": "Fixed expiry fact", "expires_at": "2031-01-01T00:00:00Z"},
    )
    exp = [r["memory"]["expires_at"] for r in res]
    assert _close(exp[0], now + 180 * DAY)
    assert _close(exp[1], now + 90 * DAY)
    assert _close(exp[2], trip + 30 * DAY)
    assert _close(exp[3], now + 2 * DAY)
    assert datetime.fromisoformat(exp[4]) == datetime(2031, 1, 1, tzinfo=UTC)


async def test_expired_units_are_archived(client, engine):
    keep, old = await store(
        client,
        {"user_id": "u1", "value": "The user's locker number is 4471", "entities": ["locker"]},
        {"user_id": "u1", "value": "The user's old locker number was 1234", "entities": ["locker"]},
    )
    past = datetime.now(UTC) - DAY
    async with engine.begin() as conn:
        await conn.execute(
            text("UPDATE memory_units SET expires_at = :t WHERE id = :i"),
            {"t": past, "i": old["id"]},
        )
    factory = create_session_factory(engine)
    async with factory() as session, session.begin():
        report = await archiver(session, LifecycleSettings(archive_batch=1)).archive_expired(
            datetime.now(UTC)
        )
    assert report.archived == 1
    assert (await client.get(f"/memories/{old['id']}")).json()["status"] == "archived"
    assert (await client.get(f"/memories/{keep['id']}")).json()["status"] == "active"

    r = await client.post("/recall", json={"query": "locker number", "user_id": "u1", "top_k": 10})
    assert [m["id"] for m in r.json()["memories"]] == [keep["id"]]
    r = await client.post(
        "/recall",
        json={"query": "locker number", "user_id": "u1", "top_k": 10, "include_archived": True},
    )
    assert {m["id"] for m in r.json()["memories"]} == {keep["id"], old["id"]}
    r = await client.get("/memories", params={"user_id": "u1"})
    assert [m["id"] for m in r.json()["memories"]] == [keep["id"]]
    r = await client.get("/memories", params={"user_id": "u1", "include_archived": True})
    assert len(r.json()["memories"]) == 2
    # a second sweep finds nothing more
    async with factory() as session, session.begin():
        assert (await archiver(session).archive_expired(datetime.now(UTC))).archived == 0


async def _expire_soon(engine, *ids: str) -> None:
    """A default expiry (not the writer's) that ends within a day, as a unit's type TTL
    would after months unused."""
    async with engine.begin() as conn:
        await conn.execute(
            text("UPDATE memory_units SET expires_at = now() + interval '1 day' WHERE id = :i"),
            [{"i": i} for i in ids],
        )


async def test_recall_logs_access_and_extends_expiry(client, engine):
    used, unused, forever = await store(
        client,
        {"user_id": "u1", "value": "The user's dentist is Dr. Okafor"},
        {"user_id": "u1", "value": "The user collects stamps"},
        {"user_id": "u1", "value": "The user's dentist visits are on Mondays"},
    )
    await _expire_soon(engine, used["id"], unused["id"])
    await client.patch(f"/memories/{forever['id']}", json={"expires_at": None})
    before = datetime.now(UTC)
    for _ in range(2):
        r = await client.post(
            "/recall", json={"query": "dentist", "user_id": "u1", "top_k": 2, "min_score": 0.3}
        )
        ids = [m["id"] for m in r.json()["memories"]]
        assert used["id"] in ids and unused["id"] not in ids

    got = (await client.get(f"/memories/{used['id']}")).json()
    assert datetime.fromisoformat(got["expires_at"]) >= before + 30 * DAY - timedelta(minutes=1)
    assert datetime.fromisoformat(got["last_accessed_at"]) >= before
    other = (await client.get(f"/memories/{unused['id']}")).json()
    assert _close(other["expires_at"], before + DAY) and other["last_accessed_at"] is None
    assert (await client.get(f"/memories/{forever['id']}")).json()["expires_at"] is None
    async with engine.connect() as conn:
        rows = (
            await conn.execute(
                text("SELECT unit_id::text AS u, count(*) AS n FROM memory_access_log GROUP BY 1")
            )
        ).all()
    counts = {r.u: r.n for r in rows}
    assert counts[used["id"]] == 2 and unused["id"] not in counts


async def test_an_expiry_the_writer_gave_is_never_extended_by_recalls(client, engine):
    """Tester B15: a recall of anything returned a small subject's units as filler, and the
    access pushed a unit stored with `ttl_days: 1` to 30 days past that recall. An expiry the
    writer gave (ttl_days / expires_at, at /store or PATCH) is now kept, whatever recalls the
    unit; a default expiry in use is still extended."""
    haircut, sailboat = await store(
        client,
        {"user_id": "ttl1", "type": "event", "value": "Ttl1 had a haircut.", "ttl_days": 1},
        {"user_id": "ttl1", "type": "fact", "value": "Ttl1 owns a sailboat."},
    )
    given = datetime.fromisoformat(haircut["memory"]["expires_at"])
    await _expire_soon(engine, sailboat["id"])
    before = datetime.now(UTC)
    for query in ("What is the capital of Mongolia?", "Did Ttl1 get a haircut?"):
        r = await client.post("/recall", json={"query": query, "user_id": "ttl1", "top_k": 5})
        assert {m["id"] for m in r.json()["memories"]} == {haircut["id"], sailboat["id"]}
    factory = create_session_factory(engine)
    async with factory() as session, session.begin():
        await archiver(session).archive_expired(datetime.now(UTC))
    got = (await client.get(f"/memories/{haircut['id']}")).json()
    assert got["access_count"] == 2 and got["last_accessed_at"] is not None
    assert datetime.fromisoformat(got["expires_at"]) == given  # the writer's: one day
    got = (await client.get(f"/memories/{sailboat['id']}")).json()
    assert datetime.fromisoformat(got["expires_at"]) >= before + 30 * DAY - timedelta(minutes=1)
    # A PATCH that gives an expiry fixes it too; one that gives none leaves it so.
    r = await client.patch(f"/memories/{sailboat['id']}", json={"ttl_days": 1})
    patched = r.json()["memory"]["expires_at"]
    await client.patch(f"/memories/{sailboat['id']}", json={"confidence": 0.8})
    await client.post("/recall", json={"query": "What boat does Ttl1 own?", "user_id": "ttl1"})
    async with factory() as session, session.begin():
        await archiver(session).archive_expired(datetime.now(UTC))
    assert (await client.get(f"/memories/{sailboat['id']}")).json()["expires_at"] == patched


async def test_access_never_shortens_expiry_and_log_is_pruned(client, engine):
    [unit] = await store(client, {"user_id": "u1", "value": "The user speaks Basque"})
    long_expiry = datetime.fromisoformat(unit["memory"]["expires_at"])  # 180 days
    r = await client.post("/recall", json={"query": "Basque language", "user_id": "u1"})
    assert r.json()["memories"][0]["id"] == unit["id"]
    got = (await client.get(f"/memories/{unit['id']}")).json()
    assert datetime.fromisoformat(got["expires_at"]) == long_expiry

    async with engine.begin() as conn:
        await conn.execute(
            text("UPDATE memory_access_log SET accessed_at = accessed_at - interval '100 days'")
        )
    factory = create_session_factory(engine)
    async with factory() as session, session.begin():
        report = await archiver(session).archive_expired(datetime.now(UTC))
    assert report.access_log_pruned == 1


async def test_reactivating_an_expired_unit_needs_a_new_expiry(client, engine):
    [unit] = await store(client, {"user_id": "u1", "value": "The user's gym pass is valid"})
    async with engine.begin() as conn:
        await conn.execute(text("UPDATE memory_units SET expires_at = now() - interval '1 day'"))
    factory = create_session_factory(engine)
    async with factory() as session, session.begin():
        assert (await archiver(session).archive_expired(datetime.now(UTC))).archived == 1
    r = await client.patch(f"/memories/{unit['id']}", json={"status": "active"})
    assert r.status_code == 409 and r.json()["code"] == "conflict"
    r = await client.patch(f"/memories/{unit['id']}", json={"status": "active", "ttl_days": 10})
    assert r.status_code == 200 and r.json()["memory"]["status"] == "active"
    r = await client.post("/recall", json={"query": "gym pass", "user_id": "u1"})
    assert [m["id"] for m in r.json()["memories"]] == [unit["id"]]


async def test_a_logged_recall_commits_without_waiting_for_the_wal_flush(client, engine):
    """The access-log statement turns synchronous_commit off for its own
    transaction only (SET LOCAL): the next transaction on that connection is back to on, and
    the access rows are committed all the same."""
    [unit] = await store(client, {"user_id": "u1", "value": "The user speaks Basque"})
    ids = [uuid.UUID(unit["memory"]["id"])]
    factory = create_session_factory(engine)
    async with factory() as session:
        async with session.begin():
            repo = RecallRepository(session)
            await repo.units(ids)
            show = text("SHOW synchronous_commit")
            assert (await session.execute(show)).scalar() == "on"
            await repo.record_access(ids, datetime.now(UTC), None)
            assert (await session.execute(show)).scalar() == "off"
        async with session.begin():
            assert (await session.execute(show)).scalar() == "on"
    async with engine.connect() as conn:
        n = (await conn.execute(text("SELECT count(*) FROM memory_access_log"))).scalar()
    assert n == 1


async def test_an_autocommit_recall_session_leaves_its_connection_transactional(
    client, database_url
):
    """RecallRepository.connect(autocommit=True) (the exact path): the access-log statement
    commits by itself, with no BEGIN and no COMMIT; the pool gives the same connection back
    transactional (a rollback undoes the next session's write)."""
    [unit] = await store(client, {"user_id": "u1", "value": "The user speaks Basque"})
    ids = [uuid.UUID(unit["memory"]["id"])]
    engine = create_engine(database_url, pool_size=1)
    factory = create_session_factory(engine)
    count = text("SELECT count(*) FROM memory_access_log")
    try:
        async with factory() as session, session.begin():
            repo = RecallRepository(session)
            assert not has_connection(session)
            await repo.connect(autocommit=True)
            assert has_connection(session)
            await repo.connect(autocommit=True)  # connected already: no warning, no change
            raw = await (await session.connection()).get_raw_connection()
            await repo.record_access(ids, datetime.now(UTC), None)
            assert not raw.driver_connection.is_in_transaction()
        async with factory() as session:
            async with session.begin():
                await RecallRepository(session).record_access(ids, datetime.now(UTC), None)
                assert (await session.execute(count)).scalar() == 2
                await session.rollback()
            assert (await session.execute(count)).scalar() == 1
            await session.rollback()
    finally:
        await engine.dispose()


async def test_a_logged_recall_racing_a_delete_of_its_hit_does_not_fail(client, engine):
    """A unit deleted while the access-log statement is logging it (the DELETE still open
    when the statement began, committed while it waits): the statement skips its log row
    instead of failing on the log's foreign key (was a 500 on /recall: 29 of 450 recalls
    racing DELETE /memories/{id} of a hit, 2026-12-03)."""
    [unit] = await store(client, {"user_id": "u1", "value": "The user speaks Basque"})
    [other] = await store(client, {"user_id": "u1", "value": "The user keeps bees in Lyon"})
    gone, kept = uuid.UUID(unit["memory"]["id"]), uuid.UUID(other["memory"]["id"])
    factory = create_session_factory(engine)
    async with factory() as deleting, factory() as recalling:
        await deleting.execute(text("DELETE FROM memory_units WHERE id = :id"), {"id": gone})
        logging = asyncio.create_task(
            RecallRepository(recalling).record_access([gone, kept], datetime.now(UTC), None)
        )
        waiting = text("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'")
        async with engine.connect() as watch:
            for _ in range(200):  # until the logging statement waits for the DELETE's lock
                if (await watch.execute(waiting)).scalar() or logging.done():
                    break
                await asyncio.sleep(0.01)
        await deleting.commit()
        await logging
        await recalling.commit()
    async with engine.connect() as conn:
        logged = (await conn.execute(text("SELECT unit_id FROM memory_access_log"))).all()
    assert [r.unit_id for r in logged] == [kept]


@pytest.mark.parametrize(
    "again",
    ["Dana is vegetarian", "dana is vegetarian!"],  # the same value; a normalised copy
)
async def test_a_fact_stored_again_after_its_unit_expired_is_a_new_live_unit(client, engine, again):
    # Tester (stop 38): before the archival sweep reached an expired unit, storing its fact
    # again answered "merged" into it, and recall then found nothing.
    [old] = await store(client, {"user_id": "u1", "value": "Dana is vegetarian"})
    async with engine.begin() as conn:
        await conn.execute(text("UPDATE memory_units SET expires_at = now() - interval '1 minute'"))
    [new] = await store(client, {"user_id": "u1", "value": again})
    assert new["outcome"] == "created" and new["id"] != old["id"]
    r = await client.post("/recall", json={"query": "Is Dana vegetarian?", "user_id": "u1"})
    assert [m["id"] for m in r.json()["memories"]] == [new["id"]]
    # The expired unit is still there for the sweep (history kept), not changed by the store.
    r = await client.get(f"/memories/{old['id']}")
    assert r.status_code == 200 and r.json()["merge_count"] == 0


@pytest.mark.parametrize(
    "corrected",
    # a normalised copy (the hash lookup), another notation (the neighbour read's pair decision)
    [("The user likes green tea", "The user likes green tea!"),
     ("The user has two cats", "The user has 2 cats")],
)  # fmt: skip
async def test_a_correction_is_not_merged_into_an_expired_unit(client, engine, corrected):
    # The corrections path (PATCH) reads its candidates through the repository's live units,
    # as /store does: a unit past expires_at that the sweep has not archived is no target.
    old_value, new_value = corrected
    old, other = await store(
        client,
        {"user_id": "u1", "value": old_value},
        {"user_id": "u1", "value": "The user lives in Berlin"},
    )
    # Without the expiry the correction merges (the control).
    r = await client.patch(f"/memories/{other['id']}", json={"value": new_value})
    assert r.status_code == 200 and r.json()["outcome"] == "merged", r.text
    _, other = await store(
        client,
        {"user_id": "u2", "value": old_value},
        {"user_id": "u2", "value": "The user lives in Berlin"},
    )
    async with engine.begin() as conn:
        await conn.execute(
            text("UPDATE memory_units SET expires_at = now() - interval '1 minute'"
                 " WHERE user_id = 'u2' AND id <> :keep"),
            {"keep": uuid.UUID(other["id"])},
        )  # fmt: skip
    r = await client.patch(f"/memories/{other['id']}", json={"value": new_value})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["outcome"] == "updated" and body["id"] == other["id"]
    assert body["memory"]["status"] == "active" and body["memory"]["value"] == new_value
    r = await client.post("/recall", json={"query": old_value, "user_id": "u2"})
    assert [m["id"] for m in r.json()["memories"]] == [other["id"]]
