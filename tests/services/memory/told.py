"""A stored fact and a change told in chat, through the API, for the tests of what a change
supersedes: one unit by ``/store``, one message by ``/extract?wait=true`` (offline)."""

from __future__ import annotations

import httpx


async def store_value(client: httpx.AsyncClient, user: str, value: str) -> str:
    """``value`` stored for ``user`` by ``/store``; its unit id."""
    r = await client.post("/store", json={"memories": [{"user_id": user, "value": value}]})
    assert r.status_code == 200, r.text
    return str(r.json()["results"][0]["id"])


async def stored(client: httpx.AsyncClient, user: str, value: str) -> dict:
    """``value`` stored for ``user`` by ``/store``; its result entry (outcome, id, pending)."""
    r = await client.post("/store", json={"memories": [{"user_id": user, "value": value}]})
    assert r.status_code == 200, r.text
    return dict(r.json()["results"][0])


async def tell(client: httpx.AsyncClient, user: str, said: str) -> list[dict]:
    """``said`` as one user message extracted for ``user``; the job's unit entries."""
    body = {"user_id": user, "messages": [{"role": "user", "content": said}]}
    r = await client.post("/extract?wait=true", json=body)
    assert r.status_code == 200 and r.json()["status"] == "succeeded", r.text
    return list(r.json()["units"])
