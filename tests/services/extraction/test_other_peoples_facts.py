"""Another person's fact is theirs (tester D32): "I live in Chicago, my parents moved to
Florida" kept the parents' move in the user's home unit (or lost it), and a later "My folks
moved to Florida" / 爸妈搬到了上海 superseded "The user lives in Chicago." / 用户住在北京。 —
the user's own fact lost to someone else's. Now sentences about different people are
separate units naming whose they are, and the pair decision never lets a unit held by
another person (the user's folks, family, in-laws; 爸妈, 家人, 公婆) supersede the user's own
or merge with it. English and Chinese, offline /extract and /store."""

from __future__ import annotations

import httpx
import pytest

from app.services.memory.pairs import holders
from app.services.memory.pairs.decision import Thresholds, decide
from app.services.memory.pairs.features import statement
from tests.services.extraction.extracted import NOW, units_of, user


@pytest.mark.parametrize(
    ("content", "own", "theirs"),
    [
        ("I live in Chicago, my parents moved to Florida.",
         "The user lives in Chicago.", "The user's parents moved to Florida."),
        ("I live in Chicago; my parents moved to Florida.",
         "The user lives in Chicago.", "The user's parents moved to Florida."),
        ("I live in Chicago but my parents moved to Florida.",
         "The user lives in Chicago.", "The user's parents moved to Florida."),
        ("I live in Chicago. My sister lives in Denver.",
         "The user lives in Chicago.", "The user's sister lives in Denver."),
        ("我住在北京，我父母搬到了上海。", "用户住在北京。", "用户父母搬到了上海。"),
        ("我住在北京。我爸妈住在上海。", "用户住在北京。", "用户爸妈住在上海。"),
        ("我在腾讯工作，我老婆在字节工作。", "用户在腾讯工作。", "用户的老婆在字节工作。"),
    ],
)  # fmt: skip
async def test_sentences_about_different_people_are_separate_units(client, content, own, theirs):
    units = await units_of(client, "d32-one", [user(content)])
    assert own in units, units
    assert theirs in units, units
    assert len(units) == 2, units  # no unit holding both


async def statuses(client: httpx.AsyncClient, user_id: str) -> dict[str, str]:
    r = await client.get(
        "/memories", params={"user_id": user_id, "include_superseded": "true", "limit": 50}
    )
    assert r.status_code == 200, r.text
    return {m["value"]: m["status"] for m in r.json()["memories"]}


@pytest.mark.parametrize(
    ("first", "later", "own"),
    [
        ("I live in Chicago.", "My folks moved to Florida.", "The user lives in Chicago."),
        ("I live in Chicago.", "My family moved to Florida last year.",
         "The user lives in Chicago."),
        ("我住在北京。", "爸妈搬到了上海。", "用户住在北京。"),
        ("我住在北京。", "我家人搬到了上海。", "用户住在北京。"),
        ("我住在北京。", "我公婆搬到了上海。", "用户住在北京。"),
    ],
)  # fmt: skip
async def test_a_later_fact_about_someone_else_does_not_supersede_the_users(
    client, first, later, own
):
    await units_of(client, "d32-later", [user(first)])
    r = await client.post(
        "/extract?wait=true", json={"user_id": "d32-later", "messages": [user(later)], "now": NOW}
    )
    assert r.status_code == 200, r.text
    outcomes = [u["outcome"] for u in r.json()["units"]]
    assert outcomes == ["created"], r.json()["units"]
    seen = await statuses(client, "d32-later")
    assert seen[own] == "active", seen
    assert len(seen) == 2 and set(seen.values()) == {"active"}, seen


@pytest.mark.parametrize(
    ("value", "holder"),
    [
        ("The user lives in Chicago.", "user"),
        ("The user's car is red.", "user"),  # the user's own thing
        ("The user's folks moved to Florida.", "user:parent"),
        ("The user's family moved to Florida.", "user:family"),
        ("The user's friend Sam lives in Boston.", "user:friend"),
        ("Caroline's sister lives in Boston.", "name:caroline:sister"),
        ("用户住在北京。", "user"),
        ("用户：爸妈搬到了上海。", "parent"),
        ("用户的公婆搬到了上海。", "user:parent-in-law"),
        ("小王住在上海。", "name:小王"),
        ("The user and the user's parents moved to Florida.", None),  # the user moved too
        ("用户家里有2只猫咪", "user"),  # 家里: at home, not the family
        ("Big crowds make the user uncomfortable", None),  # a word, not a name
    ],
)  # fmt: skip
def test_whose_fact_a_statement_opens_with(value, holder):
    assert holders.holder(value) == holder


@pytest.mark.parametrize(
    ("old", "new", "cosine", "action"),
    [
        # Cosines as multilingual-e5-small gives them; each was a contradiction before.
        ("The user lives in Chicago.", "The user's folks moved to Florida.", 0.850, "distinct"),
        ("The user lives in Chicago.", "The user's family moved to Florida.", 0.846,
         "distinct"),
        ("用户住在北京。", "用户：爸妈搬到了上海。", 0.895, "distinct"),
        ("用户住在北京。", "用户家人搬到了上海。", 0.940, "distinct"),
        ("用户住在北京。", "用户的公婆搬到了上海。", 0.933, "distinct"),
        # The user may be called Sarah: never merged, never superseded offline.
        ("The user works at Google.", "Sarah works at Stripe now.", 0.820, "unsure"),
        ("用户在腾讯工作。", "小王现在在字节工作。", 0.914, "unsure"),
    ],
)  # fmt: skip
def test_another_holders_fact_never_supersedes_the_users(old, new, cosine, action):
    d = decide(statement(new), statement(old), cosine, thresholds=Thresholds())
    assert d.action == action, d
    assert d.reason == "other_holder" and not d.merge_allowed, d


def test_the_users_own_move_still_supersedes():
    d = decide(statement("The user moved to Boston."), statement("The user lives in Chicago."),
               0.857, thresholds=Thresholds())  # fmt: skip
    assert d.action == "contradicts", d


@pytest.mark.parametrize(
    ("content", "expected", "wrong"),
    [
        # Tester D35: "用户对朋友小王对坚果过敏" read as the user's allergy.
        ("我朋友小王对坚果过敏", "用户的朋友小王对坚果过敏。", "用户对"),
        ("我的同事小李对海鲜过敏。", "用户的同事小李对海鲜过敏。", "用户对"),
        # …and "…, loves Minecraft" was taken for a name addressed ("Thanks, Maria!").
        ("My son, who is 12, loves Minecraft.", "The user's son, who is 12, loves Minecraft.",
         "The user loves"),
        ("My friend Sam is allergic to nuts.", "The user's friend Sam is allergic to nuts.",
         "The user is allergic"),
    ],
)  # fmt: skip
async def test_a_relatives_fact_names_them(client, content, expected, wrong):
    units = await units_of(client, "d35", [user(content)])
    assert expected in units, units
    assert not [v for v in units if v.startswith(wrong)], units


async def test_a_friends_allergy_is_no_allergy_of_the_user(client):
    """The friend's allergy keeps its own entity, and the user's own allergy stays apart."""
    units = await units_of(client, "d35b", [user("我对花生过敏。"), user("我朋友小王对坚果过敏。")])
    assert {"用户对花生过敏。", "用户的朋友小王对坚果过敏。"} <= set(units), units
    assert "坚果" in units["用户的朋友小王对坚果过敏。"]["entities"], units
