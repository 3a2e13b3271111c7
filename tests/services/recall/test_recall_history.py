"""``include_superseded`` adds history without demoting the current value below what it
replaced (tester F17: "Where does the user live?" with the flag listed the superseded Boston
units above the active Seattle one, which fell from 0.67 to 0.34 once the old values joined
the scaling)."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Any

import httpx

from app.repositories.recall.sql import RecalledUnit
from app.services.recall.history import after_successors
from app.services.recall.scoring import Ranked

USER = "f17"


async def store(client: httpx.AsyncClient, value: str, occurred: str) -> dict[str, Any]:
    r = await client.post("/store", json={"memories": [
        {"user_id": USER, "value": value, "occurred_at": occurred}]})  # fmt: skip
    assert r.status_code == 200, r.text
    result: dict[str, Any] = r.json()["results"][0]
    return result


async def recall(client: httpx.AsyncClient, query: str, **extra: Any) -> list[dict[str, Any]]:
    body = {"query": query, "user_id": USER, "top_k": 5, "record_access": False, **extra}
    r = await client.post("/recall", json=body)
    assert r.status_code == 200, r.text
    hits: list[dict[str, Any]] = r.json()["memories"]
    scores = [h["score"] for h in hits]
    assert scores == sorted(scores, reverse=True)  # the answer stays sorted by score
    return hits


async def test_history_is_listed_after_the_value_that_replaced_it(client):
    for value in ("The user works as a nurse.", "The user has a dog named Rex.",
                  "The user likes hiking on weekends."):  # fmt: skip
        await store(client, value, "2026-01-05T00:00:00Z")
    boston = await store(client, "The user lives in Boston.", "2026-01-10T00:00:00Z")
    seattle = await store(
        client, "The user moved to Seattle and now lives there.", "2026-06-01T00:00:00Z"
    )
    assert (boston["outcome"], seattle["outcome"]) == ("created", "superseded")

    hits = await recall(client, "Where does the user live?")
    assert hits[0]["id"] == seattle["id"]
    assert boston["id"] not in [h["id"] for h in hits]
    with_history = await recall(client, "Where does the user live?", include_superseded=True)
    ids = [h["id"] for h in with_history]
    assert ids[:2] == [seattle["id"], boston["id"]], [
        (h["value"], h["score"]) for h in with_history
    ]
    assert with_history[1]["status"] == "superseded"
    assert with_history[1]["superseded_by"] == seattle["id"]
    assert with_history[1]["score"] <= with_history[0]["score"]


def test_a_chain_is_ordered_newest_first_and_a_successor_outside_the_head_changes_nothing():
    t = datetime(2026, 1, 1, tzinfo=UTC)
    ids = [uuid.uuid4() for _ in range(5)]

    def unit(i: int, status: str, by: int | None) -> RecalledUnit:
        return RecalledUnit(ids[i], None, t, 0.9, t, "default", USER, None, None, "fact",
                            f"v{i}", None, [], "api", [], {}, status,
                            ids[by] if by is not None else None, None, [], t, None, None,
                            "m", None)  # fmt: skip

    # v0 → v1 → v2 (active); v3 superseded by a unit not in the head; v4 active
    units = {u.id: u for u in (unit(0, "superseded", 1), unit(1, "superseded", 2),
                               unit(2, "active", None), unit(3, "superseded", None),
                               unit(4, "active", None))}  # fmt: skip
    units[ids[3]] = units[ids[3]]._replace(superseded_by=uuid.uuid4())
    head = [Ranked(ids[i], s, {}) for i, s in ((0, 0.9), (3, 0.8), (1, 0.7), (4, 0.6), (2, 0.5))]
    out = after_successors(head, units, True)
    assert [r.id for r in out] == [ids[3], ids[4], ids[2], ids[1], ids[0]]
    assert [r.score for r in out] == [0.8, 0.6, 0.5, 0.5, 0.5]
    assert after_successors(head, units, False) == head
