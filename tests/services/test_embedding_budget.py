"""The embedder's cost per request, in its own tokens (app/services/embedding_budget.py):
texts over LIMITS__TEXT_TOKENS and requests over LIMITS__REQUEST_TOKENS are a 422 naming the
limit and the count; working-memory messages keep their text and have their first window
embedded; per caller, concurrency and a token rate answered 429 with Retry-After; the limits
are in /metrics."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import httpx
import pytest
from asgi_lifespan import LifespanManager

from app.core.config import Settings
from app.core.settings.service import LimitsSettings
from app.main import create_app
from tests.conftest import count_rows

PROBLEM = "application/problem+json"
FAMILY = "👩\u200d👩\u200d👧\u200d👦"  # 7 code points, 7 model tokens
HEAVY = (FAMILY * 286)[:2000]  # 2,000 characters, ~2,000 model tokens: four windows


@asynccontextmanager
async def app_with(database_url: str, **limits: object) -> AsyncIterator[httpx.AsyncClient]:
    settings = Settings(database_url=database_url, limits=LimitsSettings(**limits))
    app = create_app(settings)
    async with LifespanManager(app, startup_timeout=60):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as client:
            client.app = app  # type: ignore[attr-defined]
            yield client


def assert_problem(r: httpx.Response, status: int, code: str, *needles: str) -> dict:
    assert r.status_code == status, r.text
    assert r.headers["content-type"].startswith(PROBLEM)
    body = r.json()
    assert body["code"] == code
    for needle in needles:
        assert needle in body["detail"], body["detail"]
    return body


async def test_a_value_over_the_token_limit_is_a_422_with_limit_and_count(client, engine):
    # 2,000 characters is within LIMITS__VALUE_CHARS, but ~2,000 model tokens: it cost the
    # embedder four windows (9.4 s on the loaded machine of issue 31).
    unit = {"user_id": "u1", "value": HEAVY}
    r = await client.post("/store", json={"memories": [unit]})
    body = assert_problem(
        r, 422, "invalid_request", "memories.0.value: at most 384 model tokens", "got 2,00"
    )
    assert body["errors"][0]["loc"] == ["body", "memories", 0, "value"]
    assert body["errors"][0]["type"] == "too_many_tokens"
    ok = {"user_id": "u1", "value": "Tea, no sugar", "query": HEAVY}
    r = await client.post("/store", json={"memories": [ok]})
    assert_problem(r, 422, "invalid_request", "memories.0.query: at most 384 model tokens")
    assert await count_rows(engine) == 0
    # At the limit it is stored: 375 characters of emoji sequences, ~380 tokens.
    r = await client.post("/store", json={"memories": [{"user_id": "u1", "value": HEAVY[:375]}]})
    assert r.status_code == 200, r.text


async def test_queries_over_the_token_limit_are_422(client, wm):
    r = await client.post("/recall", json={"query": HEAVY, "user_id": "u1"})
    assert_problem(r, 422, "invalid_request", "query: at most 384 model tokens")
    r = await wm.client.get("/working_memory/s1", params={"query": HEAVY})
    body = assert_problem(r, 422, "invalid_request", "query: at most 384 model tokens")
    assert body["errors"][0]["loc"] == ["query", "query"]
    r = await client.get("/context", params={"user_id": "u1", "query": HEAVY})
    assert_problem(r, 422, "invalid_request", "query: at most 384 model tokens")


async def test_a_correction_over_the_token_limit_is_a_422(client, engine):
    r = await client.post("/store", json={"memories": [{"user_id": "u1", "value": "Tea"}]})
    unit_id = r.json()["results"][0]["id"]
    r = await client.patch(f"/memories/{unit_id}", json={"value": HEAVY})
    assert_problem(r, 422, "invalid_request", "value: at most 384 model tokens")
    r = await client.get(f"/memories/{unit_id}")
    assert r.json()["value"] == "Tea"


async def test_a_request_over_the_request_token_limit_is_a_422_that_says_how_to_split(
    database_url, engine
):
    async with app_with(database_url, text_tokens=256, request_tokens=300) as client:
        units = [{"user_id": "u1", "value": f"{FAMILY * 10} number {i}"} for i in range(5)]
        r = await client.post("/store", json={"memories": units})
        body = assert_problem(
            r,
            422,
            "invalid_request",
            "at most 300 per request (LIMITS__REQUEST_TOKENS): split the batch",
            "memories 0..",
        )
        error = body["errors"][0]
        assert error["loc"] == ["body"] and error["type"] == "too_many_tokens"
        assert error["limit"] == 300 and error["count"] == sum(error["item_tokens"]) > 300
        assert len(error["item_tokens"]) == 5
        # Split as the answer says: the items that fit go first, the rest after.
        fit, run = 0, 0
        for n in error["item_tokens"]:
            if fit + n > 300:
                break
            fit, run = fit + n, run + 1
        assert f"memories 0..{run - 1} come to {fit:,}" in body["detail"]
        for batch in (units[:run], units[run:]):
            r = await client.post("/store", json={"memories": batch})
            assert r.status_code == 200, r.text
        # One unit whose value and scenario together are over it: shorten, not split.
        big = FAMILY * 25
        r = await client.post(
            "/store", json={"memories": [{"user_id": "u2", "value": big, "query": big + "?"}]}
        )
        body = assert_problem(
            r, 422, "invalid_request", "memories.0: value and query come to", "shorten them"
        )
        assert body["errors"][0]["loc"] == ["body", "memories", 0]
        # A scenario equal to its value is embedded once, so counted once.
        r = await client.post(
            "/store", json={"memories": [{"user_id": "u2", "value": big, "query": big}]}
        )
        assert r.status_code == 200, r.text
    assert await count_rows(engine) == 6


def test_the_text_limit_stays_within_the_request_limit():
    defaults = LimitsSettings()
    assert defaults.text_tokens <= defaults.request_tokens
    with pytest.raises(ValueError, match="must not exceed LIMITS__REQUEST_TOKENS"):
        LimitsSettings(text_tokens=512, request_tokens=300)


async def test_a_long_message_is_kept_whole_and_embedded_by_its_first_window(wm):
    long = "Boarding pass: " + FAMILY * 200  # ~1,400 tokens
    body = {"messages": [{"role": "user", "content": long}, {"role": "user", "content": "hi"}]}
    r = await wm.client.post("/working_memory/s1/messages", json=body)
    assert r.status_code == 200, r.text
    assert r.json()["embedded_first_window"] == [1]
    r = await wm.client.get("/working_memory/s1", params={"query": "boarding pass"})
    assert r.status_code == 200, r.text
    assert [m["content"] for m in r.json()["messages"]] == [long, "hi"]


async def test_a_caller_over_its_concurrency_is_429(database_url):
    async with app_with(database_url, embed_concurrency=1) as client:
        admission = client.app.state.resources.embedding_admission  # type: ignore[attr-defined]
        async with admission.slot("address:127.0.0.1"):  # this client's one slot is taken
            r = await client.post("/recall", json={"query": "tea", "user_id": "u1"})
            assert_problem(r, 429, "rate_limited", "LIMITS__EMBED_CONCURRENCY")
            assert r.headers["retry-after"] == "1"
            # Another caller is not affected.
            async with admission.slot("key:hs_other"):
                pass
        r = await client.post("/recall", json={"query": "tea", "user_id": "u1"})
        assert r.status_code == 200, r.text


async def test_a_caller_over_its_token_rate_is_429_and_nothing_is_written(database_url, engine):
    async with app_with(database_url, embed_token_rate="20/minute") as client:
        unit = {"user_id": "u1", "value": "The user drinks green tea every morning at seven"}
        r = await client.post("/store", json={"memories": [unit]})
        assert r.status_code == 200, r.text
        r = await client.post("/store", json={"memories": [{**unit, "user_id": "u2"}]})
        assert_problem(r, 429, "rate_limited", "LIMITS__EMBED_TOKEN_RATE")
        assert int(r.headers["retry-after"]) >= 1
        metrics = (await client.get("/metrics")).text
    assert await count_rows(engine) == 1
    assert 'hindsight_embedding_limit{limit="text_tokens"} 384.0' in metrics
    assert 'hindsight_embedding_limit{limit="token_rate_per_60s"} 20.0' in metrics
    assert 'hindsight_embedding_refused_total{reason="token_rate"}' in metrics
