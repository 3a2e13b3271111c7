"""A message that says it changes what was said before supersedes it, also when its unit's
value lost the words (tester hbreak7 H6: "My favourite drink is green tea." then "Actually no,
my favourite drink is coffee now." gave two active preferences, an unresolved conflict, both
"standing" in /context; "Please call me Bob." then "Actually, please call me Robert from now
on." two names). Offline extractor, through the API; English and Chinese."""

from __future__ import annotations

import pytest

from tests.services.extraction.extracted import units_of, user


@pytest.mark.parametrize(
    ("before", "after", "old", "new"),
    [
        ("My favourite drink is green tea.", "Actually no, my favourite drink is coffee now.",
         "The user's favourite drink is green tea.", "The user's favourite drink is coffee."),
        ("Please call me Bob.", "Actually, please call me Robert from now on.",
         "The user's name is Bob.", "The user's name is Robert."),
        ("我最喜欢的饮料是绿茶。", "其实我现在最喜欢的饮料是咖啡。", "用户最喜欢的饮料是绿茶。",
         "用户现在最喜欢的饮料是咖啡。"),
    ],
)  # fmt: skip
async def test_a_change_said_in_the_next_message_supersedes(client, before, after, old, new):
    units = await units_of(client, "h6", [user(before), user(after)])
    assert list(units) == [new] and units[new]["conflicts_with"] == [], units
    params = {"user_id": "h6", "status": "superseded"}
    history = (await client.get("/memories", params=params)).json()["memories"]
    assert [(u["value"], u["superseded_by"]) for u in history] == [(old, units[new]["id"])]
