"""Extraction through an LLM: a real HTTP server on 127.0.0.1 (tests/fake_llm.py) answers the
OpenAI chat API with scripted replies. Valid JSON, fenced JSON, truncated JSON, an empty
reply, HTTP 500 then success, a timeout: in every case the transcript is kept and the job
state is right."""

from __future__ import annotations

import json

import httpx
import pytest
from sqlalchemy import text

from app.core.config import LLMSettings, Settings, WorkerSettings
from tests.conftest import count_rows, running_app, truncate_queue
from tests.fake_llm import Reply, units_json

MESSAGES = [
    {"role": "user", "content": "I moved to Berlin last month. Never book me on red-eye flights."},
    {"role": "assistant", "content": "Understood."},
]
PEANUT = {
    "type": "constraint",
    "value": "The user is allergic to peanuts.",
    "query": "When suggesting food or restaurants",
    "entities": ["peanuts"],
    "confidence": 0.95,
    "source_turns": [0],
}
BERLIN = {
    "type": "fact",
    "value": "The user lives in Berlin.",
    "query": "When a task depends on where the user lives",
    "entities": ["Berlin"],
    "confidence": 0.9,
    "occurred_at": "2026-10-15",
    "source_turns": [0],
}


@pytest.fixture
async def llm(llm_app, fake_llm, engine):  # type: ignore[no-untyped-def]
    await truncate_queue(engine)
    return llm_app


async def extract(client: httpx.AsyncClient, user: str = "u1", messages=MESSAGES) -> dict:  # type: ignore[no-untyped-def]
    r = await client.post(
        "/extract?wait=true",
        json={"user_id": user, "messages": messages, "timezone": "Europe/Berlin",
              "now": "2026-11-25T09:00:00Z"},
    )  # fmt: skip
    assert r.status_code == 200, r.text
    return r.json()


async def stored_transcript(engine, job_id: str) -> list[dict]:  # type: ignore[no-untyped-def]
    async with engine.connect() as conn:
        row = await conn.execute(
            text("SELECT transcript FROM extraction_jobs WHERE id = :id"), {"id": job_id}
        )
        return row.scalar_one()


async def test_valid_json_reply(llm, fake_llm, engine):
    fake_llm.push(Reply(content=units_json(PEANUT, BERLIN)))
    job = await extract(llm)
    assert job["status"] == "succeeded" and job["attempts"] == 1
    assert job["extractor"] == "llm:test-model"
    assert sorted(u["outcome"] for u in job["units"]) == ["created", "created"]
    assert await count_rows(engine) == 2
    body = fake_llm.requests[0]
    assert body["model"] == "test-model" and body["response_format"] == {"type": "json_object"}
    system = body["messages"][0]["content"]
    assert "u1" in system and "Europe/Berlin" in system and "2026-11-25T10:00" in system
    assert "good:" in system and "bad:" in system  # the trigger-scenario examples
    berlin = next(u for u in job["units"] if "Berlin" in u["value"])
    mem = (await llm.get(f"/memories/{berlin['memory_id']}")).json()
    assert mem["occurred_at"].startswith("2026-10-14T22:00:00")  # a date = local midnight
    assert mem["source"] == "extraction" and mem["raw_ref"] == [f"job:{job['id']}#0"]


async def test_json_in_code_fences(llm, fake_llm, engine):
    fake_llm.push(Reply(content="Here you go:\n```json\n" + units_json(PEANUT) + "\n```\n"))
    job = await extract(llm)
    assert job["status"] == "succeeded"
    assert [u["value"] for u in job["units"]] == ["The user is allergic to peanuts."]
    assert await count_rows(engine) == 1


async def test_truncated_json_is_never_half_written(llm, fake_llm, engine):
    truncated = units_json(PEANUT, BERLIN)[:-40]
    fake_llm.default = Reply(content=truncated)
    job = await extract(llm)
    # 2 attempts x (1 + 1 parse retry) requests, then failed with the transcript kept.
    assert job["status"] == "failed" and job["attempts"] == 2
    assert job["error_code"] == "provider_bad_reply"
    assert len(job["error_history"]) == 2
    assert len(fake_llm.requests) == 4
    assert await count_rows(engine) == 0  # not even the complete first unit
    assert [m["content"] for m in await stored_transcript(engine, job["id"])] == [
        m["content"] for m in MESSAGES
    ]
    # The repair request shows the model its bad reply.
    assert fake_llm.requests[1]["messages"][-2]["content"] == truncated

    fake_llm.default = Reply(content=units_json(PEANUT))
    r = await llm.post(f"/extract/{job['id']}/retry")
    assert r.status_code == 202 and r.json()["status"] == "queued"
    app = llm._transport.app  # type: ignore[attr-defined]
    assert await app.state.extraction.runner.run_inline(job["id"], 10) == "succeeded"
    done = (await llm.get(f"/extract/{job['id']}")).json()
    assert done["status"] == "succeeded" and done["error"] is None
    assert len(done["error_history"]) == 2  # history kept
    assert await count_rows(engine) == 1


async def test_empty_reply_then_valid(llm, fake_llm, engine):
    fake_llm.push(Reply(content=""), Reply(content=units_json(PEANUT)))
    job = await extract(llm)
    assert job["status"] == "succeeded" and job["attempts"] == 1
    assert len(fake_llm.requests) == 2
    assert await count_rows(engine) == 1


async def test_http_500_then_success(llm, fake_llm, engine):
    fake_llm.push(Reply(status=500), Reply(content=units_json(PEANUT)))
    job = await extract(llm)
    assert job["status"] == "succeeded" and job["attempts"] == 1
    assert len(fake_llm.requests) == 2
    assert await count_rows(engine) == 1


async def test_http_500_every_time_fails_with_transcript_kept(llm, fake_llm, engine):
    fake_llm.default = Reply(status=503)
    job = await extract(llm)
    assert job["status"] == "failed" and job["error_code"] == "provider_error"
    assert "503" in job["error"]
    assert len(await stored_transcript(engine, job["id"])) == 2
    assert await count_rows(engine) == 0


async def test_timeout_then_success_on_the_next_attempt(llm, fake_llm, engine):
    # Attempt 1: two requests (1 retry) each slower than the 0.5 s timeout.
    fake_llm.push(Reply(content=units_json(PEANUT), delay_s=1.0),
                  Reply(content=units_json(PEANUT), delay_s=1.0),
                  Reply(content=units_json(PEANUT)))  # fmt: skip
    job = await extract(llm)
    assert job["status"] == "succeeded" and job["attempts"] == 2
    assert [e["code"] for e in job["error_history"]] == ["provider_timeout"]
    assert await count_rows(engine) == 1


async def test_timeout_every_time_fails(llm, fake_llm, engine):
    fake_llm.default = Reply(content=units_json(PEANUT), delay_s=1.0)
    job = await extract(llm)
    assert job["status"] == "failed" and job["error_code"] == "provider_timeout"
    assert job["attempts"] == 2 and job["finished_at"]
    assert len(await stored_transcript(engine, job["id"])) == 2
    assert await count_rows(engine) == 0


async def test_invalid_units_are_rejected_one_by_one(llm, fake_llm, engine):
    bad_type = {**BERLIN, "type": "opinion"}
    low = {**BERLIN, "value": "The user might like jazz.", "confidence": 0.3}
    fake_llm.push(Reply(content=units_json(PEANUT, bad_type, {"value": ""}, low)))
    job = await extract(llm)
    outcomes = sorted(u["outcome"] for u in job["units"])
    assert outcomes == ["created", "dropped", "rejected", "rejected"]
    assert await count_rows(engine) == 1


async def test_chinese_units_from_the_llm_stay_chinese(llm, fake_llm, engine):
    unit = {"type": "constraint", "value": "用户对花生过敏。", "query": "当推荐餐厅或菜谱时",
            "entities": ["花生"], "confidence": 0.95}  # fmt: skip
    fake_llm.push(Reply(content=units_json(unit)))
    job = await extract(llm, messages=[{"role": "user", "content": "我对花生过敏。"}])
    assert job["units"][0]["value"] == "用户对花生过敏。"
    sent = json.dumps(fake_llm.requests[0]["messages"], ensure_ascii=False)
    assert "我对花生过敏" in sent


async def test_prefilter_skips_the_main_model(fake_llm, database_url, engine):
    settings = Settings(
        database_url=database_url,
        llm=LLMSettings(base_url=fake_llm.base_url, model="big", prefilter_model="small",
                        timeout_s=2, max_retries=0),
        worker=WorkerSettings(in_process=False),
    )  # fmt: skip
    fake_llm.reset()
    fake_llm.push(Reply(content='{"worth_extracting": false}'))
    async with running_app(settings) as (_, c):
        job = await extract(c, messages=[{"role": "user", "content": "hello there"}])
    assert job["status"] == "succeeded" and job["units"] == []
    assert [r["model"] for r in fake_llm.requests] == ["small"]


async def test_a_long_transcript_goes_to_the_llm_in_slices(llm, fake_llm, engine):
    """Three ~4,000-token messages with EXTRACTION__WINDOW_TOKENS 6,000: three calls, each
    seeing its own slice and the messages before it as context only; the units of every
    slice pass the same checks and are stored."""
    filler = " ".join(["logline"] * 4000)
    messages = [
        {"role": "user", "content": f"I am allergic to peanuts. {filler}"},
        {"role": "assistant", "content": f"Report A. {filler}"},
        {"role": "user", "content": f"I moved to Berlin. {filler}"},
    ]
    fake_llm.push(
        Reply(content=units_json(PEANUT)),
        Reply(content=units_json()),
        Reply(content=units_json({**BERLIN, "source_turns": [2]}, {**PEANUT, "confidence": 0.3})),
    )
    r = await llm.post("/extract?wait=true", json={"user_id": "u1", "messages": messages})
    assert r.status_code == 200, r.text
    job = r.json()
    assert job["status"] == "succeeded"
    prompts = [req["messages"][1]["content"] for req in fake_llm.requests]
    assert len(prompts) == 3
    assert "Earlier messages" not in prompts[0] and "Report A" not in prompts[0]
    assert "Earlier messages" in prompts[2] and "[2] user" in prompts[2].split("Conversation:")[1]
    assert "[1] assistant" in prompts[2].split("Conversation:")[0]  # context, not to extract
    # the third slice's low-confidence unit meets the same floor as any other
    assert [(u["value"], u["outcome"]) for u in job["units"]] == [
        ("The user is allergic to peanuts.", "created"),
        ("The user lives in Berlin.", "created"),
        ("The user is allergic to peanuts.", "dropped"),
    ]
    assert await count_rows(engine) == 2
    berlin = next(u for u in job["units"] if "Berlin" in u["value"])
    mem = (await llm.get(f"/memories/{berlin['memory_id']}")).json()
    assert mem["raw_ref"] == [f"job:{job['id']}#2"]


async def test_retry_of_another_users_job_is_a_404_and_changes_nothing(llm, fake_llm, engine):
    """``POST /extract/{id}/retry`` takes the ``user_id`` scope its siblings take (it was a
    422 unknown parameter): another user's job is the 404 of an unknown job, still failed."""
    fake_llm.default = Reply(content=units_json(PEANUT)[:-40])
    job = await extract(llm, user="alice")
    assert job["status"] == "failed", job
    missing = "00000000-0000-0000-0000-000000000000"
    for job_id in (job["id"], missing):
        r = await llm.post(f"/extract/{job_id}/retry", params={"user_id": "bob"})
        assert r.status_code == 404, r.text
        problem = r.json()
        assert problem["code"] == "not_found" and problem["detail"] == f"no extraction job {job_id}"
    got = (await llm.get(f"/extract/{job['id']}", params={"user_id": "alice"})).json()
    assert got["status"] == "failed" and got["attempts"] == job["attempts"]
    r = await llm.post(f"/extract/{job['id']}/retry", params={"user_id": "alice"})
    assert r.status_code == 202 and r.json()["status"] == "queued", r.text
