"""``include_superseded``: history is added to a recall's answer without demoting the current
value below what it replaced (tester F17: "Where does the user live?" listed two superseded
Boston units above the active "moved to Seattle", 0.67 → 0.34 once the old values joined the
min-max scaling).

The rule: a superseded hit never ranks above the unit that superseded it. Its score is capped
at its successor's, so one that scored higher is listed right after the successor, and one
that already ranked below keeps its place — when that successor is among the head of the
ranking (``top_k`` + MARGIN, app.services.recall.collapse.head_of). A superseded hit whose
successor is not there (the successor does not match the query: "Where does the user work?"
after a move superseded a unit holding both the job and the address) keeps its own score and
place. The active hits keep their order among themselves.
"""

from __future__ import annotations

import dataclasses
import uuid
from collections.abc import Mapping, Sequence

from app.core.vocabulary import UnitStatus
from app.repositories.recall.sql import RecalledUnit
from app.services.recall.scoring import Ranked


def after_successors(
    head: Sequence[Ranked], units: Mapping[uuid.UUID, RecalledUnit], on: bool
) -> list[Ranked]:
    """``head`` (best first) with each superseded hit whose successor (``superseded_by``) is
    in ``head`` scored at most its successor's (capped) score, and sorted again
    (:func:`capped_after`). ``units``: the head's answer columns by id (a hit missing there
    is left as it is). ``on``: the request's ``include_superseded`` (False: ``head``
    unchanged)."""
    if not on:
        return list(head)
    successor = {
        r.id: unit.superseded_by
        for r in head
        if (unit := units.get(r.id)) is not None
        and unit.status == UnitStatus.SUPERSEDED
        and unit.superseded_by is not None
    }
    return capped_after(head, successor)


def capped_after(head: Sequence[Ranked], successor: Mapping[uuid.UUID, uuid.UUID]) -> list[Ranked]:
    """``head`` (best first) with each hit whose ``successor`` (hit id → the id of the hit
    that replaced it) is in ``head`` scored at most its successor's (capped) score, and
    sorted again: by score, a successor before what it replaced, else in the given order.
    The one rule of a superseded hit (:func:`after_successors`) and of another write
    subject's replaced unit (:mod:`app.services.recall.replaced`)."""
    if not successor:
        return list(head)
    place = {r.id: i for i, r in enumerate(head)}
    capped: dict[uuid.UUID, tuple[float, int]] = {}  # id → (score, depth in its chain)

    def cap(r: Ranked, seen: frozenset[uuid.UUID]) -> tuple[float, int]:
        if r.id in capped:
            return capped[r.id]
        after = successor.get(r.id)
        if after is None or after not in place or after in seen:
            capped[r.id] = (r.score, 0)
        else:
            score, depth = cap(head[place[after]], seen | {r.id})
            capped[r.id] = (min(r.score, score), depth + 1)
        return capped[r.id]

    keys = [(-cap(r, frozenset())[0], capped[r.id][1], i) for i, r in enumerate(head)]
    out: list[Ranked] = []
    for _, _, i in sorted(keys):
        r, score = head[i], capped[head[i].id][0]
        out.append(dataclasses.replace(r, score=score) if score != r.score else r)
    return out
