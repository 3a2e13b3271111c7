"""Changes of a job or a home that reach the old fact however they were said (tester hbreak7):
in the other language (H2: "I left Alibaba last week and joined Tencent." after
我在阿里巴巴做产品经理 — both stayed active and the pair opened a ``duplicate`` review a click
could merge), in the first person through ``/store`` (H7: "I live in Oslo." at a cosine under
the candidate gate), or by an older session extracted after a newer one (H17: "I live in
Oslo." said at 08:00 stayed active beside "I moved to Bergen." said at 09:00 and extracted
before it)."""

from __future__ import annotations

import httpx
import pytest


async def _extract(
    client: httpx.AsyncClient, user: str, said: str, at: str | None = None
) -> list[dict]:
    message = {"role": "user", "content": said} | ({"created_at": at} if at else {})
    r = await client.post("/extract?wait=true", json={"user_id": user, "messages": [message]})
    assert r.status_code == 200 and r.json()["status"] == "succeeded", r.text
    return list(r.json()["units"])


async def _active(client: httpx.AsyncClient, user: str) -> list[str]:
    r = await client.get("/memories", params={"user_id": user, "limit": 50})
    assert r.status_code == 200, r.text
    return [m["value"] for m in r.json()["memories"]]


@pytest.mark.parametrize(
    ("old", "said", "gone"),
    [
        ("我在阿里巴巴做产品经理。", "I left Alibaba last week and joined Tencent.", "阿里巴巴"),
        ("I work as a product manager at Alibaba.", "我上周从阿里巴巴离职了，加入了腾讯。",
         "Alibaba"),
    ],
)  # fmt: skip
async def test_a_job_left_in_the_other_language_supersedes_the_job(client, old, said, gone):
    user = f"h2-{len(old)}"
    [first] = await _extract(client, user, old)
    # the event, and the employer from now on beside it (tester K20)
    event, job = await _extract(client, user, said)
    assert event["outcome"] == "superseded", event
    assert job["value"] in ("The user now works at Tencent.", "用户现在在腾讯工作。"), job
    r = await client.get(f"/memories/{first['memory_id']}")
    assert r.json()["status"] == "superseded", r.json()
    assert r.json()["superseded_by"] == event["memory_id"]
    assert all(gone not in v for v in await _active(client, user))
    r = await client.get("/reviews", params={"user_id": user})
    old_id = first["memory_id"]  # the event and the employer fact beside it may be asked about
    asked = [v for v in r.json()["reviews"] if old_id in (v["unit_id"], v["candidate_id"])]
    assert asked == [], r.json()


async def test_another_company_left_leaves_the_job(client):
    """Leaving Tencent says nothing about the job at 阿里巴巴."""
    user = "h2-kept"
    [first] = await _extract(client, user, "我在阿里巴巴做产品经理。")
    await _extract(client, user, "I left Tencent last week.")
    r = await client.get(f"/memories/{first['memory_id']}")
    assert r.json()["status"] == "active", r.json()


async def test_a_move_supersedes_a_home_stored_in_the_first_person(client):
    user = "h7"
    body = {"memories": [{"user_id": user, "value": "I live in Oslo."}]}
    r = await client.post("/store", json=body)
    assert r.status_code == 200, r.text
    oslo = r.json()["results"][0]["id"]
    [move] = await _extract(client, user, "I moved to Bergen last week.")
    r = await client.get(f"/memories/{oslo}")
    assert r.json()["status"] == "superseded", (r.json(), move)
    r = await client.post("/recall", json={"query": "Where does the user live?", "user_id": user})
    assert "Bergen" in r.json()["memories"][0]["value"], r.json()


@pytest.mark.parametrize("move", ["I moved to Bergen.", "I moved to Bergen last week."])
async def test_an_older_session_extracted_late_does_not_undo_a_move(client, move):
    user = f"h17-{len(move)}"
    [bergen] = await _extract(client, user, move, at="2026-12-06T09:00:00Z")
    [oslo] = await _extract(client, user, "I live in Oslo.", at="2026-12-06T08:00:00Z")
    assert oslo["outcome"] == "superseded", oslo
    assert await _active(client, user) == [bergen["value"]]
    r = await client.get(f"/memories/{oslo['memory_id']}")
    assert r.json()["superseded_by"] == bergen["memory_id"], r.json()
    r = await client.post("/recall", json={"query": "Where does the user live?", "user_id": user})
    assert "Bergen" in r.json()["memories"][0]["value"], r.json()


async def test_a_home_said_after_the_move_is_not_taken_for_an_older_one(client):
    """Said after the move, "I live in Oslo." is no backfill: the move is not superseded by
    it (the order said decides only for the side said first)."""
    user = "h17-after"
    [bergen] = await _extract(client, user, "I moved to Bergen.", at="2026-12-06T09:00:00Z")
    await _extract(client, user, "I live in Oslo.", at="2026-12-06T10:00:00Z")
    r = await client.get(f"/memories/{bergen['memory_id']}")
    assert r.json()["status"] == "active", r.json()
