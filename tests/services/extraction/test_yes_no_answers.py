"""A short answer to the assistant's yes/no question about the user (tester C24): "Yes." /
"No." after "Are you vegetarian?" made no unit at all, "Shellfish." after "Are you allergic
to anything?" a meaningless "Shellfish."; with the question they are the user's statement
("The user is vegetarian.", "The user is not vegetarian.", "The user is allergic to
shellfish."). An answer to an open question ("What should I cook?" "Pasta.") stays no fact
about the user. English and Chinese, through offline /extract."""

from __future__ import annotations

import pytest

from tests.services.extraction.extracted import units_of


def asked(question: str, answer: str) -> list[dict]:
    return [{"role": "assistant", "content": question}, {"role": "user", "content": answer}]


@pytest.mark.parametrize(
    ("messages", "expected", "kind"),
    [
        (asked("Are you vegetarian?", "Yes."), "The user is vegetarian.", "constraint"),
        (asked("Are you vegetarian?", "No."), "The user is not vegetarian.", "event"),
        (asked("Are you vegetarian?", "No, I'm not."), "The user is not vegetarian.", "event"),
        (asked("Are you allergic to anything?", "Shellfish."),
         "The user is allergic to shellfish.", "constraint"),
        (asked("Do you have any allergies?", "Shellfish."),
         "The user is allergic to shellfish.", "constraint"),
        (asked("Do you eat meat?", "No."), "The user does not eat meat.", "constraint"),
        (asked("你吃素吗？", "是的。"), "用户吃素。", "constraint"),
        (asked("你吃素吗？", "对"), "用户吃素。", "constraint"),
        (asked("你吃素吗？", "不"), "用户不吃素。", "event"),
        (asked("你吃不吃素？", "不吃。"), "用户不吃素。", "event"),
        (asked("你是素食者吗？", "不是"), "用户不是素食者。", "event"),
        (asked("你对什么过敏吗？", "海鲜。"), "用户对海鲜过敏。", "constraint"),
    ],
)  # fmt: skip
async def test_a_short_answer_to_a_yes_no_question_is_the_users_statement(
    client, messages, expected, kind
):
    units = await units_of(client, "yesno", messages)
    assert expected in units, units
    unit = units[expected]
    assert unit["type"] == kind, unit
    assert unit["confidence"] >= 0.8, unit  # the user's own word
    # The bare answer is no unit of its own.
    bare = ("Yes", "No", "Shellfish", "是的", "不", "海鲜")
    assert not [v for v in units if v.rstrip("。.") in bare], units


async def test_not_vegetarian_keeps_no_food_out_of_the_meals(client):
    """用户不吃素 is no constraint "might contain 素" (it kept vegetarian food out)."""
    units = await units_of(client, "notveg", asked("你吃素吗？", "不"))
    assert "用户不吃素。" in units, units
    assert not [u for u in units.values() if u["type"] == "constraint"], units


@pytest.mark.parametrize(
    ("messages", "absent"),
    [
        (asked("What should I cook?", "Pasta."), "pasta"),
        (asked("Which one should I pick?", "The blue one."), "blue"),
        (asked("Are you allergic to anything?", "Yes."), "anything"),
        (asked("Do you want me to book it?", "Yes."), "book"),
        (asked("Are you ready?", "Yes."), "ready"),
        (asked("Do you want to continue?", "Yes."), "continue"),
        (asked("你准备好了吗？", "是的"), "准备"),
        (asked("我今晚做什么菜？", "意大利面。"), "用户想"),
        (asked("你觉得好吃吗？", "好吃"), "用户觉得"),
    ],
)  # fmt: skip
async def test_an_answer_to_an_open_question_is_no_fact_about_the_user(client, messages, absent):
    units = await units_of(client, "open", messages)
    assert not [
        v for v, u in units.items()
        if absent in v.lower() and u["type"] in ("fact", "constraint", "preference")
    ], units  # fmt: skip
    about_user = ("The user is", "The user has", "The user wants", "用户对", "用户是", "用户准备")
    assert not [v for v in units if v.startswith(about_user)], units


@pytest.mark.parametrize(
    ("messages", "expected", "kind"),
    [
        # Tester D28: a yes with more words, a pick of a choice, an answer that echoes.
        (asked("Which airline do you prefer?", "Lufthansa, always."),
         "The user prefers Lufthansa.", "preference"),
        (asked("Which do you prefer, tea or coffee?", "Coffee."),
         "The user prefers coffee.", "preference"),
        (asked("Do you have pets?", "Yes, I do. Two dogs."), "The user has two dogs.", "fact"),
        (asked("Any allergies?", "Yes, to shellfish."),
         "The user is allergic to shellfish.", "constraint"),
        (asked("Are you allergic to peanuts?", "Yes, peanuts."),
         "The user is allergic to peanuts.", "constraint"),
        (asked("你对花生过敏吗？", "对，花生"), "用户对花生过敏。", "constraint"),
        (asked("你更喜欢哪家航空公司？", "汉莎，一直都是。"), "用户喜欢汉莎。", "preference"),
    ],
)  # fmt: skip
async def test_a_short_answer_with_more_words_is_the_users_statement(
    client, messages, expected, kind
):
    units = await units_of(client, "yesmore", messages)
    assert expected in units, units
    assert units[expected]["type"] == kind, units[expected]
    # The bare answer is no unit of its own ("Lufthansa, always.", "Two dogs.", "用户：花生。").
    assert len(units) == 1, units


@pytest.mark.parametrize(
    "messages",
    [
        asked("Which one should I pick?", "The blue one."),
        asked("Which do you prefer, tea or coffee?", "Neither."),
        asked("Do you want me to book it?", "Yes, please."),
        asked("你觉得哪个好？", "蓝色的。"),
    ],
)  # fmt: skip
async def test_a_pick_that_is_no_choice_of_the_user_is_no_preference(client, messages):
    units = await units_of(client, "nopick", messages)
    assert not [v for v, u in units.items() if u["type"] == "preference"], units
