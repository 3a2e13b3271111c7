"""``Idempotency-Key`` on a working-memory append and on ``POST /extract`` (tester finding T25:
both accepted the header and ignored it, so a retried append duplicated its message and a
retried /extract queued a second job). As on ``POST /store``: the same key and request answer
the first answer without acting again; the same key with another request is a 422."""

from __future__ import annotations

import asyncio

from sqlalchemy import text

from tests.api.test_validation import assert_problem

MESSAGE = {"role": "user", "content": "I need a flight to Tokyo.", "user_id": "u1"}


async def _count(engine, table: str) -> int:
    async with engine.connect() as conn:
        return int((await conn.execute(text(f"SELECT count(*) FROM {table}"))).scalar_one())


async def test_a_retried_append_appends_once(client, engine):
    headers = {"Idempotency-Key": "same-key-1"}
    body = {"messages": [MESSAGE]}
    first = await client.post("/working_memory/idem-wm1/messages", json=body, headers=headers)
    assert first.status_code == 200, first.text
    assert first.headers["Idempotent-Replayed"] == "false"
    again = await client.post("/working_memory/idem-wm1/messages", json=body, headers=headers)
    assert (again.status_code, again.headers["Idempotent-Replayed"]) == (200, "true")
    assert again.json() == first.json() and first.json()["seqs"] == [1]
    assert await _count(engine, "transcript_messages") == 1
    window = (await client.get("/working_memory/idem-wm1")).json()
    assert [m["seq"] for m in window["messages"]] == [1]
    # Another body, another session or another scope with the key: refused, nothing appended.
    other = {"messages": [{**MESSAGE, "content": "Make it Osaka."}]}
    for path, json, params in [
        ("/working_memory/idem-wm1/messages", other, {}),
        ("/working_memory/idem-wm2/messages", body, {}),
        ("/working_memory/idem-wm1/messages", body, {"user_id": "u1"}),
    ]:
        r = await client.post(path, json=json, params=params, headers=headers)
        assert_problem(r, 422, "idempotency_key_reused", "same-key-1")
    assert await _count(engine, "transcript_messages") == 1
    # Without a key the same append is a new one.
    r = await client.post("/working_memory/idem-wm1/messages", json=body)
    assert r.json()["seqs"] == [2] and "Idempotent-Replayed" not in r.headers


async def test_concurrent_retries_of_an_append_act_once(client, engine):
    body = {"messages": [MESSAGE]}
    answers = await asyncio.gather(
        *(
            client.post(
                "/working_memory/idem-wm3/messages", json=body, headers={"Idempotency-Key": "k"}
            )
            for _ in range(3)
        )
    )
    assert sorted(r.headers["Idempotent-Replayed"] for r in answers) == ["false", "true", "true"]
    assert {tuple(r.json()["seqs"]) for r in answers} == {(1,)}
    assert await _count(engine, "transcript_messages") == 1


async def test_a_retried_extract_makes_one_job(client, engine):
    headers = {"Idempotency-Key": "extract-1"}
    body = {"user_id": "u1", "messages": [{"role": "user", "content": "I live in Lisbon."}]}
    first = await client.post("/extract", json=body, headers=headers)
    assert first.status_code == 202, first.text
    again = await client.post("/extract", json=body, headers=headers)
    assert (again.status_code, again.headers["Idempotent-Replayed"]) == (202, "true")
    assert again.json() == first.json()
    assert (
        again.headers["Location"] == first.headers["Location"] == f"/extract/{first.json()['id']}"
    )
    assert await _count(engine, "extraction_jobs") == 1
    r = await client.post("/extract", json={**body, "user_id": "u2"}, headers=headers)
    assert_problem(r, 422, "idempotency_key_reused", "extract-1")
    r = await client.post("/extract", json=body, params={"wait": "true"}, headers=headers)
    assert_problem(r, 422, "idempotency_key_reused")
    assert await _count(engine, "extraction_jobs") == 1
