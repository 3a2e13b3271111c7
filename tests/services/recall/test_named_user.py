"""A question that names the user (issue 28; app.services.recall.named_user): with "The user is
called Lena" stored, "What is Lena's job?" asks for the user's own job. Units stored without
entities ("The user works as a midwife") hold no "Lena", so the unit that only states the name
ranked first (the name's keyword and entity signals, and the question's embedding drawn to the
name), and Jonas's new job above the user's; now the user's job comes first, in English and in
Chinese, and a question that asks who Lena is still gets the name."""

from __future__ import annotations

from typing import Any

import pytest

SIMPLE = ["The user's name is Lena.", "The user works as a midwife at a clinic in Munich.",
          "The user lives in Munich.", "The user has a cat named Mimi."]  # fmt: skip
LIFE = ["Jonas got a new job at Siemens, he starts in September 2026.",
        "The user lives in Hamburg with the user's boyfriend Jonas.",
        "The user is called Lena.",
        "The user now works as a midwife at a clinic in Munich."]  # fmt: skip
ZH_LIFE = ["约纳斯在西门子找到了新工作，九月开始上班。", "用户和男朋友约纳斯住在汉堡。",
           "用户叫莉娜。", "用户是一名助产士。", "用户有一只叫咪咪的猫。"]  # fmt: skip


async def first_hit(client: Any, user: str, values: list[str], question: str) -> dict[str, Any]:
    r = await client.post(
        "/store", json={"memories": [{"user_id": user, "value": v} for v in values]}
    )
    assert r.status_code == 200, r.text
    body = {"query": question, "user_id": user, "top_k": 3, "record_access": False}
    r = await client.post("/recall", json=body)
    assert r.status_code == 200, r.text
    hits: list[dict[str, Any]] = r.json()["memories"]
    return hits[0] | {"ranked": [h["value"] for h in hits]}


@pytest.mark.parametrize(
    ("values", "question", "answer"),
    [
        (SIMPLE, "What is Lena's job?", SIMPLE[1]),
        (SIMPLE, "What is Lena's occupation?", SIMPLE[1]),
        (SIMPLE, "What does Lena do for a living?", SIMPLE[1]),
        (SIMPLE, "Where does Lena work?", SIMPLE[1]),
        (LIFE, "What is Lena's job?", LIFE[-1]),  # not Jonas's new job
        (LIFE, "What is Lena's occupation?", LIFE[-1]),
        (ZH_LIFE, "莉娜的工作是什么？", "用户是一名助产士。"),
        (ZH_LIFE, "莉娜是做什么工作的？", "用户是一名助产士。"),
        (ZH_LIFE, "莉娜是干什么的？", "用户是一名助产士。"),
        (ZH_LIFE, "莉娜在哪里工作？", "用户是一名助产士。"),
    ],
)
async def test_a_job_question_naming_the_user_gets_the_users_job_first(
    client, values, question, answer
):
    hit = await first_hit(client, "lena", values, question)
    assert hit["value"] == answer, hit["ranked"]
    assert hit["scores"]["answer_type"] == 1.0


@pytest.mark.parametrize(
    ("values", "question", "answer"),
    [
        (SIMPLE, "Who is Lena?", SIMPLE[0]),  # asks for no slot: nothing is held
        (LIFE, "What is Jonas's new job?", LIFE[0]),  # names someone else: Jonas's job
    ],
)
async def test_other_questions_keep_their_answer(client, values, question, answer):
    hit = await first_hit(client, "lena", values, question)
    assert hit["value"] == answer, hit["ranked"]
