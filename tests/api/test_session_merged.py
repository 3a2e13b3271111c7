"""What a session said stays its own after it merged into another session's unit (tester
finding C15): the survivor records the session (``sessions``), so the session filters of
``/recall``, ``GET /memories`` and ``/entities`` find it, and ``/subjects?kind=session``
counts it as ``merged_units``. Through the API, with offline extraction and the write path."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import text

from tests.services.memory.test_reviews import DEFINITION, LABEL

ROOT = Path(__file__).resolve().parents[2]
LYON = [{"role": "user", "content": "Please remember that I live in Lyon."}]


async def _extract(client: httpx.AsyncClient, session: str) -> list[dict[str, Any]]:
    body = {"user_id": "u1", "session_id": session, "messages": LYON, "mode": "sync"}
    r = await client.post("/extract", json=body)
    assert r.status_code in (200, 201), r.text
    job = r.json()
    assert job["status"] == "succeeded", job
    return list(job["units"])


async def _session_ids(client: httpx.AsyncClient, session: str, **scope: str) -> list[str]:
    r = await client.get("/memories", params={"session_id": session, **scope})
    assert r.status_code == 200, r.text
    return [m["id"] for m in r.json()["memories"]]


async def _recalled(client: httpx.AsyncClient, session: str, **scope: str) -> list[str]:
    body = {"query": "Where does the user live?", "session_id": session, **scope}
    r = await client.post("/recall", json=body)
    assert r.status_code == 200, r.text
    return [m["id"] for m in r.json()["memories"]]


async def _sessions(client: httpx.AsyncClient) -> dict[str, dict[str, Any]]:
    r = await client.get("/subjects", params={"kind": "session", "prefix": "trip-"})
    assert r.status_code == 200, r.text
    return {s["id"]: s for s in r.json()["subjects"]}


async def test_a_session_whose_statement_merged_at_write_time_still_finds_it(client):
    [first] = await _extract(client, "trip-old")
    assert first["outcome"] == "created"
    [again] = await _extract(client, "trip-new")
    assert again["outcome"] == "merged" and again["memory_id"] == first["memory_id"]
    unit = first["memory_id"]
    for session in ("trip-old", "trip-new"):
        assert await _session_ids(client, session) == [unit], session
        assert await _session_ids(client, session, user_id="u1") == [unit], session
        assert await _recalled(client, session) == [unit], session  # session alone
        assert await _recalled(client, session, user_id="u1") == [unit], session
    assert await _session_ids(client, "trip-other") == []
    assert await _recalled(client, "trip-new", user_id="u2") == []  # still the user's only
    detail = (await client.get(f"/memories/{unit}")).json()
    assert detail["session_id"] == "trip-old"
    subjects = await _sessions(client)
    assert (subjects["trip-old"]["units"], subjects["trip-old"]["merged_units"]) == (1, 0)
    assert (subjects["trip-new"]["units"], subjects["trip-new"]["merged_units"]) == (0, 1)
    r = await client.get("/entities", params={"user_id": "u1", "session_id": "trip-new"})
    assert [e["name"] for e in r.json()["entities"]] == ["Lyon"], r.json()


async def test_a_store_restating_another_sessions_unit_is_found_by_its_session(client):
    stored = []
    for session in ("chat-a", "chat-b"):
        memory = {"user_id": "u1", "session_id": session, "value": "The user lives in Lyon"}
        r = await client.post("/store", json={"memories": [memory]})
        stored.append(r.json()["results"][0])
    assert stored[1]["outcome"] == "merged" and stored[1]["id"] == stored[0]["id"]
    assert await _session_ids(client, "chat-b") == [stored[0]["id"]]


async def test_a_review_merge_carries_the_merged_units_sessions(client):
    """A merged row keeps its own session_id; the survivor takes it (and what the merged
    unit held of other sessions) so the session filter finds the fact, not the hidden row."""
    units = []
    for session, value in (("rv-old", LABEL), ("rv-mid", DEFINITION)):
        memory = {"user_id": "u1", "session_id": session, "value": value}
        r = await client.post("/store", json={"memories": [memory]})
        units.append(r.json()["results"][0])
    review = units[1]["pending"][0]["review_id"]
    r = await client.post(f"/reviews/{review}", json={"action": "merge"})
    assert r.status_code == 200, r.text
    old = units[0]["id"]
    assert await _session_ids(client, "rv-mid") == [old]
    assert await _session_ids(client, "rv-old") == [old]


async def test_the_migration_fills_sessions_of_existing_survivors(client, engine):
    """Migration 0018's fill: from the rows merged into a survivor and from its
    ``session:<id>#<seq>`` references, its own session left out."""
    path = ROOT / "alembic" / "versions" / "2026_12_06_0018_unit_sessions.py"
    spec = importlib.util.spec_from_file_location("migration_0018", path)
    assert spec is not None and spec.loader is not None
    migration = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(migration)
    [first] = await _extract(client, "trip-old")
    await _extract(client, "trip-new")
    unit = first["memory_id"]
    async with engine.begin() as conn:
        await conn.execute(text("UPDATE memory_units SET sessions = '{}'"))
    assert await _session_ids(client, "trip-new") == []  # as before the fix
    async with engine.begin() as conn:
        await conn.execute(text(migration._FILL))
        await conn.execute(text(migration._TRIM_OWN))
    assert await _session_ids(client, "trip-new") == [unit]
    async with engine.connect() as conn:
        held = await conn.execute(text("SELECT sessions FROM memory_units"))
        assert held.scalars().all() == [["trip-new"]]
