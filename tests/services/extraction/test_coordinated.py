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


async def values_of(client, user_id: str, said: str) -> list[str]:  # type: ignore[no-untyped-def]
    body = {"user_id": user_id, "now": NOW, "messages": [{"role": "user", "content": said}]}
    r = await client.post("/extract?wait=true", json=body)
    assert r.status_code == 200, r.text
    assert r.json()["status"] == "succeeded"
    page = await client.get("/memories", params={"user_id": user_id})
    return [m["value"] for m in page.json()["memories"]]


@pytest.mark.parametrize(
    ("said", "expected"),
    [
        ("My locker number is 4417 and my gym is on Main Street.",
         {"The user's locker number is 4417.", "The user's gym is on Main Street."}),
        ("My car is red and my sister Jane lives in Oslo.",
         {"The user's car is red.", "The user's sister Jane lives in Oslo."}),
        ("我的储物柜号码是4417，我妹妹住在奥斯陆。",
         {"用户的储物柜号码是4417。", "用户的妹妹住在奥斯陆。"}),
        ("我的储物柜号码是4417，而且我的健身房在主街。",
         {"用户的储物柜号码是4417。", "用户的健身房在主街。"}),
    ],
)  # fmt: skip
async def test_two_statements_about_different_things_are_two_units(client, said, expected):
    """Tester D3: "My door code is 4417 and my sister Jane lives in Oslo." was one unit."""
    assert set(await values_of(client, "d3", said)) == expected


@pytest.mark.parametrize(
    ("said", "whole"),
    [
        ("I like tea and coffee.", "The user likes tea and coffee."),
        ("I love action and sci-fi movies.", "The user loves action and sci-fi movies."),
        ("I went to the park and my kids loved it.",
         "The user went to the park and the user's kids loved it."),
    ],
)  # fmt: skip
async def test_one_statements_and_is_not_cut(client, said, whole):
    """ "and" joining the things liked, or a clause that points back, stays one unit (the liking
    kept only its first thing: "The user likes tea.")."""
    assert await values_of(client, "d3", said) == [whole]
