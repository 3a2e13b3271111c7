"""SQL on memory units for the write side: :class:`MemoryRepository` (the subject's advisory
lock, lookups by value hash, following merges, adds and reads by id), with :class:`Subject`
(the dedupe scope and its lock key) and :class:`Neighbour` (an existing unit and its cosine
to a new value). Recall's statements are in app.repositories.recall.repository, the nearest
neighbours of a new unit (dedupe and the conflict check) in
app.repositories.memory.neighbours."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import (
    ColumnElement,
    and_,
    select,
    text,
)
from sqlalchemy.ext.asyncio import AsyncSession

from app.core.vocabulary import UnitStatus
from app.models import MemoryUnit
from app.repositories.memory.filters import agent_clause, alive_clause

_LOCK = text("SELECT pg_advisory_xact_lock(hashtextextended(:k, 0))")
_LOCK_AND_SCAN = text(
    "SELECT pg_advisory_xact_lock(hashtextextended(:k, 0)),"
    " set_config('hnsw.iterative_scan', 'strict_order', true)"
)


@dataclass(frozen=True)
class Subject:
    """The dedupe scope of a unit: namespace + user + optional agent."""

    namespace: str
    user_id: str
    agent_id: str | None

    def lock_key(self) -> str:
        return f"{self.namespace}\x1f{self.user_id}\x1f{self.agent_id or ''}"


@dataclass(frozen=True)
class Neighbour:
    """An existing active unit and its cosine similarity to a new value."""

    unit: MemoryUnit
    cosine: float


class MemoryRepository:
    """Memory-unit queries bound to one session; never commits."""

    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def lock_subject(self, subject: Subject, *, iterative_scan: bool = False) -> None:
        """Serialise writers of one subject until the transaction ends (so two identical
        stores at the same moment cannot both create a row). ``iterative_scan``: the same
        statement sets pgvector's ``hnsw.iterative_scan = strict_order`` for the rest of the
        transaction, as ``NeighbourRepository.nearest_active`` needs (one round trip less;
        then pass it ``scan_set=True``)."""
        await self.session.execute(
            _LOCK_AND_SCAN if iterative_scan else _LOCK, {"k": subject.lock_key()}
        )

    async def lock_key(self, key: str) -> None:
        """A transaction-scoped advisory lock on an arbitrary string."""
        await self.session.execute(
            text("SELECT pg_advisory_xact_lock(hashtextextended(:k, 1))"), {"k": key}
        )

    async def find_by_hashes(
        self, subject: Subject, value_hashes: Sequence[str], now: datetime
    ) -> dict[str, list[MemoryUnit]]:
        """The subject's active units not expired by ``now`` whose normalised value has one
        of these hashes, oldest first per hash, rows locked (``FOR UPDATE``); one statement
        for a whole batch."""
        if not value_hashes:
            return {}
        stmt = (
            select(MemoryUnit)
            .where(
                live_units(subject, now),
                MemoryUnit.value_hash.in_(list(dict.fromkeys(value_hashes))),
            )
            .order_by(MemoryUnit.created_at)
            .with_for_update()
        )
        found: dict[str, list[MemoryUnit]] = {}
        for unit in (await self.session.scalars(stmt)).all():
            found.setdefault(unit.value_hash, []).append(unit)
        return found

    async def resolve_merged(self, unit: MemoryUnit, max_hops: int = 16) -> MemoryUnit:
        """The unit a ``merged`` unit went into (following merges of merges); the unit itself
        when it was not merged or its survivor is gone."""
        current = unit
        for _ in range(max_hops):
            if current.status != UnitStatus.MERGED or current.merged_into is None:
                break
            survivor = await self.get(current.namespace, current.merged_into)
            if survivor is None:
                break
            current = survivor
        return current

    def add(self, unit: MemoryUnit) -> None:
        """Stage a new unit (written at the next flush)."""
        self.session.add(unit)

    async def flush(self) -> None:
        """Write staged changes so later queries in this transaction see them."""
        await self.session.flush()

    async def get(self, namespace: str, unit_id: uuid.UUID) -> MemoryUnit | None:
        """One unit of this namespace, or None (another namespace's unit is None too)."""
        stmt = select(MemoryUnit).where(MemoryUnit.namespace == namespace, MemoryUnit.id == unit_id)
        return (await self.session.scalars(stmt)).first()

    async def get_many(self, namespace: str, ids: Sequence[uuid.UUID]) -> list[MemoryUnit]:
        """Units by id, in the order of ``ids`` (missing ids skipped)."""
        if not ids:
            return []
        stmt = select(MemoryUnit).where(
            MemoryUnit.namespace == namespace, MemoryUnit.id.in_(list(ids))
        )
        found = {u.id: u for u in (await self.session.scalars(stmt)).all()}
        return [found[i] for i in ids if i in found]

    async def predecessors(self, subject: Subject, head: uuid.UUID) -> list[MemoryUnit]:
        """The units of ``subject`` superseded, directly or through others, by ``head``: its
        supersede chain before it (one recursive statement on ``superseded_by``)."""
        where = and_(
            MemoryUnit.namespace == subject.namespace,
            MemoryUnit.user_id == subject.user_id,
            agent_clause(subject.agent_id),
            MemoryUnit.status == UnitStatus.SUPERSEDED,
        )
        chain = (
            select(MemoryUnit.id)
            .where(where, MemoryUnit.superseded_by == head)
            .cte("chain", recursive=True)
        )
        chain = chain.union(
            select(MemoryUnit.id).join(chain, MemoryUnit.superseded_by == chain.c.id).where(where)
        )
        stmt = select(MemoryUnit).where(MemoryUnit.id.in_(select(chain.c.id)))
        return list((await self.session.scalars(stmt)).all())


def live_units(subject: Subject, now: datetime) -> ColumnElement[bool]:
    """The subject's units a new or corrected statement may merge into: active and not
    expired by ``now`` (the write path's hash lookup and neighbour read and the corrections'
    candidates all use it, so a unit past ``expires_at`` that the archival sweep has not
    reached yet is nobody's merge target)."""
    return and_(
        MemoryUnit.namespace == subject.namespace,
        MemoryUnit.user_id == subject.user_id,
        agent_clause(subject.agent_id),
        MemoryUnit.status == UnitStatus.ACTIVE,
        alive_clause(now),
    )
