"""Recall never shows the same fact twice: units the pair decision calls duplicates (stored
apart — here in two subjects, then moved into one, as an older write path could leave them)
collapse into the best-ranked one, which lists the others in ``duplicates``; distinct facts
and unsure pairs stay separate hits, and top_k is filled with distinct facts."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import text


async def store(client, user: str, value: str) -> str:  # type: ignore[no-untyped-def]
    r = await client.post("/store", json={"memories": [{"user_id": user, "value": value}]})
    assert r.status_code == 200, r.text
    return str(r.json()["results"][0]["id"])


async def move_to_u1(engine, *ids: str) -> None:  # type: ignore[no-untyped-def]
    async with engine.begin() as conn:
        for i in ids:
            await conn.execute(
                text("UPDATE memory_units SET user_id = 'u1' WHERE id = :i"), {"i": i}
            )


async def recall(client, query: str, **kw: Any) -> list[dict]:  # type: ignore[no-untyped-def]
    body = {"query": query, "user_id": "u1", "record_access": False, **kw}
    r = await client.post("/recall", json=body)
    assert r.status_code == 200, r.text
    return r.json()["memories"]


async def test_paraphrases_collapse_into_one_hit_that_lists_the_others(client, engine):
    seat = await store(client, "u1", "The user prefers window seats")
    again = await store(client, "u2", "The user prefers a window seat")
    kids = await store(client, "u3", "The user has two kids")
    digits = await store(client, "u4", "The user has 2 kids")
    tea = await store(client, "u1", "The user likes green tea")
    await move_to_u1(engine, again, kids, digits)
    hits = await recall(client, "window seat preference", top_k=10)
    by_id = {h["id"]: h for h in hits}
    assert len(hits) == 3  # five units, three facts
    seat_hit = by_id.get(seat) or by_id[again]
    assert sorted([seat_hit["id"], *seat_hit["duplicates"]]) == sorted([seat, again])
    kids_hit = by_id.get(kids) or by_id[digits]
    assert sorted([kids_hit["id"], *kids_hit["duplicates"]]) == sorted([kids, digits])
    assert by_id[tea]["duplicates"] == []
    listed = [h["id"] for h in hits] + [d for h in hits for d in h["duplicates"]]
    assert len(listed) == len(set(listed)) == 5  # every unit once


async def test_top_k_holds_distinct_facts_after_the_collapse(client, engine):
    seat = await store(client, "u1", "The user prefers window seats")
    again = await store(client, "u2", "The user prefers a window seat")
    await move_to_u1(engine, again)
    tea = await store(client, "u1", "The user prefers green tea")
    hits = await recall(client, "does the user prefer window seats or green tea?", top_k=2)
    ids = [h["id"] for h in hits]
    # One seat is folded into the other; green tea keeps (or takes) the second place.
    assert len(ids) == 2 and tea in ids, [(h["value"], h["duplicates"]) for h in hits]
    assert (seat in ids) != (again in ids)


async def test_a_near_repeat_says_what_it_lost_and_to_which_hit(client):
    # Two chat turns that differ by a name: not the same fact (no merge), but close enough
    # (value cosine above the diversity floor) that the second loses score for the first.
    await store(client, "u1", "Thanks so much, Jon! See you next week.")
    await store(client, "u1", "Thanks so much, Gina! See you next week.")
    await store(client, "u1", "The user went hiking in the Alps last summer")
    r = await client.post(
        "/recall",
        json={"query": "thanks, see you next week", "user_id": "u1", "record_access": False},
    )
    assert r.status_code == 200, r.text
    answer = r.json()
    hits, w = answer["memories"], answer["weights"]
    assert len(hits) == 3 and all(h["duplicates"] == [] for h in hits)
    penalised = [h for h in hits if h["redundancy"] > 0]
    assert len(penalised) == 1, [(h["value"], h["redundancy"]) for h in hits]
    repeat = penalised[0]
    placed = [h["id"] for h in hits]
    # Its cause is a hit placed before it, and score + redundancy is the weighted sum.
    assert placed.index(repeat["redundant_with"]) < placed.index(repeat["id"])
    total = sum(w[s] * v for s, v in repeat["scores"].items())
    assert abs(repeat["score"] + repeat["redundancy"] - total) < 1e-6
    for h in hits:
        if h is not repeat:
            assert (h["redundancy"], h["redundant_with"]) == (0.0, None)


async def test_a_duplicate_of_two_kept_hits_is_listed_under_the_better_placed_one(client, engine):
    # Each fact stored three times: naming Alice, naming Bob (not one fact: their entities
    # differ, so two hits, Alice's first: newer, surer) and naming both, older. The copy
    # naming both merges with each of the two: it is folded into the better-placed hit,
    # never into the other (which one it went to was the order of a set of ids).
    async def put(user: str, value: str, entities: list[str], month: int, confidence: float) -> str:
        unit = {
            "user_id": user,
            "value": value,
            "entities": entities,
            "occurred_at": f"2026-0{month}-15T10:00:00+00:00",
            "confidence": confidence,
        }
        r = await client.post("/store", json={"memories": [unit]})
        assert r.status_code == 200, r.text
        assert r.json()["results"][0]["outcome"] == "created", r.text
        return str(r.json()["results"][0]["id"])

    facts = ["The user prefers window seats", "The user drinks green tea every morning",
             "The user's daughter plays the violin", "The user drives a red Volvo",
             "The user is allergic to shellfish"]  # fmt: skip
    alice, bob, both = [], [], []
    for n, value in enumerate(facts):
        alice.append(await put("u1", value, ["Alice"], 6, 1.0))
        bob.append(await put(f"b{n}", value, ["Bob"], 5, 0.95))
        both.append(await put(f"c{n}", value, ["Alice", "Bob"], 3, 0.8))
    await move_to_u1(engine, *bob, *both)
    hits = await recall(client, "what about the user?", top_k=10, now="2026-06-16T00:00:00Z")
    by_id = {h["id"]: h for h in hits}
    assert sorted(by_id) == sorted(alice + bob), [(h["value"], h["entities"]) for h in hits]
    assert [by_id[a]["duplicates"] for a in alice] == [[c] for c in both]
    assert all(by_id[b]["duplicates"] == [] for b in bob)


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("The user must avoid shellfish.", "The user avoids shellfish."),  # constraint / fact
        ("The user prefers aisle seats on flights.", "The user wants aisle seats on flights."),
    ],
)
async def test_two_agents_wordings_typed_apart_by_inference_are_one_hit(client, first, second):
    """Issue 28: /store reads a type from a value sent without one, and the write path holds
    an inferred type against no merge — but the collapse compared the stored types, so two
    wordings of one fact read as a constraint and a fact (or a preference and a fact) were
    two hits. Two agents of one user are two write subjects (never compared on write); a
    recall without ``agent_id`` reads both."""
    ids, types = [], set()
    for agent, value in (("planner", first), ("concierge", second)):
        body = {"memories": [{"user_id": "u1", "agent_id": agent, "value": value}]}
        r = await client.post("/store", json=body)
        assert r.status_code == 200, r.text
        result = r.json()["results"][0]
        assert result["outcome"] == "created" and result["memory"]["metadata"]["inferred"]
        ids.append(result["id"])
        types.add(result["memory"]["type"])
    assert len(types) == 2, types  # read as two types
    [hit] = await recall(client, first, top_k=5)
    assert sorted([hit["id"], *hit["duplicates"]]) == sorted(ids), hit


async def test_types_the_writers_gave_still_keep_two_wordings_apart(client):
    # The same two wordings with the types their writers gave: two kinds of memory, two hits
    # (the write path does not merge them either).
    for agent, value, kind in (("planner", "The user must avoid shellfish.", "constraint"),
                               ("concierge", "The user avoids shellfish.", "fact")):  # fmt: skip
        body = {"memories": [{"user_id": "u1", "agent_id": agent, "value": value, "type": kind}]}
        r = await client.post("/store", json=body)
        assert r.status_code == 200 and r.json()["results"][0]["outcome"] == "created", r.text
    hits = await recall(client, "The user must avoid shellfish.", top_k=5)
    assert len(hits) == 2 and all(h["duplicates"] == [] for h in hits), hits


async def test_a_type_a_correction_gives_is_the_callers(client):
    # A PATCH that gives the type makes it the caller's: no longer listed as inferred, so
    # the pair decision (the collapse here, a correction's duplicate check, the write path)
    # holds it against a merge again.
    ids = []
    for agent, value in (("planner", "The user must avoid shellfish."),
                         ("concierge", "The user avoids shellfish.")):  # fmt: skip
        body = {"memories": [{"user_id": "u1", "agent_id": agent, "value": value}]}
        r = await client.post("/store", json=body)
        assert r.status_code == 200, r.text
        ids.append(r.json()["results"][0]["id"])
    assert len(await recall(client, "The user must avoid shellfish.", top_k=5)) == 1
    for unit, kind in zip(ids, ("constraint", "fact"), strict=True):
        r = await client.patch(f"/memories/{unit}", json={"type": kind})
        assert r.status_code == 200, r.text
        memory = r.json()["memory"]
        assert memory["type"] == kind and "inferred" not in memory["metadata"], memory
    hits = await recall(client, "The user must avoid shellfish.", top_k=5)
    assert len(hits) == 2 and all(h["duplicates"] == [] for h in hits), hits
