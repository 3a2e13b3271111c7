"""A stored fact and a change told in chat, through the API, for the tests of what a change
supersedes: one unit by ``/store``, one message by ``/extract?wait=true`` (offline)."""

from __future__ import annotations

from typing import Any

import httpx


async def stored(client: httpx.AsyncClient, user: str, value: str, **fields: Any) -> dict:
    """``value`` stored for ``user`` by ``/store`` (with the unit's other ``fields``: type,
    entities, occurred_at…); its result entry (outcome, id, pending)."""
    unit = {"user_id": user, "value": value, **fields}
    r = await client.post("/store", json={"memories": [unit]})
    assert r.status_code == 200, r.text
    return dict(r.json()["results"][0])


async def store_value(client: httpx.AsyncClient, user: str, value: str) -> str:
    """``value`` stored for ``user`` by ``/store``; its unit id."""
    return str((await stored(client, user, value))["id"])


async def tell(client: httpx.AsyncClient, user: str, said: str) -> list[dict]:
    """``said`` as one user message extracted for ``user``; the job's unit entries."""
    body = {"user_id": user, "messages": [{"role": "user", "content": said}]}
    r = await client.post("/extract?wait=true", json=body)
    assert r.status_code == 200 and r.json()["status"] == "succeeded", r.text
    return list(r.json()["units"])
