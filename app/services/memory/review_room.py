"""How many more pair reviews one store call may open (tester F34: an agent's session of 300
similar progress lines, closed and extracted, opened 2,356 contradiction reviews, each line
against every neighbour — contradictions open beyond ``DEDUPE__MAX_UNSURE``).

Two bounds: a unit is part of at most ``DEDUPE__MAX_REVIEWS_PER_UNIT`` open reviews (either
side, any kind), and a call — an extraction job passes what is left of
``EXTRACTION__MAX_REVIEWS_PER_JOB`` — opens at most its budget. A pair beyond them is left
alone (no review; a contradiction of unclear order is not linked either), and the store
outcome counts it (``held_back``)."""

from __future__ import annotations

import uuid

from app.core.config import ConflictSettings
from app.models import MemoryUnit, PairReview
from app.repositories.memory.reviews import PairReviewRepository
from app.services.memory.pairs.decision import PairDecision
from app.services.memory.resolution import order, pending_review

Pairs = list[tuple[int, PairDecision]]  # (index of the neighbour, the pair's decision)


class ReviewRoom:
    """The open reviews of the units one store call has seen (read once per unit, then
    counted as the call opens more) and what is left of its budget (None: no budget)."""

    def __init__(self, reviews: PairReviewRepository, per_unit: int, budget: int | None) -> None:
        self.reviews = reviews
        self.per_unit = per_unit
        self.budget = budget
        self._open: dict[uuid.UUID, int] = {}

    async def take(self, unit: uuid.UUID, candidates: list[uuid.UUID]) -> list[bool]:
        """Which of the pairs (``unit``, candidate), in this order, may open a review; each
        admitted one is counted on both units and against the budget."""
        if not candidates:
            return []
        unknown = {unit, *candidates} - self._open.keys()
        if unknown:  # one statement for the units this call has not seen yet
            counts = await self.reviews.open_counts(list(unknown))
            self._open.update({u: counts.get(u, 0) for u in unknown})
        admitted: list[bool] = []
        for other in candidates:
            ok = (self.budget is None or self.budget > 0) and max(
                self._open[unit], self._open[other]
            ) < self.per_unit
            if ok:
                self._open[unit] += 1
                self._open[other] += 1
                self.budget = None if self.budget is None else self.budget - 1
            admitted.append(ok)
        return admitted

    async def admit(
        self,
        unit: MemoryUnit,
        neighbours: list[MemoryUnit],
        contradicts: Pairs,
        unsure: Pairs,
        conflicts: ConflictSettings,
    ) -> tuple[Pairs, Pairs, int]:
        """The new ``unit``'s contradictions and unsure pairs that may go on (a contradiction
        that supersedes one way or the other opens no review: always), and how many are held
        back. Contradictions kept beside the unit (:func:`.resolution.order` unclear: each a
        review) come first, then the unsure pairs, each list most similar first."""
        kept = [
            i
            for i, d in contradicts
            if order(unit, neighbours[i], conflicts, d.reason) == "unclear"
        ]
        asks = kept + [i for i, _ in unsure]
        ok = dict(
            zip(asks, await self.take(unit.id, [neighbours[i].id for i in asks]), strict=True)
        )
        held = sum(not v for v in ok.values())
        return [p for p in contradicts if ok.get(p[0], True)], [p for p in unsure if ok[p[0]]], held


def held_back(count: int) -> str | None:
    """What an extraction job's unit entry says of the pairs :class:`ReviewRoom` held back
    (``reason``), None when none were."""
    if not count:
        return None
    return (
        f"{count} possible duplicate or contradiction pair(s) opened no review: the unit, its "
        "neighbour or the job had as many open as DEDUPE__MAX_REVIEWS_PER_UNIT / "
        "EXTRACTION__MAX_REVIEWS_PER_JOB allow"
    )


def unsure_review(
    unit: MemoryUnit, candidate: MemoryUnit, cosine: float, d: PairDecision
) -> PairReview:
    """The pending review of an ``unsure`` pair the write path opens: the new ``unit`` against
    its neighbour ``candidate`` (value cosine ``cosine``), with the pair decision ``d``'s reason,
    probability of a duplicate and whether a merge is allowed."""
    return pending_review(
        unit, candidate, cosine, reason=d.reason, p_same=d.p_same, merge_allowed=d.merge_allowed
    )
