"""Converse and opposite verbs, an attempt against done, roles around a possessive are never
merged (issue 28, "zero false merges is the first rule"; app/services/memory/pairs/converse.py,
docs/DEDUPE.md step 3). Main merged each of :data:`FALSE_MERGES` through ``/store`` offline —
the second text gone — by content-word alignment (verbs may differ between two wordings), the
rewording rule or the classifier (the same words around a possessive). True paraphrases beside
them (:data:`STILL_MERGE`) still merge."""

from __future__ import annotations

import pytest

from app.services.memory.pairs import converse
from app.services.memory.pairs.decision import decide
from app.services.memory.pairs.features import statement

# (old, new, the guard's reason): merged on main (multilingual-e5-small cosines 0.96-0.99).
FALSE_MERGES = [
    ("Maria made dinner for the family.", "Maria ate dinner with the family.", "converse_verb"),
    ("Jon lost weight last year", "Jon gained weight last year", "opposite_verb"),
    ("Nate won a video game tournament", "Nate organised a video game tournament",
     "converse_verb"),
    ("Jon moved to a bigger apartment", "Jon is looking for a bigger apartment",
     "attempt_differs"),
    ("用户的女儿上大学了", "用户的女儿大学毕业了", "converse_verb"),
    ("Maria's church friends helped her move", "Maria helped her church friends move",
     "possessive_roles"),
    ("Nate is learning to cook Thai food", "Nate often cooks Thai food", "attempt_differs"),
    # more of the same families main merged
    ("The user gave Lisa a birthday present", "The user received a birthday present from Lisa",
     "converse_verb"),
    ("用户开始学日语了", "用户停止学日语了", "opposite_verb"),
    ("用户给家人做了晚饭", "用户和家人吃了晚饭", "converse_verb"),
    ("用户借了张三一本书", "用户还了张三一本书", "converse_verb"),
    ("玛丽亚的教会朋友帮她搬家", "玛丽亚帮她的教会朋友搬家", "possessive_roles"),
    ("The user gained 5 kg last month", "用户上个月瘦了5公斤", "opposite_verb"),
    # a relation turned round by "is" (tester hbreak9 K12: merged, one fact lost)
    ("The user's manager is Tom", "The user is Tom's manager", "possessive_roles"),
    ("The user's teacher is Mr. Lee", "The user is Mr. Lee's teacher", "possessive_roles"),
    ("The user’s landlord is Ahmed", "The user is Ahmed’s landlord", "possessive_roles"),
]  # fmt: skip

STILL_MERGE = [
    ("The user bought a car", "The user purchased a car"),
    ("The user started running in 2020", "The user began running in 2020"),
    ("Nate is learning to cook Thai food", "Nate is learning how to cook Thai food"),
    ("用户买了车", "用户购买了汽车"),
    ("用户赢了篮球比赛", "用户在篮球比赛中获胜了"),
]


@pytest.mark.parametrize(("old", "new", "reason"), FALSE_MERGES)
def test_the_guard_names_each_and_no_llm_can_merge_it(old, new, reason):
    for a, b in ((new, old), (old, new)):
        d = decide(statement(a), statement(b), 0.99)
        assert (d.reason, d.merge_allowed) == (reason, False), d
        assert d.action != "merge"


@pytest.mark.parametrize(("old", "new"), STILL_MERGE)
def test_paraphrases_are_not_guarded(old, new):
    assert converse.apart(new, old) is None and converse.apart(old, new) is None


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # the other side is the subject: one act told from each side may be one fact
        ("The user lent Sam a book", "Sam borrowed a book from the user"),
        ("Lisa sent the user a parcel", "The user received a parcel from Lisa"),
        # two facts about other things: not this guard's to decide
        ("Jon closed his bank account because of his business", "Jon opened a dance studio"),
        # "learned how to" is done, not an attempt
        ("The user can't swim", "The user never learned how to swim"),
        ("Tim is learning German", "蒂姆在学德语"),
        # a light verb before the possessive's noun: nobody acted on anyone
        ("Joanna's scripts have been rejected twice",
         "Joanna has had 2 rejections for her scripts"),
    ],
)  # fmt: skip
def test_what_the_guard_leaves_alone(old, new):
    assert converse.apart(new, old) is None


def test_an_opposite_verb_with_something_else_changed_is_flagged_not_superseded():
    d = decide(statement("The user joined the chess club in May"),
               statement("The user left the chess club and the choir"), 0.95)  # fmt: skip
    assert (d.action, d.reason, d.merge_allowed) == ("unsure", "opposite_verb_elsewhere", False)


async def _store(client, user, values):
    results = []
    for value in values:
        r = await client.post("/store", json={"memories": [{"user_id": user, "value": value}]})
        assert r.status_code == 200, r.text
        results.append(r.json()["results"][0])
    return results


@pytest.mark.parametrize(("old", "new", "reason"), FALSE_MERGES[:7])
async def test_through_store_each_stays_two_units(client, old, new, reason):
    first, second = await _store(client, f"converse-{len(old)}-{len(new)}", (old, new))
    assert second["outcome"] != "merged" and second["id"] != first["id"], second
    for unit, value in ((first, old), (second, new)):  # both kept, each with its own words
        r = await client.get(f"/memories/{unit['id']}")
        assert r.status_code == 200 and r.json()["value"] == value, r.text
    if reason == "opposite_verb":  # the same thing and time: the newer replaces the older
        assert second["outcome"] in ("superseded", "conflict"), second


@pytest.mark.parametrize(("old", "new"), STILL_MERGE)
async def test_through_store_paraphrases_still_merge(client, old, new):
    first, second = await _store(client, f"still-{len(old)}-{len(new)}", (old, new))
    assert second["outcome"] == "merged" and second["id"] == first["id"], second


async def test_a_chinese_subject_before_a_preposition_keeps_the_win_and_the_loss_apart(client):
    """The seventh held-back part's one false merge (2026-12-07): 内特赢了11月那场 Valorant 大赛 /
    内特在11月那场 Valorant 大赛的决赛里输了 merged by content-word alignment (0.984): the
    subject was read as 内特在, so the opposite verbs 赢 / 输 were never compared. The subject
    ends before 在, 已经, 现在, 把…: a possible contradiction, both kept."""
    old, new = "内特赢了11月那场 Valorant 大赛", "内特在11月那场 Valorant 大赛的决赛里输了"
    first, second = await _store(client, "converse-zh-subject", (old, new))
    assert second["outcome"] != "merged" and second["id"] != first["id"], second
    d = decide(statement(new), statement(old), 0.984)
    assert (d.reason, d.merge_allowed) == ("opposite_verb_elsewhere", False), d
