"""A request to move a booked appointment is the new day of that appointment (tester E3: "Can
you move the dentist appointment to Thursday instead?" made no unit, and recall kept the old
Tuesday first). Through /extract: the move supersedes the booking, history kept."""

from __future__ import annotations

from tests.services.extraction.extracted import units_of


def user(content: str) -> dict:
    return {"role": "user", "content": content}


async def test_a_reschedule_request_supersedes_the_booking(client):
    await units_of(
        client, "dentist", [user("Please book me a dentist appointment next Tuesday at 3pm.")]
    )
    units = await units_of(
        client, "dentist", [user("Can you move the dentist appointment to Thursday instead?")]
    )
    moved = [v for v in units if "move the dentist appointment to 2026-12-10 (Thursday)" in v]
    assert moved, units
    r = await client.get("/memories", params={"user_id": "dentist", "status": "superseded"})
    assert [m["value"] for m in r.json()["memories"] if "2026-12-08 (Tuesday)" in m["value"]], (
        r.json()
    )
