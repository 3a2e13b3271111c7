"""What an offline unit is (tester C8, C9, C11), through the API, English and Chinese: a
question or a greeting is no part of a unit, no unit repeats another of its message, a
standing statement keeps its exception, statements of different types are cut apart, a habit
is an undated fact, a new job gives the employer as a lasting fact, and a Chinese answer that
picks one of two options names what it picks."""

from __future__ import annotations

import httpx
import pytest

from tests.services.extraction.extracted import user

# Sunday 2026-12-06, 12:00 UTC.
NOW = "2026-12-06T12:00:00Z"


async def extract(client: httpx.AsyncClient, messages: list[dict]) -> list[dict]:
    """The stored units of one offline extraction: value, type, occurred_at, expires_at."""
    body = {"user_id": "u1", "messages": messages, "now": NOW, "timezone": "UTC"}
    r = await client.post("/extract?wait=true", json=body)
    assert r.status_code == 200, r.text
    job = r.json()
    assert job["status"] == "succeeded", job
    out = []
    for unit in job["units"]:
        if unit.get("memory_id"):
            out.append((await client.get(f"/memories/{unit['memory_id']}")).json())
    return out


def assistant(content: str) -> dict:
    return {"role": "assistant", "content": content}


def days(unit: dict) -> int:
    """Days from the extraction to the unit's expiry (its type's TTL)."""
    from datetime import datetime

    expires = datetime.fromisoformat(unit["expires_at"])
    return (expires - datetime.fromisoformat(NOW)).days


@pytest.mark.parametrize(
    ("said", "expected"),
    [
        ("I started a dance studio last month. Got any tips for marketing?",
         "The user started a dance studio in November 2026."),
        ("我上个月开了一家舞蹈工作室。你有什么营销建议吗？", "用户2026年11月开了一家舞蹈工作室。"),
    ],
)  # fmt: skip
async def test_a_question_is_no_part_of_a_unit(client, said, expected):
    units = await extract(client, [user(said)])
    assert [u["value"] for u in units] == [expected]


async def test_a_question_or_a_thank_you_alone_makes_no_unit(client):
    units = await extract(
        client,
        [user("Got any tips for marketing?"), assistant("Sure."),
         user("Glad I can be part of this journey!"), user("你有什么营销建议吗？")],
    )  # fmt: skip
    assert units == []


async def test_a_greeting_is_dropped_and_the_name_is_not_repeated(client):
    units = await extract(client, [user("Hi, 我叫Lena, I work as a nurse in 杭州.")])
    values = [u["value"] for u in units]  # one fact per unit: the name, then the job
    assert values == ["用户叫Lena。", "The user works as a nurse in 杭州."], values
    assert units[0]["type"] == "fact"


@pytest.mark.parametrize(
    ("said", "expected"),
    [
        ("I have two kids and a dog.", "The user has two kids and a dog."),
        ("我有两个孩子和一只狗。", "用户有两个孩子和一只狗。"),
    ],
)
async def test_a_clause_that_opens_another_unit_is_not_kept(client, said, expected):
    units = await extract(client, [user(said)])
    assert [(u["type"], u["value"]) for u in units] == [("fact", expected)]


@pytest.mark.parametrize(
    ("said", "expected"),
    [
        ("I'm vegetarian, but I eat eggs.", ["The user is vegetarian, but the user eats eggs."]),
        ("I'm allergic to peanuts, except roasted ones are fine.",
         ["The user is allergic to peanuts, except roasted ones are fine."]),
        ("我是素食者，但是我吃鸡蛋。", ["用户是素食者，但是用户吃鸡蛋。"]),
        ("I'm vegetarian, 但是我吃鸡蛋. And my cat 豆豆 needs her vet appointment on 12月20日.",
         ["The user is vegetarian, 但是用户吃鸡蛋.",
          "The user's cat 豆豆 needs her vet appointment on 2026年12月20日."]),
    ],
)  # fmt: skip
async def test_a_standing_statement_keeps_its_exception(client, said, expected):
    units = await extract(client, [user(said)])
    assert [u["value"] for u in units] == expected
    assert units[0]["type"] == "constraint" and days(units[0]) >= 179
    if len(units) > 1:  # the appointment is an event of its own, dated
        assert units[1]["type"] == "event"
        assert units[1]["occurred_at"].startswith("2026-12-20")


@pytest.mark.parametrize(
    ("said", "expected"),
    [
        ("I usually jog on Sunday mornings.", "The user usually jogs on Sunday mornings."),
        ("我通常周日早上跑步。", "用户通常周日早上跑步。"),
    ],
)
async def test_a_habit_is_an_undated_fact(client, said, expected):
    [unit] = await extract(client, [user(said)])
    assert (unit["type"], unit["value"]) == ("fact", expected)
    assert days(unit) >= 179


@pytest.mark.parametrize(
    ("said", "fact"),
    [
        ("Last week I started a new job at Siemens as an engineer.",
         "The user works at Siemens as an engineer."),
        ("我上周刚换了工作，现在在腾讯。", "用户现在在腾讯工作。"),
    ],
)  # fmt: skip
async def test_a_new_job_gives_the_employer_as_a_lasting_fact(client, said, fact):
    units = {u["value"]: u for u in await extract(client, [user(said)])}
    assert units[fact]["type"] == "fact" and days(units[fact]) >= 179
    [event] = [u for v, u in units.items() if v != fact]
    assert event["type"] == "event" and event["occurred_at"].startswith("2026-11-23")


async def test_statements_of_different_types_are_cut_apart(client):
    units = await extract(
        client,
        [assistant("好的。预算大概多少？"),
         user("每晚不超过500元。对了，我上周刚换了工作，现在在腾讯。")],
    )  # fmt: skip
    by_type = {u["type"]: u["value"] for u in units}
    assert by_type["constraint"] == "用户：每晚不超过500元。"
    assert by_type["event"] == "用户2026年11月23日那一周刚换了工作，现在在腾讯。"
    assert by_type["fact"] == "用户现在在腾讯工作。"

    units = await extract(
        client, [user("I lost my job on Monday. Dance is my stress relief, it keeps me going.")]
    )
    assert [(u["type"], u["value"]) for u in units] == [
        ("event", "The user lost the user's job on 2026-11-30 (Monday)."),
        ("fact", "Dance is the user's stress relief, it keeps the user going."),
    ]
    # A sentence that opens with a pronoun stays with the one it points back at.
    [unit] = await extract(client, [user("I love my dog. He is my best friend.")])
    assert unit["value"] == "The user loves the user's dog. He is the user's best friend."


@pytest.mark.parametrize(
    ("said", "expected"),
    [
        ("Dance is my stress relief.", "Dance is the user's stress relief."),
        ("I've been into dancing since I was a kid.",
         "The user has been into dancing since the user was a kid."),
        ("跳舞是我的减压方式。", "跳舞是用户的减压方式。"),
        ("I want to open a dance studio.", "The user wants to open a dance studio."),  # no time
        ("我打算学日语。", "用户打算学日语。"),
    ],
)  # fmt: skip
async def test_what_holds_of_the_speaker_is_a_fact(client, said, expected):
    [unit] = await extract(client, [user(said)])
    assert (unit["type"], unit["value"]) == ("fact", expected)
    assert unit["occurred_at"] is None or days(unit) >= 179


async def test_a_chinese_answer_that_picks_an_option_names_it(client):
    units = await extract(
        client,
        [assistant("明白了。你的航班想要早上还是晚上？"),
         user("晚上的，要离地铁近的，我不吃辣，也对花生过敏。")],
    )  # fmt: skip
    values = {u["value"]: u["type"] for u in units}
    assert values["用户想要晚上的航班。"] == "preference"
    assert values["用户对花生过敏。"] == "constraint"  # 也对…: the speaker's, not "用户："
    assert not any(v.startswith("用户：") or v.endswith(".。") for v in values)
