"""Contradictions the pair decision finds beyond numbers and negations (issue 28, step 2): the
same exclusive slot filled with another value — an occupation (a noun WordNet files under an
occupation), a school, a way to commute, a seat, an employer written in Latin letters in a
Chinese sentence, a "favourite X of Y" — and, across English and Chinese, a negation, other
values or another slot value with every other word matched through the dictionaries; while
other facts of the same shape stay apart (docs/DEDUPE.md). Cosines as multilingual-e5-small
gives them (tests/dedupe_pairs_unseen.py)."""

from __future__ import annotations

import pytest

from app.services.memory.pairs import rules
from app.services.memory.pairs.decision import Thresholds, decide
from app.services.memory.pairs.features import statement

T = Thresholds()


@pytest.mark.parametrize(
    ("old", "new", "cosine"),
    [
        ("The user works as a nurse", "The user works as a teacher", 0.923),
        ("用户是护士", "用户是老师", 0.951),
        ("The user is a software engineer", "The user is a data analyst", 0.909),
        ("用户的女儿在北京读大学", "用户的女儿在上海读大学", 0.990),
        ("用户在 Google 做 software engineer", "用户在 Microsoft 做 software engineer", 0.976),
        ("用户坐地铁上班", "用户开车上班", 0.962),
        ("用户喜欢靠过道的座位", "用户喜欢靠窗的座位", 0.977),
        ("Gina's favourite style of dance is contemporary",
         "Gina's favourite style of dance is hip-hop", 0.934),
        ("The user lives in Hangzhou", "用户住在苏州", 0.841),
        ("The user does not drink alcohol", "用户喝酒", 0.848),
        ("The user's birthday is on June 5", "用户的生日是7月5日", 0.837),
    ],
)  # fmt: skip
def test_another_value_of_one_slot_contradicts(old, new, cosine):
    d = decide(statement(new), statement(old), cosine, thresholds=T)
    assert d.action == "contradicts", d
    assert not d.merge_allowed


@pytest.mark.parametrize(
    ("old", "new", "cosine", "action"),
    [
        ("The user is a vegetarian", "The user is a nurse", 0.90, "unsure"),  # not a job
        ("The user commutes by bike", "The user cycles to work", 0.89, "unsure"),  # one way
        ("The user takes the train to the office", "The user commutes to work by rail", 0.93,
         "unsure"),
        ("The user prefers window seats on flights", "The user prefers aisle seats on trains",
         0.919, "unsure"),  # another trip: a review, not a contradiction
        ("The user lives in Hangzhou", "用户住在杭州", 0.848, "merge"),
        ("The user lives in Hangzhou", "用户的父母住在杭州", 0.828, "distinct"),  # another person
        ("The user's outbound flight is at 9:00", "用户的回程航班晚上9点起飞", 0.868, "unsure"),
        # another thing (tester F19: a merge would drop an allergy): two facts, no review
        ("The user is allergic to peanuts", "用户对海鲜过敏", 0.808, "distinct"),
        ("用户是程序员", "用户在学画画", 0.935, "unsure"),
    ],
)  # fmt: skip
def test_other_facts_of_the_same_shape_do_not_contradict(old, new, cosine, action):
    d = decide(statement(new), statement(old), cosine, thresholds=T)
    assert d.action == action, d


@pytest.mark.parametrize(
    ("value", "slot", "filled"),
    [
        ("The user works as a nurse", "occupation", "nurse"),
        ("The user is a data analyst", "occupation", "data analyst"),
        ("用户是护士", "occupation", "护士"),
        ("The user is a vegetarian", "occupation", None),
        ("The user is an only child", "occupation", None),
        ("用户是独生子女", "occupation", None),
        ("用户坐地铁上班", "commute", "subway"),
        ("The user cycles to work", "commute", "bike"),
        ("The user commutes to work by rail", "commute", "train"),
        ("用户喜欢靠窗的座位", "seat", "window"),
        ("用户在家读书", "school", None),
        ("Melanie studies at Stanford", "school", "stanford"),
    ],
)  # fmt: skip
def test_the_slots_a_statement_fills(value, slot, filled):
    assert rules.slots(value).get(slot) == filled


async def test_a_changed_job_and_city_supersede_through_the_store(client):
    """End to end (embedded PostgreSQL, the real embedder, no LLM): a new occupation
    supersedes the old one (months apart), an English residence is superseded by a Chinese
    one naming another city, and a relative's job leaves the subject's alone."""
    first = await client.post("/store", json={"memories": [
        {"user_id": "job", "value": "The user works as a nurse",
         "occurred_at": "2026-01-05T00:00:00Z"},
        {"user_id": "city", "value": "The user lives in Hangzhou",
         "occurred_at": "2026-01-05T00:00:00Z"},
    ]})  # fmt: skip
    assert first.status_code == 200, first.text
    r = await client.post("/store", json={"memories": [
        {"user_id": "job", "value": "The user works as a teacher",
         "occurred_at": "2026-06-05T00:00:00Z"},
        {"user_id": "city", "value": "用户住在苏州", "occurred_at": "2026-06-05T00:00:00Z"},
        {"user_id": "job", "value": "The user's sister is a dentist",
         "occurred_at": "2026-06-06T00:00:00Z"},
    ]})  # fmt: skip
    assert r.status_code == 200, r.text
    results = r.json()["results"]
    assert [o["outcome"] for o in results] == ["superseded", "superseded", "created"], results
    assert results[2]["pending"] == []  # another person's job: no review either
    for old in first.json()["results"]:
        unit = (await client.get(f"/memories/{old['id']}")).json()
        assert unit["status"] == "superseded", unit
