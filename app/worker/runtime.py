"""The extraction resources of the API process: the LLM client, the job runner (used by
``POST /extract?wait=true``) and, with ``WORKER__IN_PROCESS``, the worker loop itself."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.clients.embeddings import Embedder
from app.clients.llm import LLMClient, create_llm
from app.core.config import Settings
from app.services.extraction.runner import JobRunner, default_store_factory
from app.worker.main import Worker, reconcile_runner

log = logging.getLogger("hindsight.worker")


@dataclass
class ExtractionRuntime:
    """Started in the app's lifespan, stopped at shutdown."""

    runner: JobRunner
    llm: LLMClient | None
    worker: Worker | None = None
    task: asyncio.Task[None] | None = None

    @classmethod
    async def start(
        cls,
        settings: Settings,
        session_factory: async_sessionmaker[AsyncSession],
        embedder: Embedder,
    ) -> ExtractionRuntime:
        """Create the runner; start the in-process worker when configured."""
        llm = create_llm(settings.llm)
        runner = JobRunner(
            session_factory, default_store_factory(settings, embedder, llm), settings, llm
        )
        runtime = cls(runner=runner, llm=llm)
        if settings.worker.in_process:
            reconciler = reconcile_runner(settings, session_factory, llm)
            runtime.worker = Worker(settings, session_factory, runner, reconciler)
            runtime.task = asyncio.create_task(runtime.worker.run(), name="hindsight-worker")
            log.info("in-process worker started (extractor: %s)", runner.extractor.name)
        return runtime

    async def stop(self, timeout_s: float = 10.0) -> None:
        """Stop the worker (jobs in flight get ``timeout_s``), close the LLM client."""
        if self.worker is not None and self.task is not None:
            self.worker.request_stop()
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
        if self.llm is not None:
            await self.llm.aclose()
