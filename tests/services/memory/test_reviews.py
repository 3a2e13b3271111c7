"""Pair reviews that can be worked (docs/DEDUPE.md): the gate keeps unrelated facts out of
review; ``GET /reviews`` lists the open pairs (subject, kind, age, cursor);
``POST /reviews/{id}`` merges, supersedes or keeps both (history kept, idempotent, 409 when
decided otherwise, 404 for unknown ids and other namespaces); the archival sweep closes old
pending ones as keep_both; ``/stats`` counts the open ones. Offline (no LLM): every review
stays pending until decided."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
from sqlalchemy import text

from app.core.config import ConflictSettings
from app.core.db import create_session_factory
from app.repositories.memory.reviews import PairReviewRepository
from app.repositories.memory.units import MemoryRepository
from app.services.memory.reviews import ReviewService
from tests.profile_facts import PROFILE

# A label and its definition (cosine 0.97: a real candidate) and a guarded pair (a merge is
# ruled out: other values elsewhere in the sentence).
# A label and a restatement the offline decision cannot place (unsure, reviewed at cosine 0.967)
LABEL = "The user is bilingual in English and French"
DEFINITION = "The user speaks English and French fluently"
PHONE_OLD, PHONE_NEW = "The user's phone is an iPhone", "The user's phone is a Pixel"


async def store(client: httpx.AsyncClient, value: str, user: str = "u1") -> dict[str, Any]:
    r = await client.post("/store", json={"memories": [{"user_id": user, "value": value}]})
    assert r.status_code == 200, r.text
    return r.json()["results"][0]


async def open_pair(client: httpx.AsyncClient, user: str = "u1") -> tuple[dict, dict, str]:
    old = await store(client, LABEL, user)
    new = await store(client, DEFINITION, user)
    assert new["outcome"] == "created" and len(new["pending"]) == 1, new
    return old, new, new["pending"][0]["review_id"]


async def test_fifty_unrelated_facts_open_at_most_five_reviews_per_hundred(client):
    opened = 0
    for value in PROFILE:
        opened += len((await store(client, value, "dana"))["pending"])
    assert opened * 100 / len(PROFILE) <= 5, opened
    listed = (await client.get("/reviews", params={"user_id": "dana"})).json()["reviews"]
    assert len(listed) == opened


async def test_a_changed_value_still_opens_a_review(client):
    await store(client, PHONE_OLD)
    new = await store(client, PHONE_NEW)
    assert [p["reason"] for p in new["pending"]] == ["classifier"]


async def test_list_filters_and_pages(client, engine):
    _, _, first = await open_pair(client, "u1")
    _, _, second = await open_pair(client, "u2")
    async with engine.begin() as conn:  # the first pair opened ten days ago
        await conn.execute(
            text("UPDATE pair_reviews SET created_at = now() - interval '10 days' WHERE id = :i"),
            {"i": first},
        )
    ids = lambda r: [x["id"] for x in r.json()["reviews"]]  # noqa: E731
    everyone = await client.get("/reviews")
    assert ids(everyone) == [second, first]  # newest first
    body = everyone.json()["reviews"][1]
    assert body["unit"]["value"] == DEFINITION and body["candidate"]["value"] == LABEL
    assert body["kind"] == "duplicate" and body["status"] == "pending" and body["decision"] is None
    assert ids(await client.get("/reviews", params={"user_id": "u2"})) == [second]
    of_unit = {"memory_id": body["candidate_id"]}  # the pair's older side
    assert ids(await client.get("/reviews", params=of_unit)) == [first]
    assert ids(await client.get("/reviews", params={"min_age_days": 5})) == [first]
    assert ids(await client.get("/reviews", params={"max_age_days": 5})) == [second]
    assert ids(await client.get("/reviews", params={"kind": "contradiction"})) == []
    page = await client.get("/reviews", params={"limit": 1})
    assert ids(page) == [second] and page.json()["next_cursor"]
    rest = await client.get("/reviews", params={"limit": 1, "cursor": page.json()["next_cursor"]})
    assert ids(rest) == [first] and rest.json()["next_cursor"] is None
    other = {"limit": 1, "user_id": "u1", "cursor": page.json()["next_cursor"]}
    bad = await client.get("/reviews", params=other)
    assert bad.status_code == 422 and bad.headers["content-type"] == "application/problem+json"
    assert (await client.get("/reviews", params={"kind": "maybe"})).status_code == 422
    stats = (await client.get("/stats")).json()
    assert stats["open_reviews"] == 2


async def test_merge_keeps_history_is_idempotent_and_refuses_another_decision(client):
    old, new, review = await open_pair(client)
    r = await client.post(f"/reviews/{review}", json={"action": "merge"})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["changed"] is True
    assert body["review"]["decision"] == "merge" and body["review"]["decided_by"] == "api"
    resolved = (await client.get(f"/memories/{new['id']}")).json()
    assert resolved["id"] == old["id"]  # the merged id resolves to the survivor
    history = (await client.get(f"/memories/{old['id']}/history")).json()["memories"]
    assert {m["id"]: m["status"] for m in history}[new["id"]] == "merged"
    again = await client.post(f"/reviews/{review}", json={"action": "merge"})
    assert again.status_code == 200 and again.json()["changed"] is False
    other = await client.post(f"/reviews/{review}", json={"action": "keep_both"})
    assert other.status_code == 409
    assert other.headers["content-type"] == "application/problem+json"
    assert (await client.get("/reviews")).json()["reviews"] == []  # none open
    decided = (await client.get("/reviews", params={"status": "decided"})).json()["reviews"]
    assert [d["id"] for d in decided] == [review]
    assert (await client.get("/stats")).json()["open_reviews"] == 0


async def test_supersede_replaces_the_older_unit(client):
    old, new, review = await open_pair(client)
    r = await client.post(f"/reviews/{review}", json={"action": "supersede"})
    assert r.status_code == 200 and r.json()["review"]["decision"] == "supersede"
    gone = (await client.get(f"/memories/{old['id']}")).json()
    assert gone["status"] == "superseded" and gone["superseded_by"] == new["id"]
    assert (await client.get(f"/memories/{new['id']}")).json()["status"] == "active"
    refused = await client.post(f"/reviews/{review}", json={"action": "merge"})
    assert refused.status_code == 409


async def test_keep_both_leaves_both_active(client):
    old, new, review = await open_pair(client)
    r = await client.post(f"/reviews/{review}", json={"action": "keep_both"})
    assert r.status_code == 200 and r.json()["review"]["decision"] == "keep_both"
    for unit in (old, new):
        assert (await client.get(f"/memories/{unit['id']}")).json()["status"] == "active"
    single = (await client.get(f"/reviews/{review}")).json()
    assert single["status"] == "decided" and single["decided_by"] == "api"


async def test_a_ruled_out_merge_is_a_conflict(client, engine):
    _, _, review = await open_pair(client)
    async with engine.begin() as conn:
        await conn.execute(
            text("UPDATE pair_reviews SET merge_allowed = false WHERE id = :i"), {"i": review}
        )
    r = await client.post(f"/reviews/{review}", json={"action": "merge"})
    assert r.status_code == 409
    assert (await client.get(f"/reviews/{review}")).json()["status"] == "pending"  # unchanged


async def test_unknown_and_other_namespace_reviews_are_not_found(client, engine):
    _, _, review = await open_pair(client)
    missing = "01900000-0000-7000-8000-000000000000"
    assert (await client.get(f"/reviews/{missing}")).status_code == 404
    r = await client.post(f"/reviews/{missing}", json={"action": "keep_both"})
    assert r.status_code == 404 and r.headers["content-type"] == "application/problem+json"
    async with engine.begin() as conn:
        await conn.execute(text("UPDATE memory_units SET namespace = 'other'"))
        await conn.execute(text("UPDATE pair_reviews SET namespace = 'other'"))
    assert (await client.get(f"/reviews/{review}")).status_code == 404
    r = await client.post(f"/reviews/{review}", json={"action": "merge"})
    assert r.status_code == 404
    assert (await client.get("/reviews")).json()["reviews"] == []
    async with engine.connect() as conn:
        status = (await conn.execute(text("SELECT status FROM pair_reviews"))).scalar_one()
    assert status == "pending"
    assert (await client.post(f"/reviews/{review}", json={"action": "maybe"})).status_code == 422


async def test_sweep_closes_old_pending_reviews_as_keep_both(client, engine):
    _, _, old_review = await open_pair(client, "u1")
    _, _, fresh = await open_pair(client, "u2")
    async with engine.begin() as conn:
        await conn.execute(
            text("UPDATE pair_reviews SET created_at = now() - interval '40 days' WHERE id = :i"),
            {"i": old_review},
        )
    async with create_session_factory(engine)() as session, session.begin():
        service = ReviewService(
            PairReviewRepository(session), MemoryRepository(session), ConflictSettings()
        )
        assert await service.sweep(datetime.now(UTC), 0) == 0  # 0 days: never
        assert await service.sweep(datetime.now(UTC) + timedelta(seconds=1), 30) == 1
    swept = (await client.get(f"/reviews/{old_review}")).json()
    assert (swept["status"], swept["decision"], swept["decided_by"]) == (
        "decided",
        "keep_both",
        "sweep",
    )
    assert (await client.get(f"/reviews/{fresh}")).json()["status"] == "pending"
    r = await client.post(f"/reviews/{old_review}", json={"action": "keep_both"})
    assert r.status_code == 200 and r.json()["changed"] is False


async def test_the_review_wording_agrees_across_rest_and_mcp(client, engine):
    """Tester finding T14: a review shows `"status": "pending"` but `?status=pending` was a
    422, and the MCP tool's `decision` was an unknown field of the REST body (`action`)."""
    _, _, review_id = await open_pair(client)
    for status, expected in [("pending", 1), ("open", 1), ("running", 0), ("decided", 0)]:
        r = await client.get("/reviews", params={"status": status})
        assert len(r.json()["reviews"]) == expected, (status, r.text)
    r = await client.post(
        f"/reviews/{review_id}", json={"action": "merge", "decision": "keep_both"}
    )
    assert r.status_code == 422 and "action and decision differ" in r.json()["detail"]
    r = await client.post(f"/reviews/{review_id}", json={})
    assert r.status_code == 422 and "action: required (or decision" in r.json()["detail"]
    assert len((await client.get("/reviews", params={"status": "pending"})).json()["reviews"]) == 1
    r = await client.post(f"/reviews/{review_id}", json={"decision": "keep_both"})
    assert r.status_code == 200, r.text
    assert r.json()["review"]["decision"] == "keep_both" and r.json()["changed"] is True
    r = await client.post(f"/reviews/{review_id}", json={"action": "keep_both"})
    assert r.json()["changed"] is False  # the same decision, by its first name
    assert (await client.get("/reviews", params={"status": "pending"})).json()["reviews"] == []
    assert len((await client.get("/reviews", params={"status": "decided"})).json()["reviews"]) == 1
