"""Lasting statements are facts, preferences or constraints, not 30-day events (tester E2:
a correction, a new job, a new city, a pet, a relative's home, a daily habit, a birth date and
a new phone number were events that expired after a month while what they corrected stayed
for six). English and Chinese, through /extract."""

from __future__ import annotations

import pytest

from tests.services.extraction.extracted import units_of, user


@pytest.mark.parametrize(
    ("said", "words", "kind"),
    [
        ("Update: actually I'm not vegetarian anymore, I eat fish now.", "not vegetarian", "fact"),
        ("I got a new job! I'm now a software tester at Acme Corp.", "software tester", "fact"),
        ("We moved to Seattle last week!", "lives there", "fact"),
        ("I also adopted a cat named Luna.", "has a cat named Luna", "fact"),
        ("My sister Anna lives in Denver.", "Denver", "fact"),
        ("My wife Maria loves sushi.", "sushi", "preference"),
        ("I drink two cups of coffee every morning.", "coffee", "fact"),
        ("I was born on 29 February 1996.", "born", "fact"),
        ("My new phone number is 555-9876.", "555-9876", "fact"),
        ("我领养了一只猫，叫露娜。", "露娜", "fact"),
        ("我不再吃素了，现在吃鱼。", "不再吃素", "fact"),
        ("我每天早上喝两杯咖啡。", "咖啡", "fact"),
        ("我是1996年2月29日出生的。", "出生", "fact"),
    ],
)  # fmt: skip
async def test_a_lasting_statement_is_not_an_event(client, said, words, kind):
    units = await units_of(client, "lasting", [user(said)])
    typed = [u["type"] for v, u in units.items() if words in v]
    assert kind in typed, units
    assert "event" not in typed or len(typed) > 1, units


@pytest.mark.parametrize(
    ("said", "words"),
    [
        ("I went to the gym this morning.", "gym"),
        ("We had dinner at Nobu last night.", "Nobu"),
        ("我昨天去了健身房。", "健身房"),
    ],
)  # fmt: skip
async def test_what_happened_stays_an_event(client, said, words):
    units = await units_of(client, "happened", [user(said)])
    assert [u["type"] for v, u in units.items() if words in v] == ["event"], units


async def test_a_new_job_said_once_is_one_job_fact(client):
    units = await units_of(client, "jobber", [user("我换工作了，现在在字节跳动做测试工程师。")])
    jobs = [v for v, u in units.items() if u["type"] == "fact" and "字节跳动" in v]
    assert jobs == ["用户在字节跳动做测试工程师。"], units


async def test_chinese_units_keep_their_subject_and_no_speaker_label(client):
    units = await units_of(client, "wanglei", [
        user("我叫王磊，我吃素，而且对花生过敏。"), user("帮我约下周二下午三点看牙医。"),
        {"role": "assistant", "content": "已预约：下周二下午三点，牙医。"}])  # fmt: skip
    assert {"用户叫王磊。", "用户吃素。", "用户对花生过敏。"} <= set(units), units
    assert not [v for v in units if "：，" in v or v.startswith("助手：")], units
    assert [v for v in units if v.startswith("助手已预约")], units


@pytest.mark.parametrize(
    ("said", "expected"),
    [
        ("Anna's birthday is on March 3.", "Anna's birthday is on March 3."),
        ("我的生日是3月3日。", "用户的生日是3月3日。"),
    ],
)  # fmt: skip
async def test_a_birthday_is_every_year(client, said, expected):
    """Tester E6: "Anna's birthday is on March 3." said in 2026 was "on 2027-03-03"."""
    units = await units_of(client, "yearly", [user(said)])
    assert expected in units, units
    assert units[expected]["type"] == "fact"


@pytest.mark.parametrize(
    ("said", "expected"),
    [
        ("So much has happened in the last month - on and off the court.",
         "So much has happened in the last month - on and off the court."),
        ("This week's been really busy for me.", "This week's been really busy for the user."),
    ],
)  # fmt: skip
async def test_a_period_that_is_no_calendar_one_stays_as_said(client, said, expected):
    """Tester E14: "in the last month" (the past 30 days) became "in the in June 2023", and
    "This week's been busy" "In the week of 2023-08-21's been busy"."""
    units = await units_of(client, "periods", [user(said)])
    assert expected in units, units


async def test_a_refusal_please_is_what_the_user_does_not_want(client):
    """Tester E22: "BTW 我对 gluten 过敏, so no pasta please." also gave "The user prefers a
    so no pasta."."""
    units = await units_of(client, "pasta", [user("BTW 我对 gluten 过敏, so no pasta please.")])
    assert "The user does not want pasta." in units, units
    assert not [v for v in units if "prefers a so" in v], units


@pytest.mark.parametrize(
    ("said", "expected"),
    [
        ("I have diabetes.", "The user has diabetes."),
        ("I take insulin.", "The user takes insulin."),
        ("I drive a Tesla.", "The user drives a Tesla."),
        ("I have a dog.", "The user has a dog."),
        ("I have 2 cats.", "The user has 2 cats."),
        ("我有糖尿病。", "用户有糖尿病。"),
    ],
)  # fmt: skip
async def test_a_plain_self_statement_is_a_fact(client, said, expected):
    """Tester E31: "I have diabetes." made no unit at all (one content word was too few)."""
    units = await units_of(client, "plain", [user(said)])
    assert expected in units, units
    assert units[expected]["type"] == "fact", units[expected]


async def test_dont_remember_my_address_keeps_nothing_of_it(client):
    """Tester E28: "Don't remember my address: 12 Elm Street." was stored with the address."""
    units = await units_of(client, "private", [user("Don't remember my address: 12 Elm Street.")])
    assert not [v for v in units if "Elm" in v], units
