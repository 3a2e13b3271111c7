"""A former home or job said in passing is history beside the present one (tester hbreak6
G33: "I used to live in Chicago." superseded "I live in Denver.", "I used to work at
Microsoft." the employer, 我以前住在重庆 用户住在成都). Said with the present value it is a change
as before. Offline extractor, through the API."""

from __future__ import annotations

import httpx
import pytest


async def extract(client: httpx.AsyncClient, user: str, said: str, now: str) -> dict:
    body = {"user_id": user, "now": now, "messages": [{"role": "user", "content": said}]}
    r = await client.post("/extract?wait=true", json=body)
    assert r.status_code == 200 and r.json()["status"] == "succeeded", r.text
    return r.json()


async def statuses(client: httpx.AsyncClient, user: str) -> dict[str, str]:
    r = await client.get("/memories", params={"user_id": user, "limit": 50})
    return {u["value"]: u["status"] for u in r.json()["memories"]}


@pytest.mark.parametrize(
    ("present", "former"),
    [
        ("I live in Denver.", "I used to live in Chicago."),
        ("I work at Google.", "I used to work at Microsoft."),
        ("我住在成都。", "我以前住在重庆。"),
    ],
)
async def test_a_former_value_leaves_the_present_one_current(client, present, former):
    first = await extract(client, "g33", present, "2026-11-01T10:00:00Z")
    [kept] = [u["value"] for u in first["units"] if u["outcome"] == "created"]
    second = await extract(client, "g33", former, "2026-12-07T06:00:00Z")
    assert [u["outcome"] for u in second["units"]] == ["created"], second["units"]
    now = await statuses(client, "g33")
    assert now[kept] == "active" and list(now.values()) == ["active", "active"], now
    r = await client.get("/reviews", params={"user_id": "g33"})
    assert r.json()["reviews"] == []


async def test_a_former_value_with_the_present_one_is_a_move(client):
    await extract(client, "g33b", "I live in Denver.", "2026-11-01T10:00:00Z")
    said = "I used to live in Denver, but now I live in Boston."
    await extract(client, "g33b", said, "2026-12-07T06:00:00Z")
    now = await statuses(client, "g33b")  # active units
    assert "The user lives in Denver." not in now and any("Boston" in v for v in now), now
