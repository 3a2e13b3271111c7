"""A relative's name is a capitalised word (tester D15): "My husband is now retired." was
stored as "The user's husband is named now." — the rule read any word after "is" as the name
(its pattern is case-insensitive), inventing a name and losing the fact. Through /extract."""

from __future__ import annotations

import httpx
import pytest

NOW = "2026-12-06T10:00:00Z"


async def values_of(client: httpx.AsyncClient, user_id: str, said: str) -> list[str]:
    body = {"user_id": user_id, "messages": [{"role": "user", "content": said}], "now": NOW}
    r = await client.post("/extract?wait=true", json=body)
    assert r.status_code == 200 and r.json()["status"] == "succeeded", r.text
    r = await client.get("/memories", params={"user_id": user_id, "limit": 50})
    return [m["value"] for m in r.json()["memories"]]


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("My husband is now retired.", "The user's husband is now retired."),
        ("My sister is also a teacher.", "The user's sister is also a teacher."),
        ("My daughter is actually 8.", "The user's daughter is actually 8."),
        ("My brother is basically a genius.", "The user's brother is basically a genius."),
        ("Call me later about the invoice.", None),
    ],
)
async def test_an_adverb_is_not_a_name(client, said, kept):
    values = await values_of(client, f"d15-{len(said)}", said)
    assert not any("is named" in v or "name is" in v for v in values), values
    if kept is not None:
        assert kept in values, values


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("My wife is Anna.", "The user's wife is named Anna."),
        ("My wife is actually Anna.", "The user's wife is named Anna."),
        ("My name is actually Bob.", "The user's name is Bob."),
        ("Call me Ishmael.", "The user's name is Ishmael."),
    ],
)
async def test_a_capitalised_name_is_still_a_name(client, said, kept):
    assert kept in await values_of(client, f"name-{len(said)}", said)
