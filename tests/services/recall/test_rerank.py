"""The recall rerank stage (``rerank: llm``) through the API, with the LLM stood in for by a
real HTTP server on 127.0.0.1 (tests/fake_llm.py): the LLM's order is applied; unknown,
missing and duplicate ids; a malformed reply; a timeout past the budget and an HTTP 500 (the
hybrid order, ``degraded``); the cache; subject isolation; no LLM → 422."""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from prometheus_client import REGISTRY
from pydantic import ValidationError

from app.core.config import ConflictSettings, LLMSettings, RecallSettings, Settings
from app.services.recall.rerank_prompt import ReplyParseError, parse_order
from tests.conftest import running_app
from tests.fake_llm import FakeLLM, Reply, order_reply, prompt_labels, reversed_order

NOW = "2026-06-01T12:00:00+00:00"
UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")

TRIP = [
    "The user is flying to Tokyo on 14 May for a conference",
    "The user booked a hotel in Shinjuku for the Tokyo trip",
    "The user prefers aisle seats on long flights",
    "The user wants to visit a tea ceremony while in Japan",
    "The user is allergic to shellfish",
    "The user's passport expires next year",
]


@pytest.fixture(scope="module")
async def rerank_app(database_url: str, fake_llm_server: FakeLLM) -> AsyncIterator[Any]:
    settings = Settings(
        database_url=database_url,
        redis_url=None,
        llm=LLMSettings(base_url=fake_llm_server.base_url, model="test-model", timeout_s=10),
        # A generous budget: the shared machine must not turn a normal answer into a timeout.
        recall=RecallSettings(budget_ms=5000),
        conflicts=ConflictSettings(use_llm=False),  # the fake LLM hears only rerank calls
    )
    async with running_app(settings) as (app, c):
        yield app, c, settings


@pytest.fixture
async def api(rerank_app, fake_llm, engine) -> AsyncIterator[httpx.AsyncClient]:  # type: ignore[no-untyped-def]
    """The LLM-configured app on empty tables, a fresh fake LLM script."""
    _, client, _ = rerank_app
    yield client
    rerank_app[0].dependency_overrides.clear()


def configure(rerank_app, **recall: Any) -> None:  # type: ignore[no-untyped-def]
    """Change recall settings for the rest of the test."""
    from app.api.deps import get_settings_dep

    app, _, base = rerank_app
    changed = base.model_copy(update={"recall": base.recall.model_copy(update=recall)})
    app.dependency_overrides[get_settings_dep] = lambda: changed


async def store(client: httpx.AsyncClient, user: str, values: list[str]) -> list[str]:
    body = {"memories": [{"user_id": user, "type": "fact", "value": v} for v in values]}
    r = await client.post("/store", json=body)
    assert r.status_code == 200, r.text
    return [x["id"] for x in r.json()["results"]]


async def recall(client: httpx.AsyncClient, query: str = "Tokyo trip", **body: Any) -> dict:
    r = await client.post(
        "/recall", json={"query": query, "user_id": "u1", "top_k": 10, "now": NOW, **body}
    )
    assert r.status_code == 200, r.text
    return r.json()


def ids(answer: dict) -> list[str]:
    return [m["id"] for m in answer["memories"]]


def sample(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


async def test_the_llms_order_is_applied_with_its_cost(api, fake_llm):
    await store(api, "u1", TRIP)
    hybrid = await recall(api)
    assert hybrid["rerank"] is None and not fake_llm.requests
    assert [m["hybrid_rank"] for m in hybrid["memories"]] == [1, 2, 3, 4, 5, 6]
    assert all(m["rerank_position"] is None for m in hybrid["memories"])
    applied_before = sample("hindsight_rerank_total", outcome="applied")
    tokens_before = sample("hindsight_rerank_tokens_total", kind="prompt")

    fake_llm.responder = reversed_order()
    answer = await recall(api, rerank="llm")

    assert ids(answer) == ids(hybrid)[::-1]
    assert [m["rerank_position"] for m in answer["memories"]] == [1, 2, 3, 4, 5, 6]
    assert [m["hybrid_rank"] for m in answer["memories"]] == [6, 5, 4, 3, 2, 1]
    info = answer["rerank"]
    assert info["status"] == "applied" and info["reason"] is None and not answer["degraded"]
    assert info["candidates"] == 6 and info["model"] == "test-model"
    assert info["prompt_tokens"] > 0 and info["completion_tokens"] == 3 + 2 * 6
    assert info["llm_ms"] > 0
    # One call, labels 1..N and the memories' text, never a unit id.
    (body,) = fake_llm.requests
    prompt = body["messages"][-1]["content"]
    assert prompt_labels(body) == [1, 2, 3, 4, 5, 6]
    assert not UUID.search(json.dumps(body["messages"]))
    assert "QUESTION: Tokyo trip" in prompt and "Today: 2026-06-01 (Monday)" in prompt
    assert hybrid["memories"][0]["value"] in prompt.splitlines()[3]  # [1] is the hybrid best
    assert sample("hindsight_rerank_total", outcome="applied") == applied_before + 1
    assert sample("hindsight_rerank_tokens_total", kind="prompt") == (
        tokens_before + info["prompt_tokens"]
    )
    metrics = (await api.get("/metrics")).text
    assert 'hindsight_rerank_llm_duration_seconds_count{outcome="applied"}' in metrics


async def test_unknown_missing_and_duplicate_ids_are_ignored(api, fake_llm):
    await store(api, "u1", TRIP[:5])
    hybrid = ids(await recall(api))
    # 3 twice, 99 and 0 unknown, "x" not a number; 2, 4 and 5 missing; no usage sent.
    fake_llm.push(order_reply([3, 99, "[3]", 0, "x", True, "1"]))
    answer = await recall(api, rerank="llm")
    expected = [hybrid[2], hybrid[0], hybrid[1], hybrid[3], hybrid[4]]
    assert ids(answer) == expected
    assert [m["rerank_position"] for m in answer["memories"]] == [1, 2, None, None, None]
    assert answer["rerank"]["status"] == "applied" and not answer["degraded"]
    assert answer["rerank"]["prompt_tokens"] is None  # the provider reported none


async def test_an_empty_order_keeps_the_hybrid_order_and_says_so(api, fake_llm):
    """The prompt allows "none of these helps": an empty order is applied (the LLM answered)
    but the answer says it kept the hybrid order (tester hbreak5 F21), also from the cache."""
    await store(api, "u1", TRIP[:4])
    hybrid = ids(await recall(api))
    fake_llm.push(order_reply([]))
    for status in ("applied", "cached"):
        answer = await recall(api, rerank="llm")
        assert ids(answer) == hybrid
        assert all(m["rerank_position"] is None for m in answer["memories"])
        assert answer["rerank"]["status"] == status and not answer["degraded"]
        assert "named no candidate" in answer["rerank"]["reason"]
    assert len(fake_llm.requests) == 1


@pytest.mark.parametrize(
    "content",
    ["Sure! The best memory is the first one.", '{"order": "1, 2"}', '{"order": [7, 8]}', ""],
)
async def test_a_malformed_reply_keeps_the_hybrid_order(api, fake_llm, content):
    await store(api, "u1", TRIP[:4])
    hybrid = ids(await recall(api))
    fake_llm.push(Reply(content=content))
    answer = await recall(api, rerank="llm")
    assert ids(answer) == hybrid
    assert all(m["rerank_position"] is None for m in answer["memories"])
    assert answer["degraded"] is True
    assert answer["rerank"]["status"] == "error" and answer["rerank"]["reason"]


async def test_an_llm_past_the_budget_gives_the_hybrid_order_in_time(api, rerank_app, fake_llm):
    configure(rerank_app, budget_ms=400)
    await store(api, "u1", TRIP)
    hybrid = ids(await recall(api))
    fake_llm.responder = reversed_order(delay_s=3.0)
    answer = await recall(api, rerank="llm")
    assert ids(answer) == hybrid
    assert answer["degraded"] is True
    info = answer["rerank"]
    assert info["status"] == "timeout" and "400 ms budget" in info["reason"]
    assert info["llm_ms"] < 400
    assert answer["took_ms"] < 2000  # far below the LLM's 3 s: the call was cut, not awaited


async def test_an_llm_500_never_fails_the_recall(api, fake_llm):
    await store(api, "u1", TRIP[:4])
    hybrid = ids(await recall(api))
    fake_llm.default = Reply(status=500)
    answer = await recall(api, rerank="llm")
    assert ids(answer) == hybrid and answer["degraded"] is True
    assert answer["rerank"]["status"] == "error" and "500" in answer["rerank"]["reason"]
    assert len(fake_llm.requests) == 1  # no retry inside a recall's budget


async def test_a_repeated_question_is_answered_from_the_cache(api, fake_llm):
    await store(api, "u1", TRIP[:4])
    fake_llm.responder = reversed_order()
    first = await recall(api, rerank="llm")
    second = await recall(api, rerank="llm")
    assert len(fake_llm.requests) == 1
    assert ids(second) == ids(first)
    assert [m["rerank_position"] for m in second["memories"]] == [1, 2, 3, 4]
    assert second["rerank"]["status"] == "cached" and second["rerank"]["llm_ms"] == 0
    # Another question, or another candidate set, asks again.
    await recall(api, query="seat on the plane", rerank="llm")
    assert len(fake_llm.requests) == 2
    await store(api, "u1", ["The user's Tokyo flight leaves from Frankfurt"])
    third = await recall(api, rerank="llm")
    assert len(fake_llm.requests) == 3 and third["rerank"]["status"] == "applied"


async def test_candidates_are_the_subjects_own(api, fake_llm):
    mine = await store(api, "u1", TRIP[:3])
    await store(api, "u2", [v.replace("The user", "Bob") for v in TRIP])
    fake_llm.responder = reversed_order()
    answer = await recall(api, rerank="llm", rerank_candidates=50)
    assert sorted(ids(answer)) == sorted(mine)
    prompt = fake_llm.requests[0]["messages"][-1]["content"]
    assert "Bob" not in prompt and prompt_labels(fake_llm.requests[0]) == [1, 2, 3]


async def test_rerank_candidates_bound_what_the_llm_sees(api, fake_llm):
    await store(api, "u1", TRIP)
    hybrid = ids(await recall(api))
    fake_llm.responder = reversed_order()
    answer = await recall(api, rerank="llm", rerank_candidates=3)
    assert prompt_labels(fake_llm.requests[0]) == [1, 2, 3]
    assert ids(answer) == [hybrid[2], hybrid[1], hybrid[0], *hybrid[3:]]
    assert [m["hybrid_rank"] for m in answer["memories"]] == [3, 2, 1, 4, 5, 6]
    # top_k cuts after the rerank: the LLM's best comes first even at top_k 1.
    fake_llm.push(order_reply([2]))
    top = await recall(api, rerank="llm", rerank_candidates=3, top_k=1, query="hotel")
    assert len(top["memories"]) == 1 and top["memories"][0]["rerank_position"] == 1
    r = await api.post("/recall", json={"query": "x", "user_id": "u1", "rerank_candidates": 51})
    assert r.status_code == 422


async def test_one_candidate_needs_no_call(api, fake_llm):
    await store(api, "u1", TRIP[:1])
    answer = await recall(api, rerank="llm")
    assert answer["rerank"]["status"] == "skipped" and not answer["degraded"]
    assert not fake_llm.requests


async def test_the_server_default_applies_when_the_request_gives_none(api, rerank_app, fake_llm):
    configure(rerank_app, rerank="llm")
    await store(api, "u1", TRIP[:3])
    fake_llm.responder = reversed_order()
    assert (await recall(api))["rerank"]["status"] == "applied"
    assert (await recall(api, rerank="none"))["rerank"] is None
    assert len(fake_llm.requests) == 1


async def test_rerank_llm_without_an_llm_is_a_clear_422(client):
    r = await client.post("/recall", json={"query": "x", "user_id": "u1", "rerank": "llm"})
    assert r.status_code == 422
    assert r.headers["content-type"].startswith("application/problem+json")
    assert r.json()["code"] == "invalid_request"
    assert "LLM__BASE_URL" in r.json()["detail"]
    r = await client.post("/recall", json={"query": "x", "user_id": "u1", "rerank": "maybe"})
    assert r.status_code == 422


def test_a_server_default_of_llm_needs_an_llm():
    with pytest.raises(ValidationError, match="RECALL__RERANK=llm needs an LLM"):
        Settings(recall=RecallSettings(rerank="llm"))


@pytest.mark.parametrize(
    ("reply", "order"),
    [
        ('{"order": [2, 1]}', [1, 0]),
        ("[3, 3, 1]", [2, 0]),
        ('```json\n{"ranking": ["#2", " [3] "]}\n```', [1, 2]),
        ('{"order": [2.0, 1.5, false, null, {"id": 1}]}', [1]),
        ('{"order": []}', []),
    ],
)
def test_parse_order(reply, order):
    assert parse_order(reply, 3) == order


@pytest.mark.parametrize("reply", ['{"a": [1], "b": [2]}', '{"order": 2}', '"1, 2"', "[9]"])
def test_parse_order_refuses_replies_without_a_usable_list(reply):
    with pytest.raises(ReplyParseError):
        parse_order(reply, 3)
