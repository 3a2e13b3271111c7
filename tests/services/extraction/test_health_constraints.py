"""Health constraints a user states in passing (tester hbreak5 F28): "I'm pregnant, so no
alcohol or raw fish." kept only "The user is pregnant."; "Shellfish makes me sick." was a
30-day event; "I used to be allergic to penicillin but I outgrew it." a standing constraint.
Through /extract, offline."""

from __future__ import annotations

from tests.services.extraction.extracted import units_of, user


async def test_so_no_x_is_a_constraint_beside_the_state(client):
    said = [user("I'm pregnant, so no alcohol or raw fish."),
            user("I take warfarin, so never give me aspirin.")]  # fmt: skip
    units = await units_of(client, "health", said)
    assert units["The user must avoid alcohol or raw fish."]["type"] == "constraint", units
    assert units["The user must avoid aspirin."]["type"] == "constraint", units
    assert "The user is pregnant." in units, units
    assert [v for v in units if "warfarin" in v], units


async def test_a_food_that_makes_the_user_sick_is_a_constraint(client):
    units = await units_of(client, "sick", [user("Shellfish makes me sick.")])
    assert units["Shellfish makes the user sick."]["type"] == "constraint", units


async def test_an_outgrown_allergy_is_no_constraint(client):
    said = "I used to be allergic to penicillin but I outgrew it."
    units = await units_of(client, "outgrew", [user(said)])
    assert [u["type"] for u in units.values()] == ["fact"], units


async def test_no_worries_is_no_constraint(client):
    units = await units_of(client, "fine", [user("I moved the meeting, so no worries.")])
    assert not [v for v in units if "avoid" in v], units
