"""One fact per unit (a tester's four-session life): "Big news: I moved to Boston, in a small
apartment. My rent is $1,800 a month." kept the home and the rent in one unit, plus an event
"Big news: the user moved to Boston…" restating the home; a later "I moved to Seattle" or "My
rent went up to $2,100" was then only flagged beside the bundle, and the old value stayed
current. Now each slot (home, rent, salary, partner…) is a unit of its own, news lead-ins
("Big news:", 告诉你个大消息) are no part of a value, no event repeats a typed fact of its
clause, and a later change of one part supersedes that part only — the other stays active.
English and Chinese, offline ``/extract`` through the API on the embedded PostgreSQL."""

from __future__ import annotations

import pytest

from tests.services.extraction.extracted import NOW
from tests.services.extraction.test_state_endings import LATER, extract, listed

_LEAD_INS = ("big news", "guess what", "update", "告诉你", "跟你说", "好消息")


def _no_lead_in(values) -> None:
    for value in values:
        assert not any(w in value.casefold() for w in _LEAD_INS), value


@pytest.mark.parametrize(
    ("first", "change", "old", "kept"),
    [
        ("Big news: I moved to Boston, in a small apartment. My rent is $1,800 a month.",
         "I moved to Seattle.", "Boston", "$1,800"),
        ("Big news: I moved to Boston, in a small apartment. My rent is $1,800 a month.",
         "Update: my rent went up to $2,100 a month.", "$1,800", "Boston"),
        ("告诉你个大消息，我搬到深圳了，房租一个月一万二。", "我搬到广州了。", "深圳", "一万二"),
        ("告诉你个大消息，我搬到深圳了，房租一个月一万二。", "跟你说，房租涨到一个月一万四了。",
         "一万二", "深圳"),
        ("我男朋友叫李明，我现在月薪两万五。", "好消息！我现在月薪三万了。", "两万五", "李明"),
        ("My boyfriend is called Tom. My salary is 95k a year.", "My salary is now 110k a year.",
         "95k", "Tom"),
    ],
)  # fmt: skip
async def test_a_change_of_one_part_supersedes_that_part_only(client, first, change, old, kept):
    said = await extract(client, "life", first, NOW)
    _no_lead_in(said)
    assert [v for v in said if old in v and kept in v] == [], said  # two units, not one
    assert any(old in v for v in said) and any(kept in v for v in said), said
    changed = await extract(client, "life", change, LATER)
    _no_lead_in(changed)
    assert "superseded" in changed.values(), changed
    active = await listed(client, "life")
    assert not [v for v in active if old in v], active  # the old value is history
    assert [v for v in active if kept in v], active  # the other part stays current
    every = await listed(client, "life", include_superseded="true")
    assert [v for v, s in every.items() if old in v and s == "superseded"], every


@pytest.mark.parametrize(
    ("said", "fact"),
    [
        ("Big news: I moved to Boston, in a small apartment.",
         "The user moved to Boston and now lives there, in a small apartment."),
        ("Guess what, I live in Seattle, near the lake.",
         "The user lives in Seattle, near the lake."),
        ("告诉你个大消息，我男朋友叫李明。", "用户的男朋友叫李明。"),
    ],
)  # fmt: skip
async def test_no_event_restates_the_typed_fact_of_its_clause(client, said, fact):
    units = await extract(client, "moved", said, NOW)
    assert list(units) == [fact], units


@pytest.mark.parametrize(
    ("messages", "expected"),
    [
        (["My sister lives in Denver. She's a nurse."],
         ["The user's sister lives in Denver.", "The user's sister is a nurse."]),
        (["My sister lives in Denver.", "She is a nurse."],
         ["The user's sister lives in Denver.", "The user's sister is a nurse."]),
        (["I have a sister. She is a nurse."],
         ["The user has a sister.", "The user's sister is a nurse."]),
        (["我姐姐住在丹佛。她是护士。"], ["用户的姐姐住在丹佛。", "用户的姐姐是护士。"]),
        (["我姐姐住在丹佛。", "她是护士。"], ["用户的姐姐住在丹佛。", "用户的姐姐是护士。"]),
        (["My boyfriend is called Tom. My salary is 95k a year."],
         ["The user's boyfriend is named Tom.", "The user's salary is 95k a year."]),
        (["我男朋友叫李明，我现在月薪两万五。"], ["用户的男朋友叫李明。", "用户现在月薪两万五。"]),
        (["我女朋友是医生，我现在月薪两万五。"], ["用户女朋友是医生。", "用户现在月薪两万五。"]),
        (["跟你说，我在腾讯上班，月薪两万五。"], ["用户在腾讯工作。", "用户的月薪两万五。"]),
        (["Quick update — I got a new job at Stripe."],
         ["The user got a new job at Stripe.", "The user works at Stripe."]),
    ],
)  # fmt: skip
async def test_each_fact_about_a_relative_or_a_slot_is_a_unit(client, messages, expected):
    r = await client.post("/extract?wait=true", json={
        "user_id": "kin", "messages": [{"role": "user", "content": m} for m in messages],
        "now": NOW})  # fmt: skip
    assert r.status_code == 200, r.text
    assert sorted(u["value"] for u in r.json()["units"]) == sorted(expected), r.json()["units"]


@pytest.mark.parametrize("said", ["She is a nurse.", "她是护士。"])
async def test_a_fact_about_nobody_named_is_reported_as_dropped(client, said):
    r = await client.post(
        "/extract?wait=true",
        json={"user_id": "who", "messages": [{"role": "user", "content": said}], "now": NOW},
    )
    assert r.status_code == 200, r.text
    (entry,) = r.json()["units"]
    assert entry["outcome"] == "dropped" and entry["memory_id"] is None, entry
    assert entry["value"] == said and "whom it is about" in entry["reason"], entry


@pytest.mark.parametrize(
    ("said", "expected"),
    [
        ("Quick update — I fixed the login bug yesterday and the design review is next Tuesday.",
         {"The user fixed the login bug on 2026-12-05 (Saturday).": "2026-12-05",
          "The design review is on 2026-12-08 (Tuesday).": "2026-12-08"}),
        ("跟你说，我昨天修好了登录的bug，下周二要参加设计评审。",
         {"用户2026年12月5日（周六）修好了登录的bug。": "2026-12-05",
          "用户2026年12月8日（周二）要参加设计评审。": "2026-12-08"}),
    ],
)  # fmt: skip
async def test_two_events_at_two_times_are_two_dated_units_without_the_lead_in(
    client, said, expected
):
    """Issue 28 step 4 (two events, two times: two units, each dated) held already; the
    news lead-in stayed in the first value."""
    r = await client.post(
        "/extract?wait=true",
        json={"user_id": "two", "messages": [{"role": "user", "content": said}], "now": NOW},
    )
    assert r.status_code == 200, r.text
    got = {u["value"]: u for u in r.json()["units"]}
    assert set(got) == set(expected), got
    for value, day in expected.items():
        m = (await client.get(f"/memories/{got[value]['memory_id']}")).json()
        assert m["occurred_at"].startswith(day), m
