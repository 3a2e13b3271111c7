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

from app.core.config import Settings
from app.core.db import asyncpg_dsn
from app.core.graceful import STOP_SIGNALS
from app.core.metrics import WORKER_JOBS, WORKER_RUNNING
from app.repositories.jobs import EXTRACT_ENTRYPOINT, JobRepository
from app.repositories.working_memory.transcript import TranscriptRepository
from app.services.extraction.jobs import ExtractionService
from app.services.extraction.runner import JobRunner
from app.services.working_memory.closure import ClosureService
from app.worker import schedule

log = logging.getLogger("hindsight.worker")
_OUTCOMES = ("succeeded", "retrying", "failed")


@dataclass
class Periodic:
    """A task the worker runs every ``interval_s`` seconds (errors are logged, not fatal)."""

    name: str
    interval_s: float
    run: Callable[[], Awaitable[None]]


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
    ) -> None:
        assert settings.database_url, "the worker needs DATABASE_URL"
        self.settings = settings
        self.session_factory = session_factory
        self.runner = runner
        self.periodic: list[Periodic] = []
        self._stop = asyncio.Event()
        self._inflight: set[asyncio.Task[object]] = set()
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
        """Take no new job; let the jobs in flight finish for at most
        ``SHUTDOWN_TIMEOUT_S`` (then cancel them: they go back to the queue) and return from
        :meth:`run`."""
        self._stop.set()

    @property
    def stopping(self) -> bool:
        """True once :meth:`request_stop` was called."""
        return self._stop.is_set()

    async def _handle(self, job: Job) -> None:
        job_id = uuid.UUID((job.payload or b"").decode())
        task = asyncio.current_task()
        assert task is not None
        self._inflight.add(task)
        WORKER_RUNNING.inc()
        try:
            result = await self.runner.run_once(job_id)
        except asyncio.CancelledError:
            if not self._stop.is_set():
                raise
            # Cancelled by a bounded shutdown: the runner released the job's lease; put the
            # queue entry back at once (pgqueuer drops a cancelled entry from the queue).
            task.uncancel()
            WORKER_JOBS.labels("requeued").inc()
            raise RetryRequested(delay=timedelta(0), reason="worker stopped") from None
        finally:
            self._inflight.discard(task)
            WORKER_RUNNING.dec()
        WORKER_JOBS.labels(result.status if result.status in _OUTCOMES else "skipped").inc()
        if result.retry_in is not None:
            raise RetryRequested(delay=timedelta(seconds=result.retry_in), reason=result.status)

    async def _drain(self, qm: QueueManager) -> None:
        """On stop: no new dequeues, then cancel what still runs after the timeout."""
        await self._stop.wait()
        qm.shutdown.set()
        timeout = self.settings.shutdown_timeout_s
        if self._inflight:
            await asyncio.wait(set(self._inflight), timeout=timeout)
        if self._inflight:
            running = len(self._inflight)
            log.warning("cancelling %d job(s) still running after %s s", running, timeout)
            for task in list(self._inflight):
                task.cancel()

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

            stop_task = asyncio.create_task(self._drain(qm))
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
                # Capped at 4 s: a restarted database is back in service within 5 s.
                delay = min(4.0, delay * 2)
        finally:
            for task in periodic:
                task.cancel()
            await asyncio.gather(*periodic, return_exceptions=True)


async def run_worker(settings: Settings) -> None:
    """``hindsight worker``: its own engine, embedder and LLM client; stops on SIGTERM,
    SIGINT or SIGHUP (:meth:`Worker.request_stop`)."""
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
    worker = Worker(settings, session_factory, runner)
    loop = asyncio.get_running_loop()

    def stop(sig: signal.Signals) -> None:
        if worker.stopping:
            return
        log.warning("received %s: draining (at most %s s)", sig.name, settings.shutdown_timeout_s)
        worker.request_stop()

    for sig in STOP_SIGNALS:
        loop.add_signal_handler(sig, stop, sig)
    metrics = _serve_metrics(settings)
    log.info("worker started (extractor: %s)", runner.extractor.name)
    try:
        await worker.run()
    finally:
        if metrics is not None:
            metrics.shutdown()
        if llm is not None:
            await llm.aclose()
        await embedder.aclose()
        await engine.dispose()
        log.warning("worker stopped")


def _serve_metrics(settings: Settings):  # type: ignore[no-untyped-def]
    """Prometheus exposition on WORKER__METRICS_HOST:PORT (prometheus_client's own HTTP
    server, in a thread); None when the port is 0."""
    from prometheus_client import start_http_server

    worker = settings.worker
    if not worker.metrics_port:
        return None
    try:
        server, _thread = start_http_server(worker.metrics_port, addr=worker.metrics_host)
    except OSError as exc:  # the port is taken: run the jobs anyway, say so loudly
        log.error("worker metrics not served on port %d: %s", worker.metrics_port, exc)
        return None
    log.info("worker metrics on http://%s:%d/metrics", worker.metrics_host, worker.metrics_port)
    return server
