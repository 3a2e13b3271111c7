"""Extraction jobs are queued fairly between namespaces (tester finding C13: one API key's
queued transcripts held up every other namespace's extraction for minutes): each job's queue
priority is minus its namespace's unfinished jobs, so the worker takes every namespace's first
job before any namespace's second; and `POST /extract` of a transcript is a 429 once a
namespace has EXTRACTION__MAX_PENDING_PER_NAMESPACE unfinished jobs."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest
from sqlalchemy import text

from app.core.config import AuthSettings, ExtractionSettings, Settings
from app.core.vocabulary import EXTRACT_ENTRYPOINT
from tests.api.test_validation import assert_problem
from tests.conftest import running_app

pytestmark = pytest.mark.usefixtures("empty_queue")

MESSAGES = [{"role": "user", "content": "I am allergic to penicillin."}]


@pytest.fixture
async def api(settings: Settings, engine) -> AsyncIterator[httpx.AsyncClient]:  # type: ignore[no-untyped-def]
    update = {
        "auth": AuthSettings(required="true", cache_ttl_s=0),
        "extraction": ExtractionSettings(max_pending_per_namespace=3),
    }
    async with running_app(settings.model_copy(update=update)) as (_, client):
        yield client


async def priorities(engine) -> list[tuple[str, int]]:  # type: ignore[no-untyped-def]
    """(namespace, queue priority) of the queued extraction jobs, in the order pgqueuer
    hands them out."""
    async with engine.connect() as conn:
        sql = text(
            "SELECT j.namespace, q.priority FROM pgqueuer q JOIN extraction_jobs j "
            "ON j.id::text = convert_from(q.payload, 'UTF8') "
            "WHERE q.entrypoint = :e ORDER BY q.priority DESC, q.id"
        )
        rows = await conn.execute(sql, {"e": EXTRACT_ENTRYPOINT})
        return [(r[0], int(r[1])) for r in rows]


async def test_every_namespace_gets_its_turn_and_a_flood_is_refused(api, engine, make_api_key):
    evil = {"Authorization": f"Bearer {await make_api_key('evil')}"}
    acme = {"Authorization": f"Bearer {await make_api_key('acme')}"}
    for i in range(3):
        r = await api.post("/extract", json={"user_id": f"dos-{i}", "messages": MESSAGES},
                           headers=evil)  # fmt: skip
        assert r.status_code == 202, r.text
    r = await api.post("/extract", json={"user_id": "dos-4", "messages": MESSAGES}, headers=evil)
    assert_problem(r, 429, "rate_limited", "3 extraction jobs of this namespace")
    assert r.headers["Retry-After"] == "30"
    # Another namespace is not held back: its first job goes before evil's second.
    r = await api.post("/extract", json={"user_id": "victim", "messages": MESSAGES}, headers=acme)
    assert r.status_code == 202, r.text
    assert await priorities(engine) == [("evil", 0), ("acme", 0), ("evil", -1), ("evil", -2)]
