"""Changes told in a chat turn that supersede the fact they change (tester hbreak7 H15, H5,
H26): a family's move (我们一家搬到深圳了 after 我住在上海), a habit stopped
(我现在不喝咖啡了，改喝茶 after 我每天早上喝咖啡), a promotion, a new phone number
(我换手机号了，新号码是…), a trip pushed to another month, a wedding postponed
(婚礼推迟到明年十月), a phone switched from ("switched from iPhone to Android" after "I have an
iPhone."), a car traded for another — each left the old fact active beside the change. A diet
begun against a food the user loves ("became vegetarian last month, no more meat" / "I love
steak", cosine under the candidate gate) opened nothing; it is flagged as a possible
contradiction now. Both sides told to /extract (offline extractor)."""

from __future__ import annotations

import httpx
import pytest

from tests.services.extraction.extracted import NOW


async def _extract(client: httpx.AsyncClient, user: str, said: str, at: str = NOW) -> list[dict]:
    body = {"user_id": user, "messages": [{"role": "user", "content": said}], "now": at}
    r = await client.post("/extract?wait=true", json=body)
    assert r.status_code == 200 and r.json()["status"] == "succeeded", r.text
    return list(r.json()["units"])


@pytest.mark.parametrize(
    ("first", "change"),
    [
        ("我住在上海", "我们一家搬到深圳了"),
        ("我每天早上喝咖啡", "我现在不喝咖啡了，改喝茶"),
        # with its employer ("… at Spotify") the old job is flagged instead and the employer
        # kept active: tests/services/memory/test_promotion_keeps_employer.py
        ("I work as a junior developer", "I got promoted to senior developer"),
        ("我的手机号是13812345678", "我换手机号了，新号码是13912345678"),
        ("We're going to Lisbon in June", "We pushed the Lisbon trip to August"),
        ("我们的婚礼定在明年五月", "婚礼推迟到明年十月"),
        ("I have an iPhone.", "I switched from iPhone to Android"),
        ("I drive a Corolla.", "I traded my Corolla for a Tesla"),
        ("I live in Lisbon.", "I moved from Lisbon to Porto."),
    ],
)
async def test_the_change_supersedes_the_old_fact(client, first, change):
    user = f"chg-{len(first)}-{len(change)}"
    [old] = await _extract(client, user, first, "2026-12-06T09:00:00Z")
    [new] = await _extract(client, user, change)
    assert new["outcome"] == "superseded", new
    r = await client.get(f"/memories/{old['memory_id']}")
    assert r.json()["status"] == "superseded", r.json()
    assert r.json()["superseded_by"] == new["memory_id"], r.json()


async def test_a_diet_begun_against_a_food_loved_opens_a_contradiction_review(client):
    user = "chg-diet"
    [steak] = await _extract(client, user, "I love steak")
    [diet] = await _extract(client, user, "I became vegetarian last month, no more meat")
    r = await client.get("/reviews", params={"user_id": user})
    assert [(v["kind"], v["unit_id"], v["candidate_id"]) for v in r.json()["reviews"]] == [
        ("contradiction", diet["memory_id"], steak["memory_id"])
    ], r.json()


@pytest.mark.parametrize(
    ("first", "other"),
    [
        ("I like VS Code.", "I switched from VS Code to Neovim"),  # a liking: flagged, kept
        ("I drive a Corolla.", "I sold my bike"),
        ("我每天早上喝咖啡", "我现在不喝茶了"),
    ],
)
async def test_what_the_change_does_not_end_stays(client, first, other):
    user = f"chg-kept-{len(first)}-{len(other)}"
    [old] = await _extract(client, user, first, "2026-12-06T09:00:00Z")
    await _extract(client, user, other)
    r = await client.get(f"/memories/{old['memory_id']}")
    assert r.json()["status"] == "active", r.json()
