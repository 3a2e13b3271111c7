"""A sentence that joins two statements with "and" / 和 / 并且 keeps both (tester B14: "I
live in Berlin and work at Siemens." kept only the first clause): each clause that states
something lasting is a unit of its own. English and Chinese."""

from __future__ import annotations

import pytest

NOW = "2026-12-01T10:00:00Z"


@pytest.mark.parametrize(
    ("said", "expected"),
    [
        ("I live in Berlin and work at Siemens.",
         {"The user lives in Berlin.": "fact", "The user works at Siemens.": "fact"}),
        ("I work at Siemens and live in Berlin.",
         {"The user works at Siemens.": "fact", "The user lives in Berlin.": "fact"}),
        ("My wife is Anna and my son is Leo.",
         {"The user's wife is named Anna.": "fact", "The user's son is named Leo.": "fact"}),
        ("I have two kids and a dog named Rex.",
         {"The user has two kids.": "fact", "The user has a dog named Rex.": "fact"}),
        ("我住在北京并且在百度工作。", {"用户住在北京。": "fact", "用户在百度工作。": "fact"}),
        ("我老婆叫安娜，儿子叫小乐。",
         {"用户的老婆叫安娜。": "fact", "用户的儿子叫小乐。": "fact"}),
        ("我有两个孩子和一只叫旺财的狗。",
         {"用户有两个孩子。": "fact", "用户有一只叫旺财的狗。": "fact"}),
    ],
)  # fmt: skip
async def test_every_coordinated_clause_is_a_unit(client, said, expected):
    body = {"user_id": "c1", "now": NOW, "messages": [{"role": "user", "content": said}]}
    r = await client.post("/extract?wait=true", json=body)
    assert r.status_code == 200, r.text
    assert r.json()["status"] == "succeeded"
    page = await client.get("/memories", params={"user_id": "c1"})
    stored = {m["value"]: m["type"] for m in page.json()["memories"]}
    assert stored == expected


async def test_a_joined_clause_no_rule_reads_keeps_the_sentence(client):
    # "… and go rowing …" makes no typed unit: the event holds the whole sentence, and the
    # typed unit that only opens it is not kept beside it (tester C8): one unit, a fact.
    said = "I live in Berlin and go rowing on the Spree every weekend."
    body = {"user_id": "c2", "now": NOW, "messages": [{"role": "user", "content": said}]}
    r = await client.post("/extract?wait=true", json=body)
    assert r.status_code == 200, r.text
    [unit] = r.json()["units"]
    assert unit["value"].startswith("The user lives in Berlin and ")
    assert "rowing on the Spree" in unit["value"] and unit["type"] == "fact"
