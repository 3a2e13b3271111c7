"""API keys → namespaces: missing, wrong and revoked keys; when keys are required; the
per-key rate limit; the `hindsight keys` commands."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime

import httpx
import pytest
from sqlalchemy import text
from typer.testing import CliRunner

from app.core.config import AuthSettings, Settings, get_settings
from app.core.db import create_session_factory
from app.repositories.api_keys import ApiKeyRepository
from app.services.auth import KeyAdminService, hash_key, is_loopback
from tests.conftest import count_rows, running_app

UNIT = {"memories": [{"user_id": "u1", "value": "The user is allergic to peanuts"}]}


@asynccontextmanager
async def api(settings: Settings, **update: object) -> AsyncIterator[httpx.AsyncClient]:
    async with running_app(settings.model_copy(update=update)) as (_, client):
        yield client


@pytest.fixture(scope="module")
async def strict(settings: Settings) -> AsyncIterator[httpx.AsyncClient]:
    """Keys always required; no lookup cache, so revocation shows at once."""
    async with api(settings, auth=AuthSettings(required="true", cache_ttl_s=0)) as client:
        yield client


def bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def assert_problem(r: httpx.Response, status: int, code: str) -> None:
    assert r.status_code == status, r.text
    assert r.headers["content-type"].startswith("application/problem+json")
    assert r.json()["code"] == code


async def test_missing_key_is_401_and_writes_nothing(strict, engine):
    r = await strict.post("/store", json=UNIT)
    assert_problem(r, 401, "missing_api_key")
    assert r.headers["www-authenticate"].startswith("Bearer")
    r = await strict.post("/recall", json={"query": "x", "user_id": "u1"})
    assert_problem(r, 401, "missing_api_key")
    assert await count_rows(engine) == 0


async def test_wrong_key_is_401(strict, engine, make_api_key):
    await make_api_key("acme")
    cases = [
        (bearer("hs_wrong"), "invalid_api_key"),
        ({"X-API-Key": "hs_wrong"}, "invalid_api_key"),
        (bearer("x" * 5000), "invalid_api_key"),
        # Not a bearer token: no key was sent at all.
        ({"Authorization": "Basic dXNlcjpwYXNz"}, "missing_api_key"),
    ]
    for headers, code in cases:
        assert_problem(await strict.post("/store", json=UNIT, headers=headers), 401, code)
    assert await count_rows(engine) == 0


async def test_key_maps_to_its_namespace_by_either_header(strict, engine, make_api_key):
    key = await make_api_key("acme")
    r = await strict.post("/store", json=UNIT, headers=bearer(key))
    assert r.status_code == 200, r.text
    r = await strict.post(
        "/recall", json={"query": "allergy", "user_id": "u1"}, headers={"X-API-Key": key}
    )
    assert [m["value"] for m in r.json()["memories"]] == [UNIT["memories"][0]["value"]]
    async with engine.connect() as conn:
        namespaces = (await conn.execute(text("SELECT namespace FROM memory_units"))).scalars()
        assert list(namespaces) == ["acme"]
        stored = (await conn.execute(text("SELECT key_hash, prefix FROM api_keys"))).one()
    # Only the hash is stored; the prefix is the key's visible start.
    assert stored.key_hash == hash_key(key) and key not in stored
    assert key.startswith(stored.prefix) and stored.prefix.startswith("hs_")


async def test_two_different_keys_in_one_request_are_401(strict, engine, make_api_key):
    """Tester D13: Bearer K1 with X-API-Key K2 acted in K1's namespace, X-API-Key ignored."""
    first, second = await make_api_key("acme"), await make_api_key("globex")
    for other in (second, "hs_bad"):
        r = await strict.post("/store", json=UNIT, headers={**bearer(first), "X-API-Key": other})
        assert_problem(r, 401, "invalid_api_key")
        assert "two different API keys" in r.json()["detail"]
    assert await count_rows(engine) == 0
    # the same key in both headers is one key
    r = await strict.post("/store", json=UNIT, headers={**bearer(first), "X-API-Key": first})
    assert r.status_code == 200, r.text


async def test_revoked_key_is_401(strict, engine, make_api_key):
    key = await make_api_key("acme")
    assert (await strict.post("/store", json=UNIT, headers=bearer(key))).status_code == 200
    async with create_session_factory(engine)() as session, session.begin():
        revoked = await KeyAdminService(ApiKeyRepository(session)).revoke(
            key[:11], datetime.now(UTC)
        )
    assert len(revoked) == 1
    r = await strict.post("/store", json=UNIT, headers=bearer(key))
    assert_problem(r, 401, "invalid_api_key")
    # Revoked and unknown keys get the same answer.
    unknown = await strict.post("/store", json=UNIT, headers=bearer("hs_unknown"))
    assert r.json()["detail"] == unknown.json()["detail"]


async def test_auto_mode_on_loopback_is_open_until_a_key_exists(settings, engine, make_api_key):
    async with api(settings, auth=AuthSettings(required="auto", cache_ttl_s=0)) as client:
        r = await client.post("/store", json=UNIT)
        assert r.status_code == 200, r.text
        key = await make_api_key("acme")
        assert_problem(await client.post("/store", json=UNIT), 401, "missing_api_key")
        assert (await client.post("/store", json=UNIT, headers=bearer(key))).status_code == 200
    async with engine.connect() as conn:
        rows = (await conn.execute(text("SELECT namespace FROM memory_units"))).scalars()
        assert sorted(rows) == ["acme", settings.default_namespace]


async def test_auto_mode_on_a_public_address_requires_keys(settings, engine):
    auth = AuthSettings(required="auto", cache_ttl_s=0)
    async with api(settings, auth=auth, listen_host="0.0.0.0") as client:
        assert_problem(await client.post("/store", json=UNIT), 401, "missing_api_key")
    assert await count_rows(engine) == 0


async def test_open_mode_still_checks_a_presented_key(settings, engine):
    async with api(settings, auth=AuthSettings(required="false", cache_ttl_s=0)) as client:
        assert (await client.post("/store", json=UNIT)).status_code == 200
        r = await client.post("/store", json=UNIT, headers=bearer("hs_wrong"))
        assert_problem(r, 401, "invalid_api_key")


async def test_per_key_rate_limit(settings, engine, make_api_key):
    key_a, key_b = await make_api_key("a"), await make_api_key("b")
    auth = AuthSettings(required="true", rate_limit="2/minute")
    async with api(settings, auth=auth) as client:
        body = {"query": "x", "user_id": "u1"}
        for _ in range(2):
            assert (await client.post("/recall", json=body, headers=bearer(key_a))).is_success
        r = await client.post("/recall", json=body, headers=bearer(key_a))
        assert_problem(r, 429, "rate_limited")
        assert 1 <= int(r.headers["retry-after"]) <= 60
        # Another key has its own budget.
        assert (await client.post("/recall", json=body, headers=bearer(key_b))).is_success


@pytest.mark.parametrize(
    ("host", "loopback"),
    [
        ("127.0.0.1", True),
        ("127.8.0.1", True),
        ("::1", True),
        ("[::1]", True),
        ("localhost", True),
        ("0.0.0.0", False),
        ("::", False),
        ("10.0.0.5", False),
        ("api.example.com", False),
    ],
)
def test_is_loopback(host, loopback):
    assert is_loopback(host) is loopback


def test_keys_cli_create_list_revoke(database_url, monkeypatch):
    from app.cli.main import cli

    monkeypatch.setenv("DATABASE_URL", database_url)
    get_settings.cache_clear()
    runner = CliRunner()
    try:
        created = runner.invoke(cli, ["keys", "create", "--namespace", "cli-ns", "--name", "ci"])
        assert created.exit_code == 0, created.output
        key = created.stdout.strip().splitlines()[-1]
        assert key.startswith("hs_") and len(key) == 46

        listed = runner.invoke(cli, ["keys", "list", "--namespace", "cli-ns", "--json"])
        rows = [json.loads(line) for line in listed.stdout.splitlines()]
        assert [(r["namespace"], r["name"], r["prefix"]) for r in rows] == [
            ("cli-ns", "ci", key[:11])
        ]
        assert key not in listed.stdout

        assert runner.invoke(cli, ["keys", "revoke", key[:11]]).exit_code == 0
        listed = runner.invoke(cli, ["keys", "list", "--namespace", "cli-ns", "--json"])
        assert listed.stdout.strip() == ""
        again = runner.invoke(cli, ["keys", "revoke", key[:11]])
        assert again.exit_code == 1
    finally:
        get_settings.cache_clear()


async def test_rate_limit_counts_in_redis_across_limiters():
    """Two API replicas (two limiters) on one Redis share each key's budget."""
    import uuid

    from app.repositories.rate_limit import RateLimiter

    identity = f"test-{uuid.uuid4().hex}"  # a fresh counter in the shared Redis
    replica_a = RateLimiter("3/minute", "redis://127.0.0.1:6379/0")
    replica_b = RateLimiter("3/minute", "redis://127.0.0.1:6379/0")
    answers = [await limiter.hit(identity) for limiter in (replica_a, replica_b, replica_a)]
    assert answers == [None, None, None]
    retry_after = await replica_b.hit(identity)
    assert retry_after is not None and 1 <= retry_after <= 60
    with pytest.raises(ValueError):
        RateLimiter("lots per minute")
