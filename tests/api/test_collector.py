"""Recalls leave Python's cyclic collector alone (app.main.GC_YOUNG_THRESHOLD): with the
default young-generation threshold (700) each recall of a subject of a few hundred units set
off a collection or more (0.7 ms of CPU per recall and a full collection every few hundred),
counted here by ``/metrics``' ``python_gc_collections_total``."""

from __future__ import annotations

import gc
import re

import httpx

from app.main import GC_YOUNG_THRESHOLD

RECALLS = 20


async def _young_collections(client: httpx.AsyncClient) -> float:
    r = await client.get("/metrics")
    assert r.status_code == 200, r.text
    found = re.search(r'^python_gc_collections_total\{generation="0"\} (\S+)$', r.text, re.M)
    assert found, "no young-generation collection count on /metrics"
    return float(found.group(1))


async def test_recalls_set_off_no_collection_each(client: httpx.AsyncClient) -> None:
    memories = [
        {"user_id": "gc-u", "value": f"Turn {i}: we talked about hiking trail number {i}"}
        for i in range(300)
    ]
    for start in range(0, len(memories), 20):
        r = await client.post("/store", json={"memories": memories[start : start + 20]})
        assert r.status_code == 200, r.text
    assert gc.get_threshold()[0] == GC_YOUNG_THRESHOLD  # set when the service started
    before = await _young_collections(client)
    for i in range(RECALLS):
        r = await client.post(
            "/recall", json={"query": f"which trail did we hike, {i}?", "user_id": "gc-u"}
        )
        assert r.status_code == 200, r.text
        assert r.json()["memories"]
    collections = await _young_collections(client) - before
    # At Python's default threshold these recalls set off about one collection each.
    assert collections <= 2, f"{collections:.0f} young-generation collections in {RECALLS} recalls"
