"""What an LLM's unit may hold that the store cannot (tester D25): an `expires_at` before the
conversation's clock is ignored (the unit is stored with the type's default TTL and the
ignored value in its metadata, not stored already expired), and an entity of NUL characters
only is dropped (the job failed on it). Through /extract with the scripted LLM server."""

from __future__ import annotations

from app.core.config import ExtractionSettings
from tests.conftest import llm_settings, running_app, truncate_queue
from tests.fake_llm import Reply, units_json

SAID = [{"role": "user", "content": "My gym membership runs until March."},
        {"role": "user", "content": "I like rowing."}]  # fmt: skip


async def extract(client, user: str) -> dict:  # type: ignore[no-untyped-def]
    body = {"user_id": user, "messages": SAID, "now": "2026-11-25T09:00:00Z"}
    r = await client.post("/extract?wait=true", json=body)
    assert r.status_code == 200, r.text
    return r.json()


async def test_a_past_expiry_is_ignored_not_stored(llm_app, fake_llm, engine):
    await truncate_queue(engine)
    gym = {"type": "fact", "value": "The user's gym membership runs until March.",
           "confidence": 0.9, "expires_at": "2020-03-31", "source_turns": [0]}  # fmt: skip
    fake_llm.push(Reply(content=units_json(gym)))
    job = await extract(llm_app, "d25a")
    assert job["status"] == "succeeded", job
    [entry] = job["units"]
    assert entry["outcome"] == "created", entry
    unit = (await llm_app.get(f"/memories/{entry['memory_id']}")).json()
    assert unit["expires_at"] is None or unit["expires_at"] > "2026-11-25", unit
    assert unit["metadata"]["expires_at_ignored"].startswith("2020-03-31"), unit
    r = await llm_app.post("/recall", json={"user_id": "d25a", "query": "gym membership"})
    assert [h["id"] for h in r.json()["memories"]] == [entry["memory_id"]], r.json()


async def test_a_nul_entity_is_dropped_and_the_job_succeeds(llm_app, fake_llm, engine):
    await truncate_queue(engine)
    rowing = {"type": "preference", "value": "The user likes rowing.", "confidence": 0.9,
              "entities": ["\u0000", "rowing", "\u0000\u0000"], "source_turns": [0]}  # fmt: skip
    fake_llm.push(Reply(content=units_json(rowing)))
    job = await extract(llm_app, "d25b")
    assert job["status"] == "succeeded", job
    [entry] = job["units"]
    assert entry["outcome"] == "created", entry
    unit = (await llm_app.get(f"/memories/{entry['memory_id']}")).json()
    assert unit["entities"] == ["rowing"], unit


async def test_a_null_confidence_and_a_year_2999_anchor(llm_app, fake_llm, engine):
    """Tester hbreak5 F20: a unit with `"confidence": null` was rejected (the job failed when
    it was the only one), and an `occurred_at` of 2999-01-01 was stored (expiring in 2999)."""
    await truncate_queue(engine)
    gym = {"type": "fact", "value": "The user's gym membership runs until March.",
           "confidence": None, "occurred_at": "2999-01-01", "source_turns": [0]}  # fmt: skip
    fake_llm.push(Reply(content=units_json(gym)))
    job = await extract(llm_app, "f20")
    assert job["status"] == "succeeded", job
    [entry] = job["units"]
    assert entry["outcome"] == "created" and entry["confidence"] == 0.8, entry
    unit = (await llm_app.get(f"/memories/{entry['memory_id']}")).json()
    assert unit["occurred_at"] < "2030" and unit["expires_at"] < "2030", unit
    assert unit["metadata"]["occurred_at_ignored"].startswith("2999-01-01"), unit


async def test_a_malformed_optional_field_is_left_out_not_the_unit(llm_app, fake_llm, engine):
    """Tester hbreak7 H12: one malformed field (entities of numbers, a confidence "high", an
    anchor "someday") rejected its unit, and the job failed when it was the only one. The unit
    is kept without the field (its default applies)."""
    await truncate_queue(engine)
    gym = {"type": "fact", "value": "The user's gym membership runs until March.",
           "entities": [1, 2], "confidence": "high", "occurred_at": "someday",
           "source_turns": [0]}  # fmt: skip
    fake_llm.push(Reply(content=units_json(gym)))
    job = await extract(llm_app, "h12")
    assert job["status"] == "succeeded", job
    [entry] = job["units"]
    assert entry["outcome"] == "created" and entry["confidence"] == 0.8, entry
    unit = (await llm_app.get(f"/memories/{entry['memory_id']}")).json()
    assert unit["value"] == gym["value"] and unit["entities"] != [1, 2], unit


async def test_a_bad_type_is_still_rejected(llm_app, fake_llm, engine):
    """Leaving out an optional field never saves a unit whose type or value is wrong."""
    await truncate_queue(engine)
    bad = {"type": "opinion", "value": "The user likes rowing.", "entities": [1]}
    good = {"type": "preference", "value": "The user likes rowing.", "source_turns": [1]}
    fake_llm.push(Reply(content=units_json(bad, good)))
    job = await extract(llm_app, "h12b")
    assert sorted(u["outcome"] for u in job["units"]) == ["created", "rejected"], job


async def test_a_job_keeps_a_bounded_number_of_units(database_url, fake_llm, engine):
    """Tester hbreak7 H11: an LLM's 300 units for 2 messages were all stored. At most
    EXTRACTION__MAX_UNITS_PER_MESSAGE per user message are kept, the most confident; the job
    says the others were dropped and why."""
    await truncate_queue(engine)
    units = [{"type": "fact", "value": f"The user owns {n} rowing machines.",
              "confidence": round(0.7 + n / 100, 2), "source_turns": [0]}
             for n in range(10)]  # fmt: skip
    fake_llm.push(Reply(content=units_json(*units)))
    settings = llm_settings(database_url, fake_llm,
                            extraction=ExtractionSettings(max_units_per_message=2))  # fmt: skip
    async with running_app(settings) as (_, c):
        job = await extract(c, "h11")
    assert job["status"] == "succeeded", job
    kept = [u for u in job["units"] if u["outcome"] != "dropped"]
    dropped = [u for u in job["units"] if u["outcome"] == "dropped"]
    assert len(kept) == 4 and len(dropped) == 6, job["units"]  # 2 × 2 user messages
    assert sorted(u["confidence"] for u in kept) == [0.76, 0.77, 0.78, 0.79], kept
    assert all("MAX_UNITS_PER_MESSAGE" in u["reason"] for u in dropped), dropped
