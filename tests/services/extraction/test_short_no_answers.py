"""A short no, with what it answers (tester H20): "Nope, none." after "Do you have any pets?"
and "Not anymore." after "Do you still smoke?" were stored as bare units ("Nope, none."),
"No, Lyon." after "Are you still in Paris?" was lost; a bare no to a question about nothing of
the user ("Anything else I can help with?") stays no unit. Through offline /extract."""

from __future__ import annotations

import pytest

from tests.services.extraction.extracted import units_of


def asked(question: str, answer: str) -> list[dict]:
    return [{"role": "assistant", "content": question}, {"role": "user", "content": answer}]


@pytest.mark.parametrize(
    ("messages", "expected"),
    [
        (asked("Do you have any pets?", "Nope, none."), "The user doesn't have any pets."),
        (asked("Do you still smoke?", "Not anymore."), "The user doesn't smoke anymore."),
        (asked("Are you still vegetarian?", "No longer."),
         "The user is not vegetarian anymore."),
        (asked("Are you still in Paris?", "No."), "The user is not in Paris anymore."),
        (asked("Are you still in Paris?", "No, Lyon."),
         "The user is not in Paris anymore. The user is in Lyon now."),
        (asked("Do you drink coffee?", "No, tea."),
         ("The user does not drink coffee.", "The user drinks tea.")),
    ],
)  # fmt: skip
async def test_a_short_no_is_stored_with_what_it_answers(client, messages, expected):
    units = await units_of(client, "h20", messages)
    for value in (expected,) if isinstance(expected, str) else expected:
        assert value in units, list(units)
    assert not any(v.rstrip(".").casefold() in ("nope, none", "not anymore") for v in units)


@pytest.mark.parametrize(
    "messages",
    [
        asked("Anything else I can help with?", "Nope, none."),
        asked("Want me to book it?", "Not anymore."),
        asked("Do you still smoke?", "No, thanks."),
    ],
)
async def test_a_no_that_completes_nothing_is_no_unit(client, messages):
    assert await units_of(client, "h20n", messages) == {}
