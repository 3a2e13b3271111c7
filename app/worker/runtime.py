"""The extraction side of the API process: the job runner (used by
``POST /extract?wait=true``) and, with ``WORKER__IN_PROCESS``, the worker loop itself."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.services.extraction.runner import JobRunner
from app.services.wiring import Resources, job_runner, reconcile_runner
from app.worker.main import Worker

log = logging.getLogger("hindsight.worker")


@dataclass
class ExtractionRuntime:
    """Started in the app's lifespan, stopped at shutdown."""

    runner: JobRunner
    worker: Worker | None = None
    task: asyncio.Task[None] | None = None
    loop: asyncio.AbstractEventLoop | None = None

    @classmethod
    async def start(
        cls, resources: Resources, session_factory: async_sessionmaker[AsyncSession]
    ) -> ExtractionRuntime:
        """Create the runner; start the in-process worker when configured."""
        runner = job_runner(resources, session_factory)
        runtime = cls(runner=runner)
        if resources.settings.worker.in_process:
            reconciler = reconcile_runner(resources, session_factory)
            runtime.worker = Worker(resources, session_factory, runner, reconciler)
            runtime.task = asyncio.create_task(runtime.worker.run(), name="hindsight-worker")
            runtime.loop = asyncio.get_running_loop()
            log.info("in-process worker started (extractor: %s)", runner.extractor.name)
        return runtime

    def begin_stop(self) -> None:
        """Start draining the in-process worker now (safe from a signal handler), so its
        jobs finish while the server drains its requests."""
        if self.worker is not None and self.loop is not None:
            self.loop.call_soon_threadsafe(self.worker.request_stop)

    async def stop(self, grace_s: float = 2.0) -> None:
        """Stop the worker (its jobs in flight get ``SHUTDOWN_TIMEOUT_S``, after which it
        cancels them and hands them back; ``grace_s`` more for that)."""
        if self.worker is not None and self.task is not None:
            self.worker.request_stop()
            timeout_s = self.worker.settings.shutdown_timeout_s + grace_s
            try:
                await asyncio.wait_for(self.task, timeout=timeout_s)
            except TimeoutError:
                self.task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await self.task
            except asyncio.CancelledError:
                # The event loop is shutting down and cancelled the worker task (uvicorn
                # re-raises SIGINT after its shutdown): finish cleaning up, unless this task
                # itself is being cancelled.
                current = asyncio.current_task()
                if current is not None and current.cancelling():
                    raise
