"""The worker's lifecycle schedule (DESIGN §8): archival of expired units and periodic
distillation, next to the extraction worker's silent-session scan. Every periodic task of
the worker is timed, logged and counted in Prometheus metrics.

Settings: ``LIFECYCLE__ARCHIVE_INTERVAL_S`` (default 300 s), ``LIFECYCLE__DISTILL_INTERVAL_S``
(default 3600 s), 0 disables a job; ``CLOSURE__SCAN_INTERVAL_S`` for the silence scan.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from prometheus_client import Counter, Histogram
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.core.config import Settings
from app.core.metrics import LATENCY_BUCKETS
from app.services.lifecycle.distill import distill_due
from app.services.memory.ttl import archive_expired

if TYPE_CHECKING:
    from app.services.extraction.runner import JobRunner
    from app.worker.main import Worker

log = logging.getLogger("hindsight.worker")

SCHEDULED_RUNS = Counter(
    "hindsight_scheduled_runs",
    "Runs of the worker's periodic tasks, by task and outcome (ok|error).",
    ["task", "outcome"],
)
SCHEDULED_SECONDS = Histogram(
    "hindsight_scheduled_duration_seconds",
    "Time of one run of a periodic task of the worker, by task.",
    ["task"],
    buckets=LATENCY_BUCKETS,
)
LIFECYCLE_ITEMS = Counter(
    "hindsight_lifecycle_items",
    "Work done by lifecycle tasks: archived units, pruned access-log rows, distilled subjects.",
    ["kind"],
)


def instrumented(name: str, run: Callable[[], Awaitable[Any]]) -> Callable[[], Awaitable[None]]:
    """``run`` with run/error counts and a duration histogram (errors re-raised: the worker
    logs them and tries again at the next tick)."""

    async def call() -> None:
        start = time.perf_counter()
        try:
            await run()
        except Exception:
            SCHEDULED_RUNS.labels(name, "error").inc()
            raise
        finally:
            SCHEDULED_SECONDS.labels(name).observe(time.perf_counter() - start)
        SCHEDULED_RUNS.labels(name, "ok").inc()
        log.debug("periodic task %s done in %.0f ms", name, (time.perf_counter() - start) * 1000)

    return call


def install(
    worker: Worker,
    settings: Settings,
    session_factory: async_sessionmaker[AsyncSession],
    runner: JobRunner,
) -> None:
    """Register archival and distillation with ``worker`` and instrument every periodic
    task it has (the silence scan included)."""
    lifecycle = settings.lifecycle
    # The runner's LLM (None: offline distillation), the same the extractor uses.
    llm = getattr(runner.extractor, "client", None)

    async def archive() -> dict[str, int]:
        async with session_factory() as session, session.begin():
            report = await archive_expired(session, datetime.now(UTC), settings.ttl, lifecycle)
        LIFECYCLE_ITEMS.labels("archived_units").inc(report.archived)
        LIFECYCLE_ITEMS.labels("access_log_pruned").inc(report.access_log_pruned)
        log.info(
            "lifecycle.archive: %d expired unit(s) archived, %d access-log row(s) pruned",
            report.archived,
            report.access_log_pruned,
        )
        return {"archived": report.archived, "access_log_pruned": report.access_log_pruned}

    async def distill() -> dict[str, int]:
        done = await distill_due(
            session_factory,
            datetime.now(UTC),
            store_factory=runner.store_factory,
            settings=lifecycle,
            llm=llm,
            parse_retries=settings.llm.parse_retries,
        )
        LIFECYCLE_ITEMS.labels("distilled_subjects").inc(done)
        log.info("lifecycle.distill: %d subject(s) distilled", done)
        return {"distilled_subjects": done}

    if lifecycle.archive_interval_s > 0:
        worker.add_periodic("lifecycle.archive", lifecycle.archive_interval_s, archive)
    if lifecycle.distill_interval_s > 0:
        worker.add_periodic("lifecycle.distill", lifecycle.distill_interval_s, distill)
    for task in worker.periodic:
        task.run = instrumented(task.name, task.run)
    log.info(
        "periodic tasks: %s",
        ", ".join(f"{t.name} every {t.interval_s:g} s" for t in worker.periodic) or "none",
    )
