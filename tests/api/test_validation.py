"""Bad input → a 4xx RFC 9457 problem+json with a stable ``code`` and a ``detail`` that names
the problem, and nothing written (docs/DEPLOY.md)."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from tests.conftest import count_rows

PROBLEM = "application/problem+json"


def unit(**over: Any) -> dict[str, Any]:
    return {"user_id": "u1", "value": "The user prefers window seats", **over}


@pytest.fixture
async def seeded(client: httpx.AsyncClient, engine) -> httpx.AsyncClient:
    """One unit already stored, so "nothing written" means the count stays at 1."""
    r = await client.post("/store", json={"memories": [unit(value="用户住在上海。")]})
    assert r.status_code == 200, r.text
    assert await count_rows(engine) == 1
    return client


def assert_problem(r: httpx.Response, status: int, code: str, *in_detail: str) -> dict[str, Any]:
    assert r.status_code == status, r.text
    assert r.headers["content-type"].startswith(PROBLEM), r.headers["content-type"]
    body = r.json()
    assert body["status"] == status
    assert body["code"] == code
    assert body["title"]
    for needle in in_detail:
        assert needle.lower() in body["detail"].lower(), body["detail"]
    return body


STORE_CASES = [
    ("empty value", [unit(value="")], "memories.0.value"),
    ("whitespace value", [unit(value=" \n\t\u3000 ")], "empty or whitespace"),
    # tester D8: zero-width space, joiner, BOM and word joiner alone were stored
    ("zero-width value", [unit(value="\u200b\u200d \ufeff\u2060")], "empty or whitespace"),
    ("NUL byte in value", [unit(value="peanut\x00allergy")], "NUL"),
    ("2001 characters", [unit(value="x" * 2001)], "at most 2,000 characters, got 2,001"),
    ("2001 CJK characters", [unit(value="用" * 2001)], "at most 2,000 characters, got 2,001"),
    ("101 units", [unit(value=f"fact number {i}") for i in range(101)], "100"),
    ("no units", [], "memories"),
    ("unknown type", [unit(type="opinion")], "memories.0.type"),
    ("unknown source", [unit(source="rumour")], "memories.0.source"),
    ("missing user_id", [{"value": "The user likes tea"}], "memories.0.user_id"),
    ("blank user_id", [unit(user_id="  ")], "memories.0.user_id"),
    ("NUL in user_id", [unit(user_id="u\x001")], "NUL"),
    # tester D12: " alice" was a second subject nobody finds again
    ("user_id with a leading space", [unit(user_id=" u1")], "begin or end with whitespace"),
    ("user_id with a trailing space", [unit(user_id="u1 ")], "begin or end with whitespace"),
    ("user_id too long", [unit(user_id="u" * 257)], "memories.0.user_id"),
    ("confidence above 1", [unit(confidence=1.5)], "memories.0.confidence"),
    ("ttl and expiry", [unit(ttl_days=3, expires_at="2030-01-01T00:00:00Z")], "not both"),
    ("unknown field", [unit(colour="blue")], "memories.0.colour"),
    ("NUL in metadata", [unit(metadata={"note": "a\x00b"})], "NUL"),
    ("NUL in metadata key", [unit(metadata={"a\x00": 1})], "NUL"),
    ("NUL in entity", [unit(entities=["Shang\x00hai"])], "NUL"),
    ("NUL in raw_ref", [unit(raw_ref="turn\x003")], "NUL"),
    ("NUL in query", [unit(query="when\x00ever")], "NUL"),
    ("one bad unit among good", [unit(value="The user likes tea"), unit(value="")], "memories.1"),
]


@pytest.mark.parametrize(
    ("memories", "detail"), [c[1:] for c in STORE_CASES], ids=[c[0] for c in STORE_CASES]
)
async def test_bad_store_is_422_and_writes_nothing(seeded, engine, memories, detail):
    r = await seeded.post("/store", json={"memories": memories})
    body = assert_problem(r, 422, "invalid_request", detail)
    assert body["errors"] and all({"loc", "msg", "type"} <= set(e) for e in body["errors"])
    assert await count_rows(engine) == 1


RAW_STORE_CASES = [
    # Escapes json.dumps would not produce from a valid str: a lone high surrogate, a lone
    # low one, and a reversed pair.
    ("unpaired high surrogate", r'{"memories":[{"user_id":"u1","value":"tea \ud83d"}]}'),
    ("unpaired low surrogate", r'{"memories":[{"user_id":"u1","value":"\ude00 tea"}]}'),
    ("reversed pair", r'{"memories":[{"user_id":"u1","value":"\ude00\ud83d"}]}'),
    (
        "surrogate in metadata",
        r'{"memories":[{"user_id":"u1","value":"tea","metadata":{"k":"\ud800"}}]}',
    ),
    ("NaN in metadata", '{"memories":[{"user_id":"u1","value":"tea","metadata":{"k":NaN}}]}'),
    ("Infinity confidence", '{"memories":[{"user_id":"u1","value":"tea","confidence":Infinity}]}'),
]


@pytest.mark.parametrize(
    "raw", [c[1] for c in RAW_STORE_CASES], ids=[c[0] for c in RAW_STORE_CASES]
)
async def test_invalid_unicode_and_numbers_are_4xx_and_write_nothing(seeded, engine, raw):
    r = await seeded.post("/store", content=raw, headers={"content-type": "application/json"})
    # 422 from our validators, or 400 when the JSON parser itself refuses the text.
    assert r.status_code in (400, 422), r.text
    code = "invalid_request" if r.status_code == 422 else "malformed_json"
    assert_problem(r, r.status_code, code)
    assert await count_rows(engine) == 1


async def test_surrogate_detail_names_the_problem(seeded, engine):
    raw = r'{"memories":[{"user_id":"u1","value":"tea \ud83d"}]}'
    r = await seeded.post("/store", content=raw, headers={"content-type": "application/json"})
    assert_problem(r, 422, "invalid_request", "memories.0.value", "surrogate")
    assert await count_rows(engine) == 1


async def test_a_valid_surrogate_pair_is_stored(client, engine):
    # The escaped pair \ud83d\ude00 is one emoji, valid Unicode: stored as such.
    raw = r'{"memories":[{"user_id":"u1","value":"The user likes \ud83d\ude00 emoji"}]}'
    r = await client.post("/store", content=raw, headers={"content-type": "application/json"})
    assert r.status_code == 200, r.text
    assert r.json()["results"][0]["memory"]["value"] == "The user likes \U0001f600 emoji"


@pytest.mark.parametrize(
    "raw",
    ['{"memories": [', '{"memories": [{"user_id": "u1", "value": "x",}]}', "not json", "\x00"],
    ids=["truncated", "trailing comma", "text", "NUL"],
)
async def test_malformed_json_is_400(seeded, engine, raw):
    r = await seeded.post("/store", content=raw, headers={"content-type": "application/json"})
    assert_problem(r, 400, "malformed_json", "not valid JSON")
    assert await count_rows(engine) == 1


async def test_exactly_the_limits_are_accepted(client, engine):
    # 100 units, one of exactly 2000 characters (mostly spaces: cheap to embed on a CPU).
    # The same fact for 99 users is one text to embed, counted once against
    # LIMITS__REQUEST_TOKENS (99 distinct ones would need ~650 tokens: split the batch).
    memories = [unit(user_id=f"u{i}", value="The user likes green tea") for i in range(99)]
    memories.append(unit(value="tea" + " " * 1994 + "end"))
    assert len(memories[-1]["value"]) == 2000
    r = await client.post("/store", json={"memories": memories})
    assert r.status_code == 200, r.text
    assert [x["outcome"] for x in r.json()["results"]] == ["created"] * 100
    assert await count_rows(engine) == 100


RECALL_CASES = [
    ("top_k 0", {"query": "tea", "user_id": "u1", "top_k": 0}, "top_k"),
    ("top_k 101", {"query": "tea", "user_id": "u1", "top_k": 101}, "top_k"),
    ("no subject", {"query": "tea"}, "user_id, agent_id, session_id"),
    ("blank subject", {"query": "tea", "user_id": " "}, "user_id"),
    ("empty query", {"query": "", "user_id": "u1"}, "query"),
    ("whitespace query", {"query": "   ", "user_id": "u1"}, "empty or whitespace"),
    ("NUL in query", {"query": "t\x00ea", "user_id": "u1"}, "NUL"),
    ("unknown type filter", {"query": "tea", "user_id": "u1", "types": ["opinion"]}, "types.0"),
    (
        "unknown time range",
        {"query": "tea", "user_id": "u1", "time_range": "last_year"},
        "time_range",
    ),
    (
        "since after until",
        {
            "query": "tea",
            "user_id": "u1",
            "since": "2030-01-02T00:00:00Z",
            "until": "2030-01-01T00:00:00Z",
        },
        "since must be before until",
    ),
    (
        "negative weight",
        {"query": "tea", "user_id": "u1", "weights": {"semantic": -1}},
        "weights.semantic",
    ),
    ("unknown field", {"query": "tea", "user_id": "u1", "topk": 3}, "topk"),
]


@pytest.mark.parametrize(
    ("body", "detail"), [c[1:] for c in RECALL_CASES], ids=[c[0] for c in RECALL_CASES]
)
async def test_bad_recall_is_422(seeded, engine, body, detail):
    r = await seeded.post("/recall", json=body)
    assert_problem(r, 422, "invalid_request", detail)
    assert await count_rows(engine) == 1


async def test_recall_malformed_json_is_400(seeded):
    r = await seeded.post("/recall", content="{", headers={"content-type": "application/json"})
    assert_problem(r, 400, "malformed_json")


async def test_bad_memory_id_is_422_and_unknown_is_404(seeded):
    assert_problem(await seeded.get("/memories/not-a-uuid"), 422, "invalid_request", "memory_id")
    assert_problem(
        await seeded.get("/memories/0190b8a4-7c1e-7000-8000-000000000000"), 404, "not_found"
    )


@pytest.mark.parametrize("key", ["", "k" * 257], ids=["empty", "257 chars"])
async def test_bad_idempotency_key_is_422(seeded, engine, key):
    r = await seeded.post("/store", json={"memories": [unit()]}, headers={"Idempotency-Key": key})
    assert_problem(r, 422, "invalid_request", "idempotency-key")
    assert await count_rows(engine) == 1


async def test_unknown_path_and_method_are_problems(seeded):
    assert_problem(await seeded.get("/nowhere"), 404, "not_found")
    assert_problem(await seeded.get("/store"), 405, "method_not_allowed")


async def test_a_405_lists_every_method_of_the_path(seeded):
    """RFC 9110 15.5.6: Allow names the methods the resource supports — every route of the
    path, not only the first one FastAPI's router tried (was ``Allow: GET`` for
    /memories/{id}, which also takes PATCH and DELETE)."""
    path = "/memories/01a23bcb-4a3e-75f9-8bdd-76252eabdbfc"
    r = await seeded.put(path)
    assert_problem(r, 405, "method_not_allowed")
    assert set(r.headers["allow"].split(", ")) >= {"GET", "PATCH", "DELETE"}
    assert "POST" not in r.headers["allow"]
    r = await seeded.request("OPTIONS", "/memories")
    assert set(r.headers["allow"].split(", ")) >= {"GET", "DELETE"}
    assert (await seeded.get("/store")).headers["allow"] == "POST"


# ---- body size limit (MAX_BODY_BYTES, default 1 MiB) -----------------------------------------


def big_store_body(size: int) -> bytes:
    body = json.dumps({"memories": [unit(value="x" * 2000)], "pad": "p" * size}).encode()
    assert len(body) > size
    return body


async def test_five_megabyte_body_is_413(seeded, engine):
    body = big_store_body(5 * 1024 * 1024)
    r = await seeded.post("/store", content=body, headers={"content-type": "application/json"})
    assert_problem(r, 413, "payload_too_large", "MAX_BODY_BYTES", "1048576")
    assert await count_rows(engine) == 1


async def test_streamed_body_without_length_is_413(seeded, engine):
    body = big_store_body(2 * 1024 * 1024)

    async def chunks():
        for k in range(0, len(body), 64 * 1024):
            yield body[k : k + 64 * 1024]

    r = await seeded.post("/store", content=chunks(), headers={"content-type": "application/json"})
    assert "content-length" not in r.request.headers
    assert_problem(r, 413, "payload_too_large", "MAX_BODY_BYTES")
    assert await count_rows(engine) == 1


async def test_large_recall_body_is_413(seeded):
    body = json.dumps({"query": "q" * (2 * 1024 * 1024), "user_id": "u1"}).encode()
    r = await seeded.post("/recall", content=body, headers={"content-type": "application/json"})
    assert_problem(r, 413, "payload_too_large")


async def test_body_just_under_the_limit_is_parsed(seeded, engine):
    # ~1 MB of valid JSON reaches validation (422 for the unknown field, not 413).
    body = json.dumps({"memories": [unit()], "pad": "p" * 1_000_000}).encode()
    assert len(body) < 1_048_576
    r = await seeded.post("/store", content=body, headers={"content-type": "application/json"})
    assert_problem(r, 422, "invalid_request", "pad")
    assert await count_rows(engine) == 1


async def test_a_transcript_over_the_character_limit_is_422_and_queues_nothing(seeded, engine):
    """Tester D10: ten messages of 90,000 characters (under every other limit) made one job
    that embedded for 20+ minutes in the background, where nothing could refuse it."""
    messages = [{"role": "user", "content": "I walked my dog today. " * 2300} for _ in range(2)]
    r = await seeded.post("/extract", json={"user_id": "u1", "messages": messages})
    body = assert_problem(r, 422, "invalid_request", "105,800 characters", "LIMITS__EXTRACT_CHARS")
    assert "split the transcript" in body["detail"]
    assert await count_rows(engine, "extraction_jobs") == 0
    assert await count_rows(engine) == 1


def test_a_transcript_at_the_character_limit_is_valid():
    from app.schemas.extract import ExtractRequest

    def request(chars: int) -> dict[str, Any]:
        return {"user_id": "u1", "messages": [{"role": "user", "content": "x" * (chars - 10)},
                                              {"role": "user", "content": "y" * 10}]}  # fmt: skip

    assert ExtractRequest.model_validate(request(100_000)).messages is not None
    with pytest.raises(ValueError, match="100,001 characters"):
        ExtractRequest.model_validate(request(100_001))
