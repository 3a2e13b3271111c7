"""Which subjects get HNSW indexes of their own, and the worker's sweep that builds and drops
them (app.repositories.recall.subject_indexes has the SQL and the reason).

A subject gets its two indexes (value and trigger-scenario embeddings) when it holds at least
``RECALL__SUBJECT_INDEX_MIN_UNITS`` active units and at most ``RECALL__SUBJECT_INDEX_MAX_SHARE``
of the table (a subject that is most of the table gains nothing over the shared indexes), the
``RECALL__SUBJECT_INDEX_MAX`` largest first. Every partial index is one more predicate for the
planner to test per statement and one more for every INSERT, hence the cap. A subject keeps
its indexes until it falls under half of the minimum (so one around the threshold is not built
and dropped in turn), leaves the cap, or is forgotten (then the next sweep drops them; until
then the index's predicate still names the subject's ids, docs/LIFECYCLE.md).

Recall needs nothing more: PostgreSQL's planner picks a subject's own index for a statement
whose WHERE names that subject, as long as the plan is made for the statement's values
(``plan_cache_mode = force_custom_plan`` on the large path, app.repositories.recall.repository).
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field

from app.core.settings.memory import RecallSettings
from app.repositories.recall.subject_indexes import (
    COLUMNS,
    SubjectIndex,
    SubjectIndexRepository,
)

log = logging.getLogger("hindsight.subject_indexes")


@dataclass
class SweepReport:
    """What one sweep did: index names built and dropped, and the subjects that now have
    both of their indexes (namespace, user_id); nothing when another process was sweeping."""

    built: list[str] = field(default_factory=list)
    dropped: list[str] = field(default_factory=list)
    indexed: list[tuple[str, str]] = field(default_factory=list)
    seconds: float = 0.0
    skipped: bool = False  # another process held the sweep's lock


class SubjectIndexer:
    """Builds and drops subject indexes to match :func:`wanted` (one repository, on a session
    that has not begun a transaction)."""

    def __init__(self, repo: SubjectIndexRepository, settings: RecallSettings) -> None:
        self.repo = repo
        self.settings = settings

    async def wanted(self, existing: set[tuple[str, str]]) -> list[tuple[str, str]]:
        """The subjects that should have indexes, largest first: those of ``existing`` still
        over half the minimum, then new ones over the minimum, up to the cap; none over the
        maximum share of the table."""
        s = self.settings
        if s.subject_index_min_units <= 0 or s.subject_index_max <= 0:
            return []
        floor = max(s.subject_index_min_units // 2, 1)
        sizes = await self.repo.large_subjects(floor, 4 * s.subject_index_max)
        table = max(await self.repo.table_units(), sum(n for _, _, n in sizes))
        out: list[tuple[str, str]] = []
        for namespace, user_id, n in sizes:
            if len(out) >= s.subject_index_max or n > s.subject_index_max_share * table:
                continue
            if (namespace, user_id) in existing or n >= s.subject_index_min_units:
                out.append((namespace, user_id))
        return out

    async def sweep(self) -> SweepReport:
        """Drop the indexes no longer wanted (and invalid ones, left by a failed or interrupted
        build), then build the missing ones, largest subject first. A failed build is logged
        and left for the next sweep; the others go on."""
        start = time.perf_counter()
        report = SweepReport()
        if not await self.repo.try_lock():
            report.skipped = True  # another worker is sweeping
            return report
        try:
            await self._sweep(report)
        finally:
            await self.repo.unlock()
        report.seconds = time.perf_counter() - start
        return report

    async def _sweep(self, report: SweepReport) -> None:
        listed = await self.repo.listed()
        valid: dict[tuple[str, str], set[str]] = {}
        for ix in listed:
            if ix.valid and ix.column:
                valid.setdefault((ix.namespace, ix.user_id), set()).add(ix.column)
        want = await self.wanted(set(valid))
        keep = set(want)
        for ix in listed:
            if not ix.valid or not ix.column or (ix.namespace, ix.user_id) not in keep:
                await self._drop(ix, report)
        for namespace, user_id in want:
            have = valid.get((namespace, user_id), set())
            ok = True
            for column in COLUMNS:
                if column in have:
                    continue
                try:
                    name = await self.repo.create(
                        namespace, user_id, column, self.settings.subject_index_build_memory
                    )
                except Exception:
                    log.exception("subject index of %s/%s (%s) failed", namespace, user_id, column)
                    ok = False
                    continue
                report.built.append(name)
            if ok:
                report.indexed.append((namespace, user_id))

    async def _drop(self, ix: SubjectIndex, report: SweepReport) -> None:
        await self.repo.drop(ix.name)
        report.dropped.append(ix.name)
