"""No merge may lose a fact (tester F4, F15, F18, F19; docs/DEDUPE.md steps 3 and 6), through
the API on embedded PostgreSQL: two constraints about different things (also across English
and Chinese), a negation of one thing beside an allergy to another, are two facts — kept,
no review, and the LLM's ``same`` never reaches them; a preference for the thing another was
preferred over is a contradiction (superseded, or a review of kind ``contradiction`` whose
merge answers 409); "eats no peanuts" and "is allergic to peanuts" agree; a review whose
unit left ``active`` is closed as stale (not listed, not counted, ``keep_both`` no error)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from sqlalchemy import text

from app.clients.llm import create_llm
from app.core.db import create_session_factory
from app.services.memory.conflict_judge import LLMPairJudge
from app.services.memory.pairs.decision import decide
from app.services.memory.pairs.features import statement
from app.services.memory.reconcile import ReconcileRunner
from tests.conftest import running_app
from tests.fake_llm import Reply
from tests.services.memory.test_reconcile import judge_settings

SAME = Reply(content='{"verdict": "same"}')
# A label and a restatement the offline decision cannot place (unsure, reviewed: cosine 0.967)
LABEL = "The user is bilingual in English and French"
DEFINITION = "The user speaks English and French fluently"


async def store(client: httpx.AsyncClient, value: str, user: str, **kw: Any) -> dict[str, Any]:
    r = await client.post("/store", json={"memories": [{"user_id": user, "value": value, **kw}]})
    assert r.status_code == 200, r.text
    return r.json()["results"][0]


async def active(client: httpx.AsyncClient, user: str) -> list[str]:
    r = await client.get("/memories", params={"user_id": user, "limit": 50})
    return sorted(m["value"] for m in r.json()["memories"] if m["status"] == "active")


TWO_FACTS = [
    ("The user is allergic to peanuts.", "The user is allergic to kiwi."),
    ("The user is not allergic to shellfish.", "The user is allergic to shrimp."),
    ("The user is allergic to shellfish.", "用户对花生过敏。"),
    ("The user is not allergic to shellfish.", "用户对花生过敏。"),
]


@pytest.mark.parametrize(("old", "new"), TWO_FACTS)
async def test_two_constraints_about_different_things_stay_two_facts(client, old, new):
    a = await store(client, old, "f4")
    b = await store(client, new, "f4")
    assert b["id"] != a["id"] and (b["outcome"], b["pending"]) == ("created", []), b
    assert await active(client, "f4") == sorted([old, new])
    assert (await client.get("/reviews", params={"user_id": "f4"})).json()["reviews"] == []


async def test_a_preference_for_what_was_preferred_over_supersedes(client):
    a = await store(client, "The user prefers tea over coffee.", "u3",
                    occurred_at="2026-01-05T00:00:00Z")  # fmt: skip
    b = await store(client, "The user prefers coffee.", "u3", occurred_at="2026-06-05T00:00:00Z")
    assert b["id"] != a["id"] and b["outcome"] == "superseded", b
    assert await active(client, "u3") == ["The user prefers coffee."]
    c = await store(client, "The user prefers tea.", "u5")
    d = await store(client, "The user now prefers coffee instead of tea.", "u5")
    assert d["outcome"] == "superseded" and c["id"] != d["id"], d  # "now": a change


async def test_a_flipped_preference_said_together_is_a_contradiction_never_merged(client):
    await store(client, "The user prefers tea over coffee.", "u6")
    b = await store(client, "The user prefers coffee.", "u6")
    assert b["outcome"] == "conflict", b
    [review] = (await client.get("/reviews", params={"user_id": "u6"})).json()["reviews"]
    assert (review["kind"], review["merge_allowed"]) == ("contradiction", False)
    r = await client.post(f"/reviews/{review['id']}", json={"action": "merge"})
    assert r.status_code == 409 and r.headers["content-type"] == "application/problem+json"
    assert "would lose a fact" in r.json()["detail"], r.json()
    assert len(await active(client, "u6")) == 2  # nothing changed
    r = await client.post(f"/reviews/{review['id']}", json={"action": "supersede"})
    assert r.status_code == 200 and await active(client, "u6") == ["The user prefers coffee."]


async def test_eating_no_peanuts_and_a_peanut_allergy_agree(client):
    # README's two examples in order (tester F15): no conflict, no merge.
    a = await store(client, "Alice eats no peanuts", "alice")
    b = await store(client, "Alice is allergic to peanuts", "alice")
    assert b["id"] != a["id"] and (b["outcome"], b["pending"]) == ("created", []), b
    for unit in (a, b):
        assert (await client.get(f"/memories/{unit['id']}")).json()["conflicts_with"] == []


async def test_a_review_whose_unit_was_superseded_is_closed_as_stale(client):
    await store(client, LABEL, "pat", occurred_at="2026-01-05T00:00:00Z")
    new = await store(client, DEFINITION, "pat", occurred_at="2026-01-05T00:00:00Z")
    [pending] = new["pending"]
    stats = (await client.get("/stats", params={"user_id": "pat"})).json()
    assert stats["open_reviews"] == 1
    later = await store(client, "The user is no longer bilingual in English and French", "pat",
                        occurred_at="2026-06-05T00:00:00Z")  # fmt: skip
    assert later["outcome"] == "superseded", later
    listed = (await client.get("/reviews", params={"user_id": "pat"})).json()["reviews"]
    # Only the new statement's own flag on the definition it stops (docs/DEDUPE.md,
    # seventeenth run: "no longer bilingual" / "speaks English and French fluently").
    assert [(r["unit_id"], r["candidate_id"], r["kind"], r["reason"]) for r in listed] == [
        (later["id"], new["id"], "contradiction", "given_up:ceased")]  # fmt: skip
    review = (await client.get(f"/reviews/{pending['review_id']}")).json()
    assert (review["status"], review["decision"], review["decided_by"]) == (
        "decided", "stale", "system")  # fmt: skip
    assert (await client.get("/stats", params={"user_id": "pat"})).json()["open_reviews"] == 1
    r = await client.post(f"/reviews/{pending['review_id']}", json={"action": "keep_both"})
    assert r.status_code == 200 and r.json()["changed"] is False, r.text
    r = await client.post(f"/reviews/{pending['review_id']}", json={"action": "merge"})
    assert r.status_code == 409


async def test_a_review_whose_unit_was_archived_is_not_counted_and_closes_when_read(client):
    old = await store(client, LABEL, "kim")
    new = await store(client, DEFINITION, "kim")
    [pending] = new["pending"]
    r = await client.patch(f"/memories/{old['id']}", json={"status": "archived"})
    assert r.status_code == 200, r.text
    assert (await client.get("/stats", params={"user_id": "kim"})).json()["open_reviews"] == 0
    r = await client.post(f"/reviews/{pending['review_id']}", json={"action": "keep_both"})
    assert r.status_code == 200 and r.json()["review"]["decision"] == "stale", r.text
    assert r.json()["changed"] is False
    assert (await client.get("/reviews", params={"user_id": "kim"})).json()["reviews"] == []


@pytest.fixture(scope="module")
async def llm_client(database_url, fake_llm_server) -> AsyncIterator[httpx.AsyncClient]:  # type: ignore[no-untyped-def]
    """The API with an LLM configured (the worker not in process: the test runs the jobs)."""
    async with running_app(judge_settings(database_url, fake_llm_server)) as (_, c):
        yield c


LLM_PAIRS = [
    ("The user is allergic to shellfish.", "用户对花生过敏。"),
    ("The user is not allergic to shellfish.", "The user is allergic to shrimp."),
    ("The user prefers tea over coffee.", "The user prefers coffee."),
]


@pytest.mark.parametrize(("old", "new"), LLM_PAIRS)
async def test_an_llm_that_always_says_same_merges_no_fact_away(
    llm_client, engine, database_url, fake_llm, old, new
):
    # Tester F19: a weak judge answering "same" to every pair merged one allergy into
    # another, and the newer preference into the older one.
    fake_llm.responder = lambda _body: SAME
    await store(llm_client, old, "j1", occurred_at="2026-01-05T00:00:00Z")
    b = await store(llm_client, new, "j1", occurred_at="2026-06-05T00:00:00Z")
    assert b["outcome"] != "merged", b
    settings = judge_settings(database_url, fake_llm)
    llm = create_llm(settings.llm)
    assert llm is not None
    runner = ReconcileRunner(create_session_factory(engine), LLMPairJudge(llm), settings)
    for p in b["pending"]:
        await runner.run_once(p["review_id"])
    await llm.aclose()
    async with engine.connect() as conn:
        rows = await conn.execute(text("SELECT value, status FROM memory_units"))
        statuses = {value: status for value, status in rows}
    assert "merged" not in statuses.values() and statuses[new] == "active", statuses


async def rewrite(engine, unit_id: str, value: str) -> None:  # type: ignore[no-untyped-def]
    async with engine.begin() as conn:
        await conn.execute(text("UPDATE memory_units SET value = :v WHERE id = :i"),
                           {"v": value, "i": unit_id})  # fmt: skip


async def test_a_review_opened_before_the_guard_cannot_merge_a_fact_away(client, engine):
    # A pending review whose pair is, as stored now, two allergies (as in a database written
    # before this guard): merge_allowed says true, the merge still answers 409.
    old = await store(client, LABEL, "old")
    new = await store(client, DEFINITION, "old")
    [pending] = new["pending"]
    assert pending["kind"] == "duplicate"
    await rewrite(engine, old["id"], "The user is allergic to peanuts.")
    await rewrite(engine, new["id"], "The user is allergic to kiwi.")
    r = await client.post(f"/reviews/{pending['review_id']}", json={"action": "merge"})
    assert r.status_code == 409 and "other_thing" in r.json()["detail"], r.text
    assert len(await active(client, "old")) == 2


async def test_the_llm_cannot_merge_a_fact_away_through_an_older_review(
    llm_client, engine, database_url, fake_llm
):
    old = await store(llm_client, LABEL, "j2")
    new = await store(llm_client, DEFINITION, "j2")
    [pending] = new["pending"]
    await rewrite(engine, old["id"], "The user is allergic to shellfish.")
    await rewrite(engine, new["id"], "用户对花生过敏。")
    fake_llm.push(SAME)
    settings = judge_settings(database_url, fake_llm)
    llm = create_llm(settings.llm)
    assert llm is not None
    runner = ReconcileRunner(create_session_factory(engine), LLMPairJudge(llm), settings)
    result = await runner.run_once(pending["review_id"])
    await llm.aclose()
    assert (result.status, result.action) == ("decided", "distinct"), result


@pytest.mark.parametrize(
    ("old", "new", "action", "reason"),
    [
        ("用户更喜欢茶而不是咖啡", "用户更喜欢咖啡", "contradicts", "preference_flipped"),
        ("The user would rather drink tea than coffee", "The user prefers coffee",
         "contradicts", "preference_flipped"),
        ("The user prefers tea over coffee", "用户更喜欢咖啡", "contradicts", "preference_flipped"),
        ("用户更喜欢茶而不是咖啡", "用户更喜欢茶", "unsure", "preferred_over"),  # no negation
        ("The user prefers tea", "The user no longer prefers tea", "contradicts", "negation_flip"),
        ("The user likes dogs", "The user likes cats", "distinct", "other_thing"),
        ("The user works in Shanghai", "The user works in Beijing", "unsure",
         "thing_swapped:place"),  # a place may be a change: flagged, not another thing
        ("The user is allergic to peanuts", "The user is not allergic to peanuts",
         "contradicts", "negation_flip"),
    ],
)  # fmt: skip
def test_what_a_merge_would_lose_is_read_from_the_words(old, new, action, reason):
    d = decide(statement(new), statement(old), 0.9)
    assert (d.action, d.reason) == (action, reason), d
    assert not d.merge_allowed or action == "unsure"
