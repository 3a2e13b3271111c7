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
from datetime import timedelta
from typing import TYPE_CHECKING

import asyncpg
from pgqueuer import Job, Queries, QueueManager, RetryRequested
from pgqueuer.db import AsyncpgDriver
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.clients.embeddings import create_embedder
from app.clients.llm import create_llm
from app.core.config import Settings
from app.core.db import asyncpg_dsn, create_engine, create_session_factory
from app.core.graceful import STOP_SIGNALS
from app.core.metrics import WORKER_JOBS, WORKER_RUNNING
from app.core.vocabulary import EXTRACT_ENTRYPOINT, RECONCILE_ENTRYPOINT, JobStatus
from app.schemas import limits
from app.services.extraction.runner import JobRunner
from app.services.memory.reconcile import ReconcileRunner
from app.services.wiring import Resources, Services, job_runner, reconcile_runner
from app.services.working_memory.closure import SilenceScanner
from app.worker.schedule import Periodic, instrumented, lifecycle_tasks

if TYPE_CHECKING:
    from wsgiref.simple_server import WSGIServer

log = logging.getLogger("hindsight.worker")
_OUTCOMES = (JobStatus.SUCCEEDED, JobStatus.RETRYING, JobStatus.FAILED)


class Worker:
    """Runs queued jobs and periodic tasks until :meth:`request_stop`."""

    def __init__(
        self,
        resources: Resources,
        session_factory: async_sessionmaker[AsyncSession],
        runner: JobRunner,
        reconciler: ReconcileRunner | None = None,
    ) -> None:
        settings = resources.settings
        assert settings.database_url, "the worker needs DATABASE_URL"
        self.resources = resources
        self.settings = settings
        self.session_factory = session_factory
        self.runner = runner
        self.reconciler = reconciler
        self._stop = asyncio.Event()
        self._inflight: set[asyncio.Task[object]] = set()
        tasks = lifecycle_tasks(resources, session_factory)
        if settings.closure.scan_interval_s > 0:
            scanner = SilenceScanner(
                session_factory, lambda s: Services(resources, s).closure(), settings.closure
            )
            tasks.insert(
                0, Periodic("closure.silence_scan", settings.closure.scan_interval_s, scanner.scan)
            )
        self.periodic = [instrumented(task) for task in tasks]
        log.info(
            "periodic tasks: %s",
            ", ".join(f"{t.name} every {t.interval_s:g} s" for t in self.periodic) or "none",
        )

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

    async def _reconcile(self, job: Job) -> None:
        assert self.reconciler is not None
        review_id = uuid.UUID((job.payload or b"").decode())
        task = asyncio.current_task()
        assert task is not None
        self._inflight.add(task)  # drained on stop like an extraction job
        try:
            result = await self.reconciler.run_once(review_id)
        except asyncio.CancelledError:
            if not self._stop.is_set():
                raise
            task.uncancel()  # the runner released the review: put the entry back at once
            raise RetryRequested(delay=timedelta(0), reason="worker stopped") from None
        finally:
            self._inflight.discard(task)
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
    assert settings.database_url
    limits.bind(settings.limits)  # the wire models' LIMITS__* for units written here
    engine = create_engine(settings.database_url, min(settings.db_pool_size, 5))
    resources = Resources(
        settings, embedder=create_embedder(settings.embedding), llm=create_llm(settings.llm)
    )
    session_factory = create_session_factory(engine)
    runner = job_runner(resources, session_factory)
    reconciler = reconcile_runner(resources, session_factory)
    worker = Worker(resources, session_factory, runner, reconciler)
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
        if resources.llm is not None:
            await resources.llm.aclose()
        await resources.need_embedder().aclose()
        await engine.dispose()
        log.warning("worker stopped")


def _serve_metrics(settings: Settings) -> WSGIServer | None:
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
