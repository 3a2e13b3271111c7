"""A contradiction stored beside its older side (``conflict``: both kept, ``conflicts_with``,
their order in time unclear) is a pair review of kind ``contradiction`` that a person decides
through ``POST /reviews/{id}``, and ``/context`` marks both sides until then (tester B16: no
review was opened, so nobody could decide the pair, and ``/context`` listed "likes X" and
"hates X" side by side, unmarked). The LLM's path: tests/services/memory/test_reconcile.py."""

from __future__ import annotations

from typing import Any

import httpx

LIKES, HATES = "The user likes cilantro.", "The user hates cilantro."


async def store(client: httpx.AsyncClient, user: str, value: str) -> dict[str, Any]:
    r = await client.post("/store", json={"memories": [
        {"user_id": user, "value": value, "type": "preference"}]})  # fmt: skip
    assert r.status_code == 200, r.text
    return r.json()["results"][0]


async def conflicting(client: httpx.AsyncClient, user: str) -> tuple[dict, dict, str]:
    """Store "likes" then "hates" a moment apart: the order is unclear, both stay."""
    old = await store(client, user, LIKES)
    new = await store(client, user, HATES)
    assert new["outcome"] == "conflict" and new["memory"]["conflicts_with"] == [old["id"]], new
    [pending] = new["pending"]
    assert pending["candidate_id"] == old["id"]
    assert (pending["kind"], pending["status"]) == ("contradiction", "review")
    return old, new, pending["review_id"]


async def context(client: httpx.AsyncClient, user: str) -> dict[str, Any]:
    query = {"user_id": user, "query": "does the user like cilantro?"}
    r = await client.get("/context", params=query)
    assert r.status_code == 200, r.text
    return r.json()


def lines_of(block: dict[str, Any]) -> dict[str, str]:
    """The block's unit lines by the value they start with."""
    lines = [ln for ln in block["text"].splitlines() if ln.startswith("- [")]
    return {v: ln for v in (LIKES, HATES) for ln in lines if ln.split("] ", 1)[1].startswith(v)}


async def test_a_conflict_opens_a_review_and_context_marks_both_sides(client):
    old, new, review = await conflicting(client, "b16")
    listed = await client.get("/reviews", params={"user_id": "b16", "kind": "contradiction"})
    [item] = listed.json()["reviews"]
    assert item["id"] == review and item["status"] == "pending" and item["decision"] is None
    assert (item["unit"]["value"], item["candidate"]["value"]) == (HATES, LIKES)
    assert (await client.get("/stats")).json()["open_reviews"] >= 1

    block = await context(client, "b16")
    lines = lines_of(block)
    assert set(lines) == {LIKES, HATES}, block["text"]
    assert f'[unresolved conflict with "{HATES}"' in lines[LIKES]
    assert "that one is newer]" in lines[LIKES]
    assert f'[unresolved conflict with "{LIKES}"' in lines[HATES]
    assert "this one is newer]" in lines[HATES]
    parts = {u["id"]: u["conflicts_with"] for u in block["parts"]["preferences"]}
    assert parts == {old["id"]: [new["id"]], new["id"]: [old["id"]]}
    assert block["tokens"] <= block["budget_tokens"]

    # decided like any pair: a merge is ruled out; supersede keeps the history
    refused = await client.post(f"/reviews/{review}", json={"action": "merge"})
    assert refused.status_code == 409
    assert (await client.get(f"/memories/{old['id']}")).json()["status"] == "active"
    r = await client.post(f"/reviews/{review}", json={"action": "supersede"})
    assert r.status_code == 200, r.text
    assert r.json()["changed"] is True and r.json()["review"]["decision"] == "supersede"
    gone = (await client.get(f"/memories/{old['id']}")).json()
    assert gone["status"] == "superseded" and gone["superseded_by"] == new["id"]
    kept = (await client.get(f"/memories/{new['id']}")).json()
    assert kept["status"] == "active" and kept["conflicts_with"] == []
    history = (await client.get(f"/memories/{new['id']}/history")).json()["memories"]
    assert {m["id"] for m in history} == {old["id"], new["id"]}
    again = await client.post(f"/reviews/{review}", json={"action": "supersede"})
    assert again.status_code == 200 and again.json()["changed"] is False
    other = await client.post(f"/reviews/{review}", json={"action": "keep_both"})
    assert other.status_code == 409
    assert (await client.get("/reviews", params={"user_id": "b16"})).json()["reviews"] == []

    after = await context(client, "b16")
    assert "unresolved conflict" not in after["text"]
    assert list(lines_of(after)) == [HATES]


async def test_keep_both_ends_the_mark(client):
    old, new, review = await conflicting(client, "b16-both")
    r = await client.post(f"/reviews/{review}", json={"action": "keep_both"})
    assert r.status_code == 200 and r.json()["review"]["decision"] == "keep_both"
    for unit in (old, new):
        got = (await client.get(f"/memories/{unit['id']}")).json()
        assert got["status"] == "active" and got["conflicts_with"] == []
    block = await context(client, "b16-both")
    assert set(lines_of(block)) == {LIKES, HATES}
    assert "unresolved conflict" not in block["text"]
    assert all(u["conflicts_with"] == [] for u in block["parts"]["preferences"])


def marks(block: dict[str, Any], value: str) -> str:
    """The block's line of the unit whose value is ``value``."""
    lines = [ln for ln in block["text"].splitlines() if ln.startswith("- [")]
    [line] = [ln for ln in lines if ln.split("] ", 1)[1].startswith(value)]
    return line


async def test_a_conflict_said_in_one_message_is_said_at_the_same_time(client):
    # Tester E16: "I live in Denver. Actually no, sorry, I live in Boulder." — two units with
    # one occurred_at, kept as a conflict; each line said "this one is newer".
    denver, boulder = "The user lives in Denver.", "The user lives in Boulder."
    at = "2026-11-21T09:00:00Z"
    r = await client.post("/store", json={"memories": [
        {"user_id": "e16-same", "value": v, "type": "fact", "occurred_at": at}
        for v in (denver, boulder)]})  # fmt: skip
    assert r.status_code == 200, r.text
    first, second = r.json()["results"]
    assert second["outcome"] == "conflict", second
    block = (await client.get("/context", params={
        "user_id": "e16-same", "query": "where does the user live?"})).json()  # fmt: skip
    for value, other in ((denver, boulder), (boulder, denver)):
        line = marks(block, value)
        assert f'[unresolved conflict with "{other}"' in line, block["text"]
        assert "said at the same time]" in line and "newer" not in line, line


async def test_an_open_contradiction_review_marks_both_lines(client):
    # Tester E16: an open review of kind contradiction between two preferences (no
    # conflicts_with link) left both lines of the standing block unmarked.
    aisle, window = "The user prefers aisle seats on flights.", "The user prefers window seats."
    await store(client, "e16-seat", aisle)
    new = await store(client, "e16-seat", window)
    assert new["outcome"] == "created" and new["memory"]["conflicts_with"] == [], new
    [pending] = new["pending"]
    assert pending["kind"] == "contradiction", pending
    block = (await client.get("/context", params={
        "user_id": "e16-seat", "query": "which seat should I book?"})).json()  # fmt: skip
    assert f'[unresolved conflict with "{window}"' in marks(block, aisle), block["text"]
    assert f'[unresolved conflict with "{aisle}"' in marks(block, window), block["text"]
    parts = {u["id"]: u["conflicts_with"] for u in block["parts"]["preferences"]}
    assert parts[new["id"]] == [pending["candidate_id"]], parts
    # decided: the mark goes
    r = await client.post(f"/reviews/{pending['review_id']}", json={"action": "keep_both"})
    assert r.status_code == 200, r.text
    after = (await client.get("/context", params={
        "user_id": "e16-seat", "query": "which seat should I book?"})).json()  # fmt: skip
    assert "unresolved conflict" not in after["text"]
