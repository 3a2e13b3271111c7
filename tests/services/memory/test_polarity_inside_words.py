"""别, 非, 未, 无 negate alone, not inside 特别 (especially), 别人 (others), 非常 (very), 未来
(future), 无论 (no matter): "The user loves dogs" / 用户特别喜欢狗 was superseded on main
(b9a9fec) as a negation flipped across the languages, a duplicate read as its opposite
(docs/DEDUPE.md, sixteenth run). The first test fails on main."""

from __future__ import annotations

from app.core.text import negation_polarity
from tests.services.memory.as_fact import FACT
from tests.services.memory.told import stored


def test_a_character_inside_a_word_is_no_negation():
    for value in ("用户特别喜欢狗", "用户非常喜欢猫", "用户不在乎别人怎么看", "用户对未来很乐观"):
        assert negation_polarity(value) == (1 if "不" in value else 0), value
    for value in ("别担心", "用户无法参加", "用户从未去过日本", "用户并非素食者"):
        assert negation_polarity(value) == 1, value


async def test_a_duplicate_with_especially_is_not_its_opposite(client):
    first = await stored(client, "pol1", "The user loves dogs", **FACT)
    second = await stored(client, "pol1", "用户特别喜欢狗", **FACT)
    assert second["outcome"] not in ("superseded", "conflict"), second
    r = await client.get("/memories", params={"user_id": "pol1", "limit": 10})
    statuses = {m["id"]: m["status"] for m in r.json()["memories"]}
    assert statuses.get(first["id"], "merged") in ("active", "merged"), statuses
