"""What a speaker takes back or corrects is not stored as said (tester B10): a statement
retracted with "just kidding" / 开玩笑的 makes no unit (in the same message or the next one),
a corrected date or place keeps the corrected one ("my birthday is March 3 — sorry, March
13"), and "I don't have any allergies" / a bare "No." to "Any allergies?" is a negative
standing fact a food agent is served. English and Chinese, through /extract."""

from __future__ import annotations

import httpx
import pytest

from tests.services.extraction.extracted import NOW, units_of, user


@pytest.mark.parametrize(
    ("messages", "absent", "kept"),
    [
        ([user("I'm allergic to peanuts. Just kidding!")], "peanut", None),
        ([user("我对花生过敏。开玩笑的！")], "花生", None),
        ([user("I quit my job today."), user("Just kidding, I love my job at Acme.")],
         "quit", "The user loves the user's job at Acme."),
        ([user("我辞职了。"), user("开玩笑的，我还在阿里巴巴上班，很喜欢这份工作。")],
         "辞职", "用户还在阿里巴巴上班，很喜欢这份工作。"),
    ],
)  # fmt: skip
async def test_a_retracted_statement_makes_no_unit(client, messages, absent, kept):
    units = await units_of(client, "kid", messages)
    assert not [v for v in units if absent in v.lower()], units
    if kept is not None:
        assert kept in units, units


@pytest.mark.parametrize(
    ("content", "expected", "wrong"),
    [
        ("My birthday is March 3 — sorry, March 13.",
         "The user's birthday is on March 13.", "March 3."),
        ("我的生日是3月3日，不对，是3月13日。", "用户的生日是3月13日。", "是3月3日"),
        ("I live in Boston, sorry, I mean Cambridge.", "The user lives in Cambridge.", "Boston"),
        ("我住在波士顿，不对，是剑桥。", "用户住在剑桥。", "波士顿"),
    ],
)  # fmt: skip
async def test_a_correction_keeps_the_corrected_words(client, content, expected, wrong):
    units = await units_of(client, "fix", [user(content)])
    assert expected in units, units
    assert not [v for v in units if wrong in v], units


@pytest.mark.parametrize(
    ("messages", "expected", "query"),
    [
        ([user("I don't have any allergies.")], "The user has no allergies.", "food"),
        ([{"role": "assistant", "content": "Do you have any allergies?"}, user("No.")],
         "The user has no allergies.", "food"),
        ([user("我没有任何过敏。")], "用户没有过敏。", "食物"),
        ([{"role": "assistant", "content": "你有什么过敏吗？"}, user("没有。")],
         "用户没有过敏。", "食物"),
    ],
)  # fmt: skip
async def test_no_allergies_is_a_standing_fact_for_a_food_agent(client, messages, expected, query):
    units = await units_of(client, "noallergy", messages)
    assert units.get(expected, {}).get("type") == "fact", units
    assert query in units[expected]["query"]
    assert not [v for v in units if "对没有" in v or "None" in v], units  # was 用户对没有过敏
    r = await client.get(
        "/context", params={"user_id": "noallergy", "query": "suggest a restaurant for dinner"}
    )
    assert r.status_code == 200, r.text
    assert expected in r.json()["text"]


async def statuses(client: httpx.AsyncClient, user_id: str) -> dict[str, str]:
    r = await client.get(
        "/memories", params={"user_id": user_id, "include_superseded": "true", "limit": 50}
    )
    assert r.status_code == 200, r.text
    return {m["value"]: m["status"] for m in r.json()["memories"]}


@pytest.mark.parametrize(
    ("first", "second", "retracted", "correction", "reaffirmed"),
    [
        ("I'm allergic to seafood. I don't eat spicy food.",
         "Actually I'm no longer allergic to seafood, it was a misdiagnosis. "
         "But I still don't eat spicy food.",
         "The user is allergic to seafood.", "The user is no longer allergic to seafood.",
         "The user does not eat spicy food."),
        ("我对海鲜过敏，另外我不吃辣。", "其实我已经不对海鲜过敏了，医生说是误诊。但我还是不吃辣。",
         "用户对海鲜过敏。", "用户不再对海鲜过敏。", "用户不吃辣。"),
        ("我对海鲜过敏，另外我不吃辣。",
         "Actually I'm no longer allergic to seafood, the doctor said it was a misdiagnosis. "
         "但我还是不吃辣。",
         "用户对海鲜过敏。", "The user is no longer allergic to seafood.", "用户不吃辣。"),
    ],
)  # fmt: skip
async def test_a_correction_supersedes_what_it_corrects_not_what_it_reaffirms(
    client, first, second, retracted, correction, reaffirmed
):
    """Tester D9: "no longer allergic to X … but I still don't eat Y" is two units; the
    correction supersedes the allergy, the reaffirmed constraint stays active (merged)."""
    await units_of(client, "d9", [user(first)])
    r = await client.post(
        "/extract?wait=true", json={"user_id": "d9", "messages": [user(second)], "now": NOW}
    )
    assert r.status_code == 200, r.text
    outcomes = {u["value"]: u["outcome"] for u in r.json()["units"]}
    assert outcomes.get(correction) == "superseded", outcomes
    assert outcomes.get(reaffirmed) == "merged", outcomes
    assert len(outcomes) == 2, outcomes  # no third unit holding both ("Actually The user …")
    seen = await statuses(client, "d9")
    assert seen[retracted] == "superseded", seen
    assert seen[reaffirmed] == "active", seen
    assert seen[correction] == "active", seen
    assert not [v for v in seen if "Actually" in v or "对已经" in v], seen
