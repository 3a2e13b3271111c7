"""A dated move keeps its day (tester F22): "I moved to Bergen last month." was anchored at the
moment it was said, because dated last month it ordered before "The user lives in Oslo."
(said before it) and was taken for a backfill. Now the move's ``occurred_at`` is the day it
names and ``metadata.said_at`` when it was said; a change is ordered by when it was said, so
it still supersedes the old home, and ``as_of`` a day after the move shows the new home.
A move in an old transcript (said before the home) is still the backfill. English and
Chinese, offline ``/extract`` on the embedded PostgreSQL."""

from __future__ import annotations

import pytest

from tests.services.extraction.extracted import NOW
from tests.services.extraction.test_state_endings import LATER, extract, listed


async def units(client, user_id: str) -> dict[str, dict]:  # type: ignore[no-untyped-def]
    r = await client.get(
        "/memories", params={"user_id": user_id, "include_superseded": "true", "limit": 50}
    )
    return {m["value"]: m for m in r.json()["memories"]}


@pytest.mark.parametrize(
    ("home", "move", "moved"),
    [
        ("I live in Oslo.", "I moved to Bergen last month.",
         "The user moved to Bergen in November 2026 and now lives there."),
        ("我住在北京。", "我上个月搬到上海了。", "用户2026年11月搬到了上海，现在住在那里。"),
    ],
)  # fmt: skip
async def test_a_dated_move_keeps_its_day_and_supersedes_the_home(client, home, move, moved):
    (old,) = await extract(client, "f22", home, NOW)
    outcomes = await extract(client, "f22", move, LATER)
    assert outcomes == {moved: "superseded"}, outcomes
    seen = await units(client, "f22")
    assert seen[old]["status"] == "superseded" and seen[moved]["status"] == "active", seen
    assert seen[moved]["occurred_at"].startswith("2026-11-01"), seen[moved]
    assert seen[moved]["metadata"]["said_at"].startswith("2026-12-06T10:05"), seen[moved]
    mid_november = await listed(client, "f22", as_of="2026-11-15T00:00:00Z")
    assert list(mid_november) == [moved], mid_november


async def test_a_move_said_in_an_old_transcript_is_the_backfill(client):
    (old,) = await extract(client, "f22b", "I live in Oslo.", NOW)
    outcomes = await extract(
        client, "f22b", "I moved to Bergen last month.", "2025-03-10T10:00:00Z"
    )
    (moved,) = outcomes
    seen = await units(client, "f22b")
    assert seen[old]["status"] == "active", seen  # the home said later holds
    assert seen[moved]["status"] == "superseded", seen
