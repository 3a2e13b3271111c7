"""Food questions find the user's standing dietary constraints (tester H8): "Can I eat shrimp?"
found "I am allergic to shellfish." with relevance 0.0065, below the documented "nothing
relevant" line (0.03), and "Is there any food I should avoid?" left the allergy under it too
(app.services.recall.food: a food question's keyword text holds the constraint words and the
food's kinds in WordNet: shrimp → seafood, almond → nut).
Through ``/store`` and ``/recall`` on the embedded PostgreSQL."""

from __future__ import annotations

import pytest

from app.core.text import tokenize
from app.services.recall.food import food_kinds, keyword_terms
from app.services.recall.relevance import NOTHING_RELEVANT_BELOW
from tests.services.recall.test_recall_api import store

FACTS = [
    "I am allergic to shellfish.",
    "I moved to Lisbon last month.",
    "I work as a nurse.",
    "My sister lives in Madrid.",
    "I have a cat called Tom.",
]


async def _best(client, user_id: str, query: str) -> tuple[dict, float]:
    r = await client.post("/recall", json={"user_id": user_id, "query": query, "top_k": 5})
    assert r.status_code == 200, r.text
    return r.json()["memories"][0], r.json()["best_relevance"]


@pytest.mark.parametrize(
    "query",
    ["Can I eat shrimp?", "Is there any food I should avoid?", "Should I order the lobster?"],
)
async def test_an_allergy_stored_as_a_plain_fact_answers_food_questions(client, query):
    await store(client, *[{"user_id": "h8", "value": v} for v in FACTS])
    first, best = await _best(client, "h8", query)
    assert first["value"] == "I am allergic to shellfish.", first
    assert first["relevance"] > NOTHING_RELEVANT_BELOW, first  # 0.0065 for shrimp before
    assert best == pytest.approx(first["relevance"])


async def test_a_nut_allergy_answers_a_question_about_almonds(client):
    await store(
        client,
        *[{"user_id": "h8n", "value": v} for v in ["I am allergic to nuts.", *FACTS[1:]]],
    )
    first, _ = await _best(client, "h8n", "Can I have some almonds?")
    assert first["value"] == "I am allergic to nuts.", first
    assert first["relevance"] > NOTHING_RELEVANT_BELOW, first


async def test_a_chinese_allergy_answers_an_english_food_question(client):
    await store(
        client,
        *[{"user_id": "h8z", "value": v} for v in ["我对海鲜过敏。", *FACTS[1:]]],
    )
    first, _ = await _best(client, "h8z", "Can I eat shrimp?")
    assert first["value"] == "我对海鲜过敏。", first
    assert first["relevance"] > NOTHING_RELEVANT_BELOW, first


def test_food_terms_are_added_only_to_food_questions():
    assert food_kinds("shrimp") == ("seafood",)
    assert "nut" in food_kinds("almond")
    assert "shellfish" in food_kinds("lobster")
    assert food_kinds("dog") == () and food_kinds("paint") == ()

    def terms(query: str) -> list[str]:
        return keyword_terms(tokenize(query), query)

    assert "allergic" in terms("Is there any food I should avoid?")
    assert "allergic" in terms("我能吃虾吗？") and "seafood" in terms("Can I eat shrimp?")
    # a question naming one kind of constraint asks for that kind (not "is vegetarian")
    assert terms("Can I eat anything, given my food allergies?") == []
    for query in ["What did Caroline paint?", "When is my dentist appointment?",
                  "Where did Melanie go camping?", "What is my dog called?",
                  "What recipes has Joanna made?", "What dish did Nate cook?"]:  # fmt: skip
        assert terms(query) == [], query  # no advice asked (LoCoMo's dessert questions)
