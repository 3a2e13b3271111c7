"""The link backfill (issue 28, step 3: recall never shows one fact twice, whatever storage
holds). Since 2026-12-07 the write path decides each unit it creates against the nearest
units of the same user in the other write subjects and records ``duplicate`` and
``replaces`` links (app.services.memory.elsewhere). Units stored before were never decided:
migration 0021 marks them ``links_decided`` false, and the worker's archival sweep decides a
batch of them per run (``LIFECYCLE__LINK_BACKFILL_BATCH``, oldest first) with the same rule,
then marks them, so recall's collapse covers an upgraded database too.

A unit that is not live (merged, superseded, archived, expired) or was embedded by another
model than the running one is marked without a decision: the write path would not have found
it either. Runs in the caller's transaction; rows another sweep holds are skipped.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

import numpy as np

from app.core.vocabulary import UnitStatus
from app.models import MemoryUnit
from app.repositories.memory.elsewhere import ElsewhereRepository
from app.repositories.memory.units import Subject
from app.services.memory.elsewhere import link_duplicates
from app.services.memory.pairs.decision import Thresholds


@dataclass(frozen=True)
class BackfillReport:
    """What one backfill run did: units decided and marked, links recorded."""

    decided: int
    links: int


def _live(unit: MemoryUnit, model: str, now: datetime) -> bool:
    return (
        unit.status == UnitStatus.ACTIVE.value
        and unit.embedding_model == model
        and unit.value_embedding is not None
        and (unit.expires_at is None or unit.expires_at > now)
    )


async def backfill_links(
    repo: ElsewhereRepository, model: str, thresholds: Thresholds, now: datetime, limit: int
) -> BackfillReport:
    """Decide at most ``limit`` undecided units (``links_decided`` false, oldest first)
    against the user's units in the other write subjects, as the write path decides a new
    unit (:func:`app.services.memory.elsewhere.link_duplicates`), record the links and mark
    the units decided. ``limit`` 0 does nothing. Returns the counts."""
    if limit <= 0:
        return BackfillReport(0, 0)
    units = await repo.undecided(limit)
    live = [
        (Subject(u.namespace, u.user_id, u.agent_id), u, np.asarray(u.value_embedding))
        for u in units
        if _live(u, model, now)
    ]
    linked = await link_duplicates(repo, live, model, thresholds, now)
    await repo.mark_decided([u.id for u in units])
    return BackfillReport(len(units), len(linked))
