"""Task closure: the three signals, two of three close (each pair does, no single one
does), an explicit close always does, and closing is idempotent per transcript range.
Working memory runs on the real Redis and PostgreSQL (the ``wm`` fixture)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import text

from app.core.config import ClosureSettings
from app.services.wiring import Services
from app.services.working_memory.closure import (
    EXPLICIT,
    IDLE,
    SILENCE,
    TOOL_TERMINAL,
    USER_CONFIRMED,
    SilenceScanner,
    closes_task,
    closure_signals,
    is_confirmation,
)
from tests.conftest import count_rows

PHRASES = ClosureSettings().confirmation_phrases


@pytest.mark.parametrize(
    "text_",
    ["ok", "OK!", "Thanks!", "thanks, that's great", "great, thank you", "perfect 👍",
     "好的", "好的，谢谢", "可以", "行", "谢谢！", "没问题", "Okay thanks"],
)  # fmt: skip
def test_confirmations(text_):
    assert is_confirmation(text_, PHRASES)


@pytest.mark.parametrize(
    "text_",
    ["ok but can you also check the weather?", "不行", "thanks but no", "no", "that is not great",
     "What is great about it?", "I think it's ok to use Python for this whole project now",
     "好的，那再帮我查一下明天北京到上海的高铁吧", "可以吗？", "", "book the flight"],
)  # fmt: skip
def test_not_confirmations(text_):
    assert not is_confirmation(text_, PHRASES)


def test_confirmation_phrases_are_configurable():
    assert is_confirmation("Roger that", ["roger that"])
    assert not is_confirmation("ok", ["roger that"])


def msg(role: str, content: str, **metadata: object) -> dict:
    return {"role": role, "content": content, "metadata": metadata,
            "created_at": datetime(2026, 11, 25, 10, 0, tzinfo=UTC)}  # fmt: skip


def test_tool_terminal_signal():
    s = ClosureSettings()
    assert closure_signals([msg("tool", "done", tool_chain_state="completed")], s) == {
        TOOL_TERMINAL
    }
    assert closure_signals([msg("assistant", "booked", terminal=True)], s) == {TOOL_TERMINAL}
    assert closure_signals([msg("tool", "x", status="done")], s) == {TOOL_TERMINAL}
    assert closure_signals([msg("tool", "x", tool_state="running")], s) == set()
    assert closure_signals([msg("user", "x", status="done")], s) == set()  # not a tool message


def test_user_confirmed_reads_the_newest_user_message():
    s = ClosureSettings()
    assert closure_signals([msg("user", "book it"), msg("user", "thanks!")], s) == {USER_CONFIRMED}
    assert closure_signals([msg("user", "thanks!"), msg("user", "one more thing")], s) == set()
    assert closure_signals([msg("user", "ok"), msg("assistant", "You're welcome")], s) == {
        USER_CONFIRMED
    }


def test_silence_signal():
    s = ClosureSettings(silence_s=300)
    start = datetime(2026, 11, 25, 10, 0, tzinfo=UTC)
    messages = [msg("user", "hello")]
    assert closure_signals(messages, s, now=start + timedelta(seconds=299)) == set()
    assert closure_signals(messages, s, now=start + timedelta(seconds=300)) == {SILENCE}


def test_idle_signal_needs_a_user_turn():
    s = ClosureSettings(silence_s=300, idle_s=1800)
    start = datetime(2026, 11, 25, 10, 0, tzinfo=UTC)
    chat = [msg("user", "I am allergic to shellfish."), msg("assistant", "Noted.")]
    assert closure_signals(chat, s, now=start + timedelta(seconds=1799)) == {SILENCE}
    assert closure_signals(chat, s, now=start + timedelta(seconds=1800)) == {SILENCE, IDLE}
    tool_only = [msg("assistant", "Checking the weather.")]
    assert IDLE not in closure_signals(tool_only, s, now=start + timedelta(days=1))
    off = ClosureSettings(silence_s=300, idle_s=0)
    assert IDLE not in closure_signals(chat, off, now=start + timedelta(days=1))


@pytest.mark.parametrize(
    ("signals", "closes"),
    [
        ({TOOL_TERMINAL, USER_CONFIRMED}, True),
        ({TOOL_TERMINAL, SILENCE}, True),
        ({USER_CONFIRMED, SILENCE}, True),
        ({TOOL_TERMINAL}, False),
        ({USER_CONFIRMED}, False),
        ({SILENCE}, False),
        (set(), False),
        ({EXPLICIT}, True),
        ({IDLE, SILENCE}, True),
        ({IDLE}, True),
    ],
)
def test_two_of_three(signals, closes):
    assert closes_task(signals) is closes


# ---- through the API ---------------------------------------------------------------------


pytestmark = pytest.mark.usefixtures("empty_queue")


async def append(wm, session: str, *messages: dict) -> None:  # type: ignore[no-untyped-def]
    r = await wm.client.post(
        f"/working_memory/{session}/messages", json={"messages": list(messages)}
    )
    assert r.status_code == 200, r.text


def user(content: str) -> dict:
    return {"role": "user", "content": content, "user_id": "u1"}


TOOL_DONE = {
    "role": "tool",
    "content": "flight booked",
    "metadata": {"tool_chain_state": "completed"},
}


async def jobs(engine) -> list[dict]:  # type: ignore[no-untyped-def]
    async with engine.connect() as conn:
        rows = await conn.execute(
            text("SELECT id, trigger, trigger_detail, transcript_from, transcript_to, session_id "
                 "FROM extraction_jobs ORDER BY created_at")
        )  # fmt: skip
        return [dict(r._mapping) for r in rows]


async def test_explicit_close_is_idempotent_per_transcript_length(wm, engine):
    await append(wm, "s1", user("I live in Lisbon."), {"role": "assistant", "content": "Nice!"})
    r = await wm.client.post("/working_memory/s1/close", json={"timezone": "Europe/Lisbon"})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["closed"] and body["created"] and EXPLICIT in body["signals"]
    job = body["job"]
    assert job["status"] == "queued" and job["user_id"] == "u1" and job["trigger"] == "close"
    assert (job["transcript_from"], job["transcript_to"], job["transcript_messages"]) == (1, 2, 2)

    again = (await wm.client.post("/working_memory/s1/close")).json()
    assert again["created"] is False and again["job"]["id"] == job["id"]
    assert await count_rows(engine, "extraction_jobs") == 1
    assert await count_rows(engine, "pgqueuer") == 1  # queued once

    await append(wm, "s1", user("I work at Acme."))
    third = (await wm.client.post("/working_memory/s1/close")).json()
    assert third["created"] and third["job"]["id"] != job["id"]
    assert (third["job"]["transcript_from"], third["job"]["transcript_to"]) == (3, 3)


async def test_reclosing_does_not_extract_twice(wm, engine):
    await append(wm, "s2", user("I'm allergic to shellfish."))
    first = (await wm.client.post("/working_memory/s2/close")).json()["job"]
    runner = wm.app.state.extraction.runner
    assert await runner.run_inline(first["id"], 30) == "succeeded"
    assert await count_rows(engine) == 1
    again = (await wm.client.post("/working_memory/s2/close")).json()
    assert again["created"] is False and again["job"]["status"] == "succeeded"
    assert await runner.run_inline(first["id"], 30) == "succeeded"  # a re-run is a no-op
    assert await count_rows(engine) == 1
    assert await count_rows(engine, "extraction_jobs") == 1


async def test_close_errors(wm, engine):
    # An unknown session is an empty one (docs/WORKING_MEMORY.md): nothing to close.
    r = await wm.client.post("/working_memory/nope/close")
    assert r.status_code == 200, r.text
    assert r.json()["closed"] is False and r.json()["job"] is None
    await append(wm, "anon", {"role": "user", "content": "hello"})
    r = await wm.client.post("/working_memory/anon/close")
    assert r.status_code == 422 and "user_id" in r.json()["detail"]
    r = await wm.client.post("/working_memory/anon/close", json={"user_id": "u9"})
    assert r.status_code == 200 and r.json()["job"]["user_id"] == "u9"


async def test_tool_terminal_and_confirmation_close_on_append(wm, engine):
    await append(wm, "s3", user("Book me the 9am flight to Oslo."))
    await append(wm, "s3", TOOL_DONE)
    assert await jobs(engine) == []  # one signal is not enough
    await append(wm, "s3", user("great, thanks!"))
    (job,) = await jobs(engine)
    assert job["trigger"] == "signals"
    assert job["trigger_detail"] == [TOOL_TERMINAL, USER_CONFIRMED]
    assert (job["transcript_from"], job["transcript_to"]) == (1, 3)
    await append(wm, "s3", user("thanks again"))  # no new tool chain: no new task closed
    assert len(await jobs(engine)) == 1


async def test_owner_arriving_after_both_signals_closes_on_that_append(wm, engine):
    # Both signals, but nobody to extract for: no job yet.
    await append(wm, "s3b", {"role": "user", "content": "Book the Oslo flight."}, TOOL_DONE,
                 {"role": "user", "content": "great, thanks!"})  # fmt: skip
    assert await jobs(engine) == []
    # An append without any signal of its own, but the first to name the owner: closes.
    await append(wm, "s3b", {"role": "assistant", "content": "Done.", "user_id": "u1"})
    (job,) = await jobs(engine)
    assert job["trigger"] == "signals" and (job["transcript_from"], job["transcript_to"]) == (1, 4)


async def test_append_without_a_signal_leaves_a_signalled_session_open(wm, engine):
    await append(wm, "s3c", user("Book me the 9am flight to Oslo."), TOOL_DONE)
    await append(wm, "s3c", {"role": "assistant", "content": "Anything else?", "user_id": "u1"})
    assert await jobs(engine) == []  # still one signal
    await append(wm, "s3c", user("ok, thanks"))
    (job,) = await jobs(engine)
    assert job["trigger_detail"] == [TOOL_TERMINAL, USER_CONFIRMED]


async def test_confirmation_alone_does_not_close(wm, engine):
    await append(wm, "s4", user("What's the capital of Norway?"),
                 {"role": "assistant", "content": "Oslo."}, user("ok thanks"))  # fmt: skip
    assert await jobs(engine) == []


async def scan_later(wm) -> int:  # type: ignore[no-untyped-def]
    resources = wm.app.state.resources
    scanner = SilenceScanner(
        wm.app.state.session_factory,
        lambda session: Services(resources, session).closure(),
        wm.settings.closure,
    )
    return await scanner.scan(now=datetime.now(UTC) + timedelta(seconds=301))


async def test_silence_and_tool_terminal_close(wm, engine):
    await append(wm, "s5", user("Book a table for two."), TOOL_DONE)
    assert await jobs(engine) == []
    assert await scan_later(wm) == 1
    (job,) = await jobs(engine)
    assert job["trigger_detail"] == [SILENCE, TOOL_TERMINAL]


async def test_silence_and_confirmation_close(wm, engine):
    await append(wm, "s6", user("Remind me: I prefer aisle seats."), user("ok, thanks"))
    assert await jobs(engine) == []
    assert await scan_later(wm) == 1
    (job,) = await jobs(engine)
    assert job["trigger_detail"] == [SILENCE, USER_CONFIRMED]


async def test_silence_alone_does_not_close(wm, engine):
    await append(wm, "s7", user("I have two cats."))
    assert await scan_later(wm) == 0
    assert await jobs(engine) == []


async def test_a_chat_that_just_stops_closes_after_the_idle_time(wm, engine):
    # Tester C5: a chat ending with the agent's answer (no "thanks", no tool) had only the
    # silence signal and was never extracted, however long it stayed silent.
    await append(wm, "s8", user("I am allergic to shellfish."),
                 {"role": "assistant", "content": "Noted, I will avoid shellfish."})  # fmt: skip
    await append(wm, "s9", {"role": "assistant", "content": "Anything else?", "user_id": "u1"})
    resources = wm.app.state.resources
    scanner = SilenceScanner(
        wm.app.state.session_factory,
        lambda session: Services(resources, session).closure(),
        wm.settings.closure,
    )
    assert wm.settings.closure.idle_s == 1800
    assert await scanner.scan(now=datetime.now(UTC) + timedelta(seconds=301)) == 0
    assert await scanner.scan(now=datetime.now(UTC) + timedelta(seconds=1801)) == 1
    (job,) = await jobs(engine)
    assert (job["session_id"], job["trigger_detail"]) == ("s8", [IDLE, SILENCE])
    # once: a later scan finds nothing new
    assert await scanner.scan(now=datetime.now(UTC) + timedelta(seconds=3700)) == 0


def test_session_timezone_comes_from_message_metadata():
    from app.services.working_memory.closure import session_timezone

    assert session_timezone([msg("user", "hi", timezone="Asia/Shanghai")]) == "Asia/Shanghai"
    assert session_timezone([msg("user", "hi", timezone="Mars/Base")]) == "UTC"
    assert session_timezone([msg("user", "hi")]) == "UTC"
