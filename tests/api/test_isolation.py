"""Nothing crosses namespaces: tenant B, with its own valid key, probes every endpoint for
tenant A's data (same user id, same session id, A's unit and job ids). B never sees A's
data, never changes it, and a unit or job of A is answered exactly like a missing one."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from sqlalchemy import text

from app.core.config import AuthSettings, Settings
from tests.conftest import running_app

# Operations that need no key: liveness, readiness, metrics (no tenant data), the docs.
PUBLIC = {"/health", "/ready", "/metrics"}


@pytest.fixture(scope="module")
async def api(settings: Settings) -> AsyncIterator[httpx.AsyncClient]:
    auth = AuthSettings(required="true", cache_ttl_s=0)
    async with running_app(settings.model_copy(update={"auth": auth})) as (app, client):
        client.app = app  # type: ignore[attr-defined]
        yield client


class Tenant:
    def __init__(self, client: httpx.AsyncClient, key: str) -> None:
        self.client = client
        self.headers = {"Authorization": f"Bearer {key}"}

    async def __call__(
        self, method: str, url: str, headers: dict[str, str] | None = None, **kwargs: Any
    ) -> httpx.Response:
        return await self.client.request(
            method, url, headers={**self.headers, **(headers or {})}, **kwargs
        )


@pytest.fixture
async def tenants(api, engine, make_api_key) -> tuple[Tenant, Tenant, dict[str, Any]]:
    """A with two units of user u1, a working-memory session s1 and an extraction job;
    B with nothing. Returns (A, B, A's ids)."""
    a = Tenant(api, await make_api_key("tenant-a"))
    b = Tenant(api, await make_api_key("tenant-b"))
    r = await a(
        "POST",
        "/store",
        json={
            "memories": [
                {"user_id": "u1", "value": "The user is allergic to peanuts",
                 "entities": ["peanuts"], "session_id": "s1"},
                {"user_id": "u1", "value": "The user buys peanuts for the kids",
                 "entities": ["peanuts"], "session_id": "s1"},
            ]
        },
        headers={"Idempotency-Key": "same-key"},
    )  # fmt: skip
    assert r.status_code == 200, r.text
    ids = [x["id"] for x in r.json()["results"]]
    r = await a(
        "POST",
        "/working_memory/s1/messages",
        json={"messages": [{"role": "user", "content": "My passport number is X1234567",
                            "user_id": "u1"}]},
    )  # fmt: skip
    assert r.status_code == 200, r.text
    r = await a(
        "POST",
        "/extract",
        json={"user_id": "u1", "messages": [{"role": "user", "content": "I live in Lyon."}]},
    )
    assert r.status_code in (200, 202), r.text
    return a, b, {"units": ids, "job": r.json()["id"]}


async def snapshot(engine) -> list[tuple[Any, ...]]:
    """A's units as stored: any change by B shows up here."""
    async with engine.connect() as conn:
        rows = await conn.execute(
            text(
                "SELECT id, namespace, value, status, confidence, updated_at FROM memory_units "
                "WHERE namespace = 'tenant-a' ORDER BY id"
            )
        )
        return [tuple(r) for r in rows]


def same_as_missing(foreign: httpx.Response, missing: httpx.Response, foreign_id: str,
                    missing_id: str) -> None:  # fmt: skip
    """A foreign id gets the answer of an id that never existed: status, code, title, and
    detail word for word (ids aside)."""
    assert foreign.status_code == missing.status_code == 404, (foreign.text, missing.text)
    f, m = foreign.json(), missing.json()
    for body in (f, m):
        body.pop("request_id", None)
        body.pop("instance", None)
    f["detail"] = f["detail"].replace(foreign_id, "<id>")
    m["detail"] = m["detail"].replace(missing_id, "<id>")
    assert f == m
    assert "tenant-a" not in foreign.text


async def test_unit_endpoints_answer_foreign_ids_like_missing_ones(tenants, engine):
    a, b, ids = tenants
    before = await snapshot(engine)
    unit, missing = ids["units"][0], str(uuid.uuid4())
    probes = [
        ("GET", "/memories/{}", None),
        ("GET", "/memories/{}/history", None),
        ("PATCH", "/memories/{}", {"value": "The user loves peanuts"}),
        ("PATCH", "/memories/{}", {"status": "invalid"}),
        ("DELETE", "/memories/{}", None),
    ]
    for method, path, body in probes:
        foreign = await b(method, path.format(unit), json=body)
        absent = await b(method, path.format(missing), json=body)
        same_as_missing(foreign, absent, unit, missing)
    assert await snapshot(engine) == before
    # A still sees its unit.
    assert (await a("GET", f"/memories/{unit}")).status_code == 200


async def test_searches_and_lists_see_nothing_of_another_namespace(tenants, engine):
    a, b, ids = tenants
    everything = {"include_superseded": True, "include_archived": True}
    r = await b("POST", "/recall", json={"query": "peanuts allergy", "user_id": "u1", **everything})
    assert r.status_code == 200 and r.json()["memories"] == []
    r = await b("POST", "/recall", json={"query": "peanuts", "session_id": "s1"})
    assert r.json()["memories"] == []
    r = await b("GET", "/memories", params={"user_id": "u1", **everything})
    assert r.status_code == 200, r.text
    assert r.json()["memories"] == []
    r = await b("GET", "/memories", params={"limit": 200})
    assert r.json()["memories"] == []
    query = "food allergy and travel documents"
    r = await b("GET", "/context", params={"user_id": "u1", "session_id": "s1", "query": query})
    assert r.status_code == 200, r.text
    assert r.json()["parts"] == {"preferences": [], "memories": [], "window": []}
    assert "allergic" not in r.text and "X1234567" not in r.text
    # A sees its own.
    r = await a("POST", "/recall", json={"query": "peanuts allergy", "user_id": "u1"})
    assert {m["id"] for m in r.json()["memories"]} == set(ids["units"])


async def test_bulk_writes_of_another_namespace_change_nothing(tenants, engine):
    a, b, ids = tenants
    before = await snapshot(engine)
    r = await b("DELETE", "/memories", params={"user_id": "u1"})
    assert r.status_code == 200, r.text
    assert r.json()["removed"]["memory_units"] == 0
    r = await b("POST", "/summarize", json={"user_id": "u1", "entity": "peanuts"})
    assert r.status_code == 200, r.text
    assert r.json()["summaries"] == [] and r.json()["archived"] == 0
    # The same Idempotency-Key in another namespace is another key: no replay of A's answer.
    r = await b(
        "POST",
        "/store",
        json={"memories": [{"user_id": "u1", "value": "The user is allergic to peanuts"}]},
        headers={"Idempotency-Key": "same-key"},
    )
    assert r.status_code == 200, r.text
    assert r.headers["idempotent-replayed"] == "false"
    result = r.json()["results"]
    assert len(result) == 1 and result[0]["outcome"] == "created"
    assert result[0]["id"] not in ids["units"]
    assert await snapshot(engine) == before


async def test_extraction_jobs_are_private(tenants, engine):
    a, b, ids = tenants
    job, missing = ids["job"], str(uuid.uuid4())
    for method, path in (("GET", "/extract/{}"), ("POST", "/extract/{}/retry")):
        same_as_missing(
            await b(method, path.format(job)), await b(method, path.format(missing)), job, missing
        )
    assert (await a("GET", f"/extract/{job}")).status_code == 200
    # A's session transcript is not B's to extract or close.
    r = await b("POST", "/extract", json={"user_id": "u1", "session_id": "s1"})
    r_missing = await b("POST", "/extract", json={"user_id": "u1", "session_id": "nope"})
    # Another namespace's session is an unknown one: empty, as every unknown session.
    assert r.status_code == r_missing.status_code == 422
    assert r.json()["detail"] == r_missing.json()["detail"].replace("nope", "s1")
    r = await b("POST", "/working_memory/s1/close", json={"user_id": "u1"})
    r_missing = await b("POST", "/working_memory/nope/close", json={"user_id": "u1"})
    assert r.status_code == r_missing.status_code == 200
    assert r.json()["job"] is None and r_missing.json()["job"] is None


async def test_working_memory_is_private(tenants, engine):
    a, b, _ = tenants
    r = await b("GET", "/working_memory/s1", params={"query": "passport"})
    assert r.status_code == 200, r.text
    assert r.json()["messages"] == [] and "X1234567" not in r.text
    # B clearing "its" s1 (even purging the transcript) leaves A's session alone.
    assert (await b("DELETE", "/working_memory/s1", params={"purge": True})).status_code == 200
    r = await a("GET", "/working_memory/s1", params={"query": "passport"})
    assert [m["content"] for m in r.json()["messages"]] == ["My passport number is X1234567"]
    # B appending to "s1" writes to B's own session.
    r = await b("POST", "/working_memory/s1/messages",
                json={"messages": [{"role": "user", "content": "B's message"}]})  # fmt: skip
    assert r.status_code == 200, r.text
    r = await a("GET", "/working_memory/s1")
    assert [m["content"] for m in r.json()["messages"]] == ["My passport number is X1234567"]


async def test_overview_and_job_lists_count_only_your_namespace(tenants, engine):
    a, b, ids = tenants
    r = await b("GET", "/stats")
    assert r.status_code == 200, r.text
    assert r.json() == {
        "namespace": "tenant-b",
        "units": {},
        "total_units": 0,
        "jobs": dict.fromkeys(
            ["queued", "running", "retrying", "succeeded", "failed", "cancelled"], 0
        ),
        "sessions": 0,
        "open_reviews": 0,
    }
    for kind in ("user", "agent", "session"):
        r = await b("GET", "/subjects", params={"kind": kind})
        assert r.status_code == 200 and r.json()["subjects"] == [], r.text
    r = await b("GET", "/extract", params={"session_id": "s1"})
    assert r.status_code == 200 and r.json()["jobs"] == [], r.text
    assert (await b("GET", "/extract")).json()["jobs"] == []
    # A sees its own.
    stats = (await a("GET", "/stats")).json()
    assert stats["namespace"] == "tenant-a" and stats["total_units"] >= 2
    assert stats["sessions"] == 1 and sum(stats["jobs"].values()) == 1
    users = (await a("GET", "/subjects")).json()["subjects"]
    assert [u["id"] for u in users] == ["u1"]
    assert [j["id"] for j in (await a("GET", "/extract")).json()["jobs"]] == [ids["job"]]


async def test_every_operation_requires_a_key(api):
    """A new endpoint that forgets the namespace dependency fails here: every operation
    but the public ones declares the API-key security schemes in OpenAPI."""
    spec = api.app.openapi()  # type: ignore[attr-defined]
    schemes = set(spec["components"]["securitySchemes"])
    assert schemes == {"HTTPBearer", "APIKeyHeader"}
    unguarded = [
        f"{method.upper()} {path}"
        for path, operations in spec["paths"].items()
        for method, op in operations.items()
        if path not in PUBLIC and not {k for s in op.get("security", []) for k in s} & schemes
    ]
    assert unguarded == []
