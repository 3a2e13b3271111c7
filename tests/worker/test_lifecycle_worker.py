"""The worker's schedule: archival and distillation are registered next to the silence scan,
configurable, and every run shows in the logs and in Prometheus metrics."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta

import pytest
from prometheus_client import REGISTRY
from sqlalchemy import text

from app.clients.embeddings import Embedder, create_embedder
from app.core.config import ClosureSettings, LifecycleSettings, Settings
from app.core.db import create_session_factory
from app.services.wiring import Resources, job_runner
from app.worker.main import Worker
from tests.services.lifecycle.test_lifecycle import store


@pytest.fixture(scope="module")
async def embedder() -> AsyncIterator[Embedder]:
    e = create_embedder(Settings().embedding)
    yield e
    await e.aclose()


def worker_for(database_url, engine, embedder, **lifecycle):  # type: ignore[no-untyped-def]
    settings = Settings(
        database_url=database_url,
        lifecycle=LifecycleSettings(**lifecycle),
        closure=ClosureSettings(scan_interval_s=60),
    )
    factory = create_session_factory(engine)
    resources = Resources(settings, embedder)
    return Worker(resources, factory, job_runner(resources, factory))


def metric(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


async def test_schedule_is_configurable(database_url, engine, embedder):
    worker = worker_for(database_url, engine, embedder, archive_interval_s=5, distill_interval_s=7)
    assert {(p.name, p.interval_s) for p in worker.periodic} == {
        ("closure.silence_scan", 60),
        ("lifecycle.archive", 5),
        ("lifecycle.distill", 7),
        ("recall.subject_indexes", 600),
    }
    worker = worker_for(database_url, engine, embedder, archive_interval_s=0, distill_interval_s=0)
    assert [p.name for p in worker.periodic] == ["closure.silence_scan", "recall.subject_indexes"]


async def test_scheduled_jobs_run_log_and_count(client, database_url, engine, embedder, caplog):
    expired, episode = await store(
        client,
        {"user_id": "u1", "value": "The user's parking spot is B12"},
        {"user_id": "u1", "type": "event", "value": "The user always cycles to work"},
    )
    async with engine.begin() as conn:
        await conn.execute(
            text("UPDATE memory_units SET expires_at = :t WHERE id = :i"),
            {"t": datetime.now(UTC) - timedelta(hours=1), "i": expired["id"]},
        )
    worker = worker_for(database_url, engine, embedder)
    tasks = {p.name: p for p in worker.periodic}
    before = {
        "archive": metric("hindsight_scheduled_runs_total", task="lifecycle.archive", outcome="ok"),
        "archived": metric("hindsight_lifecycle_items_total", kind="archived_units"),
        "distilled": metric("hindsight_lifecycle_items_total", kind="distilled_subjects"),
    }
    with caplog.at_level(logging.INFO, logger="hindsight.worker"):
        await tasks["lifecycle.archive"].run()
        await tasks["lifecycle.distill"].run()
    assert (await client.get(f"/memories/{expired['id']}")).json()["status"] == "archived"
    r = await client.get("/memories", params={"user_id": "u1", "types": ["preference"]})
    assert [m["value"] for m in r.json()["memories"]] == [
        "Preference: The user always cycles to work."
    ]
    assert "1 expired unit(s) archived" in caplog.text
    assert "1 subject(s) distilled" in caplog.text
    assert (
        metric("hindsight_scheduled_runs_total", task="lifecycle.archive", outcome="ok")
        == before["archive"] + 1
    )
    assert (
        metric("hindsight_lifecycle_items_total", kind="archived_units") == before["archived"] + 1
    )
    assert (
        metric("hindsight_lifecycle_items_total", kind="distilled_subjects")
        == before["distilled"] + 1
    )
    assert metric("hindsight_scheduled_duration_seconds_count", task="lifecycle.distill") >= 1


async def test_periodic_loop_runs_the_jobs(client, database_url, engine, embedder):
    """The worker's own loop calls the lifecycle tasks at their interval."""
    [unit] = await store(client, {"user_id": "u1", "value": "Short-lived note", "ttl_days": 1})
    async with engine.begin() as conn:
        await conn.execute(text("UPDATE memory_units SET expires_at = now() - interval '1 minute'"))
    worker = worker_for(
        database_url, engine, embedder, archive_interval_s=0.05, distill_interval_s=0
    )
    [archive] = [p for p in worker.periodic if p.name == "lifecycle.archive"]
    loop = asyncio.create_task(worker._periodic(archive))
    try:
        for _ in range(100):
            await asyncio.sleep(0.05)
            if (await client.get(f"/memories/{unit['id']}")).json()["status"] == "archived":
                break
        else:
            raise AssertionError("the archival task never ran")
    finally:
        worker.request_stop()
        await asyncio.wait_for(loop, 5)


async def test_the_archive_job_prunes_idempotency_answers_past_their_retention(
    client, database_url, engine, embedder, caplog
):
    # Tester C27: every client write's first answer was kept forever (the clients send an
    # Idempotency-Key on each write). Past TTL__IDEMPOTENCY_RETENTION_HOURS (48) they go.
    for key in ("old-1", "new-1"):
        r = await client.post(
            "/store",
            json={"memories": [{"user_id": "u1", "value": f"The user's locker is {key}."}]},
            headers={"Idempotency-Key": key},
        )
        assert r.status_code == 200, r.text
    async with engine.begin() as conn:
        await conn.execute(
            text("UPDATE idempotency_keys SET created_at = :t WHERE key = 'old-1'"),
            {"t": datetime.now(UTC) - timedelta(hours=49)},
        )
    worker = worker_for(database_url, engine, embedder)
    tasks = {p.name: p for p in worker.periodic}
    before = metric("hindsight_lifecycle_items_total", kind="idempotency_pruned")
    with caplog.at_level(logging.INFO, logger="hindsight.worker"):
        await tasks["lifecycle.archive"].run()
    assert "1 stored Idempotency-Key answer(s) pruned" in caplog.text
    assert metric("hindsight_lifecycle_items_total", kind="idempotency_pruned") == before + 1
    async with engine.connect() as conn:
        keys = (await conn.execute(text("SELECT key FROM idempotency_keys"))).scalars().all()
    assert keys == ["new-1"]
