"""POST /extract with the offline extractor (no LLM configured): the fixture conversations,
async jobs run by a real worker, idempotent session extraction, relative dates in a time
zone, bad input."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

import pytest

from app.core.config import Settings, WorkerSettings
from app.services.wiring import Resources
from app.worker.main import Worker
from tests.conftest import count_rows

# Wednesday 2026-11-25, 10:00 in Shanghai.
NOW = "2026-11-25T02:00:00Z"

FIXTURE_EN = [
    {"role": "user", "content": "Hi! Quick heads-up: I'm allergic to peanuts, so keep that in "
     "mind for any food suggestions."},
    {"role": "assistant", "content": "Noted. How can I help?"},
    {"role": "user", "content": "I'm flying to Shanghai next Friday for a conference."},
    {"role": "assistant", "content": "Great, here is a long overview of Shanghai ..."},
    {"role": "user", "content": "Please keep your answers short. I prefer concise answers."},
    {"role": "user", "content": "Also, I don't like spicy food."},
    {"role": "user", "content": "thanks, that's great"},
]  # fmt: skip

FIXTURE_ZH = [
    {"role": "user", "content": "你好，我对花生过敏，不要给我推荐有花生的菜。"},
    {"role": "assistant", "content": "好的，记住了。"},
    {"role": "user", "content": "我下周五去上海出差。"},
    {"role": "user", "content": "回答请简洁一点。我不喜欢吃辣的。"},
    {"role": "user", "content": "好的，谢谢"},
]


pytestmark = pytest.mark.usefixtures("empty_queue")


def by_value(units: list[dict]) -> dict[str, dict]:
    return {u["value"]: u for u in units}


async def test_fixture_conversation_gives_the_four_units(client, engine):
    r = await client.post(
        "/extract?wait=true",
        json={"user_id": "u1", "messages": FIXTURE_EN, "timezone": "Asia/Shanghai", "now": NOW},
    )
    assert r.status_code == 200, r.text
    job = r.json()
    assert job["status"] == "succeeded" and job["extractor"] == "offline"
    assert job["attempts"] == 1
    units = by_value(job["units"])
    assert units["The user is allergic to peanuts."]["outcome"] == "created"
    assert "The user prefers concise answers." in units
    assert "The user does not like spicy food." in units
    trip = next(u for v, u in units.items() if "Shanghai" in v)
    # Next Friday from Wednesday 2026-11-25 is the Friday of next week.
    assert "2026-12-04" in trip["value"] and "next Friday" not in trip["value"]
    assert await count_rows(engine) == len([u for u in job["units"] if u["memory_id"]])

    stored = await client.get(f"/memories/{units['The user is allergic to peanuts.']['memory_id']}")
    mem = stored.json()
    assert mem["type"] == "constraint" and mem["source"] == "extraction"
    assert "peanuts" in mem["entities"]
    assert mem["query"] and mem["query"] != mem["value"]  # a trigger scenario
    assert mem["raw_ref"] == [f"job:{job['id']}#0"]
    trip_mem = (await client.get(f"/memories/{trip['memory_id']}")).json()
    assert trip_mem["type"] == "event"
    assert trip_mem["occurred_at"].startswith("2026-12-03T16:00:00")  # midnight in Shanghai


async def test_chinese_conversation_gives_chinese_units(client):
    r = await client.post(
        "/extract?wait=true",
        json={"user_id": "u-zh", "messages": FIXTURE_ZH, "timezone": "Asia/Shanghai", "now": NOW},
    )
    assert r.status_code == 200, r.text
    values = [u["value"] for u in r.json()["units"]]
    assert "用户对花生过敏。" in values
    assert "用户希望回答简洁。" in values
    assert any(v.startswith("用户不喜欢") and "辣" in v for v in values)
    assert any("2026年12月4日" in v and "上海" in v for v in values)
    # every unit is in Chinese, none in English
    assert all(any("\u4e00" <= ch <= "\u9fff" for ch in v) for v in values)
    assert not any("The user" in v for v in values)


@pytest.mark.parametrize(
    ("now", "tz", "expected"),
    [
        # 17:30 UTC on Thursday Nov 26 is already Friday 01:30 in Shanghai.
        ("2026-11-26T17:30:00Z", "Asia/Shanghai", "2026-11-28"),
        ("2026-11-26T17:30:00Z", "UTC", "2026-11-27"),
        ("2026-11-26T17:30:00Z", "America/Los_Angeles", "2026-11-27"),
    ],
)
async def test_relative_dates_resolve_in_the_given_timezone(client, now, tz, expected):
    r = await client.post(
        "/extract?wait=true",
        json={
            "user_id": "u-tz",
            "messages": [{"role": "user", "content": "I have a dentist appointment tomorrow."}],
            "timezone": tz,
            "now": now,
        },
    )
    assert r.status_code == 200, r.text
    (unit,) = r.json()["units"]
    assert expected in unit["value"], unit


async def test_low_confidence_units_are_dropped_not_written(client, engine):
    r = await client.post(
        "/extract?wait=true",
        json={"user_id": "u2", "messages": [{"role": "user", "content": "Maybe I like jazz."}]},
    )
    job = r.json()
    assert [u["outcome"] for u in job["units"]] == ["dropped"]
    assert job["units"][0]["memory_id"] is None
    assert await count_rows(engine) == 0


async def test_async_extract_acknowledges_then_a_worker_runs_it(client, engine, settings):
    r = await client.post("/extract", json={"user_id": "u3", "messages": FIXTURE_EN, "now": NOW})
    assert r.status_code == 202, r.text
    job = r.json()
    assert job["status"] == "queued" and r.headers["location"] == f"/extract/{job['id']}"
    # The job row and its queue entry are both committed.
    assert await count_rows(engine, "extraction_jobs") == 1
    assert await count_rows(engine, "pgqueuer") == 1

    app = client._transport.app  # type: ignore[attr-defined]
    worker = Worker(
        Resources(
            settings.model_copy(
                update={"worker": WorkerSettings(in_process=True, poll_interval_s=0.2)}
            )
        ),
        app.state.session_factory,
        app.state.extraction.runner,
    )
    task = asyncio.create_task(worker.run())
    try:
        for _ in range(100):
            body = (await client.get(f"/extract/{job['id']}")).json()
            if body["status"] == "succeeded":
                break
            await asyncio.sleep(0.1)
        assert body["status"] == "succeeded", body
        assert len([u for u in body["units"] if u["outcome"] == "created"]) == 4
    finally:
        worker.request_stop()
        await asyncio.wait_for(task, 10)


async def test_extract_needs_messages_or_session_and_a_valid_zone(client, engine):
    r = await client.post("/extract", json={"user_id": "u"})
    assert r.status_code == 422 and r.headers["content-type"].startswith("application/problem")
    r = await client.post(
        "/extract",
        json={"user_id": "u", "messages": [{"role": "user", "content": "x"}], "timezone": "Mars/X"},
    )
    assert r.status_code == 422 and "time zone" in r.json()["detail"]
    r = await client.post("/extract", json={"user_id": "u", "session_id": "nope"})
    assert r.status_code == 422 and "no messages to extract" in r.json()["detail"]
    assert await count_rows(engine, "extraction_jobs") == 0
    assert await count_rows(engine, "pgqueuer") == 0


async def test_unknown_job_is_404(client):
    r = await client.get("/extract/00000000-0000-0000-0000-000000000000")
    assert r.status_code == 404 and r.json()["code"] == "not_found"


async def test_retry_refuses_a_job_that_did_not_fail(client):
    r = await client.post(
        "/extract?wait=true",
        json={"user_id": "u", "messages": [{"role": "user", "content": "I live in Paris."}]},
    )
    r = await client.post(f"/extract/{r.json()['id']}/retry")
    assert r.status_code == 409 and r.json()["code"] == "job_not_retryable"


def test_settings_default_worker_mode():
    assert Settings(database_url=None).worker.in_process is True
    assert Settings(database_url="postgresql://x/y").worker.in_process is False
    assert Settings(database_url="postgresql://x/y", worker={"in_process": True}).worker.in_process
    assert datetime(2026, 11, 25, tzinfo=UTC).weekday() == 2  # the fixtures' "now" is a Wednesday


async def test_job_row_and_queue_entry_commit_together(engine, settings):
    """Transactional enqueue: a transaction that fails after the enqueue leaves neither the
    job nor its queue entry; a committed one leaves both."""
    from sqlalchemy.ext.asyncio import async_sessionmaker

    from app.repositories.jobs import JobRepository
    from app.repositories.working_memory.transcript import TranscriptRepository
    from app.schemas.extract import ExtractMessage
    from app.services.extraction.jobs import ExtractionService, Scope

    factory = async_sessionmaker(engine, expire_on_commit=False)
    messages = [ExtractMessage(role="user", content="I live in Rome.")]

    async def submit(session) -> None:  # type: ignore[no-untyped-def]
        service = ExtractionService(
            JobRepository(session), TranscriptRepository(session), settings.extraction,
            settings.worker,
        )  # fmt: skip
        await service.submit_messages(Scope("default", "u"), messages, timezone="UTC", now=None)

    with pytest.raises(RuntimeError):
        async with factory() as session, session.begin():
            await submit(session)
            raise RuntimeError("crash before commit")
    assert await count_rows(engine, "extraction_jobs") == 0
    assert await count_rows(engine, "pgqueuer") == 0

    async with factory() as session, session.begin():
        await submit(session)
    assert await count_rows(engine, "extraction_jobs") == 1
    assert await count_rows(engine, "pgqueuer") == 1


class _Crashing:
    """An extractor that fails as a bug would: an exception whose text holds SQL."""

    name = "offline"

    async def extract(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        raise RuntimeError("boom [SQL: SELECT secret FROM memory_units] [parameters: ('u1',)]")


async def test_an_unexpected_error_is_not_shown_in_the_job(client, monkeypatch):
    # Tester (stop 38): a failed job's `error` carried the whole statement and its parameters.
    app = client._transport.app  # type: ignore[attr-defined]
    monkeypatch.setattr(app.state.extraction.runner, "extractor", _Crashing())
    r = await client.post(
        "/extract?wait=true",
        json={"user_id": "u1", "messages": [{"role": "user", "content": "I live in Rome."}]},
    )
    job = r.json() if r.status_code == 200 else (await client.get(r.headers["location"])).json()
    assert job["status"] in ("retrying", "failed"), job
    assert job["error"].startswith("RuntimeError: an unexpected error"), job["error"]
    assert "SQL" not in str(job) and "secret" not in str(job)
