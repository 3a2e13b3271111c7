"""What the user asks the assistant not to do is a standing instruction in the assistant's
words (tester D24: "Don't bring up my divorce." was an event "Don't bring up the user's
divorce."), and a request to delete a stored fact is an instruction, not a fact (tester D33:
"Delete her peanut allergy" was kept as a standing constraint). Through /extract."""

from __future__ import annotations

import pytest

from tests.services.extraction.extracted import units_of, user


@pytest.mark.parametrize(
    ("said", "expected"),
    [
        ("Don't bring up my divorce.",
         "The user asked the assistant not to bring up the user's divorce."),
        ("Please stop suggesting MongoDB.", "The user asked the assistant not to suggest MongoDB."),
        ("Don't call me Bob.", "The user asked the assistant not to call the user Bob."),
        ("Please don't ask me about my ex.",
         "The user asked the assistant not to ask the user about the user's ex."),
    ],
)  # fmt: skip
async def test_what_not_to_do_is_a_standing_instruction(client, said, expected):
    units = await units_of(client, "asker", [user(said)])
    assert expected in units, units
    assert units[expected]["type"] == "constraint"


@pytest.mark.parametrize(
    "said",
    ["Delete her peanut allergy.", "Please remove Anna's shellfish allergy.",
     "Delete his phone number."],
)  # fmt: skip
async def test_a_request_to_delete_a_fact_is_no_unit(client, said):
    units = await units_of(client, "deleter", [user(said), user("I'm vegetarian.")])
    assert list(units) == ["The user is vegetarian."], units


async def test_statements_with_the_same_verbs_are_kept(client):
    units = await units_of(client, "teller", [user("I had to remove my old notes from the desk.")])
    assert [v for v in units if "notes" in v], units


async def test_a_request_to_delete_anothers_fact_forgets_nothing_of_the_users(client):
    units = await units_of(
        client, "deleter2", [user("I'm allergic to peanuts."), user("Delete her peanut allergy.")]
    )
    assert "The user is allergic to peanuts." in units, units
