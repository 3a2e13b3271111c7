"""One statement in traditional and in simplified characters is one fact (htrad6): the value
hash and the pair decision read traditional characters as simplified
(:mod:`app.core.chinese_script`), so 我對花生過敏 and 我对花生过敏 are exact copies; the
stored unit keeps the words it was first stored with."""

from __future__ import annotations

import asyncio
import hashlib
import uuid

import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from app.core import migrate
from app.core.text import normalize, search_text, tokenize, value_hash
from app.services.memory.pairs.decision import Thresholds
from app.services.memory.pairs.plan import Candidate, pair_decision
from tests.conftest import new_database
from tests.services.memory.told import stored


async def test_a_simplified_restatement_merges_into_the_traditional_unit(client) -> None:
    """It was a second unit (the pair decision: unsure, p 0.39) and a review."""
    first = await stored(client, "tw3", "我對花生過敏", type="constraint")
    again = await stored(client, "tw3", "我对花生过敏", type="constraint")
    assert again["outcome"] == "merged" and again["id"] == first["id"], again
    r = await client.get("/memories", params={"user_id": "tw3"})
    assert [u["value"] for u in r.json()["memories"]] == ["我對花生過敏"]


@pytest.mark.parametrize(
    ("new", "old"),
    [("我對花生過敏。", "我对花生过敏。"), ("用戶下週三去臺北開會", "用户下周三去台北开会")],
)
def test_the_two_scripts_are_canonically_equal(new: str, old: str) -> None:
    assert value_hash(new) == value_hash(old) and normalize(new) == normalize(old)
    c = Candidate(old, "fact", frozenset({"臺北"} if "臺" in new else set()), 0.9)
    d = pair_decision(new, "fact", frozenset({"台北"} if "臺" in new else set()), c, Thresholds())
    assert (d.action, d.reason) == ("merge", "canonical_equal"), d


def test_a_traditional_contradiction_is_still_one() -> None:
    """Read in simplified characters, 臺北 against 北京 is the residence slot changed."""
    c = Candidate("我住在北京", "fact", frozenset(), 0.8)
    d = pair_decision("我住在臺北", "fact", frozenset(), c, Thresholds())
    assert d.action == "contradicts", d


_UNIT = text(
    """
    INSERT INTO memory_units (id, namespace, user_id, type, value, entities, entity_keys,
        confidence, source, value_hash, search_text, occurred_at, last_confirmed_at,
        embedding_model, value_embedding)
    VALUES (:id, 'default', 'mig', 'fact', :value, '{}', '{}', 0.9, 'api', :hash, :words,
        now(), now(), 'test', CAST(:emb AS vector))
    """
)


def _before(value: str) -> tuple[str, str]:
    """A hash and keyword text as the versions before 0020 wrote them for a traditional value:
    the hash of its characters as written, its words in that script only."""
    return hashlib.sha256(value.encode("utf-8")).hexdigest(), " ".join(tokenize(value))


async def test_migration_0020_rewrites_traditional_units(engine, database_url) -> None:
    """Units stored before keep the hash of their characters as written: 0020 rewrites the
    hash and keyword text of those in traditional characters; the others keep theirs."""
    values = {uuid.uuid4(): v for v in ("我對花生過敏", "我对花生过敏", "I like tea")}
    async with new_database(engine, database_url, "tw") as url:
        await asyncio.to_thread(migrate.upgrade, url, "0019")
        mine = create_async_engine(url)
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
                for unit_id, value in values.items():
                    now = (value_hash(value), search_text(value))
                    hashed, words = _before(value) if value == "我對花生過敏" else now
                    await conn.execute(_UNIT, {"id": unit_id, "value": value, "hash": hashed,
                                               "words": words, "emb": emb})  # fmt: skip
            await asyncio.to_thread(migrate.upgrade, url, "0020")
            async with mine.connect() as conn:
                rows = await conn.execute(
                    text("SELECT id, value_hash, search_text FROM memory_units")
                )
                got = {r[0]: (r[1], r[2]) for r in rows}
        finally:
            await mine.dispose()
    for unit_id, value in values.items():
        assert got[unit_id] == (value_hash(value), search_text(value)), value
    assert value_hash("我對花生過敏") == value_hash("我对花生过敏")
    assert "过敏" in search_text("我對花生過敏").split()
