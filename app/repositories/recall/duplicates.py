"""The one statement of recall's duplicate collapse (app.services.recall.collapse): the pairs
among a recall's final candidates whose values are close enough for the pair decision to look
at — their cosine computed in the database from the stored value vectors (no vector leaves
it), with both values, types and entity keys."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import NamedTuple

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import aliased

from app.models import MemoryUnit


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


async def close_pairs(
    session: AsyncSession, ids: Sequence[uuid.UUID], min_cosine: float
) -> list[ClosePair]:
    """Every pair of the units ``ids`` with the same value hash or a value cosine of at
    least ``min_cosine`` (−1..1); one statement over at most len(ids)²/2 pairs."""
    if len(ids) < 2:
        return []
    a, b = aliased(MemoryUnit), aliased(MemoryUnit)
    cosine = (1 - a.value_embedding.cosine_distance(b.value_embedding)).label("cosine")
    stmt = (
        select(a.id, b.id, a.value, b.value, a.type, b.type, a.entity_keys, b.entity_keys, cosine)
        .join(b, a.id < b.id)
        .where(a.id.in_(list(ids)), b.id.in_(list(ids)))
        .where(
            (a.value_hash == b.value_hash)
            | (a.value_embedding.cosine_distance(b.value_embedding) <= 1 - min_cosine)
        )
    )
    return [ClosePair(*row) for row in (await session.execute(stmt)).all()]
