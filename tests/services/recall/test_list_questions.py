"""List questions (app.services.recall.list_questions): a question that asks for several things
("Which cities has John been to?", "约翰去过哪些城市？") scales the context weight, so that the
best hit's session no longer fills the list ahead of a second session's answer; a question
that names a time, asks *when*, or sets the context weight itself is ranked as before."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta

import pytest

from app.core.config import RecallSettings
from app.repositories.recall.repository import CandidateScore
from app.schemas.recall import RecallRequest, Weights
from app.services.recall import list_questions, scoring
from tests.services.lifecycle.test_lifecycle import store


@pytest.mark.parametrize(
    "query",
    [
        "What books has Tim read?",
        "Which cities have John and Maria visited?",
        "How many times has Melanie gone to the beach?",
        "How many children does Melanie have?",
        "What do Jon and Gina both like?",
        "What do Jon and Gina have in common?",
        "约翰去过哪些城市？",
        "她读过什么书？",
        "蒂姆养了几只乌龟？",
        "他们有多少个孩子？",
        "他们有什么共同爱好？",
    ],
)
def test_a_question_asking_for_several_things_is_a_list_question(query: str) -> None:
    assert list_questions.asks_for_list(query)


@pytest.mark.parametrize(
    "query",
    [
        "What did Caroline research?",
        "Where did Maria get the idea for the castle shadow box?",
        "What does Nate have to do tomorrow?",  # "have to": an obligation, no list
        "Why did Gina start her clothing store?",
        "卡罗琳研究了什么？",
        "不过他喜欢什么？",  # 过 inside 不过 ("but"), not before the question word
    ],
)
def test_a_question_asking_for_one_thing_is_not(query: str) -> None:
    assert not list_questions.asks_for_list(query)


def _weighting() -> scoring.Weighting:
    return scoring.profile_weights("long_term", RecallSettings())


def test_a_list_question_scales_the_context_weight_only() -> None:
    base = _weighting()
    req = RecallRequest(query="What books has Tim read?", user_id="u")
    scaled = list_questions.weighting(req, base, timed=False)
    assert scaled.weights["context"] == pytest.approx(
        base.weights["context"] * list_questions.CONTEXT_SCALE
    )
    assert {k: v for k, v in scaled.weights.items() if k != "context"} == {
        k: v for k, v in base.weights.items() if k != "context"
    }
    assert scaled.recency_lambda == base.recency_lambda
    # a time in the question, or a context weight the request sets: as before
    assert list_questions.weighting(req, base, timed=True) is base
    own = RecallRequest(query=req.query, user_id="u", weights=Weights(context=0.45))
    assert list_questions.weighting(own, base, timed=False) is base
    one = RecallRequest(query="What did Tim read last?", user_id="u")
    assert list_questions.weighting(one, base, timed=False) is base


def test_the_second_sessions_answer_is_no_longer_behind_the_first_sessions_chatter() -> None:
    start = datetime(2024, 5, 1, tzinfo=UTC)
    names: dict[uuid.UUID, str] = {}

    def unit(name: str, cosine: float, session: str, minute: int) -> CandidateScore:
        uid = uuid.uuid4()
        names[uid] = name
        at = start + timedelta(minutes=minute)
        return CandidateScore(uid, cosine, 0.0, {}, 8, False, session, at, 1.0, False)

    candidates = [
        unit("first city", 0.90, "trip-1", 0),
        *(unit(f"chatter {i}", 0.80, "trip-1", i) for i in (1, 2, 3)),
        unit("second city", 0.86, "trip-2", 100),
        unit("reply", 0.70, "trip-2", 101),
        unit("other", 0.70, "work", 200),
    ]
    now = start + timedelta(days=1)
    req = RecallRequest(query="Which cities has John been to?", user_id="u")
    before = [names[r.id] for r in scoring.rank(candidates, _weighting(), now)]
    after = [
        names[r.id]
        for r in scoring.rank(candidates, list_questions.weighting(req, _weighting(), False), now)
    ]
    assert "second city" not in before[:4]  # behind the first session's chatter
    assert after[:3] == ["first city", "chatter 1", "second city"]


async def test_the_answer_reports_the_scaled_weight(client) -> None:  # type: ignore[no-untyped-def]
    await store(
        client,
        {"user_id": "lq", "value": "Tim: I read Dune last week", "session_id": "lq-1"},
        {"user_id": "lq", "value": "Tim: Then I read Emma", "session_id": "lq-2"},
    )
    context = RecallSettings().weight_context

    async def weights(query: str, **extra: object) -> dict[str, float]:
        body = {"query": query, "user_id": "lq", "top_k": 2} | extra
        r = await client.post("/recall", json=body)
        assert r.status_code == 200, r.text
        answer = r.json()
        for m in answer["memories"]:  # the score is still the weighted sum of the signals
            total = sum(answer["weights"][s] * m["scores"][s] for s in scoring.SIGNALS)
            assert m["score"] + m["redundancy"] == pytest.approx(total, abs=1e-6)
        return answer["weights"]  # type: ignore[no-any-return]

    scaled = context * list_questions.CONTEXT_SCALE
    assert (await weights("What books has Tim read?"))["context"] == pytest.approx(scaled)
    assert (await weights("蒂姆读过什么书？"))["context"] == pytest.approx(scaled)
    assert (await weights("What did Tim read?"))["context"] == pytest.approx(context)
    assert (await weights("When has Tim read Dune?"))["context"] == pytest.approx(context)
    own = await weights("What books has Tim read?", weights={"context": context})
    assert own["context"] == pytest.approx(context)
