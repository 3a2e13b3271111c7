"""A question in one language and the answer stored in the other (tester F5): "Does the user
have any food allergies?" ranked 用户对花生过敏。 third, below "The user likes spicy food."
(the keyword "food") and "The user is vegetarian." — no keyword of the question is in the
Chinese unit; 用户对什么过敏？ put "The user is allergic to peanuts." below Chinese facts the
same way. The keyword text now holds the question's words in the other language (CC-CEDICT:
allergies → 过敏; 过敏 → allergic, allergy): the allergy holds the question's rarest keyword
either way.
Through ``/store`` and ``/recall`` on the embedded PostgreSQL."""

from __future__ import annotations

import pytest

from app.core.text import tokenize
from app.services.recall.other_language import keyword_terms
from tests.services.lifecycle.test_lifecycle import store

ENGLISH = [
    "The user lives in Boston.", "The user works as a nurse at City Hospital.",
    "The user has two cats named Luna and Milo.", "The user prefers window seats on flights.",
    "The user likes spicy food.", "The user runs 5 km every morning.",
    "The user drinks green tea in the afternoon.", "The user's sister is called Emma.",
    "The user is learning Spanish.", "The user drives a Honda Civic.",
    "The user enjoys hiking on weekends.", "The user's favourite movie is Inception.",
    "The user loves dark chocolate.", "The user is vegetarian.", "The user plays the piano.",
]  # fmt: skip
CHINESE = [
    "用户住在杭州。", "用户在阿里巴巴当工程师。", "用户养了一只叫旺财的狗。",
    "用户喜欢吃辣的食物。", "用户每天早上跑步五公里。", "用户下午喝绿茶。",
    "用户的姐姐叫小红。", "用户在学日语。", "用户开一辆丰田车。", "用户周末喜欢爬山。",
    "用户最喜欢的电影是《盗梦空间》。", "用户吃素。",
]  # fmt: skip


async def test_an_english_question_brings_back_a_chinese_allergy(client):
    await store(
        client,
        *[{"user_id": "f5", "value": v, "type": "fact"} for v in ENGLISH],
        {"user_id": "f5", "value": "用户对花生过敏。", "type": "constraint"},
    )
    question = {"user_id": "f5", "query": "Does the user have any food allergies?", "top_k": 2}
    r = await client.post("/recall", json=question)
    assert r.status_code == 200, r.text
    hits = {h["value"]: h["scores"] for h in r.json()["memories"]}
    assert "用户对花生过敏。" in hits, hits  # third before, below "The user is vegetarian."
    assert hits["用户对花生过敏。"]["keyword"] == 1.0, hits  # 过敏: the rarest query word


async def test_a_chinese_question_finds_the_english_allergys_keyword(client):
    """The keyword only: the Chinese question's embedding is nearer every Chinese unit than
    the English allergy (cosine 0.80 against 0.82-0.86), so it still ranks low offline."""
    await store(
        client,
        *[{"user_id": "f5", "value": v, "type": "fact"} for v in CHINESE],
        {"user_id": "f5", "value": "The user is allergic to peanuts.", "type": "constraint"},
    )
    r = await client.post(
        "/recall", json={"user_id": "f5", "query": "用户对什么过敏？", "top_k": 20}
    )
    hits = {h["value"]: h["scores"]["keyword"] for h in r.json()["memories"]}
    assert hits["The user is allergic to peanuts."] == 1.0, hits
    assert {k for k, v in hits.items() if v > 0} == {"The user is allergic to peanuts."}, hits


@pytest.mark.parametrize(
    ("question", "terms"),
    [
        ("Does the user have any food allergies?", ["变态反应", "过敏"]),  # food: 18 words
        ("用户对什么过敏？", ["allergic", "allergy", "oversensitive"]),
        ("Where does the user live?", []),  # a question word names nothing
        ("用户住在哪里？", []),
    ],
)
def test_the_other_language_words_of_a_question(question, terms):
    assert keyword_terms(tokenize(question)) == terms
