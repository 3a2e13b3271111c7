"""Tester K1: an English negation beside an unrelated Chinese fact opened a contradiction
review ("The user doesn't have a car" / 用户有一只猫; 13 of 14 such reviews in the replay were
other facts). A negation across languages is now flagged only when what it names relates to
the other statement (the dictionaries' match, or WordNet's hypernyms and glosses: "has no
siblings" / 用户有一个哥哥, a brother is a sibling); otherwise the pair is ``distinct``
(``negation_other_fact``) and opens no review. Through ``/store``; the first fails on main
(b9a9fec), where every such pair was flagged."""

from __future__ import annotations

import pytest

from app.services.memory.pairs import negated
from tests.services.memory.flagged import store_flagged_pair
from tests.services.memory.told import stored


@pytest.mark.parametrize(("user", "old", "new"), [
    ("k1-car", "The user doesn't have a car", "用户有一只猫"),
    ("k1-meat", "The user doesn't eat meat", "用户养了一条狗"),
    ("k1-coffee", "The user doesn't like coffee", "用户喜欢喝茶"),
])  # fmt: skip
async def test_a_negation_beside_another_fact_opens_no_review(client, user, old, new):
    first = await stored(client, user, old)
    second = await stored(client, user, new)
    assert second["outcome"] == "created" and second["id"] != first["id"], second
    assert second["pending"] == [], second
    r = await client.get("/reviews", params={"user_id": user})
    assert r.status_code == 200 and r.json()["reviews"] == [], r.json()


@pytest.mark.parametrize(("user", "old", "new"), [
    ("k1-sib", "The user has no siblings", "用户有一个哥哥"),
    ("k1-smoke", "The user doesn't smoke", "用户一天抽一包烟"),
])  # fmt: skip
async def test_a_negation_of_what_the_other_says_is_still_flagged(client, user, old, new):
    await store_flagged_pair(client, user, old, new, "negation_other_language")


def test_what_the_negation_names_in_the_other_statement():
    assert negated.related_share("The user has no siblings", "用户有一个哥哥") == 1.0
    assert negated.related_share("The user doesn't have a car", "用户有一只猫") == 0.0
    assert negated.related_share("The user doesn't drink alcohol", "用户每天晚上喝一杯红酒") == 1.0
