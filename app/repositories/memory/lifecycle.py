"""SQL of the memory lifecycle: keyset listing, the supersede chain, locked reads for
corrections and consolidation, duplicate candidates that exclude a unit, links, archival and
the distillation bookkeeping. Bound to one session; never commits."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

import numpy as np
from sqlalchemy import (
    DateTime,
    and_,
    bindparam,
    func,
    or_,
    select,
    tuple_,
    update,
)
from sqlalchemy.dialects.postgresql import UUID, insert
from sqlalchemy.ext.asyncio import AsyncSession

from app.core.vocabulary import UnitStatus
from app.models import DistillationState, MemoryAccess, MemoryLink, MemoryUnit
from app.repositories.memory.filters import UnitFilters, agent_clause, filter_clauses
from app.repositories.memory.units import Neighbour, Subject, live_units
from app.repositories.results import rowcount

# Words that say a state or habit ended (a PostgreSQL regular expression, case-insensitive).
_ENDED = r"no longer|any ?more|\m(quit|stopped|gave up|given up)\M|不再|戒了|戒掉|已经不"

EPISODIC_TYPES = ("event", "action", "result")


@dataclass(frozen=True)
class Keyset:
    """A position in ``(created_at, id)`` order."""

    created_at: datetime
    id: uuid.UUID


@dataclass(frozen=True)
class DueSubject:
    """A subject with episodic units newer than its last distillation."""

    namespace: str
    user_id: str
    agent_id: str | None


class LifecycleRepository:
    """Lifecycle queries bound to one session."""

    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    # ---- read ---------------------------------------------------------------------------

    async def list_page(
        self, f: UnitFilters, after: Keyset | None, limit: int, descending: bool
    ) -> list[MemoryUnit]:
        """Up to ``limit`` units after ``after`` in ``(created_at, id)`` order. A row
        comparison on an indexed key: stable while other transactions write."""
        stmt = select(MemoryUnit).where(*filter_clauses(f))
        key = tuple_(MemoryUnit.created_at, MemoryUnit.id)
        if after is not None:
            mark = tuple_(
                bindparam("ks_t", after.created_at, type_=DateTime(timezone=True)),
                bindparam("ks_i", after.id, type_=UUID(as_uuid=True)),
            )
            stmt = stmt.where(key < mark if descending else key > mark)
        if descending:
            stmt = stmt.order_by(MemoryUnit.created_at.desc(), MemoryUnit.id.desc())
        else:
            stmt = stmt.order_by(MemoryUnit.created_at, MemoryUnit.id)
        return list((await self.session.scalars(stmt.limit(limit))).all())

    async def get(
        self, namespace: str, unit_id: uuid.UUID, *, for_update: bool = False
    ) -> MemoryUnit | None:
        """One unit of this namespace (row-locked when ``for_update``), or None."""
        stmt = select(MemoryUnit).where(MemoryUnit.namespace == namespace, MemoryUnit.id == unit_id)
        if for_update:
            stmt = stmt.with_for_update().execution_options(populate_existing=True)
        return (await self.session.scalars(stmt)).first()

    async def access_count(self, namespace: str, unit_id: uuid.UUID) -> int:
        """How many recalls returned the unit, by the access log (which keeps
        ``TTL__ACCESS_LOG_RETENTION_DAYS`` of history)."""
        stmt = select(func.count()).where(
            MemoryAccess.namespace == namespace, MemoryAccess.unit_id == unit_id
        )
        return int((await self.session.execute(stmt)).scalar_one())

    async def supersede_chain(
        self, namespace: str, unit_id: uuid.UUID, max_units: int = 1000
    ) -> list[MemoryUnit]:
        """Every unit connected to ``unit_id`` through ``superseded_by`` or ``merged_into``
        (in either direction), oldest first; at most ``max_units``."""
        ids = {unit_id}
        frontier = {unit_id}
        while frontier and len(ids) < max_units:
            near = list(frontier)
            rows = (
                await self.session.execute(
                    select(MemoryUnit.id, MemoryUnit.superseded_by, MemoryUnit.merged_into).where(
                        MemoryUnit.namespace == namespace,
                        or_(
                            MemoryUnit.id.in_(near),
                            MemoryUnit.superseded_by.in_(near),
                            MemoryUnit.merged_into.in_(near),
                        ),
                    )
                )
            ).all()
            found = {r.id for r in rows}
            found |= {p for r in rows for p in (r.superseded_by, r.merged_into) if p}
            frontier = found - ids
            ids |= found
        stmt = (
            select(MemoryUnit)
            .where(MemoryUnit.namespace == namespace, MemoryUnit.id.in_(list(ids)))
            .order_by(MemoryUnit.created_at, MemoryUnit.id)
            .limit(max_units)
        )
        return list((await self.session.scalars(stmt)).all())

    async def links_of(self, ids: Sequence[uuid.UUID]) -> list[MemoryLink]:
        """Links whose target or source is one of ``ids``, oldest first."""
        if not ids:
            return []
        stmt = (
            select(MemoryLink)
            .where(or_(MemoryLink.target_id.in_(list(ids)), MemoryLink.source_id.in_(list(ids))))
            .order_by(MemoryLink.created_at, MemoryLink.target_id, MemoryLink.source_id)
        )
        return list((await self.session.scalars(stmt)).all())

    # ---- corrections --------------------------------------------------------------------

    async def duplicate_candidates(
        self,
        subject: Subject,
        value_hash: str,
        embedding: np.ndarray | None,
        model: str,
        exclude: uuid.UUID,
        limit: int,
        now: datetime,
    ) -> tuple[MemoryUnit | None, list[Neighbour]]:
        """Active units of the subject not expired by ``now`` (other than ``exclude``) that
        may hold the same memory: the oldest with the same normalised-value hash, and the
        ``limit`` nearest by cosine similarity of value embeddings (same model only)."""
        scope = and_(live_units(subject, now), MemoryUnit.id != exclude)
        exact = (
            await self.session.scalars(
                select(MemoryUnit)
                .where(scope, MemoryUnit.value_hash == value_hash)
                .order_by(MemoryUnit.created_at)
                .limit(1)
                .with_for_update()
            )
        ).first()
        if embedding is None:
            return exact, []
        distance = MemoryUnit.value_embedding.cosine_distance(embedding)
        rows = (
            await self.session.execute(
                select(MemoryUnit, (1 - distance).label("cosine"))
                .where(scope, MemoryUnit.embedding_model == model)
                .order_by(distance)
                .limit(limit)
            )
        ).all()
        return exact, [Neighbour(unit=r[0], cosine=float(r[1])) for r in rows]

    async def flush(self) -> None:
        """Write pending changes so later statements see them."""
        await self.session.flush()

    # ---- consolidation ------------------------------------------------------------------

    async def units(self, f: UnitFilters, limit: int) -> list[MemoryUnit]:
        """Units matching ``f``, oldest ``occurred_at`` first, at most ``limit``."""
        stmt = (
            select(MemoryUnit)
            .where(*filter_clauses(f))
            .order_by(MemoryUnit.occurred_at, MemoryUnit.id)
            .limit(limit)
        )
        return list((await self.session.scalars(stmt)).all())

    async def count_units(self, f: UnitFilters) -> int:
        """How many units match ``f``."""
        stmt = select(func.count()).select_from(MemoryUnit).where(*filter_clauses(f))
        return int((await self.session.execute(stmt)).scalar_one())

    async def lock_units(self, namespace: str, ids: Sequence[uuid.UUID]) -> list[MemoryUnit]:
        """Row-lock these units (in id order, so two callers cannot deadlock) and return the
        fresh rows."""
        if not ids:
            return []
        stmt = (
            select(MemoryUnit)
            .where(MemoryUnit.namespace == namespace, MemoryUnit.id.in_(list(ids)))
            .order_by(MemoryUnit.id)
            .with_for_update()
            .execution_options(populate_existing=True)
        )
        return list((await self.session.scalars(stmt)).all())

    async def set_status(self, ids: Sequence[uuid.UUID], status: str, at: datetime) -> int:
        """Set the status of these units; returns how many changed."""
        if not ids:
            return 0
        result = await self.session.execute(
            update(MemoryUnit)
            .where(MemoryUnit.id.in_(list(ids)))
            .values(status=status, updated_at=at)
            .execution_options(synchronize_session="fetch")
        )
        return int(rowcount(result) or 0)

    async def add_links(
        self, target: uuid.UUID, sources: Sequence[uuid.UUID], kind: str, at: datetime
    ) -> None:
        """Link ``target`` to each of ``sources`` (existing links are kept)."""
        rows = [
            {"target_id": target, "source_id": s, "kind": kind, "created_at": at}
            for s in dict.fromkeys(sources)
            if s != target
        ]
        if rows:
            await self.session.execute(insert(MemoryLink).values(rows).on_conflict_do_nothing())

    # ---- archival -----------------------------------------------------------------------

    async def archive_expired(self, now: datetime, batch: int) -> int:
        """Archive up to ``batch`` active units whose ``expires_at`` has passed (rows another
        transaction holds are skipped, not waited for). Returns how many."""
        due = (
            select(MemoryUnit.id)
            .where(MemoryUnit.status == UnitStatus.ACTIVE, MemoryUnit.expires_at <= now)
            .order_by(MemoryUnit.expires_at)
            .limit(batch)
            .with_for_update(skip_locked=True)
            .scalar_subquery()
        )
        result = await self.session.execute(
            update(MemoryUnit)
            .where(MemoryUnit.id.in_(due))
            .values(status=UnitStatus.ARCHIVED, updated_at=now)
            .execution_options(synchronize_session=False)
        )
        return int(rowcount(result) or 0)

    # ---- distillation -------------------------------------------------------------------

    async def due_subjects(
        self, now: datetime, every_tasks: int, min_age_s: float, limit: int
    ) -> list[DueSubject]:
        """Subjects with active episodic units confirmed after their distillation watermark,
        and either ``every_tasks`` distinct tasks among them or ``min_age_s`` seconds since
        their last run (or never run)."""
        agent_key = func.coalesce(MemoryUnit.agent_id, "")
        state = DistillationState
        joined = select(
            MemoryUnit.namespace,
            MemoryUnit.user_id,
            MemoryUnit.agent_id,
            MemoryUnit.task_id,
            state.last_run_at,
        ).select_from(MemoryUnit)
        joined = joined.outerjoin(
            state,
            and_(
                state.namespace == MemoryUnit.namespace,
                state.user_id == MemoryUnit.user_id,
                state.agent_id == agent_key,
            ),
        ).where(
            MemoryUnit.status == UnitStatus.ACTIVE,
            MemoryUnit.type.in_(EPISODIC_TYPES),
            or_(state.watermark.is_(None), MemoryUnit.last_confirmed_at > state.watermark),
        )
        sub = joined.subquery()
        age_s = func.extract("epoch", now - func.max(sub.c.last_run_at))
        stmt = (
            select(sub.c.namespace, sub.c.user_id, sub.c.agent_id)
            .group_by(sub.c.namespace, sub.c.user_id, sub.c.agent_id)
            .having(
                or_(
                    func.max(sub.c.last_run_at).is_(None),
                    func.count(func.distinct(sub.c.task_id)) >= every_tasks,
                    age_s >= min_age_s,
                )
            )
            .order_by(sub.c.namespace, sub.c.user_id, sub.c.agent_id)
            .limit(limit)
        )
        rows = (await self.session.execute(stmt)).all()
        return [DueSubject(r.namespace, r.user_id, r.agent_id) for r in rows]

    async def episodic_units(
        self, subject: Subject, since: datetime, limit: int
    ) -> list[MemoryUnit]:
        """The subject's most recently confirmed active episodic units (confirmed at or after
        ``since``; a restatement merged into a unit confirms it again), oldest first."""
        stmt = (
            select(MemoryUnit)
            .where(
                MemoryUnit.namespace == subject.namespace,
                MemoryUnit.user_id == subject.user_id,
                agent_clause(subject.agent_id),
                MemoryUnit.status == UnitStatus.ACTIVE,
                MemoryUnit.type.in_(EPISODIC_TYPES),
                MemoryUnit.last_confirmed_at >= since,
            )
            .order_by(MemoryUnit.last_confirmed_at.desc(), MemoryUnit.id.desc())
            .limit(limit)
        )
        units = list((await self.session.scalars(stmt)).all())
        units.reverse()
        return units

    async def ended_values(self, subject: Subject, limit: int = 200) -> list[str]:
        """Values of the subject's active units that say something ended ("no longer",
        "anymore", "quit", "gave up", 不再, 戒了), newest first, at most ``limit``."""
        stmt = (
            select(MemoryUnit.value)
            .where(
                MemoryUnit.namespace == subject.namespace,
                MemoryUnit.user_id == subject.user_id,
                agent_clause(subject.agent_id),
                MemoryUnit.status == UnitStatus.ACTIVE,
                MemoryUnit.value.op("~*")(_ENDED),
            )
            .order_by(MemoryUnit.occurred_at.desc())
            .limit(limit)
        )
        return list((await self.session.scalars(stmt)).all())

    async def save_distillation(self, subject: Subject, watermark: datetime, at: datetime) -> None:
        """Record a distillation run of ``subject`` (the watermark never moves back)."""
        values = {
            "namespace": subject.namespace,
            "user_id": subject.user_id,
            "agent_id": subject.agent_id or "",
            "watermark": watermark,
            "last_run_at": at,
            "runs": 1,
        }
        stmt = insert(DistillationState).values(values)
        stmt = stmt.on_conflict_do_update(
            index_elements=["namespace", "user_id", "agent_id"],
            set_={
                "watermark": func.greatest(DistillationState.watermark, stmt.excluded.watermark),
                "last_run_at": stmt.excluded.last_run_at,
                "runs": DistillationState.runs + 1,
            },
        )
        await self.session.execute(stmt)
