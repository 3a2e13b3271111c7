"""Inputs a fuzzing pass turned into 500s: each must be a 422 problem+json that writes nothing."""

from __future__ import annotations

import pytest
from sqlalchemy import text

from tests.conftest import count_rows

FAR_DATES = ["0001-01-01T00:00:00+14:00", "9999-12-31T23:59:59-14:00", "0001-01-01T00:00:00Z"]


def _assert_problem(r, status: int = 422) -> None:
    assert r.status_code == status, r.text
    assert r.headers["content-type"].startswith("application/problem+json")
    assert r.json()["code"] == "invalid_request"


@pytest.mark.parametrize("when", FAR_DATES)
@pytest.mark.parametrize("field", ["occurred_at", "expires_at"])
async def test_store_rejects_dates_out_of_range(client, engine, field, when):
    r = await client.post(
        "/store", json={"memories": [{"user_id": "u", "value": "v", field: when}]}
    )
    _assert_problem(r)
    assert "1000-01-01" in r.json()["detail"]
    assert await count_rows(engine) == 0


@pytest.mark.parametrize(
    "extra",
    [
        {"now": "9999-12-31T23:59:59-14:00"},
        {"since": "0001-01-01T00:00:00+14:00"},
        {"now": "0001-01-01T00:00:00Z", "time_range": "last_30_days"},
    ],
)
async def test_recall_rejects_dates_out_of_range(client, extra):
    r = await client.post("/recall", json={"query": "q", "user_id": "u", **extra})
    _assert_problem(r)


@pytest.mark.parametrize("metadata", ['{"x": NaN}', '{"x": Infinity}', '{"a": "b\\u0000"}'])
async def test_working_memory_rejects_unstorable_metadata(client, engine, metadata):
    body = '{"messages": [{"role": "user", "content": "hi", "metadata": ' + metadata + "}]}"
    r = await client.post(
        "/working_memory/s-fuzz/messages",
        content=body,
        headers={"content-type": "application/json"},
    )
    _assert_problem(r)
    assert await count_rows(engine, "transcript_messages") == 0


@pytest.mark.parametrize("metadata", ['{"a": "b\\u0000"}', '{"a\\u0000": 1}', '{"x": NaN}'])
async def test_extract_rejects_unstorable_metadata(client, engine, metadata):
    body = (
        '{"user_id": "u", "messages": [{"role": "user", "content": "I am allergic to peanuts",'
        ' "metadata": ' + metadata + "}]}"
    )
    r = await client.post(
        "/extract?wait=true", content=body, headers={"content-type": "application/json"}
    )
    _assert_problem(r)
    assert await count_rows(engine, "extraction_jobs") == 0


@pytest.mark.parametrize("user_id", ["%00", "%20%20%20"])
async def test_forget_subject_rejects_bad_user_id(client, user_id):
    r = await client.delete(f"/memories?user_id={user_id}")
    _assert_problem(r)


async def test_recall_with_past_now_does_not_revive_expired_units(client, engine):
    r = await client.post(
        "/store",
        json={
            "memories": [
                {
                    "user_id": "u-exp",
                    "value": "Passport number is X123",
                    "occurred_at": "2023-01-01T00:00:00Z",
                }
            ]
        },
    )
    assert r.status_code == 200, r.text
    unit_id = r.json()["results"][0]["id"]
    # It expired since (a write refuses a past expires_at: tests/api/test_expiry.py).
    async with engine.begin() as conn:
        await conn.execute(text("UPDATE memory_units SET expires_at = '2024-01-01T00:00:00Z'"))
    replay = {"query": "passport", "user_id": "u-exp", "now": "2023-06-01T00:00:00Z"}
    r = await client.post("/recall", json=replay)
    assert r.status_code == 200
    assert r.json()["memories"] == []
    r = await client.get(f"/memories/{unit_id}")
    assert r.json()["expires_at"].startswith("2024-01-01")
    r = await client.post("/recall", json={**replay, "include_archived": True})
    assert [m["id"] for m in r.json()["memories"]] == [unit_id]


@pytest.mark.parametrize("session_id", ["%20", "%20%20", "%C2%A0", "%E3%80%80"])
async def test_working_memory_rejects_blank_session_id(client, engine, session_id):
    # A blank session id was accepted here but refused by /extract, /recall and /memories
    # (Identifier): its units could never be read by session again.
    r = await client.post(
        f"/working_memory/{session_id}/messages",
        json={"messages": [{"role": "user", "content": "hello", "user_id": "u"}]},
    )
    _assert_problem(r)
    assert "whitespace" in r.json()["detail"]
    assert await count_rows(engine, "transcript_messages") == 0
    for method, path in [("GET", ""), ("DELETE", ""), ("POST", "/close")]:
        r = await client.request(method, f"/working_memory/{session_id}{path}")
        _assert_problem(r)


async def test_patch_fields_take_null_exactly_where_the_openapi_document_says(client):
    # The document said every MemoryUpdate field may be null; the API refuses null for all
    # but query and expires_at ("confidence cannot be null"): a generated client sends it.
    spec = (await client.get("/openapi.json")).json()
    props = spec["components"]["schemas"]["MemoryUpdate"]["properties"]
    nullable = {
        name
        for name, prop in props.items()
        if any(alt.get("type") == "null" for alt in prop.get("anyOf", []))
    }
    assert nullable == {"query", "expires_at"}
    unknown = "/memories/00000000-0000-7000-8000-000000000000"
    for name in props:
        r = await client.patch(unknown, json={name: None})
        assert r.status_code == (404 if name in nullable else 422), (name, r.text)


@pytest.mark.parametrize(
    ("method", "url"),
    [
        ("POST", "/working_memory/%FF/messages"),
        ("POST", "/working_memory/a%ED%A0%80/messages"),
        ("GET", "/memories?user_id=%FE"),
        ("GET", "/working_memory/s1?query=%C3"),
    ],
)
async def test_url_that_is_not_utf8_is_400(client, engine, method, url):
    # Decoded with replacement characters, /working_memory/%FF and /working_memory/%FE
    # were one session "\ufffd": two clients' messages mixed.
    body = {"messages": [{"role": "user", "content": "hello", "user_id": "u"}]}
    r = await client.request(method, url, json=body if method == "POST" else None)
    assert r.status_code == 400, r.text
    assert r.headers["content-type"].startswith("application/problem+json")
    assert r.json()["code"] == "bad_request" and "UTF-8" in r.json()["detail"]
    assert r.json()["request_id"] == r.headers["x-request-id"]
    assert await count_rows(engine, "transcript_messages") == 0


async def test_url_with_percent_encoded_utf8_is_fine(client):
    r = await client.post(
        "/working_memory/caf%C3%A9%20%F0%9F%98%80/messages",
        json={"messages": [{"role": "user", "content": "hello", "user_id": "u"}]},
    )
    assert r.status_code == 200, r.text
    assert r.json()["session_id"] == "café 😀"
    r = await client.get("/memories?user_id=caf%C3%A9")
    assert r.status_code == 200, r.text
