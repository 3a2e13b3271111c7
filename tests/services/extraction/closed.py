"""Working memory on the real Redis for the extraction tests: append a task's messages to a
session, close it, run its extraction job, then list the subject's units (superseded ones
too) as ``GET /memories`` gives them."""

from __future__ import annotations

from tests.conftest import WorkingMemoryHarness

USER = "wm-user"


async def close_task(
    wm: WorkingMemoryHarness, session: str, messages: list[tuple[str, str]], at: str | None = None
) -> list[dict]:
    """Append ``messages`` ((role, content); said at ``at`` when given, else as they arrive)
    to ``session``, close it and run its job; the job's units (value, outcome, memory_id)."""
    when = {"created_at": at} if at else {}
    body = {"messages": [{"role": r, "content": c, "user_id": USER, **when} for r, c in messages]}
    r = await wm.client.post(f"/working_memory/{session}/messages", json=body)
    assert r.status_code == 200, r.text
    r = await wm.client.post(f"/working_memory/{session}/close", json={})
    assert r.status_code == 200, r.text
    job = r.json()["job"]
    assert await wm.app.state.extraction.runner.run_inline(job["id"], 30) == "succeeded"
    units: list[dict] = (await wm.client.get(f"/extract/{job['id']}")).json()["units"]
    return units


async def memories(wm: WorkingMemoryHarness) -> dict[str, dict]:
    """The subject's units, superseded ones included, by value."""
    r = await wm.client.get(
        "/memories", params={"user_id": USER, "include_superseded": "true", "limit": 100}
    )
    assert r.status_code == 200, r.text
    return {m["value"]: m for m in r.json()["memories"]}


async def recalled(wm: WorkingMemoryHarness, query: str, top_k: int = 3) -> list[str]:
    """The values ``POST /recall`` ranks for ``query``, best first."""
    r = await wm.client.post("/recall", json={"user_id": USER, "query": query, "top_k": top_k})
    assert r.status_code == 200, r.text
    return [m["value"] for m in r.json()["memories"]]


async def open_reviews(wm: WorkingMemoryHarness) -> list[tuple[str, str]]:
    """(kind, reason) of the subject's open pair reviews."""
    r = await wm.client.get("/reviews", params={"user_id": USER})
    assert r.status_code == 200, r.text
    return [(v["kind"], v["reason"]) for v in r.json()["reviews"]]
