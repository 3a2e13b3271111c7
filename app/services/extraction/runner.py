"""Running one extraction job: claim → extract (LLM or offline) → write every unit and the
job's outcome in ONE transaction, or record the failure and when to try again.

Transactions are the job wrapper's (STYLE: one transaction per request or job):

1. claim: ``attempts += 1`` and a lease, committed (the attempt number fences later writes);
2. extract, outside any transaction (an LLM call may take long), renewing the lease;
3. write: lock the row, check it still shows our attempt, store the units through the
   shared write path (dedupe, conflicts) and mark the job ``succeeded`` — one commit, so a
   crash or a lost lease writes nothing and a re-run cannot duplicate;
4. on failure: ``retrying`` with exponential backoff, or ``failed`` after ``max_attempts``.

A runner that died leaves a ``running`` job whose lease runs out; the queue hands the job out
again (pgqueuer re-picks entries whose heartbeat went stale) and the next claim takes over.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Protocol, TypeGuard

from pydantic import ValidationError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.clients.llm import LLMClient
from app.clients.tokenizer import create_tokenizer
from app.core.config import Settings
from app.core.errors import HindsightError, ProviderError
from app.core.vocabulary import JOB_ENDED, JobStatus
from app.models import ExtractionJob
from app.repositories.jobs import JobRepository
from app.schemas.memory import MemoryCreate
from app.services.extraction import withhold
from app.services.extraction.job_units import to_memory, turns_of, within_bound
from app.services.extraction.jobs import ExtractionService, Submitted, without_text
from app.services.extraction.llm import LLMExtractor
from app.services.extraction.offline import OfflineExtractor
from app.services.extraction.retractions import meant_instead
from app.services.extraction.slices import slices
from app.services.extraction.units import (
    Extraction,
    ExtractionContext,
    Extractor,
)
from app.services.memory.review_room import held_back
from app.services.memory.store import StoreService

log = logging.getLogger(__name__)

# Units embedded and written per store call of a job (all in the job's one transaction).
STORE_BATCH = 100


class JobServices(Protocol):
    """What the runner builds on the sessions it opens (``app/services/wiring.py``)."""

    def store(self) -> StoreService: ...

    def extraction(self) -> ExtractionService: ...


@dataclass(frozen=True)
class RunResult:
    """How one run ended: ``status`` of the job and, when it should run again, in how many
    seconds (``retry_in``)."""

    status: str
    retry_in: float | None = None


def backoff_s(attempt: int, initial: float, cap: float) -> float:
    """Delay before attempt ``attempt + 1``: ``initial * 2^(attempt-1)``, capped."""
    return min(cap, initial * 2.0 ** max(0, attempt - 1))


def _still_ours(job: ExtractionJob | None, attempt: int) -> TypeGuard[ExtractionJob]:
    """The job is still running the attempt this runner claimed (its lease was not lost)."""
    return job is not None and job.status == JobStatus.RUNNING and job.attempts == attempt


class JobRunner:
    """Runs extraction jobs; used by the worker and by ``POST /extract?wait=true``."""

    def __init__(
        self,
        session_factory: async_sessionmaker[AsyncSession],
        services: Callable[[AsyncSession], JobServices],
        settings: Settings,
        llm: LLMClient | None = None,
    ) -> None:
        self.session_factory = session_factory
        self.services = services
        self.settings = settings
        self.offline = OfflineExtractor()
        self.extractor: Extractor = (
            LLMExtractor(llm, settings.llm) if llm is not None else self.offline
        )
        self.tokenizer = create_tokenizer(settings.working_memory.encoding)

    async def run_once(self, job_id: uuid.UUID) -> RunResult:
        """One attempt at the job (see the module docstring). Never raises for a job
        failure: the job row records it."""
        lease = self.settings.worker.lease_s
        async with self.session_factory() as session, session.begin():
            job = await JobRepository(session).claim(job_id, lease)
            if job is None:
                current = await JobRepository(session).lock(job_id)
        if job is None:
            if current is None or current.status in JOB_ENDED:
                return RunResult(current.status if current else "missing")
            left = 1.0
            if current.lease_until is not None:
                left = (current.lease_until - datetime.now(UTC)).total_seconds() + 0.5
            return RunResult(current.status, retry_in=max(0.5, left))

        attempt = job.attempts
        keeper = asyncio.create_task(self._keep_lease(job_id, attempt))
        try:
            extraction = await self._extract(job, self.extractor)
            return await self._write(job, attempt, extraction, self.extractor)
        except Exception as exc:  # noqa: BLE001 - every failure is recorded on the job
            if self._falls_back(job, attempt, exc):
                return await self._fall_back(job, attempt, exc)
            return await self._fail(job_id, attempt, exc)
        except asyncio.CancelledError:
            # A shutdown cancelled this attempt: hand the job back now rather than when the
            # lease runs out (nothing was written: the write is one transaction).
            await asyncio.shield(self._release(job_id, attempt))
            raise
        finally:
            keeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await keeper

    async def run_inline(self, job_id: uuid.UUID, timeout_s: float) -> str:
        """Run the job here until it ends or ``timeout_s`` passes (retries included);
        returns the job's last status."""
        deadline = time.monotonic() + timeout_s
        while True:
            result = await self.run_once(job_id)
            if result.retry_in is None:
                return result.status
            if time.monotonic() + result.retry_in > deadline:
                return result.status
            await asyncio.sleep(result.retry_in)

    async def submit_and_wait(
        self,
        submit: Callable[[ExtractionService, float], Awaitable[Submitted | None]],
        timeout_s: float,
    ) -> Submitted | None:
        """Synchronous extraction: ``submit(service, queue_delay_s)`` in a transaction of
        its own that commits first (the transcript is safe), then run the job here.

        The queue entry is delayed by the lease, a safety net: if this process dies
        mid-run, a worker takes the job over once the lease runs out."""
        async with self.session_factory() as session, session.begin():
            service = self.services(session).extraction()
            submitted = await submit(service, self.settings.worker.lease_s)
        if submitted is None:
            return None
        if submitted.job.status not in JOB_ENDED:
            await self.run_inline(submitted.job.id, timeout_s)
        async with self.session_factory() as session:
            job = await JobRepository(session).get(submitted.job.namespace, submitted.job.id)
        assert job is not None
        return Submitted(job, submitted.created)

    async def _keep_lease(self, job_id: uuid.UUID, attempt: int) -> None:
        lease = self.settings.worker.lease_s
        while True:
            await asyncio.sleep(lease / 3)
            try:
                async with self.session_factory() as session, session.begin():
                    if not await JobRepository(session).renew_lease(job_id, attempt, lease):
                        return  # another runner took over; our write will be refused
            except Exception:  # noqa: BLE001 - a missed renewal is retried next tick
                log.warning("could not renew the lease of job %s", job_id, exc_info=True)

    def _falls_back(self, job: ExtractionJob, attempt: int, exc: Exception) -> bool:
        """The LLM failed the job's last attempt (``provider_error``, ``provider_timeout``
        or ``provider_bad_reply``) and ``EXTRACTION__OFFLINE_FALLBACK`` is on: the offline
        extractor runs instead of failing the job."""
        return (
            self.settings.extraction.offline_fallback
            and self.extractor is not self.offline
            and attempt >= job.max_attempts
            and isinstance(exc, ProviderError)
        )

    async def _fall_back(self, job: ExtractionJob, attempt: int, exc: Exception) -> RunResult:
        """The last attempt's LLM failure, recorded in ``error_history`` (with
        ``"fallback": "offline"``), then the transcript through the offline extractor."""
        code = exc.code if isinstance(exc, HindsightError) else "provider_error"
        log.warning("job %s: the LLM failed its last attempt (%s); offline fallback", job.id, code)
        failure = {"attempt": attempt, "code": code, "error": str(exc)[:1000],
                   "at": datetime.now(UTC).isoformat(), "fallback": self.offline.name}  # fmt: skip
        try:
            extraction = await self._extract(job, self.offline)
            return await self._write(job, attempt, extraction, self.offline, failure)
        except Exception as fallback_exc:  # noqa: BLE001 - recorded like any failure
            return await self._fail(job.id, attempt, fallback_exc)

    async def _extract(self, job: ExtractionJob, extractor: Extractor) -> Extraction:
        """Every slice of the transcript through the extractor, in order (one LLM call or
        one offline pass per slice, see :mod:`app.services.extraction.slices`)."""
        limits = self.settings.extraction
        screened = withhold.screen(turns_of(job))  # tester C25: never read, never kept
        out = Extraction(dropped=screened.dropped)
        turns = meant_instead(screened.turns)  # "Wait, I meant dogs, not cats." (E15)
        context = tuple(t for t in turns if t.index < 0)  # before the range (B19)
        mine = [t for t in turns if t.index >= 0]
        for piece in slices(mine, self.tokenizer, limits.window_tokens):
            ctx = ExtractionContext(
                job.user_id, job.conversation_now, job.timezone, piece.preceding or context
            )
            part = await extractor.extract(piece.turns, ctx)
            out.units += part.units
            out.rejected += part.rejected
            out.dropped += part.dropped  # e.g. "She is a nurse." naming nobody (H28)
        return out

    def _prepare(
        self, job: ExtractionJob, extraction: Extraction, extractor: Extractor
    ) -> tuple[list[MemoryCreate], list[dict[str, Any]]]:
        """Memories to store, and the outcome entries of the units that will not be."""
        turns = turns_of(job)
        keep: list[MemoryCreate] = []
        skipped: list[dict[str, Any]] = [
            {"memory_id": None, "outcome": "rejected", "reason": r.get("error"), "type": None,
             "value": None, "confidence": None}
            for r in extraction.rejected
        ]  # fmt: skip
        skipped += extraction.dropped
        floor = self.settings.extraction.min_confidence
        units, over = within_bound(extraction.units, turns, self.settings.extraction)
        skipped += over
        for found in units:
            cand, why = withhold.screen_unit(found)
            if cand is None:  # its words are not echoed in the outcome either
                skipped.append({"memory_id": None, "type": found.type, "value": None,
                                "confidence": found.confidence, "outcome": "dropped",
                                "reason": why})  # fmt: skip
                continue
            entry = {"memory_id": None, "type": cand.type, "value": cand.value,
                     "confidence": cand.confidence}  # fmt: skip
            if cand.confidence < floor:
                skipped.append({**entry, "outcome": "dropped",
                                "reason": f"confidence {cand.confidence} < {floor}"})  # fmt: skip
                continue
            try:
                keep.append(to_memory(cand, job, turns, extractor.name))
            except ValidationError as exc:
                msg = exc.errors()[0].get("msg", "invalid")
                skipped.append({**entry, "outcome": "rejected", "reason": str(msg)})
        return keep, skipped

    async def _write(
        self,
        job: ExtractionJob,
        attempt: int,
        extraction: Extraction,
        extractor: Extractor,
        failure: dict[str, Any] | None = None,
    ) -> RunResult:
        memories, skipped = self._prepare(job, extraction, extractor)
        async with self.session_factory() as session, session.begin():
            repo = JobRepository(session)
            current = await repo.lock(job.id)
            if not _still_ours(current, attempt):
                log.warning("job %s: attempt %s lost its lease; result discarded", job.id, attempt)
                return RunResult(current.status if current else "missing")
            results: list[dict[str, Any]] = []
            store = self.services(session).store()
            budget = self.settings.extraction.max_reviews_per_job  # reviews the job may open
            for start in range(0, len(memories), STORE_BATCH):  # bounded embedding batches
                batch = memories[start : start + STORE_BATCH]
                outcomes = await store.store(job.namespace, batch, datetime.now(UTC),
                                             max_reviews=budget)  # fmt: skip
                budget -= sum(len(o.reviews) + len(o.flagged) for o in outcomes)
                for mem, out in zip(batch, outcomes, strict=True):
                    results.append(
                        {"memory_id": str(out.unit.id), "outcome": out.outcome, "type": mem.type,
                         "value": mem.value, "confidence": mem.confidence,
                         "reason": held_back(out.held_back)}
                    )  # fmt: skip
            now = datetime.now(UTC)
            current.status = JobStatus.SUCCEEDED
            # Its units are stored: the messages' text is not kept beyond them (tester C25).
            current.transcript = without_text(current.transcript)
            current.outcome = results + skipped
            current.extractor = extractor.name
            current.error = current.error_code = None
            if failure is not None:  # the LLM's failure stays on record beside the fallback
                current.error_history = [*current.error_history, failure]
            current.finished_at = current.updated_at = now
            current.lease_until = None
        return RunResult(JobStatus.SUCCEEDED)

    async def _release(self, job_id: uuid.UUID, attempt: int) -> None:
        try:
            async with self.session_factory() as session, session.begin():
                released = await JobRepository(session).release(job_id, attempt)
        except Exception:  # noqa: BLE001 - the lease then simply runs out
            log.warning("could not release the lease of job %s", job_id, exc_info=True)
            return
        if released:
            log.warning("job %s: attempt %s interrupted by shutdown; requeued", job_id, attempt)

    async def _fail(self, job_id: uuid.UUID, attempt: int, exc: Exception) -> RunResult:
        code = exc.code if isinstance(exc, HindsightError) else "internal_error"
        # An unexpected error's text (a statement and its parameters, a traceback's words)
        # stays in the server log: the job says its type only.
        detail = (
            exc.detail
            if isinstance(exc, HindsightError)
            else f"{type(exc).__name__}: an unexpected error (the server log has it, job {job_id})"
        )
        if not isinstance(exc, HindsightError):
            log.exception("job %s attempt %s failed", job_id, attempt, exc_info=exc)
        worker = self.settings.worker
        async with self.session_factory() as session, session.begin():
            current = await JobRepository(session).lock(job_id)
            if not _still_ours(current, attempt):
                return RunResult(current.status if current else "missing")
            now = datetime.now(UTC)
            current.error, current.error_code = detail[:4000], code
            current.error_history = [
                *current.error_history,
                {"attempt": attempt, "code": code, "error": detail[:1000], "at": now.isoformat()},
            ]
            current.extractor = self.extractor.name
            current.updated_at = now
            current.lease_until = None
            if attempt >= current.max_attempts:
                current.status = JobStatus.FAILED
                current.finished_at = now
                return RunResult(JobStatus.FAILED)
            delay = backoff_s(attempt, worker.backoff_initial_s, worker.backoff_max_s)
            current.status = JobStatus.RETRYING
            current.next_attempt_at = now + timedelta(seconds=delay)
        return RunResult(JobStatus.RETRYING, retry_in=delay)
