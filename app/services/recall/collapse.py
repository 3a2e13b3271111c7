"""Recall never shows the same fact twice (docs/ARCHITECTURE.md, "The life of a /recall"):
the final ``top_k`` collapses units the pair decision calls duplicates
(:func:`app.services.memory.pairs.decision.plan`: the same canonical form, or a merge by the
classifier with agreeing entities) into the best-ranked of them, which lists the others in
``duplicates`` — an agent's context is not filled with paraphrases that the write path left
apart (stored before the decision could merge them, or by an older version).

Cheap: only the head of the ranking is compared (``top_k`` plus a margin that refills the
places of collapsed hits), with one statement that computes the pairs' cosines in the
database from the stored vectors (app.repositories.recall.duplicates) and skips pairs below
the review band (``DEDUPE__REVIEW_COSINE_BY_MODEL``); the decision is pure and cached per
value.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence

from sqlalchemy.ext.asyncio import AsyncSession

from app.repositories.recall.duplicates import close_pairs
from app.services.memory.pairs.decision import Candidate, Thresholds, plan
from app.services.recall.scoring import Ranked

# Extra candidates read beyond top_k, so a collapsed hit's place is filled by the next one.
MARGIN = 5


async def collapse(
    session: AsyncSession, ranked: Sequence[Ranked], top_k: int, thresholds: Thresholds
) -> tuple[list[Ranked], dict[uuid.UUID, list[uuid.UUID]]]:
    """The best ``top_k`` of ``ranked`` with duplicates folded into the best-ranked unit of
    each group, and for each kept hit the ids it stands for (best-ranked first)."""
    head = list(ranked[: top_k + MARGIN])
    # Only pairs in the unsure band or above: a merge needs the same content words (or the
    # same canonical form), which sits far above the candidate gate; chat turns crowd the
    # band between (e5-small: most of a transcript's neighbours are at 0.85-0.94).
    floor = max(thresholds.candidate_cosine, thresholds.review_cosine)
    pairs = await close_pairs(session, [r.id for r in head], floor)
    same: dict[uuid.UUID, set[uuid.UUID]] = {}
    for p in pairs:
        candidate = Candidate(p.a_value, p.a_type, frozenset(p.a_keys), p.cosine)
        decided = plan(p.b_value, p.b_type, frozenset(p.b_keys), [candidate], thresholds, 0)
        if decided.merge_into is not None:
            same.setdefault(p.a, set()).add(p.b)
            same.setdefault(p.b, set()).add(p.a)
    if not same:
        return head[:top_k], {}
    kept: list[Ranked] = []
    duplicates: dict[uuid.UUID, list[uuid.UUID]] = {}
    owner: dict[uuid.UUID, uuid.UUID] = {}
    for r in head:
        into = next((owner[o] for o in same.get(r.id, ()) if o in owner), None)
        if into is not None:  # a duplicate of a better-ranked kept hit
            duplicates.setdefault(into, []).append(r.id)
            owner[r.id] = into
        elif len(kept) < top_k:
            kept.append(r)
            owner[r.id] = r.id
    return kept, {k: v for k, v in duplicates.items() if any(h.id == k for h in kept)}
