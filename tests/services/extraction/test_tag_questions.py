"""Tester E26: a tag question the assistant puts about the user and the bare yes or no that
answers it, through working memory (append, close, the job) on the real Redis. "So you are
vegan and live in Austin, right?" "Yes." made no unit; "You are still vegetarian, right?" "No,
not anymore." left "The user is vegetarian." active beside the event "No, not anymore."; "Yes,
two." to "Do you have kids?" was "The user has two.". English and Chinese."""

from __future__ import annotations

import pytest

from tests.services.extraction.closed import close_task, memories, recalled


@pytest.mark.parametrize(
    ("question", "answer", "expected"),
    [
        ("So you are vegan and live in Austin, right?", "Yes.",
         {"The user is vegan.", "The user lives in Austin."}),
        ("那你是素食者，住在杭州，对吧？", "对。", {"用户吃素。", "用户住在杭州。"}),
        ("Do you have kids?", "Yes, two.", {"The user has two kids."}),
        ("你有孩子吗？", "有，两个。", {"用户有两个孩子。"}),
        # "still" adds nothing the confirmation keeps: the typed constraint
        ("You are still vegetarian, right?", "Yes.", {"The user is vegetarian."}),
        ("你还是吃素的，对吧？", "对。", {"用户吃素。"}),
    ],
)  # fmt: skip
async def test_a_yes_confirms_each_part_of_the_question(wm, question, answer, expected):
    units = await close_task(wm, "e26-yes", [("assistant", question), ("user", answer)])
    assert {u["value"] for u in units} == expected, units
    if "Austin" in question:
        assert (await recalled(wm, "Where does the user live?", top_k=1)) == [
            "The user lives in Austin."
        ]


@pytest.mark.parametrize(
    ("before", "question", "answer", "ended"),
    [
        ("I'm vegetarian.", "You are still vegetarian, right?", "No, not anymore.",
         "The user is no longer vegetarian."),
        ("我吃素。", "你还是吃素的，对吧？", "不，已经不吃了。", "用户不再吃素。"),
    ],
)  # fmt: skip
async def test_a_no_that_ends_a_state_supersedes_it(wm, before, question, ended, answer):
    [old] = await close_task(wm, "e26-before", [("user", before)])
    units = await close_task(wm, "e26-no", [("assistant", question), ("user", answer)])
    assert [(u["value"], u["outcome"]) for u in units] == [(ended, "superseded")], units
    seen = await memories(wm)
    assert seen[old["value"]]["status"] == "superseded", seen
    assert seen[ended]["status"] == "active", seen


@pytest.mark.parametrize(
    ("question", "answer", "expected"),
    [
        ("You live in Austin, right?", "Nope.", "The user does not live in Austin."),
        ("你住在杭州，对吧？", "不是。", "用户不住在杭州。"),
    ],
)  # fmt: skip
async def test_a_plain_no_denies_the_statement(wm, question, answer, expected):
    units = await close_task(wm, "e26-plain", [("assistant", question), ("user", answer)])
    assert [u["value"] for u in units] == [expected], units


async def test_a_no_to_two_parts_denies_neither(wm):
    """A no to "vegan and live in Austin" says not which is wrong: neither part is stored
    as the user's, and nothing as denied."""
    units = await close_task(
        wm, "e26-two", [("assistant", "So you are vegan and live in Austin, right?"),
                        ("user", "No.")],
    )  # fmt: skip
    values = [u["value"] for u in units]
    assert not [v for v in values if "vegan" in v or "Austin" in v], values


# Tester F36: after "You are allergic to latex, right?" the yes said another way, or several
# ways in a row, confirms the fact as the user's ("Yep, that's right" made no unit; "Yes,
# that's correct." kept "That's correct."; "Correct, yes." kept "Yes."). English, Chinese and
# a yes in the other language.
LATEX = ("The user is allergic to latex.", "用户对乳胶过敏。")


@pytest.mark.parametrize(
    ("question", "answer", "expected"),
    [
        ("You are allergic to latex, right?", "Correct.", LATEX[0]),
        ("You are allergic to latex, right?", "That's right.", LATEX[0]),
        ("You are allergic to latex, right?", "Exactly.", LATEX[0]),
        ("You are allergic to latex, right?", "Yep, that's right", LATEX[0]),
        ("You are allergic to latex, right?", "Yes, that's correct.", LATEX[0]),
        ("You are allergic to latex, right?", "Correct, yes.", LATEX[0]),
        ("Just to confirm, you're allergic to latex, correct?", "Absolutely.", LATEX[0]),
        ("You are allergic to latex, right?", "Yes, I am.", LATEX[0]),
        ("你对乳胶过敏，对吧？", "对的", LATEX[1]),
        ("你对乳胶过敏，对吧？", "没错", LATEX[1]),
        ("你对乳胶过敏，对吧？", "对，没错。", LATEX[1]),
        ("你对乳胶过敏，是吧？", "嗯，对的", LATEX[1]),
        ("那你对乳胶过敏，对吗？", "是这样", LATEX[1]),
        ("你对乳胶过敏，对吧？", "就是。", LATEX[1]),
        ("You are allergic to latex, right?", "对的", LATEX[0]),
        ("你对乳胶过敏，对吧？", "Yes, that's right.", LATEX[1]),
        # the same yes to a plain yes/no question
        ("Are you allergic to latex?", "Yep, that's right", LATEX[0]),
        ("你对乳胶过敏吗？", "对，没错", LATEX[1]),
    ],
)  # fmt: skip
async def test_a_yes_said_another_way_confirms_the_fact(wm, question, answer, expected):
    units = await close_task(wm, "f36-yes", [("assistant", question), ("user", answer)])
    assert [u["value"] for u in units] == [expected], units
    assert (await memories(wm))[expected]["status"] == "active"


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("You are allergic to latex, right?", "That's not right."),
        ("You are allergic to latex, right?", "Not exactly."),
        ("你对乳胶过敏，对吧？", "不对。"),
    ],
)  # fmt: skip
async def test_what_is_not_a_yes_confirms_nothing(wm, question, answer):
    units = await close_task(wm, "f36-not", [("assistant", question), ("user", answer)])
    assert LATEX[0] not in {u["value"] for u in units} and LATEX[1] not in {
        u["value"] for u in units
    }, units
