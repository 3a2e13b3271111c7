"""SQL of the recall access log (docs/ARCHITECTURE.md): one statement per recall that refreshes
``last_accessed_at``, extends the expiry of active units and logs each returned unit."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import datetime, timedelta

from sqlalchemy import delete, text
from sqlalchemy.ext.asyncio import AsyncSession

from app.models import MemoryAccess

# One round trip: the UPDATE's RETURNING feeds the INSERT. Units are locked in id order (the
# sorted array drives the index scan), so two recalls touching the same units cannot deadlock.
# A unit is rewritten only when its last_accessed_at is older than REWRITE_AFTER or its expiry
# would move by more than REWRITE_AFTER: an UPDATE of memory_units is not HOT (the table is
# packed, and expires_at is indexed), so each one inserts into every index of the table, both
# HNSW graphs included — 20-240 ms for 10 units at 100k (docs/BENCHMARKS.md). Every access is
# still logged.
_RECORD = text(
    """
    WITH touched AS (
        UPDATE memory_units
           SET last_accessed_at = :at,
               expires_at = CASE
                   WHEN status = 'active' AND expires_at IS NOT NULL
                        AND CAST(:extend_to AS timestamptz) IS NOT NULL
                   THEN GREATEST(expires_at, CAST(:extend_to AS timestamptz))
                   ELSE expires_at END
         WHERE id = ANY(CAST(:ids AS uuid[]))
           AND (last_accessed_at IS NULL
                OR last_accessed_at < CAST(:at AS timestamptz) - CAST(:rewrite_after AS interval)
                OR (status = 'active' AND expires_at IS NOT NULL
                    AND CAST(:extend_to AS timestamptz) IS NOT NULL
                    AND expires_at < CAST(:extend_to AS timestamptz)
                                     - CAST(:rewrite_after AS interval)))
    )
    INSERT INTO memory_access_log (unit_id, namespace, accessed_at)
    SELECT id, namespace, :at FROM memory_units WHERE id = ANY(CAST(:ids AS uuid[]))
    """
)
# How stale last_accessed_at and the extended expiry may get before a unit is rewritten.
REWRITE_AFTER = timedelta(hours=1)


class AccessLogRepository:
    """Access-log writes bound to one session; never commits."""

    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def record(
        self, ids: Sequence[uuid.UUID], at: datetime, extend_to: datetime | None
    ) -> None:
        """Log that ``ids`` were returned at ``at``, set their ``last_accessed_at`` and raise
        the ``expires_at`` of active expiring units to at least ``extend_to`` (None: no
        extension), both to within :data:`REWRITE_AFTER`. One statement."""
        if not ids:
            return
        await self.session.execute(
            _RECORD,
            {
                "ids": sorted(set(ids)),
                "at": at,
                "extend_to": extend_to,
                "rewrite_after": REWRITE_AFTER,
            },
        )

    async def prune(self, before: datetime) -> int:
        """Delete log rows older than ``before``; returns how many."""
        result = await self.session.execute(
            delete(MemoryAccess).where(MemoryAccess.accessed_at < before)
        )
        return int(result.rowcount or 0)  # type: ignore[attr-defined]
