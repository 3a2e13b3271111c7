"""Strict input: booleans and strings are not numbers, empty filters are refused, and every
refusal says what to fix (lengths with their limit and what was sent, the Content-Type to
send, invalid UTF-8, too deep nesting); nothing is written."""

from __future__ import annotations

import pytest

from tests.api.test_validation import assert_problem, unit
from tests.conftest import count_rows

STORE_TYPES = [
    ("confidence true", unit(confidence=True), "memories.0.confidence: must be a number, got a boolean"),  # noqa: E501
    ("confidence '0.5'", unit(confidence="0.5"), "memories.0.confidence: must be a number, got a string"),  # noqa: E501
    ("ttl_days '3'", unit(ttl_days="3"), "memories.0.ttl_days: must be a number, got a string"),
    ("value 42", unit(value=42), "memories.0.value: must be a string, got a number"),
    ("entities a string", unit(entities="Alice"), "memories.0.entities: must be an array, got a string"),  # noqa: E501
    ("metadata a list", unit(metadata=[1]), "memories.0.metadata: must be an object, got an array"),
    ("2,001 characters", unit(value="x" * 2001), "memories.0.value: at most 2,000 characters, got 2,001"),  # noqa: E501
    ("missing value", {"user_id": "u1"}, "memories.0.value: required"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("memory", "detail"), [c[1:] for c in STORE_TYPES], ids=[c[0] for c in STORE_TYPES]
)
async def test_store_types_are_strict(client, engine, memory, detail):
    r = await client.post("/store", json={"memories": [memory]})
    body = assert_problem(r, 422, "invalid_request", detail)
    assert body["errors"][0]["msg"] in detail
    assert await count_rows(engine) == 0


async def test_an_integer_is_a_valid_number(client):
    r = await client.post("/store", json={"memories": [unit(confidence=1, ttl_days=3)]})
    assert r.status_code == 200, r.text


RECALL_TYPES = [
    ("top_k true", {"top_k": True}, "top_k: must be an integer, got a boolean"),
    ("top_k '5'", {"top_k": "5"}, "top_k: must be an integer, got a string"),
    ("top_k 5.5", {"top_k": 5.5}, "top_k: must be an integer, got a number"),
    ("min_score '0.1'", {"min_score": "0.1"}, "min_score: must be a number, got a string"),
    ("include_archived 'true'", {"include_archived": "true"}, "must be true or false, got a string"),  # noqa: E501
    ("include_superseded 1", {"include_superseded": 1}, "must be true or false, got a number"),
    ("weights.semantic true", {"weights": {"semantic": True}}, "weights.semantic: must be a number"),  # noqa: E501
    ("types []", {"types": []}, "types: must not be empty (at least 1 item)"),
    ("entities []", {"entities": []}, "entities: must not be empty (at least 1 item)"),
    ("top_k 101", {"top_k": 101}, "top_k: at most 100, got 101"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("extra", "detail"), [c[1:] for c in RECALL_TYPES], ids=[c[0] for c in RECALL_TYPES]
)
async def test_recall_types_are_strict(client, extra, detail):
    r = await client.post("/recall", json={"query": "tea", "user_id": "u1", **extra})
    assert_problem(r, 422, "invalid_request", detail)


async def test_query_parameters_are_still_parsed_from_text(client):
    r = await client.get("/working_memory/s1", params={"max_tokens": "500"})
    assert r.status_code == 200, r.text
    r = await client.get("/memories", params={"user_id": "u1", "limit": "5", "types": "fact"})
    assert r.status_code == 200, r.text


@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded"])
async def test_a_body_that_is_not_json_by_content_type_is_415(client, engine, content_type):
    r = await client.post(
        "/store",
        content=b'{"memories": [{"user_id": "u1", "value": "tea"}]}',
        headers={"content-type": content_type},
    )
    body = assert_problem(r, 415, "unsupported_media_type", "send Content-Type: application/json")
    assert content_type in body["detail"]
    assert await count_rows(engine) == 0


async def test_json_content_types_are_accepted(client):
    body = b'{"memories": [{"user_id": "u1", "value": "tea"}]}'
    for content_type in ("application/json; charset=utf-8", "application/merge-patch+json"):
        r = await client.post("/store", content=body, headers={"content-type": content_type})
        assert r.status_code == 200, r.text


async def test_invalid_utf8_says_so(client, engine):
    raw = b'{"memories": [{"user_id": "u1", "value": "caf\xe9"}]}'  # Latin-1, not UTF-8
    r = await client.post("/store", content=raw, headers={"content-type": "application/json"})
    body = assert_problem(r, 400, "malformed_json", "body is not valid UTF-8", "byte 0xe9")
    assert "offset" in body["detail"]
    assert await count_rows(engine) == 0


async def test_deep_nesting_is_a_clear_400(client, engine):
    raw = b"[" * 100_000
    r = await client.post("/store", content=raw, headers={"content-type": "application/json"})
    assert_problem(r, 400, "malformed_json", "nests", "too deeply")
    r = await client.post(
        "/recall", content=b'{"query": "q", "user_id": "u", "weights": ' + b"[" * 100_000,
        headers={"content-type": "application/json"},
    )  # fmt: skip
    assert_problem(r, 400, "malformed_json")
    assert await count_rows(engine) == 0


async def test_an_integer_of_5000_digits_says_so(client, engine):
    # tester hbreak8 H22: valid JSON, but Python reads at most 4,300 digits of an integer;
    # the answer was the generic "There was an error parsing the body"
    raw = b'{"memories": [{"user_id": "u1", "value": "v", "confidence": ' + b"1" * 5000 + b"}]}"
    r = await client.post("/store", content=raw, headers={"content-type": "application/json"})
    assert_problem(r, 400, "malformed_json", "4,300 digits")
    assert await count_rows(engine) == 0
