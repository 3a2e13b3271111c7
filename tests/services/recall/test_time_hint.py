"""Time phrases of a recall query (English and Chinese) → a soft window in the subject's time
zone (app.services.recall.time_hint), and through ``POST /recall``: ``time_hint`` in the
answer, the in-window unit ranked first by the time signal, never a filter."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta, timezone

import pytest

from app.services.recall.time_hint import asks_when, find_time_hint
from tests.api.test_validation import assert_problem
from tests.services.recall.test_recall_api import only, recall, store

NOW = datetime(2024, 3, 10, 9, 30, tzinfo=UTC)  # a Sunday


def _span(query: str, tz: str = "UTC", now: datetime = NOW) -> tuple[str, str, str, str]:
    hint = find_time_hint(query, now, tz)
    assert hint is not None, query
    return hint.phrase, hint.start.date().isoformat(), hint.end.date().isoformat(), hint.unit


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("what did I do in 2023?", ("in 2023", "2023-01-01", "2024-01-01", "year")),
        ("plans for May 2023", ("May 2023", "2023-05-01", "2023-06-01", "month")),
        ("who called on 7 May, 2023", ("7 May, 2023", "2023-05-07", "2023-05-08", "day")),
        (
            "what happened on October 13, 2023?",
            ("October 13, 2023", "2023-10-13", "2023-10-14", "day"),
        ),
        # a month without a year: the latest one not after now; "last May" is before this month
        ("where did we go last May", ("last May", "2023-05-01", "2023-06-01", "month")),
        ("any trips in March?", ("in March", "2024-03-01", "2024-04-01", "month")),
        ("what did I eat yesterday", ("yesterday", "2024-03-09", "2024-03-10", "day")),
        ("what happened last week", ("last week", "2024-02-26", "2024-03-04", "week")),
        ("news from last month", ("last month", "2024-02-01", "2024-03-01", "month")),
        ("3 weeks ago", ("3 weeks ago", "2024-02-12", "2024-02-19", "week")),
        (
            "what did John do the week before August 3, 2023?",
            ("the week before August 3, 2023", "2023-07-27", "2023-08-03", "week"),
        ),
        ("去年去了哪里", ("去年", "2023-01-01", "2024-01-01", "year")),
        ("我上个月买了什么", ("上个月", "2024-02-01", "2024-03-01", "month")),
        ("2023年5月做了什么", ("2023年5月", "2023-05-01", "2023-06-01", "month")),
        ("2023年的目标", ("2023年", "2023-01-01", "2024-01-01", "year")),
        ("5月7日吃了什么", ("5月7日", "2023-05-07", "2023-05-08", "day")),
        ("三天前说了什么", ("三天前", "2024-03-07", "2024-03-08", "day")),
        ("昨天的会议", ("昨天", "2024-03-09", "2024-03-10", "day")),
        ("上周末去了哪", ("上周末", "2024-03-02", "2024-03-04", "weekend")),
    ],
)
def test_phrases_become_windows(query, expected):
    assert _span(query) == expected


def test_no_time_no_hint():
    for query in ("may I ask about the dog?", "what does the user like?", "用户喜欢什么", "top 10"):
        assert find_time_hint(query, NOW) is None, query


def test_the_window_is_in_the_subjects_time_zone():
    # 23:30 UTC on 9 March is already 10 March in Shanghai: "yesterday" is the 9th there
    late = datetime(2024, 3, 9, 23, 30, tzinfo=UTC)
    hint = find_time_hint("yesterday", late, "Asia/Shanghai")
    assert hint is not None
    assert hint.start == datetime(2024, 3, 9, tzinfo=timezone(timedelta(hours=8)))
    assert hint.start.astimezone(UTC) == datetime(2024, 3, 8, 16, 0, tzinfo=UTC)
    assert find_time_hint("yesterday", late, "UTC").start.day == 8  # type: ignore[union-attr]


def test_asks_when():
    assert asks_when("When did Caroline go to the support group?")
    assert asks_when("What year did she move?") and asks_when("How long ago was the trip?")
    assert asks_when("她什么时候搬家的？") and asks_when("哪一年毕业的")
    assert not asks_when("What does Caroline like?") and not asks_when("她喜欢什么")


async def test_recall_reports_the_hint_and_ranks_the_window_first(client):
    ids = await store(
        client,
        {
            "user_id": "t",
            "value": "The user went hiking in the mountains.",
            "occurred_at": "2023-05-12T10:00:00Z",
        },  # fmt: skip
        {
            "user_id": "t",
            "value": "The user went hiking by the lake.",
            "occurred_at": "2023-09-02T10:00:00Z",
        },  # fmt: skip
    )
    # the time weight above semantic + keyword: the order does not hang on the embedding
    body = {"query": "Where did the user go hiking in May 2023?", "user_id": "t",
            "now": "2024-01-01T00:00:00Z", "top_k": 5, "weights": {"time": 1.0}}  # fmt: skip
    r = await client.post("/recall", json=body)
    assert r.status_code == 200, r.text
    data = r.json()
    assert data["time_hint"] == {
        "phrase": "May 2023",
        "start": "2023-05-01T00:00:00Z",
        "end": "2023-06-01T00:00:00Z",
        "unit": "month",
    }
    hits = data["memories"]
    assert [h["id"] for h in hits] == ids  # a signal, not a filter: both come back
    assert [h["scores"]["time"] for h in hits] == [1.0, 0.0]
    # the same question in Chinese, in the subject's zone
    zh = {**body, "query": "用户2023年5月去哪里徒步了？", "timezone": "Asia/Shanghai"}
    data = (await client.post("/recall", json=zh)).json()
    assert data["time_hint"]["phrase"] == "2023年5月"
    assert data["time_hint"]["start"] == "2023-05-01T00:00:00+08:00"
    assert data["memories"][0]["id"] == ids[0]
    # the time weight 0: no hint is read
    off = (await client.post("/recall", json={**body, "weights": {"time": 0}})).json()
    assert off["time_hint"] is None


async def test_a_when_question_prefers_a_unit_that_carries_a_date(client):
    await store(
        client,
        {"user_id": "w", "value": "The user adopted a cat.", "occurred_at": "2023-05-12T10:00:00Z"},
        {
            "user_id": "w",
            "value": "The user adopted a cat last week.",
            "occurred_at": "2023-05-12T10:00:00Z",
        },  # fmt: skip
    )
    hits = await recall(client, query="When did the user adopt a cat?", user_id="w",
                        weights=only("time", 1.0, semantic=0.01))  # fmt: skip
    assert hits[0]["value"] == "The user adopted a cat last week."
    assert [h["scores"]["time"] for h in hits] == [0.3, 0.0]


async def test_an_unknown_time_zone_is_a_422(client):
    r = await client.post(
        "/recall", json={"query": "last May", "user_id": "t", "timezone": "Mars/Olympus"}
    )
    assert_problem(r, 422, "invalid_request", "timezone")


@pytest.mark.parametrize(
    "dated",
    ["我昨天领养了一只猫。", "我去年领养了一只猫。", "我上个月领养了一只猫。",
     "我前天领养了一只猫。", "我上星期领养了一只猫。", "我几天前领养了一只猫。",
     "我去年夏天领养了一只猫。"],
)  # fmt: skip
async def test_a_chinese_relative_day_makes_a_unit_dated(client, dated):
    # 昨天 / 去年 / 上个月 / 前天 date the unit against its occurred_at, as "last week" does
    # (tester finding F18).
    await store(
        client,
        {"user_id": "z", "value": "我领养的猫叫咪咪。", "occurred_at": "2023-05-12T10:00:00Z"},
        {"user_id": "z", "value": dated, "occurred_at": "2023-05-12T10:00:00Z"},
    )
    hits = await recall(client, query="我什么时候领养的猫？", user_id="z",
                        weights=only("time", 1.0, semantic=0.01))  # fmt: skip
    assert hits[0]["value"] == dated
    assert [h["scores"]["time"] for h in hits] == [0.3, 0.0]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        # Phrases that point ahead (tester finding: no time_hint for them). NOW is Sunday
        # 2024-03-10; "next Friday" = 下周五 = the Friday of next week, as the extractor
        # dates a plan (app/services/extraction/dates.py).
        ("what's on next Friday?", ("next Friday", "2024-03-15", "2024-03-16", "day")),
        (
            "anything this coming Tuesday",
            ("this coming Tuesday", "2024-03-12", "2024-03-13", "day"),
        ),
        ("what's on Friday?", ("on Friday", "2024-03-15", "2024-03-16", "day")),
        ("my plans for tomorrow", ("tomorrow", "2024-03-11", "2024-03-12", "day")),
        ("the day after tomorrow", ("the day after tomorrow", "2024-03-12", "2024-03-13", "day")),
        ("what do I have in 3 days", ("in 3 days", "2024-03-13", "2024-03-14", "day")),
        ("what happens in two weeks", ("in two weeks", "2024-03-18", "2024-03-25", "week")),
        ("two weeks from now", ("two weeks from now", "2024-03-18", "2024-03-25", "week")),
        ("what's planned next month", ("next month", "2024-04-01", "2024-05-01", "month")),
        ("trips next June", ("next June", "2024-06-01", "2024-07-01", "month")),
        ("where do I go next March", ("next March", "2025-03-01", "2025-04-01", "month")),
        ("下周五有什么安排", ("下周五", "2024-03-15", "2024-03-16", "day")),
        ("下星期三要做什么", ("下星期三", "2024-03-13", "2024-03-14", "day")),
        ("明天的会议", ("明天", "2024-03-11", "2024-03-12", "day")),
        ("后天去哪", ("后天", "2024-03-12", "2024-03-13", "day")),
        ("下个月的计划", ("下个月", "2024-04-01", "2024-05-01", "month")),
        ("下周要做什么", ("下周", "2024-03-11", "2024-03-18", "week")),
        ("下下周有什么", ("下下周", "2024-03-18", "2024-03-25", "week")),
        ("下周末去哪", ("下周末", "2024-03-16", "2024-03-18", "weekend")),
        ("明年的目标", ("明年", "2025-01-01", "2026-01-01", "year")),
        ("三天后有什么安排", ("三天后", "2024-03-13", "2024-03-14", "day")),
        ("两个月后", ("两个月后", "2024-05-01", "2024-06-01", "month")),
        ("下个月3号做什么", ("下个月3号", "2024-04-03", "2024-04-04", "day")),
        # and weekdays behind: the day, not its week
        # "last Friday" asked on Sunday the 10th is the 8th (the Friday just gone, as the
        # extraction dates it); 上周五 is the Friday of last week
        ("what did I do last Friday", ("last Friday", "2024-03-08", "2024-03-09", "day")),
        ("上周五做了什么", ("上周五", "2024-03-01", "2024-03-02", "day")),
    ],
)
def test_future_phrases_become_windows(query, expected):
    assert _span(query) == expected


def test_a_bare_weekday_follows_the_questions_tense():
    wednesday = datetime(2024, 3, 13, 9, 0, tzinfo=UTC)
    assert _span("What did I do on Friday?", now=wednesday)[1] == "2024-03-08"
    assert _span("What's on Friday?", now=wednesday)[1] == "2024-03-15"
    assert _span("周五我做了什么", now=wednesday)[1] == "2024-03-08"
    assert _span("周五有什么安排", now=wednesday)[1] == "2024-03-15"


def test_a_habit_or_a_written_date_beside_a_weekday_makes_no_weekday_window():
    for query in ("what do I do every Friday?", "每周五做什么"):
        assert find_time_hint(query, NOW) is None, query
    # The date written out wins (LoCoMo dev questions; their hints are unchanged).
    assert _span("What did Joanna just finish last Friday on 23 January, 2022?")[0] == (
        "23 January, 2022"
    )
    assert _span("What was on the big screen the Sunday before October 25, 2022?")[0] == (
        "October 25, 2022"
    )


@pytest.mark.parametrize(
    ("said", "asked", "before"),
    [
        ("I have a dentist appointment next Friday at 9.", "What's on next Friday?",
         "The user went to the dentist."),
        ("我下周五要去看牙医。", "下周五有什么安排？", "用户去看了牙医。"),
    ],
)  # fmt: skip
async def test_a_plan_extracted_for_next_friday_is_found_by_next_friday(
    client, said, asked, before
):
    # The extractor dates the plan by its day (said on Monday 11 March: the Friday of next
    # week, the 22nd); the question's phrase names the same day, asked two days later in the
    # same week, so the plan scores the time signal and ranks first.
    r = await client.post(
        "/extract?wait=true",
        json={"user_id": "p", "now": "2024-03-11T09:00:00Z",
              "messages": [{"role": "user", "content": said}]},
    )  # fmt: skip
    assert r.status_code == 200, r.text
    assert r.json()["status"] == "succeeded"
    await store(client, {"user_id": "p", "value": before, "occurred_at": "2024-03-01T09:00:00Z"})
    body = {"query": asked, "user_id": "p", "now": "2024-03-13T09:00:00Z", "top_k": 5,
            "weights": only("time", 1.0, semantic=0.01)}  # fmt: skip
    r = await client.post("/recall", json=body)
    assert r.status_code == 200, r.text
    data = r.json()
    assert data["time_hint"]["start"] == "2024-03-22T00:00:00Z"
    assert data["time_hint"]["end"] == "2024-03-23T00:00:00Z"
    first = data["memories"][0]
    assert first["occurred_at"].startswith("2024-03-22"), first
    assert first["scores"]["time"] == 1.0
    assert all(h["scores"]["time"] == 0.0 for h in data["memories"][1:])


@pytest.mark.parametrize(
    ("query", "start"),
    [("What am I doing on December 20?", date(2026, 12, 20)),
     ("Anything planned in January?", date(2027, 1, 1)),
     ("What do I have on January 5?", date(2027, 1, 5)),
     ("What did I do on December 20?", date(2025, 12, 20)),
     ("When did Caroline go to the support group in May?", date(2026, 5, 1))],
)  # fmt: skip
def test_a_question_about_what_is_coming_takes_the_coming_date(query, start):
    """Tester hbreak5 F38: asked on 2026-12-07, "What am I doing on December 20?" read
    2025-12-20 (a month or day without a year was always the latest one)."""
    hint = find_time_hint(query, datetime(2026, 12, 7, 10, tzinfo=UTC))
    assert hint is not None and hint.start.date() == start, hint
