"""One situation, one answer (issue 31): a body without a JSON Content-Type is the same 415
whether the header is missing or wrong; a time without its UTC offset is a 422 on every
field that takes one; NaN and Infinity are "not a finite number" wherever a number goes; an
unknown session is an empty one on every working-memory operation (never a 404)."""

from __future__ import annotations

import json
import uuid
from datetime import UTC, datetime
from pathlib import Path

import pytest

from tests.conftest import count_rows

PROBLEM = "application/problem+json"
UNIT = {"memories": [{"user_id": "u1", "value": "The user prefers window seats"}]}


def assert_problem(r, status: int, code: str, *in_detail: str) -> dict:
    assert r.status_code == status, r.text
    assert r.headers["content-type"].startswith(PROBLEM)
    body = r.json()
    assert body["code"] == code, body
    for needle in in_detail:
        assert needle in body["detail"], body["detail"]
    return body


@pytest.mark.parametrize("content_type", [None, "text/plain", "application/x-www-form-urlencoded"])
@pytest.mark.parametrize(
    "path",
    ["/store", "/recall", "/working_memory/s1/messages", "/working_memory/s1/close", "/extract"],
)
async def test_a_body_without_json_content_type_is_one_415(client, engine, path, content_type):
    body = json.dumps(UNIT).encode()
    headers = {} if content_type is None else {"content-type": content_type}
    r = await client.post(path, content=body, headers=headers)
    got = "none was sent" if content_type is None else repr(content_type)
    assert_problem(r, 415, "unsupported_media_type", "send Content-Type: application/json", got)
    assert await count_rows(engine) == 0


def _body_operations() -> list[tuple[str, str]]:
    """Every operation of docs/OpenAPI that takes a JSON body, path ids filled in."""
    spec = json.loads((Path(__file__).resolve().parents[2] / "docs" / "openapi.json").read_text())
    ids = {"{memory_id}": str(uuid.uuid4()), "{review_id}": str(uuid.uuid4()),
           "{session_id}": "s1"}  # fmt: skip
    out = []
    for path, ops in spec["paths"].items():
        for method, op in ops.items():
            if "requestBody" in op:
                for key, value in ids.items():
                    path = path.replace(key, value)
                out.append((method.upper(), path))
    return out


@pytest.mark.parametrize("content_type", [None, "text/plain"])
@pytest.mark.parametrize(("method", "path"), _body_operations())
async def test_every_operation_with_a_body_answers_the_same_415(
    client, engine, method, path, content_type
):
    headers = {} if content_type is None else {"content-type": content_type}
    r = await client.request(method, path, content=json.dumps(UNIT).encode(), headers=headers)
    assert_problem(r, 415, "unsupported_media_type", "send Content-Type: application/json")
    assert await count_rows(engine) == 0


async def test_no_body_at_all_is_still_a_422_required(client):
    r = await client.post("/store")
    assert_problem(r, 422, "invalid_request", "body: required")
    # A body that may be left out may be left out without a Content-Type too.
    r = await client.post("/working_memory/nothing-here/close")
    assert r.status_code == 200, r.text


NAIVE = "2026-03-14T09:00:00"
NAIVE_CASES = [
    ("/store", {"memories": [{"user_id": "u1", "value": "v", "occurred_at": NAIVE}]},
     "memories.0.occurred_at"),
    ("/store", {"memories": [{"user_id": "u1", "value": "v", "expires_at": NAIVE}]},
     "memories.0.expires_at"),
    ("/store", {"memories": [{"user_id": "u1", "value": "v", "occurred_at": "2026-03-14"}]},
     "memories.0.occurred_at"),
    ("/recall", {"query": "q", "user_id": "u1", "now": NAIVE}, "now"),
    ("/recall", {"query": "q", "user_id": "u1", "since": NAIVE}, "since"),
    ("/working_memory/s1/messages",
     {"messages": [{"role": "user", "content": "hi", "created_at": NAIVE}]},
     "messages.0.created_at"),
    ("/working_memory/s1/close", {"now": NAIVE}, "now"),
    ("/extract", {"user_id": "u1", "messages": [{"role": "user", "content": "x"}], "now": NAIVE},
     "now"),
    ("/summarize", {"user_id": "u1", "until": NAIVE}, "until"),
]  # fmt: skip


@pytest.mark.parametrize(("path", "body", "where"), NAIVE_CASES)
async def test_a_time_without_offset_is_422_everywhere(client, engine, path, body, where):
    r = await client.post(path, json=body)
    assert_problem(r, 422, "invalid_request", f"{where}: must give its UTC offset", "Z")
    assert await count_rows(engine) == 0
    assert await count_rows(engine, "transcript_messages") == 0


async def test_a_time_without_offset_in_a_query_string_is_422(client):
    r = await client.get("/memories", params={"user_id": "u1", "since": NAIVE})
    assert_problem(r, 422, "invalid_request", "since: must give its UTC offset")
    r = await client.get("/memories", params={"user_id": "u1", "since": NAIVE + "Z"})
    assert r.status_code == 200, r.text


async def test_times_with_an_offset_are_kept_as_sent(client):
    unit = {"user_id": "u1", "value": "The user landed in Shanghai",
            "occurred_at": "2026-03-14T17:00:00+08:00"}  # fmt: skip
    r = await client.post("/store", json={"memories": [unit]})
    assert r.status_code == 200, r.text
    occurred = datetime.fromisoformat(r.json()["results"][0]["memory"]["occurred_at"])
    assert occurred == datetime(2026, 3, 14, 9, 0, tzinfo=UTC)


@pytest.mark.parametrize("literal", ["NaN", "Infinity", "-Infinity"])
async def test_non_finite_numbers_are_not_finite_numbers(client, engine, literal):
    # Python's JSON parser accepts these literals; every number field refuses them by name.
    cases = [
        ("/recall", '{"query": "q", "user_id": "u1", "weights": {"semantic": %s}}',
         "weights.semantic: not a finite number"),
        ("/recall", '{"query": "q", "user_id": "u1", "min_score": %s}',
         "min_score: not a finite number"),
        ("/store", '{"memories": [{"user_id": "u1", "value": "v", "confidence": %s}]}',
         "memories.0.confidence: not a finite number"),
        ("/store", '{"memories": [{"user_id": "u1", "value": "v", "ttl_days": %s}]}',
         "memories.0.ttl_days: not a finite number"),
        ("/store", '{"memories": [{"user_id": "u1", "value": "v", "metadata": {"w": %s}}]}',
         "not a finite number"),
    ]  # fmt: skip
    for path, template, detail in cases:
        r = await client.post(
            path, content=template % literal, headers={"content-type": "application/json"}
        )
        assert_problem(r, 422, "invalid_request", detail)
    assert await count_rows(engine) == 0


async def test_an_unknown_session_is_empty_on_every_operation(wm, engine):
    c = wm.client
    r = await c.get("/working_memory/never-seen")
    assert r.status_code == 200 and r.json()["messages"] == [] and r.json()["window_messages"] == 0
    r = await c.get("/working_memory/never-seen", params={"query": "anything", "max_tokens": 50})
    assert r.status_code == 200 and r.json()["messages"] == []
    r = await c.delete("/working_memory/never-seen")
    assert r.status_code == 200 and r.json()["window_cleared"] is False
    r = await c.delete("/working_memory/never-seen", params={"purge": "true"})
    assert r.status_code == 200 and r.json()["transcript_purged"] == 0
    r = await c.post("/working_memory/never-seen/close", json={"user_id": "u1"})
    assert r.status_code == 200, r.text
    assert r.json()["closed"] is False and r.json()["created"] is False
    assert r.json()["job"] is None
    r = await c.get("/context", params={"user_id": "u1", "session_id": "never-seen"})
    assert r.status_code == 200 and r.json()["parts"]["window"] == []
    r = await c.post("/extract", json={"user_id": "u1", "session_id": "never-seen"})
    assert_problem(r, 422, "invalid_request", "no messages to extract")
    # Reading, clearing and closing wrote nothing: the session still does not exist.
    assert await count_rows(engine, "working_memory_sessions") == 0
    assert await count_rows(engine, "extraction_jobs") == 0


async def test_an_unknown_session_is_an_empty_filter_everywhere(client):
    """Where a session narrows a list or a recall, an unknown one is an empty answer (200),
    as on the working-memory operations, never a 404."""
    never = {"user_id": "u1", "session_id": "never-seen"}
    r = await client.post("/store", json={"memories": [{"user_id": "u1", "value": "Tea"}]})
    assert r.status_code == 200, r.text
    for path, key in (("/memories", "memories"), ("/entities", "entities"), ("/extract", "jobs")):
        r = await client.get(path, params=never)
        assert r.status_code == 200, (path, r.text)
        assert r.json()[key] == [], (path, r.json())
    r = await client.post("/recall", json={"query": "tea", **never})
    assert r.status_code == 200 and r.json()["memories"] == [], r.text
