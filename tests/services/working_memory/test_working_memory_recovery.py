"""A hot window that Redis lost is rebuilt from the durable transcript on the next read; one
that was cleared, purged or expired by its idle TTL is not brought back."""

from __future__ import annotations

from sqlalchemy import text

from tests.services.working_memory.test_working_memory import append, msg


async def lose_redis_data(wm) -> None:  # type: ignore[no-untyped-def]
    """What a Redis restart without persistence does to this test's keys."""
    keys = await wm.keys()
    assert keys
    await wm.redis.delete(*keys)
    wm.app.state.resources.working_memory.windows._items.clear()  # the per-process decoded copy


async def window(wm, session: str, **params) -> dict:  # type: ignore[no-untyped-def]
    r = await wm.client.get(f"/working_memory/{session}", params=params)
    assert r.status_code == 200, r.text
    return r.json()


async def test_lost_window_is_rebuilt_from_the_transcript(wm):
    contents = ["book the Lisbon flight for 14 March", "budget is 400 EUR", "window seat"]
    await append(wm, "r1", *(msg(c, user_id="u1") for c in contents))
    await lose_redis_data(wm)
    body = await window(wm, "r1", query="what is the budget?")
    assert [m["content"] for m in body["messages"]] == contents
    assert body["window_messages"] == 3
    # Relevance works on the rebuilt window (embeddings came back too).
    top = max(body["messages"], key=lambda m: m["scores"]["relevance"])
    assert top["content"] == "budget is 400 EUR"
    # The rebuilt window is the window: new appends extend it, nothing doubles.
    await append(wm, "r1", msg("aisle is fine too"))
    assert [m["seq"] for m in (await window(wm, "r1"))["messages"]] == [1, 2, 3, 4]


async def test_rebuild_keeps_the_window_caps(wm):
    wm.configure(max_messages=3)
    await append(wm, "r2", *(msg(f"message number {i}") for i in range(1, 7)))
    await lose_redis_data(wm)
    assert [m["seq"] for m in (await window(wm, "r2"))["messages"]] == [4, 5, 6]


async def test_cleared_window_is_not_brought_back(wm):
    await append(wm, "r3", msg("old task: the code is 4471"))
    r = await wm.client.delete("/working_memory/r3")
    assert r.status_code == 200 and r.json()["window_cleared"] is True
    await append(wm, "r3", msg("new task starts here"))
    await lose_redis_data(wm)
    assert [m["content"] for m in (await window(wm, "r3"))["messages"]] == ["new task starts here"]
    await append(wm, "r3", msg("x"))  # recreate keys, then clear and lose them again
    await wm.client.delete("/working_memory/r3")
    assert (await window(wm, "r3"))["messages"] == []


async def test_expired_window_is_not_rebuilt(wm, engine):
    await append(wm, "r4", msg("said long ago"))
    async with engine.begin() as conn:
        await conn.execute(
            text(
                "UPDATE working_memory_sessions SET updated_at = now() - interval '2 hours' "
                "WHERE session_id = 'r4'"
            )
        )
    await lose_redis_data(wm)  # as if the 1 h idle TTL had run out
    assert (await window(wm, "r4"))["messages"] == []
    assert await wm.keys() == []


async def test_first_append_after_the_loss_brings_the_window_back(wm):
    await append(wm, "r5", msg("first"), msg("second"))
    await lose_redis_data(wm)
    await append(wm, "r5", msg("third"))  # before any read
    assert [m["content"] for m in (await window(wm, "r5"))["messages"]] == [
        "first",
        "second",
        "third",
    ]
