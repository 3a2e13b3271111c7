"""Contradictions on the write path: resolution by time (supersede, backfill, conflict flags)
and the same through /store, /recall and extraction. The pair decision that finds them is
calibrated in tests/services/memory/test_dedupe_calibration.py; the LLM's part in
tests/services/memory/test_reconcile.py."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta

import pytest

from app.core.config import ConflictSettings
from app.models import MemoryUnit
from app.services.memory.pairs.rules import says_change
from app.services.memory.resolution import candidate_gate, resolve
from tests.conftest import count_rows


def test_change_cues():
    assert says_change("The user moved to Beijing and now lives there.")
    assert says_change("用户现在住在北京。")
    assert not says_change("The user lives in Beijing.")


def test_candidate_gate_per_model():
    assert candidate_gate(ConflictSettings(), "multilingual-e5-small-q4") == 0.80
    assert candidate_gate(ConflictSettings(), "text-embedding-3-small") == 0.70  # the seeds'


def unit(value: str, occurred: datetime, typ: str = "fact", conf: float = 0.9) -> MemoryUnit:
    return MemoryUnit(
        id=uuid.uuid4(),
        value=value,
        occurred_at=occurred,
        type=typ,
        confidence=conf,
        status="active",
        conflicts_with=[],
        metadata_={},
    )


T0 = datetime(2026, 1, 1, tzinfo=UTC)


def test_resolve_supersedes_when_the_new_unit_is_clearly_later():
    old = unit("The user lives in Shanghai.", T0)
    new = unit("The user lives in Beijing.", T0 + timedelta(days=30))
    assert resolve(new, old, ConflictSettings(), T0, "slot") == "superseded"
    assert old.status == "superseded" and old.superseded_by == new.id
    assert old.confidence == pytest.approx(0.45) and new.status == "active"
    assert new.metadata_["supersedes"] == [str(old.id)]


def test_resolve_flags_a_conflict_when_the_order_is_unclear():
    old = unit("The user prefers concise answers.", T0, "preference", 0.8)
    new = unit("The user prefers detailed answers.", T0 + timedelta(minutes=10), "preference")
    assert resolve(new, old, ConflictSettings(), T0, "antonym") == "conflict"
    assert old.status == new.status == "active"
    assert old.conflicts_with == [new.id] and new.conflicts_with == [old.id]
    assert old.confidence == pytest.approx(0.4)  # a contradicted preference loses confidence


def test_resolve_a_change_cue_orders_close_statements():
    old = unit("The user lives in Shanghai.", T0)
    new = unit("The user moved to Beijing and now lives there.", T0 + timedelta(minutes=5))
    assert resolve(new, old, ConflictSettings(), T0, "slot") == "superseded"


def test_resolve_a_backfilled_older_statement_is_the_superseded_one():
    old = unit("The user lives in Beijing.", T0)
    new = unit("The user lives in Shanghai.", T0 - timedelta(days=300))
    assert resolve(new, old, ConflictSettings(), T0, "slot") == "superseded"
    assert new.status == "superseded" and new.superseded_by == old.id and old.status == "active"


# ---- through the API ---------------------------------------------------------------------


async def store(client, value: str, occurred: str, **kw) -> dict:  # type: ignore[no-untyped-def]
    r = await client.post("/store", json={"memories": [
        {"user_id": "u1", "value": value, "occurred_at": occurred, **kw}]})  # fmt: skip
    assert r.status_code == 200, r.text
    return r.json()["results"][0]


async def test_lives_in_shanghai_then_moved_to_beijing_supersedes(client, engine):
    first = await store(client, "The user lives in Shanghai.", "2026-01-10T00:00:00Z",
                        entities=["Shanghai"])  # fmt: skip
    second = await store(client, "The user moved to Beijing and now lives there.",
                         "2026-06-01T00:00:00Z", entities=["Beijing"])  # fmt: skip
    assert (first["outcome"], second["outcome"]) == ("created", "superseded")
    old = (await client.get(f"/memories/{first['id']}")).json()
    assert old["status"] == "superseded" and old["superseded_by"] == second["id"]
    assert await count_rows(engine) == 2  # history kept

    query = {"query": "where does the user live?", "user_id": "u1"}
    hits = (await client.post("/recall", json=query)).json()["memories"]
    assert [h["id"] for h in hits] == [second["id"]]
    hits = (await client.post("/recall", json={**query, "include_superseded": True})).json()
    statuses = {h["id"]: h["status"] for h in hits["memories"]}
    assert statuses == {first["id"]: "superseded", second["id"]: "active"}


async def test_close_in_time_contradiction_flags_both(client):
    a = await store(client, "The user prefers concise answers.", "2026-03-01T10:00:00Z",
                    type="preference", confidence=0.8)  # fmt: skip
    b = await store(client, "The user prefers detailed answers.", "2026-03-01T10:20:00Z",
                    type="preference")  # fmt: skip
    assert b["outcome"] == "conflict"
    assert b["memory"]["conflicts_with"] == [a["id"]] and b["memory"]["status"] == "active"
    old = (await client.get(f"/memories/{a['id']}")).json()
    assert old["status"] == "active" and old["conflicts_with"] == [b["id"]]
    assert old["confidence"] == pytest.approx(0.4)
    hits = (
        await client.post(
            "/recall", json={"query": "how long should answers be?", "user_id": "u1", "top_k": 5}
        )
    ).json()["memories"]
    assert {h["id"]: h["conflicts_with"] for h in hits} == {a["id"]: [b["id"]], b["id"]: [a["id"]]}


async def test_a_negation_is_not_merged_with_its_positive(client, engine):
    a = await store(client, "The user likes cilantro.", "2026-01-01T00:00:00Z")
    b = await store(client, "The user does not like cilantro.", "2026-02-01T00:00:00Z")
    assert b["id"] != a["id"] and b["outcome"] == "superseded"
    assert await count_rows(engine) == 2


async def test_unrelated_facts_stay_apart(client):
    a = await store(client, "用户住在上海。", "2026-01-01T00:00:00Z")
    b = await store(client, "用户对花生过敏。", "2026-02-01T00:00:00Z")
    assert b["outcome"] == "created"
    assert (await client.get(f"/memories/{a['id']}")).json()["status"] == "active"


async def test_extraction_supersedes_an_earlier_extraction(client):
    for now, text_ in (("2026-01-05T09:00:00Z", "I live in Shanghai."),
                       ("2026-07-05T09:00:00Z", "I moved to Beijing last month.")):  # fmt: skip
        r = await client.post(
            "/extract?wait=true",
            json={"user_id": "u1", "now": now, "messages": [{"role": "user", "content": text_}]},
        )
        assert r.status_code == 200, r.text
    units = r.json()["units"]
    assert [u["outcome"] for u in units] == ["superseded"]
    active = (
        await client.post("/recall", json={"query": "where does the user live", "user_id": "u1"})
    ).json()["memories"]
    # "last month" is kept in the value (tester T16)
    moved = "The user moved to Beijing in June 2026 and now lives there."
    assert [h["value"] for h in active] == [moved]


async def test_a_successor_lives_at_least_as_long_as_what_it_superseded(client):
    # Tester C17: a 30-day event ("quit Deloitte and joined Spotify") superseded a 180-day
    # fact; a month later the user had no employer at all.
    now = datetime.now(UTC)
    before = (now - timedelta(days=60)).isoformat()
    first = await store(client, "The user lives in Shanghai.", before, type="fact",
                        entities=["Shanghai"])  # fmt: skip
    second = await store(client, "The user moved to Beijing and now lives there.",
                         now.isoformat(), type="event", entities=["Beijing"])  # fmt: skip
    assert second["outcome"] == "superseded"
    old = (await client.get(f"/memories/{first['id']}")).json()
    new = (await client.get(f"/memories/{second['id']}")).json()
    assert new["expires_at"] == old["expires_at"]
    assert datetime.fromisoformat(new["expires_at"]) > now + timedelta(days=100)
    # An expiry its writer gave stays as given.
    third = await store(client, "The user moved to Hangzhou and now lives there.",
                        (now + timedelta(minutes=1)).isoformat(), type="event",
                        entities=["Hangzhou"], ttl_days=3)  # fmt: skip
    assert third["outcome"] == "superseded"
    fixed = (await client.get(f"/memories/{third['id']}")).json()
    assert datetime.fromisoformat(fixed["expires_at"]) < now + timedelta(days=4)
