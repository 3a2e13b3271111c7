"""What a statement is about keeps two facts apart (tester T22 and T11, docs/DEDUPE.md):
another person (the user / the user's husband, Alice / Bob, 用户 / 用户的丈夫), another
identifier or ordinal (flight LH716 / LH717, order 1001 / 1002, first / second meeting), a
direction swapped (to / from Tokyo, 去 / 从…回来), a plan, wish or possibility against what
happened (will visit / visited, might move / moved, 想去 / 去过) and two past events on
other days (ran 5 km on Saturday / 10 km on Sunday) are never merged and never supersede each
other — through ``/store`` and through extraction — while one flight's, one meeting's or one
run's changed value still does."""

from __future__ import annotations

import pytest

from app.services.memory.pairs import referents
from tests.services.memory.as_fact import FACT


@pytest.mark.parametrize(
    ("value", "people"),
    [
        ("The user's husband prefers aisle seats.", {"husband"}),
        ("My mum lives in Leeds", {"mother"}),
        ("Melanie's kids love camping", {"child"}),
        ("The user's older son plays football", {"son"}),
        ("用户的丈夫喜欢靠过道的座位", {"husband"}),
        ("我老公喜欢爵士乐", {"husband"}),
        ("张三的妻子是医生", {"wife"}),
        ("用户喜欢可爱的狗", set()),  # a dog the user likes, not the dog's fact
        ("The user prefers aisle seats.", set()),
        ("Nate shared it with his vegan group", set()),  # a vegan group: not a person
        ("The user's dentist appointment is on Monday", set()),
        ("My favourite colour is blue", set()),
    ],
)  # fmt: skip
def test_the_person_a_possessive_names(value, people):
    assert referents.people(value) == people


@pytest.mark.parametrize(
    ("value", "ids", "ordinals"),
    [
        ("Flight LH716 departs at 10:00.", {"lh716"}, set()),
        ("The user's order #1001 shipped on Monday.", {"1001"}, set()),
        ("用户的订单1001周一发货了", {"1001"}, set()),
        ("1002号订单已发货", {"1002"}, set()),
        ("The user's code is SKU-42", set(), set()),  # after "is": a value
        ("The user's first meeting is at 9am.", set(), {"1:meeting"}),
        ("用户第二次去日本是2022年", set(), {"2:time"}),  # 第二次: the second time
        ("The user's office is on the 7th floor", set(), set()),  # a floor is a value
        ("The user came 2nd in the race", set(), set()),
    ],
)  # fmt: skip
def test_identifiers_and_ordinals_name_the_thing(value, ids, ordinals):
    assert referents.identifiers(value) == ids
    assert referents.ordinals(value) == ordinals


@pytest.mark.parametrize(
    ("value", "moods"),
    [
        ("The user will visit Rome in May.", {"future"}),
        ("The user visited Rome in May.", {"past"}),
        ("The user might move to Canada.", {"epistemic"}),
        ("The user plans to run a marathon", {"desire"}),
        ("The user wants email notifications", set()),  # wants a thing: a preference
        ("The user is going to Tokyo", set()),  # going to a place
        ("Melanie has been practising art since 2016", set()),  # ongoing
        ("The user lives in May Street", set()),
        ("用户想去日本旅游。", {"desire"}),
        ("用户去过日本旅游。", {"past"}),
        ("用户喜欢靠过道的座位", set()),  # 过道 (aisle) is no 过
        ("用户要去日本了", {"future"}),  # about to go: 了 is no past here
    ],
)  # fmt: skip
def test_how_real_a_statement_says_its_fact_is(value, moods):
    assert referents.moods(value) == moods


async def _store(client, user: str, value: str, occurred_at: str) -> dict:
    r = await client.post("/store", json={"memories": [
        {"user_id": user, "value": value, "occurred_at": occurred_at, **FACT}]})  # fmt: skip
    assert r.status_code == 200, r.text
    return r.json()["results"][0]


# The tester's pairs (T22: stored a minute apart; T11: a week apart, and at the same time).
KEPT_APART = [
    ("The user flies to Tokyo on Friday.", "The user flies from Tokyo on Friday."),
    ("The user prefers aisle seats.", "The user's husband prefers aisle seats."),
    ("The user will visit Rome in May.", "The user visited Rome in May."),
    ("The user might move to Canada.", "The user moved to Canada."),
    ("用户想去日本旅游。", "用户去过日本旅游。"),
    ("Flight LH716 departs at 10:00.", "Flight LH717 departs at 18:30."),
    ("The user's order 1001 shipped on Monday.", "The user's order 1002 shipped on Friday."),
    ("The user's first meeting is at 9am.", "The user's second meeting is at 2pm."),
    ("The user ran 5 km on Saturday.", "The user ran 10 km on Sunday."),
    ("Alice prefers aisle seats.", "Bob prefers aisle seats."),
    ("用户的订单1001周一发货了", "用户的订单1002周五发货了"),
]


@pytest.mark.parametrize("gap", ["2026-11-01T10:01:00Z", "2026-11-08T10:00:00Z"])
async def test_distinct_facts_stay_active_and_recallable_through_the_store(client, gap):
    """End to end (embedded PostgreSQL, the real embedder, no LLM): the second of each pair
    is created — not merged, superseded nor flagged — and both stay active."""
    for k, (old, new) in enumerate(KEPT_APART):
        user = f"t22-{k}-{gap[8:10]}"
        first = await _store(client, user, old, "2026-11-01T10:00:00Z")
        second = await _store(client, user, new, gap)
        assert second["outcome"] == "created", (old, new, second)
        for unit in (first, second):
            got = (await client.get(f"/memories/{unit['id']}")).json()
            assert got["status"] == "active" and not got["conflicts_with"], (old, new, got)
    query = {"query": "When does flight LH716 depart?", "user_id": f"t22-5-{gap[8:10]}"}
    r = await client.post("/recall", json={**query, "top_k": 3})
    assert "Flight LH716 departs at 10:00." in [m["value"] for m in r.json()["memories"]]


async def test_one_flights_changed_time_still_supersedes(client):
    await _store(client, "lh", "Flight LH716 departs at 10:00.", "2026-11-01T10:00:00Z")
    r = await _store(client, "lh", "Flight LH716 departs at 11:30.", "2026-11-08T10:00:00Z")
    assert r["outcome"] == "superseded", r
    await _store(client, "run", "The user ran 5 km on Saturday.", "2026-11-01T10:00:00Z")
    r = await _store(client, "run", "The user ran 10 km on Saturday.", "2026-11-08T10:00:00Z")
    assert r["outcome"] == "superseded", r


async def test_two_runs_told_in_two_sessions_are_both_kept(client):
    """T11 through working memory: "I ran 5 km on Saturday." and, a week later, "I ran 10 km
    on Sunday." in two sessions of one user, each closed and extracted offline: both units
    stay active and the Saturday run is recalled."""
    app = client._transport.app  # type: ignore[attr-defined]
    ids = []
    sessions = [("run-1", "I ran 5 km on Saturday.", "2026-11-02T09:00:00Z"),
                ("run-2", "I ran 10 km on Sunday.", "2026-11-09T09:00:00Z")]  # fmt: skip
    for session, said, at in sessions:
        r = await client.post(f"/working_memory/{session}/messages", json={"messages": [
            {"role": "user", "content": said, "user_id": "runner", "created_at": at}]})  # fmt: skip
        assert r.status_code == 200, r.text
        r = await client.post(f"/working_memory/{session}/close", json={"timezone": "UTC"})
        job = r.json()["job"]
        assert await app.state.extraction.runner.run_inline(job["id"], 30) == "succeeded"
        units = (await client.get(f"/extract/{job['id']}")).json()["units"]
        assert [u["outcome"] for u in units] == ["created"], units
        ids.append(units[0]["memory_id"])
    for unit_id in ids:
        assert (await client.get(f"/memories/{unit_id}")).json()["status"] == "active"
    r = await client.post("/recall", json={
        "query": "How far did I run on Saturday?", "user_id": "runner", "top_k": 3})  # fmt: skip
    assert ids[0] in [m["id"] for m in r.json()["memories"]]


SWAPPED = [
    ("The user bought a house in 2020.", "The user sold a house in 2020."),
    ("The user's wifi provider is Comcast.", "The user's email provider is Comcast."),
    ("The user's flight leaves from Terminal 2.", "The user's flight arrives at Terminal 2."),
    ("The user's train leaves from Munich at noon.", "The user's train arrives in Munich at noon."),
]


async def test_one_word_swapped_is_never_merged_silently(client):
    """Tester B9: one content word swapped for another the dictionaries do not match, the rest
    the same (bought / sold, wifi / email, leaves from / arrives at), was merged by content-word
    alignment and the second text vanished; it is another fact or a change, never a merge."""
    for k, (old, new) in enumerate(SWAPPED):
        user = f"b9-{k}"
        await _store(client, user, old, "2026-11-01T10:00:00Z")
        second = await _store(client, user, new, "2026-11-01T10:05:00Z")
        assert second["outcome"] != "merged", (old, new, second)
        page = await client.get(
            "/memories?status=active&status=superseded", params={"user_id": user}
        )
        assert new in [m["value"] for m in page.json()["memories"]], (old, new)
