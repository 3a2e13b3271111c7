"""A unit another write subject's newer unit changed ranks right after it (tester hbreak9 K2:
"lives in Berlin" told to one agent, "moved to Munich" to another; a recall of the user without
``agent_id`` ranked Berlin first). The write path links the two (``memory_links`` kind
``replaces``, app.services.memory.elsewhere) and leaves both active in their own subjects; the
recall's head statement returns the link (app.repositories.recall.duplicates), and here the
replaced hit's score is capped at its successor's when both are in the head, as a superseded
hit's is (:mod:`app.services.recall.history`). Pure.
"""

from __future__ import annotations

import dataclasses
import uuid
from collections.abc import Sequence

from app.repositories.recall.duplicates import ClosePair
from app.services.recall.scoring import Ranked


def after_replacements(head: Sequence[Ranked], pairs: Sequence[ClosePair]) -> list[Ranked]:
    """``head`` (best first) with each hit that a ``replaces`` link of ``pairs`` names as
    replaced scored at most the hit that replaced it, and sorted again: by score, the newer
    before what it replaced, else in the given order. Unchanged when no pair has a link."""
    newer: dict[uuid.UUID, uuid.UUID] = {}
    for p in pairs:
        if p.replaced is not None:
            newer[p.replaced] = p.b if p.replaced == p.a else p.a
    if not newer:
        return list(head)
    by_id = {r.id: r for r in head}
    score = {r.id: r.score for r in head}
    for _ in range(len(newer)):  # a chain of replacements settles in at most that many steps
        moved = False
        for old, new in newer.items():
            if old in score and new in score and score[old] > score[new]:
                score[old], moved = score[new], True
        if not moved:
            break
    depth = {r.id: 0 for r in head}
    for old in newer:
        seen, at = set(), old
        while at in newer and newer[at] in by_id and at not in seen:
            seen.add(at)
            depth[old] = depth.get(old, 0) + 1
            at = newer[at]
    order = sorted(range(len(head)), key=lambda i: (-score[head[i].id], depth[head[i].id], i))
    return [
        dataclasses.replace(head[i], score=score[head[i].id])
        if score[head[i].id] != head[i].score
        else head[i]
        for i in order
    ]
