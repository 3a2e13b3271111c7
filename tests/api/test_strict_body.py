"""A JSON body that gives one key twice in an object is a 422 that changes nothing (tester
finding C1: ``{"user_id": "alice", "user_id": "bob"}`` was served as bob's while a gateway
that authorises on the first value reads alice) — at any depth, on every route."""

from __future__ import annotations

from app.api.strict_body import duplicate_keys
from tests.api.test_validation import assert_problem
from tests.conftest import count_rows

H = {"content-type": "application/json"}


def test_duplicate_keys_are_found_with_their_path():
    assert duplicate_keys(b'{"a": 1, "b": [{"c": 1}, {"c": 2, "c": 3}], "a": 2}') == [
        ((), "a"),
        (("b", 1), "c"),
    ]
    assert duplicate_keys(b'{"a": {"b": 1}, "c": {"b": 2}}') == []  # same key, two objects
    assert duplicate_keys(b"not json") == []


async def test_a_key_given_twice_in_a_body_is_refused_not_the_last_taken(client, engine):
    r = await client.post("/store", json={"memories": [{"user_id": "bob", "value": "Bob is 40."}]})
    assert r.status_code == 200, r.text
    before = await count_rows(engine)
    recall = b'{"query": "age", "user_id": "alice", "user_id": "bob", "top_k": 1}'
    r = await client.post("/recall", content=recall, headers=H)
    body = assert_problem(r, 422, "invalid_request", "user_id: given more than once")
    assert body["errors"][0]["loc"] == ["body", "user_id"]

    store = b'{"memories": [{"user_id": "alice", "user_id": "bob", "value": "dup key"}]}'
    r = await client.post("/store", content=store, headers=H)
    body = assert_problem(r, 422, "invalid_request", "given more than once")
    assert body["errors"][0]["loc"] == ["body", "memories", 0, "user_id"]
    assert await count_rows(engine) == before  # nothing written

    append = b'{"messages": [{"role": "user", "content": "hi", "content": "bye"}]}'
    r = await client.post("/working_memory/s1/messages?user_id=bob", content=append, headers=H)
    assert_problem(r, 422, "invalid_request", "given more than once")
    assert await count_rows(engine, "transcript_messages") == 0
    # The same key in two objects is no duplicate.
    ok = b'{"memories": [{"user_id": "bob", "value": "runs"}, {"user_id": "bob", "value": "x"}]}'
    assert (await client.post("/store", content=ok, headers=H)).status_code == 200


async def test_a_body_is_utf8_and_uncompressed(client, engine):
    # Tester C6: a UTF-16 body was decoded and acted on (json.loads on bytes takes UTF-16/32),
    # out of sight of a filter that reads UTF-8; a gzip body was called "not valid UTF-8".
    text = '{"memories": [{"user_id": "z", "value": "utf16 test"}]}'
    for encoded in (text.encode("utf-16"), text.encode("utf-16-le"), text.encode("utf-32")):
        r = await client.post("/store", content=encoded, headers=H)
        body = assert_problem(r, 400, "malformed_json", "body is not valid UTF-8")
        assert "UTF-8" in body["detail"]
    assert await count_rows(engine) == 0
    import gzip

    r = await client.post(
        "/store", content=gzip.compress(text.encode()), headers={**H, "content-encoding": "gzip"}
    )
    assert_problem(r, 415, "unsupported_media_type", "Content-Encoding 'gzip' is not accepted")
    assert await count_rows(engine) == 0
    # A UTF-8 byte order mark is tolerated.
    r = await client.post("/store", content=b"\xef\xbb\xbf" + text.encode(), headers=H)
    assert r.status_code == 200, r.text
