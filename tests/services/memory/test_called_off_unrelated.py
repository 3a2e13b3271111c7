"""A calling off is a possible change only of what it calls off (tester hbreak10 L4): "用户的去
日本的旅行取消了。" opened flagged contradiction reviews (`called_off_elsewhere`) against every
unrelated unit of its session — a new girlfriend, a move, a new job: short Chinese sentences sit
at cosine ~0.9 — and /context marked them "[unresolved conflict …]". The guard now needs the two
statements to share a word; the hike and its cancellation stay flagged."""

from __future__ import annotations

import pytest

from app.services.memory.pairs.decision import Thresholds
from app.services.memory.pairs.plan import Candidate, pair_decision
from tests.services.memory.told import stored

CANCELLED = "用户的去日本的旅行取消了。"


@pytest.mark.parametrize(
    "other", ["用户现在的女朋友叫丽娜。", "用户搬到了慕尼黑，现在住在那里。", "用户换工作了。"]
)
def test_a_cancellation_is_no_change_of_an_unrelated_statement(other: str) -> None:
    d = pair_decision(
        CANCELLED, "event", frozenset(), Candidate(other, "event", frozenset(), 0.92), Thresholds()
    )
    assert d.reason != "called_off_elsewhere", d


@pytest.mark.parametrize(
    ("new", "old"),
    [
        ("徒步因为下雨取消了", "用户去徒步了"),
        ("The mid-July hike was cancelled because of rain.", "The user went hiking in mid-July."),
    ],
)
def test_a_cancellation_of_the_same_thing_stays_flagged(new: str, old: str) -> None:
    d = pair_decision(
        new, "event", frozenset(), Candidate(old, "event", frozenset(), 0.93), Thresholds()
    )
    assert (d.action, d.reason, d.merge_allowed) == ("unsure", "called_off_elsewhere", False)


async def test_one_sessions_units_open_no_review_against_its_cancellation(client) -> None:
    for value in ("用户现在的女朋友叫丽娜。", "用户搬到了慕尼黑，现在住在那里。", "用户换工作了。"):
        await stored(client, "l4", value, type="event")
    result = await stored(client, "l4", CANCELLED, type="event")
    assert [p["reason"] for p in result["pending"]] == [], result
    assert (await client.get("/reviews", params={"user_id": "l4"})).json()["reviews"] == []
