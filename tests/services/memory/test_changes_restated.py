"""A second look at pairs left apart or open (docs/DEDUPE.md, seventeenth run,
``pairs/restated.py``): the new statement stops what the old one holds, or says it did not
happen (``given_up:ceased``), or changes a value or thing of one type
(``values_changed_elsewhere:replaced``) — flagged as a possible contradiction, both kept,
never merged. The sentences are new (none is in a labelled pair set); on main each flagged
pair was unsure without a flag or kept apart (another person, another tense): nothing said.
The pairs kept as they were are the readings' bounds: another person's, a thing of the
holder's that stopped, one occasion, a finished event, an object moved somewhere."""

from __future__ import annotations

import pytest

from app.core import text
from app.services.memory.pairs.decision import Thresholds, decide
from app.services.memory.pairs.features import statement
from app.services.memory.pairs.gate import flags_contradiction
from app.services.memory.pairs.plan import Candidate, pair_decision
from tests.services.memory.flagged import store_flagged_pair

CEASED = [
    ("The user backs up their photos to Google Photos",
     "The user deleted their Google Photos account"),
    ("用户在用印象笔记记笔记", "用户把印象笔记的会员退订了"),
    ("Lena was going to the Berlin marathon in September",
     "Lena didn't make it to the Berlin marathon after all"),
    ("The user and Ravi had sushi for dinner on Friday",
     "On Friday the user and Ravi ended up cooking at home instead of having sushi"),
]  # fmt: skip

REPLACED = [
    ("The user meditates for 20 minutes every morning",
     "The user raised their morning meditation to 40 minutes"),
    ("The user's mortgage rate is 4.1%", "The bank lowered the user's mortgage rate to 3.6%"),
    ("The user's weekly piano lesson is on Tuesday",
     "The user's piano teacher moved the weekly lesson to Thursday"),
    ("The user's phone is an iPhone 12", "The user swapped their iPhone 12 for a Pixel 8"),
    ("The user's phone plan is with Vodafone", "The user moved their phone plan to O2"),
    ("用户的孩子在阳光幼儿园上学", "用户的孩子转到了星星幼儿园"),
    ("用户的车是丰田卡罗拉", "用户把车换成了特斯拉 Model 3"),
]  # fmt: skip

KEPT = [
    # another person's, not the holder's
    ("The user plays tennis on Sundays", "The user's brother doesn't play tennis anymore"),
    ("用户在学日语", "用户的同事不再学日语了"),
    ("The user plays the guitar", "The user's guitar teacher stopped giving lessons"),
    ("The user's grandmother moved into a care home in Leeds last month",
     "The user's great-aunt moved into a care home in Leeds last month"),
    # a thing of the holder's stopped, an occasion, a finished event, a place left
    ("The user reads before bed", "The user's reading lamp stopped working"),
    ("用户喜欢吃辣", "用户今天不想吃辣了"),
    ("The user spent about 300 euros on a new bike", "The user sold their old bike for 100 euros"),
    ("The user walks the dog every evening",
     "The user left the dog with a neighbour for the weekend"),
    ("The user drinks coffee every morning", "The user stopped by the coffee shop near work"),
    # a change of something else: another type on each side
    ("The user has a couch from IKEA", "The user moved the couch to the living room"),
    ("The user's sister lives in Leeds", "The user's sister moved her piano to her new flat"),
    ("The user has two cats", "The user moved to a flat that allows cats"),
    ("The user's son plays football on Saturdays", "The user's son changed his football boots"),
    ("Caroline's necklace was a gift from her grandmother in Sweden",
     "Caroline moved from Sweden four years ago"),
    ("Nate bought a third turtle he saw at a pet store",
     "Nate now has 3 turtles after picking up one more at the pet shop"),
]  # fmt: skip


def _cosine(old: str, new: str) -> float:
    return 0.93 if text.has_cjk(old) == text.has_cjk(new) else 0.82


@pytest.mark.parametrize(("old", "new"), CEASED)
def test_a_state_habit_or_plan_stopped_is_flagged_never_merged(old, new):
    d = decide(statement(new), statement(old), _cosine(old, new))
    assert (d.action, d.reason, d.merge_allowed) == ("unsure", "given_up:ceased", False)
    assert flags_contradiction(d)


@pytest.mark.parametrize(("old", "new"), REPLACED)
def test_a_value_or_thing_replaced_by_one_of_its_type_is_flagged(old, new):
    d = decide(statement(new), statement(old), _cosine(old, new))
    assert (d.action, d.reason, d.merge_allowed) == (
        "unsure", "values_changed_elsewhere:replaced", False)  # fmt: skip
    assert flags_contradiction(d)


@pytest.mark.parametrize(("old", "new"), KEPT)
def test_what_the_second_look_leaves_as_it_was(old, new):
    d = decide(statement(new), statement(old), _cosine(old, new))
    assert d.reason not in ("given_up:ceased", "values_changed_elsewhere:replaced"), d
    assert not flags_contradiction(d) and d.action != "contradicts", d


def test_below_the_candidate_gate_a_subscription_ended_in_the_other_language_is_flagged():
    old, new = "The user pays for Netflix every month", "用户把 Netflix 退订了，改看 B站"
    d = decide(statement(new), statement(old), 0.76)
    assert (d.action, d.reason) == ("unsure", "given_up:ceased") and flags_contradiction(d), d


@pytest.mark.parametrize(("old", "new", "reason"),
                         [(*CEASED[0], "given_up:ceased"),
                          (*REPLACED[0], "values_changed_elsewhere:replaced"),
                          (*REPLACED[5], "values_changed_elsewhere:replaced")])  # fmt: skip
async def test_through_store_the_pair_opens_a_contradiction_review(client, old, new, reason):
    await store_flagged_pair(client, f"restated-{len(old)}-{len(new)}", old, new, reason)


@pytest.mark.parametrize(
    ("new", "old"),
    [
        ("用户最近特别喜欢爵士乐了", "用户喜欢爵士乐"),  # 特别 holds a 别, says "especially"
        ("用户现在特别爱跑步了", "用户每周跑步三次"),
        ("用户的英语已经不错了", "用户的英语很好"),  # 不错: "quite good", nothing stopped
    ],
)
def test_more_of_it_is_no_stopping(new: str, old: str) -> None:
    d = pair_decision(
        new,
        "preference",
        frozenset(),
        Candidate(old, "preference", frozenset(), 0.93),
        Thresholds(),
    )
    assert d.reason != "given_up:ceased", d
