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


@pytest.mark.parametrize(
    ("said", "name", "work"),
    [
        ("Hi, I'm Lena. I work as a nurse in Hamburg.", "Lena",
         "The user works as a nurse in Hamburg."),
        ("I work as a nurse in Hamburg. By the way, I'm Lena.", "Lena",
         "The user works as a nurse in Hamburg."),
        ("我叫莉娜，我在汉堡当护士。", "莉娜", "用户在汉堡当护士。"),
    ],
)  # fmt: skip
async def test_the_units_about_the_user_name_the_user(client, said, name, work):
    # Issue 28: a unit about the user lists the name the transcript gives the user, so the
    # entity signal and memory_about find "Lena"'s job (checked: already so offline).
    units = await units_of(client, "intro", [user(said)])
    assert units[work]["entities"][0] == name, units
