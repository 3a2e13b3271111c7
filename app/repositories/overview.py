"""SQL of the namespace overview: counts per unit type and status, jobs per state, and the
subjects (users, agents, sessions) that have memory, in keyset pages by id. Bound to one
session; never commits."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import ColumnElement, Select, func, literal, literal_column, select, true
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import InstrumentedAttribute

from app.core.vocabulary import REVIEW_OPEN, JobStatus, UnitStatus
from app.models import ExtractionJob, MemoryUnit, PairReview, WorkingMemorySession
from app.repositories.memory.reviews import both_active


@dataclass(frozen=True)
class SubjectFilters:
    """What narrows a subject list: kind, id prefix, owning user, and the last id seen."""

    namespace: str
    kind: str
    prefix: str | None = None
    user_id: str | None = None
    after: str | None = None


@dataclass(frozen=True)
class SubjectRow:
    """A subject's counts (the session fields are None for users and agents)."""

    id: str
    units: int
    active_units: int
    last_stored_at: datetime | None
    user_id: str | None = None
    messages: int | None = None
    tokens: int | None = None
    last_message_at: datetime | None = None
    merged_units: int | None = None


def _like_prefix(prefix: str) -> str:
    escaped = prefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"{escaped}%"


# A subject's id column: users and sessions of units, or sessions with a transcript.
SubjectColumn = InstrumentedAttribute[str] | InstrumentedAttribute[str | None]


def _narrow(
    column: SubjectColumn | ColumnElement[str], f: SubjectFilters
) -> list[ColumnElement[bool]]:
    clauses: list[ColumnElement[bool]] = [column.is_not(None)]
    if f.prefix:
        clauses.append(column.like(_like_prefix(f.prefix), escape="\\"))
    if f.after is not None:
        clauses.append(column > f.after)
    return clauses


def _unit_groups(
    column: SubjectColumn, f: SubjectFilters
) -> Select[str | None, int, int, datetime, str]:
    """Per distinct value of ``column``: units, active units, newest created_at."""
    stmt = select(
        column.label("id"),
        func.count().label("units"),
        func.count().filter(MemoryUnit.status == UnitStatus.ACTIVE).label("active_units"),
        func.max(MemoryUnit.created_at).label("last_stored_at"),
        func.min(MemoryUnit.user_id).label("user_id"),
    ).where(MemoryUnit.namespace == f.namespace, *_narrow(column, f))
    if f.user_id is not None:
        stmt = stmt.where(MemoryUnit.user_id == f.user_id)
    return stmt.group_by(column)


def _merged_groups(f: SubjectFilters) -> Select[str, int, str]:
    """Per session: the units of other sessions its statements were merged into (their
    ``sessions`` name it)."""
    named = func.unnest(MemoryUnit.sessions).table_valued("id").render_derived("s")
    stmt = (
        select(
            named.c.id, func.count().label("units"), func.min(MemoryUnit.user_id).label("user_id")
        )
        .select_from(MemoryUnit)
        .join(named, true())
        .where(
            MemoryUnit.namespace == f.namespace,
            func.cardinality(MemoryUnit.sessions) > literal_column("0"),
            *_narrow(named.c.id, f),
        )
    )
    if f.user_id is not None:
        stmt = stmt.where(MemoryUnit.user_id == f.user_id)
    return stmt.group_by(named.c.id)


class OverviewRepository:
    """Read-only counts of one namespace."""

    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def unit_counts(
        self, namespace: str, user_id: str | None, agent_id: str | None
    ) -> dict[str, dict[str, int]]:
        """Stored units per type, then per status (non-zero counts only)."""
        stmt = select(MemoryUnit.type, MemoryUnit.status, func.count()).where(
            MemoryUnit.namespace == namespace
        )
        if user_id is not None:
            stmt = stmt.where(MemoryUnit.user_id == user_id)
        if agent_id is not None:
            stmt = stmt.where(MemoryUnit.agent_id == agent_id)
        rows = await self.session.execute(stmt.group_by(MemoryUnit.type, MemoryUnit.status))
        counts: dict[str, dict[str, int]] = {}
        for type_, status, n in rows:
            counts.setdefault(type_, {})[status] = int(n)
        return counts

    async def job_counts(
        self, namespace: str, user_id: str | None, agent_id: str | None
    ) -> dict[str, int]:
        """Extraction jobs per state, every state present (0 when none)."""
        stmt = select(ExtractionJob.status, func.count()).where(
            ExtractionJob.namespace == namespace
        )
        if user_id is not None:
            stmt = stmt.where(ExtractionJob.user_id == user_id)
        if agent_id is not None:
            stmt = stmt.where(ExtractionJob.agent_id == agent_id)
        counts = dict.fromkeys([s.value for s in JobStatus], 0)
        for status, n in await self.session.execute(stmt.group_by(ExtractionJob.status)):
            counts[status] = int(n)
        return counts

    async def open_review_count(
        self, namespace: str, user_id: str | None, agent_id: str | None
    ) -> int:
        """Pair reviews still open (pending or running) whose two units are both still active
        (one whose unit left is stale: closed as such when next read, never counted)."""
        stmt = select(func.count()).where(
            PairReview.namespace == namespace, PairReview.status.in_(REVIEW_OPEN), both_active()
        )
        if user_id is not None:
            stmt = stmt.where(PairReview.user_id == user_id)
        if agent_id is not None:
            stmt = stmt.where(PairReview.agent_id == agent_id)
        return int((await self.session.execute(stmt)).scalar_one())

    async def session_count(
        self, namespace: str, user_id: str | None, agent_id: str | None = None
    ) -> int:
        """Working-memory sessions with a durable transcript (a session only claimed by a
        stored unit has none); with ``agent_id``, those holding a unit of that agent (a
        session has no agent of its own: tester hbreak6 G32 counted the namespace's)."""
        stmt = select(func.count()).where(
            WorkingMemorySession.namespace == namespace, WorkingMemorySession.message_count > 0
        )
        if user_id is not None:
            stmt = stmt.where(WorkingMemorySession.user_id == user_id)
        if agent_id is not None:
            stmt = stmt.where(
                WorkingMemorySession.session_id.in_(
                    select(MemoryUnit.session_id).where(
                        MemoryUnit.namespace == namespace, MemoryUnit.agent_id == agent_id
                    )
                )
            )
        return int((await self.session.execute(stmt)).scalar_one())

    async def subjects(self, f: SubjectFilters, limit: int) -> list[SubjectRow]:
        """Up to ``limit`` subjects of kind ``f.kind`` with ids after ``f.after``, by id.
        Users and agents are the ones named by stored units; sessions are those named by
        units (their own, or merged into another session's: ``merged_units``) or holding a
        transcript (a full outer join of the three)."""
        if f.kind == "session":
            return await self._sessions(f, limit)
        column = MemoryUnit.user_id if f.kind == "user" else MemoryUnit.agent_id
        groups = _unit_groups(column, f).order_by(column).limit(limit)
        return [
            SubjectRow(r.id, int(r.units), int(r.active_units), r.last_stored_at)
            for r in await self.session.execute(groups)
        ]

    async def _sessions(self, f: SubjectFilters, limit: int) -> list[SubjectRow]:
        units = _unit_groups(MemoryUnit.session_id, f).subquery("u")
        merged = _merged_groups(f).subquery("m")
        transcripts = select(
            WorkingMemorySession.session_id.label("id"),
            WorkingMemorySession.user_id,
            WorkingMemorySession.message_count,
            WorkingMemorySession.token_count,
            WorkingMemorySession.updated_at,
        ).where(
            WorkingMemorySession.namespace == f.namespace,
            *_narrow(WorkingMemorySession.session_id, f),
        )
        if f.user_id is not None:
            transcripts = transcripts.where(WorkingMemorySession.user_id == f.user_id)
        t = transcripts.subquery("t")
        ut = func.coalesce(units.c.id, t.c.id)
        sid = func.coalesce(units.c.id, t.c.id, merged.c.id)
        stmt = (
            select(
                sid.label("id"),
                func.coalesce(units.c.units, literal(0)).label("units"),
                func.coalesce(units.c.active_units, literal(0)).label("active_units"),
                units.c.last_stored_at,
                func.coalesce(t.c.user_id, units.c.user_id, merged.c.user_id).label("user_id"),
                t.c.message_count,
                t.c.token_count,
                t.c.updated_at,
                func.coalesce(merged.c.units, literal(0)).label("merged_units"),
            )
            .select_from(
                units.outerjoin(t, units.c.id == t.c.id, full=True).outerjoin(
                    merged, merged.c.id == ut, full=True
                )
            )
            .order_by(sid)
            .limit(limit)
        )
        return [
            SubjectRow(
                id=r.id,
                units=int(r.units),
                active_units=int(r.active_units),
                last_stored_at=r.last_stored_at,
                user_id=r.user_id,
                # A session only claimed by a stored unit has no transcript yet.
                messages=int(r.message_count) if r.message_count else None,
                tokens=int(r.token_count) if r.message_count else None,
                last_message_at=r.updated_at if r.message_count else None,
                merged_units=int(r.merged_units),
            )
            for r in await self.session.execute(stmt)
        ]
