"""A short answer to the assistant's question about the user's slot is the user's statement
(tester E18: "Any food allergies?" "Peanuts." was the 30-day event "Peanuts.", invisible to a
constraint filter; "Which city do you live in?" "Hangzhou." the event "Hangzhou."). English
and Chinese, through /extract; an open question ("What should I cook?") completes nothing."""

from __future__ import annotations

import pytest

from tests.services.extraction.extracted import units_of, user


def asked(question: str, answer: str) -> list[dict]:
    return [{"role": "assistant", "content": question}, {"role": "user", "content": answer}]


@pytest.mark.parametrize(
    ("question", "answer", "expected", "kind"),
    [
        ("Any food allergies?", "Peanuts.", "The user is allergic to peanuts.", "constraint"),
        ("Which city do you live in?", "Hangzhou.", "The user lives in Hangzhou.", "fact"),
        ("What do you do for work?", "Nurse.", "The user works as a nurse.", "fact"),
        ("Where do you work?", "At Acme Corp.", "The user works at Acme Corp.", "fact"),
        ("What's your name?", "Dana.", "The user's name is Dana.", "fact"),
        ("How old are you?", "34", "The user is 34 years old.", "fact"),
        ("What's your favourite colour?", "Green.", "The user's favourite colour is green.",
         "preference"),
        ("你住在哪个城市？", "杭州。", "用户住在杭州。", "fact"),
        ("你对什么过敏？", "芒果。", "用户对芒果过敏。", "constraint"),
        ("你叫什么名字？", "王磊。", "用户叫王磊。", "fact"),
    ],
)  # fmt: skip
async def test_a_short_answer_is_the_users_statement(client, question, answer, expected, kind):
    units = await units_of(client, "answerer", asked(question, answer))
    assert expected in units, units
    assert units[expected]["type"] == kind, units[expected]


@pytest.mark.parametrize(
    ("question", "answer"),
    [("What should I cook tonight?", "Pasta."), ("你想吃什么？", "面条。")],
)  # fmt: skip
async def test_an_open_question_completes_nothing(client, question, answer):
    units = await units_of(client, "chooser", asked(question, answer))
    assert not [v for v in units if v.startswith(("The user is", "The user lives", "用户住"))]


@pytest.mark.parametrize(
    ("asked", "said", "expected"),
    [("Which seat do you prefer, aisle or window?", "Aisle, always.",
      "The user prefers an aisle seat."),
     ("Do you prefer tea or coffee?", "Coffee, definitely.", "The user prefers coffee.")],
)  # fmt: skip
async def test_a_choice_between_two_is_a_preference(client, asked, said, expected):
    """Tester hbreak5 F24: each answer was the event "Aisle, always." / "Coffee, definitely."."""
    units = await units_of(client, "chooser", [{"role": "assistant", "content": asked}, user(said)])
    assert units[expected]["type"] == "preference", units
