"""Holiday names are time phrases of a recall query (tester H9): "What did I do on Christmas
Eve?" made no ``time_hint`` and ranked the Christmas Eve event at relevance 0.02, below the
"nothing relevant" line; now the holiday is a day (app.core.holidays) and the day
is a keyword as units write it (2025-12-24). Through ``/extract`` and ``/recall`` on the
embedded PostgreSQL."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from app.services.recall.relevance import NOTHING_RELEVANT_BELOW
from app.services.recall.time_hint import find_time_hint
from tests.services.extraction.extracted import user

LATER = "2026-12-06T10:00:00Z"


async def _extract(client, user_id: str, now: str, *said: str) -> None:
    body = {"user_id": user_id, "messages": [user(s) for s in said], "now": now}
    r = await client.post("/extract?wait=true", json=body)
    assert r.status_code == 200 and r.json()["status"] == "succeeded", r.text


async def test_christmas_eve_finds_what_happened_that_day(client):
    await _extract(client, "h9", "2025-12-25T10:00:00Z",
                   "Yesterday we baked cookies and sang carols by the tree.")  # fmt: skip
    await _extract(client, "h9", "2025-11-28T10:00:00Z", "We had a big family dinner yesterday.")
    await _extract(
        client, "h9", LATER, "I'm going to Rome in March.", "I watched a movie last week."
    )
    query = {"user_id": "h9", "query": "What did I do on Christmas Eve?", "now": LATER}
    r = await client.post("/recall", json={**query, "top_k": 3})
    assert r.status_code == 200, r.text
    data = r.json()
    assert data["time_hint"]["phrase"] == "Christmas Eve", data["time_hint"]
    assert data["time_hint"]["start"].startswith("2025-12-24"), data["time_hint"]
    first = data["memories"][0]
    assert "cookies" in first["value"], data["memories"]
    assert first["relevance"] > NOTHING_RELEVANT_BELOW, first  # 0.023 before


async def test_a_chinese_holiday_question(client):
    await _extract(client, "h9z", "2026-02-17T10:00:00Z", "昨天晚上我们全家一起包了饺子。")
    await _extract(client, "h9z", LATER, "我上周去看了一场电影。", "我下个月要去上海出差。")
    query = {"user_id": "h9z", "query": "除夕我做了什么？", "now": LATER, "top_k": 3}
    r = await client.post("/recall", json=query)
    data = r.json()
    assert data["time_hint"]["start"].startswith("2026-02-16"), data["time_hint"]
    assert "饺子" in data["memories"][0]["value"], data["memories"]


NOW = datetime(2026, 12, 7, 10, tzinfo=UTC)


@pytest.mark.parametrize(
    ("query", "day"),
    [
        ("What did I do on Christmas Eve?", date(2025, 12, 24)),
        ("What am I doing on Christmas Eve?", date(2026, 12, 24)),  # asks what is coming
        ("What did I do on New Year's Eve?", date(2025, 12, 31)),
        ("Where was I on New Year’s Day?", date(2026, 1, 1)),
        ("What did we do for Christmas 2024?", date(2024, 12, 25)),
        ("What did we eat on Thanksgiving?", date(2026, 11, 26)),
        ("What did I do at Easter?", date(2026, 4, 5)),
        ("我除夕做了什么？", date(2026, 2, 16)),
        ("去年圣诞节我做了什么？", date(2025, 12, 25)),
        ("2024年春节我去了哪里？", date(2024, 2, 10)),
    ],
)
def test_holidays_are_days(query, day):
    hint = find_time_hint(query, NOW)
    assert hint is not None and hint.unit == "day", (query, hint)
    assert hint.start.date() == day, (query, hint)


@pytest.mark.parametrize(
    "query", ["Did I keep my new year resolutions?", "When is my dentist appointment?"]
)
def test_no_holiday_in_ordinary_words(query):
    assert find_time_hint(query, NOW) is None
