"""Tester hbreak8 H26: "The user is allergic to cats." then "The user is allergic to cats and
dogs." came back ``merged`` and the unit still said only cats — the dog allergy was kept in
``metadata.restated_as`` alone, and recall and ``/context`` never said it. A restatement that
names a thing the survivor's words do not (and lacks none of theirs) now gives the survivor its
words; the old words are kept in ``restated_as``, the id and history stay. The other way round
(the survivor already says more) keeps the survivor's words. English and Chinese, through
``/store`` and ``/recall``."""

from __future__ import annotations

import pytest

from tests.services.memory.as_fact import FACT
from tests.services.memory.told import stored


async def store(client, user: str, value: str) -> dict:
    return await stored(client, user, value, **FACT)


@pytest.mark.parametrize(
    ("user", "first", "second", "asked", "added"),
    [
        ("h26-en", "The user is allergic to cats.", "The user is allergic to cats and dogs.",
         "Is the user allergic to dogs?", "dogs"),
        ("h26-zh", "用户对猫过敏。", "用户对猫和狗过敏。", "用户对狗过敏吗？", "狗"),
    ],
)  # fmt: skip
async def test_a_restatement_that_adds_a_thing_gives_the_survivor_its_words(
    client, user, first, second, asked, added
):
    kept = await store(client, user, first)
    result = await store(client, user, second)
    assert result["outcome"] == "merged" and result["id"] == kept["id"], result
    unit = (await client.get(f"/memories/{kept['id']}")).json()
    assert unit["value"] == second, unit
    assert unit["metadata"]["restated_as"] == [first], unit["metadata"]
    r = await client.post("/recall", json={"user_id": user, "query": asked, "top_k": 3})
    assert r.status_code == 200, r.text
    assert added in r.json()["memories"][0]["value"], r.json()["memories"]


async def test_a_restatement_that_says_less_keeps_the_survivors_words(client):
    kept = await store(client, "h26-less", "The user is allergic to cats and dogs.")
    result = await store(client, "h26-less", "The user is allergic to cats.")
    unit = (await client.get(f"/memories/{kept['id']}")).json()
    assert unit["value"] == "The user is allergic to cats and dogs.", (result, unit)
