"""A question in traditional characters and units in simplified ones, and the other way
round (htrad6): the keyword text of a question and the keyword index of a unit hold the
words of their simplified reading too (過敏 and 过敏), and the question readers read it in
simplified characters (:mod:`app.core.chinese_script`). Through ``/store`` and ``/recall``."""

from __future__ import annotations

import pytest

from app.core.text import query_tokens, search_tokens, tokenize
from tests.services.lifecycle.test_lifecycle import store

FACTS = ["用户住在上海。", "用户喜欢吃辣。", "用户在阿里巴巴工作。", "用户有一只猫。"]


@pytest.mark.parametrize(
    ("allergy", "facts", "question"),
    [
        ("用户对花生过敏。", FACTS, "我對什麼過敏？"),
        ("用戶對花生過敏。", [f.replace("用户", "用戶") for f in FACTS], "我对什么过敏？"),
    ],
)
async def test_the_allergy_holds_the_questions_keyword(client, allergy, facts, question) -> None:
    """The question shared no keyword with the allergy (keyword 0)."""
    await store(
        client,
        *[{"user_id": "tw4", "value": v, "type": "fact"} for v in facts],
        {"user_id": "tw4", "value": allergy, "type": "constraint"},
    )
    r = await client.post("/recall", json={"user_id": "tw4", "query": question, "top_k": 5})
    assert r.status_code == 200, r.text
    hits = r.json()["memories"]
    assert hits[0]["value"] == allergy, [h["value"] for h in hits]
    keyword = {h["value"]: h["scores"]["keyword"] for h in hits}
    assert keyword[allergy] == 1.0 and not any(keyword[f] for f in facts if f in keyword), keyword


async def test_a_traditional_time_phrase_is_read(client) -> None:
    """下週三 named no time window (``time_hint`` null)."""
    await store(client, {"user_id": "tw5", "value": "用户下周三去北京开会。", "type": "event"})
    body = {"user_id": "tw5", "query": "我下週三有什麼安排？", "now": "2026-12-07T12:00:00Z"}
    r = await client.post("/recall", json=body)
    assert r.status_code == 200, r.text
    hint = r.json()["time_hint"]
    assert hint is not None and hint["start"].startswith("2026-12-16"), hint
    assert hint["phrase"] == "下週三", hint  # as written


def test_english_tokens_are_unchanged() -> None:
    said = "Does the user have any food allergies?"
    assert query_tokens(said) == tokenize(said) and search_tokens(said) == search_tokens(said)
    assert query_tokens("我對什麼過敏？")[-1:] == ["过敏"], query_tokens("我對什麼過敏？")
