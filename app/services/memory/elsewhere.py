"""Duplicates across write subjects (issue 28, step 3: recall never shows the same fact
twice). Each agent's units are a write subject of their own and the write path never merges
across subjects, so two agents of one user can each hold one fact in their own words. After a
store, each unit it created is decided against the nearest live units of the same user in the
other subjects (:data:`LIMIT` of them at a value cosine ≥ the candidate gate) with the write
path's own rule (:func:`app.services.memory.pairs.plan.pair_decision`, inferred fields read as
:mod:`app.services.memory.pairs.inferred` reads them); a pair it merges is recorded as a
``duplicate`` link, a pair it calls a contradiction as a ``replaces`` link from the newer of
the two (:func:`newer`; app.repositories.memory.elsewhere; tester hbreak9 K2: "lives in
Berlin" told to one agent, "moved to Munich" to another), and both units stay active in their
subjects. Recall's
collapse (app.services.recall.collapse) folds a duplicate pair into one hit at any cosine and
ranks a replaced unit right after what replaced it (:mod:`app.services.recall.replaced`);
without a link it decides only pairs above the review band (a pair decision costs 0.5–5 ms,
too much for every pair of a recall's head).

Cost on the write path: one statement per subject of the batch, and the decisions of the
units it finds (none for a user with one subject, the common case).
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import datetime

import numpy as np

from app.core.vocabulary import UnitStatus
from app.models import MemoryUnit
from app.repositories.memory.elsewhere import (
    DUPLICATE_LINK,
    REPLACES_LINK,
    Elsewhere,
    ElsewhereRepository,
)
from app.repositories.memory.units import Subject
from app.services.memory.pairs.decision import Thresholds
from app.services.memory.pairs.inferred import as_decided, inferred_fields
from app.services.memory.pairs.plan import Candidate, pair_decision

LIMIT = 3
"""Units of other subjects decided per new unit (the nearest by value)."""


def link_kind(unit: MemoryUnit, other: Elsewhere, thresholds: Thresholds) -> str | None:
    """The link of ``unit`` to ``other`` by the pair decision, the newer of the two
    (:func:`newer`) decided as the new unit against the older, as the write path would
    decide them in one subject: :data:`DUPLICATE_LINK` for a merge; for a contradiction
    :data:`REPLACES_LINK` when ``unit`` is the newer, :data:`REPLACED_BY` when ``other`` is;
    else None."""
    mine = (unit.value, unit.type, unit.entity_keys or (), inferred_fields(unit.metadata_))
    theirs = (other.value, other.type, other.entity_keys, inferred_fields(other.metadata))
    first = newer(unit, other)
    new, old = (mine, theirs) if first else (theirs, mine)
    seen = as_decided(new[1], new[2], new[3], old[1], old[2], old[3])
    candidate = Candidate(old[0], seen.other_type, seen.other_keys, other.cosine)
    decision = pair_decision(new[0], new[1], seen.own_keys, candidate, thresholds)
    if decision.action == "merge":
        return DUPLICATE_LINK
    if decision.action == "contradicts":
        return REPLACES_LINK if first else REPLACED_BY
    return None


REPLACED_BY = "replaced_by"
"""What :func:`link_kind` returns when ``other`` replaces ``unit`` (linked the other way)."""


def newer(unit: MemoryUnit, other: Elsewhere) -> bool:
    """Whether ``unit`` says the later state: by ``occurred_at`` when both are dated (a late
    account of an older state is older), else by when each was stored."""
    if unit.occurred_at is not None and other.occurred_at is not None:
        return unit.occurred_at >= other.occurred_at
    return unit.created_at >= other.created_at


async def link_duplicates(
    repo: ElsewhereRepository,
    created: Sequence[tuple[Subject, MemoryUnit, np.ndarray]],
    model: str,
    thresholds: Thresholds,
    now: datetime,
) -> list[tuple[uuid.UUID, uuid.UUID, str]]:
    """Link each unit of ``created`` ((its subject, the flushed unit, its value vector)) to
    the units of other subjects that the pair decision calls its duplicates or whose value it
    changes (:func:`link_kind`); returns the (target, source, kind) links, each from the
    newer unit of its pair (:func:`newer`)."""
    by_subject: dict[Subject, list[tuple[MemoryUnit, np.ndarray]]] = {}
    for subject, unit, vector in created:
        by_subject.setdefault(subject, []).append((unit, vector))
    linked: list[tuple[uuid.UUID, uuid.UUID, str]] = []
    for subject, units in by_subject.items():
        found = await repo.nearest(
            subject,
            model,
            [v for _, v in units],
            limit=LIMIT,
            floor=thresholds.candidate_cosine,
            now=now,
        )
        for (unit, _), near in zip(units, found, strict=True):
            for other in near:
                kind = link_kind(unit, other, thresholds)
                if kind == REPLACED_BY:  # a correction of the older unit: the other is newer
                    linked.append((other.id, unit.id, REPLACES_LINK))
                elif kind is not None:  # from the newer of the two (a backfilled unit may be older)
                    first = newer(unit, other)
                    linked.append((unit.id, other.id, kind) if first else (other.id, unit.id, kind))
    return await repo.link(linked, now)  # two units of one call that find each other: one link


async def relink(
    repo: ElsewhereRepository,
    subject: Subject,
    unit: MemoryUnit,
    model: str,
    thresholds: Thresholds,
    now: datetime,
) -> list[tuple[uuid.UUID, uuid.UUID, str]]:
    """After a correction of ``unit``'s value, type, entities or status (flushed): its links
    go (they were decided on what it said before) and, when it is active with a vector of
    ``model``, it is linked again as a new unit would be. The units it was linked to that
    are still active are decided again too (tester hbreak9 K14: two agents' wordings linked
    only through the corrected unit must stay one hit once it leaves). Returns the new
    links."""
    partners = await repo.unlink(unit.id)
    again: list[tuple[Subject, MemoryUnit, np.ndarray]] = []
    if unit.status == UnitStatus.ACTIVE and unit.embedding_model == model:
        again.append((subject, unit, np.asarray(unit.value_embedding, dtype=np.float32)))
    for other in partners:
        if other.status == UnitStatus.ACTIVE and other.embedding_model == model:
            vector = np.asarray(other.value_embedding, dtype=np.float32)
            again.append((Subject(other.namespace, other.user_id, other.agent_id), other, vector))
    return await link_duplicates(repo, again, model, thresholds, now)
