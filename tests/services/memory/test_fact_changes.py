"""Changes of facts a new user tells in a chat turn (tester G31, G14): a plan called off or
moved ("I cancelled my Rome trip", "I moved my dentist appointment to the 18th", 罗马之行取消
了) and a state ended ("I sold my car", "I broke up with Sam", "My cat Mochi died last week",
把车卖了, 和Sam分手了) supersede the stored plan or state, which /recall then leaves out
(history kept: the old unit stays readable, ``superseded_by`` the new one); "Our office moved
to Berlin" is no move of the user's home. The old fact is stored with /store, the change told in a
transcript to /extract (offline extractor)."""

from __future__ import annotations

import httpx
import pytest

from tests.services.memory.told import store_value, tell


async def _left_active(client: httpx.AsyncClient, user: str, old: str, said: str) -> list[dict]:
    """Store ``old``, tell ``said``: the old unit stays active; returns the told units."""
    old_id = await store_value(client, user, old)
    units = await tell(client, user, said)
    r = await client.get(f"/memories/{old_id}")
    assert r.json()["status"] == "active", (r.json(), units)
    return units


async def _superseded(client: httpx.AsyncClient, user: str, old: str, said: str) -> None:
    """Store ``old``, tell ``said``: the old unit is superseded and /recall leaves it out."""
    old_id = await store_value(client, user, old)
    units = await tell(client, user, said)
    r = await client.get(f"/memories/{old_id}")
    assert r.status_code == 200, r.text
    assert r.json()["status"] == "superseded", (r.json(), units)
    assert r.json()["superseded_by"] in [u["memory_id"] for u in units], units
    r = await client.post("/recall", json={"query": old, "user_id": user, "top_k": 10})
    assert r.status_code == 200, r.text
    assert old not in [m["value"] for m in r.json()["memories"]], r.json()


@pytest.mark.parametrize(
    ("old", "said"),
    [
        ("The user is going to Rome in May.", "I cancelled my Rome trip."),
        ("The user has a dentist appointment on the 12th.",
         "I moved my dentist appointment to the 18th."),
        ("用户五月去罗马。", "罗马之行取消了。"),
        ("用户五月去罗马。", "我取消了罗马之行。"),
        ("用户12号有牙医预约。", "我把牙医预约改到了18号。"),
    ],
)  # fmt: skip
async def test_a_plan_called_off_or_moved_is_superseded(client, old, said):
    await _superseded(client, f"g31-{len(said)}-{len(old)}", old, said)


@pytest.mark.parametrize(
    ("old", "said"),
    [
        ("The user is going to Rome in May.", "I cancelled my Paris trip."),
        ("The user visited Rome in May.", "I cancelled my Rome trip."),
        ("用户五月去罗马。", "巴黎之行取消了。"),
    ],
)
async def test_another_trip_or_a_past_visit_stays(client, old, said):
    await _left_active(client, f"g31k-{len(said)}-{len(old)}", old, said)


@pytest.mark.parametrize(
    ("old", "said"),
    [
        ("The user drives a blue Honda Civic.", "I sold my car."),
        ("The user is dating Sam.", "I broke up with Sam."),
        ("The user has a cat named Mochi.", "My cat Mochi died last week."),
        ("用户开一辆蓝色的本田思域。", "我把车卖了。"),
        ("用户在和Sam约会。", "我和Sam分手了。"),
        ("用户有一只叫Mochi的猫。", "我的猫Mochi上周去世了。"),
    ],
)
async def test_a_state_ended_is_superseded(client, old, said):
    await _superseded(client, f"g14-{len(said)}-{len(old)}", old, said)


@pytest.mark.parametrize(
    ("old", "said"),
    [
        ("The user drives a bus for the city.", "I sold my car."),
        ("The user has a cat named Mochi.", "My dog Rex died last week."),
        ("The user is dating Sam.", "My sister broke up with Sam."),
    ],
)
async def test_another_thing_ended_leaves_the_state(client, old, said):
    await _left_active(client, f"g14k-{len(said)}-{len(old)}", old, said)


@pytest.mark.parametrize(
    ("old", "said"),
    [
        ("The user lives in Munich.", "Our office moved to Berlin."),
        ("用户住在慕尼黑。", "我们公司搬到了柏林。"),
    ],
)
async def test_an_office_that_moved_is_not_the_users_home(client, old, said):
    user = f"office-{len(said)}"
    old_id = await store_value(client, user, old)
    units = await tell(client, user, said)
    assert units and all(u["outcome"] == "created" for u in units), units
    r = await client.get(f"/memories/{old_id}")
    assert r.json()["status"] == "active" and r.json()["conflicts_with"] == [], r.json()


async def test_a_correction_naming_the_old_value_supersedes_it(client):
    """Tester G1: "…in April 2027, not May." left "The user's trip is in May 2027." current
    (the correction's tail made its frame another: unsure); the plan said later holds."""
    user = "g1c"
    [first] = await tell(client, user, "My trip is in May.")
    second = await tell(client, user, "Actually my trip is in April, not May.")
    assert [u["outcome"] for u in second] == ["superseded"], second
    r = await client.get(f"/memories/{first['memory_id']}")
    assert r.json()["status"] == "superseded", r.json()
