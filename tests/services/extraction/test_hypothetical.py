"""A hypothetical question is no standing constraint (tester B10: 如果我对海鲜过敏的话，去厦门能吃
什么？ became the constraint "如果用户对海鲜过敏的话，去厦门能吃什么。" — the Chinese split dropped
the question mark), while the same condition stated, or an allergy stated before a question,
still is one. English and Chinese."""

from __future__ import annotations

import pytest

NOW = "2026-12-06T10:00:00Z"


async def units_of(client, user: str, content: str) -> dict[str, str]:  # type: ignore[no-untyped-def]
    body = {"user_id": user, "now": NOW, "messages": [{"role": "user", "content": content}]}
    r = await client.post("/extract?wait=true", json=body)
    assert r.status_code == 200, r.text
    page = await client.get("/memories", params={"user_id": user})
    return {m["value"]: m["type"] for m in page.json()["memories"]}


@pytest.mark.parametrize(
    "question",
    [
        "如果我对海鲜过敏的话，去厦门能吃什么？",
        "What if I were allergic to gluten, what could I eat?",
    ],
)
async def test_a_hypothetical_question_makes_no_constraint(client, question):
    units = await units_of(client, "hypo", question)
    assert not [v for v, t in units.items() if t == "constraint"], units
    r = await client.get("/context", params={"user_id": "hypo", "query": "food"})
    assert r.json()["parts"]["preferences"] == []


@pytest.mark.parametrize(
    ("content", "constraint"),
    [
        ("我对海鲜过敏，去厦门能吃什么？", "用户对海鲜过敏。"),
        ("I'm allergic to gluten. What could I eat in Rome?", "The user is allergic to gluten."),
    ],
)
async def test_a_stated_allergy_before_a_question_stays(client, content, constraint):
    assert (await units_of(client, "stated", content)).get(constraint) == "constraint"
