"""Subject indexes: the worker's sweep builds HNSW indexes of one large subject's vectors
(partial indexes naming the subject), keeps them while the subject stays large, drops them when
it shrinks or is forgotten, and recall's large path scans them instead of the shared ones."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from datetime import UTC, datetime

import pytest
from sqlalchemy import select, text
from sqlalchemy.ext.asyncio import AsyncEngine

from app.core.config import RecallSettings, Settings
from app.core.db import create_session_factory
from app.models import MemoryUnit
from app.repositories.memory.filters import UnitFilters
from app.repositories.recall.repository import RecallRepository
from app.repositories.recall.subject_indexes import (
    SubjectIndexRepository,
    index_name,
)
from app.services.recall.subject_indexes import SubjectIndexer, SweepReport
from app.services.wiring import Resources, job_runner
from app.worker.main import Worker
from tests.services.lifecycle.test_lifecycle import store

SMALL = RecallSettings(subject_index_min_units=6, subject_index_max=4, subject_index_max_share=0.9)
# A subject id that must stay one SQL string constant.
ODD = "o'brien\\'); DROP TABLE memory_units; --"


async def _sweep(engine: AsyncEngine, settings: RecallSettings = SMALL) -> SweepReport:
    async with create_session_factory(engine)() as session:
        return await SubjectIndexer(SubjectIndexRepository(session), settings).sweep()


async def _indexes(engine: AsyncEngine) -> dict[str, str]:
    """Subject index name → its definition, from the catalog."""
    async with engine.connect() as conn:
        rows = await conn.execute(
            text(
                "SELECT indexname, indexdef FROM pg_indexes"
                " WHERE tablename = 'memory_units' AND indexname LIKE 'ix_mu_subject_%'"
            )
        )
        return {str(r[0]): str(r[1]) for r in rows}


@pytest.fixture(autouse=True)
async def drop_subject_indexes(engine: AsyncEngine) -> AsyncIterator[None]:
    """Indexes outlive the tables' truncation between tests: drop them after each."""
    yield
    await _sweep(engine, RecallSettings(subject_index_min_units=0))
    assert await _indexes(engine) == {}


async def _fill(client, user: str, n: int) -> None:  # type: ignore[no-untyped-def]
    await store(
        client,
        *({"user_id": user, "value": f"{user} note number {i} about topic {i}"} for i in range(n)),
    )


def _names(namespace: str, user: str) -> set[str]:
    return {index_name(namespace, user, c) for c in ("value_embedding", "query_embedding")}


async def test_sweep_builds_indexes_for_large_subjects_only(client, engine) -> None:
    await _fill(client, "big", 8)
    await _fill(client, "small", 3)
    report = await _sweep(engine)
    assert set(report.built) == _names("default", "big")
    assert report.indexed == [("default", "big")]
    defs = await _indexes(engine)
    assert set(defs) == _names("default", "big")
    for d in defs.values():
        assert "USING hnsw" in d and "vector_cosine_ops" in d
        assert "namespace)::text = 'default'" in d and "user_id)::text = 'big'" in d
    # Listed with their subject, valid; a second sweep has nothing to do.
    async with create_session_factory(engine)() as session:
        listed = await SubjectIndexRepository(session).listed()
    assert {(i.namespace, i.user_id, i.valid) for i in listed} == {("default", "big", True)}
    again = await _sweep(engine)
    assert again.built == [] and again.dropped == []


async def test_cap_and_share_choose_the_largest_subjects(client, engine) -> None:
    await _fill(client, "a", 9)
    await _fill(client, "b", 8)
    await _fill(client, "c", 7)
    capped = RecallSettings(
        subject_index_min_units=6, subject_index_max=2, subject_index_max_share=0.9
    )
    report = await _sweep(engine, capped)
    assert {s for _, s in report.indexed} == {"a", "b"}
    # A subject holding more than the share of the table gets none (the shared index is
    # nearly its own): a holds 9 of 24.
    report = await _sweep(
        engine,
        RecallSettings(
            subject_index_min_units=6, subject_index_max=4, subject_index_max_share=0.35
        ),
    )
    assert {s for _, s in report.indexed} == {"b", "c"}
    assert set(report.dropped) == _names("default", "a")


async def test_shrunk_or_forgotten_subjects_lose_their_indexes(client, engine) -> None:
    await _fill(client, "big", 8)
    await _fill(client, "other", 8)
    await _sweep(engine)
    ids = [
        m["id"]
        for m in (await client.get("/memories", params={"user_id": "big"})).json()["memories"]
    ]
    # Down to 4 (over half of 6): kept, so a subject around the threshold is not rebuilt.
    for unit_id in ids[:4]:
        assert (await client.delete(f"/memories/{unit_id}")).status_code == 200
    assert (await _sweep(engine)).dropped == []
    # Down to 2: dropped.
    for unit_id in ids[4:6]:
        assert (await client.delete(f"/memories/{unit_id}")).status_code == 200
    assert set((await _sweep(engine)).dropped) == _names("default", "big")
    # Forgotten: the next sweep drops its indexes, which name the subject.
    assert (await client.delete("/memories", params={"user_id": "other"})).status_code == 200
    assert set((await _sweep(engine)).dropped) == _names("default", "other")
    assert await _indexes(engine) == {}


async def test_a_subject_id_with_quotes_stays_a_string_constant(client, engine) -> None:
    await _fill(client, ODD, 7)
    await _fill(client, "other", 3)
    report = await _sweep(engine)
    assert report.indexed == [("default", ODD)]
    async with create_session_factory(engine)() as session:
        listed = await SubjectIndexRepository(session).listed()
        # The predicate names exactly this subject: its own units are all in the index.
        n = await session.scalar(
            text("SELECT count(*) FROM memory_units WHERE user_id = :u"), {"u": ODD}
        )
    assert n == 7
    assert {i.user_id for i in listed} == {ODD}


async def test_recall_of_a_large_subject_scans_its_own_index(client, engine) -> None:
    await _fill(client, "big", 8)
    await _fill(client, "other", 8)
    await _sweep(engine)
    names = _names("default", "big")
    async with create_session_factory(engine)() as session, session.begin():
        # With so few rows the planner would sort them all; leave it only index scans.
        await session.execute(text("SET LOCAL enable_seqscan = off"))
        await session.execute(text("SET LOCAL enable_sort = off"))
        repo = RecallRepository(session)
        f = UnitFilters(namespace="default", user_id="big", now=datetime.now(UTC))
        emb = await session.scalar(
            select(MemoryUnit.value_embedding).where(MemoryUnit.user_id == "big").limit(1)
        )
        for _ in range(7):  # past the 5 runs after which PostgreSQL may plan generically
            found = await repo.candidates(
                f, emb, "topic", [], exact=False, per_source=5, ef_search=40
            )
            assert found.scores
        scans = {
            str(r[0]): int(r[1])
            for r in await session.execute(
                text(
                    "SELECT c.relname, pg_stat_get_xact_numscans(c.oid) FROM pg_class c"
                    " WHERE c.relname LIKE 'ix_memory_units_%_hnsw' OR c.relname = ANY(:n)"
                ),
                {"n": sorted(names)},
            )
        }
    assert all(scans[n] >= 7 for n in names), scans
    assert scans["ix_memory_units_value_embedding_hnsw"] == 0, scans
    assert scans["ix_memory_units_query_embedding_hnsw"] == 0, scans


async def test_the_worker_sweeps_on_its_schedule(client, database_url, engine, caplog):
    await _fill(client, "big", 8)
    await _fill(client, "other", 3)
    settings = Settings(
        database_url=database_url,
        recall=SMALL.model_copy(update={"subject_index_interval_s": 120}),
    )
    factory = create_session_factory(engine)
    resources = Resources(settings, None)
    worker = Worker(resources, factory, job_runner(resources, factory))
    [task] = [p for p in worker.periodic if p.name == "recall.subject_indexes"]
    assert task.interval_s == 120
    with caplog.at_level(logging.INFO, logger="hindsight.worker"):
        await task.run()
    assert set(await _indexes(engine)) == _names("default", "big")
    assert "1 subject(s) indexed" in caplog.text
    off = Settings(database_url=database_url, recall=RecallSettings(subject_index_interval_s=0))
    worker = Worker(Resources(off, None), factory, job_runner(resources, factory))
    assert "recall.subject_indexes" not in {p.name for p in worker.periodic}


async def test_one_sweep_at_a_time(client, engine) -> None:
    await _fill(client, "big", 8)
    await _fill(client, "other", 3)
    async with create_session_factory(engine)() as holder:
        held = SubjectIndexRepository(holder)
        assert await held.try_lock()
        report = await _sweep(engine)
        assert report.skipped and report.built == []
        await held.unlock()
    report = await _sweep(engine)
    assert not report.skipped and set(report.built) == _names("default", "big")
