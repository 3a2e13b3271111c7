"""A unit another write subject's newer unit changed ranks right after it (tester hbreak9 K2:
"lives in Berlin" told to one agent, "moved to Munich" to another; a recall of the user without
``agent_id`` ranked Berlin first). The write path links the two (``memory_links`` kind
``replaces``, app.services.memory.elsewhere) and leaves both active in their own subjects; the
recall's head statement returns the link (app.repositories.recall.duplicates), and here the
replaced hit's score is capped at its successor's when both are in the head, as a superseded
hit's is (:mod:`app.services.recall.history`). Pure.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from app.repositories.recall.duplicates import ClosePair
from app.services.recall.history import capped_after
from app.services.recall.scoring import Ranked


def after_replacements(head: Sequence[Ranked], pairs: Sequence[ClosePair]) -> list[Ranked]:
    """``head`` (best first) with each hit that a ``replaces`` link of ``pairs`` names as
    replaced scored at most the hit that replaced it and naming it (``replaced_by``: the
    answer says which hit is stale, tester hbreak10 L11), and sorted again: by score, the
    newer before what it replaced, else in the given order (:func:`.history.capped_after`).
    Unchanged when no pair has a link."""
    successor = {p.replaced: (p.b if p.replaced == p.a else p.a) for p in pairs if p.replaced}
    return [
        replace(r, replaced_by=successor[r.id]) if r.id in successor else r
        for r in capped_after(head, successor)
    ]
