"""The unsure zone end to end: ``/store`` answers from the offline decision without calling
the LLM and says a decision is pending; the reconciliation job (pgqueuer, the extraction
queue) asks the scripted LLM on 127.0.0.1 afterwards and merges, supersedes or keeps both,
exactly once — with two workers racing, a worker killed mid-decision (in process and as a
real SIGKILLed process) and a late run fenced off; a merged unit's old id resolves to the
unit it went into; a negation never merges whatever the LLM answers; without an LLM the pair
is listed by ``GET /memories?review=pending``."""

from __future__ import annotations

import asyncio
import signal
import subprocess
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from sqlalchemy import text

from app.clients.llm import create_llm
from app.core.config import LLMSettings, Settings, WorkerSettings
from app.core.db import create_session_factory
from app.repositories.memory.reviews import PairReviewRepository
from app.services.memory.conflict_judge import LLMPairJudge
from app.services.memory.reconcile import ReconcileRunner
from tests.conftest import running_app, truncate_queue
from tests.fake_llm import FakeLLM, Reply
from tests.processes import terminate
from tests.worker.test_worker import start_worker, wait_for

SAME = Reply(content='{"verdict": "same"}')
CONTRADICTS = Reply(content='{"verdict": "contradicts"}')
# A label and its definition: the local decision is unsure and, at cosine 0.97, a real
# candidate for review (docs/DEDUPE.md).
# A label and a restatement the offline decision cannot place (unsure, reviewed at cosine 0.967)
LABEL = "The user is bilingual in English and French"
DEFINITION = "The user speaks English and French fluently"


def judge_settings(database_url: str, fake_llm: FakeLLM, **worker: Any) -> Settings:
    return Settings(
        database_url=database_url,
        llm=LLMSettings(base_url=fake_llm.base_url, model="judge", timeout_s=30, max_retries=0),
        worker=WorkerSettings(in_process=False, lease_s=1, backoff_initial_s=0, **worker),
    )


@pytest.fixture(scope="module")
async def llm_client(database_url, fake_llm_server) -> AsyncIterator[httpx.AsyncClient]:  # type: ignore[no-untyped-def]
    """The API with an LLM configured (the worker not in process: tests run the jobs)."""
    async with running_app(judge_settings(database_url, fake_llm_server)) as (_, c):
        yield c


@pytest.fixture
async def runner(engine, database_url, fake_llm) -> AsyncIterator[ReconcileRunner]:  # type: ignore[no-untyped-def]
    await truncate_queue(engine)
    settings = judge_settings(database_url, fake_llm, max_attempts=2)
    client = create_llm(settings.llm)
    assert client is not None
    yield ReconcileRunner(create_session_factory(engine), LLMPairJudge(client), settings)
    await client.aclose()


async def store(client: httpx.AsyncClient, value: str, user: str = "u1", **kw: Any) -> dict:
    r = await client.post("/store", json={"memories": [{"user_id": user, "value": value, **kw}]})
    assert r.status_code == 200, r.text
    return r.json()["results"][0]


async def unsure_pair(client: httpx.AsyncClient, user: str = "u1") -> tuple[dict, dict]:
    old = await store(client, LABEL, user)
    new = await store(client, DEFINITION, user)
    assert new["outcome"] == "created" and len(new["pending"]) == 1, new
    return old, new


async def scalar(engine, sql: str, **params: Any) -> Any:  # type: ignore[no-untyped-def]
    async with engine.connect() as conn:
        return (await conn.execute(text(sql), params)).scalar_one()


async def test_store_answers_without_the_llm_and_queues_the_decision(
    llm_client, runner, fake_llm, engine
):
    old, new = await unsure_pair(llm_client)
    [pending] = new["pending"]
    assert pending["status"] == "queued" and pending["candidate_id"] == old["id"]
    assert fake_llm.requests == []  # nothing asked inside the request
    queued = "SELECT count(*) FROM pgqueuer WHERE entrypoint = 'hindsight.reconcile'"
    assert await scalar(engine, queued) == 1


async def test_same_merges_after_the_response_and_the_old_id_resolves(
    llm_client, runner, fake_llm, engine
):
    old, new = await unsure_pair(llm_client)
    assert fake_llm.requests == []  # /store asked nothing
    fake_llm.push(SAME)
    result = await runner.run_once(new["pending"][0]["review_id"])
    assert (result.status, result.action) == ("decided", "merge")
    prompt = fake_llm.requests[-1]["messages"][-1]["content"]
    assert f"OLD: {LABEL}" in prompt and f"NEW: {DEFINITION}" in prompt

    resolved = (await llm_client.get(f"/memories/{new['id']}")).json()
    assert resolved["id"] == old["id"] and resolved["status"] == "active"
    history = (await llm_client.get(f"/memories/{old['id']}/history")).json()["memories"]
    merged = next(m for m in history if m["id"] == new["id"])
    assert merged["status"] == "merged" and merged["merged_into"] == old["id"]
    assert await scalar(engine, "SELECT count(*) FROM memory_units WHERE status = 'active'") == 1
    assert await scalar(engine, "SELECT merge_count FROM memory_units WHERE id = :i",
                        i=old["id"]) == 1  # fmt: skip
    # exactly once: a repeated delivery of the same entry changes nothing
    again = await runner.run_once(new["pending"][0]["review_id"])
    assert again.status == "decided" and again.action is None and len(fake_llm.requests) == 1
    query = {"query": "which hand does the user write with?", "user_id": "u1"}
    hits = (await llm_client.post("/recall", json=query)).json()["memories"]
    assert [h["id"] for h in hits] == [old["id"]]


async def test_contradicts_supersedes_with_the_history_kept(llm_client, runner, fake_llm, engine):
    # ("lives in Shanghai" / "住在北京" is decided offline: one slot, other values, every other
    # word matched through CC-CEDICT; "works in" names no slot in English: unsure)
    a = await store(llm_client, "The user works in Shanghai", occurred_at="2026-01-05T00:00:00Z")
    b = await store(llm_client, "用户在北京工作", occurred_at="2026-06-05T00:00:00Z")
    assert b["outcome"] == "created" and b["pending"], b  # two languages: unsure
    fake_llm.push(CONTRADICTS)
    result = await runner.run_once(b["pending"][0]["review_id"])
    assert (result.status, result.action) == ("decided", "superseded")
    old = (await llm_client.get(f"/memories/{a['id']}")).json()
    assert old["status"] == "superseded" and old["superseded_by"] == b["id"]
    assert await scalar(engine, "SELECT count(*) FROM memory_units") == 2


async def test_a_negation_never_merges_whatever_the_llm_answers(
    llm_client, runner, fake_llm, engine
):
    # Same language: decided offline (no LLM call at all), never merged.
    a = await store(llm_client, "The user likes cilantro", occurred_at="2026-01-01T00:00:00Z")
    b = await store(llm_client, "The user does not like cilantro",
                    occurred_at="2026-02-01T00:00:00Z")  # fmt: skip
    assert b["id"] != a["id"] and b["outcome"] == "superseded" and b["pending"] == []
    # Two languages: every word matched through CC-CEDICT, so decided offline as well (no LLM
    # call), never merged: both stay, flagged as conflicting (the same time).
    c = await store(llm_client, "用户喜欢香菜", user="u2")
    d = await store(llm_client, "The user doesn't like cilantro", user="u2")
    assert d["id"] != c["id"] and d["outcome"] == "conflict" and not fake_llm.requests, d
    # the conflict is a person's review (B16), never the LLM's queue
    assert [(p["kind"], p["status"]) for p in d["pending"]] == [("contradiction", "review")]
    assert await scalar(engine, "SELECT count(*) FROM pgqueuer") == 0
    for unit in (c, d):
        assert (await llm_client.get(f"/memories/{unit['id']}")).json()["id"] == unit["id"]
    assert await scalar(engine, "SELECT count(*) FROM memory_units WHERE user_id = 'u2' "
                        "AND status = 'active'") == 2  # fmt: skip


async def test_a_conflict_the_llm_flags_is_left_for_a_person(llm_client, runner, fake_llm):
    # Stored a moment apart, so when the LLM says they contradict, their order is unclear:
    # both stay (``conflict``), and a review of kind contradiction opens for a person (B16).
    a = await store(llm_client, "The user works in Shanghai", user="u3")
    b = await store(llm_client, "用户在北京工作", user="u3")
    [unsure] = b["pending"]
    assert (unsure["kind"], unsure["status"]) == ("duplicate", "queued"), b
    fake_llm.push(CONTRADICTS)
    result = await runner.run_once(unsure["review_id"])
    assert (result.status, result.action) == ("decided", "conflict")
    listed = (await llm_client.get("/reviews", params={"user_id": "u3"})).json()["reviews"]
    [open_] = listed
    assert open_["id"] != unsure["review_id"] and open_["kind"] == "contradiction"
    assert (open_["unit_id"], open_["candidate_id"]) == (b["id"], a["id"])
    closed = (await llm_client.get(f"/reviews/{unsure['review_id']}")).json()
    assert (closed["decision"], closed["decided_by"]) == ("conflict", "llm")
    r = await llm_client.post(f"/reviews/{open_['id']}", json={"action": "supersede"})
    assert r.status_code == 200, r.text
    old = (await llm_client.get(f"/memories/{a['id']}")).json()
    assert old["status"] == "superseded" and old["superseded_by"] == b["id"]
    assert (await llm_client.get(f"/memories/{b['id']}")).json()["conflicts_with"] == []
    assert len(fake_llm.requests) == 1


async def test_two_workers_racing_decide_once(llm_client, runner, fake_llm, engine):
    _old, new = await unsure_pair(llm_client)
    review_id = new["pending"][0]["review_id"]
    fake_llm.push(Reply(content='{"verdict": "same"}', delay_s=0.5))
    first, second = await asyncio.gather(runner.run_once(review_id), runner.run_once(review_id))
    outcomes = sorted([first.status, second.status])
    assert outcomes == ["decided", "running"], (first, second)
    waiting = first if first.status == "running" else second
    assert waiting.retry_in is not None and waiting.retry_in > 0  # handed out again later
    assert len(fake_llm.requests) == 1
    late = await runner.run_once(review_id)  # the re-delivery: nothing left to do
    assert late.status == "decided" and len(fake_llm.requests) == 1
    assert await scalar(engine, "SELECT attempts FROM pair_reviews WHERE id = :i",
                        i=review_id) == 1  # fmt: skip


async def test_a_worker_killed_mid_decision_is_taken_over_and_fenced(
    llm_client, runner, fake_llm, engine
):
    old, new = await unsure_pair(llm_client)
    review_id = new["pending"][0]["review_id"]
    # A worker claims the review and dies before it writes (its lease of 1 s runs out).
    async with runner.session_factory() as session, session.begin():
        dead = await PairReviewRepository(session).claim(review_id, 1)
    assert dead is not None and dead.attempts == 1
    busy = await runner.run_once(review_id)
    assert busy.status == "running" and busy.retry_in is not None
    await asyncio.sleep(1.2)
    fake_llm.push(SAME)
    taken = await runner.run_once(review_id)
    assert (taken.status, taken.action) == ("decided", "merge")
    assert await scalar(engine, "SELECT attempts FROM pair_reviews WHERE id = :i",
                        i=review_id) == 2  # fmt: skip
    # The dead worker wakes up with an answer: its attempt is fenced off, nothing is applied.
    late = await runner._apply(dead, "contradicts")
    assert late.status == "decided" and late.action is None
    assert (await llm_client.get(f"/memories/{new['id']}")).json()["id"] == old["id"]
    assert await scalar(engine, "SELECT merge_count FROM memory_units WHERE id = :i",
                        i=old["id"]) == 1  # fmt: skip


async def test_llm_failures_retry_then_leave_the_pair_for_review(llm_client, runner, fake_llm):
    _old, new = await unsure_pair(llm_client)
    review_id = new["pending"][0]["review_id"]
    fake_llm.push(Reply(status=500), Reply(content="not json at all"))
    first = await runner.run_once(review_id)
    assert first.status == "pending" and first.retry_in is not None
    second = await runner.run_once(review_id)
    assert second.status == "pending" and second.retry_in is None  # WORKER__MAX_ATTEMPTS = 2
    page = (await llm_client.get("/memories", params={"review": "pending"})).json()
    assert [m["id"] for m in page["memories"]] == [new["id"]]
    [review] = page["reviews"]
    assert review["id"] == review_id and review["attempts"] == 2 and review["error"]


async def test_without_an_llm_the_pair_is_listed_for_review(client):
    old = await store(client, LABEL)
    new = await store(client, DEFINITION)
    [pending] = new["pending"]
    assert pending["status"] == "review" and pending["candidate_id"] == old["id"]
    page = (await client.get("/memories", params={"review": "pending", "user_id": "u1"})).json()
    assert [m["id"] for m in page["memories"]] == [new["id"]]
    [review] = page["reviews"]
    assert review["unit_id"] == new["id"] and review["candidate_id"] == old["id"]
    assert review["status"] == "pending" and review["merge_allowed"] is True
    # both stay active (distinct until reviewed)
    everything = (await client.get("/memories", params={"user_id": "u1"})).json()
    assert {m["id"] for m in everything["memories"]} == {old["id"], new["id"]}


async def test_forgetting_the_survivor_forgets_what_was_merged_into_it(
    llm_client, runner, fake_llm, engine
):
    old, new = await unsure_pair(llm_client)
    fake_llm.push(SAME)
    assert (await runner.run_once(new["pending"][0]["review_id"])).action == "merge"
    r = await llm_client.delete(f"/memories/{old['id']}")
    assert r.status_code == 200, r.text
    assert r.json()["removed"]["memory_units"] == 2
    assert await scalar(engine, "SELECT count(*) FROM memory_units") == 0
    assert (await llm_client.get(f"/memories/{new['id']}")).status_code == 404


async def test_a_sigkilled_worker_process_mid_decision_two_workers_after_restart(
    llm_client, engine, database_url, fake_llm
):
    """Real ``hindsight worker`` processes on the queue: the first is SIGKILLed while the LLM
    is answering; two restarted workers race for the stale entry and the others; every pair
    is decided exactly once."""
    fake_llm.reset()
    await truncate_queue(engine)
    pairs = [await unsure_pair(llm_client, user=f"w{k}") for k in range(3)]
    reviews = [new["pending"][0]["review_id"] for _old, new in pairs]
    fake_llm.push(Reply(content='{"verdict": "same"}', delay_s=60))  # the first call hangs
    fake_llm.default = SAME

    async def decided() -> int:
        return int(await scalar(engine, "SELECT count(*) FROM pair_reviews "
                                "WHERE status = 'decided'"))  # fmt: skip

    first = start_worker(database_url, fake_llm)
    workers: list[subprocess.Popen[bytes]] = []
    try:

        async def mid_decision() -> bool:
            return len(fake_llm.requests) >= 1

        await wait_for(mid_decision, 90, "the first worker to ask the LLM")
        first.send_signal(signal.SIGKILL)
        assert first.wait(10) == -signal.SIGKILL
        assert await decided() < 3  # the hanging pair is not decided
        workers = [start_worker(database_url, fake_llm), start_worker(database_url, fake_llm)]

        async def all_decided() -> bool:
            return await decided() == 3

        await wait_for(all_decided, 90, "the restarted workers to decide every pair")
        await asyncio.sleep(3)  # a late re-pick must not apply anything twice
        for (old, new), review in zip(pairs, reviews, strict=True):
            assert (await llm_client.get(f"/memories/{new['id']}")).json()["id"] == old["id"]
            assert await scalar(engine, "SELECT merge_count FROM memory_units WHERE id = :i",
                                i=old["id"]) == 1  # fmt: skip
            assert await scalar(engine, "SELECT action FROM pair_reviews WHERE id = :i",
                                i=review) == "merge"  # fmt: skip
        assert await scalar(engine, "SELECT count(*) FROM memory_units WHERE status = "
                            "'active'") == 3  # fmt: skip
    finally:
        for proc in (first, *workers):
            terminate(proc)
    for proc in workers:
        assert proc.returncode == 0, proc.stderr.read().decode()[-2000:]  # type: ignore[union-attr]


async def test_a_corrected_value_closes_its_open_pairs(client):
    _old, new = await unsure_pair(client)
    r = await client.patch(f"/memories/{new['id']}", json={"value": "The user keeps bees"})
    assert r.status_code == 200, r.text
    page = (await client.get("/memories", params={"review": "pending"})).json()
    assert page["memories"] == [] and page["reviews"] == []


async def test_a_slow_llm_keeps_its_lease(llm_client, runner, fake_llm, engine):
    """An answer slower than the lease (1 s here) is not a dead worker: the lease is renewed,
    so a second runner backs off instead of asking again."""
    _old, new = await unsure_pair(llm_client)
    review_id = new["pending"][0]["review_id"]
    fake_llm.push(Reply(content='{"verdict": "same"}', delay_s=2.5))
    slow = asyncio.create_task(runner.run_once(review_id))
    await asyncio.sleep(1.8)  # past the first lease
    other = await runner.run_once(review_id)
    assert other.status == "running" and len(fake_llm.requests) == 1
    assert (await slow).action == "merge"
    assert await scalar(engine, "SELECT attempts FROM pair_reviews WHERE id = :i",
                        i=review_id) == 1  # fmt: skip


async def test_a_backfill_decided_by_the_llm_takes_its_place_in_the_chain(
    llm_client, runner, fake_llm
):
    # Tester F8, through the review path: Jan → Jun superseded, then March arrives late.
    a = await store(llm_client, "The user works in Shanghai", occurred_at="2026-01-05T00:00:00Z")
    b = await store(llm_client, "用户在北京工作", occurred_at="2026-06-05T00:00:00Z")
    fake_llm.push(CONTRADICTS)
    assert (await runner.run_once(b["pending"][0]["review_id"])).action == "superseded"
    c = await store(llm_client, "The user works in Hangzhou", occurred_at="2026-03-05T00:00:00Z")
    assert c["outcome"] == "created" and c["pending"], c
    [review] = [p for p in c["pending"] if p["candidate_id"] == b["id"]]
    fake_llm.push(CONTRADICTS)
    assert (await runner.run_once(review["review_id"])).action == "superseded"
    query = {"query": "where does the user work?", "user_id": "u1", "top_k": 10}
    for at, expected in [
        ("2026-02-01T00:00:00Z", a), ("2026-04-01T00:00:00Z", c), ("2026-07-01T00:00:00Z", b)
    ]:  # fmt: skip
        hits = (await llm_client.post("/recall", json={**query, "as_of": at})).json()["memories"]
        assert [h["id"] for h in hits] == [expected["id"]], at
