"""The end of a state said with a verb of its own (tester F3): "I smoke a pack a day." then
"I stopped smoking." left a conflict for a person to decide, "I gave up smoking." and 我戒烟了
left both active; "I'm married to Tom." then "I'm getting a divorce." left both active, "We got
divorced." made no unit at all; "I'm retired now." beside a job, "I sold the house." beside
owning it: both active. Now the ending supersedes the state it ends (kept as history: listed
with ``include_superseded``, true ``as_of`` before the ending), in English, Chinese and
across the two; an ending of another state, of another person's, or one only wished for
supersedes nothing. Offline ``/extract`` (the API on the embedded PostgreSQL)."""

from __future__ import annotations

import httpx
import pytest

from app.services.memory.pairs.decision import decide
from app.services.memory.pairs.features import statement
from tests.services.extraction.extracted import NOW, user

LATER = "2026-12-06T10:05:00Z"  # five minutes on: inside CONFLICTS__ORDER_WINDOW_S


async def extract(client: httpx.AsyncClient, user_id: str, content: str, now: str) -> dict:
    r = await client.post(
        "/extract?wait=true", json={"user_id": user_id, "messages": [user(content)], "now": now}
    )
    assert r.status_code == 200, r.text
    assert r.json()["status"] == "succeeded", r.json()
    return {u["value"]: u["outcome"] for u in r.json()["units"]}


async def listed(client: httpx.AsyncClient, user_id: str, **params: str) -> dict[str, str]:
    r = await client.get("/memories", params={"user_id": user_id, "limit": 50, **params})
    assert r.status_code == 200, r.text
    return {m["value"]: m["status"] for m in r.json()["memories"]}


@pytest.mark.parametrize(
    ("state", "ending"),
    [
        ("I smoke a pack a day.", "I stopped smoking."),
        ("I smoke a pack a day.", "I gave up smoking."),
        ("我每天抽一包烟。", "我戒烟了。"),
        ("I smoke a pack a day.", "我戒烟了。"),
        ("I'm married to Tom.", "I'm getting a divorce."),
        ("I'm married to Tom.", "We got divorced."),
        ("我和汤姆结婚了。", "我离婚了。"),
        ("I work as a nurse at City Hospital.", "I'm retired now."),
        ("我在医院当护士。", "我退休了。"),
        ("I own a house in Dover.", "I sold the house."),
        ("我有一套房子。", "我把房子卖了。"),
    ],
)  # fmt: skip
async def test_an_ending_supersedes_the_state_it_ends(client, state, ending):
    (old,) = await extract(client, "f3", state, NOW)
    outcomes = await extract(client, "f3", ending, LATER)
    assert "superseded" in outcomes.values(), outcomes
    active = await listed(client, "f3")
    assert old not in active and set(outcomes) & set(active), active
    every = await listed(client, "f3", include_superseded="true")
    assert every[old] == "superseded", every  # history kept, never deleted
    before = await listed(client, "f3", as_of="2026-12-06T10:02:00Z")
    assert list(before) == [old], before  # true until the ending was said
    reviews = (await client.get("/reviews", params={"user_id": "f3"})).json()["reviews"]
    assert reviews == [], reviews  # decided, not left to a person


@pytest.mark.parametrize(
    ("state", "other"),
    [
        ("I smoke a pack a day.", "I want to quit smoking."),  # only wished for
        ("I drink coffee every morning.", "I quit drinking."),  # another habit
        ("I'm married to Tom.", "My parents got divorced."),  # another person's
        ("我每天抽一包烟。", "我想戒烟。"),
        ("我在腾讯工作。", "我爸爸退休了。"),
    ],
)  # fmt: skip
async def test_no_ending_of_that_state_supersedes_nothing(client, state, other):
    (old,) = await extract(client, "f3n", state, NOW)
    await extract(client, "f3n", other, LATER)
    assert (await listed(client, "f3n"))[old] == "active"


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("The user bought a car last year", "The user sold a car last year"),  # maybe two cars
        ("The user owns a house in Dover.", "The user sold the car."),
        ("The user smokes a pack a day.", "The user didn't quit smoking."),
        ("The user smokes a pack a day.", "The user is trying to quit smoking."),
        ("The user is married to Tom.", "The user's divorce lawyer is Ann."),
        ("用户买了一辆车", "用户卖了一辆车"),
    ],
)  # fmt: skip
def test_what_is_no_ending_of_the_old_state(old, new):
    d = decide(statement(new), statement(old), 0.95)
    assert not d.reason.startswith("state_ended"), d


async def test_a_marriage_keeps_the_partner_it_names(client):
    units = await extract(client, "f3m", "I'm married to Tom.", NOW)
    assert list(units) == ["The user is married to Tom."], units
    r = await client.get("/memories", params={"user_id": "f3m"})
    assert r.json()["memories"][0]["entities"] == ["Tom"], r.json()
