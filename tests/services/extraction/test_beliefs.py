"""What others believe of the user is not the user's statement (tester hbreak8 H18): "I hate
it when people assume I am vegan. I am not." made the constraint "The user is vegan.", the
opposite of what was said, which /context lists as a standing constraint. English and
Chinese, through /extract."""

from __future__ import annotations

import pytest

from tests.services.extraction.extracted import units_of, user


@pytest.mark.parametrize(
    ("said", "denied"),
    [
        ("I hate it when people assume I am vegan. I am not.", "The user is not vegan."),
        ("People assume I'm vegan, but I am not.", "the user is not vegan."),
        ("别人总以为我是素食者。其实我不是。", "用户不是素食者。"),
    ],
)  # fmt: skip
async def test_a_belief_of_others_makes_no_constraint_and_the_denial_is_kept(client, said, denied):
    units = await units_of(client, "believed", [user(said)])
    assert not [v for v, m in units.items() if m["type"] == "constraint"], units
    assert "The user is vegan." not in units and "用户是素食者。" not in units, units
    assert [v for v in units if denied in v], units


async def test_the_users_own_statement_still_counts(client):
    units = await units_of(client, "believed2", [user("I really think I am allergic to nuts.")])
    assert [v for v, m in units.items() if m["type"] == "constraint" and "nuts" in v], units


async def test_what_a_doctor_says_still_counts(client):
    units = await units_of(
        client, "believed3", [user("My doctor says I'm allergic to penicillin.")]
    )
    assert [v for v, m in units.items() if m["type"] == "constraint" and "penicillin" in v], units
