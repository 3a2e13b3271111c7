"""Recall never shows the same fact twice (docs/ARCHITECTURE.md, "The life of a /recall"):
the final ``top_k`` collapses units the pair decision calls duplicates
(:func:`app.services.memory.pairs.plan.plan`: the same canonical form, or a merge by the
classifier with agreeing entities) into the best-ranked of them, which lists the others in
``duplicates`` — an agent's context is not filled with paraphrases that the write path left
apart (stored before the decision could merge them, by an older version, or by two agents
of one user: each agent's units are a write subject of their own). A type or entities
``/store`` read from a value decide the pair as on the write path
(:mod:`app.services.memory.pairs.inferred`): "The user is vegan" (read as a constraint) and
"The user eats no animal products" (a fact) are one hit.

Cheap: only the head of the ranking is compared (``top_k`` plus a margin that refills the
places of collapsed hits), with the pairs of the one statement that also reads the head's
answer columns (app.repositories.recall.duplicates): their cosines computed in the database
from the stored vectors, pairs below :func:`pair_floor` skipped unless the write path linked
them as duplicates of two write subjects (app.services.memory.elsewhere: decided when the
newer was stored, at any cosine, so no decision here), and a pair decided only
when the walk through the head needs it (a hit against the groups already kept, best-placed
first, until one merges): a head of 15 copies of one turn costs ~14 decisions, not one per
pair above the floor (~72 a recall in the 1M benchmark, docs/BENCHMARKS.md).

The same pairs make the final list diverse: a hit that nearly repeats a better-placed one
(value cosine above :data:`DIVERSITY_FLOOR`) loses :data:`DIVERSITY_WEIGHT` × the excess
from its score, and the head is put in that order (maximal marginal relevance, greedy).
Chat transcripts repeat themselves ("Thanks, Jon!" next to "Thanks, Gina!"; the same topic
turn after turn), and a top 10 that holds three wordings of one exchange has no room for
the second session an answer needs. LoCoMo dev recall@10 (non-adversarial) 0.829 → 0.838
in-sample and 0.834 leave one conversation out (docs/EVAL.md "Diversity of the final
list").
"""

from __future__ import annotations

import dataclasses
import uuid
from collections.abc import Mapping, Sequence

from app.repositories.recall.duplicates import ClosePair
from app.repositories.recall.sql import RecalledUnit
from app.services.memory.pairs.decision import Thresholds
from app.services.memory.pairs.inferred import as_decided, inferred_fields
from app.services.memory.pairs.plan import Candidate, pair_decision
from app.services.recall.replaced import after_replacements
from app.services.recall.scoring import Ranked

# Extra candidates read beyond top_k, so a collapsed hit's place is filled by the next one
# (and the diversity step has something to choose from).
MARGIN = 5

# Maximal marginal relevance on the head: a hit loses DIVERSITY_WEIGHT x (cosine -
# DIVERSITY_FLOOR) for the most similar hit placed before it (value vectors, e5-small's
# scale, where most turns of one conversation sit at 0.80-0.90 to each other). Chosen on the
# LoCoMo dev split leave one conversation out among weights 0.5-2 and floors 0.88-0.92
# (scripts/recall_offline.py); 0 switches it off.
DIVERSITY_WEIGHT = 1.0
DIVERSITY_FLOOR = 0.90


def diversify(
    head: Sequence[Ranked], cosines: dict[tuple[uuid.UUID, uuid.UUID], float]
) -> list[Ranked]:
    """``head`` (best first) in maximal-marginal-relevance order: repeatedly the hit with the
    best score less its redundancy penalty (:data:`DIVERSITY_WEIGHT` × how far its cosine to
    a hit already placed exceeds :data:`DIVERSITY_FLOOR`, the largest), ties in the given
    order. A penalised hit's ``score`` is the reduced one, so the list stays sorted by score;
    its ``redundancy`` is the penalty and ``redundant_with`` the placed hit that caused it.
    ``cosines``: (a, b) → the value cosine of the two units (both orders), for the pairs at
    the floor or above."""
    if DIVERSITY_WEIGHT <= 0 or not cosines:
        return list(head)
    penalty = [0.0] * len(head)
    cause: list[uuid.UUID | None] = [None] * len(head)
    pool = list(range(len(head)))
    out: list[Ranked] = []
    while pool:
        pick = max(pool, key=lambda i: (head[i].score - penalty[i], -i))
        pool.remove(pick)
        chosen = head[pick]
        out.append(
            dataclasses.replace(
                chosen,
                score=chosen.score - penalty[pick],
                redundancy=penalty[pick],
                redundant_with=cause[pick],
            )
            if penalty[pick] > 0
            else chosen
        )
        for i in pool:
            cos = cosines.get((chosen.id, head[i].id))
            if cos is not None and cos > DIVERSITY_FLOOR:
                cost = DIVERSITY_WEIGHT * (cos - DIVERSITY_FLOOR)
                if cost > penalty[i]:
                    penalty[i], cause[i] = cost, chosen.id
    return out


def head_of(ranked: Sequence[Ranked], top_k: int) -> list[Ranked]:
    """The part of the ranking :func:`collapse` looks at: the best ``top_k`` + MARGIN."""
    return list(ranked[: top_k + MARGIN])


def _merge_floor(thresholds: Thresholds) -> float:
    # Only pairs in the unsure band or above: a merge needs the same content words (or the
    # same canonical form), which sits far above the candidate gate; chat turns crowd the
    # band between (e5-small: most of a transcript's neighbours are at 0.85-0.94).
    return max(thresholds.candidate_cosine, thresholds.review_cosine)


def pair_floor(thresholds: Thresholds, diverse: bool = True) -> float:
    """The lowest value cosine of a pair :func:`collapse` needs (with ``diverse``, the
    diversity step's floor when it is lower than the pair decision's)."""
    floor = _merge_floor(thresholds)
    return min(floor, DIVERSITY_FLOOR) if diverse and DIVERSITY_WEIGHT > 0 else floor


def collapse(
    head: Sequence[Ranked],
    pairs: Sequence[ClosePair],
    top_k: int,
    thresholds: Thresholds,
    diverse: bool = True,
    units: Mapping[uuid.UUID, RecalledUnit] | None = None,
) -> tuple[list[Ranked], dict[uuid.UUID, list[uuid.UUID]]]:
    """The best ``top_k`` of ``head`` (:func:`head_of` the ranking) with duplicates folded
    into the best-ranked unit of each group, and for each kept hit the ids it stands for
    (best-ranked first). ``pairs``: the head's pairs at :func:`pair_floor` or above
    (``RecallRepository.head``). With ``diverse`` (not after an LLM rerank, whose order
    stands), the head is first put in :func:`diversify` order. ``units``: the head's answer
    columns (``RecallRepository.head``), whose ``metadata.inferred`` (the fields ``/store``
    read from a value) is held against no merge as the write path holds it; a unit not in
    it has none."""
    read = {i: inferred_fields(u.metadata_) for i, u in (units or {}).items()}
    head = after_replacements(head, pairs)  # another agent's older value after the newer
    floor = _merge_floor(thresholds)
    diverse = diverse and DIVERSITY_WEIGHT > 0
    if diverse:
        cosines = {(p.a, p.b): p.cosine for p in pairs} | {(p.b, p.a): p.cosine for p in pairs}
        head = diversify(head, cosines)
    # The pairs the pair decision may merge, each decided only when the walk below asks: a
    # hit is compared with the kept hits' groups in their order (a group's members in the
    # order they were placed) until one merges, so a head of copies of one turn costs about
    # one decision per copy, not one per pair. A hit that duplicates units of two groups
    # goes to the better-placed group.
    close: dict[uuid.UUID, dict[uuid.UUID, ClosePair]] = {}
    for p in pairs:
        if p.cosine >= floor or p.a_value == p.b_value or p.linked:
            close.setdefault(p.a, {})[p.b] = p
            close.setdefault(p.b, {})[p.a] = p
    if not close:
        return head[:top_k], {}
    kept: list[Ranked] = []
    groups: dict[uuid.UUID, list[uuid.UUID]] = {}  # kept hit -> it and the units folded in
    owner: dict[uuid.UUID, uuid.UUID] = {}  # placed unit -> the kept hit standing for it
    for r in head:
        near = close.get(r.id, {})
        into = next(
            (
                g
                for g, members in groups.items()
                if any(o in near and _merges(near[o], thresholds, read) for o in members)
            ),
            None,
        )
        if into is not None:  # a duplicate of a better-ranked kept hit
            groups[into].append(r.id)
            owner[r.id] = into
        elif len(kept) < top_k:
            kept.append(r)
            groups[r.id] = [r.id]
            owner[r.id] = r.id
    duplicates = {g: members[1:] for g, members in groups.items() if len(members) > 1}
    kept = redirect_redundancy(kept, owner)
    return kept, duplicates


def _merges(
    p: ClosePair, thresholds: Thresholds, inferred: Mapping[uuid.UUID, frozenset[str]]
) -> bool:
    """Whether the pair decision merges ``p`` (``b`` as the new unit, ``a`` its neighbour),
    each side's inferred fields read as the write path reads them
    (:func:`~app.services.memory.pairs.inferred.as_decided`). A pair the write path linked
    as duplicates across write subjects (``p.linked``) merges without a decision."""
    if p.linked:
        return True
    none: frozenset[str] = frozenset()
    seen = as_decided(p.b_type, p.b_keys, inferred.get(p.b, none),
                      p.a_type, p.a_keys, inferred.get(p.a, none))  # fmt: skip
    candidate = Candidate(p.a_value, seen.other_type, seen.other_keys, p.cosine)
    return (
        pair_decision(p.b_value, p.b_type, seen.own_keys, candidate, thresholds).action == "merge"
    )


def redirect_redundancy(kept: Sequence[Ranked], owner: dict[uuid.UUID, uuid.UUID]) -> list[Ranked]:
    """``kept`` with each ``redundant_with`` that names a unit folded into another hit
    (``owner``: unit → the kept hit it is collapsed into) naming that hit instead, so it
    always points into the answer. The owner was placed before the folded unit, and so
    before the redundant hit too."""
    return [
        dataclasses.replace(r, redundant_with=owner[r.redundant_with])
        if r.redundant_with in owner and owner[r.redundant_with] != r.redundant_with
        else r
        for r in kept
    ]
