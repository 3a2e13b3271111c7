""" "died" is a past verb (tester hbreak8 H3): said on 2026-07-15, "my dog died in June" was
dated June 2027 and "My father died on June 3." 2027-06-03 — a past event placed in the
future (its TTL counted from then). Past tense → the latest such date before the message;
a plan keeps the coming one. English, with Chinese 去世 beside it, through /extract."""

from __future__ import annotations

import pytest

SAID = "2026-07-15T10:00:00Z"


@pytest.mark.parametrize(
    ("said", "day"),
    [
        ("Sadly, my dog Biscuit died in June.", "2026-06-01"),
        ("My grandpa died in March.", "2026-03-01"),
        ("My cat died in August.", "2025-08-01"),
        ("My father died on June 3.", "2026-06-03"),
        ("我的狗六月去世了。", "2026-06-01"),
        ("My dentist appointment is on June 3.", "2027-06-03"),
        ("I booked a flight for August 3.", "2026-08-03"),
    ],
)
async def test_a_past_event_is_dated_before_the_message(client, said, day):
    body = {"user_id": "died", "now": SAID,
            "messages": [{"role": "user", "content": said, "created_at": SAID}]}  # fmt: skip
    r = await client.post("/extract?wait=true", json=body)
    assert r.status_code == 200, r.text
    [unit] = [u for u in r.json()["units"] if u["outcome"] == "created"]
    m = await client.get(f"/memories/{unit['memory_id']}")
    assert m.status_code == 200, m.text
    assert (m.json()["occurred_at"] or "")[:10] == day, m.json()
