"""A habit counted per day or week is a lasting fact, not a 30-day event (tester hbreak7 H26:
"I drink three coffees a day." was an event; "I hardly ever drink alcohol." was "The user
hardly evers drink alcohol."). What happened in a past week stays an event. Offline, through
the API."""

from __future__ import annotations

import pytest

from tests.services.extraction.extracted import units_of, user


@pytest.mark.parametrize(
    ("said", "value", "kind"),
    [
        ("I drink three coffees a day.", "The user drinks three coffees a day.", "fact"),
        ("I run 5 km twice a week.", "The user runs 5 km twice a week.", "fact"),
        ("I hardly ever drink alcohol.", "The user hardly ever drinks alcohol.", "fact"),
        ("I worked 12 hours a day during the launch.",
         "The user worked 12 hours a day during the launch.", "event"),
    ],
)  # fmt: skip
async def test_a_habit_per_day_or_week_is_a_fact(client, said, value, kind):
    units = await units_of(client, "h26", [user(said)])
    assert list(units) == [value], units
    assert units[value]["type"] == kind
