"""Two events of a kind on other days (tester C29): "The user has a dentist appointment on 10
January" then "… on 20 June" superseded the first, though a person has many appointments;
both stay active now (an ``unsure`` pair, ``other_plan_day``: the review gate decides whether
a review opens). A word of change — "moved to", "rescheduled", "postponed", "instead", 改到,
推迟 — supersedes the old day (it was left unsure: a review, both kept). English and
Chinese, through /store."""

from __future__ import annotations

import pytest

OLD_EN = "The user has a dentist appointment on 10 January."
OLD_ZH = "用户1月10日有牙医预约。"


async def _store(client, user: str, value: str) -> dict:
    r = await client.post("/store", json={"memories": [{"user_id": user, "value": value}]})
    assert r.status_code == 200, r.text
    return r.json()["results"][0]


async def _status(client, unit_id: str) -> str:
    r = await client.get(f"/memories/{unit_id}")
    assert r.status_code == 200, r.text
    return r.json()["status"]


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (OLD_EN, "The user has a dentist appointment on 20 June."),
        ("The user has a meeting with Bob on Monday.",
         "The user has a meeting with Bob on Friday."),
        (OLD_ZH, "用户6月20日有牙医预约。"),
    ],
)  # fmt: skip
async def test_another_appointment_on_another_day_keeps_both(client, old, new):
    user = f"plans-{len(new)}"
    first = await _store(client, user, old)
    second = await _store(client, user, new)
    assert second["outcome"] == "created", second
    assert first["id"] not in [s.get("id") for s in second.get("superseded", [])], second
    assert await _status(client, first["id"]) == "active"
    assert await _status(client, second["id"]) == "active"


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (OLD_EN, "The user's dentist appointment was moved to 20 June."),
        (OLD_EN, "The user's dentist appointment was rescheduled to 20 June."),
        (OLD_EN, "The user's dentist appointment has been postponed to 20 June."),
        (OLD_EN, "The user has a dentist appointment on 20 June instead."),
        (OLD_ZH, "用户的牙医预约改到了6月20日。"),
        (OLD_ZH, "用户的牙医预约推迟到6月20日。"),
    ],
)
async def test_a_rescheduled_appointment_supersedes_the_old_day(client, old, new):
    user = f"moved-{len(new)}"
    first = await _store(client, user, old)
    second = await _store(client, user, new)
    assert await _status(client, first["id"]) == "superseded", second
    r = await client.get(f"/memories/{first['id']}")
    assert r.json()["superseded_by"] == second["id"]
    assert await _status(client, second["id"]) == "active"
