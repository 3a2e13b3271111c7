"""A later close reads the previous job's last messages as context (tester B19): "Yes, it
expires on 14 March 2027." closed after the question it answers was closed keeps what it
answers, as the same five messages closed once do. English and Chinese."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.usefixtures("empty_queue")


async def close(wm, session: str, *messages: dict) -> dict:  # type: ignore[no-untyped-def]
    r = await wm.client.post(f"/working_memory/{session}/messages",
                             json={"messages": list(messages)})  # fmt: skip
    assert r.status_code == 200, r.text
    r = await wm.client.post(f"/working_memory/{session}/close",
                             json={"now": "2026-12-06T10:00:00Z"})  # fmt: skip
    job = r.json()["job"]
    assert await wm.app.state.extraction.runner.run_inline(job["id"], 30) == "succeeded"
    return (await wm.client.get(f"/extract/{job['id']}")).json()


@pytest.mark.parametrize(
    ("first", "then", "expected"),
    [
        (("I need to renew some documents.", "Sure. Is your passport still valid?"),
         "Yes, it expires on 14 March 2027.", "2027-03-14"),
        (("我要办理一些证件。", "好的。你的护照还有效吗？"),
         "有效，2027年3月14日到期。", "2027年3月14日"),
    ],
)  # fmt: skip
async def test_an_answer_after_a_close_keeps_its_question(wm, first, then, expected):
    said, asked = first
    one = await close(wm, "split-1", {"role": "user", "user_id": "splitu", "content": said},
                      {"role": "assistant", "content": asked})  # fmt: skip
    two = await close(wm, "split-1", {"role": "user", "content": then})
    assert (two["transcript_from"], two["transcript_to"], two["transcript_messages"]) == (3, 3, 1)
    values = [u["value"] for u in two["units"]]
    answer = [v for v in values if expected in v]
    assert answer and ("passport" in answer[0] or "护照" in answer[0]), values
    assert not [u for u in two["units"] if u["value"] in {x["value"] for x in one["units"]}]


async def test_a_choice_answered_after_a_close_is_a_preference(wm):
    """Tester hbreak5 F24: "Aisle, always." answered after the session was closed became the
    event "Aisle, always."; a choice between the two options the question named is a
    preference, in one session or two."""
    asked = "Sure. Which seat do you prefer, aisle or window?"
    said = "Can you book my usual train to Hamburg?"
    await close(wm, "seat-1", {"role": "user", "user_id": "seatu", "content": said},
                {"role": "assistant", "content": asked})  # fmt: skip
    two = await close(wm, "seat-1", {"role": "user", "content": "Aisle, always."})
    assert [(u["type"], u["value"]) for u in two["units"]] == [
        ("preference", "The user prefers an aisle seat.")
    ], two["units"]
