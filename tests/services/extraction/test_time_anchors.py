"""When an extracted unit happened, as the transcript says it, English and Chinese:

- 上周一起去爬山 is "went hiking together last week", not last Monday (tester B26: the 一 of
  一起 was read as a weekday); 上上周 / "the week before last" and 大前天 are the weeks and the
  day they name, not last week and 前天;
- a time phrase no rule places ("a while back", "a few days ago", 前几天) is not dated as if it
  happened when it was said: the unit's time anchor is marked unknown, and /context says so
  (tester B27);
- /extract with inline messages and no ``timezone`` reads relative dates at the UTC offset the
  messages were written with (their ``created_at``, or ``metadata.utc_offset``), as the
  working-memory close does (B20): "tomorrow" said at 07:00+08:00 on 1 December is 2 December.
"""

from __future__ import annotations

import httpx
import pytest

NOW = "2026-12-06T10:00:00Z"  # Sunday


async def extract(client: httpx.AsyncClient, user_id: str, messages: list[dict], **body) -> dict:
    r = await client.post(
        "/extract?wait=true", json={"user_id": user_id, "messages": messages, **body}
    )
    assert r.status_code == 200, r.text
    assert r.json()["status"] == "succeeded", r.json()
    return r.json()


async def memories(client: httpx.AsyncClient, user_id: str) -> list[dict]:
    r = await client.get("/memories", params={"user_id": user_id, "limit": 50})
    assert r.status_code == 200, r.text
    return r.json()["memories"]


@pytest.mark.parametrize(
    ("content", "expected", "day"),
    [
        ("我们上周一起去爬山了。", "2026年11月23日那一周和其他人一起去爬山了", "2026-11-23"),
        ("上上周我去了北京。", "2026年11月16日那一周", "2026-11-16"),
        ("我大前天去了医院。", "用户2026年12月3日（周四）去了医院。", "2026-12-03"),
        # A bare 周末 in the past tense is the one that is over, not the coming one.
        ("周末我去爬山了。", "2026年12月5日那个周末", "2026-12-05"),
        ("I met Anna at a conference the week before last.",
         "in the week of 2026-11-16", "2026-11-16"),
    ],
)  # fmt: skip
async def test_week_phrases_are_the_week_they_name(client, content, expected, day):
    await extract(client, "weeks", [{"role": "user", "content": content}], now=NOW)
    (unit,) = await memories(client, "weeks")
    assert expected in unit["value"], unit
    assert unit["occurred_at"].startswith(day), unit
    assert "（周一）" not in unit["value"]


@pytest.mark.parametrize(
    ("content", "phrase"),
    [
        ("I went to Paris with my sister a while back.", "a while back"),
        ("I broke my wrist skiing a few weeks ago.", "a few weeks ago"),
        ("我前几天去医院做了体检。", "前几天"),
    ],
)
async def test_a_time_no_rule_places_leaves_the_anchor_unknown(client, content, phrase):
    messages = [{"role": "user", "content": content, "created_at": NOW}]
    await extract(client, "vague", messages, now=NOW)
    (unit,) = await memories(client, "vague")
    assert unit["metadata"]["time_anchor"] == "unknown", unit
    assert unit["metadata"]["time_phrase"] == phrase
    assert phrase in unit["value"]
    r = await client.get("/context", params={"user_id": "vague", "query": content})
    assert r.status_code == 200, r.text
    assert "date unknown, said 2026-12-06]" in r.json()["text"], r.json()["text"]


async def test_a_resolved_date_is_no_unknown_anchor(client):
    messages = [{"role": "user", "content": "I went to Paris three days ago.", "created_at": NOW}]
    await extract(client, "dated", messages, now=NOW)
    (unit,) = await memories(client, "dated")
    assert "time_anchor" not in unit["metadata"]
    assert unit["occurred_at"].startswith("2026-12-03")


SAID = "2026-12-01T07:00:00+08:00"  # Tuesday 1 Dec in Shanghai, Monday 30 Nov 23:00 UTC


@pytest.mark.parametrize(
    ("message", "day"),
    [
        ({"content": "I have a dentist appointment tomorrow.", "created_at": SAID},
         "on 2026-12-02 (Wednesday)"),
        ({"content": "我明天要去看牙医。", "created_at": SAID}, "2026年12月2日（周三）"),
        # A client that sends UTC times and the offset apart, as working memory keeps it.
        ({"content": "I have a dentist appointment tomorrow.",
          "created_at": "2026-11-30T23:00:00Z", "metadata": {"utc_offset": "+08:00"}},
         "on 2026-12-02 (Wednesday)"),
    ],
)  # fmt: skip
async def test_inline_messages_resolve_at_their_own_offset(client, message, day):
    job = await extract(client, "tzx", [{"role": "user", **message}])
    assert job["timezone"] == "UTC+08:00"
    (unit,) = await memories(client, "tzx")
    assert day in unit["value"], unit
    assert unit["occurred_at"].startswith("2026-12-01T16:00:00")  # 2 Dec, midnight at +08:00


async def test_the_requests_timezone_still_wins(client):
    message = {"role": "user", "content": "I have a dentist appointment tomorrow.",
               "created_at": SAID}  # fmt: skip
    job = await extract(client, "tzy", [message], timezone="UTC")
    assert job["timezone"] == "UTC"
    (unit,) = await memories(client, "tzy")
    assert "on 2026-12-01 (Tuesday)" in unit["value"], unit
