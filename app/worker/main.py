"""The worker loop.

Queue: pgqueuer on the service's PostgreSQL. Its ``QueueManager`` listens for NOTIFY on a
dedicated asyncpg connection, claims entries with ``FOR UPDATE SKIP LOCKED``, heartbeats the
ones it runs and re-picks entries whose heartbeat went stale (a SIGKILLed worker) after
``WORKER__LEASE_S``. A job that should run again later raises ``RetryRequested`` with the
backoff delay; the job row (``extraction_jobs``) holds the state the API shows.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import asyncpg
from pgqueuer import Job, Queries, QueueManager, RetryRequested
from pgqueuer.db import AsyncpgDriver
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.clients.llm import LLMClient
from app.core.config import Settings
from app.repositories.jobs import JobRepository
from app.repositories.queue import EXTRACT_ENTRYPOINT, RECONCILE_ENTRYPOINT
from app.repositories.working_memory.transcript import TranscriptRepository
from app.services.extraction.jobs import ExtractionService
from app.services.extraction.runner import JobRunner
from app.services.memory.conflict_judge import LLMPairJudge
from app.services.memory.reconcile import ReconcileRunner
from app.services.working_memory.closure import ClosureService
from app.worker import schedule

log = logging.getLogger("hindsight.worker")


@dataclass
class Periodic:
    """A task the worker runs every ``interval_s`` seconds (errors are logged, not fatal)."""

    name: str
    interval_s: float
    run: Callable[[], Awaitable[None]]


def asyncpg_dsn(url: str) -> str:
    """A SQLAlchemy URL (``postgresql+asyncpg://…``) as a plain libpq DSN for asyncpg."""
    for prefix in ("postgresql+asyncpg://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql://" + url[len(prefix) :]
    return url


class SilenceScanner:
    """Finds sessions that fell silent and closes their task when a second signal holds.

    Each scan looks at sessions whose last append lies between its cursor and
    ``now - CLOSURE__SILENCE_S``, so every session is evaluated about once per silence (a
    new append moves it back into view)."""

    def __init__(self, session_factory: async_sessionmaker[AsyncSession], settings: Settings):
        self.session_factory = session_factory
        self.settings = settings
        self.cursor = datetime.now(UTC) - timedelta(seconds=settings.closure.silence_s, days=1)

    async def scan(self, now: datetime | None = None, limit: int = 200) -> int:
        """One scan; returns how many sessions it closed."""
        now = now or datetime.now(UTC)
        before = now - timedelta(seconds=self.settings.closure.silence_s)
        async with self.session_factory() as session, session.begin():
            marks = await JobRepository(session).silent_sessions(before, self.cursor, limit)
        closed = 0
        for mark in marks:
            async with self.session_factory() as session, session.begin():
                jobs, transcripts = JobRepository(session), TranscriptRepository(session)
                extraction = ExtractionService(
                    jobs, transcripts, self.settings.extraction, self.settings.worker
                )
                result = await ClosureService(
                    jobs, transcripts, extraction, self.settings.closure
                ).evaluate(mark.namespace, mark.session_id, now=now)
            closed += int(result.submitted is not None and result.submitted.created)
            self.cursor = max(self.cursor, mark.updated_at)
        if len(marks) < limit:
            self.cursor = max(self.cursor, before - timedelta(seconds=1))
        return closed


class Worker:
    """Runs queued jobs and periodic tasks until :meth:`request_stop`."""

    def __init__(
        self,
        settings: Settings,
        session_factory: async_sessionmaker[AsyncSession],
        runner: JobRunner,
        reconciler: ReconcileRunner | None = None,
    ) -> None:
        assert settings.database_url, "the worker needs DATABASE_URL"
        self.settings = settings
        self.session_factory = session_factory
        self.runner = runner
        self.reconciler = reconciler
        self.periodic: list[Periodic] = []
        self._stop = asyncio.Event()
        if settings.closure.scan_interval_s > 0:
            scanner = SilenceScanner(session_factory, settings)
            self.add_periodic(
                "closure.silence_scan", settings.closure.scan_interval_s, scanner.scan
            )
        schedule.install(self, settings, session_factory, runner)  # archival, distillation

    def add_periodic(
        self, name: str, interval_s: float, run: Callable[[], Awaitable[object]]
    ) -> None:
        """Run ``run()`` every ``interval_s`` seconds while the worker runs."""

        async def call() -> None:
            await run()

        self.periodic.append(Periodic(name, interval_s, call))

    def request_stop(self) -> None:
        """Finish the jobs in flight and return from :meth:`run`."""
        self._stop.set()

    async def _handle(self, job: Job) -> None:
        job_id = uuid.UUID((job.payload or b"").decode())
        result = await self.runner.run_once(job_id)
        if result.retry_in is not None:
            raise RetryRequested(delay=timedelta(seconds=result.retry_in), reason=result.status)

    async def _reconcile(self, job: Job) -> None:
        assert self.reconciler is not None
        review_id = uuid.UUID((job.payload or b"").decode())
        result = await self.reconciler.run_once(review_id)
        if result.retry_in is not None:
            raise RetryRequested(delay=timedelta(seconds=result.retry_in), reason=result.status)

    async def _periodic(self, task: Periodic) -> None:
        while not self._stop.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._stop.wait(), timeout=task.interval_s)
                return
            try:
                await task.run()
            except Exception:  # noqa: BLE001 - a failed tick is logged and retried
                log.exception("periodic task %s failed", task.name)

    async def _serve_queue(self) -> None:
        worker = self.settings.worker
        conn = await asyncpg.connect(asyncpg_dsn(self.settings.database_url or ""))
        try:
            qm = QueueManager(Queries(AsyncpgDriver(conn)))
            qm.entrypoint(EXTRACT_ENTRYPOINT)(self._handle)
            if self.reconciler is not None:
                qm.entrypoint(RECONCILE_ENTRYPOINT)(self._reconcile)

            async def stopper() -> None:
                await self._stop.wait()
                qm.shutdown.set()

            stop_task = asyncio.create_task(stopper())
            try:
                await qm.run(
                    dequeue_timeout=timedelta(seconds=worker.poll_interval_s),
                    batch_size=1,
                    max_concurrent_tasks=max(2, worker.concurrency),
                    heartbeat_timeout=timedelta(seconds=worker.lease_s),
                    log_aggregation_interval=timedelta(0),
                )
            finally:
                stop_task.cancel()
        finally:
            await conn.close()

    async def run(self) -> None:
        """Serve the queue and the periodic tasks; a lost database connection is retried
        with backoff until stopped."""
        periodic = [asyncio.create_task(self._periodic(p)) for p in self.periodic]
        delay = 1.0
        try:
            while not self._stop.is_set():
                try:
                    await self._serve_queue()
                    delay = 1.0
                    continue
                except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
                    log.warning("worker lost the database (%s); reconnecting in %.0f s", exc, delay)
                except Exception:  # noqa: BLE001 - never die silently in the API process
                    log.exception("worker queue loop failed; restarting in %.0f s", delay)
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._stop.wait(), timeout=delay)
                delay = min(30.0, delay * 2)
        finally:
            for task in periodic:
                task.cancel()
            await asyncio.gather(*periodic, return_exceptions=True)


def reconcile_runner(
    settings: Settings,
    session_factory: async_sessionmaker[AsyncSession],
    llm: LLMClient | None,
) -> ReconcileRunner | None:
    """The reconciliation runner of unsure pairs, when an LLM is configured and
    ``CONFLICTS__USE_LLM`` is on."""
    if llm is None or not settings.conflicts.use_llm:
        return None
    return ReconcileRunner(session_factory, LLMPairJudge(llm), settings)


async def run_worker(settings: Settings) -> None:
    """``hindsight worker``: its own engine, embedder and LLM client; stops on SIGINT/SIGTERM
    after the jobs in flight."""
    from app.clients.embeddings import create_embedder
    from app.clients.llm import create_llm
    from app.core.db import create_engine, create_session_factory
    from app.services.extraction.runner import default_store_factory

    assert settings.database_url
    engine = create_engine(settings.database_url, min(settings.db_pool_size, 5))
    embedder = create_embedder(settings.embedding)
    llm = create_llm(settings.llm)
    session_factory = create_session_factory(engine)
    runner = JobRunner(
        session_factory, default_store_factory(settings, embedder, llm), settings, llm
    )
    worker = Worker(
        settings, session_factory, runner, reconcile_runner(settings, session_factory, llm)
    )
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, worker.request_stop)
    log.info("worker started (extractor: %s)", runner.extractor.name)
    try:
        await worker.run()
    finally:
        if llm is not None:
            await llm.aclose()
        await embedder.aclose()
        await engine.dispose()
