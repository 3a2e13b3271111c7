"""One normalisation of entity names everywhere (tester F7): ``memory_units.entity_keys``, the
entity filter, the recall's entity signal and the entity graph all use
``app.core.entity_names.entity_key`` (NFKC width folding, case folding, whitespace collapsed,
bidi controls removed). Migration 0016 rewrites keys stored in the earlier, case-fold-only
form, and its downgrade writes that form back."""

from __future__ import annotations

import asyncio
import uuid

from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from alembic import command
from app.core import migrate
from app.core.text import entity_keys
from tests.conftest import new_database
from tests.services.lifecycle.test_lifecycle import store


def test_unit_keys_are_the_entity_graph_s_keys():
    assert entity_keys(["６００５１９", "600519", "New  York", "\u200eIvy\u200f", "ＡＢＣ"]) == [
        "600519",
        "new york",
        "ivy",
        "abc",
    ]
    assert entity_keys(["\u200e", " "]) == []  # nothing left: no key


async def _recall(client, **body):  # type: ignore[no-untyped-def]
    r = await client.post("/recall", json=body)
    assert r.status_code == 200, r.text
    return r.json()["memories"]


async def test_a_full_width_name_gets_the_entity_signal_of_its_half_width_query(client, engine):
    unit, _ = await store(
        client,
        {"user_id": "f7", "value": "用户持有的股票代码", "entities": ["６００５１９"]},
        {"user_id": "f7", "value": "用户住在上海", "entities": ["上海"]},
    )
    async with engine.connect() as conn:
        keys = (
            await conn.execute(
                text("SELECT entity_keys FROM memory_units WHERE id = :i"), {"i": unit["id"]}
            )
        ).scalar_one()
    assert keys == ["600519"]
    for query in ("600519 的股价", "how is 600519 doing"):
        hits = await _recall(client, user_id="f7", query=query)
        by_id = {h["id"]: h for h in hits}
        assert by_id[unit["id"]]["scores"]["entity"] > 0, query
    # and the filter, in either width, finds it
    for name in ("600519", "６００５１９"):
        hits = await _recall(client, user_id="f7", query="股票", entities=[name])
        assert [h["id"] for h in hits] == [unit["id"]], name


async def test_a_filter_name_with_nothing_left_is_refused(client):
    await store(client, {"user_id": "f7b", "value": "Ivy likes tea", "entities": ["Ivy"]})
    r = await client.post(
        "/recall", json={"user_id": "f7b", "query": "tea", "entities": ["Ivy", "\u200e\u200f"]}
    )
    assert r.status_code == 422, r.text
    assert r.headers["content-type"].startswith("application/problem+json")
    detail = r.json()["detail"]
    assert "entities.1" in detail and "no visible text" in detail, r.json()


_OLD_UNIT = text(
    """
    INSERT INTO memory_units (id, namespace, user_id, type, value, entities, entity_keys,
        confidence, source, value_hash, occurred_at, last_confirmed_at, embedding_model,
        value_embedding)
    VALUES (:id, 'default', 'mig', 'fact', :value, :entities, :keys, 0.9, 'api', :hash,
        now(), now(), 'test', CAST(:emb AS vector))
    """
)


async def test_migration_0016_rewrites_stored_keys_and_downgrades(engine, database_url):
    async with new_database(engine, database_url, "ek") as url:
        await asyncio.to_thread(migrate.upgrade, url, "0015")
        mine = create_async_engine(url)
        rows = {
            uuid.uuid4(): (["６００５１９", "Ana"], ["６００５１９", "ana"], ["600519", "ana"]),
            uuid.uuid4(): (["New  York"], ["new  york"], ["new york"]),
            uuid.uuid4(): (["Bob"], ["bob"], ["bob"]),
            uuid.uuid4(): (["\u200e"], ["\u200e"], []),
        }
        try:
            async with mine.begin() as conn:
                dim = (
                    await conn.execute(
                        text(
                            "SELECT atttypmod FROM pg_attribute WHERE attname = 'value_embedding'"
                            " AND attrelid = 'memory_units'::regclass"
                        )
                    )
                ).scalar_one()
                emb = str([0.1] * (dim if dim > 0 else 8))
                for i, (unit_id, (names, old, _new)) in enumerate(rows.items()):
                    await conn.execute(
                        _OLD_UNIT,
                        {"id": unit_id, "value": f"unit {i}", "entities": names, "keys": old,
                         "hash": f"{i:064d}", "emb": emb},
                    )  # fmt: skip

            async def stored() -> dict[uuid.UUID, list[str]]:
                async with mine.connect() as conn:
                    got = await conn.execute(text("SELECT id, entity_keys FROM memory_units"))
                    return {r[0]: list(r[1]) for r in got}

            await asyncio.to_thread(migrate.upgrade, url, "0016")
            assert await stored() == {k: new for k, (_, _, new) in rows.items()}
            await asyncio.to_thread(command.downgrade, migrate.alembic_config(url), "0015")
            assert await stored() == {k: old for k, (_, old, _) in rows.items()}
        finally:
            await mine.dispose()
