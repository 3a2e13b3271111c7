"""Periodic distillation: episodic units become semantic ones through the write path; a
repeated preference merges instead of duplicating; due-subject selection; the scheduled job
runs each subject in its own transaction."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import text

from app.clients.embeddings import Embedder, create_embedder
from app.clients.llm import OpenAIChatClient
from app.core.config import LifecycleSettings, LLMSettings, Settings
from app.core.db import create_session_factory
from app.core.errors import ProviderError
from app.repositories.memory.units import Subject
from app.services.lifecycle.distill import (
    DistillService,
    distill_due,
    distiller_for,
    states_preference,
)
from app.services.wiring import Resources, Services
from tests.fake_llm import Reply
from tests.services.lifecycle.test_lifecycle import store

SUBJECT = Subject("default", "u1", None)


@pytest.fixture(scope="module")
async def embedder() -> AsyncIterator[Embedder]:
    e = create_embedder(Settings().embedding)
    yield e
    await e.aclose()


async def run(engine, embedder, settings=None, llm=None, subject=SUBJECT, now=None):  # type: ignore[no-untyped-def]
    factory = create_session_factory(engine)
    lifecycle = settings or LifecycleSettings()
    async with factory() as session, session.begin():
        # The distiller asks ``llm``; the write path has no LLM judge (its local rules).
        services = Services(Resources(Settings(lifecycle=lifecycle), embedder), session)
        distiller = distiller_for(llm, lifecycle, parse_retries=1)
        service = DistillService(services.lifecycle, services.store(), distiller, lifecycle)
        return await service.distill_subject(subject, now or datetime.now(UTC))


def distill_services(settings: LifecycleSettings, embedder):  # type: ignore[no-untyped-def]
    resources = Resources(Settings(lifecycle=settings), embedder)
    return lambda session: Services(resources, session).distill()


async def due_subjects(session, now, settings, embedder):  # type: ignore[no-untyped-def]
    return await distill_services(settings, embedder)(session).due_subjects(now)


async def semantic(engine, kind: str = "preference") -> list[tuple[str, int, str]]:
    async with engine.connect() as conn:
        rows = await conn.execute(
            text(
                "SELECT value, merge_count, status FROM memory_units WHERE type = :t "
                "ORDER BY created_at"
            ),
            {"t": kind},
        )
        return [(r.value, r.merge_count, r.status) for r in rows]


def test_preference_cues():
    assert states_preference("The user always orders an oat milk latte")
    assert states_preference("用户每天早上喝绿茶")
    assert not states_preference("The user flew to Oslo on Monday")


async def test_offline_distillation_of_a_source_leaves_a_held_preference_active(
    client, engine, embedder
):
    [held] = await store(
        client, {"user_id": "u1", "type": "preference", "value": "The user prefers tea."}
    )
    await store(client, {"user_id": "u1", "type": "event", "value": "I prefer coffee."})
    result = await run(engine, embedder)
    assert [o.outcome for o in result.outcomes] == ["created"]
    assert result.outcomes[0].unit.value == "Preference: The user prefers coffee."
    assert ("The user prefers tea.", 0, "active") in await semantic(engine)


async def test_offline_distillation_merges_a_repeated_preference(client, engine, embedder):
    first = await store(
        client,
        {"user_id": "u1", "type": "event", "value": "The user always orders an oat milk latte"},
        {"user_id": "u1", "type": "event", "value": "The user flew to Oslo on Monday"},
    )
    result = await run(engine, embedder)
    assert result.mode == "offline" and result.looked_at == 2
    assert [o.outcome for o in result.outcomes] == ["created"]
    assert await semantic(engine) == [
        ("Preference: The user always orders an oat milk latte.", 0, "active")
    ]
    # the episodic source stays active and is linked
    async with engine.connect() as conn:
        links = (await conn.execute(text("SELECT source_id::text, kind FROM memory_links"))).all()
    assert links == [(first[0]["id"], "distilled")]

    # the same preference shows up again (restated in a later episode): merged, not duplicated
    await store(
        client,
        {"user_id": "u1", "type": "event", "value": "The user always orders an oat-milk latte."},
    )
    result = await run(engine, embedder)
    assert [o.outcome for o in result.outcomes] == ["merged"]
    [(value, merges, status)] = await semantic(engine)
    assert merges == 1 and status == "active"


async def test_offline_distillation_finds_habits(client, engine, embedder):
    for _ in range(3):  # the same episode three times: one unit with merge_count 2
        await store(client, {"user_id": "u1", "type": "action", "value": "用户晚饭后去跑步。"})
    # Tester C30: three statements of one afternoon are no habit.
    settings = LifecycleSettings(distill_min_support=3)
    assert (await run(engine, embedder, settings)).outcomes == []
    async with engine.begin() as conn:  # told first two days before the last time
        await conn.execute(text("UPDATE memory_units SET created_at = now() - interval '2 days'"))
    result = await run(engine, embedder, settings)
    assert [o.outcome for o in result.outcomes] == ["created"]
    assert await semantic(engine, "fact") == [("习惯：用户晚饭后去跑步。", 0, "active")]


async def test_a_one_off_event_told_again_is_no_habit(client, engine, embedder):
    # Tester C30: one flight, told in three sessions, became "Habit: The user needs a flight
    # from Berlin to Tokyo on 2026-12-11 (Friday).", a 180-day fact.
    flight = "The user needs a flight from Berlin to Tokyo on 2026-12-11 (Friday)."
    for _ in range(3):
        await store(client, {"user_id": "u1", "type": "event", "value": flight})
    async with engine.begin() as conn:
        await conn.execute(text("UPDATE memory_units SET created_at = now() - interval '2 days'"))
    assert (await run(engine, embedder, LifecycleSettings(distill_min_support=3))).outcomes == []
    assert await semantic(engine, "fact") == []


async def test_llm_distillation_merges_repeats_and_drops_weak_units(
    client, engine, embedder, fake_llm
):
    fake_llm.reset()
    await store(
        client,
        {"user_id": "u1", "type": "event", "value": "The user asked for oat milk in the coffee"},
        {"user_id": "u1", "type": "event", "value": "The user swapped cow milk for oat milk"},
    )
    reply = json.dumps(
        {
            "memories": [
                {
                    "type": "preference",
                    "value": "The user prefers oat milk in coffee.",
                    "query": "When the user orders coffee",
                    "confidence": 0.9,
                    "source_turns": [0, 1, 7],
                },
                {"type": "preference", "value": "The user may like tea.", "confidence": 0.4},
                {"type": "event", "value": "The user drank coffee.", "confidence": 0.9},
            ]
        }
    )
    client_llm = OpenAIChatClient(
        LLMSettings(base_url=fake_llm.base_url, model="m", timeout_s=2, max_retries=0)
    )
    try:
        fake_llm.push(Reply(content="no json"), Reply(content=reply), Reply(content=reply))
        result = await run(engine, embedder, llm=client_llm)
        assert result.mode == "llm" and [o.outcome for o in result.outcomes] == ["created"]
        result = await run(engine, embedder, llm=client_llm)
        assert [o.outcome for o in result.outcomes] == ["merged"]
        assert await semantic(engine) == [("The user prefers oat milk in coffee.", 1, "active")]
        async with engine.connect() as conn:
            n = (await conn.execute(text("SELECT count(*) FROM memory_links"))).scalar_one()
        assert n == 2  # the two real episodes; the invented [7] is dropped

        # a failing LLM writes nothing and does not record the run
        fake_llm.push(Reply(status=500))
        with pytest.raises(ProviderError):
            await run(engine, embedder, llm=client_llm)
        assert len(await semantic(engine)) == 1
        async with engine.connect() as conn:
            runs = (await conn.execute(text("SELECT runs FROM distillation_state"))).scalar_one()
        assert runs == 2
    finally:
        await client_llm.aclose()


async def test_due_subjects_and_scheduled_job(client, engine, embedder):
    settings = LifecycleSettings(distill_every_tasks=2, distill_min_age_s=3600)
    factory = create_session_factory(engine)
    await store(
        client,
        {"user_id": "u1", "type": "event", "value": "The user always takes the night train"},
        {"user_id": "u2", "type": "fact", "value": "Semantic only: not episodic"},
    )
    now = datetime.now(UTC)
    async with factory() as session:
        due = await due_subjects(session, now, settings, embedder)
    assert [(d.user_id, d.agent_id) for d in due] == [("u1", None)]  # never distilled

    done = await distill_due(factory, distill_services(settings, embedder), now)
    assert done == 1 and len(await semantic(engine)) == 1
    async with factory() as session:
        assert await due_subjects(session, now, settings, embedder) == []  # nothing new

    # one new closed task: not yet due (needs 2 tasks or an hour)
    await store(client, {"user_id": "u1", "type": "event", "task_id": "t1", "value": "Task 1"})
    async with factory() as session:
        assert await due_subjects(session, datetime.now(UTC), settings, embedder) == []
    await store(client, {"user_id": "u1", "type": "event", "task_id": "t2", "value": "Task 2"})
    async with factory() as session:
        assert len(await due_subjects(session, datetime.now(UTC), settings, embedder)) == 1
        # or an hour after the last run, whatever the number of tasks
        later = datetime.now(UTC) + timedelta(hours=2)
        assert len(await due_subjects(session, later, settings, embedder)) == 1
