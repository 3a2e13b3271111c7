"""Tester E29: a preference flipped back must leave the newest active. "I prefer a window
seat." then "Actually, aisle again." made no unit (window stayed); aisle, window, aisle said
within the hour (their order "unclear" to the write path) left window active beside aisle,
flagged, the third "aisle" merged into the first. Through working memory on the real Redis,
each statement its own task, closed as it arrives."""

from __future__ import annotations

import pytest

from tests.services.extraction.closed import close_task, memories, open_reviews, recalled


@pytest.mark.parametrize(
    ("first", "back", "now"),
    [
        ("I prefer a window seat.", "Actually, aisle again.",
         "The user now prefers an aisle seat."),
        ("我喜欢靠窗的座位。", "其实还是靠过道吧。", "用户现在喜欢靠过道的座位。"),
    ],
)  # fmt: skip
async def test_a_short_flip_back_supersedes_the_preference(wm, first, back, now):
    [old] = await close_task(wm, "seat-1", [("user", first)])
    [new] = await close_task(wm, "seat-2", [("user", back)])
    assert (new["value"], new["outcome"]) == (now, "superseded"), new
    seen = await memories(wm)
    assert seen[old["value"]]["status"] == "superseded", seen
    assert seen[now]["status"] == "active", seen


async def test_aisle_window_aisle_within_the_hour_ends_on_aisle(wm):
    said = ["I prefer an aisle seat.", "I prefer a window seat.", "I prefer an aisle seat."]
    outcomes = [(await close_task(wm, f"flip-{i}", [("user", s)]))[0]["outcome"]
                for i, s in enumerate(said)]  # fmt: skip
    assert outcomes == ["created", "conflict", "merged"], outcomes
    seen = await memories(wm)
    assert seen["The user prefers a window seat."]["status"] == "superseded", seen
    assert seen["The user prefers an aisle seat."]["status"] == "active", seen
    assert await open_reviews(wm) == []  # the restatement decided the contradiction
    assert await recalled(wm, "Which seat does the user prefer?", top_k=1) == [
        "The user prefers an aisle seat."
    ]


async def test_a_change_said_with_now_supersedes_at_once(wm):
    """ "Actually I prefer a window seat now." kept no "now" ("The user prefers a window seat.")
    and so was only flagged beside the aisle said minutes before."""
    await close_task(wm, "now-1", [("user", "I prefer an aisle seat.")])
    [new] = await close_task(wm, "now-2", [("user", "Actually I prefer a window seat now.")])
    assert (new["value"], new["outcome"]) == ("The user now prefers a window seat.", "superseded")
