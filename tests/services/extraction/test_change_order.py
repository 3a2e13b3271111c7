"""A change said later replaces the state said before, whatever its own event date (tester
hbreak7 H1: "I left Alibaba last week and joined Tencent." after "I work at Alibaba as a product
manager." was superseded BY the old job — its event date, last week, came before the old
statement). Offline, through the API."""

from __future__ import annotations

from tests.services.extraction.extracted import units_of, user


async def _history(client, user_id: str) -> list[tuple[str, str]]:
    params = {"user_id": user_id, "status": "superseded"}
    units = (await client.get("/memories", params=params)).json()["memories"]
    return [(u["value"], u["superseded_by"]) for u in units]


async def test_a_job_change_said_later_replaces_the_job(client):
    await units_of(client, "h1", [user("I work at Alibaba as a product manager.")])
    units = await units_of(client, "h1", [user("I left Alibaba last week and joined Tencent.")])
    active = [v for v, u in units.items() if u["status"] == "active"]
    assert any("Tencent" in v for v in active), units
    assert not any("works at Alibaba" in v for v in active), units
    history = await _history(client, "h1")
    assert [v for v, _ in history] == ["The user works at Alibaba as a product manager."], history
