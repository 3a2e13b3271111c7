"""Purging a closed session's transcript cancels its extraction job (tester hbreak7 H30): the
close queued a job holding a snapshot of the messages, and after ``DELETE
/working_memory/{id}?purge=true`` it still ran and stored the purged messages as units."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.usefixtures("empty_queue")

SAID = [
    {"role": "user", "user_id": "h30", "content": "I live at 12 Elm Street in Springfield."},
    {"role": "assistant", "content": "Noted."},
    {"role": "user", "content": "I work as a nurse at St. Mary's hospital."},
]


async def test_a_purge_cancels_the_queued_job_and_says_so(wm) -> None:
    r = await wm.client.post("/working_memory/h30/messages", json={"messages": SAID})
    assert r.status_code == 200, r.text
    r = await wm.client.post("/working_memory/h30/close", json={"now": "2026-12-06T10:00:00Z"})
    assert r.status_code == 200, r.text
    job = r.json()["job"]
    assert job["status"] == "queued"

    r = await wm.client.delete("/working_memory/h30", params={"purge": "true"})
    assert r.status_code == 200, r.text
    assert r.json()["transcript_purged"] == 3
    assert r.json()["extraction_cancelled"] == [job["id"]]

    # The queued entry runs and extracts nothing.
    assert await wm.app.state.extraction.runner.run_inline(job["id"], 30) == "cancelled"
    r = await wm.client.get(f"/extract/{job['id']}")
    assert r.status_code == 200, r.text
    record = r.json()
    assert (record["status"], record["error_code"]) == ("cancelled", "transcript_purged")
    assert record["units"] == [] and "purged" in record["error"]
    assert "Elm" not in r.text and "nurse" not in r.text
    r = await wm.client.get("/memories", params={"user_id": "h30"})
    assert r.json()["memories"] == []
    # Not retryable: there is nothing left to extract.
    r = await wm.client.post(f"/extract/{job['id']}/retry")
    assert r.status_code == 409, r.text
    r = await wm.client.get("/extract", params={"status": "cancelled"})
    assert [j["id"] for j in r.json()["jobs"]] == [job["id"]]


async def test_a_clear_without_purge_leaves_the_job(wm) -> None:
    await wm.client.post("/working_memory/h30b/messages", json={"messages": SAID})
    r = await wm.client.post("/working_memory/h30b/close", json={"now": "2026-12-06T10:00:00Z"})
    job = r.json()["job"]
    r = await wm.client.delete("/working_memory/h30b")
    assert r.status_code == 200 and r.json()["extraction_cancelled"] == []
    assert await wm.app.state.extraction.runner.run_inline(job["id"], 30) == "succeeded"
    # A purge after the job finished cancels nothing: its units stay (forget them by id).
    r = await wm.client.delete("/working_memory/h30b", params={"purge": "true"})
    assert r.json()["extraction_cancelled"] == []
    r = await wm.client.get("/memories", params={"user_id": "h30"})
    assert any("nurse" in m["value"] for m in r.json()["memories"])
