"""A greeting is no one's name and "Hi, I'm Dana." names the user (tester E4: "Hi, I'm Dana.
Quick background so you can help me plan meals: …" made "The user is Dana. Quick background
so Hi can help the user plan meals: …", a constraint that outranked real answers, and no unit
held the name). Through /extract."""

from __future__ import annotations

import pytest

from tests.services.extraction.extracted import units_of, user


async def test_an_introduction_names_the_user_and_a_greeting_is_no_one(client):
    said = ("Hi, I'm Dana. Quick background so you can help me plan meals: I'm vegetarian "
            "and I'm allergic to shellfish.")  # fmt: skip
    units = await units_of(client, "dana", [user(said)])
    assert "The user's name is Dana." in units, units
    assert "The user is vegetarian." in units and "The user is allergic to shellfish." in units
    assert not [v for v in units if "Hi " in v or "background" in v], units


@pytest.mark.parametrize(
    "said", ["I'm Sorry.", "I'm Hungry!", "I'm Back.", "I'm Canadian.", "I'm Japanese."]
)
async def test_a_capitalised_state_is_no_name(client, said):
    units = await units_of(client, "moody", [user(said)])
    assert not [v for v in units if "name is" in v], units
