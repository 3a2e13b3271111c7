"""An event that happened at a time nobody said lives as long as a dated one (tester hbreak6:
"I ran a marathon." said today expired after the 30 days of a plan, while "I ran a marathon
last year." got ``TTL__PAST_EVENT_DAYS``). Extraction marks it ``metadata.happened``; a plan
with no date keeps the event TTL. Offline extractor, through the API; English and Chinese."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest


def _at(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


async def _life(client, user_id: str, said: str) -> tuple[dict, timedelta]:
    now = datetime.now(UTC).isoformat().replace("+00:00", "Z")
    body = {"user_id": user_id, "messages": [{"role": "user", "content": said}], "now": now}
    r = await client.post("/extract?wait=true", json=body)
    assert r.status_code == 200 and r.json()["status"] == "succeeded", r.text
    [unit] = (await client.get("/memories", params={"user_id": user_id})).json()["memories"]
    return unit, _at(unit["expires_at"]) - _at(unit["created_at"])


@pytest.mark.parametrize("said", ["I ran a marathon.", "我跑了一次马拉松。"])
async def test_an_undated_past_event_gets_the_past_event_ttl(client, said):
    unit, life = await _life(client, "past", said)
    assert unit["type"] == "event" and unit["metadata"]["happened"] is True, unit
    assert timedelta(days=179) < life <= timedelta(days=180, minutes=1), life


@pytest.mark.parametrize("said", ["I will run a marathon.", "我要去跑马拉松。"])
async def test_an_undated_plan_keeps_the_event_ttl(client, said):
    unit, life = await _life(client, "plan", said)
    assert unit["type"] == "event" and "happened" not in unit["metadata"], unit
    assert timedelta(days=29) < life <= timedelta(days=30, minutes=1), life
