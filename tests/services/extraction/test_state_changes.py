"""A change of state said without "no longer" (tester D26): "I switched jobs, I'm at Stripe
now" left "The user works at Google." active beside it, 我跳槽到字节了 left 用户在腾讯工作。,
"I sold my car" left "The user owns a car.", "Just one cat now" left "The user has two cats."
(it made no unit at all), and "We broke up" made none either. Now each writes the state it
leaves as a fact of its own, which supersedes the old one, or — "We broke up" names no
partner — flags "The user is dating Sam." as a possible contradiction (both kept). English and
Chinese, offline /extract."""

from __future__ import annotations

import httpx
import pytest

from app.services.memory.pairs.decision import Thresholds, decide
from app.services.memory.pairs.features import statement
from tests.services.extraction.extracted import NOW, units_of, user


async def listed(client: httpx.AsyncClient, user_id: str) -> dict[str, dict]:
    r = await client.get(
        "/memories", params={"user_id": user_id, "include_superseded": "true", "limit": 50}
    )
    assert r.status_code == 200, r.text
    return {m["value"]: m for m in r.json()["memories"]}


@pytest.mark.parametrize(
    ("old", "change", "state"),
    [
        ("I work at Google.", "I switched jobs, I'm at Stripe now.",
         "The user now works at Stripe."),
        ("我在腾讯工作。", "我跳槽到字节了。", "用户现在在字节工作。"),
        ("I own a car.", "I sold my car.", "The user no longer owns a car."),
        ("我有一辆车。", "我把车卖了。", "用户不再有车了。"),
        ("I have two cats.", "Just one cat now.", "The user has just one cat now."),
        ("我有两只猫。", "现在只有一只猫了。", "用户现在只有一只猫。"),
    ],
)  # fmt: skip
async def test_a_change_of_state_supersedes_the_old_state(client, old, change, state):
    before = await units_of(client, "d26", [user(old)])
    assert len(before) == 1, before
    (old_value,) = before
    r = await client.post(
        "/extract?wait=true", json={"user_id": "d26", "messages": [user(change)], "now": NOW}
    )
    assert r.status_code == 200, r.text
    outcomes = {u["value"]: u["outcome"] for u in r.json()["units"]}
    assert state in outcomes and "superseded" in outcomes.values(), outcomes
    seen = await listed(client, "d26")
    assert seen[old_value]["status"] == "superseded", seen
    assert seen[state]["status"] == "active", seen


@pytest.mark.parametrize(
    ("old", "change", "state"),
    [
        ("I'm dating Sam.", "We broke up.", "The user is no longer in a relationship."),
        ("我有女朋友。", "我们分手了。", "用户不再在谈恋爱了。"),
    ],
)  # fmt: skip
async def test_a_breakup_flags_the_relationship_it_ends(client, old, change, state):
    before = await units_of(client, "d26b", [user(old)])
    (old_value,) = before
    r = await client.post(
        "/extract?wait=true", json={"user_id": "d26b", "messages": [user(change)], "now": NOW}
    )
    assert r.status_code == 200, r.text
    assert state in {u["value"] for u in r.json()["units"]}, r.json()["units"]
    seen = await listed(client, "d26b")
    assert seen[old_value]["status"] == "active", seen  # no partner named: not superseded…
    reviews = (await client.get("/reviews", params={"user_id": "d26b"})).json()["reviews"]
    assert [(v["kind"], v["reason"]) for v in reviews] == [
        ("contradiction", "relationship_ended")], reviews  # …flagged  # fmt: skip


@pytest.mark.parametrize(
    ("content", "absent"),
    [
        ("I'm at Starbucks now, want to join?", "works at"),  # no job changed
        ("My sister sold her car.", "no longer owns"),  # not the user's
        ("They broke up last week.", "relationship"),
        ("I sold my old phone.", "no longer"),  # no lasting thing it names
    ],
)  # fmt: skip
async def test_no_change_of_the_users_state_makes_none(client, content, absent):
    units = await units_of(client, "d26n", [user(content)])
    assert not [v for v in units if absent in v], units


def test_another_value_said_with_now_contradicts_only_in_the_same_frame():
    t = Thresholds()
    d = decide(statement("The user has just one cat now."), statement("The user has two cats."),
               0.922, thresholds=t)  # fmt: skip
    assert d.action == "contradicts" and d.reason == "values_changed", d
    d = decide(statement("The user has one dog now."), statement("The user has two cats."),
               0.90, thresholds=t)  # fmt: skip
    assert d.action != "contradicts", d
