"""Tester E25: an appointment or plan called off ends the stored one, as a move does (E3).
"My dentist appointment got cancelled.", "The meeting on Friday was called off." and 周五的会取消
了 were stored beside the plan they cancel, which stayed active. Through working memory on the
real Redis: two tasks, the booking then the cancellation, closed as they arrive (seconds
apart, the appointment ahead) or a day apart."""

from __future__ import annotations

import pytest

from tests.services.extraction.closed import close_task, memories, recalled


@pytest.mark.parametrize(
    ("plan", "cancelled"),
    [
        ("I have a dentist appointment on Friday at 3pm.", "My dentist appointment got cancelled."),
        ("I have a meeting with Bob on Friday.", "The meeting on Friday was called off."),
        ("我周五要开会。", "周五的会取消了。"),
    ],
)  # fmt: skip
@pytest.mark.parametrize("apart", [False, True])
async def test_a_cancellation_supersedes_the_plan(wm, plan, cancelled, apart):
    days = ("2026-12-01T09:00:00Z", "2026-12-02T09:00:00Z") if apart else (None, None)
    [booked] = await close_task(wm, "e25-plan", [("user", plan)], at=days[0])
    [called_off] = await close_task(wm, "e25-off", [("user", cancelled)], at=days[1])
    assert called_off["outcome"] == "superseded", called_off
    seen = await memories(wm)
    assert seen[booked["value"]]["status"] == "superseded", seen
    assert seen[booked["value"]]["superseded_by"] == called_off["memory_id"], seen
    assert seen[called_off["value"]]["status"] == "active", seen
    query = "牙医预约 会议 安排" if "会" in plan else "dentist appointment meeting on Friday"
    assert booked["value"] not in await recalled(wm, query), "a cancelled plan is not recalled"


async def test_a_cancelled_friday_is_the_coming_one(wm):
    """Said on Monday 2026-11-30, "the meeting on Friday was called off" is 4 December's,
    though in the past tense (it was dated the Friday before, 27 November)."""
    [unit] = await close_task(
        wm, "e25-day", [("user", "The meeting on Friday was called off.")],
        at="2026-11-30T09:00:00Z",
    )  # fmt: skip
    assert unit["value"] == "The meeting on 2026-12-04 (Friday) was called off.", unit


async def test_another_event_is_not_cancelled(wm):
    """Cancelling the dentist leaves the meeting with Bob alone."""
    said = "I have a meeting with Bob on Friday."
    [meeting] = await close_task(wm, "e25-other", [("user", said)])
    await close_task(wm, "e25-other-off", [("user", "My dentist appointment got cancelled.")])
    assert (await memories(wm))[meeting["value"]]["status"] == "active"
