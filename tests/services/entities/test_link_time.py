"""A link from a unit to an entity carries the unit's ``occurred_at`` (migration 0014); a
writer of the version before, which inserts ``(unit_id, entity_id)`` only (a replica not yet
upgraded in a rolling deploy), gets it filled in by PostgreSQL (migration 0015)."""

from __future__ import annotations

from sqlalchemy import text

from tests.services.lifecycle.test_lifecycle import store


async def test_a_link_written_without_its_time_gets_the_unit_s(client, engine):
    # Tester (stop 38): after 0014 a server of the previous version answered 500 on every
    # /store naming an entity (NOT NULL violation on unit_entities.occurred_at).
    [unit] = await store(
        client,
        {"user_id": "mig", "value": "Ivy adopted a cat named Pixel", "entities": ["Ivy", "Pixel"],
         "occurred_at": "2025-04-01T10:00:00Z"},
    )  # fmt: skip
    uid = unit["id"]
    async with engine.begin() as conn:
        links = (
            (
                await conn.execute(
                    text("SELECT entity_id FROM unit_entities WHERE unit_id = :u"), {"u": uid}
                )
            )
            .scalars()
            .all()
        )
        assert len(links) == 2
        await conn.execute(text("DELETE FROM unit_entities WHERE unit_id = :u"), {"u": uid})
        for entity in links:  # as the previous version writes them
            await conn.execute(
                text("INSERT INTO unit_entities (unit_id, entity_id) VALUES (:u, :e)"),
                {"u": uid, "e": entity},
            )
        times = (
            (
                await conn.execute(
                    text(
                        "SELECT DISTINCT ue.occurred_at = u.occurred_at FROM unit_entities ue"
                        " JOIN memory_units u ON u.id = ue.unit_id WHERE ue.unit_id = :u"
                    ),
                    {"u": uid},
                )
            )
            .scalars()
            .all()
        )
    assert times == [True]
