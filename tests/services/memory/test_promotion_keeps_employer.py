"""A promotion does not drop the employer: "The user works as an engineer at Airbus." then
"I was promoted to senior engineer." superseded the old unit on the occupation slot, and the
only active statement left ("was promoted to senior engineer") names no employer — "Where do I
work?" lost Airbus. Now a new occupation against an old statement that also names the employer
the new one does not is flagged as a possible contradiction (``slot_differs_keeps:employer``):
both stay active until a person decides. A job without an employer is still superseded. Old
fact by /store, the change told to /extract (offline)."""

from __future__ import annotations

import pytest

from tests.services.memory.told import store_value, tell


@pytest.mark.parametrize(
    ("old", "said"),
    [
        ("The user works as an engineer at Airbus.", "I was promoted to senior engineer."),
        ("The user is an engineer at Airbus.", "I just got promoted to senior engineer!"),
        ("Jonas works as an engineer at Airbus.", "Jonas was promoted to senior engineer."),
        ("The user works as a junior developer at Spotify.", "I got promoted to senior developer"),
    ],
)  # fmt: skip
async def test_a_promotion_keeps_the_employer_active(client, old, said):
    user = f"promoted-{len(old)}-{len(said)}"
    old_id = await store_value(client, user, old)
    units = await tell(client, user, said)
    r = await client.get(f"/memories/{old_id}")
    assert r.json()["status"] == "active", (r.json(), units)
    r = await client.get("/reviews", params={"user_id": user})
    reviews = r.json()["reviews"]
    assert [(x["kind"], x["reason"]) for x in reviews] == [
        ("contradiction", "slot_differs_keeps:employer")
    ], reviews
    assert old_id in {reviews[0]["unit_id"], reviews[0]["candidate_id"]}, reviews


@pytest.mark.parametrize(
    ("old", "said"),
    [
        ("用户在空客做工程师。", "我升职成了高级工程师。"),
        ("The user works at Airbus as an engineer.", "I was promoted to senior engineer."),
    ],
)  # fmt: skip
async def test_the_employer_stays_active_after_a_promotion(client, old, said):
    user = f"promoted-kept-{len(old)}-{len(said)}"
    old_id = await store_value(client, user, old)
    await tell(client, user, said)
    assert (await client.get(f"/memories/{old_id}")).json()["status"] == "active"


async def test_a_job_without_an_employer_is_still_superseded(client):
    user = "promoted-no-employer"
    old_id = await store_value(client, user, "The user is an engineer.")
    await tell(client, user, "I was promoted to senior engineer.")
    assert (await client.get(f"/memories/{old_id}")).json()["status"] == "superseded"
