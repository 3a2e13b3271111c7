"""A date written ISO at a sentence's end is a day (tester hbreak7 H10: "The user's dentist
appointment was moved to 2026-12-17." left "… on 2026-12-14." active beside it: the final
period made the date three numbers, so "was moved to" moved nothing). Through the API."""

from __future__ import annotations


async def test_an_appointment_moved_to_an_iso_date_supersedes_the_old_day(client):
    old = "The user has a dentist appointment on 2026-12-14."
    new = "The user's dentist appointment was moved to 2026-12-17."
    ids = []
    for value in (old, new):
        r = await client.post("/store", json={"memories": [{"user_id": "h10", "value": value}]})
        assert r.status_code == 200, r.text
        ids.append(r.json()["results"][0])
    assert ids[1]["outcome"] == "superseded", ids[1]
    listed = (await client.get("/memories", params={"user_id": "h10"})).json()["memories"]
    assert [m["value"] for m in listed] == [new]
