"""SQL of the recall access log (docs/ARCHITECTURE.md, docs/LIFECYCLE.md): recall appends one row
per returned unit and never rewrites a memory unit; the archival sweep folds the rows in
(``last_accessed_at`` and the expiry extension), once per unit per sweep.

Why: an UPDATE of memory_units is not HOT (``expires_at`` is indexed), so each one inserts
into every index of the table, both HNSW graphs included (up to hundreds of ms for 10 units
at 100k units), and its row locks made concurrent recalls of the same units wait for each
other's commit. Only a unit that would expire within :data:`EXPIRY_GUARD` is
extended by recall itself, so an access cannot be lost to the archival of a unit the sweep
has not folded yet. A unit whose writer gave its expiry (``expiry_fixed``: ``ttl_days`` or
``expires_at``) is never extended (tester finding B15).
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

# The two writes of recalls' accesses, as CTEs of one statement (parameters :ids, :ats,
# :extends — one entry per unit and access, see record_params — and :guard): the log rows
# come from memory_units, read FOR KEY SHARE (the lock the foreign-key check takes anyway), so
# a unit deleted meanwhile — even by a DELETE still open when the statement began, which the
# snapshot sees — is skipped, not a foreign-key error (a 500 on /recall, when the log was
# written in the request); the UPDATE touches only units about to expire (rare), once per unit
# (its latest access).
# PostgreSQL runs data-modifying CTEs to completion whether the main query reads them or not:
# the statement (RecallRepository.record_accesses) selects only the setting of its commit.
RECORD_CTES = """
    acc AS (
        SELECT a.id, a.at, a.extend_to
          FROM unnest(CAST(:ids AS uuid[]), CAST(:ats AS timestamptz[]),
                      CAST(:extends AS timestamptz[])) AS a(id, at, extend_to)
    ), guarded AS (
        UPDATE memory_units m
           SET last_accessed_at = g.at,
               expires_at = GREATEST(m.expires_at, g.extend_to)
          FROM (SELECT id, max(at) AS at, max(extend_to) AS extend_to
                  FROM acc GROUP BY id) AS g
         WHERE m.id = g.id
           AND m.status = 'active' AND m.expires_at IS NOT NULL AND NOT m.expiry_fixed
           AND g.extend_to IS NOT NULL
           AND m.expires_at < g.at + CAST(:guard AS interval)
    ), logged AS (
        INSERT INTO memory_access_log (unit_id, namespace, accessed_at)
        SELECT m.id, m.namespace, acc.at FROM acc JOIN memory_units m ON m.id = acc.id
           FOR KEY SHARE OF m
    )
"""
# Marks every unfolded row folded and applies the latest access of each unit: last_accessed_at
# (never moved back) and, for active expiring units whose expiry their writer did not give
# (``expiry_fixed``), expiry at least ``latest + extend``.
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
                        AND NOT m.expiry_fixed AND CAST(:extend AS interval) IS NOT NULL
                   THEN GREATEST(m.expires_at, l.at + CAST(:extend AS interval))
                   ELSE m.expires_at END
          FROM latest l
         WHERE m.id = l.unit_id
           AND (m.last_accessed_at IS NULL OR m.last_accessed_at < l.at
                OR (m.status = 'active' AND m.expires_at IS NOT NULL AND NOT m.expiry_fixed
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
    accesses: Sequence[tuple[Sequence[uuid.UUID], datetime, datetime | None]],
) -> dict[str, Any]:
    """The parameters of :data:`RECORD_CTES` for ``accesses``: per access, the units it
    returned (each once), when, and how far an expiring one is extended (None: not) if it
    expires within :data:`EXPIRY_GUARD`."""
    ids: list[uuid.UUID] = []
    ats: list[datetime] = []
    extends: list[datetime | None] = []
    for units, at, extend_to in accesses:
        once = sorted(set(units))
        ids += once
        ats += [at] * len(once)
        extends += [extend_to] * len(once)
    return {"ids": ids, "ats": ats, "extends": extends, "guard": EXPIRY_GUARD}


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
