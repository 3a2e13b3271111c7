"""No merge that loses the opposite or the other fact (tester hbreak7 H22, H24), through the API
on embedded PostgreSQL, offline: an exception on one side only ("except on Mondays", 除了周一都)
is read like a negation; a word that makes another thing of the other's (vice president, table
tennis, 熊猫 / 猫 as jieba words, 苹果手机) is another thing; a former state (以前住在) is not the
present one; a new e-mail, web address, phone number or street address is another value of the
slot, not a restatement of the old one."""

from __future__ import annotations

from typing import Any

import httpx
import pytest


async def store(client: httpx.AsyncClient, value: str, user: str) -> dict[str, Any]:
    r = await client.post("/store", json={"memories": [{"user_id": user, "value": value}]})
    assert r.status_code == 200, r.text
    return r.json()["results"][0]


async def statuses(client: httpx.AsyncClient, user: str) -> dict[str, str]:
    r = await client.get("/memories", params={"user_id": user, "limit": 50})
    return {m["value"]: m["status"] for m in r.json()["memories"]}


EXCEPTIONS = [
    ("The user works remotely on Mondays.", "The user works remotely except on Mondays."),
    ("The user works remotely except on Mondays.", "The user works remotely on Mondays."),
    ("The user eats meat on weekends.", "The user eats meat except on weekends."),
    ("用户周一在家办公。", "用户除了周一都在家办公。"),
    ("用户除了周一都在家办公。", "用户周一在家办公。"),
    ("用户周一在家办公。", "用户除周一外都在家办公。"),
]


@pytest.mark.parametrize(("old", "new"), EXCEPTIONS)
async def test_an_exception_on_one_side_is_a_contradiction_not_a_restatement(client, old, new):
    a = await store(client, old, "h22x")
    b = await store(client, new, "h22x")
    assert b["id"] != a["id"] and b["outcome"] in ("superseded", "conflict"), b
    assert (await statuses(client, "h22x"))[new] == "active"


OTHER_THINGS = [
    ("The user is the president of the club.", "The user is the vice president of the club."),
    ("The user plays football.", "The user plays American football."),
    ("The user plays tennis.", "The user plays table tennis."),
    ("The user likes chocolate.", "The user likes white chocolate."),
    ("用户喜欢猫。", "用户喜欢熊猫。"),
    ("用户喜欢马。", "用户喜欢斑马。"),
    ("用户喜欢狗。", "用户喜欢热狗。"),
    ("用户喜欢茶。", "用户喜欢奶茶。"),
    ("用户是经理。", "用户是副经理。"),
    ("用户喜欢苹果。", "用户喜欢苹果手机。"),
    ("用户喜欢足球。", "用户喜欢美式足球。"),
    ("用户以前住在上海。", "用户住在上海。"),
    ("用户住在上海。", "用户以前住在上海。"),
]


@pytest.mark.parametrize(("old", "new"), OTHER_THINGS)
async def test_a_word_that_makes_another_thing_is_no_restatement(client, old, new):
    a = await store(client, old, "h22c")
    b = await store(client, new, "h22c")
    assert b["id"] != a["id"] and b["outcome"] == "created", b
    assert await statuses(client, "h22c") == {old: "active", new: "active"}


ACROSS = [
    ("The user likes dogs.", "用户喜欢热狗。"),
    ("The user likes cats.", "用户喜欢熊猫。"),
    ("The user works remotely on Mondays.", "用户除了周一都在家办公。"),
    ("用户周一在家办公。", "The user works remotely except on Mondays."),
]


@pytest.mark.parametrize(("old", "new"), ACROSS)
async def test_another_thing_or_an_exception_in_the_other_language_is_kept(client, old, new):
    a = await store(client, old, "h22l")
    b = await store(client, new, "h22l")
    assert b["id"] != a["id"] and b["outcome"] == "created", b
    assert await statuses(client, "h22l") == {old: "active", new: "active"}


async def test_a_fond_word_for_the_same_animal_still_merges(client):
    a = await store(client, "用户有两只猫。", "h22m")
    b = await store(client, "用户有2只猫咪。", "h22m")
    assert (b["outcome"], b["id"]) == ("merged", a["id"]), b


NEW_VALUES = [
    ("The user's email is anna@old.com.", "The user's new email is anna@new.com."),
    ("The user's website is anna.dev.", "The user's new website is anna.io."),
    ("The user's address is 12 Elm Street.", "The user's new address is 14 Oak Avenue."),
    ("The user's phone number is 555-1234.", "The user's new phone number is 555-9876."),
    ("用户的邮箱是anna@old.com。", "用户的新邮箱是anna@new.com。"),
]


@pytest.mark.parametrize(("old", "new"), NEW_VALUES)
async def test_a_new_contact_value_supersedes_the_old_one(client, old, new):
    a = await store(client, old, "h24")
    b = await store(client, new, "h24")
    assert b["id"] != a["id"] and b["outcome"] == "superseded", b  # "new" says the change
    now = await statuses(client, "h24")  # the active units
    assert now == {new: "active"}, now


async def test_another_contact_value_without_new_is_a_conflict_to_decide(client):
    a = await store(client, "The user's email is anna@old.com.", "h24c")
    b = await store(client, "The user's email is anna@new.com.", "h24c")
    assert b["id"] != a["id"] and b["outcome"] == "conflict", b
    r = await client.get("/reviews", params={"user_id": "h24c"})
    assert [v["kind"] for v in r.json()["reviews"]] == ["contradiction"]


def test_word_level_rules():
    from app.services.memory.pairs import compounds, contacts, exceptions

    assert exceptions.differs("用户除了周一以外都在家办公。", "用户周一在家办公。") == "contradicts"
    assert (
        exceptions.differs("The user likes all fruit except bananas.", "The user likes all fruit.")
        == "unsure"
    )
    assert exceptions.differs("用户除了打篮球还喜欢游泳。", "用户喜欢游泳。") is None  # besides
    assert not exceptions.has_exception("用户除夕都回老家。")  # New Year's Eve
    assert not exceptions.has_exception("用户删除了所有文件，都不要了。")  # deleted
    assert not exceptions.has_exception("The user worked all day but felt tired.")
    assert compounds.apart("用户有2只猫咪。", "用户有两只猫。") is None
    assert compounds.apart("用户在谷歌公司工作。", "用户在谷歌工作。") is None
    assert contacts.differs(
        "The user's work email is a@work.com.", "The user's personal email is a@home.com."
    ) == ("email", False)
    assert (
        contacts.differs("The user works at J.P. Morgan.", "The user lives in St. Louis.") is None
    )
    assert contacts.values("用户的新电话是13987654321。") == {"phone": frozenset({"13987654321"})}
    assert contacts.values("The user's phone number is 2026-12-07.") == {}  # a date
    assert compounds.apart("用户住在北京市。", "用户住在北京。") is None


async def test_a_new_email_said_in_a_conversation_supersedes_the_old_one(client):
    for said in ("My email is anna@old.com.", "My new email is anna@new.com."):
        body = {"user_id": "h24x", "messages": [{"role": "user", "content": said}]}
        r = await client.post("/extract?wait=true", json=body)
        assert r.status_code == 200 and r.json()["status"] == "succeeded", r.text
    now = await statuses(client, "h24x")  # the active units
    assert [v for v in now if "anna@" in v] == [v for v in now if "anna@new.com" in v] != [], now


async def test_making_videos_and_watching_them_are_two_facts(client):
    """A pair of the development set written blind on 2026-12-07 (dev_6) that the shipped
    decision merged: making videos and watching other people's are two roles of one act."""
    made = await store(client, "Nate makes gaming videos for YouTube", "dev6")
    watched = await store(client, "Nate watches other people's gaming videos on YouTube", "dev6")
    assert watched["outcome"] == "created" and watched["id"] != made["id"], watched
    assert set((await statuses(client, "dev6")).values()) == {"active"}
