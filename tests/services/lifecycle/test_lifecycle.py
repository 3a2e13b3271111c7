"""GET /memories (keyset pagination), GET /memories/{id}/history and PATCH /memories/{id}."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
from sqlalchemy import text

from tests.conftest import count_rows


async def store(client: httpx.AsyncClient, *units: dict[str, Any]) -> list[dict[str, Any]]:
    """``units`` stored in order; a batch over LIMITS__REQUEST_TOKENS is split where its 422
    says (each unit's tokens in ``item_tokens``), as a client would split it."""
    r = await client.post("/store", json={"memories": list(units)})
    if r.status_code == 422 and "item_tokens" in r.json()["errors"][0] and len(units) > 1:
        error = r.json()["errors"][0]
        results: list[dict[str, Any]] = []
        batch: list[dict[str, Any]] = []
        used = 0
        for unit, n in zip(units, error["item_tokens"], strict=True):
            if batch and used + n > error["limit"]:
                results += await store(client, *batch)
                batch, used = [], 0
            batch.append(unit)
            used += n
        return results + await store(client, *batch)
    assert r.status_code == 200, r.text
    return r.json()["results"]


async def page_all(client: httpx.AsyncClient, params: dict[str, Any], between=None) -> list[str]:
    """Every id over all pages; ``between`` runs after each page (concurrent writes)."""
    seen: list[str] = []
    cursor = None
    for _ in range(1000):
        q = dict(params)
        if cursor:
            q["cursor"] = cursor
        r = await client.get("/memories", params=q)
        assert r.status_code == 200, r.text
        body = r.json()
        seen += [m["id"] for m in body["memories"]]
        cursor = body["next_cursor"]
        if between is not None:
            await between()
        if cursor is None:
            return seen
    raise AssertionError("pagination did not end")


async def test_list_filters_and_order(client):
    res = await store(
        client,
        {"user_id": "u1", "value": "The user lives in Lisbon", "entities": ["Lisbon"]},
        {"user_id": "u1", "value": "The user likes jazz", "type": "preference"},
        {"user_id": "u2", "value": "Another user's fact"},
    )
    r = await client.get("/memories", params={"user_id": "u1"})
    assert r.status_code == 200, r.text
    values = [m["value"] for m in r.json()["memories"]]
    assert set(values) == {"The user lives in Lisbon", "The user likes jazz"}
    r = await client.get("/memories", params={"user_id": "u1", "types": ["preference"]})
    assert [m["value"] for m in r.json()["memories"]] == ["The user likes jazz"]
    r = await client.get("/memories", params={"user_id": "u1", "entities": ["lisbon"]})
    assert [m["id"] for m in r.json()["memories"]] == [res[0]["id"]]
    # asc and desc are mirror images
    asc = await page_all(client, {"order": "asc", "limit": 1})
    desc = await page_all(client, {"order": "desc", "limit": 1})
    assert asc == list(reversed(desc)) and len(asc) == 3


async def test_list_rejects_bad_input(client):
    r = await client.get("/memories", params={"limit": 0})
    assert r.status_code == 422
    r = await client.get("/memories", params={"cursor": "not-a-cursor"})
    assert r.status_code == 422 and r.json()["code"] == "invalid_request"
    r = await client.get("/memories", params={"bogus": "1"})
    assert r.status_code == 422
    r = await client.get("/memories", params={"status": ["deleted"]})
    assert r.status_code == 422


async def test_cursor_is_bound_to_its_filters(client):
    await store(client, *({"user_id": "u1", "value": f"Fact number {i}"} for i in range(3)))
    r = await client.get("/memories", params={"user_id": "u1", "limit": 1})
    cursor = r.json()["next_cursor"]
    assert cursor
    r = await client.get("/memories", params={"user_id": "u2", "limit": 1, "cursor": cursor})
    assert r.status_code == 422


async def test_pagination_under_concurrent_writes(client):
    # Two batches: units of one batch share created_at, so ties are broken by id.
    first = await store(
        client, *({"user_id": "u1", "value": f"Seeded fact number {i}"} for i in range(30))
    )
    second = await store(
        client, *({"user_id": "u1", "value": f"Later fact number {i}"} for i in range(10))
    )
    existing = {x["id"] for x in first + second}
    counter = iter(range(10_000))

    async def writer() -> None:
        # Several new units and a correction of an existing one between every two pages.
        n = next(counter)
        await store(
            client,
            {"user_id": "u1", "value": f"Concurrent write {n} a"},
            {"user_id": "u1", "value": f"Concurrent write {n} b"},
        )
        r = await client.patch(f"/memories/{first[n % 30]['id']}", json={"confidence": 0.5})
        assert r.status_code == 200, r.text

    for order in ("desc", "asc"):
        seen = await page_all(client, {"user_id": "u1", "limit": 9, "order": order}, writer)
        assert len(seen) == len(set(seen)), f"{order}: a unit was repeated"
        assert existing <= set(seen), f"{order}: a unit was skipped"

    # truly concurrent: a pager and a writer running at the same time
    before = {m for m in await page_all(client, {"user_id": "u1", "limit": 200})}

    async def burst() -> None:
        for i in range(3):
            await store(client, {"user_id": "u1", "value": f"Burst write {i}"})

    seen, _ = await asyncio.gather(page_all(client, {"user_id": "u1", "limit": 10}), burst())
    assert len(seen) == len(set(seen))
    assert before <= set(seen)


async def test_patch_reembeds_and_reindexes(client, engine):
    [res] = await store(
        client,
        {
            "user_id": "u1",
            "value": "The user drives a red Toyota to the office",
            "entities": ["Toyota"],
        },
    )
    uid = res["id"]
    async with engine.connect() as conn:
        old_vec = (
            await conn.execute(
                text("SELECT value_embedding::text FROM memory_units WHERE id = :i"), {"i": uid}
            )
        ).scalar_one()
    r = await client.patch(
        f"/memories/{uid}",
        json={"value": "The user cycles to the office on a blue bicycle", "entities": ["bicycle"]},
    )
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["outcome"] == "updated" and body["id"] == uid
    assert body["memory"]["value"] == "The user cycles to the office on a blue bicycle"
    assert body["memory"]["entities"] == ["bicycle"]
    async with engine.connect() as conn:
        row = (
            await conn.execute(
                text(
                    "SELECT value_embedding::text AS v, search_text, entity_keys "
                    "FROM memory_units WHERE id = :i"
                ),
                {"i": uid},
            )
        ).one()
    assert row.v != old_vec
    assert "bicycl" in row.search_text and "toyota" not in row.search_text
    assert row.entity_keys == ["bicycle"]
    # recall finds the new wording (keyword and semantic), not the old one
    r = await client.post("/recall", json={"query": "bicycle", "user_id": "u1"})
    hits = r.json()["memories"]
    assert hits and hits[0]["id"] == uid and "bicycle" in hits[0]["value"]
    r = await client.post(
        "/recall",
        json={"query": "Toyota", "user_id": "u1", "weights": {"semantic": 0, "entity": 0}},
    )
    assert r.json()["memories"] == [] or r.json()["memories"][0]["scores"]["keyword"] == 0


async def test_patch_to_a_duplicate_merges(client):
    a, b = await store(
        client,
        {"user_id": "u1", "value": "The user likes green tea", "confidence": 0.6},
        {"user_id": "u1", "value": "The user lives in Berlin", "confidence": 0.5},
    )
    r = await client.patch(f"/memories/{b['id']}", json={"value": "The user likes green tea!"})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["outcome"] == "merged" and body["id"] == a["id"]
    assert body["memory"]["confidence"] > 0.6
    # the merged unit's id resolves to the unit it went into
    resolved = (await client.get(f"/memories/{b['id']}")).json()
    assert resolved["id"] == a["id"] and resolved["status"] == "active"
    # the history of either unit shows both, oldest first; the merged one says where it went
    for uid in (a["id"], b["id"]):
        r = await client.get(f"/memories/{uid}/history")
        assert r.status_code == 200, r.text
        assert [m["id"] for m in r.json()["memories"]] == [a["id"], b["id"]]
    merged = r.json()["memories"][1]
    assert merged["status"] == "merged" and merged["merged_into"] == a["id"]
    # a status sent to the merged id changes the survivor, not the hidden merged row
    r = await client.patch(f"/memories/{b['id']}", json={"status": "active"})
    assert r.status_code == 200 and r.json()["id"] == a["id"]
    r = await client.get(f"/memories/{b['id']}/history")
    assert [m["status"] for m in r.json()["memories"]] == ["active", "merged"]


async def test_patch_of_a_merged_id_corrects_what_a_read_of_it_shows(client, engine):
    """Tester B24: PATCH of a merged unit's id answered 200 `updated` but edited the hidden
    merged row, while GET of the same id (and recall) kept showing the survivor's old value."""
    a, b = await store(
        client,
        {"user_id": "ann", "value": "Ann lives in Berlin.", "confidence": 0.6},
        {"user_id": "ann", "value": "Ann has a dog named Rex.", "confidence": 0.5},
    )
    r = await client.patch(f"/memories/{b['id']}", json={"value": "Ann lives in Berlin!"})
    assert r.json()["outcome"] == "merged" and r.json()["id"] == a["id"]

    r = await client.patch(
        f"/memories/{b['id']}", json={"value": "Ann lives in Hamburg.", "confidence": 0.3}
    )
    assert r.status_code == 200, r.text
    body = r.json()
    assert (body["outcome"], body["id"]) == ("updated", a["id"])
    hamburg = "Ann lives in Hamburg."
    assert (body["memory"]["value"], body["memory"]["status"]) == (hamburg, "active")
    read = (await client.get(f"/memories/{b['id']}")).json()
    assert (read["id"], read["value"], read["confidence"]) == (a["id"], hamburg, 0.3)
    r = await client.post("/recall", json={"query": "Where does Ann live?", "user_id": "ann"})
    assert [m["value"] for m in r.json()["memories"]][:1] == ["Ann lives in Hamburg."]
    # the hidden merged row is history, unchanged
    async with engine.connect() as conn:
        row = (
            await conn.execute(
                text("SELECT value, status, merged_into FROM memory_units WHERE id = :i"),
                {"i": b["id"]},
            )
        ).one()
    assert (row.value, row.status, str(row.merged_into)) == (
        "Ann lives in Berlin!",
        "merged",
        a["id"],
    )
    # with user_id, the merged id of another user is still a 404 and nothing changes
    r = await client.patch(
        f"/memories/{b['id']}", params={"user_id": "bob"}, json={"confidence": 0.9}
    )
    assert r.status_code == 404
    assert (await client.get(f"/memories/{a['id']}")).json()["confidence"] == 0.3


async def test_patch_invalid_status_and_fields(client, engine):
    [res] = await store(client, {"user_id": "u1", "value": "The user is a vegetarian"})
    uid = res["id"]
    r = await client.patch(f"/memories/{uid}", json={"status": "invalid"})
    assert r.status_code == 200 and r.json()["memory"]["status"] == "invalid"
    r = await client.post("/recall", json={"query": "vegetarian", "user_id": "u1"})
    assert r.json()["memories"] == []
    r = await client.get("/memories", params={"user_id": "u1"})
    assert r.json()["memories"] == []
    r = await client.get("/memories", params={"user_id": "u1", "status": ["invalid"]})
    assert [m["id"] for m in r.json()["memories"]] == [uid]
    r = await client.patch(
        f"/memories/{uid}",
        json={"status": "active", "type": "constraint", "confidence": 0.7, "ttl_days": 2},
    )
    m = r.json()["memory"]
    assert (m["status"], m["type"], m["confidence"]) == ("active", "constraint", 0.7)
    assert m["expires_at"] is not None
    r = await client.patch(f"/memories/{uid}", json={"expires_at": None, "query": None})
    assert r.json()["memory"]["expires_at"] is None

    # bad input changes nothing
    before = (await client.get(f"/memories/{uid}")).json()
    for bad in (
        {},
        {"user_id": "u2"},
        {"value": ""},
        {"confidence": 2},
        {"status": "superseded"},
        {"value": None},
        {"ttl_days": 1, "expires_at": "2030-01-01T00:00:00Z"},
    ):
        r = await client.patch(f"/memories/{uid}", json=bad)
        assert r.status_code == 422, (bad, r.text)
    assert (await client.get(f"/memories/{uid}")).json() == before
    r = await client.patch("/memories/0190a4a0-0000-7000-8000-000000000000", json={"type": "fact"})
    assert r.status_code == 404
    assert await count_rows(engine) == 1


async def test_history_of_unknown_unit_is_404(client):
    r = await client.get("/memories/0190a4a0-0000-7000-8000-000000000000/history")
    assert r.status_code == 404 and r.json()["code"] == "not_found"
