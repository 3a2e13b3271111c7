"""The worker's lifecycle schedule (docs/LIFECYCLE.md): archival of expired units (with the
closing of pair reviews pending longer than ``LIFECYCLE__REVIEW_MAX_AGE_DAYS`` and the link
backfill of units stored before the write path linked them across agents) and periodic
distillation, the sweep of subject indexes (recall's HNSW indexes of large subjects), next to
the extraction worker's silent-session scan. Every periodic task of the worker is timed, logged
and counted in Prometheus metrics.

Settings: ``LIFECYCLE__ARCHIVE_INTERVAL_S`` (default 300 s), ``LIFECYCLE__DISTILL_INTERVAL_S``
(default 3600 s), ``RECALL__SUBJECT_INDEX_INTERVAL_S`` (default 600 s), 0 disables a job;
``CLOSURE__SCAN_INTERVAL_S`` for the silence scan.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from prometheus_client import Counter, Histogram
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.core.metrics import LATENCY_BUCKETS
from app.services.lifecycle.distill import distill_due
from app.services.wiring import Resources, Services

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
    "Work done by lifecycle tasks: archived units, pruned access-log rows, old pair reviews"
    " closed, cross-agent links backfilled, distilled subjects, subject indexes built and"
    " dropped.",
    ["kind"],
)


@dataclass
class Periodic:
    """A task the worker runs every ``interval_s`` seconds (errors are logged, not fatal)."""

    name: str
    interval_s: float
    run: Callable[[], Awaitable[Any]]


def instrumented(task: Periodic) -> Periodic:
    """``task`` with run/error counts and a duration histogram (errors re-raised: the worker
    logs them and tries again at the next tick)."""
    name, run = task.name, task.run

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

    return Periodic(name, task.interval_s, call)


def lifecycle_tasks(
    resources: Resources, session_factory: async_sessionmaker[AsyncSession]
) -> list[Periodic]:
    """Archival, distillation and the sweep of subject indexes
    (app.services.recall.subject_indexes), as configured (an interval of 0 leaves a task
    out). Each task owns the transactions it opens."""
    lifecycle = resources.settings.lifecycle

    async def archive() -> dict[str, int]:
        now = datetime.now(UTC)
        async with session_factory() as session, session.begin():
            services = Services(resources, session)
            report = await services.archiver().archive_expired(now)
            closed = await services.reviews_service().sweep(now, lifecycle.review_max_age_days)
            backfill = await services.backfill_links(now)
        LIFECYCLE_ITEMS.labels("links_backfilled").inc(backfill.links)
        LIFECYCLE_ITEMS.labels("archived_units").inc(report.archived)
        LIFECYCLE_ITEMS.labels("access_log_pruned").inc(report.access_log_pruned)
        LIFECYCLE_ITEMS.labels("idempotency_pruned").inc(report.idempotency_pruned)
        LIFECYCLE_ITEMS.labels("reviews_closed").inc(closed)
        log.info(
            "lifecycle.archive: %d expired unit(s) archived, %d access-log row(s) pruned, "
            "%d stored Idempotency-Key answer(s) pruned, %d old pair review(s) closed as "
            "keep_both, %d older unit(s) decided against other agents' (%d link(s))",
            report.archived,
            report.access_log_pruned,
            report.idempotency_pruned,
            closed,
            backfill.decided,
            backfill.links,
        )
        return {
            "archived": report.archived,
            "access_log_pruned": report.access_log_pruned,
            "idempotency_pruned": report.idempotency_pruned,
            "reviews_closed": closed,
            "links_backfilled": backfill.links,
        }

    async def distill() -> dict[str, int]:
        done = await distill_due(
            session_factory, lambda s: Services(resources, s).distill(), datetime.now(UTC)
        )
        LIFECYCLE_ITEMS.labels("distilled_subjects").inc(done)
        log.info("lifecycle.distill: %d subject(s) distilled", done)
        return {"distilled_subjects": done}

    async def subject_indexes() -> dict[str, int]:
        # CREATE/DROP INDEX CONCURRENTLY run outside any transaction (autocommit).
        async with session_factory() as session:
            report = await Services(resources, session).subject_indexer().sweep()
        LIFECYCLE_ITEMS.labels("subject_indexes_built").inc(len(report.built))
        LIFECYCLE_ITEMS.labels("subject_indexes_dropped").inc(len(report.dropped))
        if report.built or report.dropped:
            log.info(
                "recall.subject_indexes: built %s, dropped %s in %.1f s; %d subject(s) indexed",
                ", ".join(report.built) or "none",
                ", ".join(report.dropped) or "none",
                report.seconds,
                len(report.indexed),
            )
        return {"built": len(report.built), "dropped": len(report.dropped)}

    tasks = []
    recall = resources.settings.recall
    if recall.subject_index_interval_s > 0 and recall.subject_index_min_units > 0:
        tasks.append(
            Periodic("recall.subject_indexes", recall.subject_index_interval_s, subject_indexes)
        )
    if lifecycle.archive_interval_s > 0:
        tasks.append(Periodic("lifecycle.archive", lifecycle.archive_interval_s, archive))
    if lifecycle.distill_interval_s > 0:
        tasks.append(Periodic("lifecycle.distill", lifecycle.distill_interval_s, distill))
    return tasks
