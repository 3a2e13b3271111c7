"""Tester E32: offline distillation made a habit the user gave up a 90-day standing
preference for it ("I always drink coffee in the morning, but not anymore." → "Preference:
The user always drinks coffee in the morning, but not anymore."). Now a liking or habit the
unit itself says was given up, or that an active unit of the subject ends ("The user no
longer drinks espresso."), is not distilled; one the user still has is. Units in through
the API, distilled as the worker does."""

from __future__ import annotations

import uuid

import pytest

from app.services.lifecycle.preference_rule import preference_sentence
from tests.services.lifecycle.test_distill_preference_rule import distill, embedder  # noqa: F401
from tests.services.lifecycle.test_lifecycle import store


@pytest.mark.parametrize(
    "value",
    [
        "I always drink coffee in the morning, but not anymore.",
        "I usually drink coffee but I quit last month.",
        "I love coffee, but I gave it up.",
        "I always drink coffee. Well, I did. I don't drink coffee anymore.",
        "我每天喝咖啡。不过现在不喝了。",
        "我每天喝咖啡，现在已经戒了。",
    ],
)
def test_a_habit_given_up_is_no_preference(value: str) -> None:
    assert preference_sentence(value, []) is None


@pytest.mark.parametrize(
    ("value", "stated"),
    [
        ("I love hiking. I quit smoking.", "The user loves hiking."),
        ("I don't like cilantro anymore.", "The user doesn't like cilantro anymore."),
        ("我喜欢爬山。周末见！", "用户喜欢爬山。"),
    ],
)
def test_a_liking_beside_another_thing_given_up_stays(value: str, stated: str) -> None:
    assert preference_sentence(value, []) == stated


async def preferences(client) -> list[str]:  # type: ignore[no-untyped-def]
    r = await client.get("/memories", params={"user_id": "e32", "limit": 50})
    assert r.status_code == 200, r.text
    return sorted(m["value"] for m in r.json()["memories"] if m["type"] == "preference")


async def test_distillation_writes_no_preference_for_a_habit_given_up(client, engine, embedder):  # noqa: F811
    await store(
        client,
        *[{"user_id": "e32", "type": "event", "value": v} for v in (
            "I always drink coffee in the morning, but not anymore.",
            "我每天喝咖啡。不过现在不喝了。",
            "I always take the train to work.",
        )],
    )  # fmt: skip
    result = await distill(engine, embedder, "e32")
    assert result.looked_at == 3
    assert await preferences(client) == ["Preference: The user always takes the train to work."]


async def test_a_habit_another_unit_ends_is_not_distilled(client, engine, embedder):  # noqa: F811
    await store(
        client,
        {"user_id": "e32", "type": "event", "value": "I always have an espresso after lunch."},
        {"user_id": "e32", "type": "event", "value": "用户每天早上喝奶茶。"},
        {"user_id": "e32", "type": "event", "value": "I always cycle to work."},
        {"user_id": "e32", "type": "fact", "value": "The user no longer drinks espresso."},
        {"user_id": "e32", "type": "fact", "value": "用户不再喝奶茶了。"},
    )
    r = await client.get("/memories", params={"user_id": "e32", "status": "active"})
    held = {m["value"] for m in r.json()["memories"]}
    assert "I always have an espresso after lunch." in held, held  # not superseded: both held
    await distill(engine, embedder, "e32")
    assert await preferences(client) == ["Preference: The user always cycles to work."]


async def test_a_state_that_ended_is_no_habit() -> None:
    """Said three times over two days, "I don't drink coffee anymore." was "Habit: …"; a
    habit the user keeps still is one."""
    from datetime import UTC, datetime, timedelta

    from app.models import MemoryUnit
    from app.services.lifecycle.distill import OfflineDistiller

    first = datetime(2026, 12, 1, tzinfo=UTC)
    units = [
        MemoryUnit(id=uuid.uuid4(), value=v, type="event", merge_count=2, created_at=first,
                   last_confirmed_at=first + timedelta(days=2), entities=[], user_id="e32",
                   confidence=0.8, occurred_at=first, raw_ref=[])
        for v in ("I don't drink coffee anymore.", "I swim in the lake before work.")
    ]  # fmt: skip
    distilled = await OfflineDistiller(3).distill(units)
    assert [d.value for d in distilled] == ["Habit: I swim in the lake before work."]
