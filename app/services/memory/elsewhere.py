"""Duplicates across write subjects (issue 28, step 3: recall never shows the same fact
twice). Each agent's units are a write subject of their own and the write path never merges
across subjects, so two agents of one user can each hold one fact in their own words. After a
store, each unit it created is decided against the nearest live units of the same user in the
other subjects (:data:`LIMIT` of them at a value cosine ≥ the candidate gate) with the write
path's own rule (:func:`app.services.memory.pairs.plan.pair_decision`, inferred fields read as
:mod:`app.services.memory.pairs.inferred` reads them); a pair it merges is recorded as a
``duplicate`` link (app.repositories.memory.elsewhere) and both units stay active. Recall's
collapse (app.services.recall.collapse) folds a linked pair into one hit at any cosine; without
the link it decides only pairs above the review band (a pair decision costs 0.5–5 ms, too much
for every pair of a recall's head).

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
from app.repositories.memory.elsewhere import Elsewhere, ElsewhereRepository
from app.repositories.memory.units import Subject
from app.services.memory.pairs.decision import Thresholds
from app.services.memory.pairs.inferred import as_decided, inferred_fields
from app.services.memory.pairs.plan import Candidate, pair_decision

LIMIT = 3
"""Units of other subjects decided per new unit (the nearest by value)."""


def restates(unit: MemoryUnit, other: Elsewhere, thresholds: Thresholds) -> bool:
    """Whether the pair decision merges the new ``unit`` with ``other`` (as the write path
    would if both were in one subject)."""
    seen = as_decided(unit.type, unit.entity_keys or (), inferred_fields(unit.metadata_),
                      other.type, other.entity_keys, inferred_fields(other.metadata))  # fmt: skip
    candidate = Candidate(other.value, seen.other_type, seen.other_keys, other.cosine)
    decision = pair_decision(unit.value, unit.type, seen.own_keys, candidate, thresholds)
    return decision.action == "merge"


async def link_duplicates(
    repo: ElsewhereRepository,
    created: Sequence[tuple[Subject, MemoryUnit, np.ndarray]],
    model: str,
    thresholds: Thresholds,
    now: datetime,
) -> list[tuple[uuid.UUID, uuid.UUID]]:
    """Link each new unit of ``created`` ((its subject, the flushed unit, its value vector))
    to the units of other subjects that the pair decision calls its duplicates; returns the
    (new, other) pairs linked."""
    by_subject: dict[Subject, list[tuple[MemoryUnit, np.ndarray]]] = {}
    for subject, unit, vector in created:
        by_subject.setdefault(subject, []).append((unit, vector))
    linked: list[tuple[uuid.UUID, uuid.UUID]] = []
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
            linked += [(unit.id, o.id) for o in near if restates(unit, o, thresholds)]
    await repo.link(linked, now)
    return linked


async def relink(
    repo: ElsewhereRepository,
    subject: Subject,
    unit: MemoryUnit,
    model: str,
    thresholds: Thresholds,
    now: datetime,
) -> list[tuple[uuid.UUID, uuid.UUID]]:
    """After a correction of ``unit``'s value, type or entities (flushed): its ``duplicate``
    links go (they were decided on what it said before) and, when it is active with a vector
    of ``model``, it is linked again as a new unit would be. Returns the new links."""
    await repo.unlink(unit.id)
    if unit.status != UnitStatus.ACTIVE or unit.embedding_model != model:
        return []
    vector = np.asarray(unit.value_embedding, dtype=np.float32)
    return await link_duplicates(repo, [(subject, unit, vector)], model, thresholds, now)
