"""A pair flagged as a possible contradiction, checked through ``/store``: the second unit is
created beside the first, one review of kind ``contradiction`` with ``reason`` opens on the
first, and both stay active (docs/DEDUPE.md, step 6)."""

from __future__ import annotations

from typing import Any

import httpx


async def store_flagged_pair(
    client: httpx.AsyncClient, user: str, old: str, new: str, reason: str
) -> dict[str, Any]:
    """Store ``old`` then ``new`` for ``user``; assert the flag; return the pending review."""
    results = []
    for value in (old, new):
        r = await client.post("/store", json={"memories": [{"user_id": user, "value": value}]})
        assert r.status_code == 200, r.text
        results.append(r.json()["results"][0])
    first, second = results
    assert second["outcome"] == "created" and second["id"] != first["id"]
    [pending] = second["pending"]
    assert (pending["candidate_id"], pending["kind"], pending["reason"]) == (
        first["id"], "contradiction", reason)  # fmt: skip
    for unit in results:
        assert (await client.get(f"/memories/{unit['id']}")).json()["status"] == "active"
    return dict(pending)
