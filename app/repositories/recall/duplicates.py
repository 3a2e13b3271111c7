"""The one statement of recall's duplicate collapse (app.services.recall.collapse): the pairs
among a recall's final candidates whose values are close enough for the pair decision to look
at — their cosine computed in the database from the stored value vectors (no vector leaves
it), with both values, types and entity keys.

A fixed SQL text, so asyncpg prepares it once per connection and SQLAlchemy builds nothing per
recall (the ORM form, a self-join of two ``aliased`` entities, cost ~2 ms of CPU per recall to
build, ten times its execution on 15 ids).
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import NamedTuple

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession


class ClosePair(NamedTuple):
    """Two units (``a`` before ``b`` in id order) and the cosine of their values."""

    a: uuid.UUID
    b: uuid.UUID
    a_value: str
    b_value: str
    a_type: str
    b_type: str
    a_keys: list[str]
    b_keys: list[str]
    cosine: float


_CLOSE_PAIRS = text(
    """
    SELECT a.id, b.id, a.value, b.value, a.type, b.type, a.entity_keys, b.entity_keys,
           1 - (a.value_embedding <=> b.value_embedding) AS cosine
      FROM memory_units a
      JOIN memory_units b ON a.id < b.id
     WHERE a.id = ANY(CAST(:ids AS uuid[])) AND b.id = ANY(CAST(:ids AS uuid[]))
       AND (a.value_hash = b.value_hash
            OR (a.value_embedding <=> b.value_embedding) <= CAST(:max_distance AS float8))
    """
)


async def close_pairs(
    session: AsyncSession, ids: Sequence[uuid.UUID], min_cosine: float
) -> list[ClosePair]:
    """Every pair of the units ``ids`` with the same value hash or a value cosine of at
    least ``min_cosine`` (−1..1); one statement over at most len(ids)²/2 pairs."""
    if len(ids) < 2:
        return []
    params = {"ids": list(ids), "max_distance": 1.0 - min_cosine}
    rows = (await (await session.connection()).execute(_CLOSE_PAIRS, params)).all()
    return [
        ClosePair(a, b, av, bv, at, bt, list(ak or ()), list(bk or ()), float(c))
        for a, b, av, bv, at, bt, ak, bk, c in rows
    ]
