"""``as_of`` and plans (tester hbreak6 G7): a plan is true, as a statement, from when it was
said. "I'm flying to Tokyo on 2026-03-01." said on 2026-01-10 and extracted later was hidden
from ``as_of`` 2026-02-01 — its valid time began on the date it names (or at the extraction),
not when the user said it (``metadata.said_at``). docs/LIFECYCLE.md "Valid time"."""

from __future__ import annotations

import httpx

USER = "planner"
SAID = "2026-01-10T09:00:00Z"


async def recalled(client: httpx.AsyncClient, as_of: str) -> list[str]:
    body = {"query": "When is the user flying to Tokyo?", "user_id": USER, "as_of": as_of}
    r = await client.post("/recall", json=body)
    assert r.status_code == 200, r.text
    return [m["value"] for m in r.json()["memories"]]


async def test_a_plan_is_true_as_of_when_it_was_said(client):
    message = {"role": "user", "content": "I'm flying to Tokyo on 2026-03-01.", "created_at": SAID}
    r = await client.post("/extract", params={"wait": "true"},
                          json={"user_id": USER, "messages": [message]})  # fmt: skip
    assert r.status_code == 200 and r.json()["status"] == "succeeded", r.text
    [entry] = r.json()["units"]
    unit = (await client.get(f"/memories/{entry['memory_id']}")).json()
    assert unit["occurred_at"] == "2026-03-01T00:00:00Z", unit
    assert unit["valid_from"] == SAID, unit  # said then, not on the date it names

    plan = unit["value"]
    assert plan in await recalled(client, "2026-02-01T00:00:00Z")  # planned by then
    assert plan in await recalled(client, "2026-04-01T00:00:00Z")
    assert plan not in await recalled(client, "2026-01-05T00:00:00Z")  # not said yet
    listed = await client.get("/memories", params={"user_id": USER,
                                                   "as_of": "2026-02-01T00:00:00Z"})  # fmt: skip
    assert [m["value"] for m in listed.json()["memories"]] == [plan], listed.json()


async def test_a_said_at_in_a_clients_metadata_that_is_no_date_time_is_ignored(client):
    """``metadata.said_at`` is free-form for a client: what is not an ISO 8601 date-time
    with an offset changes nothing (and breaks no ``as_of`` read)."""
    units = [
        {"user_id": USER, "value": f"The user has plan number {n}.", "type": "event",
         "occurred_at": "2027-05-01T00:00:00Z", "metadata": {"said_at": said}}
        for n, said in enumerate(("yesterday", "2026-02-31T00:00:00Z", "2026-01-01", 5))
    ]  # fmt: skip
    r = await client.post("/store", json={"memories": units})
    assert r.status_code == 200, r.text
    for result in r.json()["results"]:
        memory = result["memory"]
        assert memory["valid_from"] == memory["created_at"], memory
    r = await client.get("/memories", params={"user_id": USER, "as_of": "2026-06-01T00:00:00Z"})
    assert r.status_code == 200 and r.json()["memories"] == [], r.text


async def test_a_client_replaying_a_conversation_gives_when_it_was_said(client):
    """Through ``/store``, ``metadata.said_at`` says when a plan was made, as extraction
    records it."""
    unit = {"user_id": USER, "value": "The user is flying to Tokyo on 2026-03-01.",
            "type": "event", "occurred_at": "2026-03-01T00:00:00Z",
            "metadata": {"said_at": "2026-01-10T17:00:00+08:00"}}  # fmt: skip
    r = await client.post("/store", json={"memories": [unit]})
    assert r.json()["results"][0]["memory"]["valid_from"] == SAID, r.text
    assert unit["value"] in await recalled(client, "2026-02-01T00:00:00Z")
