"""A review decided while one of its units is being forgotten (tester E20: a 500 from an
assertion): the decision waits for the forget's lock, then finds the review gone with the
unit and answers 404 `not_found`; nothing else changes."""

from __future__ import annotations

import asyncio

from sqlalchemy import text

from tests.services.memory.test_reviews import open_pair


async def test_a_review_whose_unit_is_forgotten_meanwhile_is_a_404(client, engine):
    old, new, review_id = await open_pair(client, "racer")
    async with engine.connect() as conn:
        tx = await conn.begin()
        # What a concurrent forget does: the subject's write lock, then the unit's row (its
        # reviews go with it), committed after the decision has read the review.
        await conn.execute(
            text("SELECT pg_advisory_xact_lock(hashtextextended(:k, 0))"),
            {"k": "default\x1fracer\x1f"},
        )
        await conn.execute(text("DELETE FROM memory_units WHERE id = :id"), {"id": old["id"]})
        decide = asyncio.create_task(client.post(f"/reviews/{review_id}", json={"action": "merge"}))
        await asyncio.sleep(1.0)  # the decision has read the review and waits for the lock
        assert not decide.done()
        await tx.commit()
    r = await decide
    assert r.status_code == 404, r.text
    assert r.json()["code"] == "not_found"
    unit = (await client.get(f"/memories/{new['id']}")).json()
    assert unit["status"] == "active" and unit["merge_count"] == 0, unit
