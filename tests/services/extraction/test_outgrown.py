"""An allergy said to be over (tester hbreak8 H1): 我的花生过敏已经好了 ("my peanut allergy is
gone") made a NEW allergy unit 用户对的花生过敏。, and "I've outgrown my shellfish allergy" a
constraint. Each is now read as "no longer allergic", which ends the stored allergy. English
and Chinese, through /extract."""

from __future__ import annotations

import pytest

from tests.services.extraction.extracted import units_of, user


@pytest.mark.parametrize(
    ("said", "expected"),
    [
        ("我的花生过敏已经好了。", "用户不再对花生过敏。"),
        ("好消息：医生说我的花生过敏已经好了，现在可以吃花生了。", "用户不再对花生过敏。"),
        ("I've outgrown my shellfish allergy.", "The user is no longer allergic to shellfish."),
        ("My allergist says I've outgrown my shellfish allergy, I can eat shrimp again.",
         "The user is no longer allergic to shellfish."),
    ],
)  # fmt: skip
async def test_an_allergy_said_to_be_over_makes_no_allergy_constraint(client, said, expected):
    units = await units_of(client, "outgrown", [user(said)])
    assert expected in units, units
    assert not [v for v, m in units.items() if m["type"] == "constraint"], units


@pytest.mark.parametrize(
    ("first", "then", "old"),
    [
        ("我对花生过敏。", "我的花生过敏已经好了。", "用户对花生过敏。"),
        ("I'm allergic to shellfish.", "I've outgrown my shellfish allergy.",
         "The user is allergic to shellfish."),
    ],
)  # fmt: skip
async def test_the_stored_allergy_is_no_longer_current(client, first, then, old):
    await units_of(client, "outgrown2", [user(first)])
    units = await units_of(client, "outgrown2", [user(then)])
    assert units.get(old, {}).get("status", "superseded") != "active", units


async def test_in_one_transcript_only_the_end_of_the_allergy_is_current(client):
    """The tester's two-message repro: both allergy units and the 已经好了 sentence were active."""
    said = [user("我对花生过敏。"), user("好消息：医生说我的花生过敏已经好了，现在可以吃花生了。")]
    units = await units_of(client, "outgrown3", said)
    assert list(units) == ["用户不再对花生过敏。"], units
