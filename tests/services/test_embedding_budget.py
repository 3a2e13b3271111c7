"""The embedder's cost per request, in its own tokens (app/services/embedding_budget.py):
texts over LIMITS__TEXT_TOKENS and requests over LIMITS__REQUEST_TOKENS are a 422 naming the
limit and the count; working-memory messages keep their text and have their first window
embedded; per caller, concurrency and a token rate answered 429 with Retry-After; the limits
are in /metrics."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import httpx
import numpy as np
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
    from app.clients.model_tokens import cut_to
    from tests.services.working_memory.test_working_memory import embeddings_settled, window_keys

    long = "Boarding pass: " + FAMILY * 200  # ~1,400 tokens: one message alone always fits
    body = {"messages": [{"role": "user", "content": long}]}
    r = await wm.client.post("/working_memory/s1/messages", json=body)
    assert r.status_code == 200, r.text
    assert r.json()["embedded_first_window"] == [1]
    await embeddings_settled(wm)
    # Its vector is the one of its first LIMITS__TEXT_TOKENS (384) model tokens, not of the
    # model's whole window (512).
    resources = wm.app.state.resources
    _, _, vec, _ = await window_keys(wm, "s1")
    stored = np.frombuffer(await wm.redis.hget(vec, "1"), dtype=np.float32)
    window = cut_to(resources.model_tokens, long, 384)
    assert 340 <= resources.model_tokens.count(window) <= 384
    first, model_window = await resources.embedder.embed_passages([window, long])
    assert float(stored @ first) > 0.9999
    assert float(stored @ model_window) < 0.9999
    r = await wm.client.post(
        "/working_memory/s1/messages", json={"messages": [{"role": "user", "content": "hi"}]}
    )
    assert r.status_code == 200, r.text
    r = await wm.client.get("/working_memory/s1", params={"query": "boarding pass"})
    assert r.status_code == 200, r.text
    assert [m["content"] for m in r.json()["messages"]] == [long, "hi"]


async def test_an_append_over_the_request_token_limit_is_a_422_that_writes_nothing(wm, engine):
    from tests.services.working_memory.test_working_memory import transcript, window_keys

    # Three messages of ~200 model tokens: each fits, their windows together (~600) do not.
    contents = [f"{FAMILY * 28} tool output {i}" for i in range(3)]
    body = {"messages": [{"role": "tool", "content": c} for c in contents]}
    r = await wm.client.post("/working_memory/s2/messages", json=body)
    body422 = assert_problem(
        r,
        422,
        "invalid_request",
        "at most 384 per request (LIMITS__REQUEST_TOKENS): split the batch",
        "messages 0..0 come to",
    )
    error = body422["errors"][0]
    assert error["loc"] == ["body"] and error["type"] == "too_many_tokens"
    assert error["limit"] == 384 and error["count"] == sum(error["item_tokens"]) > 384
    assert len(error["item_tokens"]) == 3 and all(n <= 384 for n in error["item_tokens"])
    assert await transcript(engine, "s2") == []
    assert not any([await wm.redis.exists(k) for k in await window_keys(wm, "s2")])
    # Split where the answer says: each part is accepted, in order.
    for part in (contents[:1], contents[1:2], contents[2:]):
        r = await wm.client.post(
            "/working_memory/s2/messages",
            json={"messages": [{"role": "tool", "content": c} for c in part]},
        )
        assert r.status_code == 200, r.text
    assert [row.content for row in await transcript(engine, "s2")] == contents
    # A text sent twice is embedded once, so counted once.
    twice = {"messages": [{"role": "tool", "content": contents[0]}] * 2}
    r = await wm.client.post("/working_memory/s3/messages", json=twice)
    assert r.status_code == 200, r.text
    # Windows, not texts: two messages of ~1,400 tokens each cost 2 x 384.
    long = {"messages": [{"role": "tool", "content": FAMILY * 200 + str(i)} for i in range(2)]}
    r = await wm.client.post("/working_memory/s3/messages", json=long)
    error = assert_problem(r, 422, "invalid_request", "LIMITS__REQUEST_TOKENS")["errors"][0]
    assert error["item_tokens"] == [384, 384]


async def test_a_window_read_embeds_itself_at_most_the_request_limit(wm):
    """Messages without a vector (here: their vectors dropped from Redis, as after another
    process appended them and died) are embedded by a read with a query, newest first, as
    long as the query and their first windows fit LIMITS__REQUEST_TOKENS; the others are
    ranked without relevance, listed in `unembedded_seqs`, and embedded in the background
    for the next read."""
    from tests.services.working_memory.test_working_memory import embeddings_settled, window_keys

    # Six messages of ~120 model tokens (one append each: each append's windows fit).
    contents = [f"{FAMILY * 16} note {i}" for i in range(6)]
    for c in contents:
        r = await wm.client.post(
            "/working_memory/s4/messages", json={"messages": [{"role": "user", "content": c}]}
        )
        assert r.status_code == 200, r.text
    await embeddings_settled(wm)
    _, _, vec, _ = await window_keys(wm, "s4")
    await wm.redis.delete(vec)
    embedder = wm.app.state.resources.embedder
    inner = embedder.inner
    seen: list[list[str]] = []

    class Counting:  # the real model; records what the read has it embed
        def __getattr__(self, name):  # type: ignore[no-untyped-def]
            return getattr(inner, name)

        async def embed_passages(self, texts, *, background=False):  # type: ignore[no-untyped-def]
            if not background:
                seen.append(list(texts))
            return await inner.embed_passages(texts, background=background)

    embedder.inner = Counting()
    try:
        r = await wm.client.get("/working_memory/s4", params={"query": "note 5"})
    finally:
        embedder.inner = inner
    assert r.status_code == 200, r.text
    window = r.json()
    tokens = wm.app.state.resources.model_tokens
    query_tokens = tokens.count("note 5", query=True)
    spent = sum(tokens.count(t) for call in seen for t in call)
    assert 0 < spent <= 384 - query_tokens
    # Newest first: the oldest are the ones ranked without relevance.
    unembedded = window["unembedded_seqs"]
    assert unembedded and unembedded == list(range(1, len(unembedded) + 1))
    assert len(unembedded) + sum(len(c) for c in seen) == 6
    by_seq = {m["seq"]: m for m in window["messages"]}
    for seq in unembedded:
        assert by_seq[seq]["scores"]["relevance"] is None
        assert "ranked without relevance" in by_seq[seq]["why"]
    assert by_seq[6]["scores"]["relevance"] is not None
    # The background embeds the rest: the next read has every vector.
    await embeddings_settled(wm)
    r = await wm.client.get("/working_memory/s4", params={"query": "note 5"})
    assert r.json()["unembedded_seqs"] == []


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


async def test_context_takes_the_first_window_of_a_long_message_as_its_query(wm):
    """/context without a query takes the session's latest user message: a long one is cut
    to its first LIMITS__TEXT_TOKENS, which count against LIMITS__REQUEST_TOKENS with the
    messages the read embeds itself (here: none left, so they are ranked without relevance)."""
    from tests.services.working_memory.test_working_memory import embeddings_settled, window_keys

    r = await wm.client.post(
        "/working_memory/c1/messages",
        json={"messages": [{"role": "assistant", "content": "Which seat?"}]},
    )
    assert r.status_code == 200, r.text
    r = await wm.client.post(
        "/working_memory/c1/messages",
        json={"messages": [{"role": "user", "content": "Window seat. " + HEAVY, "user_id": "u1"}]},
    )
    assert r.status_code == 200, r.text
    await embeddings_settled(wm)
    _, _, vec, _ = await window_keys(wm, "c1")
    await wm.redis.delete(vec)
    r = await wm.client.get("/context", params={"user_id": "u1", "session_id": "c1"})
    assert r.status_code == 200, r.text
    body = r.json()
    tokens = wm.app.state.resources.model_tokens
    assert body["query_source"] == "last_user_message"
    assert ("Window seat. " + HEAVY).startswith(body["query"])
    assert 340 <= tokens.count(body["query"], query=True) <= 384
    window = body["parts"]["window"]
    assert window and all(m["scores"]["relevance"] is None for m in window)
    assert all("ranked without relevance" in m["why"] for m in window)


async def test_a_repeated_text_in_a_refused_append_is_counted_where_it_first_appears(wm):
    """item_tokens counts a text repeated in the request at its first copy only; the 422
    says so, since a part of the split without that copy pays the text again (issue 31, F2)."""
    long = "Tool log: " + "build step finished with exit code 0; " * 60  # window: 384 tokens
    body = {"messages": [{"role": "tool", "content": c} for c in (long, "short note", long)]}
    r = await wm.client.post("/working_memory/r1/messages", json=body)
    problem = assert_problem(
        r, 422, "invalid_request", "a text repeated in the request counts once"
    )
    tokens = problem["errors"][0]["item_tokens"]
    assert tokens[0] == 384 and 0 < tokens[1] < 10 and tokens[2] == 0
    assert "a part without that first copy counts the text again" in problem["errors"][0]["msg"]
