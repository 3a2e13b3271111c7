"""All SQL of extraction jobs, their queue entries (pgqueuer) and the closure scan.

The queue entry is written through the *same* asyncpg connection, inside the same
transaction, as the job row (transactional enqueue): both commit or neither does.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import and_, func, or_, select, text, tuple_, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.ext.asyncio import AsyncSession

from app.core.vocabulary import EXTRACT_ENTRYPOINT, JobStatus
from app.models import ExtractionJob, WorkingMemorySession
from app.repositories.queue import enqueue
from app.repositories.results import rowcount

CLAIMABLE = (JobStatus.QUEUED, JobStatus.RETRYING)


@dataclass(frozen=True)
class JobFilters:
    """What narrows ``GET /extract``."""

    namespace: str
    user_id: str | None = None
    agent_id: str | None = None
    session_id: str | None = None
    statuses: tuple[str, ...] = ()


@dataclass(frozen=True)
class SessionMark:
    """A session that may need closing: its subject, last seq and epoch."""

    namespace: str
    session_id: str
    user_id: str | None
    last_seq: int
    epoch: datetime
    updated_at: datetime


class JobRepository:
    """Job-table and queue statements bound to one session; never commits."""

    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    # ---- writes --------------------------------------------------------------------------

    async def insert(self, values: dict[str, Any]) -> None:
        """Insert a job row (a single statement)."""
        await self.session.execute(pg_insert(ExtractionJob).values(**values))

    async def insert_session_job(self, values: dict[str, Any]) -> uuid.UUID | None:
        """Insert a job for a session range; None when that range already has one (the
        unique index on namespace, session, epoch and last seq decides, race-free)."""
        stmt = (
            pg_insert(ExtractionJob)
            .values(**values)
            .on_conflict_do_nothing(
                index_elements=["namespace", "session_id", "session_epoch", "transcript_to"],
                index_where=text("session_id IS NOT NULL AND transcript_to IS NOT NULL"),
            )
            .returning(ExtractionJob.id)
        )
        return (await self.session.execute(stmt)).scalar_one_or_none()

    async def enqueue(self, job_id: uuid.UUID, delay_s: float = 0.0, priority: int = 0) -> int:
        """Put a queue entry for ``job_id`` in this transaction (it commits with the job
        row); returns pgqueuer's id. Higher ``priority`` entries are taken first."""
        return await enqueue(self.session, EXTRACT_ENTRYPOINT, str(job_id), delay_s, priority)

    async def pending_count(self, namespace: str) -> int:
        """The namespace's unfinished jobs: queued, running or retrying."""
        unfinished = (*CLAIMABLE, JobStatus.RUNNING)
        stmt = select(func.count()).where(
            ExtractionJob.namespace == namespace, ExtractionJob.status.in_(unfinished)
        )
        return int((await self.session.execute(stmt)).scalar_one())

    async def claim(self, job_id: uuid.UUID, lease_s: float) -> ExtractionJob | None:
        """Start an attempt: queued/retrying jobs, or running ones whose lease ran out (their
        runner died). Bumps ``attempts`` (the fencing token); None when not claimable."""
        now = func.clock_timestamp()
        stmt = (
            update(ExtractionJob)
            .where(
                ExtractionJob.id == job_id,
                or_(
                    ExtractionJob.status.in_(CLAIMABLE),
                    and_(
                        ExtractionJob.status == JobStatus.RUNNING,
                        ExtractionJob.lease_until < now,
                    ),
                ),
            )
            .values(
                status=JobStatus.RUNNING,
                attempts=ExtractionJob.attempts + 1,
                lease_until=now + timedelta(seconds=lease_s),
                started_at=func.coalesce(ExtractionJob.started_at, now),
                next_attempt_at=None,
                updated_at=now,
            )
            .returning(ExtractionJob)
            .execution_options(synchronize_session=False)
        )
        return (await self.session.scalars(stmt)).first()

    async def renew_lease(self, job_id: uuid.UUID, attempt: int, lease_s: float) -> bool:
        """Extend the lease of attempt ``attempt``; False when another runner took over."""
        now = func.clock_timestamp()
        result = await self.session.execute(
            update(ExtractionJob)
            .where(
                ExtractionJob.id == job_id,
                ExtractionJob.status == JobStatus.RUNNING,
                ExtractionJob.attempts == attempt,
            )
            .values(lease_until=now + timedelta(seconds=lease_s))
            .execution_options(synchronize_session=False)
        )
        return bool(rowcount(result))

    async def release(self, job_id: uuid.UUID, attempt: int) -> bool:
        """Hand back attempt ``attempt`` of a running job that was interrupted (shutdown):
        ``retrying`` now, without a lease, and one more attempt allowed (the interrupted one
        does not count; ``attempts`` stays, it is the fencing token). False when another
        runner holds the job or it already ended."""
        now = datetime.now(UTC)
        result = await self.session.execute(
            update(ExtractionJob)
            .where(
                ExtractionJob.id == job_id,
                ExtractionJob.status == "running",
                ExtractionJob.attempts == attempt,
            )
            .values(
                status="retrying",
                max_attempts=ExtractionJob.max_attempts + 1,
                lease_until=None,
                next_attempt_at=now,
                updated_at=now,
            )
            .execution_options(synchronize_session=False)
        )
        return bool(rowcount(result))

    async def reset_for_retry(self, job: ExtractionJob) -> None:
        """A failed job back to ``queued`` with a fresh attempt budget (history kept)."""
        job.status = JobStatus.QUEUED
        job.attempts = 0
        job.lease_until = None
        job.next_attempt_at = None
        job.finished_at = None
        job.updated_at = datetime.now(UTC)
        await self.session.flush()

    # ---- reads ---------------------------------------------------------------------------

    async def get(self, namespace: str, job_id: uuid.UUID) -> ExtractionJob | None:
        """A job of this namespace (another namespace's job is None)."""
        stmt = select(ExtractionJob).where(
            ExtractionJob.namespace == namespace, ExtractionJob.id == job_id
        )
        return (await self.session.scalars(stmt)).first()

    async def list_page(
        self,
        f: JobFilters,
        after: tuple[datetime, uuid.UUID] | None,
        limit: int,
    ) -> list[ExtractionJob]:
        """Up to ``limit`` jobs of ``f``, newest first by ``(created_at, id)``, after the
        position ``after`` (the last row of the previous page)."""
        stmt = select(ExtractionJob).where(ExtractionJob.namespace == f.namespace)
        for column, value in (
            (ExtractionJob.user_id, f.user_id),
            (ExtractionJob.agent_id, f.agent_id),
            (ExtractionJob.session_id, f.session_id),
        ):
            if value is not None:
                stmt = stmt.where(column == value)
        if f.statuses:
            stmt = stmt.where(ExtractionJob.status.in_(list(f.statuses)))
        if after is not None:
            stmt = stmt.where(tuple_(ExtractionJob.created_at, ExtractionJob.id) < after)
        stmt = stmt.order_by(ExtractionJob.created_at.desc(), ExtractionJob.id.desc())
        return list((await self.session.scalars(stmt.limit(limit))).all())

    async def unfinished_session_jobs(self, namespace: str, session_id: str) -> list[ExtractionJob]:
        """The session's jobs that have not written their units yet (queued, retrying or
        running), locked for this transaction (``FOR UPDATE``: a runner writes its units
        under the same lock, so it either wrote them already or finds the job changed)."""
        stmt = (
            select(ExtractionJob)
            .where(
                ExtractionJob.namespace == namespace,
                ExtractionJob.session_id == session_id,
                ExtractionJob.status.in_([*CLAIMABLE, JobStatus.RUNNING]),
            )
            .order_by(ExtractionJob.created_at, ExtractionJob.id)
            .with_for_update()
            .execution_options(populate_existing=True)
        )
        return list((await self.session.scalars(stmt)).all())

    async def lock(self, job_id: uuid.UUID) -> ExtractionJob | None:
        """The job row, locked for this transaction (``FOR UPDATE``), freshly read."""
        stmt = (
            select(ExtractionJob)
            .where(ExtractionJob.id == job_id)
            .with_for_update()
            .execution_options(populate_existing=True)
        )
        return (await self.session.scalars(stmt)).first()

    async def session_job(
        self, namespace: str, session_id: str, epoch: datetime, transcript_to: int
    ) -> ExtractionJob | None:
        """The job that extracted this session up to ``transcript_to``, if any."""
        stmt = select(ExtractionJob).where(
            ExtractionJob.namespace == namespace,
            ExtractionJob.session_id == session_id,
            ExtractionJob.session_epoch == epoch,
            ExtractionJob.transcript_to == transcript_to,
        )
        return (await self.session.scalars(stmt)).first()

    async def last_extracted_seq(self, namespace: str, session_id: str, epoch: datetime) -> int:
        """The highest seq of this session (epoch) already given to an extraction job."""
        stmt = select(func.coalesce(func.max(ExtractionJob.transcript_to), 0)).where(
            ExtractionJob.namespace == namespace,
            ExtractionJob.session_id == session_id,
            ExtractionJob.session_epoch == epoch,
        )
        return int((await self.session.execute(stmt)).scalar_one() or 0)

    async def lock_session(self, namespace: str, session_id: str) -> None:
        """Serialise closers of one session until the transaction ends."""
        await self.session.execute(
            text("SELECT pg_advisory_xact_lock(hashtextextended(:k, 3))"),
            {"k": f"close\x1f{namespace}\x1f{session_id}"},
        )

    async def silent_sessions(
        self, silent_before: datetime, after: datetime, limit: int
    ) -> list[SessionMark]:
        """Sessions whose last append lies in (``after``, ``silent_before``) and that have
        messages no job has taken yet, oldest first (``after`` is the scan's cursor)."""
        extracted = (
            select(func.coalesce(func.max(ExtractionJob.transcript_to), 0))
            .where(
                ExtractionJob.namespace == WorkingMemorySession.namespace,
                ExtractionJob.session_id == WorkingMemorySession.session_id,
                ExtractionJob.session_epoch == WorkingMemorySession.created_at,
            )
            .scalar_subquery()
        )
        stmt = (
            select(WorkingMemorySession)
            .where(
                WorkingMemorySession.updated_at < silent_before,
                WorkingMemorySession.updated_at > after,
                WorkingMemorySession.last_seq > extracted,
            )
            .order_by(WorkingMemorySession.updated_at)
            .limit(limit)
        )
        rows = (await self.session.scalars(stmt)).all()
        return [
            SessionMark(
                namespace=r.namespace,
                session_id=r.session_id,
                user_id=r.user_id,
                last_seq=int(r.last_seq),
                epoch=r.created_at,
                updated_at=r.updated_at,
            )
            for r in rows
        ]
