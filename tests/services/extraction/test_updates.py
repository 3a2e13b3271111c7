"""An update said in a later conversation replaces, or at least flags, what it updates
(tester E1: a new job, a move and "not vegetarian anymore" were all `created` beside the old
values, no review, the stale one ranked first). Through /extract, two conversations."""

from __future__ import annotations

from tests.services.extraction.extracted import units_of, user


async def test_a_move_a_new_job_and_a_changed_diet_update_the_old_values(client):
    await units_of(client, "dana2", [
        user("I'm vegetarian."), user("I'm a nurse at St Mary's Hospital."),
        user("I live in Boston.")])  # fmt: skip
    units = await units_of(client, "dana2", [
        user("Actually I'm not vegetarian anymore, I eat fish now."),
        user("I got a new job! I'm now a software tester at Acme Corp."),
        user("We moved to Seattle last week!")])  # fmt: skip
    active = {v for v, u in units.items() if u["status"] == "active"}
    assert "The user works as a software tester at Acme Corp." in active, units
    assert "The user is vegetarian." not in active and "The user lives in Boston." not in active
    r = await client.get("/reviews", params={"user_id": "dana2"})
    pairs = {(v["unit"]["value"], v["candidate"]["value"]) for v in r.json()["reviews"]}
    assert ("The user works as a software tester at Acme Corp.",
            "The user works as a nurse at St Mary's Hospital.") in pairs, pairs  # fmt: skip


async def test_dont_anymore_is_a_change_not_a_standing_rule(client):
    units = await units_of(client, "coffee", [user("I don't drink coffee anymore.")])
    assert units["The user no longer drinks coffee."]["type"] == "fact", units
