"""A request to move a booked appointment is the new day of that appointment (tester E3: "Can
you move the dentist appointment to Thursday instead?" made no unit, and recall kept the old
Tuesday first). Through /extract: the move supersedes the booking, history kept."""

from __future__ import annotations

from tests.services.extraction.extracted import units_of, user


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


async def test_the_day_an_appointment_was_moved_to_is_ahead(client):
    """Tester E25: "I moved the dentist appointment to Thursday." was dated the Thursday before
    and then superseded by the very appointment it replaced."""
    await units_of(client, "mover2", [user("I have a dentist appointment on Tuesday at 3pm.")])
    units = await units_of(client, "mover2", [user("I moved the dentist appointment to Thursday.")])
    moved = units["The user moved the dentist appointment to 2026-12-10 (Thursday)."]
    assert moved["status"] == "active", moved
    r = await client.get("/memories", params={"user_id": "mover2", "status": "superseded"})
    assert [m["value"] for m in r.json()["memories"]] == [
        "The user has a dentist appointment on 2026-12-08 (Tuesday) at 3pm."
    ], r.json()


async def test_a_chinese_move_is_ahead_too(client):
    units = await units_of(client, "mover3", [user("我把牙医改到周四了。")])
    assert "用户把牙医改到2026年12月10日（周四）了。" in units, units


async def test_two_plans_on_two_days_both_stay(client):
    """Tester E24: 我周一要开会 then 我周二要开会 superseded the Monday meeting (nothing says it
    moved); two plans on two days are two facts (a review may ask)."""
    for said, at in (("我周一要开会。", "2026-11-01T10:00:00+08:00"),
                     ("我周二要开会。", "2026-11-02T10:00:00+08:00")):  # fmt: skip
        body = {"user_id": "meetings", "messages": [
            {"role": "user", "content": said, "created_at": at}]}  # fmt: skip
        r = await client.post("/extract?wait=true", json=body)
        assert r.status_code == 200, r.text
    r = await client.get("/memories", params={"user_id": "meetings"})
    days = sorted(m["value"] for m in r.json()["memories"] if m["status"] == "active")
    assert days == ["用户2026年11月2日（周一）要开会。", "用户2026年11月3日（周二）要开会。"], days
