"""A restatement of one side of a constraint's contradiction decides nothing (tester hbreak6
G38: "not allergic to peanuts" stored twice seconds apart superseded the allergy and closed its
review as stale; the retry of a tool call did what only a person should). Preferences keep
E29's rule (a flip back said again holds), but not the retry of one statement. Through the API,
offline."""

from __future__ import annotations

import httpx


async def store(client: httpx.AsyncClient, value: str, type_: str = "constraint") -> dict:
    unit = {"user_id": "g38", "type": type_, "value": value}
    r = await client.post("/store", json={"memories": [unit]})
    assert r.status_code == 200, r.text
    return r.json()["results"][0]


async def test_saying_not_allergic_twice_leaves_the_allergy_and_its_review(client):
    allergy = await store(client, "The user is allergic to peanuts.")
    denial = await store(client, "The user is not allergic to peanuts.")
    assert denial["outcome"] == "conflict", denial
    again = await store(client, "The user is not allergic to peanuts.")
    assert (again["outcome"], again["id"]) == ("merged", denial["id"])
    kept = (await client.get(f"/memories/{allergy['id']}")).json()
    assert kept["status"] == "active" and denial["id"] in kept["conflicts_with"], kept
    reviews = (await client.get("/reviews", params={"user_id": "g38"})).json()["reviews"]
    assert [r["status"] for r in reviews] == ["pending"], reviews


async def test_a_retried_preference_decides_nothing(client):
    """Window, then aisle (order unclear: a conflict), then aisle again seconds later — the
    retry of the same tool call: window had not come between, so both stay flagged."""
    window = await store(client, "The user prefers window seats on flights.", "preference")
    aisle = await store(client, "The user prefers aisle seats on flights.", "preference")
    assert aisle["outcome"] == "conflict", aisle
    again = await store(client, "The user prefers aisle seats on flights.", "preference")
    assert (again["outcome"], again["id"]) == ("merged", aisle["id"])
    kept = (await client.get(f"/memories/{window['id']}")).json()
    assert kept["status"] == "active" and aisle["id"] in kept["conflicts_with"], kept
    reviews = (await client.get("/reviews", params={"user_id": "g38"})).json()["reviews"]
    assert [r["status"] for r in reviews] == ["pending"], reviews


async def test_a_preference_said_again_after_the_other_side_holds(client):
    """E29 kept: aisle, window, aisle again — the flip back said after window decides."""
    aisle = await store(client, "The user prefers aisle seats on flights.", "preference")
    window = await store(client, "The user prefers window seats on flights.", "preference")
    assert window["outcome"] == "conflict", window
    again = await store(client, "The user prefers aisle seats on flights.", "preference")
    assert (again["outcome"], again["id"]) == ("merged", aisle["id"])
    gone = (await client.get(f"/memories/{window['id']}")).json()
    assert gone["status"] == "superseded", gone
