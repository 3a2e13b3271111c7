"""Request ids (header, problem+json, JSON logs) and the Prometheus metrics at /metrics."""

from __future__ import annotations

import asyncio
import io
import json
import logging
import re
from collections.abc import AsyncIterator

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families
from sqlalchemy import text

from app.clients.llm import InstrumentedLLM
from app.core.config import AuthSettings, RecallSettings, Settings
from app.core.errors import ProviderError
from app.core.logging import JsonFormatter
from tests.conftest import running_app


@pytest.fixture(scope="module")
async def api(settings: Settings) -> AsyncIterator[httpx.AsyncClient]:
    """An open API (loopback, no keys) whose recall budget is the smallest allowed, so that
    recalls come back degraded."""
    update = {"auth": AuthSettings(required="false"), "recall": RecallSettings(budget_ms=10)}
    async with running_app(settings.model_copy(update=update)) as (_, client):
        yield client


# Embedding ~1,900 characters takes well over the 10 ms budget on any CPU.
# ~370 model tokens: within LIMITS__TEXT_TOKENS (384), slow enough to miss a 10 ms budget.
LONG_QUERY = "what does the user like to drink in the morning and in the evening? " * 24


def samples(body: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    out = {}
    for family in text_string_to_metric_families(body):
        for s in family.samples:
            out[(s.name, tuple(sorted(s.labels.items())))] = s.value
    return out


def value(m: dict, name: str, **labels: str) -> float:
    return m.get((name, tuple(sorted(labels.items()))), 0.0)


async def test_request_id_in_header_and_problem_body(api, engine):
    r = await api.get("/health")
    assert re.fullmatch(r"[0-9a-f]{32}", r.headers["x-request-id"])
    r = await api.get("/health", headers={"X-Request-ID": "trace-42.a:b"})
    assert r.headers["x-request-id"] == "trace-42.a:b"
    r = await api.get("/health", headers={"X-Request-ID": "not ok <script>" + "x" * 200})
    assert re.fullmatch(r"[0-9a-f]{32}", r.headers["x-request-id"])

    for r in (
        await api.post("/recall", json={"query": "x"}),  # 422
        await api.get("/memories/00000000-0000-0000-0000-000000000000"),  # 404
        await api.post(
            "/store", content=b"{not json", headers={"content-type": "application/json"}
        ),
    ):
        assert r.headers["content-type"].startswith("application/problem+json")
        assert r.json()["request_id"] == r.headers["x-request-id"]
    r = await api.get("/memories/00000000-0000-0000-0000-000000000000",
                      headers={"X-Request-ID": "client-chosen"})  # fmt: skip
    assert r.json()["request_id"] == "client-chosen"


async def test_access_log_is_json_with_the_request_id(api, engine):
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JsonFormatter())
    logger = logging.getLogger("hindsight.access")
    logger.addHandler(handler)
    old_level = logger.level
    logger.setLevel(logging.INFO)
    try:
        await api.post("/recall", json={"query": "x", "user_id": "u1"},
                       headers={"X-Request-ID": "log-probe-1"})  # fmt: skip
    finally:
        logger.removeHandler(handler)
        logger.setLevel(old_level)
    lines = [json.loads(line) for line in stream.getvalue().splitlines()]
    line = next(x for x in lines if x.get("request_id") == "log-probe-1")
    assert line["message"] == "http request"
    assert line["route"] == "/recall" and line["method"] == "POST" and line["status"] == 200
    assert line["duration_ms"] > 0 and line["level"] == "INFO" and "ts" in line


async def test_metrics_count_requests_embeddings_degraded_recalls_and_jobs(api, engine):
    before = samples((await api.get("/metrics")).text)
    r = await api.post("/store", json={"memories": [{"user_id": "u1", "value": "Likes tea"}]})
    unit_id = r.json()["results"][0]["id"]
    assert (await api.get(f"/memories/{unit_id}")).status_code == 200
    degraded = 0
    for _ in range(3):
        r = await api.post("/recall", json={"query": LONG_QUERY, "user_id": "u1"})
        assert r.status_code == 200, r.text
        degraded += r.json()["degraded"]
    r = await api.post(
        "/extract",
        json={"user_id": "u1", "messages": [{"role": "user", "content": "I live in Oslo."}]},
    )
    assert r.status_code in (200, 202), r.text

    resp = await api.get("/metrics")
    assert resp.status_code == 200 and resp.headers["content-type"].startswith("text/plain")
    after = samples(resp.text)

    def delta(name: str, **labels: str) -> float:
        return value(after, name, **labels) - value(before, name, **labels)

    hist = "hindsight_http_request_duration_seconds_count"
    assert delta(hist, method="POST", route="/recall", status="200") == 3
    assert delta(hist, method="POST", route="/store", status="200") == 1
    # Route templates, not raw paths: the id never becomes a label.
    assert delta(hist, method="GET", route="/memories/{memory_id}", status="200") == 1
    assert unit_id not in resp.text
    model = "multilingual-e5-small-q4"
    # The three recalls of one question share one model call (a recall past its budget leaves
    # it running for the next, tester H34): counted once it ends.
    for _ in range(200):
        if delta("hindsight_embedding_duration_seconds_count", model=model, role="query") >= 1:
            break
        await asyncio.sleep(0.05)
        after = samples((await api.get("/metrics")).text)
    assert delta("hindsight_embedding_duration_seconds_count", model=model, role="query") >= 1
    assert delta("hindsight_embedding_duration_seconds_count", model=model, role="passage") >= 1
    # The smallest budget (10 ms) makes recalls degraded; each one is counted.
    assert degraded >= 1
    assert delta("hindsight_recall_degraded_total") == degraded
    async with engine.connect() as conn:
        jobs = (await conn.execute(text("SELECT count(*) FROM extraction_jobs"))).scalar_one()
    statuses = ("queued", "running", "retrying", "succeeded", "failed")
    assert sum(value(after, "hindsight_jobs", status=s) for s in statuses) == jobs == 1


async def test_llm_latency_is_recorded_by_outcome():
    class Scripted:
        model = "scripted"

        def __init__(self) -> None:
            self.calls = 0

        async def complete(self, messages, *, model=None, json_mode=True):  # type: ignore[no-untyped-def]
            self.calls += 1
            if self.calls > 1:
                raise ProviderError("down")
            return "[]"

        async def aclose(self) -> None:
            pass

    from prometheus_client import REGISTRY

    def count(outcome: str) -> float:
        labels = {"model": "scripted", "outcome": outcome}
        return REGISTRY.get_sample_value("hindsight_llm_duration_seconds_count", labels) or 0.0

    ok, err = count("ok"), count("error")
    llm = InstrumentedLLM(Scripted())
    assert await llm.complete([{"role": "user", "content": "hi"}]) == "[]"
    with pytest.raises(ProviderError):
        await llm.complete([{"role": "user", "content": "hi"}])
    assert (count("ok") - ok, count("error") - err) == (1, 1)


async def test_oversized_body_is_413_with_request_id_and_writes_nothing(api, engine, settings):
    big = "x" * (settings.max_body_bytes + 1)
    body = {"memories": [{"user_id": "u1", "value": big}]}
    # Declared length over the limit: refused before the body is read.
    r = await api.post("/store", json=body, headers={"X-Request-ID": "big-1"})
    assert r.status_code == 413
    assert r.headers["content-type"].startswith("application/problem+json")
    assert r.json()["code"] == "payload_too_large"
    assert r.json()["request_id"] == r.headers["x-request-id"] == "big-1"

    # Streamed without a length: refused at the first byte past the limit.
    async def chunks():  # type: ignore[no-untyped-def]
        data = json.dumps(body).encode()
        for i in range(0, len(data), 65536):
            yield data[i : i + 65536]

    r = await api.post("/store", content=chunks(), headers={"content-type": "application/json"})
    assert r.status_code == 413 and r.json()["code"] == "payload_too_large"
    assert r.json()["request_id"] == r.headers["x-request-id"]
    async with engine.connect() as conn:
        assert (await conn.execute(text("SELECT count(*) FROM memory_units"))).scalar_one() == 0
