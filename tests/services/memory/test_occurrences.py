"""Two events on different days are two occurrences (tester hbreak6 G28): an activity or
symptom log written through ``/store`` with ``occurred_at`` collapsed to its last entry ("ran
5 km" superseded by "ran 8 km" the next day) and a second migraine was merged into the first.
A move or a cancellation of one event still replaces it. Through the API, offline."""

from __future__ import annotations

import httpx


async def store(client: httpx.AsyncClient, value: str, day: str | None, user: str) -> dict:
    unit: dict = {"user_id": user, "type": "event", "value": value}
    if day:
        unit["occurred_at"] = f"{day}T07:00:00Z"
    r = await client.post("/store", json={"memories": [unit]})
    assert r.status_code == 200, r.text
    return r.json()["results"][0]


async def active(client: httpx.AsyncClient, user: str) -> list[str]:
    r = await client.get("/memories", params={"user_id": user, "limit": 50})
    return sorted(u["value"] for u in r.json()["memories"] if u["status"] == "active")


async def test_a_run_log_keeps_every_run(client):
    runs = [
        ("The user ran 5 km.", "2026-12-01"),
        ("The user ran 8 km.", "2026-12-02"),
        ("The user ran 3 km.", "2026-12-03"),
        ("The user ran 10 km.", "2026-12-04"),
    ]
    outcomes = [(await store(client, v, d, "log1"))["outcome"] for v, d in runs]
    assert outcomes == ["created"] * 4
    assert await active(client, "log1") == sorted(v for v, _ in runs)
    r = await client.get("/reviews", params={"user_id": "log1"})
    assert r.json()["reviews"] == [], r.json()
    r = await client.post("/recall", json={"user_id": "log1", "query": "How far did I run?",
                                           "now": "2026-12-05T10:00:00Z", "top_k": 5})  # fmt: skip
    assert len(r.json()["memories"]) == 4


async def test_a_symptom_on_two_days_is_two_units_and_the_same_day_merges(client):
    first = await store(client, "The user had a migraine.", "2026-11-20", "log3")
    second = await store(client, "The user had a migraine.", "2026-12-02", "log3")
    assert (first["outcome"], second["outcome"]) == ("created", "created")
    assert second["id"] != first["id"]
    again = await store(client, "The user had a migraine.", "2026-12-02", "log3")
    assert (again["outcome"], again["id"]) == ("merged", second["id"])


async def test_a_restatement_without_a_day_still_merges(client):
    first = await store(client, "The user had a migraine.", "2026-11-20", "log4")
    again = await store(client, "The user had a migraine.", None, "log4")
    assert (again["outcome"], again["id"]) == ("merged", first["id"])


async def test_a_fact_is_no_occurrence(client):
    """Only events: a home stated on two days is one slot, the later one supersedes."""
    for user, day, city in (("log5", "2026-01-01", "Porto"), ("log5", "2026-06-01", "Lisbon")):
        unit = {"user_id": user, "value": f"The user lives in {city}.",
                "occurred_at": f"{day}T00:00:00Z"}  # fmt: skip
        r = await client.post("/store", json={"memories": [unit]})
    assert r.json()["results"][0]["outcome"] == "superseded", r.json()
