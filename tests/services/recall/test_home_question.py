"""Tester hbreak8 H30: "Where does the user live?" over five units stored by /store put "The
user's salary is $92,000 a year." above "The user moved to Seattle." (e5 puts them close; the
move names no word of the question). A question about where someone lives now lifts the units
that fill the residence slot by the answer-type weight, as a question about a job lifts the
job (no new weight). English and Chinese."""

from __future__ import annotations

import pytest

from app.services.recall.answer_type import answer_type

FIVE = [
    "The user moved to Seattle.",
    "The user works as a data analyst at Acme Corp.",
    "The user's salary is $92,000 a year.",
    "The user's girlfriend is Priya.",
    "The user is allergic to shellfish.",
]
FIVE_ZH = ["用户搬到了西雅图。", "用户在Acme公司当数据分析师。", "用户年薪九万二千美元。",
           "用户的女朋友叫Priya。", "用户对贝类过敏。"]  # fmt: skip


@pytest.mark.parametrize(
    ("user", "values", "query", "answer"),
    [
        ("h30", FIVE, "Where does the user live?", "Seattle"),
        ("h30", FIVE, "What city do I live in?", "Seattle"),
        ("h30z", FIVE_ZH, "用户住在哪里？", "西雅图"),
    ],
)
async def test_a_move_answers_where_someone_lives(client, user, values, query, answer):
    memories = [{"user_id": user, "value": v} for v in values]
    r = await client.post("/store", json={"memories": memories})
    assert r.status_code == 200, r.text
    r = await client.post("/recall", json={"user_id": user, "query": query, "top_k": 5})
    assert r.status_code == 200, r.text
    assert answer in r.json()["memories"][0]["value"], r.json()["memories"]


@pytest.mark.parametrize(
    "query", ["Where did the user go on holiday?", "Where does the user work?", "What do I like?"]
)
def test_other_where_questions_ask_for_no_home(query):
    kind = answer_type(query)
    assert kind is None or "residence" not in kind.slots
