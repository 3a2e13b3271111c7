"""Submitting extractions: the job row with its transcript snapshot and its queue entry are
written in the caller's transaction (transactional enqueue), so a crash before the commit
leaves neither and a crash after it leaves both.

A session's transcript is extracted once per range: the job covers the messages no earlier
job took (``seq > last extracted``), keyed by (namespace, session, session epoch, last seq)
under a unique index, so re-closing an unchanged session returns the existing job.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import uuid_utils.compat as uuid7

from app.core.config import ExtractionSettings, WorkerSettings
from app.core.errors import ConflictError, NotFoundError, RateLimitedError
from app.core.vocabulary import JobStatus
from app.models import ExtractionJob, TranscriptMessage
from app.repositories.jobs import JobFilters, JobRepository
from app.repositories.working_memory.transcript import TranscriptRepository
from app.schemas.extract import ExtractMessage, JobListQuery
from app.services import cursors
from app.services.extraction.zones import transcript_zone
from app.services.session_owner import SessionOwners, check_scope


@dataclass(frozen=True)
class Scope:
    """Who the units are about and where they came from."""

    namespace: str
    user_id: str
    agent_id: str | None = None
    session_id: str | None = None
    task_id: str | None = None


@dataclass(frozen=True)
class JobPage:
    """One page of jobs (newest first) and the cursor of the next (None on the last)."""

    jobs: list[ExtractionJob]
    next_cursor: str | None


@dataclass(frozen=True)
class Submitted:
    """The job of a submission; ``created`` is False when an existing job was returned."""

    job: ExtractionJob
    created: bool


def _snapshot(messages: list[ExtractMessage]) -> list[dict[str, Any]]:
    return [
        {
            "index": i,
            "role": m.role,
            "content": m.content,
            "created_at": m.created_at.isoformat() if m.created_at else None,
            "metadata": m.metadata,
            "name": m.name,
        }
        for i, m in enumerate(messages)
    ]


def without_text(snapshot: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A succeeded job's snapshot: each message's place (``index``, ``seq``, ``role``,
    ``created_at``) without its words, metadata or speaker name (tester C25: a forgotten
    unit's secret stayed in the job row). ``transcript_messages`` still counts them."""
    kept = ("index", "seq", "role", "created_at")
    return [{k: m[k] for k in kept if k in m} for m in snapshot]


PURGED = (
    "the session's transcript was purged before this job wrote its units: nothing was "
    "extracted (DELETE /working_memory/{session_id}?purge=true)"
)
# Messages before a session job's range, read as context (tester B19: "Yes, it expires on…"
# after a close answers the question asked before it).
CONTEXT_MESSAGES = 2
# The lowest queue priority a job gets (minus the namespace's unfinished jobs, at most this).
MAX_SHARE = 10_000
# Seconds a caller over EXTRACTION__MAX_PENDING_PER_NAMESPACE is told to wait.
RETRY_AFTER_S = 30


def _session_snapshot(
    rows: list[TranscriptMessage], context: list[TranscriptMessage]
) -> list[dict[str, Any]]:
    """The job's messages (index 0…) after the ``context`` messages before its range
    (negative indexes: read as context only, see job_units.turns_of)."""
    return [
        {
            "index": i - len(context),
            "seq": r.seq,
            "role": r.role,
            "content": r.content,
            "created_at": r.created_at.isoformat(),
            "metadata": r.metadata_,
        }
        for i, r in enumerate([*context, *rows])
    ]


def conversation_clock(snapshot: list[dict[str, Any]], now: datetime | None) -> datetime:
    """The time relative dates resolve against: given ``now``, else the newest message's
    time, else the wall clock."""
    if now is not None:
        return now
    times = [datetime.fromisoformat(m["created_at"]) for m in snapshot if m.get("created_at")]
    return max(times) if times else datetime.now(UTC)


class ExtractionService:
    """Creates extraction jobs; collaborators are passed in."""

    def __init__(
        self,
        jobs: JobRepository,
        transcripts: TranscriptRepository,
        extraction: ExtractionSettings,
        worker: WorkerSettings,
    ) -> None:
        self.jobs = jobs
        self.transcripts = transcripts
        self.extraction = extraction
        self.worker = worker

    async def _priority(self, namespace: str, cap: int | None = None) -> int:
        """The queue priority of the namespace's next job: minus its unfinished jobs, so the
        worker takes every namespace's first job before any namespace's second (pgqueuer
        takes the highest priority first, then the oldest). Tester finding C13: one API key's
        queued transcripts held up every other namespace's extraction for minutes. With
        ``cap``, raises RateLimitedError (429) once the namespace has that many."""
        pending = await self.jobs.pending_count(namespace)
        if cap is not None and pending >= cap:
            raise RateLimitedError(
                f"{pending} extraction jobs of this namespace are still waiting or running "
                f"(at most {cap}, EXTRACTION__MAX_PENDING_PER_NAMESPACE): retry when they "
                "finish (GET /extract?status=queued lists them)",
                retry_after_s=RETRY_AFTER_S,
            )
        return -min(pending, MAX_SHARE)

    def _job(self, scope: Scope, snapshot: list[dict[str, Any]], **fields: Any) -> dict[str, Any]:
        now = datetime.now(UTC)
        return {
            "id": uuid7.uuid7(),
            "namespace": scope.namespace,
            "user_id": scope.user_id,
            "agent_id": scope.agent_id,
            "session_id": scope.session_id,
            "task_id": scope.task_id,
            "status": JobStatus.QUEUED,
            "transcript": snapshot,
            "attempts": 0,
            "max_attempts": self.worker.max_attempts,
            "error_history": [],
            "outcome": [],
            "created_at": now,
            "updated_at": now,
            **fields,
        }

    async def submit_messages(
        self,
        scope: Scope,
        messages: list[ExtractMessage],
        *,
        timezone: str | None,
        now: datetime | None,
        queue_delay_s: float = 0.0,
    ) -> Submitted:
        """A job for a transcript given in the request (newest ``max_messages`` kept);
        ``timezone`` None: the messages' own (:func:`zones.transcript_zone`). Its units'
        session, ``scope.session_id``, becomes ``scope.user_id``'s when nobody owns it yet, in
        this transaction (:class:`SessionOwners`); another user's session raises
        NotFoundError (404). Raises RateLimitedError (429) when the namespace already has
        ``EXTRACTION__MAX_PENDING_PER_NAMESPACE`` unfinished jobs."""
        cap = self.extraction.max_pending_per_namespace
        priority = await self._priority(scope.namespace, cap)
        if scope.session_id is not None:
            await SessionOwners(self.transcripts).claim(
                scope.namespace, [(scope.session_id, scope.user_id)]
            )
        messages = messages[-self.extraction.max_messages :]
        timezone = timezone or transcript_zone(messages, own_times=True)
        snapshot = _snapshot(messages)
        values = self._job(
            scope,
            snapshot,
            trigger="api",
            trigger_detail=[],
            timezone=timezone,
            conversation_now=conversation_clock(snapshot, now),
        )
        await self.jobs.insert(values)  # one INSERT (no ORM flush): the ack path is hot
        await self.jobs.enqueue(values["id"], queue_delay_s, priority)
        return Submitted(ExtractionJob(**values), True)

    async def submit_session(
        self,
        scope: Scope,
        *,
        timezone: str | None,
        now: datetime | None,
        trigger: str,
        signals: list[str],
        queue_delay_s: float = 0.0,
    ) -> Submitted | None:
        """A job for the session's messages no earlier job took (``timezone`` None: theirs,
        :func:`zones.transcript_zone`). Returns the existing job
        when there is nothing new (idempotent), None when the session has no job and no
        messages (an unknown session is an empty one: None). Raises NotFoundError (404) when
        the session's owner is another user than ``scope.user_id``."""
        assert scope.session_id is not None
        await self.jobs.lock_session(scope.namespace, scope.session_id)
        session = await self.transcripts.get_session(scope.namespace, scope.session_id)
        if session is None:
            return None
        # Its messages are extracted as its owner's memories only; another user's session
        # is a 404, as another user's unit is.
        check_scope(scope.session_id, session.user_id, scope.user_id)
        epoch = session.created_at
        last = await self.jobs.last_extracted_seq(scope.namespace, scope.session_id, epoch)
        if session.last_seq <= last:
            existing = await self.jobs.session_job(scope.namespace, scope.session_id, epoch, last)
            return Submitted(existing, False) if existing is not None else None
        rows = await self.transcripts.list_transcript(
            scope.namespace, scope.session_id, after_seq=last
        )
        rows = [r for r in rows if r.seq <= session.last_seq]
        if not rows:
            return None
        context: list[TranscriptMessage] = []
        if last > 0:  # the previous job's last messages: what the new ones may answer
            context = await self.transcripts.list_transcript(
                scope.namespace,
                scope.session_id,
                after_seq=max(0, last - CONTEXT_MESSAGES),
                limit=CONTEXT_MESSAGES,
            )
            context = [r for r in context if r.seq <= last]
        # More than EXTRACTION__MAX_MESSAGES pending: one job per part, oldest first, each
        # queued (tester E17: the older ones were skipped for good); the newest is answered.
        size = self.extraction.max_messages
        submitted: Submitted | None = None
        for start in range(0, len(rows), size):
            part = rows[start : start + size]
            submitted = await self._session_part(
                scope, part, context, epoch, timezone=timezone, now=now, trigger=trigger,
                signals=signals, queue_delay_s=queue_delay_s,
            )  # fmt: skip
            context = part[-CONTEXT_MESSAGES:]
        return submitted

    async def _session_part(
        self,
        scope: Scope,
        rows: list[TranscriptMessage],
        context: list[TranscriptMessage],
        epoch: datetime,
        *,
        timezone: str | None,
        now: datetime | None,
        trigger: str,
        signals: list[str],
        queue_delay_s: float,
    ) -> Submitted:
        """The job of consecutive session messages ``rows`` (``context``: the messages just
        before them, read as context only), queued; the existing one when another closer
        made it first."""
        assert scope.session_id is not None
        snapshot = _session_snapshot(rows, context)
        values = self._job(
            scope,
            snapshot,
            trigger=trigger,
            trigger_detail=sorted(signals),
            timezone=timezone or transcript_zone(rows),
            conversation_now=conversation_clock(snapshot, now),
            transcript_from=int(rows[0].seq),
            transcript_to=int(rows[-1].seq),
            session_epoch=epoch,
        )
        priority = await self._priority(scope.namespace)
        job_id = await self.jobs.insert_session_job(values)
        if job_id is None:  # lost a race with another closer of the same range
            existing = await self.jobs.session_job(
                scope.namespace, scope.session_id, epoch, int(rows[-1].seq)
            )
            assert existing is not None
            return Submitted(existing, False)
        await self.jobs.enqueue(job_id, queue_delay_s, priority)
        job = await self.jobs.get(scope.namespace, job_id)
        assert job is not None
        return Submitted(job, True)

    async def get(
        self, namespace: str, job_id: uuid.UUID, user_id: str | None = None
    ) -> ExtractionJob:
        """A job of this namespace (with ``user_id``, of that user). Raises NotFoundError."""
        job = await self.jobs.get(namespace, job_id)
        if job is None or (user_id is not None and job.user_id != user_id):
            raise NotFoundError(f"no extraction job {job_id}")
        return job

    async def list(self, namespace: str, q: JobListQuery) -> JobPage:
        """One page of the namespace's jobs matching ``q``, newest first. Raises
        BadRequestError (422) on a malformed cursor or one made with other filters."""
        filters = q.model_dump(mode="json", include={"user_id", "agent_id", "session_id", "status"})
        after = None
        if q.cursor is not None:
            after = cursors.decode_keyset(q.cursor, filters, "GET /extract")
        f = JobFilters(namespace, q.user_id, q.agent_id, q.session_id, tuple(q.status or ()))
        rows = await self.jobs.list_page(f, after, q.limit + 1)
        more = len(rows) > q.limit
        rows = rows[: q.limit]
        last = rows[-1] if more and rows else None
        cursor = cursors.encode_keyset(last.created_at, last.id, filters) if last else None
        return JobPage(rows, cursor)

    async def cancel_for_purge(self, namespace: str, session_id: str) -> tuple[uuid.UUID, ...]:
        """Cancel the session's jobs that have not written their units (its transcript is
        being purged in this transaction; tester hbreak7 H30: a queued job extracted the
        purged messages from its snapshot afterwards). Their snapshots keep no words; a
        runner holding one finds it cancelled and discards its result. The ids cancelled."""
        now = datetime.now(UTC)
        jobs = await self.jobs.unfinished_session_jobs(namespace, session_id)
        for job in jobs:
            job.status = JobStatus.CANCELLED
            job.transcript = without_text(job.transcript)
            job.error, job.error_code = PURGED, "transcript_purged"
            job.next_attempt_at = job.lease_until = None
            job.finished_at = job.updated_at = now
        return tuple(job.id for job in jobs)

    async def retry(
        self, namespace: str, job_id: uuid.UUID, user_id: str | None = None
    ) -> ExtractionJob:
        """Queue a failed job again with a fresh attempt budget. Raises NotFoundError (also
        for another user's job when ``user_id`` is given), and JobNotRetryableError (409)
        unless the job is ``failed``."""
        job = await self.jobs.lock(job_id)
        if job is None or job.namespace != namespace or user_id not in (None, job.user_id):
            raise NotFoundError(f"no extraction job {job_id}")
        if job.status != JobStatus.FAILED:
            raise JobNotRetryableError(f"job {job_id} is {job.status}; only failed jobs retry")
        priority = await self._priority(namespace)
        await self.jobs.reset_for_retry(job)
        await self.jobs.enqueue(job.id, priority=priority)
        return job


class JobNotRetryableError(ConflictError):
    """Retry asked for a job that has not failed."""

    status, code, title = 409, "job_not_retryable", "Job is not in a retryable state"
