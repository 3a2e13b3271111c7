"""Tester F34: one working-memory session of 300 progress lines ("Step 1 finished.", "Step 2
finished.", …), closed and extracted offline, opened 2,356 open contradiction reviews — each
line against every neighbour, contradictions opening beyond ``DEDUPE__MAX_UNSURE``. Numbered
members of one sequence are distinct events (:mod:`app.services.memory.pairs.sequence`), and
the reviews a unit is part of (``DEDUPE__MAX_REVIEWS_PER_UNIT``) and one extraction job opens
(``EXTRACTION__MAX_REVIEWS_PER_JOB``) are bounded (:mod:`app.services.memory.review_room`).
Through working memory on the real Redis, ``/store`` and ``/reviews`` on the embedded
PostgreSQL, offline (no LLM: every review stays pending)."""

from __future__ import annotations

from collections import Counter
from typing import Any

import httpx
import pytest

from app.core.config import DedupeSettings, ExtractionSettings
from app.services.memory.pairs.decision import decide
from app.services.memory.pairs.features import statement
from app.services.memory.pairs.sequence import numbered
from tests.conftest import WorkingMemoryHarness
from tests.services.extraction.closed import USER

PER_UNIT = DedupeSettings().max_reviews_per_unit
PER_JOB = ExtractionSettings().max_reviews_per_job


async def open_reviews(client: httpx.AsyncClient, user: str) -> list[dict[str, Any]]:
    """Every open review of ``user`` (all pages)."""
    out: list[dict[str, Any]] = []
    cursor: str | None = None
    while True:
        params: dict[str, Any] = {"user_id": user, "limit": 100}
        if cursor:
            params["cursor"] = cursor
        r = await client.get("/reviews", params=params)
        assert r.status_code == 200, r.text
        out += r.json()["reviews"]
        cursor = r.json()["next_cursor"]
        if not cursor:
            return out


async def close_long(wm: WorkingMemoryHarness, session: str, lines: list[str]) -> list[dict]:
    """Append the user's ``lines`` to ``session`` (20 a request: the request token limit),
    close it and run its extraction job; the job's unit entries."""
    for start in range(0, len(lines), 20):
        body = {"messages": [{"role": "user", "content": c, "user_id": USER}
                             for c in lines[start : start + 20]]}  # fmt: skip
        r = await wm.client.post(f"/working_memory/{session}/messages", json=body)
        assert r.status_code == 200, r.text
    r = await wm.client.post(f"/working_memory/{session}/close", json={})
    assert r.status_code == 200, r.text
    job = r.json()["job"]
    assert await wm.app.state.extraction.runner.run_inline(job["id"], 120) == "succeeded"
    units: list[dict] = (await wm.client.get(f"/extract/{job['id']}")).json()["units"]
    return units


def per_unit(reviews: list[dict[str, Any]]) -> Counter[str]:
    """How many open reviews each unit is part of (either side)."""
    return Counter(u for r in reviews for u in (r["unit_id"], r["candidate_id"]))


@pytest.mark.parametrize(("template", "n"), [("Step {i} finished.", 300), ("第{i}步完成了。", 60)])
async def test_numbered_steps_of_one_session_open_no_review(wm, template, n):
    units = await close_long(wm, f"f34-steps-{n}", [template.format(i=i) for i in range(1, n + 1)])
    assert len(units) == n
    assert {u["outcome"] for u in units} == {"created"}, Counter(u["outcome"] for u in units)
    assert await open_reviews(wm.client, USER) == []


async def test_one_job_opens_at_most_its_budget_of_reviews(wm):
    # A running count is one value that changes: each line contradicts the others, said in
    # one session (their order unclear) — a review each, until the bounds.
    lines = [f"Processed {i}0 records so far." for i in range(1, 61)]
    units = await close_long(wm, "f34-counts", lines)
    assert len(units) == 60
    reviews = await open_reviews(wm.client, USER)
    assert 0 < len(reviews) <= PER_JOB, len(reviews)
    assert {r["kind"] for r in reviews} == {"contradiction"}
    assert max(per_unit(reviews).values()) <= PER_UNIT
    held = [u for u in units if u["reason"]]
    assert held and all("EXTRACTION__MAX_REVIEWS_PER_JOB" in u["reason"] for u in held)
    # A unit whose contradictions were held back is not linked to them either.
    linked = {u["memory_id"] for u in units if u["outcome"] == "conflict"}
    assert linked <= {x for r in reviews for x in (r["unit_id"], r["candidate_id"])}


async def test_a_unit_is_part_of_at_most_its_cap_of_open_reviews(client):
    ids = []
    for i in range(1, 13):
        body = {
            "memories": [{"user_id": "f34-one", "value": f"The user's build took {i} minutes."}]
        }
        r = await client.post("/store", json=body)
        assert r.status_code == 200, r.text
        ids.append(r.json()["results"][0]["id"])
    reviews = await open_reviews(client, "f34-one")
    counts = per_unit(reviews)
    assert reviews and max(counts.values()) == PER_UNIT, counts
    assert set(counts) <= set(ids)
    # Past the cap a new contradiction is stored alone: not linked, no review.
    unit = (await client.get(f"/memories/{ids[-1]}")).json()
    assert len(unit["conflicts_with"]) <= PER_UNIT


def test_a_member_of_a_sequence_is_another_thing_a_position_is_one_value():
    assert numbered("Step 3 finished.") == {"step:3"}
    assert numbered("Finished chapter four of the book") == {"chapter:4"}
    assert numbered("步骤3已完成") == {"步骤:3"} and numbered("第三步完成了") == {"步:3"}
    assert numbered("The user walks 10,000 steps a day") == frozenset()
    assert numbered("The user is on step 3") == frozenset()
    assert numbered("用户读到第7章了") == frozenset()
    two = decide(statement("Step 1 finished."), statement("Step 2 finished."), 0.97)
    assert (two.action, two.reason) == ("distinct", "other_identifier")
    moved = decide(statement("The user is on step 3."), statement("The user is on step 5."), 0.97)
    assert moved.action == "contradicts", moved
