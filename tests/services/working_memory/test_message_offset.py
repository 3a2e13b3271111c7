"""Relative dates resolve at the UTC offset the message itself was sent with (tester B20):
"tomorrow" said at 07:00+08:00 on 1 December and closed without a ``timezone`` is 2
December, not the UTC day. The offset is kept in the message's metadata at append time (the
transcript's timestamps keep only the instant); a zone the metadata names, or the close's
own ``timezone``, still wins. English and Chinese."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from app.services.extraction.dates import local_midnight, zone
from app.services.working_memory.closure import session_timezone

SAID = "2026-12-01T07:00:00+08:00"  # Tuesday 1 Dec in Shanghai, Monday 30 Nov 23:00 UTC


pytestmark = pytest.mark.usefixtures("empty_queue")


async def close_and_run(wm, session: str, content: str, **close) -> tuple[dict, list[dict]]:  # type: ignore[no-untyped-def]
    msg = {"role": "user", "user_id": "tzu", "content": content, "created_at": SAID}
    r = await wm.client.post(f"/working_memory/{session}/messages", json={"messages": [msg]})
    assert r.status_code == 200, r.text
    r = await wm.client.post(f"/working_memory/{session}/close", json=close)
    assert r.status_code == 200, r.text
    job = r.json()["job"]
    assert await wm.app.state.extraction.runner.run_inline(job["id"], 30) == "succeeded"
    page = await wm.client.get("/memories", params={"user_id": "tzu"})
    return job, page.json()["memories"]


@pytest.mark.parametrize(
    ("content", "day"),
    [
        ("I have a dentist appointment tomorrow.", "on 2026-12-02 (Wednesday)"),
        ("我明天要去看牙医。", "2026年12月2日（周三）"),
    ],
)
async def test_tomorrow_is_the_next_day_at_the_messages_offset(wm, content, day):
    job, units = await close_and_run(wm, "tz-1", content)
    assert job["timezone"] == "UTC+08:00"
    (unit,) = units
    assert day in unit["value"], unit
    assert unit["occurred_at"].startswith("2026-12-01T16:00:00")  # 2 Dec, midnight at +08:00


async def test_the_closes_own_timezone_still_wins(wm):
    job, units = await close_and_run(
        wm, "tz-2", "I have a dentist appointment tomorrow.", timezone="UTC"
    )
    assert job["timezone"] == "UTC"
    assert "on 2026-12-01 (Tuesday)" in units[0]["value"]


async def test_the_offset_is_kept_in_the_metadata(wm):
    msg = {"role": "user", "user_id": "tzu", "content": "hi", "created_at": SAID,
           "metadata": {"k": 1}}  # fmt: skip
    r = await wm.client.post("/working_memory/tz-3/messages", json={"messages": [msg]})
    assert r.status_code == 200, r.text
    utc = {**msg, "created_at": "2026-12-01T07:00:00Z"}
    r = await wm.client.post("/working_memory/tz-3/messages", json={"messages": [utc]})
    assert r.status_code == 200, r.text
    window = (await wm.client.get("/working_memory/tz-3")).json()
    metas = [m["metadata"] for m in window["messages"]]
    assert metas == [{"k": 1, "utc_offset": "+08:00"}, {"k": 1}]  # UTC itself: nothing kept


def _msg(**metadata: object) -> dict:
    return {"role": "user", "content": "hi", "metadata": metadata,
            "created_at": datetime(2026, 12, 1, tzinfo=UTC)}  # fmt: skip


def test_session_timezone_falls_back_to_the_newest_offset():
    assert session_timezone([_msg(utc_offset="+08:00")]) == "UTC+08:00"
    assert session_timezone([_msg(utc_offset="+08:00"), _msg(utc_offset="-03:30")]) == ("UTC-03:30")
    assert session_timezone([_msg(utc_offset="+00:00")]) == "UTC"
    assert session_timezone([_msg(utc_offset="08:00"), _msg(utc_offset="+99:00")]) == "UTC"
    # A zone the metadata names wins over any offset.
    both = [_msg(timezone="Asia/Kolkata"), _msg(utc_offset="+08:00")]
    assert session_timezone(both) == "Asia/Kolkata"


def test_a_fixed_offset_is_a_zone():
    assert zone("UTC+05:30").utcoffset(None).total_seconds() == 5.5 * 3600  # type: ignore[union-attr]
    midnight = local_midnight(datetime(2026, 12, 2).date(), "UTC-03:30")
    assert midnight.astimezone(UTC).isoformat() == "2026-12-02T03:30:00+00:00"
