"""A unit forget leaves the conversation it came from, and its receipt says so (tester F8:
after ``DELETE /memories/{id}`` the birthday was still in ``/context``'s "Current
conversation" and ``GET /working_memory/{id}``, and nothing told the caller to purge it)."""

from __future__ import annotations

from typing import Any

SAID = "My birthday is on March 3."


async def closed(wm: Any, session: str, *contents: str) -> dict[str, Any]:
    messages = [{"role": "user", "content": c} for c in contents]
    messages[0]["user_id"] = "pat"
    r = await wm.client.post(f"/working_memory/{session}/messages", json={"messages": messages})
    assert r.status_code == 200, r.text
    r = await wm.client.post(f"/working_memory/{session}/close", json={})
    assert r.status_code in (200, 202), r.text
    job = r.json()["job"]
    assert await wm.app.state.extraction.runner.run_inline(job["id"], 30) == "succeeded"
    out: dict[str, Any] = (await wm.client.get(f"/extract/{job['id']}")).json()
    return out


async def test_the_receipt_names_the_messages_that_stay_and_a_purge_removes_them(wm):
    job = await closed(wm, "pat-s1", "Let's plan the week.", SAID)
    [unit] = [u for u in job["units"] if u.get("memory_id") and "March" in u["value"]]
    r = await wm.client.delete(f"/memories/{unit['memory_id']}")
    assert r.status_code == 200, r.text
    receipt = r.json()
    assert receipt["removed"]["memory_units"] == 1
    assert receipt["sources_kept"] == ["session:pat-s1#2"]
    window = (await wm.client.get("/working_memory/pat-s1")).json()["messages"]
    assert [m["seq"] for m in window if m["content"] == SAID] == [2]  # what the receipt says

    again = await closed(wm, "pat-s2", "I live in Porto.")
    [porto] = [u["memory_id"] for u in again["units"] if u.get("memory_id")]
    r = await wm.client.delete("/working_memory/pat-s1", params={"purge": "true"})
    assert r.status_code in (200, 204), r.text
    ctx = await wm.client.get("/context", params={"user_id": "pat", "session_id": "pat-s1"})
    assert "March" not in ctx.json()["text"]
    # a source purged already is not listed
    r = await wm.client.delete("/working_memory/pat-s2", params={"purge": "true"})
    assert r.status_code in (200, 204), r.text
    r = await wm.client.delete(f"/memories/{porto}")
    assert r.status_code == 200, r.text
    assert r.json()["sources_kept"] == []
