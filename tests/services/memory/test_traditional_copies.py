"""One statement in traditional and in simplified characters is one fact (htrad6): the value
hash and the pair decision read traditional characters as simplified
(:mod:`app.core.chinese_script`), so 我對花生過敏 and 我对花生过敏 are exact copies; the
stored unit keeps the words it was first stored with."""

from __future__ import annotations

import pytest

from app.core.text import normalize, value_hash
from app.services.memory.pairs.decision import Thresholds
from app.services.memory.pairs.plan import Candidate, pair_decision
from tests.services.memory.told import stored


async def test_a_simplified_restatement_merges_into_the_traditional_unit(client) -> None:
    """It was a second unit (the pair decision: unsure, p 0.39) and a review."""
    first = await stored(client, "tw3", "我對花生過敏", type="constraint")
    again = await stored(client, "tw3", "我对花生过敏", type="constraint")
    assert again["outcome"] == "merged" and again["id"] == first["id"], again
    r = await client.get("/memories", params={"user_id": "tw3"})
    assert [u["value"] for u in r.json()["memories"]] == ["我對花生過敏"]


@pytest.mark.parametrize(
    ("new", "old"),
    [("我對花生過敏。", "我对花生过敏。"), ("用戶下週三去臺北開會", "用户下周三去台北开会")],
)
def test_the_two_scripts_are_canonically_equal(new: str, old: str) -> None:
    assert value_hash(new) == value_hash(old) and normalize(new) == normalize(old)
    c = Candidate(old, "fact", frozenset({"臺北"} if "臺" in new else set()), 0.9)
    d = pair_decision(new, "fact", frozenset({"台北"} if "臺" in new else set()), c, Thresholds())
    assert (d.action, d.reason) == ("merge", "canonical_equal"), d


def test_a_traditional_contradiction_is_still_one() -> None:
    """Read in simplified characters, 臺北 against 北京 is the residence slot changed."""
    c = Candidate("我住在北京", "fact", frozenset(), 0.8)
    d = pair_decision("我住在臺北", "fact", frozenset(), c, Thresholds())
    assert d.action == "contradicts", d
