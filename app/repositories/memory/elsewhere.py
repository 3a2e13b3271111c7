"""The same user's units in the other write subjects (another agent, or none), nearest to the
units a store just created, and the ``duplicate`` links the write path records between a new
unit and such a unit when the pair decision merges them (app.services.memory.elsewhere).

Each agent's units are a write subject of their own: the write path never merges across
subjects (an agent's memory stays its own), so two agents of one user can hold the same fact
in two wordings. The link lets recall show them as one hit (app.services.recall.collapse)
whatever their cosine, without deciding pairs on the recall's path.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import numpy as np
from sqlalchemy import delete, or_, select, text, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.core.vocabulary import UnitStatus
from app.models import MemoryLink, MemoryUnit
from app.repositories.memory.neighbours import vector_text
from app.repositories.memory.units import Subject

DUPLICATE_LINK = "duplicate"
"""``memory_links.kind`` of two units of one user in two write subjects that state one fact
(``target_id`` the newer unit, ``source_id`` the one it restates); both stay active."""

REPLACES_LINK = "replaces"
"""``memory_links.kind`` of a unit (``target_id``) that changes what a unit of another write
subject of the same user (``source_id``) says ("moved to Munich" told to one agent, "lives in
Berlin" to another); both stay active in their subjects, and recall ranks the older right
after the newer."""

# Per probe, the nearest live units of the same namespace and user in any other write subject
# (agent_id IS DISTINCT FROM the probe's: NULL and every other agent), cosine >= :floor.
_ELSEWHERE_SQL = text(
    """
WITH q AS MATERIALIZED (
    SELECT t.i, t.v::vector AS v
      FROM unnest(CAST(:i AS int[]), CAST(:v AS text[])) AS t(i, v)
)
SELECT q.i AS probe, n.id, n.value, n.type, n.entity_keys, n.metadata, n.occurred_at,
       n.created_at, n.cv
  FROM q
  CROSS JOIN LATERAL (
      SELECT u.id, u.value, u.type, u.entity_keys, u.metadata, u.occurred_at, u.created_at,
             1 - (u.value_embedding <=> q.v) AS cv
        FROM memory_units u
       WHERE u.namespace = :ns AND u.user_id = :user
         AND u.agent_id IS DISTINCT FROM CAST(:agent AS varchar)
         AND u.status = :active AND u.embedding_model = :model
         AND (u.expires_at IS NULL OR u.expires_at > :now)
       ORDER BY u.value_embedding <=> q.v
       LIMIT :k
  ) AS n
 WHERE n.cv >= :floor
"""
)


# One link a pair of units: none when the pair is linked either way already.
_LINK_SQL = text(
    """
INSERT INTO memory_links (target_id, source_id, kind, created_at)
SELECT x.t, x.s, x.k, :now
  FROM unnest(CAST(:t AS uuid[]), CAST(:s AS uuid[]), CAST(:k AS varchar[])) AS x(t, s, k)
 WHERE NOT EXISTS (
       SELECT 1 FROM memory_links m
        WHERE m.kind IN ('duplicate', 'replaces')
          AND ((m.target_id = x.t AND m.source_id = x.s)
               OR (m.target_id = x.s AND m.source_id = x.t)))
ON CONFLICT DO NOTHING
"""
)


@dataclass(frozen=True)
class Elsewhere:
    """A live unit of another write subject near a probe, and the cosine of the two values."""

    id: uuid.UUID
    value: str
    type: str
    entity_keys: list[str]
    metadata: dict[str, Any]
    occurred_at: datetime | None
    created_at: datetime
    cosine: float


class ElsewhereRepository:
    """Reads and writes of cross-subject duplicates, bound to one session; never commits."""

    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def nearest(
        self,
        subject: Subject,
        model: str,
        vectors: Sequence[np.ndarray],
        *,
        limit: int,
        floor: float,
        now: datetime,
    ) -> list[list[Elsewhere]]:
        """Per vector (in order), at most ``limit`` live units (active, not expired by
        ``now``) of ``subject``'s namespace and user in another write subject, embedded by
        ``model``, whose value cosine is ≥ ``floor``; most similar first. One statement."""
        if not vectors:
            return []
        params = {
            "i": list(range(len(vectors))),
            "v": [vector_text(v) for v in vectors],
            "ns": subject.namespace,
            "user": subject.user_id,
            "agent": subject.agent_id,
            "active": UnitStatus.ACTIVE.value,
            "model": model,
            "now": now,
            "k": int(limit),
            "floor": float(floor),
        }
        out: list[list[Elsewhere]] = [[] for _ in vectors]
        for row in (await self.session.execute(_ELSEWHERE_SQL, params)).all():
            meta = row.metadata if isinstance(row.metadata, dict) else {}
            keys = list(row.entity_keys or ())
            out[row.probe].append(
                Elsewhere(
                    row.id,
                    row.value,
                    row.type,
                    keys,
                    meta,
                    row.occurred_at,
                    row.created_at,
                    float(row.cv),
                )
            )
        for found in out:
            found.sort(key=lambda e: -e.cosine)
        return out

    async def link(
        self, pairs: Sequence[tuple[uuid.UUID, uuid.UUID, str]], now: datetime
    ) -> list[tuple[uuid.UUID, uuid.UUID, str]]:
        """Record each (target unit, the unit of another subject, kind:
        :data:`DUPLICATE_LINK` or :data:`REPLACES_LINK`), one link a pair: the first of a
        pair given twice (either way) counts, and a pair already linked either way keeps its
        link. Returns the pairs given, one per pair. The units must be flushed."""
        first: dict[frozenset[uuid.UUID], tuple[uuid.UUID, uuid.UUID, str]] = {}
        for new, old, kind in pairs:
            first.setdefault(frozenset((new, old)), (new, old, kind))
        rows = list(first.values())
        if not rows:
            return rows
        params = {
            "t": [t for t, _, _ in rows],
            "s": [s for _, s, _ in rows],
            "k": [k for _, _, k in rows],
            "now": now,
        }
        await self.session.execute(_LINK_SQL, params)
        return rows

    async def unlink(self, unit_id: uuid.UUID) -> list[MemoryUnit]:
        """Remove every ``duplicate`` and ``replaces`` link of ``unit_id`` (either side);
        returns the units on the other side of them (loaded)."""
        gone = await self.session.execute(
            delete(MemoryLink)
            .where(
                MemoryLink.kind.in_((DUPLICATE_LINK, REPLACES_LINK)),
                or_(MemoryLink.target_id == unit_id, MemoryLink.source_id == unit_id),
            )
            .returning(MemoryLink.target_id, MemoryLink.source_id)
        )
        others = {t if s == unit_id else s for t, s in gone.all()} - {unit_id}
        if not others:
            return []
        found = await self.session.scalars(select(MemoryUnit).where(MemoryUnit.id.in_(others)))
        return sorted(found, key=lambda u: u.id)

    async def undecided(self, limit: int) -> list[MemoryUnit]:
        """At most ``limit`` units not yet decided against other subjects
        (``links_decided`` false: stored before the write path decided them, migration 0021),
        oldest first, any status, locked (rows another sweep holds are skipped)."""
        found = await self.session.scalars(
            select(MemoryUnit)
            .where(MemoryUnit.links_decided.is_(False))
            .order_by(MemoryUnit.created_at, MemoryUnit.id)
            .limit(limit)
            .with_for_update(skip_locked=True)
        )
        return list(found)

    async def mark_decided(self, unit_ids: Sequence[uuid.UUID]) -> None:
        """Set ``links_decided`` on ``unit_ids``."""
        if unit_ids:
            await self.session.execute(
                update(MemoryUnit)
                .where(MemoryUnit.id.in_(list(unit_ids)))
                .values(links_decided=True)
                .execution_options(synchronize_session=False)
            )
