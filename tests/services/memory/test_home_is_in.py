""" "The user's home is in Berlin" is where the user lives (tester hbreak10 L1): a later "The
user moved to Munich." was a second active unit, and Berlin ranked first for "Where does the
user live?"."""

from __future__ import annotations

from tests.services.memory.told import stored


async def test_a_move_supersedes_a_home_in_another_city(client) -> None:
    old = await stored(client, "l1", "The user's home is in Berlin, Germany.", type="fact",
                       occurred_at="2026-11-02T11:00:00Z")  # fmt: skip
    new = await stored(client, "l1", "The user moved to Munich.", type="fact",
                       occurred_at="2026-12-01T10:00:00Z")  # fmt: skip
    assert new["outcome"] == "superseded", new
    assert (await client.get(f"/memories/{old['id']}")).json()["status"] == "superseded"
    r = await client.post("/recall", json={"query": "Where does the user live?", "user_id": "l1"})
    assert [h["value"] for h in r.json()["memories"]][:1] == ["The user moved to Munich."]
