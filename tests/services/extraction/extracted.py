"""Extraction through the API for the tests: one ``/extract?wait=true`` of a transcript at a
fixed clock, then the subject's units as ``GET /memories`` lists them."""

from __future__ import annotations

import httpx

NOW = "2026-12-06T10:00:00Z"


def user(content: str) -> dict:
    """A message of the user (role ``user``)."""
    return {"role": "user", "content": content}


async def units_of(client: httpx.AsyncClient, user_id: str, messages: list[dict]) -> dict:
    """The units of ``user_id`` after extracting ``messages`` (said at :data:`NOW`), by value."""
    body = {"user_id": user_id, "messages": messages, "now": NOW}
    r = await client.post("/extract?wait=true", json=body)
    assert r.status_code == 200, r.text
    assert r.json()["status"] == "succeeded", r.json()
    r = await client.get("/memories", params={"user_id": user_id, "limit": 50})
    assert r.status_code == 200, r.text
    return {m["value"]: m for m in r.json()["memories"]}
