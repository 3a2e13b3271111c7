"""SQL of the recall access log (docs/ARCHITECTURE.md, docs/LIFECYCLE.md): recall appends one row
per returned unit and never rewrites a memory unit; the archival sweep folds the rows in
(``last_accessed_at`` and the expiry extension), once per unit per sweep.

Why: an UPDATE of memory_units is not HOT (``expires_at`` is indexed), so each one inserts
into every index of the table, both HNSW graphs included (up to hundreds of ms for 10 units
at 100k units), and its row locks made concurrent recalls of the same units wait for each
other's commit. Only a unit that would expire within :data:`EXPIRY_GUARD` is
extended by recall itself, so an access cannot be lost to the archival of a unit the sweep
has not folded yet.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import delete, text
from sqlalchemy.ext.asyncio import AsyncSession

from app.models import MemoryAccess
from app.repositories.results import rowcount

# The two writes of a recall's access, as CTEs of one statement (parameters :ids, :at,
# :extend_to, :guard): the log rows come from memory_units, read FOR KEY SHARE (the lock the
# foreign-key check takes anyway), so a unit deleted meanwhile — even by a DELETE still open
# when the statement began, which the snapshot sees — is skipped, not a foreign-key error (a
# 500 on /recall); the UPDATE touches only units about to expire (rare).
# PostgreSQL runs data-modifying CTEs to completion whether the main query reads them or not,
# so a recall puts its read of the hits' columns after them (RecallRepository.units): the
# access log costs no round trip of its own.
RECORD_CTES = """
    guarded AS (
        UPDATE memory_units
           SET last_accessed_at = :at,
               expires_at = GREATEST(expires_at, CAST(:extend_to AS timestamptz))
         WHERE id = ANY(CAST(:ids AS uuid[]))
           AND status = 'active' AND expires_at IS NOT NULL
           AND CAST(:extend_to AS timestamptz) IS NOT NULL
           AND expires_at < CAST(:at AS timestamptz) + CAST(:guard AS interval)
    ), logged AS (
        INSERT INTO memory_access_log (unit_id, namespace, accessed_at)
        SELECT id, namespace, :at FROM memory_units WHERE id = ANY(CAST(:ids AS uuid[]))
           FOR KEY SHARE
    )
"""
# Marks every unfolded row folded and applies the latest access of each unit: last_accessed_at
# (never moved back) and, for active expiring units, expiry at least ``latest + extend``.
_FOLD = text(
    """
    WITH rows AS (
        UPDATE memory_access_log SET folded = true WHERE NOT folded
        RETURNING unit_id, accessed_at
    ), latest AS (
        SELECT unit_id, max(accessed_at) AS at FROM rows GROUP BY unit_id
    ), applied AS (
        UPDATE memory_units m
           SET last_accessed_at = GREATEST(m.last_accessed_at, l.at),
               expires_at = CASE
                   WHEN m.status = 'active' AND m.expires_at IS NOT NULL
                        AND CAST(:extend AS interval) IS NOT NULL
                   THEN GREATEST(m.expires_at, l.at + CAST(:extend AS interval))
                   ELSE m.expires_at END
          FROM latest l
         WHERE m.id = l.unit_id
           AND (m.last_accessed_at IS NULL OR m.last_accessed_at < l.at
                OR (m.status = 'active' AND m.expires_at IS NOT NULL
                    AND CAST(:extend AS interval) IS NOT NULL
                    AND m.expires_at < l.at + CAST(:extend AS interval)))
        RETURNING m.id
    )
    SELECT (SELECT count(*) FROM rows), (SELECT count(*) FROM applied)
    """
)
# A unit expiring sooner than this is extended by the recall itself (the sweep runs every
# LIFECYCLE__ARCHIVE_INTERVAL_S, default 5 min; it could otherwise archive it first).
EXPIRY_GUARD = timedelta(days=1)


def record_params(
    ids: Sequence[uuid.UUID], at: datetime, extend_to: datetime | None
) -> dict[str, Any]:
    """The parameters of :data:`RECORD_CTES`: ``ids`` returned at ``at``, expiry raised to
    ``extend_to`` (None: no extension) for those within :data:`EXPIRY_GUARD`."""
    return {"ids": sorted(set(ids)), "at": at, "extend_to": extend_to, "guard": EXPIRY_GUARD}


class AccessLogRepository:
    """Access-log writes bound to one session; never commits."""

    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def fold(self, extend: timedelta | None) -> tuple[int, int]:
        """Apply every unfolded access to its unit (``last_accessed_at``; expiry of active
        expiring units at least ``latest access + extend``, never shortened; None: no
        extension) and mark the rows folded. Returns (rows folded, units rewritten)."""
        row = (await self.session.execute(_FOLD, {"extend": extend})).one()
        return int(row[0]), int(row[1])

    async def prune(self, before: datetime) -> int:
        """Delete log rows older than ``before``; returns how many."""
        result = await self.session.execute(
            delete(MemoryAccess).where(MemoryAccess.accessed_at < before)
        )
        return int(rowcount(result) or 0)
