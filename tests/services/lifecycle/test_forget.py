"""Forget for real: DELETE /memories/{id} and DELETE /memories?user_id=… leave no row of the
data in any table (every table in Base.metadata is scanned), no endpoint returns it, the
receipt counts are right, and other subjects are untouched."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

from app.core.db import create_session_factory
from app.core.errors import NotFoundError
from app.models import Base
from app.repositories.forget import ForgetRepository
from app.repositories.memory.units import MemoryRepository
from app.services.lifecycle.forget import ForgetService
from tests.services.lifecycle.test_lifecycle import page_all, store

USER = "forget-me-7f3a"
OTHER = "keep-me-91c2"


async def traces(engine: AsyncEngine, needle: str) -> dict[str, int]:
    """Rows of every table whose text form contains ``needle`` (table -> count)."""
    found: dict[str, int] = {}
    async with engine.connect() as conn:
        for table in Base.metadata.sorted_tables:
            n = (
                await conn.execute(
                    text(f"SELECT count(*) FROM {table.name} t WHERE strpos(t::text, :n) > 0"),
                    {"n": needle},
                )
            ).scalar_one()
            if n:
                found[table.name] = int(n)
    return found


async def store_iguana(client: httpx.AsyncClient) -> httpx.Response:
    """The subject's idempotent store (the same key each time)."""
    iguana = {
        "user_id": USER,
        "value": "The user keeps a pet iguana named Quetzalli",
        "query": "When the user talks about pets",
        "entities": ["Quetzalli"],
    }
    headers = {"Idempotency-Key": "forget-test-key"}
    return await client.post("/store", headers=headers, json={"memories": [iguana]})


async def seed(client: httpx.AsyncClient) -> dict[str, Any]:
    """A subject with units, access log, a summary with links and an idempotent store; and
    another subject."""
    r = await store_iguana(client)
    assert r.status_code == 200, r.text
    iguana = r.json()["results"][0]["id"]
    units = await store(
        client,
        {
            "user_id": USER,
            "value": "Zorblax is the user's favourite board game",
            "entities": ["Zorblax"],
            "type": "fact",  # one type: a digest holds units of one type
        },
        {
            "user_id": USER,
            "value": "The user plays Zorblax every Friday",
            "entities": ["Zorblax"],
            "type": "fact",
        },
        {"user_id": USER, "agent_id": "agent-x", "value": "Agent note about Vellichor tea"},
        {"user_id": OTHER, "value": "The other user grows tomatoes", "entities": ["tomatoes"]},
    )
    r = await client.post("/summarize", json={"user_id": USER, "entity": "Zorblax"})
    assert r.status_code == 200, r.text
    summary = r.json()["summaries"][0]["id"]
    for q in ("pet iguana", "pet iguana name", "board game"):
        r = await client.post("/recall", json={"query": q, "user_id": USER})
        assert r.status_code == 200 and r.json()["memories"]
    return {
        "iguana": iguana,
        "zorblax": [units[0]["id"], units[1]["id"]],
        "agent_note": units[2]["id"],
        "other": units[3]["id"],
        "summary": summary,
    }


async def test_forget_one_unit(client, engine):
    ids = await seed(client)
    uid = ids["iguana"]
    async with engine.connect() as conn:
        accesses = (
            await conn.execute(
                text("SELECT count(*) FROM memory_access_log WHERE unit_id = :i"), {"i": uid}
            )
        ).scalar_one()
    assert accesses >= 1
    assert await traces(engine, uid)  # present before

    r = await client.delete(f"/memories/{uid}")
    assert r.status_code == 200, r.text
    removed = r.json()["removed"]
    assert removed["memory_units"] == 1
    assert removed["vectors"] == 2  # value and query embeddings
    assert removed["keyword_entries"] == 1
    assert removed["access_log"] == accesses
    assert removed["idempotency_records"] == 1
    assert removed["links"] == 0

    assert await traces(engine, uid) == {}
    assert await traces(engine, "Quetzalli") == {}
    assert (await client.get(f"/memories/{uid}")).status_code == 404
    assert (await client.delete(f"/memories/{uid}")).status_code == 404
    assert (await client.get(f"/memories/{uid}/history")).status_code == 404
    r = await client.post(
        "/recall", json={"query": "pet iguana Quetzalli", "user_id": USER, "include_archived": True}
    )
    assert uid not in {m["id"] for m in r.json()["memories"]}
    listed = await page_all(
        client, {"user_id": USER, "status": ["active", "archived", "superseded", "invalid"]}
    )
    assert uid not in listed
    # a retry of the forgotten store no longer replays the deleted data
    r = await store_iguana(client)
    assert r.headers.get("Idempotent-Replayed") == "false"


async def test_forget_by_a_merged_id_forgets_the_fact_it_went_into(client, engine):
    # Tester C14: DELETE of a merged unit's id removed only the hidden merged row, while GET
    # and PATCH of that id act on the survivor: the fact the caller saw stayed recalled.
    first = {"user_id": USER, "value": "Nora likes hiking in the Alps.", "entities": ["Nora"]}
    other = {"user_id": USER, "value": "Nora plays chess on Sundays.", "entities": ["Nora"]}
    r = await client.post("/store", json={"memories": [first, other]})
    survivor, merged = (u["id"] for u in r.json()["results"])
    r = await client.patch(f"/memories/{merged}", json={"value": first["value"]})
    assert (r.json()["outcome"], r.json()["id"]) == ("merged", survivor)
    assert (await client.get(f"/memories/{merged}")).json()["id"] == survivor

    r = await client.delete(f"/memories/{merged}")
    assert r.status_code == 200, r.text
    assert r.json()["removed"]["memory_units"] == 2  # the survivor and the row merged into it
    for uid in (survivor, merged):
        assert (await client.get(f"/memories/{uid}")).status_code == 404
        assert await traces(engine, uid) == {}
    r = await client.post("/recall", json={"query": "Does Nora like hiking?", "user_id": USER})
    assert r.json()["memories"] == []


async def test_forget_a_summary_source_forgets_the_summary_that_holds_its_words(client, engine):
    """The digest holds the forgotten unit's words ("favourite board game" stayed recallable
    through it): it goes too, with both links, and its other source is active again."""
    ids = await seed(client)
    source = ids["zorblax"][0]
    r = await client.delete(f"/memories/{source}")
    assert r.status_code == 200, r.text
    assert r.json()["removed"]["links"] == 2 and r.json()["removed"]["memory_units"] == 2
    assert r.json()["restored"] == [ids["zorblax"][1]]
    assert await traces(engine, source) == {}
    assert await traces(engine, "favourite board game") == {}
    assert (await client.get(f"/memories/{ids['summary']}")).status_code == 404
    kept = (await client.get(f"/memories/{ids['zorblax'][1]}")).json()
    assert kept["status"] == "active", kept


async def test_forget_all_of_a_user(client, engine):
    ids = await seed(client)
    async with engine.connect() as conn:
        before = (
            await conn.execute(
                text(
                    "SELECT count(*) AS n, count(value_embedding) + count(query_embedding) AS v "
                    "FROM memory_units WHERE user_id = :u"
                ),
                {"u": USER},
            )
        ).one()
        access = (
            await conn.execute(
                text(
                    "SELECT count(*) FROM memory_access_log a JOIN memory_units m "
                    "ON m.id = a.unit_id WHERE m.user_id = :u"
                ),
                {"u": USER},
            )
        ).scalar_one()
    other_before = await traces(engine, OTHER)
    assert before.n == 5  # iguana, 2 Zorblax (archived), agent note, summary

    r = await client.delete("/memories", params={"user_id": USER})
    assert r.status_code == 200, r.text
    removed = r.json()["removed"]
    assert removed["memory_units"] == before.n
    assert removed["vectors"] == before.v
    assert removed["keyword_entries"] == before.n
    assert removed["access_log"] == access
    assert removed["links"] == 2
    assert removed["idempotency_records"] == 1

    for needle in (USER, "Quetzalli", "Zorblax", "Vellichor", *ids["zorblax"], ids["summary"]):
        assert await traces(engine, needle) == {}, needle
    r = await client.get("/memories", params={"user_id": USER, "status": ["active", "archived"]})
    assert r.json()["memories"] == []
    r = await client.post(
        "/recall", json={"query": "Zorblax", "user_id": USER, "include_archived": True}
    )
    assert r.json()["memories"] == []
    # the other subject is untouched
    assert await traces(engine, OTHER) == other_before
    r = await client.post("/recall", json={"query": "tomatoes", "user_id": OTHER})
    assert [m["id"] for m in r.json()["memories"]] == [ids["other"]]


async def test_forget_user_agent_pair_and_agent(client, engine):
    ids = await seed(client)
    r = await client.delete("/memories", params={"user_id": USER, "agent_id": "agent-x"})
    assert r.status_code == 200 and r.json()["removed"]["memory_units"] == 1
    assert (await client.get(f"/memories/{ids['agent_note']}")).status_code == 404
    assert (await client.get(f"/memories/{ids['iguana']}")).status_code == 200
    await store(client, {"user_id": OTHER, "agent_id": "agent-y", "value": "Note by agent y"})
    r = await client.delete("/memories", params={"agent_id": "agent-y"})
    assert r.json()["removed"]["memory_units"] == 1
    assert await traces(engine, "agent-y") == {}
    assert (await client.get(f"/memories/{ids['other']}")).status_code == 200


async def test_forget_all_needs_a_subject(client, engine):
    await seed(client)
    n = await traces(engine, USER)
    for params in ({}, {"user_id": ""}, {"namespace": "x"}):
        r = await client.delete("/memories", params=params)
        assert r.status_code == 422, (params, r.text)
    assert await traces(engine, USER) == n


async def test_forget_never_crosses_namespaces(client, engine):
    ids = await seed(client)
    factory = create_session_factory(engine)
    async with factory() as session, session.begin():
        service = ForgetService(ForgetRepository(session), MemoryRepository(session))
        with pytest.raises(NotFoundError):
            await service.forget_unit("another-namespace", __import__("uuid").UUID(ids["other"]))
        removed = await service.forget_subject("another-namespace", USER, None)
    assert removed.memory_units == 0 and removed.idempotency_records == 0
    assert (await client.get(f"/memories/{ids['iguana']}")).status_code == 200


# ---- with working memory (real Redis), transcripts and extraction jobs ---------------------


async def test_forget_all_removes_transcripts_windows_and_jobs(wm, engine):
    client = wm.client
    for session in ("s-forget-1", "s-forget-2"):
        r = await client.post(
            f"/working_memory/{session}/messages",
            json={
                "messages": [
                    {"role": "user", "content": "I am allergic to peanuts.", "user_id": USER},
                    {"role": "assistant", "content": "Noted, no peanuts."},
                ]
            },
        )
        assert r.status_code == 200, r.text
    await client.post(
        "/working_memory/s-other/messages",
        json={"messages": [{"role": "user", "content": "I live in Porto.", "user_id": OTHER}]},
    )
    # a finished job (units written) and a queued one
    r = await client.post(
        "/extract", json={"user_id": USER, "session_id": "s-forget-1", "mode": "sync"}
    )
    assert r.status_code == 200, r.text
    done_job = r.json()
    extracted = [o["memory_id"] for o in done_job["units"] if o.get("memory_id")]
    assert extracted
    r = await client.post("/extract", json={"user_id": USER, "session_id": "s-forget-2"})
    assert r.status_code == 202, r.text
    queued_job = r.json()["id"]
    keys_before = await wm.keys()
    assert len(keys_before) >= 3 * 4 - 4  # three sessions' windows
    async with engine.connect() as conn:
        queue = (
            await conn.execute(
                text("SELECT count(*) FROM pgqueuer WHERE payload = ANY(:p)"),
                {"p": [done_job["id"].encode(), queued_job.encode()]},
            )
        ).scalar_one()
    assert queue >= 1

    r = await client.delete("/memories", params={"user_id": USER})
    assert r.status_code == 200, r.text
    removed = r.json()["removed"]
    assert removed["transcript_turns"] == 4 and removed["transcript_sessions"] == 2
    assert removed["working_memory_sessions"] == 2
    assert removed["jobs"] == 2 and removed["queue_entries"] == queue
    assert removed["memory_units"] == len(set(extracted))

    for needle in (USER, "peanuts", "s-forget-1", "s-forget-2", done_job["id"], queued_job):
        assert await traces(engine, needle) == {}, needle
    async with engine.connect() as conn:
        left = (
            await conn.execute(
                text("SELECT count(*) FROM pgqueuer WHERE payload = ANY(:p)"),
                {"p": [done_job["id"].encode(), queued_job.encode()]},
            )
        ).scalar_one()
    assert left == 0
    keys = {k.decode() for k in await wm.keys()}
    assert not any("s-forget" in k for k in keys)
    assert any("s-other" in k for k in keys)  # the other subject's window stays
    assert (await client.get(f"/extract/{queued_job}")).status_code == 404
    r = await client.get("/working_memory/s-forget-1")
    assert r.json()["messages"] == []
    r = await client.get("/working_memory/s-other")
    assert [m["content"] for m in r.json()["messages"]] == ["I live in Porto."]


async def test_forget_one_extracted_unit_redacts_the_job_outcome(wm, engine):
    client = wm.client
    r = await client.post(
        "/extract",
        json={
            "user_id": USER,
            "mode": "sync",
            "messages": [{"role": "user", "content": "I am allergic to peanuts."}],
        },
    )
    assert r.status_code == 200, r.text
    job = r.json()
    [uid] = [o["memory_id"] for o in job["units"] if o.get("memory_id")]
    r = await client.delete(f"/memories/{uid}")
    assert r.status_code == 200, r.text
    assert r.json()["removed"]["job_outcomes_redacted"] == 1
    outcome = (await client.get(f"/extract/{job['id']}")).json()["units"]
    assert uid not in {o.get("memory_id") for o in outcome}
    assert await traces(engine, uid) == {}


async def test_forget_leaves_another_users_session_that_a_unit_names(wm, engine):
    """Tester B29: mallory's unit names bob's session; forgetting mallory deletes her unit and
    her own session but neither bob's transcript nor his window, and the receipt counts only
    what went. (Stored before bob's first message, such a unit was accepted until stop 41;
    now that store claims the session for mallory (C20), so the unit of the data written
    before is made here in SQL.)"""
    client = wm.client
    units = await store(client, {"user_id": "mallory-b29", "value": "Mallory likes kites"})
    r = await client.post(
        "/working_memory/m-own/messages",
        json={"messages": [{"role": "user", "content": "I fly kites.", "user_id": "mallory-b29"}]},
    )
    assert r.status_code == 200, r.text
    bob = ["I need a flight to Tokyo.", "Sure, when?", "On Friday."]
    r = await client.post(
        "/working_memory/trip-7/messages",
        json={
            "messages": [
                {"role": "user", "content": bob[0], "user_id": "bob-b29"},
                {"role": "assistant", "content": bob[1]},
                {"role": "user", "content": bob[2], "user_id": "bob-b29"},
            ]
        },
    )
    assert r.status_code == 200, r.text
    async with engine.begin() as conn:
        await conn.execute(
            text("UPDATE memory_units SET session_id = 'trip-7' WHERE id = :id"),
            {"id": units[0]["id"]},
        )

    r = await client.delete("/memories", params={"user_id": "mallory-b29"})
    assert r.status_code == 200, r.text
    removed = r.json()["removed"]
    assert removed["memory_units"] == 1
    assert removed["transcript_turns"] == 1 and removed["transcript_sessions"] == 1
    assert removed["working_memory_sessions"] == 1
    assert (await client.get(f"/memories/{units[0]['id']}")).status_code == 404
    r = await client.get("/working_memory/trip-7")
    assert [m["content"] for m in r.json()["messages"]] == bob
    assert (await client.get("/working_memory/m-own")).json()["messages"] == []
    assert await traces(engine, "mallory-b29") == {}
    async with engine.connect() as conn:
        turns = (
            await conn.execute(
                text("SELECT count(*) FROM transcript_messages WHERE session_id = 'trip-7'")
            )
        ).scalar_one()
    assert turns == 3


async def test_forget_redacts_the_job_outcomes_of_the_units_merged_into_it(client, engine):
    # Tester E10: a unit of another job, merged into the forgotten one afterwards (a review's
    # merge, here an edit), kept its words in that job's outcome (GET /extract/{id}).
    jobs = []
    for said in ("I am allergic to latex gloves.", "I own a teal kayak named Wavelet."):
        body = {"user_id": USER, "now": "2026-12-06T10:00:00Z",
                "messages": [{"role": "user", "content": said}]}  # fmt: skip
        r = await client.post("/extract?wait=true", json=body)
        assert r.status_code == 200, r.text
        jobs.append(r.json())
    [first] = [u for u in jobs[0]["units"] if u["outcome"] == "created"]
    [second] = [u for u in jobs[1]["units"] if u["outcome"] == "created"]
    r = await client.patch(f"/memories/{second['memory_id']}", json={"value": first["value"]})
    assert (r.json()["outcome"], r.json()["id"]) == ("merged", first["memory_id"]), r.json()
    r = await client.delete(f"/memories/{first['memory_id']}")
    assert r.status_code == 200, r.text
    assert r.json()["removed"]["job_outcomes_redacted"] == 2
    for job in jobs:
        read = await client.get(f"/extract/{job['id']}")
        assert "latex" not in read.text and "Wavelet" not in read.text, read.json()
    assert await traces(engine, "Wavelet") == {}


async def test_forgetting_the_unit_that_superseded_another_restores_it(client):
    # Tester E21: the older unit stayed `superseded` (superseded_by null) after the unit that
    # replaced it was forgotten, out of every default recall for good.
    old = {"user_id": USER, "value": "The user works at Google."}
    new = {"user_id": USER, "value": "The user now works at Microsoft."}
    first = (await client.post("/store", json={"memories": [old]})).json()["results"][0]
    second = (await client.post("/store", json={"memories": [new]})).json()["results"][0]
    assert second["outcome"] == "superseded", second
    assert (await client.get(f"/memories/{first['id']}")).json()["status"] == "superseded"
    receipt = await client.delete(f"/memories/{second['id']}")
    assert receipt.status_code == 200 and receipt.json()["restored"] == [first["id"]]
    unit = (await client.get(f"/memories/{first['id']}")).json()
    assert (unit["status"], unit["superseded_by"], unit["valid_to"]) == ("active", None, None)
    r = await client.post("/recall", json={"query": "Where does the user work?", "user_id": USER})
    assert [h["id"] for h in r.json()["memories"]][:1] == [first["id"]], r.json()


async def test_forgetting_the_middle_of_a_chain_leaves_the_oldest_superseded(client):
    """Tester hbreak6 G8: Porto → Lisbon → Madrid, then Lisbon forgotten: Porto came back as
    current beside Madrid (and first in /context). It stays superseded, now by Madrid, valid
    until Madrid began; the history is Porto, Madrid; nothing is restored."""
    ids = []
    for city, day in (("Porto", "2026-01-01"), ("Lisbon", "2026-06-01"), ("Madrid", "2026-11-01")):
        unit = {"user_id": USER, "value": f"The user lives in {city}.",
                "occurred_at": f"{day}T00:00:00Z"}  # fmt: skip
        r = await client.post("/store", json={"memories": [unit]})
        ids.append(r.json()["results"][0]["id"])
        assert r.json()["results"][0]["outcome"] in ("created", "superseded"), r.json()
    porto, lisbon, madrid = ids
    before = (await client.get(f"/memories/{lisbon}")).json()
    assert (before["status"], before["superseded_by"]) == ("superseded", madrid), before

    receipt = await client.delete(f"/memories/{lisbon}")
    assert receipt.status_code == 200 and receipt.json()["restored"] == []
    unit = (await client.get(f"/memories/{porto}")).json()
    assert (unit["status"], unit["superseded_by"]) == ("superseded", madrid), unit
    assert unit["valid_to"] == before["valid_to"]
    history = (await client.get(f"/memories/{madrid}/history")).json()
    assert [u["id"] for u in history["memories"]] == [porto, madrid], history
    listed = (await client.get("/memories", params={"user_id": USER})).json()["memories"]
    assert [u["id"] for u in listed if u["status"] == "active"] == [madrid]
    r = await client.post("/recall", json={"query": "Where does the user live?", "user_id": USER,
                                           "as_of": "2026-07-01T00:00:00Z"})  # fmt: skip
    assert porto in [h["id"] for h in r.json()["memories"]], r.json()
