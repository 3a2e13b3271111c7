"""Tester hbreak8 H11: "用户月薪两万五。" then "用户现在月薪三万。" was offered for review as a
``duplicate`` that may merge (the Chinese numerals 两万五 and 三万 without a measure word were
not read as 25000 and 30000), and deciding ``merge`` erased 三万. A numeral with a magnitude
(十百千万亿) that ends its clause is now a number: the change supersedes, as with digits."""

from __future__ import annotations

from tests.services.memory.as_fact import FACT
from tests.services.memory.told import stored


async def store(client, user: str, value: str, when: str) -> dict:
    return await stored(client, user, value, occurred_at=when, **FACT)


async def test_a_salary_in_chinese_numerals_changed_supersedes(client):
    old = await store(client, "h11", "用户月薪两万五。", "2026-01-01T00:00:00Z")
    new = await store(client, "h11", "用户现在月薪三万。", "2026-06-01T00:00:00Z")
    assert new["outcome"] == "superseded", new
    assert not [p for p in new.get("pending") or [] if p.get("kind") == "duplicate"], new
    r = await client.get("/memories", params={"user_id": "h11"})
    assert [m["value"] for m in r.json()["memories"]] == ["用户现在月薪三万。"]
    history = (await client.get(f"/memories/{old['id']}")).json()
    assert history["status"] == "superseded", history
